/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AC's IPv6 services on its session netdevs, as an ISP's BNG runs them: router
 * advertisements (unsolicited when IPv6CP comes up, then every --ra-interval seconds, and
 * in answer to Router Solicitations) with the session's /64 for SLAAC, the MTU and RDNSS;
 * and a DHCPv6 server delegating one prefix per session. One raw ICMPv6 socket and one UDP
 * socket (port 547, joined to ff02::1:2 on each session netdev) serve every session: the
 * arrival interface names the session. What goes on the wire comes from the pure cores
 * pppoe/ra.c and pppoe/dhcp6.c; this file holds the sockets, timers and routes.
 *
 * Concurrency: the daemon's single thread.
 */
#ifndef PXP_IPV6_AC_H
#define PXP_IPV6_AC_H

#include <stdbool.h>
#include <stdint.h>

#include "dhcp6.h"
#include "event_loop.h"
#include "netlink.h"
#include "settings.h"
#include "status.h"

struct v6ac;

/* IPv6 on one session, from IPv6CP up to down. */
struct v6ac_session {
	bool active;
	uint16_t session_id;
	int ifindex;
	uint16_t mtu;
	uint8_t local_ll[16], peer_ll[16];
	uint64_t index; /* which prefix of the pools */
	bool has_prefix, prefix_routed;
	uint8_t prefix[16]; /* the /64 advertised */
	struct dhcp6_binding pd;
	bool pd_routed, joined;
	unsigned int initial_left; /* unsolicited advertisements still to come fast */
	uint64_t last_ra_ms, next_ra_ms;
	struct ev_timer ra_timer; /* at next_ra_ms while active */
	struct v6ac *a;
};

struct v6ac {
	const struct server_settings *o;
	struct ev_loop *loop;
	struct pxp_netlink *nl;
	int icmp_fd, udp_fd; /* -1 = closed; udp_fd only with a DHCPv6 service */
	struct ev_handler icmp_h, udp_h;
	/* The session on a netdev, NULL if none is active there. */
	struct v6ac_session *(*find)(void *ctx, int ifindex);
	void *ctx;
	struct dhcp6_server_config dhcp;
	uint64_t ra_tx, ra_tx_errors, rs_rx, rs_drops;
	uint64_t dhcp_rx, dhcp_tx, dhcp_tx_errors, dhcp_not_answered;
	uint64_t dhcp_drops[DHCP6_DROP_REASON_COUNT];
	uint8_t buf[1500];
};

/* Opens the sockets (our DUID from mac); logs what failed; 0 or -errno. */
int v6ac_open(struct v6ac *a, const struct server_settings *o, const uint8_t mac[6],
	      struct ev_loop *loop, struct pxp_netlink *nl,
	      struct v6ac_session *(*find)(void *ctx, int ifindex), void *ctx);
void v6ac_close(struct v6ac *a);
/*
 * IPv6CP is up on s's netdev: its /64 and delegated prefix are the index-th of the pools
 * (none where a pool is exhausted); routes the /64, joins ff02::1:2, advertises. 0 or
 * -errno.
 */
int v6ac_session_up(struct v6ac *a, struct v6ac_session *s, uint16_t session_id, int ifindex,
		    uint16_t mtu, const uint8_t local_ifid[8], const uint8_t peer_ifid[8],
		    uint64_t index, uint64_t now);
/* Removes the session's routes and membership; a no-op when not active. */
void v6ac_session_down(struct v6ac *a, struct v6ac_session *s);
/* The session's prefixes, for status. */
void v6ac_status_session(const struct v6ac_session *s, struct status_writer *w);
/* The counters, an object "ipv6". */
void v6ac_status(const struct v6ac *a, struct status_writer *w);

#endif
