// SPDX-License-Identifier: GPL-2.0
/*
 * The PPP link: RFC 1661 phases (Dead, Establish, Authenticate, Network, Terminate) tying
 * LCP, the authentication core and the network control protocols together, plus protocol
 * dispatch and Protocol-Reject.
 *
 * Callbacks from the automata and the auth core never re-enter them: work that would
 * (closing LCP from inside an NCP, acting on an auth result) is recorded and done by
 * settle() once the call chain has unwound.
 */
#include "ppp.h"
#include "pppoe_wire.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct ppp *ppp_of(const struct fsm *f)
{
	return f->ctx;
}

static void fsm_send(void *ctx, uint16_t proto, const uint8_t *data, size_t len)
{
	struct ppp *p = ctx;

	p->cb.send(p->cb.ctx, proto, data, len);
}

void ppp_random_nonzero(struct ppp *p, uint8_t *buf, size_t len)
{
	size_t i;

	p->cb.random(p->cb.ctx, buf, len);
	for (i = 0; i < len; i++)
		if (buf[i])
			return;
	buf[len - 1] = 1;
}

static int init_fsm(struct ppp *p, struct fsm *f, uint16_t proto, const char *name,
		    const struct fsm_ops *ops)
{
	struct fsm_config fc = {
		.proto = proto,
		.name = name,
		.ops = ops,
		.ctx = p,
		.send = fsm_send,
		.restart_ms = p->cfg.restart_ms,
		.max_configure = p->cfg.max_configure,
		.max_terminate = p->cfg.max_terminate,
		.max_failure = p->cfg.max_failure,
	};

	return fsm_init(f, &fc);
}

int ppp_init(struct ppp *p, const struct ppp_config *cfg, const struct ppp_callbacks *cb)
{
	int err;

	if (!cb->send || !cb->event || !cb->random)
		return -EINVAL;
	if (cfg->mru && cfg->mru < LCP_MIN_MRU)
		return -EINVAL;
	if (cfg->password_len > PPP_SECRET_MAX)
		return -EINVAL;
	if (cfg->role == PPP_ROLE_SERVER && cfg->require_auth != PPP_AUTH_NONE && !cb->get_secret)
		return -EINVAL;
	if ((unsigned int)cfg->require_auth > PPP_AUTH_MSCHAPV2)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	p->cfg = *cfg;
	p->cb = *cb;
	/* Names come from config files: never trust their termination. */
	p->cfg.user[PPP_NAME_MAX] = '\0';
	p->cfg.server_name[PPP_NAME_MAX] = '\0';
	if (!p->cfg.mru)
		p->cfg.mru = PPPOE_DEFAULT_MRU;
	err = init_fsm(p, &p->lcp, PPP_PROTO_LCP, "LCP", &lcp_ops);
	if (!err)
		err = init_fsm(p, &p->ipcp, PPP_PROTO_IPCP, "IPCP", &ipcp_ops);
	if (!err)
		err = init_fsm(p, &p->ipv6cp, PPP_PROTO_IPV6CP, "IPv6CP", &ipv6cp_ops);
	if (err) {
		explicit_bzero(p, sizeof(*p));
		return err;
	}
	p->lcp_opt.echo_deadline = UINT64_MAX;
	return 0;
}

static void stop_auth(struct ppp *p)
{
	const struct auth_stats *as;

	if (!p->auth_active)
		return;
	/* Keep the auth core's drop counts past its lifetime. */
	as = auth_get_stats(&p->auth);
	p->rx_malformed += as->rx_malformed;
	p->rx_ignored += as->rx_bad_id + as->rx_unexpected;
	auth_destroy(&p->auth);
	p->auth_active = false;
}

void ppp_destroy(struct ppp *p)
{
	stop_auth(p);
	explicit_bzero(p->cfg.password, sizeof(p->cfg.password));
	p->cfg.password_len = 0;
}

void ppp_request_close(struct ppp *p, enum ppp_down_reason reason)
{
	if (!p->close_pending)
		p->close_pending = reason;
}

static void set_down_reason(struct ppp *p, enum ppp_down_reason reason)
{
	if (p->down_reason == PPP_DOWN_NONE)
		p->down_reason = reason;
}

static void report_link_down(struct ppp *p)
{
	if (!p->link_active)
		return;
	p->link_active = false;
	p->phase = PPP_PHASE_DEAD;
	p->cb.event(p->cb.ctx, PPP_EV_LINK_DOWN,
		    p->down_reason ? p->down_reason : PPP_DOWN_NEGOTIATION);
}

/* ---- phases ---- */

static void start_network(struct ppp *p)
{
	p->phase = PPP_PHASE_NETWORK;
	fsm_open(&p->ipcp, p->now_ms);
	fsm_up(&p->ipcp, p->now_ms);
	if (p->cfg.ipv6) {
		fsm_open(&p->ipv6cp, p->now_ms);
		fsm_up(&p->ipv6cp, p->now_ms);
	}
}

static void auth_send(void *ctx, uint16_t proto, const uint8_t *data, size_t len)
{
	struct ppp *p = ctx;

	p->cb.send(p->cb.ctx, proto, data, len);
}

static void auth_result(void *ctx, bool ok, const char *message)
{
	struct ppp *p = ctx;

	if (p->auth_result)
		return;
	p->auth_result = ok ? 1 : -1;
	snprintf(p->auth_message, sizeof(p->auth_message), "%s", message ? message : "");
}

static void auth_random(void *ctx, void *buf, size_t len)
{
	struct ppp *p = ctx;

	p->cb.random(p->cb.ctx, buf, len);
}

static int auth_get_secret(void *ctx, const char *user, uint8_t *secret, size_t cap)
{
	struct ppp *p = ctx;

	if (!p->cb.get_secret)
		return -ENOENT;
	return p->cb.get_secret(p->cb.ctx, user, secret, cap);
}

static int start_auth(struct ppp *p)
{
	static const struct auth_callbacks acb = {
		.send = auth_send,
		.result = auth_result,
		.random = auth_random,
		.get_secret = auth_get_secret,
	};
	struct auth_callbacks cb = acb;
	struct auth_config ac = {
		.proto = p->auth_proto,
		.restart_ms = p->cfg.restart_ms,
		.max_attempts = p->cfg.max_configure,
	};
	int err;

	cb.ctx = p;
	if (p->cfg.role == PPP_ROLE_SERVER) {
		ac.role = AUTH_ROLE_AUTHENTICATOR;
		memcpy(ac.name, p->cfg.server_name, sizeof(ac.name));
	} else {
		ac.role = AUTH_ROLE_PEER;
		memcpy(ac.name, p->cfg.user, sizeof(ac.name));
		memcpy(ac.secret, p->cfg.password, p->cfg.password_len);
		ac.secret_len = p->cfg.password_len;
	}
	err = auth_init(&p->auth, &ac, &cb);
	explicit_bzero(ac.secret, sizeof(ac.secret));
	if (err)
		return err;
	p->auth_active = true;
	p->auth_result = 0;
	auth_start(&p->auth, p->now_ms);
	return 0;
}

void ppp_lcp_up(struct ppp *p)
{
	uint16_t mru = p->lcp_opt.peer_mru;

	p->lcp.peer_mru = p->ipcp.peer_mru = p->ipv6cp.peer_mru = mru;
	p->auth_proto = p->lcp_opt.auth;
	if (p->auth_proto == PPP_AUTH_NONE) {
		start_network(p);
		return;
	}
	p->phase = PPP_PHASE_AUTHENTICATE;
	if (start_auth(p)) {
		set_down_reason(p, PPP_DOWN_AUTH_FAILED);
		ppp_request_close(p, PPP_DOWN_AUTH_FAILED);
	}
}

static void stop_ncp(struct ppp *p, struct fsm *f)
{
	fsm_down(f, p->now_ms);
	fsm_close(f, p->now_ms);
}

void ppp_lcp_down(struct ppp *p)
{
	/* A peer ending the link while we authenticate refused our credentials. */
	if (p->phase == PPP_PHASE_AUTHENTICATE && p->lcp.cause == FSM_CAUSE_PEER_TERMINATE)
		set_down_reason(p, PPP_DOWN_AUTH_FAILED);
	/* Without a reason to end, the peer is renegotiating (a Configure-Request in Opened). */
	if (p->down_reason == PPP_DOWN_NONE && p->lcp.cause == FSM_CAUSE_NONE)
		p->phase = PPP_PHASE_ESTABLISH;
	else
		p->phase = PPP_PHASE_TERMINATE;
	stop_auth(p);
	stop_ncp(p, &p->ipcp);
	stop_ncp(p, &p->ipv6cp);
}

void ppp_lcp_finished(struct ppp *p)
{
	switch (p->lcp.cause) {
	case FSM_CAUSE_PEER_TERMINATE:
		set_down_reason(p, PPP_DOWN_PEER_TERMINATE);
		break;
	default:
		set_down_reason(p, PPP_DOWN_NEGOTIATION);
		break;
	}
	report_link_down(p);
}

void ppp_ncp_up(struct ppp *p, struct fsm *f)
{
	if (f == &p->ipv6cp) {
		p->ipv6_reported = true;
		p->cb.event(p->cb.ctx, PPP_EV_IPV6_UP, 0);
		return;
	}
	/* A server that Acks 0.0.0.0 gave us nothing to use: IPv4 is not up. */
	if (p->cfg.role == PPP_ROLE_CLIENT && p->ipcp_opt.local_ip == 0) {
		p->ipcp_close_pending = true;
		return;
	}
	p->ipv4_reported = true;
	p->cb.event(p->cb.ctx, PPP_EV_IPV4_UP, 0);
}

void ppp_ncp_down(struct ppp *p, struct fsm *f)
{
	bool *reported = f == &p->ipcp ? &p->ipv4_reported : &p->ipv6_reported;

	if (!*reported)
		return;
	*reported = false;
	p->cb.event(p->cb.ctx, f == &p->ipcp ? PPP_EV_IPV4_DOWN : PPP_EV_IPV6_DOWN, 0);
}

void ppp_ncp_finished(struct ppp *p, struct fsm *f)
{
	(void)f;
	if (p->phase == PPP_PHASE_NETWORK)
		p->ncp_check_pending = true;
}

static bool ncp_alive(const struct fsm *f)
{
	return f->state >= FSM_REQ_SENT;
}

bool ppp_protocol_rejected(struct ppp *p, uint16_t proto)
{
	switch (proto) {
	case PPP_PROTO_LCP:
		return true;
	case PPP_PROTO_IPCP:
		fsm_rxj(&p->ipcp, p->now_ms, true);
		break;
	case PPP_PROTO_IPV6CP:
		fsm_rxj(&p->ipv6cp, p->now_ms, true);
		break;
	case PPP_PROTO_PAP:
	case PPP_PROTO_CHAP:
		/* The peer cannot do the protocol it agreed to authenticate with. */
		if (p->phase == PPP_PHASE_AUTHENTICATE && !p->auth_result)
			p->auth_result = -1;
		break;
	default:
		break;
	}
	return false;
}

/*
 * Why a link went down, once for every reason: in words for the daemon's log, status and
 * PADT (either role: the other end is "the peer"), and what our Terminate-Request tells the
 * peer (the words pppd uses, for its log; NULL sends none).
 */
struct down_reason_words {
	const char *text;
	const char *terminate;
};

static const struct down_reason_words down_reasons[] = {
	[PPP_DOWN_NONE] = { "the link went down", NULL },
	[PPP_DOWN_ADMIN] = { "closed on request", "User request" },
	[PPP_DOWN_LOWER] = { "the peer ended the PPPoE session (PADT)", NULL },
	[PPP_DOWN_PEER_TERMINATE] = { "the peer terminated the link (LCP Terminate-Request)",
				      NULL },
	[PPP_DOWN_ECHO_TIMEOUT] = { "no reply to LCP Echo-Requests: the link is dead",
				    "Peer not responding" },
	[PPP_DOWN_AUTH_FAILED] = { "authentication failed", "Authentication failed" },
	[PPP_DOWN_NEGOTIATION] = { "LCP negotiation did not converge", NULL },
	[PPP_DOWN_LOOPBACK] = { "the link is looped back (own Magic-Number seen)",
				"Loopback detected" },
	[PPP_DOWN_NO_NETWORK] = { "no network protocol opened (IPCP rejected or timed out)",
				  "No network protocols running" },
};

/* Out-of-range reasons read as PPP_DOWN_NONE. */
static const struct down_reason_words *down_reason_words(enum ppp_down_reason reason)
{
	if ((unsigned int)reason >= sizeof(down_reasons) / sizeof(down_reasons[0]))
		reason = PPP_DOWN_NONE;
	return &down_reasons[reason];
}

const char *ppp_down_reason_text(enum ppp_down_reason reason)
{
	return down_reason_words(reason)->text;
}

/* Does the work callbacks deferred, until none is left. */
static void settle(struct ppp *p)
{
	for (;;) {
		if (p->auth_result && p->phase == PPP_PHASE_AUTHENTICATE) {
			int result = p->auth_result;

			p->auth_result = 0;
			if (result > 0) {
				const char *name = auth_peer_name(&p->auth);

				if (p->cfg.role == PPP_ROLE_SERVER && name)
					snprintf(p->peer_name, sizeof(p->peer_name), "%s", name);
				p->cb.event(p->cb.ctx, PPP_EV_AUTH_OK, 0);
				start_network(p);
			} else {
				ppp_request_close(p, PPP_DOWN_AUTH_FAILED);
			}
			continue;
		}
		if (p->ipcp_close_pending) {
			p->ipcp_close_pending = false;
			if (p->phase == PPP_PHASE_NETWORK)
				fsm_close(&p->ipcp, p->now_ms);
			continue;
		}
		if (p->ncp_check_pending) {
			p->ncp_check_pending = false;
			if (p->phase == PPP_PHASE_NETWORK && !ncp_alive(&p->ipcp) &&
			    !(p->cfg.ipv6 && ncp_alive(&p->ipv6cp)))
				ppp_request_close(p, PPP_DOWN_NO_NETWORK);
			continue;
		}
		if (p->close_pending) {
			set_down_reason(p, p->close_pending);
			p->lcp.term_text = down_reason_words(p->close_pending)->terminate;
			p->close_pending = PPP_DOWN_NONE;
			fsm_close(&p->lcp, p->now_ms);
			continue;
		}
		break;
	}
}

/* ---- public entry points ---- */

void ppp_lower_up(struct ppp *p, uint64_t now_ms)
{
	if (p->link_active)
		return;
	p->now_ms = now_ms;
	fsm_reset(&p->lcp);
	fsm_reset(&p->ipcp);
	fsm_reset(&p->ipv6cp);
	p->down_reason = PPP_DOWN_NONE;
	p->close_pending = PPP_DOWN_NONE;
	p->ncp_check_pending = false;
	p->ipcp_close_pending = false;
	p->ipv4_reported = p->ipv6_reported = false;
	p->auth_result = 0;
	p->peer_name[0] = '\0';
	p->auth_message[0] = '\0';
	p->link_active = true;
	p->phase = PPP_PHASE_ESTABLISH;
	fsm_open(&p->lcp, now_ms);
	fsm_up(&p->lcp, now_ms);
	settle(p);
}

void ppp_lower_down(struct ppp *p, uint64_t now_ms)
{
	p->now_ms = now_ms;
	set_down_reason(p, PPP_DOWN_LOWER);
	fsm_down(&p->lcp, now_ms);
	/* Without a lower layer no Terminate can be sent: go straight to Initial. */
	fsm_close(&p->lcp, now_ms);
	stop_auth(p);
	report_link_down(p);
	p->close_pending = PPP_DOWN_NONE;
	p->ncp_check_pending = false;
	p->ipcp_close_pending = false;
}

void ppp_close(struct ppp *p, uint64_t now_ms)
{
	p->now_ms = now_ms;
	if (!p->link_active)
		return;
	ppp_request_close(p, PPP_DOWN_ADMIN);
	settle(p);
}

bool ppp_terminating(const struct ppp *p)
{
	return p->link_active && (p->lcp.state == FSM_CLOSING || p->lcp.state == FSM_STOPPING);
}

static void input_ncp(struct ppp *p, struct fsm *f, const uint8_t *data, size_t len)
{
	/* RFC 1661 3.4: NCP packets before the Network phase are silently discarded. */
	if (p->phase != PPP_PHASE_NETWORK) {
		p->rx_ignored++;
		return;
	}
	fsm_input(f, p->now_ms, data, len);
}

void ppp_input(struct ppp *p, uint64_t now_ms, uint16_t proto, const uint8_t *data, size_t len)
{
	p->now_ms = now_ms;
	if (!p->link_active) {
		p->rx_ignored++;
		return;
	}
	if (proto == PPP_PROTO_LCP) {
		fsm_input(&p->lcp, now_ms, data, len);
		settle(p);
		return;
	}
	/* Everything else needs an open link (RFC 1661 3.3). */
	if (p->lcp.state != FSM_OPENED) {
		p->rx_ignored++;
		return;
	}
	switch (proto) {
	case PPP_PROTO_PAP:
	case PPP_PROTO_CHAP:
		if (p->auth_active)
			auth_input(&p->auth, now_ms, proto, data, len);
		else
			p->rx_ignored++;
		break;
	case PPP_PROTO_IPCP:
		input_ncp(p, &p->ipcp, data, len);
		break;
	case PPP_PROTO_IPV6CP:
		if (p->cfg.ipv6) {
			input_ncp(p, &p->ipv6cp, data, len);
			break;
		}
		p->rx_proto_reject++;
		lcp_send_protocol_reject(p, proto, data, len);
		break;
	case PPP_PROTO_IPV4:
	case PPP_PROTO_IPV6:
		/* Data belongs to the data path; a stray frame here is not an error. */
		p->rx_ignored++;
		break;
	default:
		p->rx_proto_reject++;
		lcp_send_protocol_reject(p, proto, data, len);
		break;
	}
	settle(p);
}

void ppp_data_seen(struct ppp *p, uint64_t now_ms)
{
	(void)now_ms;
	p->lcp_opt.data_seen = true;
}

void ppp_timer(struct ppp *p, uint64_t now_ms)
{
	p->now_ms = now_ms;
	if (!p->link_active)
		return;
	fsm_timer(&p->lcp, now_ms);
	fsm_timer(&p->ipcp, now_ms);
	fsm_timer(&p->ipv6cp, now_ms);
	if (p->auth_active && now_ms >= auth_deadline(&p->auth))
		auth_timer(&p->auth, now_ms);
	lcp_echo_timer(p, now_ms);
	settle(p);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

uint64_t ppp_deadline(const struct ppp *p)
{
	uint64_t d;

	if (!p->link_active)
		return UINT64_MAX;
	d = min_u64(fsm_deadline(&p->lcp), fsm_deadline(&p->ipcp));
	d = min_u64(d, fsm_deadline(&p->ipv6cp));
	d = min_u64(d, lcp_echo_deadline(p));
	if (p->auth_active)
		d = min_u64(d, auth_deadline(&p->auth));
	return d;
}

void ppp_set_peer_ip(struct ppp *p, uint32_t peer_ip)
{
	p->cfg.peer_ip = peer_ip;
}

void ppp_get_status(const struct ppp *p, struct ppp_status *st)
{
	const struct fsm *fsms[] = { &p->lcp, &p->ipcp, &p->ipv6cp };
	size_t i;

	static const char *const phase_names[] = {
		[PPP_PHASE_DEAD] = "Dead",
		[PPP_PHASE_ESTABLISH] = "Establish",
		[PPP_PHASE_AUTHENTICATE] = "Authenticate",
		[PPP_PHASE_NETWORK] = "Network",
		[PPP_PHASE_TERMINATE] = "Terminate",
	};

	memset(st, 0, sizeof(*st));
	st->phase = phase_names[p->phase];
	st->lcp_state = fsm_state_name(p->lcp.state);
	st->ipcp_state = fsm_state_name(p->ipcp.state);
	st->ipv6cp_state = fsm_state_name(p->ipv6cp.state);
	if (p->lcp.state == FSM_OPENED || p->phase >= PPP_PHASE_AUTHENTICATE) {
		st->local_mru = p->lcp_opt.local_mru;
		st->peer_mru = p->lcp_opt.peer_mru;
		st->auth = p->auth_proto;
	}
	memcpy(st->peer_name, p->peer_name, sizeof(st->peer_name));
	memcpy(st->auth_message, p->auth_message, sizeof(st->auth_message));
	if (p->ipcp.state == FSM_OPENED) {
		st->local_ip = p->ipcp_opt.local_ip;
		st->peer_ip = p->ipcp_opt.peer_ip;
		st->dns[0] = p->ipcp_opt.dns[0];
		st->dns[1] = p->ipcp_opt.dns[1];
	}
	if (p->ipv6cp.state == FSM_OPENED) {
		memcpy(st->local_ifid, p->ipv6cp_opt.local_ifid, 8);
		memcpy(st->peer_ifid, p->ipv6cp_opt.peer_ifid, 8);
	}
	st->echo_sent = p->lcp_opt.echo_sent;
	st->echo_replies = p->lcp_opt.echo_replies;
	st->echo_missed = p->lcp_opt.echo_missed;
	st->rx_malformed = p->rx_malformed;
	st->rx_proto_reject = p->rx_proto_reject;
	st->rx_ignored = p->rx_ignored;
	if (p->auth_active) {
		const struct auth_stats *as = auth_get_stats(&p->auth);

		st->rx_malformed += as->rx_malformed;
		st->rx_ignored += as->rx_bad_id + as->rx_unexpected;
	}
	for (i = 0; i < sizeof(fsms) / sizeof(fsms[0]); i++) {
		st->rx_malformed += fsm_malformed(fsms[i]);
		st->rx_ignored += fsm_ignored(fsms[i]);
	}
}
