// SPDX-License-Identifier: GPL-2.0
/* The AC's router advertisements and DHCPv6 server on its session netdevs; see ipv6_ac.h. */
#define _GNU_SOURCE /* struct in6_pktinfo */
#include "ipv6_ac.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/icmp6.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "container_of.h"
#include "log.h"
#include "ra.h"
#include "random.h"

/* Datagrams read per wakeup: bounds the time one busy socket can hold the loop. */
#define RX_BURST	   32
/* RFC 4861 10: MIN_DELAY_BETWEEN_RAS, the least time between two multicast RAs. */
#define RA_MIN_DELAY_MS	   3000
/* Lifetimes of the advertised and the delegated prefix; both outlast any RA interval. */
#define PREFIX_VALID_S	   7200
#define PREFIX_PREFERRED_S 3600
/* Advertisements come from this hop limit and go to this one (RFC 4861 6.1.1). */
#define ND_HOP_LIMIT	   255

static const uint8_t all_nodes[16] = { 0xff, 0x02, [15] = 0x01 };
_Static_assert(RA_MAX_DNS == PXP_MAX_DNS && DHCP6_MAX_DNS == PXP_MAX_DNS,
	       "--dns6 fills the RA's RDNSS and the DHCPv6 option alike");

static bool dhcp_enabled(const struct server_settings *o)
{
	return o->pd_pool_len || o->dns6_count;
}

static void link_local(uint8_t out[16], const uint8_t ifid[8])
{
	memset(out, 0, 16);
	out[0] = 0xfe;
	out[1] = 0x80;
	memcpy(out + 8, ifid, 8);
}

/* One datagram from src on ifindex to dst:port (port 0 for the raw socket). */
static int send_from(int fd, const void *buf, size_t len, int ifindex, const uint8_t src[16],
		     const uint8_t dst[16], uint16_t port)
{
	struct sockaddr_in6 to = { .sin6_family = AF_INET6,
				   .sin6_port = htons(port),
				   .sin6_scope_id = (uint32_t)ifindex };
	union {
		struct cmsghdr align;
		uint8_t bytes[CMSG_SPACE(sizeof(struct in6_pktinfo))];
	} control = { 0 };
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_name = &to,
			      .msg_namelen = sizeof(to),
			      .msg_iov = &iov,
			      .msg_iovlen = 1,
			      .msg_control = control.bytes,
			      .msg_controllen = sizeof(control.bytes) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	struct in6_pktinfo pi = { .ipi6_ifindex = (unsigned int)ifindex };

	memcpy(&to.sin6_addr, dst, 16);
	memcpy(&pi.ipi6_addr, src, 16);
	c->cmsg_level = IPPROTO_IPV6;
	c->cmsg_type = IPV6_PKTINFO;
	c->cmsg_len = CMSG_LEN(sizeof(pi));
	memcpy(CMSG_DATA(c), &pi, sizeof(pi));
	return sendmsg(fd, &msg, MSG_DONTWAIT) < 0 ? -errno : 0;
}

/* One datagram, with its arrival netdev and (raw socket) hop limit; its length or -errno. */
static ssize_t recv_on(int fd, uint8_t *buf, size_t cap, struct sockaddr_in6 *from, int *ifindex,
		       int *hop_limit)
{
	union {
		struct cmsghdr align;
		uint8_t bytes[CMSG_SPACE(sizeof(struct in6_pktinfo)) + CMSG_SPACE(sizeof(int))];
	} control;
	struct iovec iov = { .iov_base = buf, .iov_len = cap };
	struct msghdr msg = { .msg_name = from,
			      .msg_namelen = sizeof(*from),
			      .msg_iov = &iov,
			      .msg_iovlen = 1,
			      .msg_control = control.bytes,
			      .msg_controllen = sizeof(control.bytes) };
	struct cmsghdr *c;
	ssize_t n;

	n = recvmsg(fd, &msg, MSG_DONTWAIT);
	if (n < 0)
		return -errno;
	*ifindex = 0;
	*hop_limit = -1;
	for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		if (c->cmsg_level != IPPROTO_IPV6)
			continue;
		if (c->cmsg_type == IPV6_PKTINFO) {
			struct in6_pktinfo pi;

			memcpy(&pi, CMSG_DATA(c), sizeof(pi));
			*ifindex = (int)pi.ipi6_ifindex;
		} else if (c->cmsg_type == IPV6_HOPLIMIT) {
			memcpy(hop_limit, CMSG_DATA(c), sizeof(int));
		}
	}
	if (msg.msg_flags & MSG_TRUNC)
		return -EMSGSIZE;
	return n;
}

/* ------------------------------------------------------------ router advertisements */

static void send_ra(struct v6ac *a, struct v6ac_session *s, uint64_t now)
{
	const struct server_settings *o = a->o;
	uint32_t lifetime = 3 * o->ra_interval_s; /* RFC 4861 6.2.1's default */
	struct ra_config cfg = {
		.cur_hop_limit = 64,
		.managed = o->ra_managed,
		.other = dhcp_enabled(o),
		.router_lifetime_s = lifetime > RA_ROUTER_LIFETIME_MAX ? RA_ROUTER_LIFETIME_MAX
								       : (uint16_t)lifetime,
		.mtu = s->mtu,
		.prefix_len = s->has_prefix ? 64 : 0,
		.valid_s = PREFIX_VALID_S,
		.preferred_s = PREFIX_PREFERRED_S,
		.dns_count = o->dns6_count,
		.dns_lifetime_s = lifetime,
	};
	int n, err;

	memcpy(cfg.prefix, s->prefix, 16);
	memcpy(cfg.dns, o->dns6, sizeof(cfg.dns));
	n = ra_build(&cfg, a->buf, sizeof(a->buf));
	err = n < 0 ? n
		    : send_from(a->icmp_fd, a->buf, (size_t)n, s->ifindex, s->local_ll, all_nodes,
				0);
	if (err) {
		a->ra_tx_errors++;
		pxp_debug("session %u: router advertisement: %s", s->session_id, strerror(-err));
	} else {
		a->ra_tx++;
	}
	s->last_ra_ms = now;
}

/* When the next unsolicited advertisement is due after one sent at now. */
static uint64_t next_unsolicited(const struct v6ac *a, struct v6ac_session *s, uint64_t now)
{
	uint32_t max_ms = a->o->ra_interval_s * 1000, jitter;

	if (s->initial_left) {
		s->initial_left--;
		if (max_ms > RA_INITIAL_INTERVAL_S * 1000)
			max_ms = RA_INITIAL_INTERVAL_S * 1000;
		return now + max_ms;
	}
	/* RFC 4861 6.2.4: uniformly between a third and all of the interval, so that many
	 * sessions do not advertise in step. */
	pxp_random_fill(NULL, &jitter, sizeof(jitter));
	return now + max_ms / 3 + jitter % (max_ms - max_ms / 3 + 1);
}

/* next_ra_ms changed: the session's timer follows it. */
static void ra_rearm(struct v6ac_session *s)
{
	ev_timer_set(s->a->loop, &s->ra_timer, s->next_ra_ms);
}

/* The unsolicited advertisement that is due. */
static void ra_fire(struct ev_timer *t, uint64_t now)
{
	struct v6ac_session *s = container_of(t, struct v6ac_session, ra_timer);

	send_ra(s->a, s, now);
	s->next_ra_ms = next_unsolicited(s->a, s, now);
	ra_rearm(s);
}

/* A solicitation: answer at once, or as soon as RA_MIN_DELAY_MS allows (RFC 4861 6.2.6). */
static void rs_input(struct v6ac *a, struct v6ac_session *s, uint64_t now)
{
	uint64_t allowed = s->last_ra_ms + RA_MIN_DELAY_MS;

	if (now >= allowed) {
		send_ra(a, s, now);
		if (s->next_ra_ms < now + RA_MIN_DELAY_MS)
			s->next_ra_ms = now + RA_MIN_DELAY_MS;
	} else if (s->next_ra_ms > allowed) {
		s->next_ra_ms = allowed;
	}
	ra_rearm(s);
}

static void icmp_ready(struct ev_handler *h, uint32_t events)
{
	struct v6ac *a = container_of(h, struct v6ac, icmp_h);
	struct sockaddr_in6 from;
	int i, ifindex, hops;

	(void)events;
	for (i = 0; i < RX_BURST; i++) {
		ssize_t n = recv_on(a->icmp_fd, a->buf, sizeof(a->buf), &from, &ifindex, &hops);
		struct v6ac_session *s;

		if (n == -EAGAIN)
			break;
		if (n < 0) {
			a->rs_drops++;
			continue;
		}
		s = a->find(a->ctx, ifindex);
		if (!s || ra_parse_rs(a->buf, (size_t)n, hops)) {
			a->rs_drops++;
			continue;
		}
		a->rs_rx++;
		rs_input(a, s, ev_now_ms());
	}
}

/* ------------------------------------------------------------ DHCPv6 */

static void route_pd(struct v6ac *a, struct v6ac_session *s, bool add)
{
	char text[INET6_ADDRSTRLEN];
	int err;

	if (s->pd_routed == add)
		return;
	inet_ntop(AF_INET6, s->pd.prefix, text, sizeof(text));
	err = add ? pxp_netlink_add_route6(a->nl, s->ifindex, s->pd.prefix, s->pd.prefix_len,
					   s->peer_ll)
		  : pxp_netlink_del_route6(a->nl, s->ifindex, s->pd.prefix, s->pd.prefix_len,
					   s->peer_ll);
	if (err) {
		pxp_warn("session %u: %s the route to %s/%u: %s", s->session_id,
			 add ? "adding" : "removing", text, s->pd.prefix_len, strerror(-err));
		if (add)
			return;
	}
	s->pd_routed = add;
	pxp_info("session %u: prefix %s/%u %s", s->session_id, text, s->pd.prefix_len,
		 add ? "delegated" : "released");
}

static void dhcp_input(struct v6ac *a, struct v6ac_session *s, const uint8_t *buf, size_t len,
		       const struct sockaddr_in6 *from)
{
	enum dhcp6_drop_reason reason;
	enum dhcp6_outcome outcome;
	struct dhcp6_msg m;
	uint8_t out[1024];
	int n, err;

	if (dhcp6_parse(buf, len, &m, &reason)) {
		a->dhcp_drops[reason]++;
		return;
	}
	n = dhcp6_answer(&a->dhcp, &s->pd, &m, out, sizeof(out), &outcome, &reason);
	if (n <= 0) {
		if (n == 0)
			a->dhcp_drops[reason]++;
		else
			a->dhcp_not_answered++;
		return;
	}
	pxp_debug("session %u: DHCPv6 %s, answered with %s", s->session_id, dhcp6_type_name(m.type),
		  dhcp6_type_name(out[0]));
	err = send_from(a->udp_fd, out, (size_t)n, s->ifindex, s->local_ll, from->sin6_addr.s6_addr,
			ntohs(from->sin6_port));
	if (err) {
		a->dhcp_tx_errors++;
		return;
	}
	a->dhcp_tx++;
	if (outcome == DHCP6_BOUND)
		route_pd(a, s, true);
	else if (outcome == DHCP6_RELEASED)
		route_pd(a, s, false);
}

static void udp_ready(struct ev_handler *h, uint32_t events)
{
	struct v6ac *a = container_of(h, struct v6ac, udp_h);
	struct sockaddr_in6 from;
	int i, ifindex, hops;

	(void)events;
	for (i = 0; i < RX_BURST; i++) {
		ssize_t n = recv_on(a->udp_fd, a->buf, sizeof(a->buf), &from, &ifindex, &hops);
		struct v6ac_session *s;

		if (n == -EAGAIN)
			break;
		if (n < 0) {
			a->dhcp_not_answered++;
			continue;
		}
		s = a->find(a->ctx, ifindex);
		/* Only a client on the session's link: its link-local address. */
		if (!s || !IN6_IS_ADDR_LINKLOCAL(&from.sin6_addr)) {
			a->dhcp_not_answered++;
			continue;
		}
		a->dhcp_rx++;
		dhcp_input(a, s, a->buf, (size_t)n, &from);
	}
}

/* ------------------------------------------------------------ sessions */

static void join(struct v6ac *a, struct v6ac_session *s, bool on)
{
	struct ipv6_mreq mr = { .ipv6mr_interface = (unsigned int)s->ifindex };

	if (a->udp_fd < 0 || s->joined == on)
		return;
	memcpy(&mr.ipv6mr_multiaddr, dhcp6_all_servers, 16);
	if (setsockopt(a->udp_fd, IPPROTO_IPV6, on ? IPV6_ADD_MEMBERSHIP : IPV6_DROP_MEMBERSHIP,
		       &mr, sizeof(mr)) &&
	    on) {
		pxp_warn("session %u: joining ff02::1:2: %s", s->session_id, strerror(errno));
		return;
	}
	s->joined = on;
}

int v6ac_session_up(struct v6ac *a, struct v6ac_session *s, uint16_t session_id, int ifindex,
		    uint16_t mtu, const uint8_t local_ifid[8], const uint8_t peer_ifid[8],
		    uint64_t index, uint64_t now)
{
	const struct server_settings *o = a->o;
	int err;

	if (s->active)
		v6ac_session_down(a, s);
	memset(s, 0, sizeof(*s));
	s->a = a;
	err = ev_timer_attach(a->loop, &s->ra_timer, ra_fire);
	if (err)
		return err;
	s->session_id = session_id;
	s->ifindex = ifindex;
	s->mtu = mtu;
	s->index = index;
	link_local(s->local_ll, local_ifid);
	link_local(s->peer_ll, peer_ifid);
	s->has_prefix = o->ipv6_pool_len &&
			!dhcp6_prefix_nth(o->ipv6_pool, o->ipv6_pool_len, 64, index, s->prefix);
	if (o->pd_pool_len &&
	    !dhcp6_prefix_nth(o->pd_pool, o->pd_pool_len, o->pd_len, index, s->pd.prefix))
		s->pd.prefix_len = o->pd_len;
	if ((o->ipv6_pool_len && !s->has_prefix) || (o->pd_pool_len && !s->pd.prefix_len))
		pxp_warn("session %u: IPv6 prefix pool exhausted", session_id);
	if (s->has_prefix) {
		err = pxp_netlink_add_route6(a->nl, ifindex, s->prefix, 64, NULL);
		if (err) {
			pxp_err("session %u: routing its /64: %s", session_id, strerror(-err));
			ev_timer_detach(a->loop, &s->ra_timer);
			return err;
		}
		s->prefix_routed = true;
	}
	s->active = true;
	join(a, s, true);
	s->initial_left = RA_INITIAL_COUNT - 1;
	send_ra(a, s, now);
	s->next_ra_ms = next_unsolicited(a, s, now);
	ra_rearm(s);
	return 0;
}

void v6ac_session_down(struct v6ac *a, struct v6ac_session *s)
{
	if (!s->active)
		return;
	route_pd(a, s, false);
	if (s->prefix_routed)
		pxp_netlink_del_route6(a->nl, s->ifindex, s->prefix, 64, NULL);
	s->prefix_routed = false;
	join(a, s, false);
	ev_timer_detach(a->loop, &s->ra_timer);
	s->active = false;
}

/* ------------------------------------------------------------ sockets */

static int set_int(int fd, int level, int name, int value)
{
	return setsockopt(fd, level, name, &value, sizeof(value)) ? -errno : 0;
}

static int open_icmp(struct v6ac *a)
{
	struct icmp6_filter filter;
	int fd, err;

	fd = socket(AF_INET6, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, IPPROTO_ICMPV6);
	if (fd < 0)
		return -errno;
	a->icmp_fd = fd;
	/* Only solicitations reach us: not every ping and neighbour message of every link. */
	ICMP6_FILTER_SETBLOCKALL(&filter);
	ICMP6_FILTER_SETPASS(ICMP6_ROUTER_SOLICIT, &filter);
	if (setsockopt(fd, IPPROTO_ICMPV6, ICMP6_FILTER, &filter, sizeof(filter)))
		return -errno;
	err = set_int(fd, IPPROTO_IPV6, IPV6_RECVPKTINFO, 1);
	err = err ?: set_int(fd, IPPROTO_IPV6, IPV6_RECVHOPLIMIT, 1);
	err = err ?: set_int(fd, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, ND_HOP_LIMIT);
	err = err ?: set_int(fd, IPPROTO_IPV6, IPV6_UNICAST_HOPS, ND_HOP_LIMIT);
	err = err ?: set_int(fd, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, 0);
	return err;
}

static int open_udp(struct v6ac *a)
{
	struct sockaddr_in6 any = { .sin6_family = AF_INET6,
				    .sin6_port = htons(DHCP6_SERVER_PORT) };
	int fd, err;

	fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	a->udp_fd = fd;
	err = set_int(fd, IPPROTO_IPV6, IPV6_V6ONLY, 1);
	err = err ?: set_int(fd, IPPROTO_IPV6, IPV6_RECVPKTINFO, 1);
	err = err ?: set_int(fd, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, 0);
	if (!err && bind(fd, (struct sockaddr *)&any, sizeof(any)))
		err = -errno;
	return err;
}

int v6ac_open(struct v6ac *a, const struct server_settings *o, const uint8_t mac[6],
	      struct ev_loop *loop, struct pxp_netlink *nl,
	      struct v6ac_session *(*find)(void *ctx, int ifindex), void *ctx)
{
	int err;

	memset(a, 0, sizeof(*a));
	a->icmp_fd = a->udp_fd = -1;
	a->o = o;
	a->loop = loop;
	a->nl = nl;
	a->find = find;
	a->ctx = ctx;
	a->dhcp.duid_len = dhcp6_duid_ll(a->dhcp.duid, mac);
	memcpy(a->dhcp.dns, o->dns6, sizeof(a->dhcp.dns));
	a->dhcp.dns_count = o->dns6_count;
	a->dhcp.preferred_s = PREFIX_PREFERRED_S;
	a->dhcp.valid_s = PREFIX_VALID_S;
	a->icmp_h.ready = icmp_ready;
	a->udp_h.ready = udp_ready;
	err = open_icmp(a);
	err = err ?: ev_loop_add(loop, a->icmp_fd, EPOLLIN, &a->icmp_h);
	if (err) {
		pxp_err("router advertisements: ICMPv6 socket: %s", strerror(-err));
		return err;
	}
	if (!dhcp_enabled(o))
		return 0;
	err = open_udp(a);
	err = err ?: ev_loop_add(loop, a->udp_fd, EPOLLIN, &a->udp_h);
	if (err)
		pxp_err("DHCPv6 server: UDP port %u: %s", DHCP6_SERVER_PORT, strerror(-err));
	return err;
}

void v6ac_close(struct v6ac *a)
{
	if (a->icmp_fd >= 0) {
		ev_loop_del(a->loop, a->icmp_fd);
		close(a->icmp_fd);
	}
	if (a->udp_fd >= 0) {
		ev_loop_del(a->loop, a->udp_fd);
		close(a->udp_fd);
	}
	a->icmp_fd = a->udp_fd = -1;
}

/* ------------------------------------------------------------ status */

static void status_prefix(struct status_writer *w, const char *key, const uint8_t p[16],
			  unsigned int len, bool present)
{
	char text[INET6_ADDRSTRLEN + 4], addr[INET6_ADDRSTRLEN];

	if (!present) {
		status_str(w, key, NULL);
		return;
	}
	inet_ntop(AF_INET6, p, addr, sizeof(addr));
	snprintf(text, sizeof(text), "%s/%u", addr, len);
	status_str(w, key, text);
}

void v6ac_status_session(const struct v6ac_session *s, struct status_writer *w)
{
	status_prefix(w, "ipv6_prefix", s->prefix, 64, s->active && s->has_prefix);
	status_prefix(w, "ipv6_delegated", s->pd.prefix, s->pd.prefix_len,
		      s->active && s->pd_routed);
}

void v6ac_status(const struct v6ac *a, struct status_writer *w)
{
	unsigned int i;

	status_object_begin(w, "ipv6");
	status_u64(w, "ra_sent", a->ra_tx);
	status_u64(w, "ra_errors", a->ra_tx_errors);
	status_u64(w, "rs_received", a->rs_rx);
	status_u64(w, "rs_dropped", a->rs_drops);
	status_u64(w, "dhcp6_rx", a->dhcp_rx);
	status_u64(w, "dhcp6_tx", a->dhcp_tx);
	status_u64(w, "dhcp6_tx_errors", a->dhcp_tx_errors);
	status_u64(w, "dhcp6_not_answered", a->dhcp_not_answered);
	status_object_begin(w, "dhcp6_drops");
	for (i = 0; i < DHCP6_DROP_REASON_COUNT; i++)
		if (a->dhcp_drops[i])
			status_u64(w, dhcp6_drop_reason_name(i), a->dhcp_drops[i]);
	status_object_end(w);
	status_object_end(w);
}
