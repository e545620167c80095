/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Addresses, routes and counters of the session netdevs, through rtnetlink (libnl-route-3).
 * The session netdev itself, its link state and its MTU belong to the data path
 * (pxp_dp_session_add(), pxp_dp_session_set_mtu()).
 *
 * Concurrency: one handle per daemon, used from its single thread.
 */
#ifndef PXP_NETLINK_H
#define PXP_NETLINK_H

#include <stdint.h>

struct pxp_netlink;

int pxp_netlink_open(struct pxp_netlink **nl);
void pxp_netlink_close(struct pxp_netlink *nl);

/* What the kernel counted on a netdev (frames as the netdev sees them, with their L2 header). */
struct pxp_link_stats {
	uint64_t rx_packets, rx_bytes, tx_packets, tx_bytes;
};

int pxp_netlink_link_stats(struct pxp_netlink *nl, int ifindex, struct pxp_link_stats *st);
/* local/32 with peer/32 (point to point); addresses in network order. Existing = 0. */
int pxp_netlink_add_p2p(struct pxp_netlink *nl, int ifindex, uint32_t local, uint32_t peer);
int pxp_netlink_del_p2p(struct pxp_netlink *nl, int ifindex, uint32_t local, uint32_t peer);
/* fe80::IFID/64 from an IPv6CP interface identifier. */
int pxp_netlink_add_link_local(struct pxp_netlink *nl, int ifindex, const uint8_t ifid[8]);
int pxp_netlink_del_link_local(struct pxp_netlink *nl, int ifindex, const uint8_t ifid[8]);
/* IPv4 default route through the session netdev (no gateway: it is point to point). */
int pxp_netlink_add_default_route(struct pxp_netlink *nl, int ifindex);
int pxp_netlink_del_default_route(struct pxp_netlink *nl, int ifindex);

/*
 * An IPv6 route to prefix/len through the session netdev, via the link-local gateway gw
 * (NULL: on the link). Existing (add) or missing (delete) = 0.
 */
int pxp_netlink_add_route6(struct pxp_netlink *nl, int ifindex, const uint8_t prefix[16],
			   unsigned int len, const uint8_t *gw);
int pxp_netlink_del_route6(struct pxp_netlink *nl, int ifindex, const uint8_t prefix[16],
			   unsigned int len, const uint8_t *gw);

/* Translate a negative libnl error code into -errno. */
int nl_to_errno(int nlerr);

#endif
