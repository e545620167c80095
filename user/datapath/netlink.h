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

#include <stddef.h>
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
/*
 * The rtnetlink protocol of every route pppoe-xp adds (`ip route` shows "proto 153"). With
 * the main table, the netdev and the metric it names a route as ours: the kernel matches a
 * given protocol on delete, so deleting ours never takes a route that someone else added
 * on our netdev, and a default route of another pppoe-xp instance is known as such.
 */
#define PXP_RTPROT 153

/* A default route (0.0.0.0/0 or ::/0) of the main table, unicast: all that names it. */
struct pxp_route {
	uint8_t family;	     /* AF_INET or AF_INET6 */
	uint8_t protocol;    /* RTPROT_*; PXP_RTPROT for ours */
	uint8_t scope;	     /* RT_SCOPE_* (IPv4) */
	uint8_t nexthops;    /* more than 1: multipath, described but never replaced */
	uint32_t ifindex;    /* the netdev of its (first) next hop */
	uint32_t metric;     /* the kernel's priority */
	uint8_t gateway[16]; /* network order, 4 bytes for IPv4; all zero: none */
	uint8_t prefsrc[16]; /* all zero: none */
};

/* Our default route for family through the session netdev ifindex (no gateway: p2p). */
void pxp_route_default(struct pxp_route *r, int family, int ifindex, uint32_t metric);
/*
 * The first default route of family in the main table that does not go through not_via
 * (0: any netdev) and, when metric >= 0, has that metric: pppd's "existing default route".
 * 0 (found filled), -ENOENT or -errno.
 */
int pxp_netlink_find_default_route(struct pxp_netlink *nl, int family, int not_via, int64_t metric,
				   struct pxp_route *found);
/* Adds r: 0, -EEXIST if that very route is there, or -errno. */
int pxp_netlink_route_add(struct pxp_netlink *nl, const struct pxp_route *r);
/*
 * Deletes the route that matches r in every field given: 0, -ENODEV if none, -EINVAL when r
 * names no netdev (never "any"), or -errno.
 */
int pxp_netlink_route_del(struct pxp_netlink *nl, const struct pxp_route *r);
/* "via 100.64.0.2 dev wan0 metric 0 proto 3", for logs. */
void pxp_route_describe(const struct pxp_route *r, char *buf, size_t cap);

/*
 * An IPv6 route to prefix/len through the session netdev, via the link-local gateway gw
 * (NULL: on the link). Existing (add) or missing (delete) = 0.
 */
int pxp_netlink_add_route6(struct pxp_netlink *nl, int ifindex, const uint8_t prefix[16],
			   unsigned int len, const uint8_t *gw);
int pxp_netlink_del_route6(struct pxp_netlink *nl, int ifindex, const uint8_t prefix[16],
			   unsigned int len, const uint8_t *gw);

/*
 * The first global IPv6 address on the netdev (on pxp0: SLAAC's, from the AC's router
 * advertisement) with its prefix length: 0, or -ENOENT when it has none.
 */
int pxp_netlink_global6(struct pxp_netlink *nl, int ifindex, uint8_t addr[16],
			unsigned int *prefix_len);

/* Translate a negative libnl error code into -errno. */
int nl_to_errno(int nlerr);

#endif
