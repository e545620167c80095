/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The MAC addresses the bench's hop programs are loaded with (veth_hop, netkit_hop): read
 * from an interface, or parsed from the command line, into a skeleton's rodata.
 */
#ifndef PXP_BENCH_HOP_MAC_H
#define PXP_BENCH_HOP_MAC_H

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/types.h>

static int read_mac(const char *ifname, volatile __u8 *mac)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr))
		err = -errno;
	else
		for (int i = 0; i < 6; i++)
			mac[i] = (__u8)ifr.ifr_hwaddr.sa_data[i];
	close(fd);
	return err;
}

static int parse_mac(const char *s, volatile __u8 *mac)
{
	unsigned int b[6];
	char end;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &end) != 6)
		return -1;
	for (int i = 0; i < 6; i++) {
		if (b[i] > 0xff)
			return -1;
		mac[i] = (__u8)b[i];
	}
	return 0;
}

#endif
