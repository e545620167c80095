// SPDX-License-Identifier: GPL-2.0
#include "session_shell.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "container_of.h"
#include "daemon.h"
#include "log.h"
#include "ppp_decode.h"
#include "random.h"
#include "run_dir.h"
#include "stats_report.h"

/* Frames read per wakeup: bounds the time one busy socket can hold the loop. */
#define RX_BURST 64

/* ------------------------------------------------------------ control commands */

static void cmd_status(void *ctx, FILE *reply)
{
	struct session_shell *sh = ctx;

	sh->role->write_status(sh, reply, false);
}

static void cmd_status_json(void *ctx, FILE *reply)
{
	struct session_shell *sh = ctx;

	sh->role->write_status(sh, reply, true);
}

/* One snapshot for `pppoe-xp stats`: the data path's counters and each session netdev's. */
static void cmd_stats(void *ctx, FILE *reply)
{
	struct session_shell *sh = ctx;
	struct stats_snapshot *st = calloc(1, sizeof(*st));
	struct pxp_link_stats ls;
	unsigned int i;

	if (!st) {
		fputs("error: out of memory\n", reply);
		return;
	}
	snprintf(st->iface, sizeof(st->iface), "%s", sh->iface);
	snprintf(st->role, sizeof(st->role), "%s", sh->role->name);
	snprintf(st->state, sizeof(st->state), "%s", sh->role->state(sh));
	snprintf(st->mode, sizeof(st->mode), "%s",
		 sh->dp ? pxp_dp_mode_name(pxp_dp_mode(sh->dp)) : "-");
	st->time_ms = ev_now_ms();
	if (sh->dp && pxp_dp_get_stats(sh->dp, &st->dp))
		memset(&st->dp, 0, sizeof(st->dp));
	for (i = 0; i < sh->max_sessions && st->nr_netdevs < STATS_MAX_NETDEVS; i++) {
		struct shell_session *s = sh->role->session_at(sh, i);
		struct stats_netdev *n;

		if (!s || !s->ifindex || pxp_netlink_link_stats(sh->nl, s->ifindex, &ls))
			continue;
		n = &st->netdev[st->nr_netdevs++];
		snprintf(n->ifname, sizeof(n->ifname), "%s", s->ifname);
		n->rx_packets = ls.rx_packets;
		n->rx_bytes = ls.rx_bytes;
		n->tx_packets = ls.tx_packets;
		n->tx_bytes = ls.tx_bytes;
	}
	stats_snapshot_write(st, reply);
	free(st);
}

static void cmd_down(void *ctx, FILE *reply)
{
	struct session_shell *sh = ctx;

	sh->role->request_stop(sh, ev_now_ms());
	fputs("ok\n", reply);
}

/* The control socket's commands, for the client and the server alike. */
static const struct control_command shell_commands[] = {
	{ "status", cmd_status, "the daemon's state, sessions and counters" },
	{ "status-json", cmd_status_json, "the same as one JSON object" },
	{ "stats", cmd_stats, "a snapshot of the data path counters, for pppoe-xp stats" },
	{ "down", cmd_down, "end the session(s) and stop the daemon" },
	{ NULL },
};

/* ------------------------------------------------------------ status sections */

void shell_status_begin(struct session_shell *sh, struct status_writer *w, FILE *out, bool json)
{
	status_begin(w, out, json);
	status_str(w, "iface", sh->iface);
	status_str(w, "role", sh->role->name);
	status_u64(w, "pid", (uint64_t)getpid());
	status_str(w, "state", sh->role->state(sh));
}

void shell_status_disc_counters(struct status_writer *w, uint64_t rx, uint64_t tx,
				const uint64_t drops[PPPOE_DROP_REASON_COUNT])
{
	unsigned int i;

	status_u64(w, "rx", rx);
	status_u64(w, "tx", tx);
	status_object_begin(w, "drops");
	for (i = 0; i < PPPOE_DROP_REASON_COUNT; i++)
		if (drops[i])
			status_u64(w, pppoe_drop_reason_name(i), drops[i]);
	status_object_end(w);
}

const char *shell_dp_halves(const struct session_shell *sh, char *buf, size_t len)
{
	pxp_dp_halves_text(sh->dp, buf, len);
	return buf;
}

void shell_status_frames(struct session_shell *sh, struct status_writer *w,
			 const struct ppp_status *link)
{
	unsigned int i;

	status_object_begin(w, "control_frames");
	status_u64(w, "rx", sh->session_rx);
	status_u64(w, "tx", sh->session_tx);
	status_u64(w, "tx_errors", sh->session_tx_errors);
	/* Not errors: frames of another VLAN, or unicast to another station. */
	status_u64(w, "skipped", sh->disc_sock.rx_other_vlan + sh->sess_sock.rx_other_vlan);
	/* Lost before we read them: the sockets' receive buffers were full. */
	status_object_begin(w, "socket_drops");
	status_u64(w, "discovery", raw_socket_rx_dropped(&sh->disc_sock));
	status_u64(w, "session", raw_socket_rx_dropped(&sh->sess_sock));
	status_object_end(w);
	if (link) {
		status_u64(w, "ppp_malformed", link->rx_malformed);
		status_u64(w, "ppp_proto_reject", link->rx_proto_reject);
		status_u64(w, "ppp_ignored", link->rx_ignored);
	}
	status_object_begin(w, "drops");
	for (i = 0; i < SESSION_DROP_REASON_COUNT; i++)
		if (sh->session_drops[i])
			status_u64(w, session_drop_reason_name(i), sh->session_drops[i]);
	status_object_end(w);
	status_object_end(w);
}

/* The errnos a driver's ndo_xdp_xmit gives, by name; others are "errno_N". */
#define REFUSED_ERRNOS 128
static const char *const refused_names[] = {
	[0] = "unknown",	 [ENXIO] = "ENXIO",	  [ENOMEM] = "ENOMEM",
	[EINVAL] = "EINVAL",	 [ENOSPC] = "ENOSPC",	  [EOPNOTSUPP] = "EOPNOTSUPP",
	[ENETDOWN] = "ENETDOWN", [EMSGSIZE] = "EMSGSIZE",
};

void shell_status_refused(struct session_shell *sh, struct status_writer *w)
{
	uint64_t by_errno[REFUSED_ERRNOS], total = 0;
	unsigned int i;

	if (!sh->dp || pxp_dp_redirects_refused(sh->dp, by_errno, REFUSED_ERRNOS))
		return;
	status_object_begin(w, "redirects_refused");
	for (i = 0; i < REFUSED_ERRNOS; i++)
		total += by_errno[i];
	status_u64(w, "total", total);
	for (i = 0; i < REFUSED_ERRNOS; i++) {
		char name[16];

		if (!by_errno[i])
			continue;
		if (i < sizeof(refused_names) / sizeof(refused_names[0]) && refused_names[i])
			snprintf(name, sizeof(name), "%s", refused_names[i]);
		else
			snprintf(name, sizeof(name), "errno_%u", i);
		status_u64(w, name, by_errno[i]);
	}
	status_object_end(w);
}

/* ------------------------------------------------------------ sockets */

void shell_index_session(struct session_shell *sh, struct shell_session *s, bool add)
{
	if (sh->by_id)
		sh->by_id[s->session_id] = add ? s : NULL;
}

struct shell_session *shell_find_session(struct session_shell *sh, uint16_t session_id,
					 const uint8_t *peer_mac)
{
	unsigned int i;

	if (sh->by_id) {
		struct shell_session *s = sh->by_id[session_id];

		return s && !memcmp(s->peer_mac, peer_mac, PXP_ETH_ALEN) ? s : NULL;
	}

	for (i = 0; i < sh->max_sessions; i++) {
		struct shell_session *s = sh->role->session_at(sh, i);

		if (s && s->session_id == session_id &&
		    !memcmp(s->peer_mac, peer_mac, PXP_ETH_ALEN))
			return s;
	}
	return NULL;
}

/*
 * --debug: one line per PPP control packet sent or received, as pppd's debug prints it
 * ("sent [LCP ConfReq id=0x1 <mru 1492>]"); the AC prefixes the session id. Nothing is
 * formatted below level debug.
 */
static void debug_ppp(const struct session_shell *sh, uint16_t session_id, const char *dir,
		      uint16_t proto, const uint8_t *data, size_t len)
{
	char text[PPP_DECODE_MAX];

	if (!pxp_log_enabled(PXP_LOG_DEBUG))
		return;
	ppp_decode(proto, data, len, text, sizeof(text));
	if (sh->max_sessions > 1)
		pxp_debug("session %u: %s %s", session_id, dir, text);
	else
		pxp_debug("%s %s", dir, text);
}

/*
 * --debug: a discovery frame as pppd's rp-pppoe plugin prints it. Anyone on the segment
 * can send PADIs, so at most DISC_DEBUG_PER_S lines a second, and a count of those left out.
 */
#define DISC_DEBUG_PER_S 20

static void debug_disc(struct session_shell *sh, const char *dir, const uint8_t *frame, size_t len)
{
	char text[PPP_DECODE_MAX];
	uint64_t now;

	if (!pxp_log_enabled(PXP_LOG_DEBUG))
		return;
	now = ev_now_ms();
	if (now - sh->disc_debug_window_ms >= 1000) {
		if (sh->disc_debug_skipped)
			pxp_debug("%u discovery frames not shown (more than %u a second)",
				  sh->disc_debug_skipped, DISC_DEBUG_PER_S);
		sh->disc_debug_window_ms = now;
		sh->disc_debug_shown = sh->disc_debug_skipped = 0;
	}
	if (sh->disc_debug_shown == DISC_DEBUG_PER_S) {
		sh->disc_debug_skipped++;
		return;
	}
	sh->disc_debug_shown++;
	pppoe_disc_decode(frame, len, text, sizeof(text));
	pxp_debug("%s %s", dir, text);
}

int shell_disc_send(struct session_shell *sh, const void *frame, size_t len)
{
	debug_disc(sh, "sent", frame, len);
	return raw_socket_send(&sh->disc_sock, frame, len);
}

static void disc_frame(struct session_shell *sh, const uint8_t *frame, size_t len)
{
	debug_disc(sh, "rcvd", frame, len);
	sh->role->disc_input(sh, ev_now_ms(), frame, len);
}

/* After every call into s's link: its timer at the link's next deadline. */
static void ppp_rearm(struct shell_session *s)
{
	ev_timer_set(&s->sh->loop, &s->ppp_timer,
		     s->ppp_active ? ppp_deadline(&s->ppp) : UINT64_MAX);
}

static void send_tx_frame(struct session_shell *sh, const struct shell_tx_frame *t)
{
	debug_ppp(sh, t->session_id, "sent", t->ppp_proto, t->frame + t->ppp_off,
		  t->len - t->ppp_off);
	if (raw_socket_send(&sh->sess_sock, t->frame, t->len)) {
		sh->session_tx_errors++;
		return;
	}
	sh->session_tx++;
}

/* What the PPP links sent while a frame was processed (sh->holding), in order. */
static void send_held(struct session_shell *sh)
{
	for (unsigned int i = 0; i < sh->n_held; i++)
		send_tx_frame(sh, &sh->held[i]);
	sh->n_held = 0;
}

/*
 * A session frame to its PPP link; the data path keeps IPv4 and IPv6 of known sessions off
 * this socket (its WAN program passes other sessions' frames to the stack, and so here).
 */
static void sess_frame(struct session_shell *sh, const uint8_t *frame, size_t len)
{
	enum session_drop_reason reason;
	struct session_frame f;
	struct shell_session *s;

	if (session_frame_parse(frame, len, &f, &reason)) {
		sh->session_drops[reason]++;
		return;
	}
	if (memcmp(f.dst, sh->sess_sock.mac, PXP_ETH_ALEN)) {
		sh->session_drops[SESSION_DROP_DST_MAC]++;
		return;
	}
	s = shell_find_session(sh, f.session_id, f.src);
	if (!s || !s->ppp_active) {
		sh->session_drops[SESSION_DROP_UNKNOWN]++;
		/* One that is ours but not running yet or any more gets its PADT as it ends. */
		if (!s && sh->role->unknown_session)
			sh->role->unknown_session(sh, ev_now_ms(), f.src, f.session_id);
		return;
	}
	sh->session_rx++;
	debug_ppp(sh, s->session_id, "rcvd", f.ppp_proto, f.payload, f.payload_len);
	sh->holding = true;
	ppp_input(&s->ppp, ev_now_ms(), f.ppp_proto, f.payload, f.payload_len);
	sh->holding = false;
	send_held(sh);
	ppp_rearm(s);
}

/*
 * Up to RX_BURST frames from one socket, each to its core; after each, the role acts on
 * what the core's callbacks recorded (a frame may end a session, which must not happen
 * inside the core).
 */
static void read_burst(struct session_shell *sh, struct raw_socket *sock,
		       void (*frame)(struct session_shell *sh, const uint8_t *frame, size_t len))
{
	int i;

	for (i = 0; i < RX_BURST; i++) {
		ssize_t n = raw_socket_recv(sock, sh->rx_buf, sizeof(sh->rx_buf));

		if (n < 0)
			break;
		if (n == 0)
			continue; /* another VLAN's, or another station's */
		frame(sh, sh->rx_buf, (size_t)n);
		sh->role->process_pending(sh, ev_now_ms());
	}
}

static void disc_ready(struct ev_handler *h, uint32_t events)
{
	struct session_shell *sh = container_of(h, struct session_shell, disc_handler);

	(void)events;
	read_burst(sh, &sh->disc_sock, disc_frame);
}

static void sess_ready(struct ev_handler *h, uint32_t events)
{
	struct session_shell *sh = container_of(h, struct session_shell, sess_handler);

	(void)events;
	read_burst(sh, &sh->sess_sock, sess_frame);
}

/* The PPP link's send callback: one PPP packet in a PPPoE session frame to the peer. */
static void ppp_send_cb(void *ctx, uint16_t proto, const uint8_t *data, size_t len)
{
	struct shell_session *s = ctx;
	struct session_shell *sh = s->sh;
	struct shell_tx_frame *t;
	int n;

	if (sh->holding && sh->n_held == SHELL_HELD_FRAMES)
		send_held(sh);
	t = sh->holding ? &sh->held[sh->n_held] : &sh->tx;
	n = session_frame_build(t->frame, sizeof(t->frame), s->peer_mac, sh->sess_sock.mac,
				s->session_id, proto, data, len);
	if (n < 0) {
		sh->session_tx_errors++;
		return;
	}
	t->len = (uint16_t)n;
	t->ppp_off = (uint16_t)(n - len);
	t->ppp_proto = proto;
	t->session_id = s->session_id;
	if (sh->holding)
		sh->n_held++;
	else
		send_tx_frame(sh, t);
}

/* ------------------------------------------------------------ open and close */

static int open_raw_socket(struct raw_socket *s, const char *iface, uint16_t ethertype,
			   uint16_t vlan_id, uint8_t vlan_pcp, const char *what)
{
	int err = raw_socket_open(s, iface, ethertype, vlan_id, vlan_pcp);

	if (err)
		pxp_err("%s: cannot open a PPPoE %s socket: %s", iface, what, strerror(-err));
	return err;
}

int shell_open(struct session_shell *sh, const struct shell_role *role, const char *iface,
	       unsigned int max_sessions, uint16_t vlan_id, uint8_t vlan_pcp)
{
	int err;

	sh->role = role;
	sh->iface = iface;
	sh->max_sessions = max_sessions;
	sh->disc_sock.fd = sh->sess_sock.fd = sh->ctl.fd = -1;
	sh->disc_handler.ready = disc_ready;
	sh->sess_handler.ready = sess_ready;
	if (max_sessions > 1) {
		sh->by_id = calloc(UINT16_MAX + 1, sizeof(*sh->by_id));
		if (!sh->by_id) {
			pxp_err("out of memory");
			return PXP_EXIT_FATAL;
		}
	}
	err = ev_loop_init(&sh->loop);
	if (err) {
		pxp_err("event loop: %s", strerror(-err));
		return PXP_EXIT_FATAL;
	}
	err = control_server_open(&sh->ctl, &sh->loop, iface, shell_commands, sh);
	if (err == -EADDRINUSE) {
		pxp_err("pppoe-xp already runs on %s (pppoe-xp down %s)", iface, iface);
		return PXP_EXIT_LOCK;
	}
	if (err) {
		pxp_err("control socket in %s: %s", pxp_run_dir(), strerror(-err));
		return PXP_EXIT_FATAL;
	}
	err = pxp_netlink_open(&sh->nl);
	if (err) {
		pxp_err("netlink: %s", strerror(-err));
		return PXP_EXIT_FATAL;
	}
	if (open_raw_socket(&sh->disc_sock, iface, PXP_ETH_P_PPP_DISC, vlan_id, vlan_pcp,
			    "discovery") ||
	    open_raw_socket(&sh->sess_sock, iface, PXP_ETH_P_PPP_SES, vlan_id, vlan_pcp, "session"))
		return PXP_EXIT_OPEN;
	err = ev_loop_add(&sh->loop, sh->disc_sock.fd, EPOLLIN, &sh->disc_handler);
	if (!err)
		err = ev_loop_add(&sh->loop, sh->sess_sock.fd, EPOLLIN, &sh->sess_handler);
	if (err) {
		pxp_err("event loop: %s", strerror(-err));
		return PXP_EXIT_FATAL;
	}
	return PXP_EXIT_OK;
}

int shell_attach_datapath(struct session_shell *sh, const struct daemon_settings *common,
			  uint8_t vlan_pcp)
{
	int err;

	err = pxp_dp_attach_halves(&sh->dp, sh->iface, common->mode, common->rx_half,
				   common->tx_half, common->netdev, common->vlan_id);
	if (err) {
		sh->dp = NULL;
		pxp_err("data path (--mode %s) on %s: %s", pxp_dp_mode_name(common->mode),
			sh->iface, strerror(-err));
		return PXP_EXIT_DATAPATH;
	}
	err = pxp_dp_set_netdev(sh->dp, common->netdev);
	if (err) {
		pxp_err("session netdev (--netdev %s) on %s: %s",
			pxp_dp_netdev_name(common->netdev), sh->iface, strerror(-err));
		return err == -EINVAL ? PXP_EXIT_OPTION : PXP_EXIT_DATAPATH;
	}
	err = vlan_pcp ? pxp_dp_set_vlan_pcp(sh->dp, vlan_pcp) : 0;
	if (!err && common->nr_cpus)
		err = pxp_dp_set_cpu_spread(sh->dp, common->nr_cpus);
	if (!err && common->afxdp_cpus.nr)
		err = pxp_dp_set_afxdp_cpus(sh->dp, &common->afxdp_cpus);
	if (err) {
		pxp_err("data path on %s: %s", sh->iface, strerror(-err));
		return err == -EINVAL ? PXP_EXIT_OPTION : PXP_EXIT_DATAPATH;
	}
	return PXP_EXIT_OK;
}

void shell_detach_datapath(struct session_shell *sh)
{
	pxp_dp_detach(sh->dp);
	sh->dp = NULL;
}

void shell_close(struct session_shell *sh)
{
	shell_detach_datapath(sh);
	control_server_close(&sh->ctl);
	raw_socket_close(&sh->sess_sock);
	raw_socket_close(&sh->disc_sock);
	pxp_netlink_close(sh->nl);
	sh->nl = NULL;
	ev_loop_close(&sh->loop);
	free(sh->by_id);
	sh->by_id = NULL;
}

/* ------------------------------------------------------------ sessions */

int shell_session_add_netdev(struct shell_session *s, uint16_t mtu)
{
	struct pxp_dp_session dps = { .session_id = s->session_id, .mtu = mtu, .mss_clamp = true };
	int err;

	snprintf(dps.ifname, sizeof(dps.ifname), "%s", s->ifname);
	memcpy(dps.peer_mac, s->peer_mac, PXP_ETH_ALEN);
	/* Created up: the one place the netdev's link state is set. */
	err = pxp_dp_session_add(s->sh->dp, &dps, &s->ifindex);
	if (err) {
		s->ifindex = 0;
		return err;
	}
	s->mtu = mtu;
	return 0;
}

int shell_session_set_mtu(struct shell_session *s, uint16_t mtu)
{
	int err;

	if (!s->ifindex || !mtu || mtu == s->mtu)
		return 0;
	/* pxp0, its peer and the data path's session record together. */
	err = pxp_dp_session_set_mtu(s->sh->dp, s->session_id, mtu);
	if (err)
		return err;
	s->mtu = mtu;
	return 0;
}

static void ppp_fire(struct ev_timer *t, uint64_t now)
{
	struct shell_session *s = container_of(t, struct shell_session, ppp_timer);

	if (s->sh->role->ppp_timer_due)
		s->sh->role->ppp_timer_due(s, now);
	ppp_timer(&s->ppp, now);
	ppp_rearm(s);
}

int shell_session_start_ppp(struct shell_session *s, const struct ppp_config *cfg,
			    const struct ppp_callbacks *cb, uint64_t now)
{
	struct ppp_callbacks shell_cb = *cb;
	int err;

	shell_cb.ctx = s;
	shell_cb.send = ppp_send_cb;
	shell_cb.random = pxp_random_fill;
	err = ev_timer_attach(&s->sh->loop, &s->ppp_timer, ppp_fire);
	if (err)
		return err;
	err = ppp_init(&s->ppp, cfg, &shell_cb);
	if (err) {
		ev_timer_detach(&s->sh->loop, &s->ppp_timer);
		return err;
	}
	s->ppp_active = true;
	ppp_lower_up(&s->ppp, now);
	ppp_rearm(s);
	return 0;
}

void shell_session_close(struct shell_session *s, uint64_t now)
{
	if (!s->ppp_active || s->closing)
		return;
	s->closing = true;
	ppp_close(&s->ppp, now);
	ppp_rearm(s);
}

void shell_session_lower_down(struct shell_session *s, uint64_t now)
{
	if (!s->ppp_active)
		return;
	ppp_lower_down(&s->ppp, now);
	ppp_rearm(s);
}

int shell_session_add_addr(struct shell_session *s)
{
	int err = pxp_netlink_add_p2p(s->sh->nl, s->ifindex, s->local_ip, s->peer_ip);

	if (!err)
		s->addr_set = true;
	return err;
}

void shell_session_del_addr(struct shell_session *s)
{
	if (s->addr_set)
		pxp_netlink_del_p2p(s->sh->nl, s->ifindex, s->local_ip, s->peer_ip);
	s->addr_set = false;
}

int shell_session_add_link_local(struct shell_session *s)
{
	struct ppp_status st;
	int err;

	ppp_get_status(&s->ppp, &st);
	memcpy(s->local_ifid, st.local_ifid, sizeof(s->local_ifid));
	err = pxp_netlink_add_link_local(s->sh->nl, s->ifindex, s->local_ifid);
	if (!err)
		s->link_local_set = true;
	return err;
}

void shell_session_del_link_local(struct shell_session *s)
{
	if (s->link_local_set)
		pxp_netlink_del_link_local(s->sh->nl, s->ifindex, s->local_ifid);
	s->link_local_set = false;
}

void shell_session_log_end(const struct shell_session *s, uint64_t connect_ms)
{
	struct pxp_link_stats ls;
	int err = s->ifindex ? pxp_netlink_link_stats(s->sh->nl, s->ifindex, &ls) : -ENODEV;

	if (err) {
		pxp_info("session %u ended after %" PRIu64 ".%" PRIu64 " s (counters of %s: %s)",
			 s->session_id, connect_ms / 1000, connect_ms % 1000 / 100, s->ifname,
			 strerror(-err));
		return;
	}
	/* As pppd's "Connect time" and "Sent N bytes, received N bytes", in one line. */
	pxp_info("session %u ended after %" PRIu64 ".%" PRIu64 " s: sent %" PRIu64
		 " bytes in %" PRIu64 " packets, received %" PRIu64 " bytes in %" PRIu64 " packets",
		 s->session_id, connect_ms / 1000, connect_ms % 1000 / 100, ls.tx_bytes,
		 ls.tx_packets, ls.rx_bytes, ls.rx_packets);
}

void shell_session_end(struct shell_session *s)
{
	if (s->ifindex) {
		int err = pxp_dp_session_del(s->sh->dp, s->session_id);

		if (err)
			pxp_warn("session %u: removing %s: %s", s->session_id, s->ifname,
				 strerror(-err));
		s->ifindex = 0;
		s->mtu = 0;
	}
	if (s->ppp_active) {
		ev_timer_detach(&s->sh->loop, &s->ppp_timer);
		ppp_destroy(&s->ppp);
		s->ppp_active = false;
	}
	s->closing = false;
}
