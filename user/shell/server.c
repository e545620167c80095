// SPDX-License-Identifier: GPL-2.0
/*
 * The access concentrator daemon. As in client.c, core callbacks only record what must
 * happen when acting at once would re-enter a core (ending a session from inside its own
 * PPP link, or closing a discovery session from inside the AC core's event);
 * process_pending() acts once the core has returned.
 */
#include "server.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "container_of.h"
#include "control.h"
#include "daemon.h"
#include "datapath.h"
#include "discovery.h"
#include "event_loop.h"
#include "log.h"
#include "netlink.h"
#include "ppp.h"
#include "random.h"
#include "raw_socket.h"
#include "secrets.h"
#include "session_frame.h"
#include "stats_report.h"
#include "status.h"

#define RX_BURST      64
#define FRAME_BUF     2048
/* How long a stopping server waits for its clients' Terminate-Acks. */
#define STOP_GRACE_MS 3000

struct server;

struct srv_session {
	struct server *srv;
	uint16_t session_id;
	uint8_t peer_mac[PXP_ETH_ALEN];
	uint16_t max_payload;
	struct ppp ppp;
	bool ppp_active;
	char ifname[IF_NAMESIZE];
	int ifindex;
	uint16_t mtu;
	uint32_t peer_ip; /* network order */
	bool addr_set, link_local_set, up, closing;
	uint8_t local_ifid[8];
	uint64_t start_ms, up_since_ms;
	/* Deferred end of the session; why, for the log and the PADT. */
	bool end_pending;
	enum ppp_down_reason end_reason;
	char end_text[96];
};

struct server {
	struct server_settings *o;
	struct ev_loop loop;
	struct raw_socket disc_sock, sess_sock;
	struct ev_handler disc_handler, sess_handler;
	struct disc_ac *ac;
	struct srv_session **sessions; /* o->max_sessions slots, NULL = free */
	unsigned int session_count;
	struct pxp_dp *dp;
	struct pxp_netlink *nl;
	struct control_server ctl;
	struct secrets secrets;
	int notify_fd;
	bool stopping;
	uint64_t stop_deadline_ms;
	uint64_t started_ms;

	uint64_t sessions_total, sessions_up, auth_failures, pool_exhausted, setup_errors;
	uint64_t session_rx, session_tx, session_tx_errors;
	uint64_t session_drops[SESSION_DROP_REASON_COUNT];
	uint8_t rx_buf[FRAME_BUF];
	uint8_t tx_buf[FRAME_BUF];
};

/* A peer-chosen name made safe for the log. */
static void printable(const char *in, char *out, size_t cap)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < cap; i++)
		out[i] = isprint((unsigned char)in[i]) ? in[i] : '?';
	out[i] = '\0';
}

/* ------------------------------------------------------------ address pool */

static bool ip_in_use(const struct server *srv, uint32_t ip)
{
	unsigned int i;

	for (i = 0; i < srv->o->max_sessions; i++)
		if (srv->sessions[i] && srv->sessions[i]->peer_ip == ip)
			return true;
	return false;
}

/* An address the secrets file gives to a user: never handed to anyone else. */
static bool ip_reserved(const struct server *srv, uint32_t ip)
{
	size_t i;

	for (i = 0; i < srv->secrets.count; i++)
		if (srv->secrets.entries[i].ip == ip)
			return true;
	return false;
}

/* The lowest free pool address (network order), or 0. */
static uint32_t pool_take(const struct server *srv)
{
	uint32_t host;

	for (host = srv->o->pool_first; host <= srv->o->pool_last; host++) {
		uint32_t ip = htonl(host);

		if (ip != srv->o->local_ip && !ip_in_use(srv, ip) && !ip_reserved(srv, ip))
			return ip;
		if (host == UINT32_MAX)
			break;
	}
	return 0;
}

/* ------------------------------------------------------------ sessions */

static struct srv_session *find_session(struct server *srv, uint16_t session_id,
					const uint8_t *peer_mac)
{
	unsigned int i;

	for (i = 0; i < srv->o->max_sessions; i++) {
		struct srv_session *s = srv->sessions[i];

		if (s && s->session_id == session_id &&
		    (!peer_mac || !memcmp(s->peer_mac, peer_mac, PXP_ETH_ALEN)))
			return s;
	}
	return NULL;
}

static void request_end(struct srv_session *s, enum ppp_down_reason reason, const char *text)
{
	if (s->end_pending)
		return;
	s->end_pending = true;
	s->end_reason = reason;
	snprintf(s->end_text, sizeof(s->end_text), "%s", text);
}

static void ppp_send_cb(void *ctx, uint16_t proto, const uint8_t *data, size_t len)
{
	struct srv_session *s = ctx;
	struct server *srv = s->srv;
	int n;

	n = session_frame_build(srv->tx_buf, sizeof(srv->tx_buf), s->peer_mac, srv->sess_sock.mac,
				s->session_id, proto, data, len);
	if (n < 0 || raw_socket_send(&srv->sess_sock, srv->tx_buf, (size_t)n)) {
		srv->session_tx_errors++;
		return;
	}
	srv->session_tx++;
}

static int get_secret_cb(void *ctx, const char *user, uint8_t *secret, size_t cap)
{
	struct srv_session *s = ctx;

	/* Our name selects the server column, as pppd passes its own name. */
	return secrets_lookup(&s->srv->secrets, user, s->srv->o->ac_name, secret, cap, NULL);
}

/*
 * The peer's address, chosen once we know who it is (as pppd does): the address of the
 * authenticated user's secrets line, else the lowest free pool address. 0, -ENOSPC (pool
 * exhausted, counted) or -EADDRINUSE (the user's address is taken, logged and counted).
 */
static int choose_peer_ip(struct srv_session *s, const char *user)
{
	struct server *srv = s->srv;
	uint8_t secret[PPP_SECRET_MAX];
	char text[INET_ADDRSTRLEN], name[PPP_NAME_MAX + 1];
	uint32_t ip = 0;
	int n;

	n = secrets_lookup(&srv->secrets, user, srv->o->ac_name, secret, sizeof(secret), &ip);
	explicit_bzero(secret, sizeof(secret));
	if (n < 0 || !ip) {
		s->peer_ip = pool_take(srv);
		if (!s->peer_ip) {
			srv->pool_exhausted++;
			return -ENOSPC;
		}
		return 0;
	}
	printable(user, name, sizeof(name));
	inet_ntop(AF_INET, &ip, text, sizeof(text));
	if (ip == srv->o->local_ip || ip_in_use(srv, ip)) {
		pxp_warn("session %u: address %s of user '%s' is %s", s->session_id, text, name,
			 ip == srv->o->local_ip ? "our --local" : "in use by another session");
		srv->setup_errors++;
		return -EADDRINUSE;
	}
	s->peer_ip = ip;
	pxp_debug("session %u: user '%s' gets %s from %s", s->session_id, name, text,
		  srv->o->secrets_file);
	return 0;
}

/* Authenticated: pick the address IPCP will offer. IPCP starts right after this event. */
static void session_auth_ok(struct srv_session *s)
{
	struct ppp_status st;
	int err;

	/* LCP renegotiated and authenticated again: the session keeps its address. */
	if (s->peer_ip) {
		ppp_set_peer_ip(&s->ppp, s->peer_ip);
		return;
	}
	ppp_get_status(&s->ppp, &st);
	err = choose_peer_ip(s, st.peer_name);
	if (err) {
		request_end(s, PPP_DOWN_ADMIN,
			    err == -ENOSPC ? "address pool exhausted" : "address in use");
		return;
	}
	ppp_set_peer_ip(&s->ppp, s->peer_ip);
}

static void session_ipv4_up(struct srv_session *s, uint64_t now)
{
	struct server *srv = s->srv;
	char peer[INET_ADDRSTRLEN], user[PPP_NAME_MAX + 1];
	struct ppp_status st;
	int err;

	ppp_get_status(&s->ppp, &st);
	if (st.peer_mru && st.peer_mru != s->mtu &&
	    !pxp_dp_session_set_mtu(srv->dp, s->session_id, st.peer_mru))
		s->mtu = st.peer_mru;
	err = pxp_netlink_add_p2p(srv->nl, s->ifindex, srv->o->local_ip, s->peer_ip);
	inet_ntop(AF_INET, &s->peer_ip, peer, sizeof(peer));
	if (err) {
		pxp_err("session %u: adding peer %s on %s: %s", s->session_id, peer, s->ifname,
			strerror(-err));
		srv->setup_errors++;
		request_end(s, PPP_DOWN_ADMIN, "address setup failed");
		return;
	}
	s->addr_set = true;
	s->up = true;
	s->up_since_ms = now;
	srv->sessions_up++;
	printable(st.peer_name, user, sizeof(user));
	pxp_info("session %u up on %s: user '%s', peer %s, in %" PRIu64 " ms", s->session_id,
		 s->ifname, user, peer, now - s->start_ms);
}

static void session_ipv6_up(struct srv_session *s)
{
	struct server *srv = s->srv;
	struct ppp_status st;

	ppp_get_status(&s->ppp, &st);
	memcpy(s->local_ifid, st.local_ifid, sizeof(s->local_ifid));
	if (pxp_netlink_add_link_local(srv->nl, s->ifindex, s->local_ifid)) {
		pxp_warn("session %u: IPv6 link-local address on %s failed", s->session_id,
			 s->ifname);
		return;
	}
	s->link_local_set = true;
}

static void ppp_event_cb(void *ctx, enum ppp_event ev, int reason)
{
	struct srv_session *s = ctx;
	struct server *srv = s->srv;

	switch (ev) {
	case PPP_EV_AUTH_OK:
		session_auth_ok(s);
		break;
	case PPP_EV_IPV4_UP:
		session_ipv4_up(s, ev_now_ms());
		break;
	case PPP_EV_IPV4_DOWN:
		if (s->addr_set)
			pxp_netlink_del_p2p(srv->nl, s->ifindex, srv->o->local_ip, s->peer_ip);
		s->addr_set = false;
		s->up = false;
		break;
	case PPP_EV_IPV6_UP:
		if (srv->o->common.ipv6)
			session_ipv6_up(s);
		break;
	case PPP_EV_IPV6_DOWN:
		if (s->link_local_set)
			pxp_netlink_del_link_local(srv->nl, s->ifindex, s->local_ifid);
		s->link_local_set = false;
		break;
	case PPP_EV_LINK_DOWN:
		if (reason == PPP_DOWN_AUTH_FAILED)
			srv->auth_failures++;
		request_end(s, (enum ppp_down_reason)reason, "");
		break;
	}
}

static void session_free(struct server *srv, struct srv_session *s)
{
	unsigned int i;

	for (i = 0; i < srv->o->max_sessions; i++)
		if (srv->sessions[i] == s)
			srv->sessions[i] = NULL;
	srv->session_count--;
	explicit_bzero(s, sizeof(*s));
	free(s);
}

/* Ends a session: netdev and data path record, PPP link, PADT (unless the peer sent one). */
static void session_end(struct server *srv, struct srv_session *s)
{
	if (s->ifindex) {
		int err = pxp_dp_session_del(srv->dp, s->session_id);

		if (err)
			pxp_warn("session %u: removing %s: %s", s->session_id, s->ifname,
				 strerror(-err));
	}
	if (s->ppp_active)
		ppp_destroy(&s->ppp);
	if (s->end_reason == PPP_DOWN_LOWER)
		disc_ac_release(srv->ac, s->session_id);
	else
		disc_ac_close_session(srv->ac, s->session_id,
				      s->end_text[0] ? s->end_text
						     : ppp_down_reason_text(s->end_reason));
	pxp_info("session %u ended: %s%s%s", s->session_id, ppp_down_reason_text(s->end_reason),
		 s->end_text[0] ? ", " : "", s->end_text);
	session_free(srv, s);
}

static int session_start(struct srv_session *s, uint64_t now)
{
	struct server *srv = s->srv;
	struct pxp_dp_session dps = { .session_id = s->session_id, .mss_clamp = true };
	struct ppp_callbacks cb = {
		.ctx = s,
		.send = ppp_send_cb,
		.event = ppp_event_cb,
		.random = pxp_random_fill,
		.get_secret = get_secret_cb,
	};
	struct ppp_config cfg = {
		.role = PPP_ROLE_SERVER,
		.mru = s->max_payload,
		.require_auth = srv->o->auth,
		.local_ip = srv->o->local_ip,
		.peer_ip = s->peer_ip,
		.dns = { srv->o->dns[0], srv->o->dns[1] },
		.ipv6 = srv->o->common.ipv6,
		.echo_interval_ms = srv->o->common.keepalive_interval_s * 1000,
		.echo_max_failures = srv->o->common.keepalive_failures,
	};
	int err;

	snprintf(s->ifname, sizeof(s->ifname), "pxs%u", s->session_id);
	snprintf(cfg.server_name, sizeof(cfg.server_name), "%s", srv->o->ac_name);
	strcpy(dps.ifname, s->ifname);
	memcpy(dps.peer_mac, s->peer_mac, PXP_ETH_ALEN);
	dps.mtu = s->max_payload;
	err = pxp_dp_session_add(srv->dp, &dps, &s->ifindex);
	if (err) {
		s->ifindex = 0;
		pxp_err("session %u: creating %s: %s", s->session_id, s->ifname, strerror(-err));
		return err;
	}
	s->mtu = dps.mtu;
	err = ppp_init(&s->ppp, &cfg, &cb);
	if (err) {
		pxp_err("session %u: starting PPP: %s", s->session_id, strerror(-err));
		return err;
	}
	s->ppp_active = true;
	ppp_lower_up(&s->ppp, now);
	return 0;
}

static void session_new(struct server *srv, const struct disc_ac_event *ev, uint64_t now)
{
	struct srv_session *s;
	unsigned int slot;

	for (slot = 0; slot < srv->o->max_sessions && srv->sessions[slot]; slot++)
		;
	s = slot < srv->o->max_sessions ? calloc(1, sizeof(*s)) : NULL;
	if (!s) {
		/* The AC core enforces max_sessions; this is out of memory. */
		srv->setup_errors++;
		return;
	}
	s->srv = srv;
	s->session_id = ev->session_id;
	memcpy(s->peer_mac, ev->peer_mac, PXP_ETH_ALEN);
	s->max_payload = ev->max_payload ? ev->max_payload : PPPOE_DEFAULT_MRU;
	s->start_ms = now;
	srv->sessions[slot] = s;
	srv->session_count++;
	srv->sessions_total++;
	/* With authentication the address waits for the user's name (session_auth_ok()). */
	if (srv->o->auth == PPP_AUTH_NONE && choose_peer_ip(s, "")) {
		request_end(s, PPP_DOWN_ADMIN, "address pool exhausted");
		return;
	}
	if (session_start(s, now)) {
		srv->setup_errors++;
		request_end(s, PPP_DOWN_ADMIN, "session set-up failed");
	}
}

static void ac_event_cb(void *ctx, const struct disc_ac_event *ev)
{
	struct server *srv = ctx;
	struct srv_session *s;

	switch (ev->type) {
	case DISC_AC_EV_SESSION_NEW:
		session_new(srv, ev, ev_now_ms());
		break;
	case DISC_AC_EV_SESSION_CLOSED:
		s = find_session(srv, ev->session_id, ev->peer_mac);
		if (!s)
			break;
		if (s->ppp_active)
			ppp_lower_down(&s->ppp, ev_now_ms());
		/* Whatever LINK_DOWN said, the peer's PADT already released the session. */
		s->end_pending = false;
		request_end(s, PPP_DOWN_LOWER, "");
		break;
	}
}

static int ac_send_cb(void *ctx, const void *frame, size_t len)
{
	struct server *srv = ctx;

	return raw_socket_send(&srv->disc_sock, frame, len);
}

static void process_pending(struct server *srv)
{
	unsigned int i;

	for (i = 0; i < srv->o->max_sessions; i++) {
		struct srv_session *s = srv->sessions[i];

		if (s && s->end_pending)
			session_end(srv, s);
	}
}

/* ------------------------------------------------------------ sockets */

static void disc_ready(struct ev_handler *h, uint32_t events)
{
	struct server *srv = container_of(h, struct server, disc_handler);
	int i;

	(void)events;
	for (i = 0; i < RX_BURST; i++) {
		ssize_t n = raw_socket_recv(&srv->disc_sock, srv->rx_buf, sizeof(srv->rx_buf));

		if (n < 0)
			break;
		if (n > 0 && !srv->stopping)
			disc_ac_input(srv->ac, ev_now_ms(), srv->rx_buf, (size_t)n);
		process_pending(srv);
	}
}

static void sess_ready(struct ev_handler *h, uint32_t events)
{
	struct server *srv = container_of(h, struct server, sess_handler);
	enum session_drop_reason reason;
	struct session_frame f;
	struct srv_session *s;
	int i;

	(void)events;
	for (i = 0; i < RX_BURST; i++) {
		ssize_t n = raw_socket_recv(&srv->sess_sock, srv->rx_buf, sizeof(srv->rx_buf));

		if (n < 0)
			break;
		if (n == 0)
			continue;
		if (session_frame_parse(srv->rx_buf, (size_t)n, &f, &reason)) {
			srv->session_drops[reason]++;
			continue;
		}
		if (memcmp(f.dst, srv->sess_sock.mac, PXP_ETH_ALEN)) {
			srv->session_drops[SESSION_DROP_DST_MAC]++;
			continue;
		}
		s = find_session(srv, f.session_id, f.src);
		if (!s || !s->ppp_active) {
			srv->session_drops[SESSION_DROP_UNKNOWN]++;
			continue;
		}
		srv->session_rx++;
		ppp_input(&s->ppp, ev_now_ms(), f.ppp_proto, f.payload, f.payload_len);
		process_pending(srv);
	}
}

/* ------------------------------------------------------------ status */

static void write_status(struct server *srv, FILE *out, bool json)
{
	uint64_t now = ev_now_ms();
	struct status_writer w;
	unsigned int i;

	status_begin(&w, out, json);
	status_str(&w, "iface", srv->o->iface);
	status_str(&w, "role", "server");
	status_u64(&w, "pid", (uint64_t)getpid());
	status_str(&w, "state", srv->stopping ? "stopping" : "running");
	status_str(&w, "ac_name", srv->o->ac_name);
	status_mac(&w, "local_mac", srv->disc_sock.mac);
	status_ipv4(&w, "local_ip", srv->o->local_ip);
	status_str(&w, "pool", srv->o->pool_text);
	status_str(&w, "datapath_mode", srv->dp ? pxp_dp_mode_name(pxp_dp_mode(srv->dp)) : NULL);
	status_u64(&w, "umem_bytes", srv->dp ? pxp_dp_umem_bytes(srv->dp) : 0);
	status_u64(&w, "uptime_s", (now - srv->started_ms) / 1000);
	status_u64(&w, "session_count", srv->session_count);
	status_u64(&w, "sessions_total", srv->sessions_total);
	status_u64(&w, "sessions_up", srv->sessions_up);
	status_u64(&w, "auth_failures", srv->auth_failures);
	status_u64(&w, "pool_exhausted", srv->pool_exhausted);
	status_u64(&w, "setup_errors", srv->setup_errors);
	status_array_begin(&w, "sessions");
	for (i = 0; i < srv->o->max_sessions; i++) {
		struct srv_session *s = srv->sessions[i];
		struct ppp_status st = { 0 };

		if (!s)
			continue;
		if (s->ppp_active)
			ppp_get_status(&s->ppp, &st);
		status_object_begin(&w, NULL);
		status_u64(&w, "session_id", s->session_id);
		status_mac(&w, "peer_mac", s->peer_mac);
		status_str(&w, "user", st.peer_name[0] ? st.peer_name : NULL);
		status_str(&w, "ifname", s->ifname);
		status_ipv4(&w, "peer_ip", s->peer_ip);
		status_u64(&w, "mtu", s->mtu);
		status_str(&w, "lcp", s->ppp_active ? st.lcp_state : NULL);
		status_str(&w, "ipcp", s->ppp_active ? st.ipcp_state : NULL);
		status_u64(&w, "uptime_s", s->up ? (now - s->up_since_ms) / 1000 : 0);
		status_u64(&w, "echo_sent", st.echo_sent);
		status_u64(&w, "echo_replies", st.echo_replies);
		status_object_end(&w);
	}
	status_array_end(&w);
	status_object_begin(&w, "discovery");
	status_u64(&w, "rx", srv->ac->rx_frames);
	status_u64(&w, "tx", srv->ac->tx_frames);
	status_object_begin(&w, "drops");
	for (i = 0; i < PPPOE_DROP_REASON_COUNT; i++)
		if (srv->ac->drops[i])
			status_u64(&w, pppoe_drop_reason_name(i), srv->ac->drops[i]);
	status_object_end(&w);
	status_object_end(&w);
	status_object_begin(&w, "control_frames");
	status_u64(&w, "rx", srv->session_rx);
	status_u64(&w, "tx", srv->session_tx);
	status_u64(&w, "tx_errors", srv->session_tx_errors);
	/* Not errors: frames of another VLAN, or unicast to another station. */
	status_u64(&w, "skipped", srv->disc_sock.rx_other_vlan + srv->sess_sock.rx_other_vlan);
	status_object_begin(&w, "drops");
	for (i = 0; i < SESSION_DROP_REASON_COUNT; i++)
		if (srv->session_drops[i])
			status_u64(&w, session_drop_reason_name(i), srv->session_drops[i]);
	status_object_end(&w);
	status_object_end(&w);
	status_end(&w);
}

static void request_stop(struct server *srv, uint64_t now)
{
	unsigned int i;

	if (srv->stopping) {
		srv->stop_deadline_ms = now; /* second request: do not wait */
		return;
	}
	pxp_info("stopping: terminating %u session(s)", srv->session_count);
	srv->stopping = true;
	srv->stop_deadline_ms = now + STOP_GRACE_MS;
	for (i = 0; i < srv->o->max_sessions; i++) {
		struct srv_session *s = srv->sessions[i];

		if (s && s->ppp_active && !s->closing) {
			s->closing = true;
			ppp_close(&s->ppp, now);
		} else if (s) {
			request_end(s, PPP_DOWN_ADMIN, "server stopping");
		}
	}
	process_pending(srv);
}

static void write_stats(struct server *srv, FILE *out)
{
	struct stats_snapshot *st = calloc(1, sizeof(*st));
	struct pxp_link_stats ls;
	unsigned int i;

	if (!st) {
		fputs("error: out of memory\n", out);
		return;
	}
	snprintf(st->iface, sizeof(st->iface), "%s", srv->o->iface);
	snprintf(st->role, sizeof(st->role), "server");
	snprintf(st->state, sizeof(st->state), "%s", srv->stopping ? "stopping" : "running");
	snprintf(st->mode, sizeof(st->mode), "%s",
		 srv->dp ? pxp_dp_mode_name(pxp_dp_mode(srv->dp)) : "-");
	st->time_ms = ev_now_ms();
	if (srv->dp && pxp_dp_get_stats(srv->dp, &st->dp))
		memset(&st->dp, 0, sizeof(st->dp));
	for (i = 0; i < srv->o->max_sessions && st->nr_netdevs < STATS_MAX_NETDEVS; i++) {
		struct srv_session *s = srv->sessions[i];
		struct stats_netdev *n;

		if (!s || !s->ifindex || pxp_netlink_link_stats(srv->nl, s->ifindex, &ls))
			continue;
		n = &st->netdev[st->nr_netdevs++];
		snprintf(n->ifname, sizeof(n->ifname), "%s", s->ifname);
		n->rx_packets = ls.rx_packets;
		n->rx_bytes = ls.rx_bytes;
		n->tx_packets = ls.tx_packets;
		n->tx_bytes = ls.tx_bytes;
	}
	stats_snapshot_write(st, out);
	free(st);
}

static void control_cb(void *ctx, const char *command, FILE *reply)
{
	struct server *srv = ctx;

	if (!strcmp(command, "stats")) {
		write_stats(srv, reply);
	} else if (!strcmp(command, "status")) {
		write_status(srv, reply, false);
	} else if (!strcmp(command, "status-json")) {
		write_status(srv, reply, true);
	} else if (!strcmp(command, "down")) {
		request_stop(srv, ev_now_ms());
		fputs("ok\n", reply);
	} else {
		fputs("error: unknown command\n", reply);
	}
}

/* ------------------------------------------------------------ run */

static int load_secrets(struct server *srv, struct secrets *into)
{
	char err_text[256];
	int err;

	if (srv->o->auth == PPP_AUTH_NONE)
		return 0;
	err = secrets_load(into, srv->o->secrets_file, err_text, sizeof(err_text));
	if (err)
		pxp_err("--secrets: %s", err_text);
	return err;
}

/* SIGHUP: re-read the secrets file; keep the old one if the new one is broken. */
static void reload_secrets(struct server *srv)
{
	struct secrets fresh = { 0 };

	if (load_secrets(srv, &fresh))
		return;
	secrets_free(&srv->secrets);
	srv->secrets = fresh;
	pxp_info("reloaded %s (%zu entries)", srv->o->secrets_file, srv->secrets.count);
}

static void run_timers(struct server *srv, uint64_t now)
{
	unsigned int i;

	for (i = 0; i < srv->o->max_sessions; i++) {
		struct srv_session *s = srv->sessions[i];

		if (s && s->ppp_active && ppp_deadline(&s->ppp) <= now)
			ppp_timer(&s->ppp, now);
	}
	if (disc_ac_deadline(srv->ac) <= now)
		disc_ac_timer(srv->ac, now);
	if (srv->stopping && now >= srv->stop_deadline_ms)
		for (i = 0; i < srv->o->max_sessions; i++)
			if (srv->sessions[i])
				request_end(srv->sessions[i], PPP_DOWN_ADMIN, "server stopping");
	process_pending(srv);
}

static uint64_t next_deadline(const struct server *srv)
{
	uint64_t d = disc_ac_deadline(srv->ac), t;
	unsigned int i;

	for (i = 0; i < srv->o->max_sessions; i++) {
		const struct srv_session *s = srv->sessions[i];

		if (s && s->ppp_active) {
			t = ppp_deadline(&s->ppp);
			if (t < d)
				d = t;
		}
	}
	if (srv->stopping && srv->stop_deadline_ms < d)
		d = srv->stop_deadline_ms;
	return d;
}

/*
 * A crashed run leaves its session netdevs behind, still holding --local with the peers'
 * addresses: their routes would shadow the new sessions'. Session netdevs are named
 * pxs<session id>, one AC per network namespace.
 */
static void remove_stale_session_netdevs(void)
{
	struct if_nameindex *list = if_nameindex(), *i;

	if (!list)
		return;
	for (i = list; i->if_index; i++) {
		const char *digits = i->if_name + 3;

		if (strncmp(i->if_name, "pxs", 3) || !*digits ||
		    strspn(digits, "0123456789") != strlen(digits))
			continue;
		if (pxp_dp_cleanup_stale(NULL, i->if_name))
			pxp_warn("could not remove the stale session netdev %s", i->if_name);
	}
	if_freenameindex(list);
}

static int setup(struct server *srv)
{
	struct server_settings *o = srv->o;
	const char *services[1] = { o->common.service };
	struct disc_ac_ops ops = {
		.io = { .ctx = srv, .send = ac_send_cb, .random = pxp_random_fill },
		.event = ac_event_cb,
	};
	struct disc_ac_config cfg = {
		.ac_name = o->ac_name,
		.services = o->common.service[0] ? services : NULL,
		.service_count = o->common.service[0] ? 1 : 0,
		.max_sessions = o->max_sessions,
	};
	int err;

	err = ev_loop_init(&srv->loop);
	if (err) {
		pxp_err("event loop: %s", strerror(-err));
		return PXP_EXIT_FATAL;
	}
	err = control_server_open(&srv->ctl, &srv->loop, o->iface, control_cb, srv);
	if (err) {
		if (err == -EADDRINUSE)
			pxp_err("pppoe-xp already runs on %s", o->iface);
		else
			pxp_err("control socket for %s: %s", o->iface, strerror(-err));
		return PXP_EXIT_FATAL;
	}
	if (load_secrets(srv, &srv->secrets))
		return PXP_EXIT_OPTION;
	srv->sessions = calloc(o->max_sessions, sizeof(*srv->sessions));
	srv->ac = calloc(1, sizeof(*srv->ac));
	if (!srv->sessions || !srv->ac) {
		pxp_err("out of memory");
		return PXP_EXIT_FATAL;
	}
	err = pxp_netlink_open(&srv->nl);
	if (err) {
		pxp_err("netlink: %s", strerror(-err));
		return PXP_EXIT_FATAL;
	}
	err = raw_socket_open(&srv->disc_sock, o->iface, PXP_ETH_P_PPP_DISC, o->common.vlan_id, 0);
	if (!err)
		err = raw_socket_open(&srv->sess_sock, o->iface, PXP_ETH_P_PPP_SES,
				      o->common.vlan_id, 0);
	if (err) {
		pxp_err("%s: cannot open PPPoE sockets: %s", o->iface, strerror(-err));
		return PXP_EXIT_FATAL;
	}
	memcpy(cfg.local_mac, srv->disc_sock.mac, PXP_ETH_ALEN);
	cfg.max_payload = pppoe_max_payload_for_mtu(srv->disc_sock.mtu);
	err = disc_ac_init(srv->ac, &cfg, &ops);
	if (err) {
		pxp_err("access concentrator on %s: %s", o->iface, strerror(-err));
		return PXP_EXIT_OPTION;
	}
	remove_stale_session_netdevs();
	err = pxp_dp_attach(&srv->dp, o->iface, o->common.mode, o->common.vlan_id);
	if (err) {
		srv->dp = NULL;
		pxp_err("data path (--mode %s) on %s: %s", pxp_dp_mode_name(o->common.mode),
			o->iface, strerror(-err));
		return PXP_EXIT_DATAPATH;
	}
	if (o->common.nr_cpus) {
		err = pxp_dp_set_cpu_spread(srv->dp, o->common.nr_cpus);
		if (err) {
			pxp_err("data path on %s: %s", o->iface, strerror(-err));
			return err == -EINVAL ? PXP_EXIT_OPTION : PXP_EXIT_DATAPATH;
		}
	}
	srv->disc_handler.ready = disc_ready;
	srv->sess_handler.ready = sess_ready;
	err = ev_loop_add(&srv->loop, srv->disc_sock.fd, EPOLLIN, &srv->disc_handler);
	if (!err)
		err = ev_loop_add(&srv->loop, srv->sess_sock.fd, EPOLLIN, &srv->sess_handler);
	if (err) {
		pxp_err("event loop: %s", strerror(-err));
		return PXP_EXIT_FATAL;
	}
	return PXP_EXIT_OK;
}

static void teardown(struct server *srv)
{
	unsigned int i;

	if (srv->sessions && srv->ac) {
		for (i = 0; i < srv->o->max_sessions; i++) {
			if (srv->sessions[i]) {
				request_end(srv->sessions[i], PPP_DOWN_ADMIN, "server stopping");
				session_end(srv, srv->sessions[i]);
			}
		}
	}
	pxp_dp_detach(srv->dp);
	if (srv->ac)
		disc_ac_destroy(srv->ac);
	free(srv->ac);
	free(srv->sessions);
	secrets_free(&srv->secrets);
	control_server_close(&srv->ctl);
	raw_socket_close(&srv->sess_sock);
	raw_socket_close(&srv->disc_sock);
	pxp_netlink_close(srv->nl);
	ev_loop_close(&srv->loop);
}

int server_run(struct server_settings *o, int notify_fd)
{
	struct server *srv = calloc(1, sizeof(*srv));
	char msg[DAEMON_MESSAGE_MAX];
	int code;

	if (!srv) {
		daemon_notify(&notify_fd, PXP_EXIT_FATAL, "out of memory");
		return PXP_EXIT_FATAL;
	}
	srv->o = o;
	srv->notify_fd = notify_fd;
	srv->disc_sock.fd = srv->sess_sock.fd = srv->ctl.fd = -1;
	srv->loop.epoll_fd = srv->loop.timer_fd = srv->loop.signal_fd = -1;
	code = setup(srv);
	if (code != PXP_EXIT_OK) {
		daemon_notify(&srv->notify_fd, code, pxp_log_last_error());
		goto out;
	}
	srv->started_ms = ev_now_ms();
	snprintf(msg, sizeof(msg), "access concentrator '%s' on %s (%s mode), pool %s", o->ac_name,
		 o->iface, pxp_dp_mode_name(pxp_dp_mode(srv->dp)), o->pool_text);
	pxp_info("%s", msg);
	daemon_notify(&srv->notify_fd, PXP_EXIT_OK, msg);
	while (!srv->stopping || srv->session_count) {
		int err;

		run_timers(srv, ev_now_ms());
		if (srv->stopping && !srv->session_count)
			break;
		err = ev_loop_run_once(&srv->loop, next_deadline(srv));
		if (err) {
			pxp_err("event loop: %s", strerror(-err));
			code = PXP_EXIT_FATAL;
			break;
		}
		if (srv->loop.pending_signal == SIGHUP)
			reload_secrets(srv);
		else if (srv->loop.pending_signal)
			request_stop(srv, ev_now_ms());
		srv->loop.pending_signal = 0;
	}
out:
	teardown(srv);
	free(srv);
	return code;
}
