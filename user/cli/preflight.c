// SPDX-License-Identifier: GPL-2.0
#include "preflight.h"

#include <errno.h>
#include <stdbool.h>
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

/* Up without a carrier: a port just set up is negotiating its link, for a second or more. */
static bool awaits_carrier(short flags)
{
	return (flags & IFF_UP) && !(flags & IFF_RUNNING);
}

/* Poll IFACE's flags until it has a carrier, it is set down or wait_ms pass. */
static int wait_for_carrier(const char *iface, short *flags, unsigned int wait_ms)
{
	const unsigned int step_ms = 100;
	int err = 0;

	pxp_info("%s: no carrier yet; waiting up to %u s for one", iface, (wait_ms + 999) / 1000);
	for (unsigned int waited = 0; waited < wait_ms && !err && awaits_carrier(*flags);
	     waited += step_ms) {
		usleep(step_ms * 1000);
		err = iface_flags(iface, flags);
	}
	return err;
}

int preflight_iface(const char *iface, enum preflight_link need, unsigned int carrier_wait_ms)
{
	char why[IF_NAMESIZE + 48];
	bool waited = false;
	short flags = 0;
	int err;

	err = iface_flags(iface, &flags);
	if (!err && need == PREFLIGHT_LINK_UP && carrier_wait_ms && awaits_carrier(flags)) {
		err = wait_for_carrier(iface, &flags, carrier_wait_ms);
		waited = true;
	}
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
	else if (!(flags & IFF_RUNNING) && waited)
		snprintf(why, sizeof(why), "no carrier after %u s", (carrier_wait_ms + 999) / 1000);
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
