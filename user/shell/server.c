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
#include <unistd.h>

#include "container_of.h"
#include "daemon.h"
#include "datapath.h"
#include "discovery.h"
#include "instance.h"
#include "id_set.h"
#include "ipv6_ac.h"
#include "log.h"
#include "ppp.h"
#include "random.h"
#include "run_dir.h"
#include "secrets.h"
#include "session_shell.h"
#include "status.h"
#include "u32_map.h"

/* How long a stopping server waits for its clients' Terminate-Acks. */
#define STOP_GRACE_MS 3000

struct srv_session {
	struct shell_session io; /* io.local_ip is --local */
	unsigned int slot;	 /* in server.sessions */
	uint64_t start_ms, up_since_ms;
	bool up;
	/* Deferred end of the session (on server.ends); why, for the log and the PADT. */
	bool end_pending;
	struct srv_session *next_end;
	enum ppp_down_reason end_reason;
	char end_text[96];
	struct v6ac_session v6;
};

struct server {
	struct server_settings *o;
	struct session_shell sh;
	struct disc_ac *ac;
	struct srv_session **sessions; /* o->max_sessions slots, NULL = free */
	struct id_set slots_taken;     /* the slots of sessions: a new one takes the lowest free */
	unsigned int session_count;
	struct srv_session *ends; /* the sessions that asked to end (request_end()), newest first */
	struct secrets secrets;
	/* The sessions' peer addresses, and those the secrets file gives to its users. */
	struct u32_map ips_in_use, ips_reserved;
	/*
	 * The pool's addresses (offsets from pool_first) that pool_take() may not hand out:
	 * --local, reserved, in use. pool_sync() keeps it so, one address at a time.
	 */
	struct id_set pool_taken;
	struct v6ac v6; /* with --ipv6 */
	/* The IPv6 sessions: their pool indexes, and their slots by netdev ifindex. */
	struct id_set v6_indexes;
	struct u32_map v6_by_ifindex;
	bool v6_open;
	int notify_fd;
	bool stopping;
	struct ev_timer stop_timer; /* armed by request_stop() */
	/* The AC core's one deadline (it has none so far), re-read every pass: O(1). */
	struct ev_timer disc_timer;
	uint64_t started_ms;

	/* Running totals: sessions started (PADS sent) and sessions that reached IPCP. */
	uint64_t sessions_started_total, sessions_up_total;
	unsigned int sessions_established; /* now carrying IPv4 */
	uint64_t auth_failures, pool_exhausted, setup_errors;
	struct instance_record record; /* pid 0 until claim_port() wrote it */
};

static struct server *server_of(struct session_shell *sh)
{
	return container_of(sh, struct server, sh);
}

static struct server *srv_of(const struct srv_session *s)
{
	return server_of(s->io.sh);
}

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
	return u32_map_get(&srv->ips_in_use, ip, NULL);
}

/* An address the secrets file gives to a user: never handed to anyone else. */
static bool ip_reserved(const struct server *srv, uint32_t ip)
{
	return u32_map_get(&srv->ips_reserved, ip, NULL);
}

/* Whether the pool may hand out ip (network order), told to pool_taken: O(1). */
static void pool_sync(struct server *srv, uint32_t ip)
{
	uint32_t host = ntohl(ip);

	if (host < srv->o->pool_first || host > srv->o->pool_last)
		return;
	if (ip == srv->o->local_ip || ip_in_use(srv, ip) || ip_reserved(srv, ip))
		id_set_add(&srv->pool_taken, host - srv->o->pool_first);
	else
		id_set_del(&srv->pool_taken, host - srv->o->pool_first);
}

static void ip_take(struct server *srv, uint32_t ip)
{
	/* Room for max_sessions: it cannot fail. */
	u32_map_put(&srv->ips_in_use, ip, 0);
	pool_sync(srv, ip);
}

static void ip_release(struct server *srv, uint32_t ip)
{
	u32_map_del(&srv->ips_in_use, ip);
	pool_sync(srv, ip);
}

/*
 * The addresses of the secrets file, as a set, and the pool told (those of old, the
 * secrets replaced, too). 0 or -ENOMEM (then none are reserved).
 */
static int reserve_secret_ips(struct server *srv, const struct secrets *old)
{
	size_t i;
	int err;

	u32_map_free(&srv->ips_reserved);
	err = u32_map_init(&srv->ips_reserved, (unsigned int)srv->secrets.count);
	for (i = 0; !err && i < srv->secrets.count; i++)
		if (srv->secrets.entries[i].ip)
			err = u32_map_put(&srv->ips_reserved, srv->secrets.entries[i].ip, 0);
	if (err)
		u32_map_free(&srv->ips_reserved);
	for (i = 0; old && i < old->count; i++)
		pool_sync(srv, old->entries[i].ip);
	for (i = 0; i < srv->secrets.count; i++)
		pool_sync(srv, srv->secrets.entries[i].ip);
	return err;
}

/* The lowest free pool address (network order), or 0. */
static uint32_t pool_take(const struct server *srv)
{
	uint32_t off = id_set_lowest_free(&srv->pool_taken);

	return off < srv->pool_taken.n ? htonl(srv->o->pool_first + off) : 0;
}

static struct v6ac_session *v6_find(void *ctx, int ifindex)
{
	struct server *srv = ctx;
	uintptr_t slot;

	if (ifindex <= 0 || !u32_map_get(&srv->v6_by_ifindex, (uint32_t)ifindex, &slot))
		return NULL;
	return &srv->sessions[slot]->v6;
}

/* ------------------------------------------------------------ sessions */

/* Queues the session's end for process_pending(); the first reason given stands. */
static void request_end(struct srv_session *s, enum ppp_down_reason reason, const char *text)
{
	struct server *srv = srv_of(s);

	if (s->end_pending)
		return;
	s->end_pending = true;
	s->next_end = srv->ends;
	srv->ends = s;
	s->end_reason = reason;
	snprintf(s->end_text, sizeof(s->end_text), "%s", text);
}

static int get_secret_cb(void *ctx, const char *user, uint8_t *secret, size_t cap)
{
	struct srv_session *s = container_of(ctx, struct srv_session, io);

	/* Our name selects the server column, as pppd passes its own name. */
	return secrets_lookup(&srv_of(s)->secrets, user, srv_of(s)->o->ac_name, secret, cap, NULL);
}

/*
 * The peer's address, chosen once we know who it is (as pppd does): the address of the
 * authenticated user's secrets line, else the lowest free pool address. 0, -ENOSPC (pool
 * exhausted, counted) or -EADDRINUSE (the user's address is taken, logged and counted).
 */
static int choose_peer_ip(struct srv_session *s, const char *user)
{
	struct server *srv = srv_of(s);
	uint8_t secret[PPP_SECRET_MAX];
	char text[INET_ADDRSTRLEN], name[PPP_NAME_MAX + 1];
	uint32_t ip = 0;
	int n;

	n = secrets_lookup(&srv->secrets, user, srv->o->ac_name, secret, sizeof(secret), &ip);
	explicit_bzero(secret, sizeof(secret));
	if (n < 0 || !ip) {
		s->io.peer_ip = pool_take(srv);
		if (!s->io.peer_ip) {
			srv->pool_exhausted++;
			return -ENOSPC;
		}
		ip_take(srv, s->io.peer_ip);
		return 0;
	}
	printable(user, name, sizeof(name));
	inet_ntop(AF_INET, &ip, text, sizeof(text));
	if (ip == srv->o->local_ip || ip_in_use(srv, ip)) {
		pxp_warn("session %u: address %s of user '%s' is %s", s->io.session_id, text, name,
			 ip == srv->o->local_ip ? "our --local" : "in use by another session");
		srv->setup_errors++;
		return -EADDRINUSE;
	}
	s->io.peer_ip = ip;
	ip_take(srv, ip);
	pxp_debug("session %u: user '%s' gets %s from %s", s->io.session_id, name, text,
		  srv->o->secrets_file);
	return 0;
}

/* Authenticated: pick the address IPCP will offer. IPCP starts right after this event. */
static void session_auth_ok(struct srv_session *s)
{
	struct ppp_status st;
	int err;

	/* LCP renegotiated and authenticated again: the session keeps its address. */
	if (s->io.peer_ip) {
		ppp_set_peer_ip(&s->io.ppp, s->io.peer_ip);
		return;
	}
	ppp_get_status(&s->io.ppp, &st);
	err = choose_peer_ip(s, st.peer_name);
	if (err) {
		request_end(s, PPP_DOWN_ADMIN,
			    err == -ENOSPC ? "address pool exhausted" : "address in use");
		return;
	}
	ppp_set_peer_ip(&s->io.ppp, s->io.peer_ip);
}

static void session_ipv4_up(struct srv_session *s, uint64_t now)
{
	struct server *srv = srv_of(s);
	char peer[INET_ADDRSTRLEN], user[PPP_NAME_MAX + 1];
	struct ppp_status st;
	int err;

	ppp_get_status(&s->io.ppp, &st);
	shell_session_set_mtu(&s->io, st.peer_mru);
	err = shell_session_add_addr(&s->io);
	inet_ntop(AF_INET, &s->io.peer_ip, peer, sizeof(peer));
	if (err) {
		pxp_err("session %u: adding peer %s on %s: %s", s->io.session_id, peer,
			s->io.ifname, strerror(-err));
		srv->setup_errors++;
		request_end(s, PPP_DOWN_ADMIN, "address setup failed");
		return;
	}
	s->up = true;
	s->up_since_ms = now;
	srv->sessions_up_total++;
	srv->sessions_established++;
	printable(st.peer_name, user, sizeof(user));
	pxp_info("session %u up on %s: user '%s', peer %s, in %" PRIu64 " ms", s->io.session_id,
		 s->io.ifname, user, peer, now - s->start_ms);
}

/* The session stops carrying IP: its end line (connect time, bytes), then its address. */
static void session_ipv4_down(struct srv_session *s)
{
	if (s->up) {
		shell_session_log_end(&s->io, ev_now_ms() - s->up_since_ms);
		srv_of(s)->sessions_established--;
	}
	shell_session_del_addr(&s->io);
	s->up = false;
}

/* The session's IPv6 service ends: its pool index and its entry by ifindex go with it. */
static void v6_stop(struct server *srv, struct srv_session *s)
{
	if (!s->v6.active)
		return;
	id_set_del(&srv->v6_indexes, (uint32_t)s->v6.index);
	u32_map_del(&srv->v6_by_ifindex, (uint32_t)s->v6.ifindex);
	v6ac_session_down(&srv->v6, &s->v6);
}

/* The IPv6 service on the session's netdev, with the lowest pool index no session holds. */
static int v6_start(struct server *srv, struct srv_session *s, uint64_t now)
{
	uint32_t index = id_set_lowest_free(&srv->v6_indexes);
	struct ppp_status st;
	int err;

	/* Fewer IPv6 sessions than slots: there is always one. */
	if (index == srv->v6_indexes.n || s->io.ifindex <= 0)
		return -ENOSPC;
	ppp_get_status(&s->io.ppp, &st);
	/* The RA's MTU: what we receive, within the one session MTU the data path checks. */
	err = v6ac_session_up(&srv->v6, &s->v6, s->io.session_id, s->io.ifindex,
			      st.local_mru < st.peer_mru ? st.local_mru : st.peer_mru,
			      s->io.local_ifid, st.peer_ifid, index, now);
	if (err)
		return err;
	id_set_add(&srv->v6_indexes, index);
	/* Room for max_sessions: it cannot fail. */
	u32_map_put(&srv->v6_by_ifindex, (uint32_t)s->io.ifindex, s->slot);
	return 0;
}

/* IPv6CP opened: our link-local address, then advertisements and DHCPv6 on the link. */
static void session_ipv6_up(struct srv_session *s, uint64_t now)
{
	struct server *srv = srv_of(s);

	/* IPv6CP renegotiated: the session starts over, from the lowest free index. */
	v6_stop(srv, s);
	if (shell_session_add_link_local(&s->io)) {
		pxp_warn("session %u: IPv6 link-local address on %s failed", s->io.session_id,
			 s->io.ifname);
		return;
	}
	if (v6_start(srv, s, now))
		srv->setup_errors++;
}

static void session_ipv6_down(struct srv_session *s)
{
	v6_stop(srv_of(s), s);
	shell_session_del_link_local(&s->io);
}

static void ppp_event_cb(void *ctx, enum ppp_event ev, int reason)
{
	struct srv_session *s = container_of(ctx, struct srv_session, io);
	struct server *srv = srv_of(s);

	switch (ev) {
	case PPP_EV_AUTH_OK:
		session_auth_ok(s);
		break;
	case PPP_EV_IPV4_UP:
		session_ipv4_up(s, ev_now_ms());
		break;
	case PPP_EV_IPV4_DOWN:
		session_ipv4_down(s);
		break;
	case PPP_EV_IPV6_UP:
		if (srv->v6_open)
			session_ipv6_up(s, ev_now_ms());
		break;
	case PPP_EV_IPV6_DOWN:
		session_ipv6_down(s);
		break;
	case PPP_EV_LINK_DOWN:
		if (reason == PPP_DOWN_AUTH_FAILED) {
			struct ppp_status st;

			/* The auth core's words: the user (made printable), never the secret. */
			ppp_get_status(&s->io.ppp, &st);
			pxp_warn("session %u: %s", s->io.session_id, st.auth_message);
			srv->auth_failures++;
		}
		request_end(s, (enum ppp_down_reason)reason, "");
		break;
	}
}

static void session_free(struct server *srv, struct srv_session *s)
{
	srv->sessions[s->slot] = NULL;
	id_set_del(&srv->slots_taken, s->slot);
	ip_release(srv, s->io.peer_ip);
	shell_index_session(&srv->sh, &s->io, false);
	srv->session_count--;
	explicit_bzero(s, sizeof(*s));
	free(s);
}

/* Ends a session: netdev and data path record, PPP link, PADT (unless the peer sent one). */
static void session_end(struct server *srv, struct srv_session *s)
{
	session_ipv4_down(s);
	session_ipv6_down(s);
	shell_session_end(&s->io);
	if (s->end_reason == PPP_DOWN_LOWER)
		disc_ac_release(srv->ac, s->io.session_id);
	else
		disc_ac_close_session(srv->ac, s->io.session_id,
				      s->end_text[0] ? s->end_text
						     : ppp_down_reason_text(s->end_reason));
	pxp_info("session %u ended: %s%s%s", s->io.session_id, ppp_down_reason_text(s->end_reason),
		 s->end_text[0] ? ", " : "", s->end_text);
	session_free(srv, s);
}

static int session_start(struct srv_session *s, uint64_t now)
{
	struct server *srv = srv_of(s);
	struct ppp_callbacks cb = { .event = ppp_event_cb, .get_secret = get_secret_cb };
	struct ppp_config cfg = {
		.role = PPP_ROLE_SERVER,
		.mru = s->io.max_payload,
		.require_auth = srv->o->auth,
		.local_ip = srv->o->local_ip,
		.peer_ip = s->io.peer_ip,
		.dns = { srv->o->dns[0], srv->o->dns[1] },
		.ipv6 = srv->o->common.ipv6,
		.echo_interval_ms = srv->o->common.keepalive_interval_s * 1000,
		.echo_max_failures = srv->o->common.keepalive_failures,
	};
	int err;

	snprintf(s->io.ifname, sizeof(s->io.ifname), PXP_AC_NETDEV_PREFIX "%u", s->io.session_id);
	snprintf(cfg.server_name, sizeof(cfg.server_name), "%s", srv->o->ac_name);
	err = shell_session_add_netdev(&s->io, s->io.max_payload);
	if (err) {
		pxp_err("session %u: creating %s: %s", s->io.session_id, s->io.ifname,
			strerror(-err));
		return err;
	}
	err = shell_session_start_ppp(&s->io, &cfg, &cb, now);
	if (err)
		pxp_err("session %u: starting PPP: %s", s->io.session_id, strerror(-err));
	return err;
}

static void session_new(struct server *srv, const struct disc_ac_event *ev, uint64_t now)
{
	uint32_t slot = id_set_lowest_free(&srv->slots_taken);
	struct srv_session *s;

	s = slot < srv->slots_taken.n ? calloc(1, sizeof(*s)) : NULL;
	if (!s) {
		/* The AC core enforces max_sessions; this is out of memory. */
		srv->setup_errors++;
		return;
	}
	s->slot = slot;
	id_set_add(&srv->slots_taken, slot);
	s->io.sh = &srv->sh;
	s->io.local_ip = srv->o->local_ip;
	s->io.session_id = ev->session_id;
	memcpy(s->io.peer_mac, ev->peer_mac, PXP_ETH_ALEN);
	s->io.max_payload = ev->max_payload ? ev->max_payload : PPPOE_DEFAULT_MRU;
	s->start_ms = now;
	srv->sessions[slot] = s;
	shell_index_session(&srv->sh, &s->io, true);
	srv->session_count++;
	srv->sessions_started_total++;
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
	struct shell_session *io;
	struct srv_session *s;

	switch (ev->type) {
	case DISC_AC_EV_SESSION_NEW:
		session_new(srv, ev, ev_now_ms());
		break;
	case DISC_AC_EV_SESSION_CLOSED:
		io = shell_find_session(&srv->sh, ev->session_id, ev->peer_mac);
		if (!io)
			break;
		s = container_of(io, struct srv_session, io);
		shell_session_lower_down(&s->io, ev_now_ms());
		request_end(s, PPP_DOWN_LOWER, "");
		/* Whatever LINK_DOWN said, the peer's PADT already released the session. */
		s->end_reason = PPP_DOWN_LOWER;
		s->end_text[0] = '\0';
		break;
	}
}

static int ac_send_cb(void *ctx, const void *frame, size_t len)
{
	struct server *srv = ctx;

	return shell_disc_send(&srv->sh, frame, len);
}

/* Called after every frame: ends the sessions that asked to, and only those. */
static void process_pending(struct server *srv)
{
	struct srv_session *s;

	/* One at a time: an end may ask for more (they join the head) but never for s again. */
	while ((s = srv->ends)) {
		srv->ends = s->next_end;
		session_end(srv, s);
	}
}

static void request_stop(struct server *srv, uint64_t now)
{
	unsigned int i;

	if (srv->stopping) {
		/* Second request: do not wait. */
		ev_timer_set(&srv->sh.loop, &srv->stop_timer, now);
		return;
	}
	pxp_info("stopping: terminating %u session(s)", srv->session_count);
	srv->stopping = true;
	ev_timer_set(&srv->sh.loop, &srv->stop_timer, now + STOP_GRACE_MS);
	for (i = 0; i < srv->o->max_sessions; i++) {
		struct srv_session *s = srv->sessions[i];

		if (s && s->io.ppp_active && !s->io.closing) {
			shell_session_close(&s->io, now);
		} else if (s) {
			request_end(s, PPP_DOWN_ADMIN, "server stopping");
		}
	}
	process_pending(srv);
}

/* ------------------------------------------------------------ the shell's role */

static struct shell_session *session_at(struct session_shell *sh, unsigned int i)
{
	struct srv_session *s = server_of(sh)->sessions[i];

	return s ? &s->io : NULL;
}

static void disc_input(struct session_shell *sh, uint64_t now, const uint8_t *frame, size_t len)
{
	struct server *srv = server_of(sh);

	if (!srv->stopping)
		disc_ac_input(srv->ac, now, frame, len);
}

/* A frame of a session we do not have (we restarted, or it ended here): PADT, rate-limited. */
static void unknown_session(struct session_shell *sh, uint64_t now, const uint8_t *peer_mac,
			    uint16_t session_id)
{
	struct server *srv = server_of(sh);

	if (!srv->stopping)
		disc_ac_unknown_session(srv->ac, now, peer_mac, session_id);
}

static void shell_process_pending(struct session_shell *sh, uint64_t now)
{
	(void)now;
	process_pending(server_of(sh));
}

static const char *state_name(struct session_shell *sh)
{
	return server_of(sh)->stopping ? "stopping" : "running";
}

static void write_status(struct session_shell *sh, FILE *out, bool json)
{
	char halves[64], cpus[PXP_DP_CPUS_TEXT];
	struct server *srv = server_of(sh);
	uint64_t now = ev_now_ms();
	struct status_writer w;
	unsigned int i;

	shell_status_begin(sh, &w, out, json);
	status_str(&w, "ac_name", srv->o->ac_name);
	status_mac(&w, "local_mac", srv->sh.disc_sock.mac);
	status_ipv4(&w, "local_ip", srv->o->local_ip);
	status_str(&w, "pool", srv->o->pool_text);
	status_str(&w, "datapath_mode",
		   srv->sh.dp ? pxp_dp_mode_name(pxp_dp_mode(srv->sh.dp)) : NULL);
	status_str(&w, "datapath_mode_reason", srv->sh.dp ? pxp_dp_mode_reason(srv->sh.dp) : NULL);
	status_str(&w, "datapath_halves",
		   srv->sh.dp ? shell_dp_halves(&srv->sh, halves, sizeof(halves)) : NULL);
	status_str(&w, "netdev_kind",
		   srv->sh.dp ? pxp_dp_netdev_name(pxp_dp_netdev_kind(srv->sh.dp)) : NULL);
	status_u64(&w, "umem_bytes", srv->sh.dp ? pxp_dp_umem_bytes(srv->sh.dp) : 0);
	status_str(&w, "afxdp_cpus", pxp_dp_afxdp_cpus(srv->sh.dp, cpus, sizeof(cpus)));
	status_u64(&w, "uptime_s", (now - srv->started_ms) / 1000);
	status_u64(&w, "session_count", srv->session_count);
	status_u64(&w, "sessions_established", srv->sessions_established);
	status_u64(&w, "sessions_started_total", srv->sessions_started_total);
	status_u64(&w, "sessions_up_total", srv->sessions_up_total);
	status_u64(&w, "auth_failures", srv->auth_failures);
	status_u64(&w, "pool_exhausted", srv->pool_exhausted);
	status_u64(&w, "setup_errors", srv->setup_errors);
	/* PADTs for frames of sessions we do not have, and those the rate limit left out. */
	status_u64(&w, "padt_unknown_session", srv->ac->padt_unknown_session);
	status_u64(&w, "padt_unknown_session_limited", srv->ac->padt_unknown_session_limited);
	status_array_begin(&w, "sessions");
	for (i = 0; i < srv->o->max_sessions; i++) {
		struct srv_session *s = srv->sessions[i];
		struct ppp_status st = { 0 };

		if (!s)
			continue;
		if (s->io.ppp_active)
			ppp_get_status(&s->io.ppp, &st);
		status_object_begin(&w, NULL);
		status_u64(&w, "session_id", s->io.session_id);
		status_mac(&w, "peer_mac", s->io.peer_mac);
		status_str(&w, "user", st.peer_name[0] ? st.peer_name : NULL);
		status_str(&w, "ifname", s->io.ifname);
		status_ipv4(&w, "peer_ip", s->io.peer_ip);
		status_u64(&w, "mtu", s->io.mtu);
		status_str(&w, "lcp", s->io.ppp_active ? st.lcp_state : NULL);
		status_str(&w, "ipcp", s->io.ppp_active ? st.ipcp_state : NULL);
		status_u64(&w, "uptime_s", s->up ? (now - s->up_since_ms) / 1000 : 0);
		status_u64(&w, "echo_sent", st.echo_sent);
		status_u64(&w, "echo_replies", st.echo_replies);
		if (srv->v6_open)
			v6ac_status_session(&s->v6, &w);
		status_object_end(&w);
	}
	status_array_end(&w);
	status_object_begin(&w, "discovery");
	shell_status_disc_counters(&w, srv->ac->rx_frames, srv->ac->tx_frames, srv->ac->drops);
	status_object_end(&w);
	shell_status_frames(sh, &w, NULL);
	shell_status_refused(sh, &w);
	if (srv->v6_open)
		v6ac_status(&srv->v6, &w);
	status_end(&w);
}

static void shell_request_stop(struct session_shell *sh, uint64_t now)
{
	request_stop(server_of(sh), now);
}

static const struct shell_role server_role = {
	.name = "server",
	.session_at = session_at,
	.disc_input = disc_input,
	.unknown_session = unknown_session,
	.process_pending = shell_process_pending,
	.state = state_name,
	.write_status = write_status,
	.request_stop = shell_request_stop,
};

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

	struct secrets old;

	if (load_secrets(srv, &fresh))
		return;
	old = srv->secrets;
	srv->secrets = fresh;
	if (reserve_secret_ips(srv, &old))
		pxp_err("out of memory: the addresses of %s are not reserved",
			srv->o->secrets_file);
	secrets_free(&old);
	pxp_info("reloaded %s (%zu entries)", srv->o->secrets_file, srv->secrets.count);
}

/* The second request or STOP_GRACE_MS after the first: end what the Terminates did not. */
static void stop_fire(struct ev_timer *t, uint64_t now)
{
	struct server *srv = container_of(t, struct server, stop_timer);
	unsigned int i;

	(void)now;
	for (i = 0; i < srv->o->max_sessions; i++)
		if (srv->sessions[i])
			request_end(srv->sessions[i], PPP_DOWN_ADMIN, "server stopping");
}

static void disc_fire(struct ev_timer *t, uint64_t now)
{
	disc_ac_timer(container_of(t, struct server, disc_timer)->ac, now);
}

/*
 * Before anything is created: what a dead instance on this port left goes (by its record),
 * no other AC may run in this network namespace, and the session netdevs a crashed AC left
 * go too (still holding --local with the peers' addresses, their routes would shadow the
 * new sessions'). Then the record and the pid file say who serves here.
 */
static int claim_port(struct server *srv)
{
	const char *iface = srv->o->iface;
	bool found;
	int err;

	err = instance_clean_stale(iface, &found);
	if (err)
		return err == -EBUSY ? PXP_EXIT_LOCK : PXP_EXIT_FATAL;
	if (instance_check_one_ac(iface))
		return PXP_EXIT_LOCK;
	instance_remove_ac_netdevs();
	err = instance_record_init(&srv->record);
	if (!err) {
		snprintf(srv->record.role, sizeof(srv->record.role), "server");
		srv->record.vlan_id = srv->o->common.vlan_id;
		err = instance_record_write(iface, &srv->record);
	}
	if (err) {
		srv->record.pid = 0;
		pxp_err("cannot record this instance in %s: %s", pxp_run_dir(), strerror(-err));
		return PXP_EXIT_FATAL;
	}
	err = daemon_write_pid_file(iface);
	if (err)
		pxp_warn("cannot write %s/%s.pid: %s", pxp_run_dir(), iface, strerror(-err));
	return PXP_EXIT_OK;
}

/* The WAN program in the record, for `down` after a crash (session netdevs go by name). */
static void record_datapath(struct server *srv)
{
	struct instance_record *r = &srv->record;
	int err;

	pxp_dp_owned(srv->sh.dp, &r->dp);
	r->dp.netdev[0] = '\0';
	r->dp.netdev_ifindex = 0;
	err = instance_record_write(srv->o->iface, r);
	if (err)
		pxp_warn("cannot record this instance in %s: %s", pxp_run_dir(), strerror(-err));
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
		.global_rate = o->padi_rate,
		.per_mac_rate = o->padi_rate_per_mac,
	};
	int code, err;

	code = shell_open(&srv->sh, &server_role, o->iface, o->max_sessions, o->common.vlan_id, 0);
	if (code != PXP_EXIT_OK)
		return code;
	if (load_secrets(srv, &srv->secrets))
		return PXP_EXIT_OPTION;
	srv->sessions = calloc(o->max_sessions, sizeof(*srv->sessions));
	srv->ac = calloc(1, sizeof(*srv->ac));
	if (!srv->sessions || !srv->ac || id_set_init(&srv->slots_taken, o->max_sessions) ||
	    u32_map_init(&srv->ips_in_use, o->max_sessions) ||
	    id_set_init(&srv->pool_taken, o->pool_last - o->pool_first + 1) ||
	    id_set_init(&srv->v6_indexes, o->max_sessions) ||
	    u32_map_init(&srv->v6_by_ifindex, o->max_sessions) ||
	    ev_timer_attach(&srv->sh.loop, &srv->stop_timer, stop_fire) ||
	    ev_timer_attach(&srv->sh.loop, &srv->disc_timer, disc_fire)) {
		pxp_err("out of memory");
		return PXP_EXIT_FATAL;
	}
	/* --local may lie inside the pool (config shrank the pool only around its ends). */
	pool_sync(srv, o->local_ip);
	if (reserve_secret_ips(srv, NULL)) {
		pxp_err("out of memory");
		return PXP_EXIT_FATAL;
	}
	memcpy(cfg.local_mac, srv->sh.disc_sock.mac, PXP_ETH_ALEN);
	cfg.max_payload = pppoe_max_payload_for_mtu(srv->sh.disc_sock.mtu);
	err = disc_ac_init(srv->ac, &cfg, &ops);
	if (err) {
		pxp_err("access concentrator on %s: %s", o->iface, strerror(-err));
		return PXP_EXIT_OPTION;
	}
	code = claim_port(srv);
	if (code != PXP_EXIT_OK)
		return code;
	if (o->common.ipv6) {
		if (v6ac_open(&srv->v6, o, srv->sh.disc_sock.mac, &srv->sh.loop, srv->sh.nl,
			      v6_find, srv)) {
			v6ac_close(&srv->v6);
			return PXP_EXIT_FATAL;
		}
		srv->v6_open = true;
	}
	/* A program of a run that left no record (an older version's) goes by name. */
	if (pxp_dp_cleanup_stale(o->iface, NULL))
		return PXP_EXIT_DATAPATH;
	code = shell_attach_datapath(&srv->sh, &o->common, 0);
	if (code != PXP_EXIT_OK)
		return code;
	record_datapath(srv);
	pxp_dp_defer_deletes(srv->sh.dp);
	return code;
}

static void teardown(struct server *srv)
{
	unsigned int i;

	if (srv->sessions && srv->ac) {
		for (i = 0; i < srv->o->max_sessions; i++)
			if (srv->sessions[i])
				request_end(srv->sessions[i], PPP_DOWN_ADMIN, "server stopping");
		process_pending(srv);
	}
	if (srv->ac)
		disc_ac_destroy(srv->ac);
	free(srv->ac);
	free(srv->sessions);
	id_set_free(&srv->slots_taken);
	u32_map_free(&srv->ips_in_use);
	u32_map_free(&srv->ips_reserved);
	id_set_free(&srv->pool_taken);
	id_set_free(&srv->v6_indexes);
	u32_map_free(&srv->v6_by_ifindex);
	if (srv->v6_open)
		v6ac_close(&srv->v6);
	secrets_free(&srv->secrets);
	/*
	 * The record and the pid file go once nothing they name is left, and before the
	 * control socket: `down` returns when that is gone, with the run files gone too.
	 */
	shell_detach_datapath(&srv->sh);
	if (srv->record.pid) {
		/* The pid file first, while the record holds the port (as the client does). */
		daemon_remove_pid_file(srv->o->iface, (long)getpid());
		instance_record_remove(srv->o->iface);
	}
	shell_close(&srv->sh);
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
	code = setup(srv);
	if (code != PXP_EXIT_OK) {
		daemon_notify(&srv->notify_fd, code, pxp_log_last_error());
		goto out;
	}
	srv->started_ms = ev_now_ms();
	snprintf(msg, sizeof(msg), "access concentrator '%s' on %s (%s mode), pool %s", o->ac_name,
		 o->iface, pxp_dp_mode_name(pxp_dp_mode(srv->sh.dp)), o->pool_text);
	pxp_info("%s", msg);
	daemon_notify(&srv->notify_fd, PXP_EXIT_OK, msg);
	while (!srv->stopping || srv->session_count) {
		int err;

		ev_timers_run(&srv->sh.loop, ev_now_ms());
		process_pending(srv);
		/* The netdevs of the sessions ended since the last pass, in one request. */
		pxp_dp_flush(srv->sh.dp);
		if (srv->stopping && !srv->session_count)
			break;
		ev_timer_set(&srv->sh.loop, &srv->disc_timer, disc_ac_deadline(srv->ac));
		err = ev_loop_run_once(&srv->sh.loop);
		if (err) {
			pxp_err("event loop: %s", strerror(-err));
			code = PXP_EXIT_FATAL;
			break;
		}
		if (srv->sh.loop.pending_signal == SIGHUP)
			reload_secrets(srv);
		else if (srv->sh.loop.pending_signal)
			request_stop(srv, ev_now_ms());
		srv->sh.loop.pending_signal = 0;
	}
out:
	teardown(srv);
	free(srv);
	return code;
}
