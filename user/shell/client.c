// SPDX-License-Identifier: GPL-2.0
/*
 * The client daemon: the I/O shell around the discovery client core and the PPP link.
 * Core callbacks only record what happened when acting on it would re-enter a core
 * (ending a session destroys the PPP link that is calling us); process_pending() acts
 * once the core has returned.
 */
#include "client.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "control.h"
#include "daemon.h"
#include "datapath.h"
#include "discovery.h"
#include "event_loop.h"
#include "log.h"
#include "mac.h"
#include "netlink.h"
#include "ppp.h"
#include "pxp_mtu.h"
#include "random.h"
#include "run_dir.h"
#include "raw_socket.h"
#include "session_frame.h"
#include "stats_report.h"
#include "status.h"

/* Frames read per wakeup: bounds the time one busy socket can hold the loop. */
#define RX_BURST  64
#define FRAME_BUF 2048

enum client_phase {
	PHASE_DISCOVERY, /* PADI/PADR */
	PHASE_LINK,	 /* PPPoE session up; LCP, authentication, IPCP */
	PHASE_UP,	 /* IPCP opened: addresses and routes in place */
	PHASE_HOLDOFF,	 /* --persist: waiting to try again */
	PHASE_DONE,
};

static const char *const phase_names[] = {
	[PHASE_DISCOVERY] = "discovery", [PHASE_LINK] = "negotiating", [PHASE_UP] = "up",
	[PHASE_HOLDOFF] = "holdoff",	 [PHASE_DONE] = "down",
};

struct client {
	struct client_settings *o;
	struct ev_loop loop;
	struct raw_socket disc_sock, sess_sock;
	struct ev_handler disc_handler, sess_handler;
	struct disc_client disc;
	struct ppp ppp;
	bool ppp_active;
	struct pxp_dp *dp;
	struct pxp_netlink *nl;
	struct control_server ctl;
	int notify_fd;
	enum client_phase phase;

	/* The current session, from DISC_EV_SESSION_UP until session_end(). */
	uint16_t session_id;
	uint8_t ac_mac[PXP_ETH_ALEN];
	char ac_name[DISC_NAME_MAX + 1];
	uint16_t max_payload;
	int ifindex; /* session netdev, 0 = none */
	uint16_t mtu;
	uint32_t local_ip, peer_ip, dns[2];
	bool addr_set, route_set, resolv_written;
	uint8_t local_ifid[8];
	bool link_local_set;
	uint64_t attempt_start_ms; /* PADI sent */
	uint64_t up_since_ms;
	uint64_t setup_ms; /* PADI to IPCP open, last session */
	uint64_t holdoff_until_ms;

	/* Deferred work (see the file comment). */
	bool link_down_pending;
	enum ppp_down_reason link_down_reason;
	bool disc_failed_pending;
	char disc_failure[DISC_ERROR_TEXT_MAX + 1];
	char padt_text[DISC_ERROR_TEXT_MAX + 1]; /* the AC's reason in its PADT, if any */
	char fatal_pending[160];		 /* non-empty: close the link for this reason */
	bool stop_requested;
	bool closing; /* ppp_close() called: LINK_DOWN will follow */

	unsigned int failures; /* consecutive attempts that never reached IPCP */
	unsigned int sessions; /* sessions that reached IPCP */
	int exit_code;
	char last_error[256];

	uint64_t session_rx, session_tx, session_tx_errors;
	uint64_t session_drops[SESSION_DROP_REASON_COUNT];
	uint64_t last_decap; /* data path receive count at the last PPP timer */
	uint8_t rx_buf[FRAME_BUF];
	uint8_t tx_buf[FRAME_BUF];
};

/* ------------------------------------------------------------ session record */

/*
 * The session a run has open, so that the next run can close it with a PADT after a
 * crash: otherwise the AC keeps the old session and may refuse a new one for minutes.
 */
static void record_path(const struct client *c, char *path, size_t cap)
{
	snprintf(path, cap, "%s/%s.session", pxp_run_dir(), c->o->iface);
}

static void record_write(struct client *c)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	const uint8_t *a = c->ac_mac, *l = c->disc_sock.mac;
	FILE *f;

	record_path(c, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f) {
		pxp_warn("cannot record the session in %s: %s", tmp, strerror(errno));
		return;
	}
	fprintf(f,
		"session_id %u\nac_mac %02x:%02x:%02x:%02x:%02x:%02x\n"
		"local_mac %02x:%02x:%02x:%02x:%02x:%02x\n",
		c->session_id, a[0], a[1], a[2], a[3], a[4], a[5], l[0], l[1], l[2], l[3], l[4],
		l[5]);
	if (fclose(f) || rename(tmp, path))
		pxp_warn("cannot record the session in %s: %s", path, strerror(errno));
}

static void record_remove(struct client *c)
{
	char path[PATH_MAX];

	record_path(c, path, sizeof(path));
	unlink(path);
}

/* Sends a PADT for the session a previous run left open, then forgets it. */
static void close_stale_session(struct client *c)
{
	char path[PATH_MAX], ac_text[32], local_text[32];
	uint8_t ac_mac[PXP_ETH_ALEN], local_mac[PXP_ETH_ALEN];
	uint8_t frame[PPPOE_DISC_FRAME_MAX];
	unsigned int sid;
	FILE *f;
	int len, n;

	record_path(c, path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return;
	n = fscanf(f, "session_id %u ac_mac %31s local_mac %31s", &sid, ac_text, local_text);
	fclose(f);
	unlink(path);
	if (n != 3 || sid == 0 || sid >= 0xffff || pxp_mac_parse(ac_text, ac_mac) ||
	    pxp_mac_parse(local_text, local_mac)) {
		pxp_warn("ignoring the unreadable session record %s", path);
		return;
	}
	len = disc_build_padt(frame, sizeof(frame), local_mac, ac_mac, (uint16_t)sid,
			      "pppoe-xp restarted");
	if (len < 0 || raw_socket_send(&c->disc_sock, frame, (size_t)len)) {
		pxp_warn("could not send the PADT for stale session %u", sid);
		return;
	}
	pxp_info("sent PADT for stale session %u to %s", sid, ac_text);
}

/* ------------------------------------------------------------ addresses, DNS */

static void resolv_write(struct client *c)
{
	char tmp[PATH_MAX + 8];
	char text[INET_ADDRSTRLEN];
	FILE *f;
	int i;

	if (!c->o->usepeerdns || (!c->dns[0] && !c->dns[1]))
		return;
	if (pxp_run_dir_create())
		pxp_warn("cannot create %s", pxp_run_dir());
	snprintf(tmp, sizeof(tmp), "%s.tmp", c->o->resolv_file);
	f = fopen(tmp, "we");
	if (!f) {
		pxp_warn("--resolv-file %s: %s", tmp, strerror(errno));
		return;
	}
	fprintf(f, "# DNS servers of the PPPoE session on %s, written by pppoe-xp\n", c->o->iface);
	for (i = 0; i < 2; i++) {
		if (!c->dns[i])
			continue;
		inet_ntop(AF_INET, &c->dns[i], text, sizeof(text));
		fprintf(f, "nameserver %s\n", text);
	}
	if (fclose(f) || rename(tmp, c->o->resolv_file)) {
		pxp_warn("--resolv-file %s: %s", c->o->resolv_file, strerror(errno));
		return;
	}
	c->resolv_written = true;
}

static void set_session_mtu(struct client *c, uint16_t mtu)
{
	int err;

	if (!c->ifindex || mtu == c->mtu)
		return;
	err = pxp_dp_session_set_mtu(c->dp, c->session_id, mtu);
	if (!err)
		err = pxp_netlink_set_mtu(c->nl, c->ifindex, mtu);
	if (err) {
		pxp_warn("setting MTU %u on %s: %s", mtu, c->o->ifname, strerror(-err));
		return;
	}
	c->mtu = mtu;
}

static uint16_t negotiated_mtu(struct client *c)
{
	struct ppp_status st;
	uint16_t mtu;

	ppp_get_status(&c->ppp, &st);
	mtu = st.peer_mru ? st.peer_mru : c->max_payload;
	if (c->o->mtu && c->o->mtu < mtu)
		mtu = (uint16_t)c->o->mtu;
	return mtu;
}

static void ipv4_up(struct client *c, uint64_t now)
{
	char local[INET_ADDRSTRLEN], peer[INET_ADDRSTRLEN], msg[DAEMON_MESSAGE_MAX];
	struct ppp_status st;
	int err;

	ppp_get_status(&c->ppp, &st);
	c->local_ip = st.local_ip;
	c->peer_ip = st.peer_ip;
	c->dns[0] = st.dns[0];
	c->dns[1] = st.dns[1];
	inet_ntop(AF_INET, &c->local_ip, local, sizeof(local));
	inet_ntop(AF_INET, &c->peer_ip, peer, sizeof(peer));
	set_session_mtu(c, negotiated_mtu(c));
	err = pxp_netlink_link_up(c->nl, c->ifindex);
	if (!err)
		err = pxp_netlink_add_p2p(c->nl, c->ifindex, c->local_ip, c->peer_ip);
	if (err) {
		snprintf(c->fatal_pending, sizeof(c->fatal_pending), "adding %s peer %s to %s: %s",
			 local, peer, c->o->ifname, strerror(-err));
		return;
	}
	c->addr_set = true;
	if (c->o->defaultroute) {
		err = pxp_netlink_add_default_route(c->nl, c->ifindex);
		if (err)
			pxp_warn("--defaultroute via %s: %s", c->o->ifname, strerror(-err));
		else
			c->route_set = true;
	}
	resolv_write(c);
	c->phase = PHASE_UP;
	c->up_since_ms = now;
	c->setup_ms = now - c->attempt_start_ms;
	c->failures = 0;
	c->sessions++;
	c->last_error[0] = '\0';
	pxp_info("session %u up on %s in %" PRIu64 " ms: %s peer %s, MTU %u", c->session_id,
		 c->o->ifname, c->setup_ms, local, peer, c->mtu);
	snprintf(msg, sizeof(msg), "session %u up on %s: %s peer %s", c->session_id, c->o->ifname,
		 local, peer);
	daemon_notify(&c->notify_fd, PXP_EXIT_OK, msg);
}

/* Undoes ipv4_up(); the netdev may already be gone (then this is a no-op). */
static void ipv4_down(struct client *c)
{
	if (c->route_set)
		pxp_netlink_del_default_route(c->nl, c->ifindex);
	if (c->addr_set)
		pxp_netlink_del_p2p(c->nl, c->ifindex, c->local_ip, c->peer_ip);
	if (c->resolv_written)
		unlink(c->o->resolv_file);
	c->route_set = c->addr_set = c->resolv_written = false;
	if (c->phase == PHASE_UP)
		c->phase = PHASE_LINK;
}

static void ipv6_up(struct client *c)
{
	struct ppp_status st;
	int err;

	ppp_get_status(&c->ppp, &st);
	memcpy(c->local_ifid, st.local_ifid, sizeof(c->local_ifid));
	err = pxp_netlink_link_up(c->nl, c->ifindex);
	if (!err)
		err = pxp_netlink_add_link_local(c->nl, c->ifindex, c->local_ifid);
	if (err) {
		pxp_warn("adding the IPv6 link-local address to %s: %s", c->o->ifname,
			 strerror(-err));
		return;
	}
	c->link_local_set = true;
	pxp_info("IPv6CP up on %s", c->o->ifname);
}

static void ipv6_down(struct client *c)
{
	if (c->link_local_set)
		pxp_netlink_del_link_local(c->nl, c->ifindex, c->local_ifid);
	c->link_local_set = false;
}

/* ------------------------------------------------------------ PPP link */

static void ppp_send_cb(void *ctx, uint16_t proto, const uint8_t *data, size_t len)
{
	struct client *c = ctx;
	int n;

	n = session_frame_build(c->tx_buf, sizeof(c->tx_buf), c->ac_mac, c->sess_sock.mac,
				c->session_id, proto, data, len);
	if (n < 0 || raw_socket_send(&c->sess_sock, c->tx_buf, (size_t)n)) {
		c->session_tx_errors++;
		return;
	}
	c->session_tx++;
}

static void ppp_event_cb(void *ctx, enum ppp_event ev, int reason)
{
	struct client *c = ctx;
	uint64_t now = ev_now_ms();

	switch (ev) {
	case PPP_EV_AUTH_OK:
		pxp_info("authenticated to the AC");
		set_session_mtu(c, negotiated_mtu(c));
		break;
	case PPP_EV_IPV4_UP:
		ipv4_up(c, now);
		break;
	case PPP_EV_IPV4_DOWN:
		ipv4_down(c);
		break;
	case PPP_EV_IPV6_UP:
		if (c->o->common.ipv6)
			ipv6_up(c);
		break;
	case PPP_EV_IPV6_DOWN:
		ipv6_down(c);
		break;
	case PPP_EV_LINK_DOWN:
		c->link_down_pending = true;
		c->link_down_reason = (enum ppp_down_reason)reason;
		break;
	}
}

static int start_link(struct client *c, uint64_t now)
{
	struct ppp_callbacks cb = {
		.ctx = c,
		.send = ppp_send_cb,
		.event = ppp_event_cb,
		.random = pxp_random_fill,
	};
	struct ppp_config cfg = {
		.role = PPP_ROLE_CLIENT,
		.mru = c->max_payload,
		.ipv6 = c->o->common.ipv6,
		.echo_interval_ms = c->o->common.keepalive_interval_s * 1000,
		.echo_max_failures = c->o->common.keepalive_failures,
		.echo_adaptive = c->o->keepalive_adaptive,
	};
	int err;

	if (c->o->mtu && c->o->mtu < cfg.mru)
		cfg.mru = (uint16_t)c->o->mtu;
	strcpy(cfg.user, c->o->user);
	memcpy(cfg.password, c->o->password, c->o->password_len);
	cfg.password_len = c->o->password_len;
	err = ppp_init(&c->ppp, &cfg, &cb);
	explicit_bzero(cfg.password, sizeof(cfg.password));
	if (err)
		return err;
	c->ppp_active = true;
	ppp_lower_up(&c->ppp, now);
	return 0;
}

/* ------------------------------------------------------------ discovery */

static int disc_send_cb(void *ctx, const void *frame, size_t len)
{
	struct client *c = ctx;

	return raw_socket_send(&c->disc_sock, frame, len);
}

static int add_session_netdev(struct client *c)
{
	struct pxp_dp_session s = { .session_id = c->session_id, .mss_clamp = true };
	int err;

	strcpy(s.ifname, c->o->ifname);
	memcpy(s.peer_mac, c->ac_mac, PXP_ETH_ALEN);
	s.mtu = c->o->mtu && c->o->mtu < c->max_payload ? (uint16_t)c->o->mtu : c->max_payload;
	err = pxp_dp_session_add(c->dp, &s, &c->ifindex);
	if (err) {
		c->ifindex = 0;
		snprintf(c->fatal_pending, sizeof(c->fatal_pending),
			 "creating %s for session %u: %s", c->o->ifname, c->session_id,
			 strerror(-err));
		return err;
	}
	c->mtu = s.mtu;
	return 0;
}

static void session_up(struct client *c, const struct disc_client_event *ev, uint64_t now)
{
	const uint8_t *m = ev->ac_mac;
	int err;

	c->session_id = ev->session_id;
	memcpy(c->ac_mac, ev->ac_mac, PXP_ETH_ALEN);
	snprintf(c->ac_name, sizeof(c->ac_name), "%s", ev->ac_name);
	c->max_payload = ev->max_payload ? ev->max_payload : PPPOE_DEFAULT_MRU;
	c->phase = PHASE_LINK;
	record_write(c);
	pxp_info("PPPoE session %u with AC '%s' (%02x:%02x:%02x:%02x:%02x:%02x)", c->session_id,
		 c->ac_name, m[0], m[1], m[2], m[3], m[4], m[5]);
	if (add_session_netdev(c))
		return;
	err = start_link(c, now);
	if (err)
		snprintf(c->fatal_pending, sizeof(c->fatal_pending), "starting PPP: %s",
			 strerror(-err));
}

static void disc_event_cb(void *ctx, const struct disc_client_event *ev)
{
	struct client *c = ctx;
	uint64_t now = ev_now_ms();

	switch (ev->type) {
	case DISC_EV_SESSION_UP:
		session_up(c, ev, now);
		break;
	case DISC_EV_SESSION_DOWN:
		snprintf(c->padt_text, sizeof(c->padt_text), "%s", ev->message);
		pxp_info("the AC ended session %u (PADT%s%s)", ev->session_id,
			 ev->message[0] ? ": " : "", ev->message);
		if (c->ppp_active)
			ppp_lower_down(&c->ppp, now);
		if (!c->link_down_pending) {
			/* No PPP link to report it: end the session ourselves. */
			c->link_down_pending = true;
			c->link_down_reason = PPP_DOWN_LOWER;
		}
		break;
	case DISC_EV_FAILED:
		c->disc_failed_pending = true;
		snprintf(c->disc_failure, sizeof(c->disc_failure), "%s", ev->message);
		break;
	case DISC_EV_AC_FOUND:
	case DISC_EV_DISCOVER_DONE:
		break;
	}
}

static int start_attempt(struct client *c, uint64_t now)
{
	struct disc_client_ops ops = {
		.io = { .ctx = c, .send = disc_send_cb, .random = pxp_random_fill },
		.event = disc_event_cb,
	};
	struct disc_client_config cfg = {
		.service_name = c->o->common.service,
		.ac_name = c->o->ac_name[0] ? c->o->ac_name : NULL,
		.match_ac_mac = c->o->match_ac_mac,
		.host_uniq = c->o->host_uniq_len ? c->o->host_uniq : NULL,
		.host_uniq_len = c->o->host_uniq_len,
		.max_payload = c->o->mtu > PPPOE_DEFAULT_MRU ? (uint16_t)c->o->mtu : 0,
		.padi_attempts = c->o->padi_attempts,
		.initial_timeout_ms = c->o->padi_timeout_ms,
	};
	int err;

	memcpy(cfg.local_mac, c->disc_sock.mac, PXP_ETH_ALEN);
	memcpy(cfg.ac_mac, c->o->ac_mac, PXP_ETH_ALEN);
	err = disc_client_init(&c->disc, &cfg, &ops);
	if (!err)
		err = disc_client_start(&c->disc, now);
	if (err)
		return err;
	c->phase = PHASE_DISCOVERY;
	c->attempt_start_ms = now;
	pxp_debug("PADI sent on %s", c->o->iface);
	return 0;
}

/* ------------------------------------------------------------ lifecycle */

static int exit_code_for(enum ppp_down_reason reason)
{
	switch (reason) {
	case PPP_DOWN_ADMIN:
		return PXP_EXIT_SIGNAL;
	case PPP_DOWN_LOWER:
	case PPP_DOWN_PEER_TERMINATE:
		return PXP_EXIT_HANGUP;
	case PPP_DOWN_ECHO_TIMEOUT:
		return PXP_EXIT_ECHO;
	case PPP_DOWN_AUTH_FAILED:
		return PXP_EXIT_AUTH_FAILED;
	case PPP_DOWN_LOOPBACK:
		return PXP_EXIT_LOOPBACK;
	case PPP_DOWN_NEGOTIATION:
	case PPP_DOWN_NO_NETWORK:
		return PXP_EXIT_NEGOTIATION;
	case PPP_DOWN_NONE:
		break;
	}
	return PXP_EXIT_FATAL;
}

static const char *down_reason_text(enum ppp_down_reason reason)
{
	switch (reason) {
	case PPP_DOWN_ADMIN:
		return "closed on request";
	case PPP_DOWN_LOWER:
		return "the AC ended the PPPoE session (PADT)";
	case PPP_DOWN_PEER_TERMINATE:
		return "the AC terminated the link (LCP Terminate-Request)";
	case PPP_DOWN_ECHO_TIMEOUT:
		return "no reply to LCP Echo-Requests: the link is dead";
	case PPP_DOWN_AUTH_FAILED:
		return "authentication failed (check --user and the password)";
	case PPP_DOWN_NEGOTIATION:
		return "LCP negotiation did not converge";
	case PPP_DOWN_LOOPBACK:
		return "the link is looped back (own Magic-Number seen)";
	case PPP_DOWN_NO_NETWORK:
		return "IPCP was rejected or did not open: no IP addresses";
	case PPP_DOWN_NONE:
		break;
	}
	return "the link went down";
}

/* Tears the session down: data path record and netdev, PPP link, PADT, record file. */
static void session_end(struct client *c, uint64_t now)
{
	ipv6_down(c);
	ipv4_down(c);
	if (c->ifindex) {
		int err = pxp_dp_session_del(c->dp, c->session_id);

		if (err)
			pxp_warn("removing %s: %s", c->o->ifname, strerror(-err));
		c->ifindex = 0;
		c->mtu = 0;
	}
	if (c->ppp_active) {
		ppp_destroy(&c->ppp);
		c->ppp_active = false;
	}
	c->closing = false;
	c->padt_text[0] = '\0';
	/* Sends the PADT unless the session is already over (the AC's PADT). */
	disc_client_stop(&c->disc, now);
	if (c->session_id)
		record_remove(c);
	c->session_id = 0;
}

/* One attempt or session is over: retry after holdoff, or end the daemon. */
static void attempt_over(struct client *c, uint64_t now, bool was_up, int code, const char *why)
{
	bool retry;

	if (c->stop_requested) {
		c->exit_code = PXP_EXIT_SIGNAL;
		c->phase = PHASE_DONE;
		daemon_notify(&c->notify_fd, PXP_EXIT_SIGNAL, "stopped before the session was up");
		return;
	}
	if (!was_up)
		c->failures++;
	snprintf(c->last_error, sizeof(c->last_error), "%s", why);
	retry = c->o->persist && (!c->o->maxfail || c->failures < c->o->maxfail);
	if (retry) {
		char msg[DAEMON_MESSAGE_MAX];

		snprintf(msg, sizeof(msg), "%s (still retrying in the background: --persist)", why);
		daemon_notify(&c->notify_fd, code, msg);
		pxp_warn("%s; trying again in %u s", why, c->o->holdoff_s);
		c->phase = PHASE_HOLDOFF;
		c->holdoff_until_ms = now + (uint64_t)c->o->holdoff_s * 1000;
		return;
	}
	if (c->o->persist)
		pxp_err("%s; giving up after %u failed attempts (--maxfail)", why, c->failures);
	else
		pxp_err("%s", why);
	daemon_notify(&c->notify_fd, code, why);
	c->exit_code = code;
	c->phase = PHASE_DONE;
}

static void process_pending(struct client *c, uint64_t now)
{
	if (c->fatal_pending[0] && !c->link_down_pending) {
		if (c->ppp_active) {
			/* Close politely; the LINK_DOWN that follows ends the session. */
			if (!c->closing) {
				pxp_info("closing the link: %s", c->fatal_pending);
				c->closing = true;
				ppp_close(&c->ppp, now);
			}
			if (!c->link_down_pending)
				return;
		} else {
			char why[sizeof(c->fatal_pending)];

			snprintf(why, sizeof(why), "%s", c->fatal_pending);
			c->fatal_pending[0] = '\0';
			session_end(c, now);
			attempt_over(c, now, false, PXP_EXIT_FATAL, why);
			return;
		}
	}
	if (c->link_down_pending) {
		bool was_up = c->phase == PHASE_UP;
		enum ppp_down_reason reason = c->link_down_reason;
		char why[256];
		int code;

		c->link_down_pending = false;
		if (c->fatal_pending[0]) {
			snprintf(why, sizeof(why), "%s", c->fatal_pending);
			code = PXP_EXIT_FATAL;
			c->fatal_pending[0] = '\0';
		} else {
			snprintf(why, sizeof(why), "session %u: %s%s%s", c->session_id,
				 down_reason_text(reason), c->padt_text[0] ? ", " : "",
				 c->padt_text);
			code = exit_code_for(reason);
		}
		session_end(c, now);
		attempt_over(c, now, was_up, code, why);
	}
	if (c->disc_failed_pending) {
		char why[sizeof(c->disc_failure) + 64];

		c->disc_failed_pending = false;
		snprintf(why, sizeof(why), "discovery on %s failed: %s", c->o->iface,
			 c->disc_failure);
		attempt_over(c, now, false, PXP_EXIT_NO_PADO, why);
	}
	if (c->phase == PHASE_HOLDOFF && now >= c->holdoff_until_ms) {
		int err = start_attempt(c, now);

		if (err)
			attempt_over(c, now, false, PXP_EXIT_FATAL, "cannot start discovery");
	}
}

static void request_stop(struct client *c, uint64_t now)
{
	if (c->stop_requested) {
		/* Second request: do not wait for the Terminate-Ack. */
		pxp_info("stopping now");
		session_end(c, now);
		c->phase = PHASE_DONE;
		c->exit_code = PXP_EXIT_SIGNAL;
		return;
	}
	c->stop_requested = true;
	pxp_info("ending the session on request");
	switch (c->phase) {
	case PHASE_LINK:
	case PHASE_UP:
		if (c->ppp_active) {
			if (!c->closing) {
				c->closing = true;
				ppp_close(&c->ppp, now);
			}
			break;
		}
		session_end(c, now);
		c->phase = PHASE_DONE;
		break;
	case PHASE_DISCOVERY:
		disc_client_stop(&c->disc, now);
		c->phase = PHASE_DONE;
		break;
	case PHASE_HOLDOFF:
	case PHASE_DONE:
		c->phase = PHASE_DONE;
		break;
	}
	c->exit_code = PXP_EXIT_SIGNAL;
	daemon_notify(&c->notify_fd, PXP_EXIT_SIGNAL, "stopped before the session was up");
}

/* ------------------------------------------------------------ sockets */

static void disc_ready(struct ev_handler *h, uint32_t events)
{
	struct client *c = (struct client *)((char *)h - offsetof(struct client, disc_handler));
	int i;

	(void)events;
	for (i = 0; i < RX_BURST; i++) {
		ssize_t n = raw_socket_recv(&c->disc_sock, c->rx_buf, sizeof(c->rx_buf));

		if (n < 0)
			break;
		if (n > 0 && c->phase != PHASE_HOLDOFF && c->phase != PHASE_DONE)
			disc_client_input(&c->disc, ev_now_ms(), c->rx_buf, (size_t)n);
		process_pending(c, ev_now_ms());
	}
}

static void sess_ready(struct ev_handler *h, uint32_t events)
{
	struct client *c = (struct client *)((char *)h - offsetof(struct client, sess_handler));
	enum session_drop_reason reason;
	struct session_frame f;
	int i;

	(void)events;
	for (i = 0; i < RX_BURST; i++) {
		ssize_t n = raw_socket_recv(&c->sess_sock, c->rx_buf, sizeof(c->rx_buf));

		if (n < 0)
			break;
		if (n == 0)
			continue;
		if (session_frame_parse(c->rx_buf, (size_t)n, &f, &reason)) {
			c->session_drops[reason]++;
			continue;
		}
		if (memcmp(f.dst, c->sess_sock.mac, PXP_ETH_ALEN)) {
			c->session_drops[SESSION_DROP_DST_MAC]++;
			continue;
		}
		if (!c->ppp_active || f.session_id != c->session_id ||
		    memcmp(f.src, c->ac_mac, PXP_ETH_ALEN)) {
			c->session_drops[SESSION_DROP_UNKNOWN]++;
			continue;
		}
		c->session_rx++;
		ppp_input(&c->ppp, ev_now_ms(), f.ppp_proto, f.payload, f.payload_len);
		process_pending(c, ev_now_ms());
	}
}

/* ------------------------------------------------------------ status */

static void write_status(struct client *c, FILE *out, bool json)
{
	struct status_writer w;
	struct ppp_status st = { 0 };
	struct pxp_dp_stats ds;
	uint64_t now = ev_now_ms();
	unsigned int i;

	if (c->ppp_active)
		ppp_get_status(&c->ppp, &st);
	status_begin(&w, out, json);
	status_str(&w, "iface", c->o->iface);
	status_str(&w, "role", "client");
	status_u64(&w, "pid", (uint64_t)getpid());
	status_str(&w, "state", c->closing ? "terminating" : phase_names[c->phase]);
	status_str(&w, "ifname", c->o->ifname);
	status_u64(&w, "session_id", c->session_id);
	status_str(&w, "ac_name", c->session_id ? c->ac_name : NULL);
	if (c->session_id)
		status_mac(&w, "ac_mac", c->ac_mac);
	else
		status_str(&w, "ac_mac", NULL);
	status_mac(&w, "local_mac", c->disc_sock.mac);
	status_str(&w, "service", c->o->common.service);
	status_ipv4(&w, "local_ip", c->addr_set ? c->local_ip : 0);
	status_ipv4(&w, "peer_ip", c->addr_set ? c->peer_ip : 0);
	status_array_begin(&w, "dns");
	for (i = 0; i < 2; i++)
		if (c->addr_set && c->dns[i])
			status_ipv4(&w, NULL, c->dns[i]);
	status_array_end(&w);
	if (c->link_local_set) {
		status_link_local(&w, "ipv6_local", st.local_ifid);
		status_link_local(&w, "ipv6_peer", st.peer_ifid);
	} else {
		status_str(&w, "ipv6_local", NULL);
		status_str(&w, "ipv6_peer", NULL);
	}
	status_u64(&w, "mtu", c->mtu);
	status_u64(&w, "mru", st.local_mru);
	status_u64(&w, "uptime_s", c->phase == PHASE_UP ? (now - c->up_since_ms) / 1000 : 0);
	status_u64(&w, "setup_ms", c->setup_ms);
	status_str(&w, "lcp", c->ppp_active ? st.lcp_state : NULL);
	status_str(&w, "ipcp", c->ppp_active ? st.ipcp_state : NULL);
	status_str(&w, "ipv6cp", c->ppp_active ? st.ipv6cp_state : NULL);
	status_object_begin(&w, "echo");
	status_u64(&w, "interval_s", c->o->common.keepalive_interval_s);
	status_u64(&w, "max_failures", c->o->common.keepalive_failures);
	status_bool(&w, "adaptive", c->o->keepalive_adaptive);
	status_u64(&w, "sent", st.echo_sent);
	status_u64(&w, "replies", st.echo_replies);
	status_u64(&w, "missed", st.echo_missed);
	status_object_end(&w);
	status_object_begin(&w, "datapath");
	status_str(&w, "mode", c->dp ? pxp_dp_mode_name(pxp_dp_mode(c->dp)) : NULL);
	status_bool(&w, "attached", c->dp != NULL);
	status_u64(&w, "umem_bytes", c->dp ? pxp_dp_umem_bytes(c->dp) : 0);
	if (c->dp && !pxp_dp_get_stats(c->dp, &ds))
		stats_dp_status(&w, &ds);
	status_object_end(&w);
	status_object_begin(&w, "discovery");
	status_str(&w, "state", disc_client_state_name(disc_client_state(&c->disc)));
	status_u64(&w, "rx", c->disc.rx_frames);
	status_u64(&w, "tx", c->disc.tx_frames);
	status_object_begin(&w, "drops");
	for (i = 0; i < PPPOE_DROP_REASON_COUNT; i++)
		if (c->disc.drops[i])
			status_u64(&w, pppoe_drop_reason_name(i), c->disc.drops[i]);
	status_object_end(&w);
	status_object_end(&w);
	status_object_begin(&w, "control_frames");
	status_u64(&w, "rx", c->session_rx);
	status_u64(&w, "tx", c->session_tx);
	status_u64(&w, "tx_errors", c->session_tx_errors);
	/* Not errors: frames of another VLAN, or unicast to another station. */
	status_u64(&w, "skipped", c->disc_sock.rx_other_vlan + c->sess_sock.rx_other_vlan);
	status_u64(&w, "ppp_malformed", st.rx_malformed);
	status_u64(&w, "ppp_proto_reject", st.rx_proto_reject);
	status_u64(&w, "ppp_ignored", st.rx_ignored);
	status_object_begin(&w, "drops");
	for (i = 0; i < SESSION_DROP_REASON_COUNT; i++)
		if (c->session_drops[i])
			status_u64(&w, session_drop_reason_name(i), c->session_drops[i]);
	status_object_end(&w);
	status_object_end(&w);
	status_u64(&w, "sessions", c->sessions);
	status_u64(&w, "failures", c->failures);
	status_str(&w, "last_error", c->last_error[0] ? c->last_error : NULL);
	status_end(&w);
}

static void write_stats(struct client *c, FILE *out)
{
	struct stats_snapshot *s = calloc(1, sizeof(*s));
	struct pxp_link_stats ls;

	if (!s) {
		fputs("error: out of memory\n", out);
		return;
	}
	snprintf(s->iface, sizeof(s->iface), "%s", c->o->iface);
	snprintf(s->role, sizeof(s->role), "client");
	snprintf(s->state, sizeof(s->state), "%s",
		 c->closing ? "terminating" : phase_names[c->phase]);
	snprintf(s->mode, sizeof(s->mode), "%s",
		 c->dp ? pxp_dp_mode_name(pxp_dp_mode(c->dp)) : "-");
	s->time_ms = ev_now_ms();
	if (c->dp && pxp_dp_get_stats(c->dp, &s->dp))
		memset(&s->dp, 0, sizeof(s->dp));
	if (c->ifindex && !pxp_netlink_link_stats(c->nl, c->ifindex, &ls)) {
		struct stats_netdev *n = &s->netdev[s->nr_netdevs++];

		snprintf(n->ifname, sizeof(n->ifname), "%s", c->o->ifname);
		n->rx_packets = ls.rx_packets;
		n->rx_bytes = ls.rx_bytes;
		n->tx_packets = ls.tx_packets;
		n->tx_bytes = ls.tx_bytes;
	}
	stats_snapshot_write(s, out);
	free(s);
}

static void control_cb(void *ctx, const char *command, FILE *reply)
{
	struct client *c = ctx;

	if (!strcmp(command, "stats")) {
		write_stats(c, reply);
	} else if (!strcmp(command, "status")) {
		write_status(c, reply, false);
	} else if (!strcmp(command, "status-json")) {
		write_status(c, reply, true);
	} else if (!strcmp(command, "down")) {
		request_stop(c, ev_now_ms());
		fputs("ok\n", reply);
	} else {
		fprintf(reply, "error: unknown command\n");
	}
}

/* ------------------------------------------------------------ run */

static void handle_signal(struct client *c, uint64_t now)
{
	int sig = c->loop.pending_signal;

	c->loop.pending_signal = 0;
	if (sig == SIGINT || sig == SIGTERM)
		request_stop(c, now);
	else if (sig == SIGHUP)
		pxp_info("SIGHUP ignored");
}

/*
 * Adaptive keepalive: the data path, not this process, sees the session's data, so its
 * receive counter tells the PPP link whether the peer is evidently alive. Read only when
 * a PPP timer is due, which is when the link would decide to send an Echo-Request.
 */
static void note_data_received(struct client *c, uint64_t now)
{
	struct pxp_dp_stats st;
	uint64_t decap = 0;
	unsigned int i;

	if (!c->o->keepalive_adaptive || !c->dp || pxp_dp_get_stats(c->dp, &st))
		return;
	for (i = 0; i < st.nr_queues && i < PXP_DP_MAX_QUEUES; i++)
		decap += st.queue[i].decap;
	if (decap != c->last_decap)
		ppp_data_seen(&c->ppp, now);
	c->last_decap = decap;
}

static void run_timers(struct client *c, uint64_t now)
{
	if (c->phase == PHASE_DISCOVERY && disc_client_deadline(&c->disc) <= now)
		disc_client_timer(&c->disc, now);
	process_pending(c, now);
	if (c->ppp_active && ppp_deadline(&c->ppp) <= now) {
		note_data_received(c, now);
		ppp_timer(&c->ppp, now);
	}
	process_pending(c, now);
}

static uint64_t next_deadline(const struct client *c)
{
	uint64_t d = UINT64_MAX, t;

	if (c->phase == PHASE_DISCOVERY)
		d = disc_client_deadline(&c->disc);
	if (c->ppp_active) {
		t = ppp_deadline(&c->ppp);
		if (t < d)
			d = t;
	}
	if (c->phase == PHASE_HOLDOFF && c->holdoff_until_ms < d)
		d = c->holdoff_until_ms;
	return d;
}

static int open_io(struct client *c)
{
	struct client_settings *o = c->o;
	int err;

	err = raw_socket_open(&c->disc_sock, o->iface, PXP_ETH_P_PPP_DISC, o->common.vlan_id,
			      o->vlan_pcp);
	if (err) {
		pxp_err("%s: cannot open a PPPoE discovery socket: %s", o->iface, strerror(-err));
		return err;
	}
	/* The lower bound is the CLI's (--mtu); here only the WAN bounds it. */
	if (o->mtu && !pxp_mtu_fits(o->mtu, 0, c->disc_sock.mtu)) {
		pxp_err("--mtu %u exceeds the MTU of %s (%u) minus 8", o->mtu, o->iface,
			c->disc_sock.mtu);
		return -EINVAL;
	}
	err = raw_socket_open(&c->sess_sock, o->iface, PXP_ETH_P_PPP_SES, o->common.vlan_id,
			      o->vlan_pcp);
	if (err) {
		pxp_err("%s: cannot open a PPPoE session socket: %s", o->iface, strerror(-err));
		return err;
	}
	c->disc_handler.ready = disc_ready;
	c->sess_handler.ready = sess_ready;
	err = ev_loop_add(&c->loop, c->disc_sock.fd, EPOLLIN, &c->disc_handler);
	if (!err)
		err = ev_loop_add(&c->loop, c->sess_sock.fd, EPOLLIN, &c->sess_handler);
	return err;
}

static void close_all(struct client *c)
{
	if (c->session_id || c->ppp_active)
		session_end(c, ev_now_ms());
	pxp_dp_detach(c->dp);
	c->dp = NULL;
	control_server_close(&c->ctl);
	raw_socket_close(&c->sess_sock);
	raw_socket_close(&c->disc_sock);
	pxp_netlink_close(c->nl);
	ev_loop_close(&c->loop);
}

static int setup(struct client *c)
{
	int err;

	c->disc_sock.fd = c->sess_sock.fd = c->ctl.fd = -1;
	err = ev_loop_init(&c->loop);
	if (err) {
		pxp_err("event loop: %s", strerror(-err));
		return PXP_EXIT_FATAL;
	}
	err = control_server_open(&c->ctl, &c->loop, c->o->iface, control_cb, c);
	if (err == -EADDRINUSE) {
		pxp_err("pppoe-xp already runs on %s (pppoe-xp down %s)", c->o->iface, c->o->iface);
		return PXP_EXIT_FATAL;
	}
	if (err) {
		pxp_err("control socket in %s: %s", pxp_run_dir(), strerror(-err));
		return PXP_EXIT_FATAL;
	}
	err = pxp_netlink_open(&c->nl);
	if (err) {
		pxp_err("netlink: %s", strerror(-err));
		return PXP_EXIT_FATAL;
	}
	err = open_io(c);
	if (err)
		return err == -EINVAL ? PXP_EXIT_OPTION : PXP_EXIT_FATAL;
	close_stale_session(c);
	err = pxp_dp_cleanup_stale(c->o->iface, c->o->ifname);
	if (err)
		pxp_warn("cleaning up a previous run on %s: %s", c->o->iface, strerror(-err));
	/*
	 * Attached before the first PADI (it passes what it does not know to the stack):
	 * loading the programs then costs nothing in session set-up, and a data path that
	 * cannot attach fails the command at once.
	 */
	err = pxp_dp_attach(&c->dp, c->o->iface, c->o->common.mode, c->o->common.vlan_id);
	if (err) {
		c->dp = NULL;
		pxp_err("data path (--mode %s) on %s: %s", pxp_dp_mode_name(c->o->common.mode),
			c->o->iface, strerror(-err));
		return PXP_EXIT_DATAPATH;
	}
	pxp_info("data path attached to %s in %s mode", c->o->iface,
		 pxp_dp_mode_name(pxp_dp_mode(c->dp)));
	err = c->o->vlan_pcp ? pxp_dp_set_vlan_pcp(c->dp, c->o->vlan_pcp) : 0;
	if (!err && c->o->common.nr_cpus)
		err = pxp_dp_set_cpu_spread(c->dp, c->o->common.nr_cpus);
	if (err) {
		pxp_err("data path on %s: %s", c->o->iface, strerror(-err));
		return err == -EINVAL ? PXP_EXIT_OPTION : PXP_EXIT_DATAPATH;
	}
	err = start_attempt(c, ev_now_ms());
	if (err) {
		pxp_err("starting discovery: %s", strerror(-err));
		return err == -EINVAL || err == -ENAMETOOLONG ? PXP_EXIT_OPTION : PXP_EXIT_FATAL;
	}
	return PXP_EXIT_OK;
}

int client_run(struct client_settings *o, int notify_fd)
{
	struct client *c = calloc(1, sizeof(*c));
	int code;

	if (!c) {
		daemon_notify(&notify_fd, PXP_EXIT_FATAL, "out of memory");
		return PXP_EXIT_FATAL;
	}
	c->o = o;
	c->notify_fd = notify_fd;
	code = setup(c);
	if (code != PXP_EXIT_OK) {
		daemon_notify(&c->notify_fd, code, pxp_log_last_error());
		goto out;
	}
	while (c->phase != PHASE_DONE) {
		uint64_t now = ev_now_ms();
		int err;

		run_timers(c, now);
		if (c->phase == PHASE_DONE)
			break;
		err = ev_loop_run_once(&c->loop, next_deadline(c));
		if (err) {
			pxp_err("event loop: %s", strerror(-err));
			c->exit_code = PXP_EXIT_FATAL;
			break;
		}
		if (c->loop.pending_signal)
			handle_signal(c, ev_now_ms());
		process_pending(c, ev_now_ms());
	}
	code = c->exit_code;
out:
	close_all(c);
	daemon_notify(&c->notify_fd, code ? code : PXP_EXIT_FATAL, "the daemon ended");
	client_settings_wipe(o);
	explicit_bzero(c, sizeof(*c));
	free(c);
	return code;
}
