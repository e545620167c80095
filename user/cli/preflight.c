// SPDX-License-Identifier: GPL-2.0
#include "preflight.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "log.h"

/* The interface's flags, or -errno (-ENODEV: no such interface). */
static int iface_flags(const char *iface, short *flags)
{
	struct ifreq ifr = { 0 };
	int fd, err = 0;

	if (strlen(iface) >= sizeof(ifr.ifr_name))
		return -ENODEV;
	strcpy(ifr.ifr_name, iface);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		err = -errno;
	else
		*flags = ifr.ifr_flags;
	close(fd);
	return err;
}

int preflight_iface(const char *iface, enum preflight_link need)
{
	char why[IF_NAMESIZE + 48];
	short flags = 0;
	int err;

	err = iface_flags(iface, &flags);
	if (err == -ENODEV) {
		pxp_err("no such interface %s", iface);
		return err;
	}
	if (err) {
		pxp_err("%s: cannot read its flags: %s", iface, strerror(-err));
		return err;
	}
	/* IFF_RUNNING is the operational state: up with a carrier (RFC 2863 "up"). */
	if (!(flags & IFF_UP))
		snprintf(why, sizeof(why), "set down; ip link set %s up", iface);
	else if (!(flags & IFF_RUNNING))
		snprintf(why, sizeof(why), "no carrier");
	else
		return 0;
	switch (need) {
	case PREFLIGHT_LINK_ANY:
		return 0;
	case PREFLIGHT_LINK_WARN:
		pxp_warn("%s: link is down (%s); --persist: discovery retries until it is up",
			 iface, why);
		return 0;
	case PREFLIGHT_LINK_UP:
		break;
	}
	pxp_err("%s: link is down (%s)", iface, why);
	return -ENETDOWN;
}
