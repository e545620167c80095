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
#include <linux/ipv6_route.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "container_of.h"
#include "daemon.h"
#include "datapath.h"
#include "discovery.h"
#include "hooks.h"
#include "instance.h"
#include "log.h"
#include "netlink.h"
#include "ppp.h"
#include "pxp_mtu.h"
#include "random.h"
#include "resolv_file.h"
#include "run_dir.h"
#include "session_shell.h"
#include "stats_report.h"
#include "status.h"

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
	struct session_shell sh;
	/* The current session, from DISC_EV_SESSION_UP until session_end(). */
	struct shell_session sess;
	struct disc_client disc;
	struct instance_record record; /* pid 0 until setup() writes it */
	int notify_fd;
	enum client_phase phase;

	char ac_name[DISC_NAME_MAX + 1];
	uint32_t dns[2];
	bool route_set, route6_set, resolv_written; /* our default routes are in place */
	bool route_replaced;			    /* --replacedefaultroute took replaced out */
	struct pxp_route replaced;
	uint64_t attempt_start_ms; /* PADI sent */
	uint64_t up_since_ms;
	uint64_t setup_ms; /* PADI to IPCP open, last session */
	uint64_t holdoff_until_ms;
	/* The discovery core's deadline and the end of the holdoff, re-read every pass (two
	 * timers: O(1)); the PPP link's is the shell's. */
	struct ev_timer disc_timer, holdoff_timer;

	/* Deferred work (see the file comment). */
	bool link_down_pending;
	enum ppp_down_reason link_down_reason;
	bool disc_failed_pending;
	char disc_failure[DISC_ERROR_TEXT_MAX + 1];
	char padt_text[DISC_ERROR_TEXT_MAX + 1]; /* the AC's reason in its PADT, if any */
	char fatal_pending[160];		 /* non-empty: close the link for this reason */
	bool stop_requested;

	/*
	 * pppd's unsuccess: consecutive attempts that never had a network protocol up (IPCP
	 * or IPv6CP). attempt_up says the current one had (network_up(), pppd's np_up()); the
	 * phase cannot, IPV4_DOWN precedes LINK_DOWN, and an IPv6-only session is never UP.
	 */
	unsigned int failures;
	bool attempt_up;
	unsigned int sessions_up_total; /* sessions that reached IPCP */
	int exit_code;
	char last_error[256];

	uint64_t last_decap; /* data path receive count at the last PPP timer */
	struct hooks hooks;  /* pppd's ip-up and friends */
};

static struct client *client_of(struct session_shell *sh)
{
	return container_of(sh, struct client, sh);
}

/* ------------------------------------------------------------ default routes */

/* --metric, or what the kernel makes of none (IPv6 turns 0 into 1024): the route's metric. */
static uint32_t route_metric(const struct client *c, int family)
{
	if (c->o->metric > 0 || (c->o->metric == 0 && family == AF_INET))
		return (uint32_t)c->o->metric;
	return family == AF_INET6 ? IP6_RT_PRIO_USER : 0;
}

/* Why default_route_up() keeps an existing route, and what would add ours. */
static const char *kept_why(const struct pxp_route *old, int family)
{
	if (old->protocol == PXP_RTPROT)
		return "another pppoe-xp session's: a --metric for each adds both";
	if (old->nexthops != 1)
		return "multipath routes are never replaced";
	if (family == AF_INET6)
		return "IPv6 default routes are never replaced";
	return "--replacedefaultroute replaces it";
}

/*
 * pppd's sifdefaultroute(): our default route of family through the session netdev unless
 * a default route through another netdev exists (of --metric, if given; pppd 2.4.9's
 * defaultroute-metric). With replace (IPv4 only, as pppd) that one is taken out once ours is
 * in, and put back by default_route_down(); never a route of another pppoe-xp instance.
 */
static void default_route_up(struct client *c, int family, bool replace, bool *set)
{
	const char *opt = family == AF_INET ? "--defaultroute" : "--defaultroute6";
	struct pxp_route ours, old;
	bool existing;
	char what[128];
	int err;

	pxp_route_default(&ours, family, c->sess.ifindex, route_metric(c, family));
	err = pxp_netlink_find_default_route(c->sh.nl, family, c->sess.ifindex,
					     c->o->metric < 0 ? -1 : (int64_t)ours.metric, &old);
	if (err && err != -ENOENT) {
		pxp_warn("%s: reading the routing table: %s", opt, strerror(-err));
		return;
	}
	existing = !err;
	if (existing) {
		pxp_route_describe(&old, what, sizeof(what));
		if (!replace || old.protocol == PXP_RTPROT || old.nexthops != 1) {
			pxp_warn("%s: not replacing existing default route %s (%s)", opt, what,
				 kept_why(&old, family));
			return;
		}
	}
	err = pxp_netlink_route_add(c->sh.nl, &ours);
	if (err && err != -EEXIST) {
		pxp_warn("%s via %s: %s", opt, c->o->ifname, strerror(-err));
		return;
	}
	*set = true;
	if (!existing)
		return;
	err = pxp_netlink_route_del(c->sh.nl, &old);
	if (err) {
		pxp_warn("--replacedefaultroute: taking out the default route %s: %s", what,
			 strerror(-err));
		return;
	}
	pxp_info("replacing the default route %s", what);
	c->replaced = old;
	c->route_replaced = true;
}

/* Undoes default_route_up(): ours out (only ours), the replaced one back. */
static void default_route_down(struct client *c, int family, bool *set)
{
	struct pxp_route ours;
	char what[128];
	int err;

	if (*set) {
		pxp_route_default(&ours, family, c->sess.ifindex, route_metric(c, family));
		err = pxp_netlink_route_del(c->sh.nl, &ours);
		/* -ENODEV: gone with the netdev, or taken out by someone else. */
		if (err && err != -ENODEV)
			pxp_warn("removing our default route via %s: %s", c->o->ifname,
				 strerror(-err));
		*set = false;
	}
	if (family != AF_INET || !c->route_replaced)
		return;
	c->route_replaced = false;
	pxp_route_describe(&c->replaced, what, sizeof(what));
	err = pxp_netlink_route_add(c->sh.nl, &c->replaced);
	if (err && err != -EEXIST)
		pxp_warn("restoring the default route %s: %s", what, strerror(-err));
	else
		pxp_info("restored the default route %s", what);
}

/* ------------------------------------------------------------ instance record */

/*
 * What this daemon created, rewritten on every change (instance.h): after a crash the next
 * `up` or `down` removes exactly that, and sends the PADT for the session left open
 * (otherwise the AC keeps it and may refuse a new one for minutes).
 */
static void record_update(struct client *c)
{
	struct instance_record *r = &c->record;
	int err;

	if (!r->pid)
		return; /* not ours yet: setup() has not claimed the names */
	pxp_dp_owned(c->sh.dp, &r->dp);
	r->session_id = c->sess.session_id;
	memcpy(r->ac_mac, c->sess.peer_mac, PXP_ETH_ALEN);
	memcpy(r->local_mac, c->sh.disc_sock.mac, PXP_ETH_ALEN);
	r->resolv_written = c->resolv_written;
	snprintf(r->resolv_file, sizeof(r->resolv_file), "%s", c->o->resolv_file);
	r->route4 = c->route_set;
	r->route4_metric = route_metric(c, AF_INET);
	r->route6 = c->route6_set;
	r->route6_metric = route_metric(c, AF_INET6);
	r->replaced = c->route_replaced;
	r->replaced_route = c->replaced;
	err = instance_record_write(c->o->iface, r);
	if (err)
		pxp_warn("cannot record this instance in %s: %s", pxp_run_dir(), strerror(-err));
}

/* ------------------------------------------------------------ addresses, DNS */

static void warn_resolv(struct client *c, const char *doing, int err)
{
	char path[PATH_MAX];

	resolv_file_path(c->o->resolv_file, c->o->iface, path, sizeof(path));
	pxp_warn("--usepeerdns: %s %s: %s", doing, path, strerror(-err));
}

static void resolv_write(struct client *c)
{
	int err;

	if (!c->o->usepeerdns || (!c->dns[0] && !c->dns[1]))
		return;
	err = resolv_add(c->o->resolv_file, c->o->iface, c->dns);
	if (err) {
		warn_resolv(c, "adding our nameserver lines to", err);
		return;
	}
	c->resolv_written = true;
}

/* Runs pppd's script kind for the current session (stats: for the down scripts). */
static void run_hook(struct client *c, enum hook_kind kind, const struct pxp_link_stats *stats)
{
	struct ppp_status st = { 0 };
	struct hook_session hs = {
		.ifname = c->o->ifname,
		.device = c->o->iface,
		.ipparam = c->o->ipparam,
		.local_ip = c->sess.local_ip,
		.peer_ip = c->sess.peer_ip,
		.dns = { c->dns[0], c->dns[1] },
		.usepeerdns = c->o->usepeerdns,
		.pid = (long)getpid(),
		.connect_time_s = (ev_now_ms() - c->up_since_ms) / 1000,
		.bytes_sent = stats ? stats->tx_bytes : 0,
		.bytes_rcvd = stats ? stats->rx_bytes : 0,
	};

	if (c->sess.ppp_active)
		ppp_get_status(&c->sess.ppp, &st);
	memcpy(hs.local_ifid, c->sess.local_ifid, sizeof(hs.local_ifid));
	memcpy(hs.peer_ifid, st.peer_ifid, sizeof(hs.peer_ifid));
	hooks_run(&c->hooks, kind, &hs);
}

/* The session netdev's byte counters, read before the netdev goes (zero if unreadable). */
static void link_stats(struct client *c, struct pxp_link_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (c->sess.ifindex)
		pxp_netlink_link_stats(c->sh.nl, c->sess.ifindex, st);
}

static void set_session_mtu(struct client *c, uint16_t mtu)
{
	int err = shell_session_set_mtu(&c->sess, mtu);

	if (err)
		pxp_warn("setting MTU %u on %s: %s", mtu, c->o->ifname, strerror(-err));
}

static uint16_t negotiated_mtu(struct client *c)
{
	struct ppp_status st;
	uint16_t mtu;

	ppp_get_status(&c->sess.ppp, &st);
	mtu = st.peer_mru ? st.peer_mru : c->sess.max_payload;
	if (c->o->mtu && c->o->mtu < mtu)
		mtu = (uint16_t)c->o->mtu;
	return mtu;
}

/*
 * A network protocol (IPCP or IPv6CP) opened: the attempt succeeded and --maxfail counts
 * afresh, as pppd's np_up() sets unsuccess to 0 for the first protocol up.
 */
static void network_up(struct client *c)
{
	c->failures = 0;
	c->attempt_up = true;
}

static void ipv4_up(struct client *c, uint64_t now)
{
	char local[INET_ADDRSTRLEN], peer[INET_ADDRSTRLEN], msg[DAEMON_MESSAGE_MAX];
	struct ppp_status st;
	int err;

	ppp_get_status(&c->sess.ppp, &st);
	c->sess.local_ip = st.local_ip;
	c->sess.peer_ip = st.peer_ip;
	c->dns[0] = st.dns[0];
	c->dns[1] = st.dns[1];
	inet_ntop(AF_INET, &c->sess.local_ip, local, sizeof(local));
	inet_ntop(AF_INET, &c->sess.peer_ip, peer, sizeof(peer));
	set_session_mtu(c, negotiated_mtu(c));
	err = shell_session_add_addr(&c->sess);
	if (err) {
		snprintf(c->fatal_pending, sizeof(c->fatal_pending), "adding %s peer %s to %s: %s",
			 local, peer, c->o->ifname, strerror(-err));
		return;
	}
	if (c->o->defaultroute)
		default_route_up(c, AF_INET, c->o->replacedefaultroute, &c->route_set);
	resolv_write(c);
	record_update(c);
	c->phase = PHASE_UP;
	c->up_since_ms = now;
	c->setup_ms = now - c->attempt_start_ms;
	network_up(c);
	c->sessions_up_total++;
	c->last_error[0] = '\0';
	pxp_info("session %u up on %s in %" PRIu64 " ms: %s peer %s, MTU %u", c->sess.session_id,
		 c->o->ifname, c->setup_ms, local, peer, c->sess.mtu);
	snprintf(msg, sizeof(msg), "session %u up on %s: %s peer %s", c->sess.session_id,
		 c->o->ifname, local, peer);
	daemon_notify(&c->notify_fd, PXP_EXIT_OK, msg);
	run_hook(c, HOOK_IP_UP, NULL);
}

/* Undoes ipv4_up(); the netdev may already be gone (then this is a no-op). */
static void ipv4_down(struct client *c)
{
	bool was_up = c->phase == PHASE_UP;
	struct pxp_link_stats st;

	if (was_up)
		shell_session_log_end(&c->sess, ev_now_ms() - c->up_since_ms);
	link_stats(c, &st);
	default_route_down(c, AF_INET, &c->route_set);
	shell_session_del_addr(&c->sess);
	if (c->resolv_written) {
		int err = resolv_remove(c->o->resolv_file, c->o->iface);

		if (err)
			warn_resolv(c, "taking our nameserver lines out of", err);
	}
	c->resolv_written = false;
	record_update(c);
	if (c->phase == PHASE_UP)
		c->phase = PHASE_LINK;
	if (was_up)
		run_hook(c, HOOK_IP_DOWN, &st);
}

static void ipv6_up(struct client *c)
{
	int err;

	network_up(c);
	/* Before the link-local address: with it the kernel sends its Router Solicitation. */
	err = pxp_dp_session_accept_ra(c->sh.dp, c->sess.session_id);
	if (err)
		pxp_warn("accepting router advertisements on %s: %s", c->o->ifname, strerror(-err));
	err = shell_session_add_link_local(&c->sess);
	if (err) {
		pxp_warn("adding the IPv6 link-local address to %s: %s", c->o->ifname,
			 strerror(-err));
		return;
	}
	pxp_info("IPv6CP up on %s", c->o->ifname);
	if (c->o->defaultroute6) {
		default_route_up(c, AF_INET6, false, &c->route6_set);
		record_update(c);
	}
	run_hook(c, HOOK_IPV6_UP, NULL);
}

/* Undoes ipv6_up(); a no-op when it did not happen. */
static void ipv6_down(struct client *c)
{
	bool was_up = c->sess.link_local_set;
	struct pxp_link_stats st;

	link_stats(c, &st);
	if (c->route6_set) {
		default_route_down(c, AF_INET6, &c->route6_set);
		record_update(c);
	}
	shell_session_del_link_local(&c->sess);
	if (was_up)
		run_hook(c, HOOK_IPV6_DOWN, &st);
}

/* ------------------------------------------------------------ PPP link */

static void ppp_event_cb(void *ctx, enum ppp_event ev, int reason)
{
	struct client *c = container_of(ctx, struct client, sess);
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
	struct ppp_callbacks cb = { .event = ppp_event_cb };
	struct ppp_config cfg = {
		.role = PPP_ROLE_CLIENT,
		.mru = c->sess.max_payload,
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
	err = shell_session_start_ppp(&c->sess, &cfg, &cb, now);
	explicit_bzero(cfg.password, sizeof(cfg.password));
	return err;
}

/* ------------------------------------------------------------ discovery */

static int disc_send_cb(void *ctx, const void *frame, size_t len)
{
	struct client *c = ctx;

	return shell_disc_send(&c->sh, frame, len);
}

static int add_session_netdev(struct client *c)
{
	uint16_t mtu = c->o->mtu && c->o->mtu < c->sess.max_payload ? (uint16_t)c->o->mtu
								    : c->sess.max_payload;
	int err = shell_session_add_netdev(&c->sess, mtu);

	/* -EEXIST: another instance created that name since claim_names() checked it. */
	if (err)
		snprintf(c->fatal_pending, sizeof(c->fatal_pending),
			 "creating %s for session %u: %s%s", c->o->ifname, c->sess.session_id,
			 strerror(-err), err == -EEXIST ? " (name another with --ifname)" : "");
	return err;
}

static void session_up(struct client *c, const struct disc_client_event *ev, uint64_t now)
{
	const uint8_t *m = ev->ac_mac;
	int err;

	c->sess.session_id = ev->session_id;
	memcpy(c->sess.peer_mac, ev->ac_mac, PXP_ETH_ALEN);
	snprintf(c->ac_name, sizeof(c->ac_name), "%s", ev->ac_name);
	c->sess.max_payload = ev->max_payload ? ev->max_payload : PPPOE_DEFAULT_MRU;
	c->phase = PHASE_LINK;
	pxp_info("PPPoE session %u with AC '%s' (%02x:%02x:%02x:%02x:%02x:%02x)",
		 c->sess.session_id, c->ac_name, m[0], m[1], m[2], m[3], m[4], m[5]);
	err = add_session_netdev(c);
	record_update(c); /* the session, and its netdev if it was created */
	if (err)
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
		shell_session_lower_down(&c->sess, now);
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
	case DISC_EV_RETRY:
		pxp_info("%s", ev->message); /* once per retry, not per frame */
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

	c->attempt_up = false; /* a new attempt, failed until network_up() */
	memcpy(cfg.local_mac, c->sh.disc_sock.mac, PXP_ETH_ALEN);
	memcpy(cfg.ac_mac, c->o->ac_mac, PXP_ETH_ALEN);
	err = disc_client_init(&c->disc, &cfg, &ops);
	if (!err)
		err = disc_client_start(&c->disc, now);
	if (err)
		return err;
	c->phase = PHASE_DISCOVERY;
	c->attempt_start_ms = now;
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

/* Tears the session down: data path record and netdev, PPP link, PADT, record file. */
static void session_end(struct client *c, uint64_t now)
{
	ipv6_down(c);
	ipv4_down(c);
	shell_session_end(&c->sess);
	c->padt_text[0] = '\0';
	/* Sends the PADT unless the session is already over (the AC's PADT). */
	disc_client_stop(&c->disc, now);
	c->sess.session_id = 0;
	record_update(c);
}

/* One attempt or session is over: retry after holdoff, or end the daemon. */
static void attempt_over(struct client *c, uint64_t now, int code, const char *why)
{
	bool retry;

	if (c->stop_requested) {
		c->exit_code = PXP_EXIT_SIGNAL;
		c->phase = PHASE_DONE;
		daemon_notify(&c->notify_fd, PXP_EXIT_SIGNAL, "stopped before the session was up");
		return;
	}
	if (!c->attempt_up)
		c->failures++;
	snprintf(c->last_error, sizeof(c->last_error), "%s", why);
	retry = c->o->persist && (!c->o->maxfail || c->failures < c->o->maxfail);
	if (retry) {
		char msg[DAEMON_MESSAGE_MAX];

		snprintf(msg, sizeof(msg), "%s (still retrying in the background: --persist)", why);
		daemon_notify_retrying(&c->notify_fd, code, msg);
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
		if (c->sess.ppp_active) {
			/* Close politely; the LINK_DOWN that follows ends the session. */
			if (!c->sess.closing) {
				pxp_info("closing the link: %s", c->fatal_pending);
				shell_session_close(&c->sess, now);
			}
			if (!c->link_down_pending)
				return;
		} else {
			char why[sizeof(c->fatal_pending)];

			snprintf(why, sizeof(why), "%s", c->fatal_pending);
			c->fatal_pending[0] = '\0';
			session_end(c, now);
			attempt_over(c, now, PXP_EXIT_FATAL, why);
			return;
		}
	}
	if (c->link_down_pending) {
		enum ppp_down_reason reason = c->link_down_reason;
		/* Room for every part whole: the reason, the user's note and the AC's PADT text. */
		char why[sizeof(c->o->user) + sizeof(c->padt_text) + 128];
		int code;

		c->link_down_pending = false;
		if (c->fatal_pending[0]) {
			snprintf(why, sizeof(why), "%s", c->fatal_pending);
			code = PXP_EXIT_FATAL;
			c->fatal_pending[0] = '\0';
		} else {
			char user[sizeof(c->o->user) + 48] = "";

			/* The user, never the secret. */
			if (reason == PPP_DOWN_AUTH_FAILED)
				snprintf(user, sizeof(user),
					 " as user '%s' (check --user and the password)",
					 c->o->user);
			snprintf(why, sizeof(why), "session %u: %s%s%s%s", c->sess.session_id,
				 ppp_down_reason_text(reason), user, c->padt_text[0] ? ", " : "",
				 c->padt_text);
			code = exit_code_for(reason);
		}
		session_end(c, now);
		attempt_over(c, now, code, why);
	}
	if (c->disc_failed_pending) {
		char why[sizeof(c->disc_failure) + 64];

		c->disc_failed_pending = false;
		snprintf(why, sizeof(why), "discovery on %s failed: %s", c->o->iface,
			 c->disc_failure);
		attempt_over(c, now, PXP_EXIT_NO_PADO, why);
	}
	if (c->phase == PHASE_HOLDOFF && now >= c->holdoff_until_ms) {
		int err = start_attempt(c, now);

		if (err)
			attempt_over(c, now, PXP_EXIT_FATAL, "cannot start discovery");
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
		if (c->sess.ppp_active) {
			shell_session_close(&c->sess, now);
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

/* ------------------------------------------------------------ the shell's role */

static struct shell_session *session_at(struct session_shell *sh, unsigned int i)
{
	return i == 0 ? &client_of(sh)->sess : NULL;
}

static void disc_input(struct session_shell *sh, uint64_t now, const uint8_t *frame, size_t len)
{
	struct client *c = client_of(sh);

	if (c->phase != PHASE_HOLDOFF && c->phase != PHASE_DONE)
		disc_client_input(&c->disc, now, frame, len);
}

static void shell_process_pending(struct session_shell *sh, uint64_t now)
{
	process_pending(client_of(sh), now);
}

static const char *state_name(struct session_shell *sh)
{
	struct client *c = client_of(sh);

	/* Whoever began it (down, an echo timeout, failed authentication, the AC). */
	if (c->sess.ppp_active && ppp_terminating(&c->sess.ppp))
		return "terminating";
	return phase_names[c->phase];
}

/* "ipv6_global": the address SLAAC took from the AC's advertisement, or null. */
static void status_global6(struct status_writer *w, struct client *c)
{
	char text[INET6_ADDRSTRLEN + 4], addr[INET6_ADDRSTRLEN];
	unsigned int len;
	uint8_t a[16];

	if (!c->sess.link_local_set || !c->sess.ifindex ||
	    pxp_netlink_global6(c->sh.nl, c->sess.ifindex, a, &len)) {
		status_str(w, "ipv6_global", NULL);
		return;
	}
	inet_ntop(AF_INET6, a, addr, sizeof(addr));
	snprintf(text, sizeof(text), "%s/%u", addr, len);
	status_str(w, "ipv6_global", text);
}

static void write_status(struct session_shell *sh, FILE *out, bool json)
{
	char halves[64], cpus[PXP_DP_CPUS_TEXT];
	struct client *c = client_of(sh);
	struct status_writer w;
	struct ppp_status st = { 0 };
	struct pxp_dp_stats ds;
	uint64_t now = ev_now_ms();
	char replaced[128];
	unsigned int i;

	if (c->sess.ppp_active)
		ppp_get_status(&c->sess.ppp, &st);
	shell_status_begin(sh, &w, out, json);
	status_str(&w, "ifname", c->o->ifname);
	status_u64(&w, "session_id", c->sess.session_id);
	status_str(&w, "ac_name", c->sess.session_id ? c->ac_name : NULL);
	if (c->sess.session_id)
		status_mac(&w, "ac_mac", c->sess.peer_mac);
	else
		status_str(&w, "ac_mac", NULL);
	status_mac(&w, "local_mac", c->sh.disc_sock.mac);
	status_str(&w, "service", c->o->common.service);
	status_ipv4(&w, "local_ip", c->sess.addr_set ? c->sess.local_ip : 0);
	status_ipv4(&w, "peer_ip", c->sess.addr_set ? c->sess.peer_ip : 0);
	status_array_begin(&w, "dns");
	for (i = 0; i < 2; i++)
		if (c->sess.addr_set && c->dns[i])
			status_ipv4(&w, NULL, c->dns[i]);
	status_array_end(&w);
	if (c->sess.link_local_set) {
		status_link_local(&w, "ipv6_local", st.local_ifid);
		status_link_local(&w, "ipv6_peer", st.peer_ifid);
	} else {
		status_str(&w, "ipv6_local", NULL);
		status_str(&w, "ipv6_peer", NULL);
	}
	status_global6(&w, c);
	/* pppd only logs that it did not add one; here it can be asked. */
	status_bool(&w, "default_route", c->route_set);
	status_bool(&w, "default_route6", c->route6_set);
	if (c->route_replaced)
		pxp_route_describe(&c->replaced, replaced, sizeof(replaced));
	status_str(&w, "replaced_route", c->route_replaced ? replaced : NULL);
	status_u64(&w, "mtu", c->sess.mtu);
	status_u64(&w, "mru", st.local_mru);
	status_u64(&w, "uptime_s", c->phase == PHASE_UP ? (now - c->up_since_ms) / 1000 : 0);
	status_u64(&w, "setup_ms", c->setup_ms);
	status_str(&w, "lcp", c->sess.ppp_active ? st.lcp_state : NULL);
	status_str(&w, "ipcp", c->sess.ppp_active ? st.ipcp_state : NULL);
	status_str(&w, "ipv6cp", c->sess.ppp_active ? st.ipv6cp_state : NULL);
	status_object_begin(&w, "echo");
	status_u64(&w, "interval_s", c->o->common.keepalive_interval_s);
	status_u64(&w, "max_failures", c->o->common.keepalive_failures);
	status_bool(&w, "adaptive", c->o->keepalive_adaptive);
	status_u64(&w, "sent", st.echo_sent);
	status_u64(&w, "replies", st.echo_replies);
	status_u64(&w, "missed", st.echo_missed);
	status_object_end(&w);
	status_object_begin(&w, "datapath");
	status_str(&w, "mode", c->sh.dp ? pxp_dp_mode_name(pxp_dp_mode(c->sh.dp)) : NULL);
	status_str(&w, "mode_reason", c->sh.dp ? pxp_dp_mode_reason(c->sh.dp) : NULL);
	status_str(&w, "halves", c->sh.dp ? shell_dp_halves(&c->sh, halves, sizeof(halves)) : NULL);
	status_str(&w, "netdev_kind",
		   c->sh.dp ? pxp_dp_netdev_name(pxp_dp_netdev_kind(c->sh.dp)) : NULL);
	status_bool(&w, "attached", c->sh.dp != NULL);
	status_u64(&w, "umem_bytes", c->sh.dp ? pxp_dp_umem_bytes(c->sh.dp) : 0);
	status_str(&w, "afxdp_cpus", pxp_dp_afxdp_cpus(c->sh.dp, cpus, sizeof(cpus)));
	if (c->sh.dp && !pxp_dp_get_stats(c->sh.dp, &ds))
		stats_dp_status(&w, &ds);
	status_object_end(&w);
	status_object_begin(&w, "discovery");
	status_str(&w, "state", disc_client_state_name(disc_client_state(&c->disc)));
	shell_status_disc_counters(&w, c->disc.rx_frames, c->disc.tx_frames, c->disc.drops);
	status_object_end(&w);
	shell_status_frames(sh, &w, &st);
	shell_status_refused(sh, &w);
	status_u64(&w, "sessions_up_total", c->sessions_up_total);
	status_u64(&w, "failures", c->failures);
	status_str(&w, "last_error", c->last_error[0] ? c->last_error : NULL);
	status_end(&w);
}

static void shell_request_stop(struct session_shell *sh, uint64_t now)
{
	request_stop(client_of(sh), now);
}

/*
 * Adaptive keepalive: the data path, not this process, sees the session's data, so its
 * receive counter tells the PPP link whether the peer is evidently alive. Read only when
 * a PPP timer is due, which is when the link would decide to send an Echo-Request.
 */
static void note_data_received(struct shell_session *s, uint64_t now)
{
	struct client *c = client_of(s->sh);
	struct pxp_dp_stats st;
	uint64_t decap = 0;
	unsigned int i;

	if (!c->o->keepalive_adaptive || !c->sh.dp || pxp_dp_get_stats(c->sh.dp, &st))
		return;
	for (i = 0; i < st.nr_queues && i < PXP_DP_MAX_QUEUES; i++)
		decap += st.queue[i].decap;
	if (decap != c->last_decap)
		ppp_data_seen(&s->ppp, now);
	c->last_decap = decap;
}

static const struct shell_role client_role = {
	.name = "client",
	.session_at = session_at,
	.disc_input = disc_input,
	.process_pending = shell_process_pending,
	.state = state_name,
	.write_status = write_status,
	.request_stop = shell_request_stop,
	.ppp_timer_due = note_data_received,
};

/* ------------------------------------------------------------ run */

static void handle_signal(struct client *c, uint64_t now)
{
	int sig = c->sh.loop.pending_signal;

	c->sh.loop.pending_signal = 0;
	if (sig == SIGINT || sig == SIGTERM)
		request_stop(c, now);
	else if (sig == SIGHUP)
		pxp_info("SIGHUP ignored");
}

static void disc_fire(struct ev_timer *t, uint64_t now)
{
	disc_client_timer(&container_of(t, struct client, disc_timer)->disc, now);
}

static void sync_timers(struct client *c)
{
	ev_timer_set(&c->sh.loop, &c->disc_timer,
		     c->phase == PHASE_DISCOVERY ? disc_client_deadline(&c->disc) : UINT64_MAX);
	/* It only wakes the loop: process_pending() starts the next attempt. */
	ev_timer_set(&c->sh.loop, &c->holdoff_timer,
		     c->phase == PHASE_HOLDOFF ? c->holdoff_until_ms : UINT64_MAX);
}

static void close_all(struct client *c)
{
	if (c->sess.session_id || c->sess.ppp_active)
		session_end(c, ev_now_ms());
	shell_close(&c->sh);
	/*
	 * The pid file goes while the record still holds the port: a new daemon writes its own
	 * only once it has claimed the record, so it can never be that one's pid file.
	 */
	daemon_remove_pid_file(c->o->iface, (long)getpid());
	if (c->record.pid)
		instance_record_remove(c->o->iface);
	/*
	 * As pppd on exit: give ip-down its time, with the control socket, the record and the
	 * pid file already gone (a daemon that no longer answers must not look like one that
	 * runs).
	 */
	hooks_finish(&c->hooks, HOOK_EXIT_WAIT_MS);
}

/*
 * Before anything is created: what a dead instance on this WAN port left goes, and the
 * session netdev name must be free (no other instance's, nor a netdev of someone else's).
 * Then the record claims the name.
 */
static int claim_names(struct client *c)
{
	bool found;
	int err;

	err = instance_clean_stale(c->o->iface, &found);
	if (err)
		return err == -EBUSY ? PXP_EXIT_LOCK : PXP_EXIT_FATAL;
	err = instance_check_ifname(c->o->iface, c->o->ifname);
	if (err)
		return err == -EBUSY ? PXP_EXIT_LOCK : PXP_EXIT_FATAL;
	err = instance_record_init(&c->record);
	if (!err) {
		snprintf(c->record.ifname, sizeof(c->record.ifname), "%s", c->o->ifname);
		c->record.vlan_id = c->o->common.vlan_id;
		err = instance_record_write(c->o->iface, &c->record);
	}
	if (err) {
		c->record.pid = 0;
		pxp_err("cannot record this instance in %s: %s", pxp_run_dir(), strerror(-err));
		return PXP_EXIT_FATAL;
	}
	return PXP_EXIT_OK;
}

static int setup(struct client *c)
{
	struct client_settings *o = c->o;
	const char *scripts[HOOK_KIND_COUNT];
	int code, err, k;

	code = shell_open(&c->sh, &client_role, o->iface, 1, o->common.vlan_id, o->vlan_pcp);
	if (code != PXP_EXIT_OK)
		return code;
	if (ev_timer_attach(&c->sh.loop, &c->disc_timer, disc_fire) ||
	    ev_timer_attach(&c->sh.loop, &c->holdoff_timer, NULL)) {
		pxp_err("out of memory");
		return PXP_EXIT_FATAL;
	}
	for (k = 0; k < HOOK_KIND_COUNT; k++)
		scripts[k] = o->hook_script[k];
	hooks_init(&c->hooks, &c->sh.loop, scripts);
	/* The lower bound is the CLI's (--mtu); here only the WAN bounds it. */
	if (o->mtu && !pxp_mtu_fits(o->mtu, 0, c->sh.disc_sock.mtu)) {
		pxp_err("--mtu %u exceeds the MTU of %s (%u) minus 8", o->mtu, o->iface,
			c->sh.disc_sock.mtu);
		return PXP_EXIT_OPTION;
	}
	code = claim_names(c);
	if (code != PXP_EXIT_OK)
		return code;
	err = daemon_write_pid_file(o->iface);
	if (err)
		pxp_warn("cannot write %s/%s.pid: %s", pxp_run_dir(), o->iface, strerror(-err));
	/*
	 * Attached before the first PADI (it passes what it does not know to the stack):
	 * loading the programs then costs nothing in session set-up, and a data path that
	 * cannot attach fails the command at once.
	 */
	code = shell_attach_datapath(&c->sh, &o->common, o->vlan_pcp);
	record_update(c); /* the WAN program, also when a later step of attaching failed */
	if (code != PXP_EXIT_OK)
		return code;
	pxp_info("data path attached to %s in %s mode", o->iface,
		 pxp_dp_mode_name(pxp_dp_mode(c->sh.dp)));
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
	c->sess.sh = &c->sh;
	snprintf(c->sess.ifname, sizeof(c->sess.ifname), "%s", o->ifname);
	code = setup(c);
	if (code != PXP_EXIT_OK) {
		daemon_notify(&c->notify_fd, code, pxp_log_last_error());
		goto out;
	}
	while (c->phase != PHASE_DONE) {
		uint64_t now = ev_now_ms();
		int err;

		ev_timers_run(&c->sh.loop, now);
		process_pending(c, now);
		if (c->phase == PHASE_DONE)
			break;
		sync_timers(c);
		err = ev_loop_run_once(&c->sh.loop);
		if (err) {
			pxp_err("event loop: %s", strerror(-err));
			c->exit_code = PXP_EXIT_FATAL;
			break;
		}
		if (c->sh.loop.pending_signal)
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
