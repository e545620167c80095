/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netkit devices (Linux 6.7+) over raw rtnetlink: Debian 12's iproute2 and libnl predate
 * netkit. libc only, so that bench/netkit_hop links it too.
 *
 * Concurrency: none kept; one netlink socket per call.
 */
#ifndef PXP_NETKIT_H
#define PXP_NETKIT_H

#include <stdbool.h>

/*
 * Create the netkit pair name (the primary, whose program runs on its transmit) and peer, in
 * L3 mode (no ARP, no MAC address; frames still carry an Ethernet header), down. policy and
 * peer_policy (PXP_NETKIT_PASS or _DROP) decide a frame that no program decided; mtu 0 keeps
 * the kernel's. 0, -EOPNOTSUPP if the kernel has no netkit, else -errno.
 */
int pxp_netkit_create(const char *name, const char *peer, unsigned int mtu, int policy,
		      int peer_policy);
/*
 * Does this kernel have netkit? Creates and deletes a pair named after our pid. 1 or 0, or
 * -errno when the answer is unknown (no CAP_NET_ADMIN).
 */
int pxp_netkit_probe(void);

#endif
