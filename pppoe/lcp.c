// SPDX-License-Identifier: GPL-2.0
/*
 * LCP (RFC 1661) over PPPoE (RFC 2516, RFC 4638): MRU, Authentication-Protocol and
 * Magic-Number are negotiated; ACCM, PFC and ACFC mean nothing on Ethernet and are
 * rejected. Also the Echo keepalive and Protocol-Reject.
 */
#include "ppp.h"
#include "ppp_numbers.h"
#include "pppoe_wire.h"
#include "pxp_bytes.h"

#include <errno.h>
#include <string.h>

static uint32_t new_magic(struct ppp *p)
{
	uint8_t b[4];

	ppp_random_nonzero(p, b, sizeof(b));
	return get_be32(b);
}

/* The Authentication-Protocol option value for proto; returns its length. */
static size_t auth_option_value(enum ppp_auth_proto proto, uint8_t *val)
{
	switch (proto) {
	case PPP_AUTH_PAP:
		put_be16(val, PPP_PROTO_PAP);
		return 2;
	case PPP_AUTH_CHAP_MD5:
		put_be16(val, PPP_PROTO_CHAP);
		val[2] = CHAP_ALG_MD5;
		return 3;
	case PPP_AUTH_MSCHAPV2:
		put_be16(val, PPP_PROTO_CHAP);
		val[2] = CHAP_ALG_MSCHAPV2;
		return 3;
	default:
		return 0;
	}
}

static enum ppp_auth_proto parse_auth_option(const uint8_t *val, size_t len)
{
	if (len == 2 && get_be16(val) == PPP_PROTO_PAP)
		return PPP_AUTH_PAP;
	if (len == 3 && get_be16(val) == PPP_PROTO_CHAP && val[2] == CHAP_ALG_MD5)
		return PPP_AUTH_CHAP_MD5;
	if (len == 3 && get_be16(val) == PPP_PROTO_CHAP && val[2] == CHAP_ALG_MSCHAPV2)
		return PPP_AUTH_MSCHAPV2;
	return PPP_AUTH_NONE;
}

static void lcp_reset(struct fsm *f)
{
	struct ppp *p = ppp_of(f);
	struct lcp_options *o = &p->lcp_opt;

	o->req_mru = true;
	o->want_mru = p->cfg.mru;
	o->req_magic = true;
	o->magic = new_magic(p);
	o->renew_magic = false;
	o->want_auth = p->cfg.role == PPP_ROLE_SERVER ? p->cfg.require_auth : PPP_AUTH_NONE;
	o->req_auth = o->want_auth != PPP_AUTH_NONE;
	o->magic_collisions = 0;
}

static void add_option(uint8_t *buf, size_t *len, uint8_t type, const uint8_t *val, size_t vlen)
{
	buf[*len] = type;
	buf[*len + 1] = (uint8_t)(vlen + 2);
	memcpy(buf + *len + 2, val, vlen);
	*len += vlen + 2;
}

static size_t lcp_build_request(struct fsm *f, uint8_t *buf, size_t cap)
{
	struct ppp *p = ppp_of(f);
	struct lcp_options *o = &p->lcp_opt;
	uint8_t val[4];
	size_t len = 0;

	if (cap < 4 + 5 + 6)
		return 0;
	if (o->req_mru) {
		put_be16(val, o->want_mru);
		add_option(buf, &len, LCP_OPT_MRU, val, 2);
	}
	if (o->req_auth)
		add_option(buf, &len, LCP_OPT_AUTH, val, auth_option_value(o->want_auth, val));
	if (o->req_magic) {
		/* Changed only here: an Ack must repeat the request it answers. */
		if (o->renew_magic)
			o->magic = new_magic(p);
		o->renew_magic = false;
		put_be32(val, o->magic);
		add_option(buf, &len, LCP_OPT_MAGIC, val, 4);
	}
	return len;
}

static void lcp_request_begin(struct fsm *f)
{
	struct lcp_options *o = &ppp_of(f)->lcp_opt;

	o->peer_req_mru = LCP_DEFAULT_MRU;
	o->peer_req_auth = PPP_AUTH_NONE;
}

static enum fsm_verdict judge_magic(struct ppp *p, const uint8_t *val, uint8_t *nak)
{
	struct lcp_options *o = &p->lcp_opt;
	uint32_t magic = get_be32(val);

	if (magic != 0 && !(o->req_magic && magic == o->magic))
		return FSM_ACK;
	if (magic != 0) {
		/* Our own number came back: a loop, or a rare coincidence (RFC 1661 6.4). */
		if (++o->magic_collisions >= LCP_LOOPBACK_LIMIT)
			ppp_request_close(p, PPP_DOWN_LOOPBACK);
		o->renew_magic = true;
	}
	magic = new_magic(p);
	if (magic == o->magic) /* a stuck generator must not stall us */
		magic = magic == 1 ? 2 : magic ^ 1;
	put_be32(nak, magic);
	return FSM_NAK;
}

static enum fsm_verdict lcp_request_option(struct fsm *f, uint8_t type, const uint8_t *val,
					   size_t len, uint8_t *nak, size_t *nak_len)
{
	struct ppp *p = ppp_of(f);
	struct lcp_options *o = &p->lcp_opt;
	enum ppp_auth_proto auth;

	switch (type) {
	case LCP_OPT_MRU:
		if (len != 2)
			return FSM_REJ;
		if (get_be16(val) < LCP_MIN_MRU) {
			put_be16(nak, p->cfg.mru);
			*nak_len = 2;
			return FSM_NAK;
		}
		o->peer_req_mru = get_be16(val);
		return FSM_ACK;
	case LCP_OPT_AUTH:
		/* We never prove our identity to a client. */
		if (p->cfg.role == PPP_ROLE_SERVER || len < 2)
			return FSM_REJ;
		auth = parse_auth_option(val, len);
		if (auth == PPP_AUTH_NONE) {
			*nak_len = auth_option_value(PPP_AUTH_CHAP_MD5, nak);
			return FSM_NAK;
		}
		o->peer_req_auth = auth;
		return FSM_ACK;
	case LCP_OPT_MAGIC:
		if (len != 4)
			return FSM_REJ;
		*nak_len = 4;
		return judge_magic(p, val, nak);
	case LCP_OPT_ACCM: /* RFC 2516 section 7: meaningless on PPPoE */
	case LCP_OPT_PFC:
	case LCP_OPT_ACFC:
	default:
		return FSM_REJ;
	}
}

static int lcp_nak_option(struct fsm *f, uint8_t type, const uint8_t *val, size_t len)
{
	struct ppp *p = ppp_of(f);
	struct lcp_options *o = &p->lcp_opt;
	uint16_t mru;

	switch (type) {
	case LCP_OPT_MRU:
		if (len != 2)
			return 0;
		mru = get_be16(val);
		/* Smaller is fine; larger than our link carries is not (keep asking). */
		if (mru >= LCP_MIN_MRU && mru <= p->cfg.mru)
			o->want_mru = mru;
		return 0;
	case LCP_OPT_AUTH:
		if (!o->req_auth)
			return 0;
		/* The server insists on its configured protocol. */
		p->down_reason = p->down_reason ? p->down_reason : PPP_DOWN_AUTH_FAILED;
		return -EPROTO;
	case LCP_OPT_MAGIC:
		o->renew_magic = o->req_magic;
		return 0;
	default: /* a suggestion to add an option: we ask only for what we need */
		return 0;
	}
}

static int lcp_reject_option(struct fsm *f, uint8_t type)
{
	struct ppp *p = ppp_of(f);
	struct lcp_options *o = &p->lcp_opt;

	switch (type) {
	case LCP_OPT_MRU:
		o->req_mru = false;
		return 0;
	case LCP_OPT_MAGIC:
		o->req_magic = false;
		o->magic = 0;
		return 0;
	case LCP_OPT_AUTH:
		p->down_reason = p->down_reason ? p->down_reason : PPP_DOWN_AUTH_FAILED;
		return -EPROTO;
	default:
		return 0;
	}
}

static void lcp_up(struct fsm *f)
{
	struct ppp *p = ppp_of(f);
	struct lcp_options *o = &p->lcp_opt;

	o->local_mru = o->req_mru ? o->want_mru : LCP_DEFAULT_MRU;
	o->peer_mru = o->peer_req_mru < p->cfg.mru ? o->peer_req_mru : p->cfg.mru;
	o->auth = p->cfg.role == PPP_ROLE_SERVER ? o->want_auth : o->peer_req_auth;
	o->echo_pending = 0;
	o->data_seen = false;
	o->echo_deadline =
		p->cfg.echo_interval_ms ? f->now_ms + p->cfg.echo_interval_ms : UINT64_MAX;
	ppp_lcp_up(p);
}

static void lcp_down(struct fsm *f)
{
	struct ppp *p = ppp_of(f);

	p->lcp_opt.echo_deadline = UINT64_MAX;
	ppp_lcp_down(p);
}

static void lcp_finished(struct fsm *f)
{
	ppp_lcp_finished(ppp_of(f));
}

static void lcp_rx_echo(struct fsm *f, uint8_t code, uint8_t id, const uint8_t *data, size_t len)
{
	struct ppp *p = ppp_of(f);
	struct lcp_options *o = &p->lcp_opt;
	uint8_t reply[FSM_MAX_PACKET];
	uint32_t magic = get_be32(data);

	if (code == LCP_DISCARD_REQ)
		return;
	if (o->magic && magic == o->magic) {
		ppp_request_close(p, PPP_DOWN_LOOPBACK);
		return;
	}
	if (code == LCP_ECHO_REPLY) {
		o->echo_pending = 0;
		o->echo_replies++;
		return;
	}
	if (len > sizeof(reply))
		len = sizeof(reply);
	memcpy(reply, data, len);
	put_be32(reply, o->magic);
	fsm_send_reply(f, LCP_ECHO_REPLY, id, reply, len);
}

static bool lcp_rx_protocol_reject(struct fsm *f, uint16_t proto)
{
	return ppp_protocol_rejected(ppp_of(f), proto);
}

const struct fsm_ops lcp_ops = {
	.reset = lcp_reset,
	.build_request = lcp_build_request,
	.request_begin = lcp_request_begin,
	.request_option = lcp_request_option,
	.nak_option = lcp_nak_option,
	.reject_option = lcp_reject_option,
	.up = lcp_up,
	.down = lcp_down,
	.finished = lcp_finished,
	.rx_echo = lcp_rx_echo,
	.rx_protocol_reject = lcp_rx_protocol_reject,
};

uint64_t lcp_echo_deadline(const struct ppp *p)
{
	return p->lcp.state == FSM_OPENED ? p->lcp_opt.echo_deadline : UINT64_MAX;
}

void lcp_echo_timer(struct ppp *p, uint64_t now_ms)
{
	struct lcp_options *o = &p->lcp_opt;
	uint32_t max_failures =
		p->cfg.echo_max_failures ? p->cfg.echo_max_failures : LCP_DEFAULT_ECHO_FAILURES;
	uint8_t magic[4];

	if (now_ms < lcp_echo_deadline(p))
		return;
	o->echo_deadline = now_ms + p->cfg.echo_interval_ms;
	/* Traffic from the peer proves the link as well as a reply would. */
	if (p->cfg.echo_adaptive && o->data_seen) {
		o->data_seen = false;
		o->echo_pending = 0;
		return;
	}
	if (o->echo_pending) {
		o->echo_missed++;
		if (o->echo_pending >= max_failures) {
			ppp_request_close(p, PPP_DOWN_ECHO_TIMEOUT);
			return;
		}
	}
	put_be32(magic, o->magic);
	fsm_send_packet(&p->lcp, LCP_ECHO_REQ, magic, sizeof(magic));
	o->echo_pending++;
	o->echo_sent++;
}

void lcp_send_protocol_reject(struct ppp *p, uint16_t proto, const uint8_t *data, size_t len)
{
	uint8_t buf[FSM_MAX_PACKET];

	if (len > sizeof(buf) - 2)
		len = sizeof(buf) - 2;
	put_be16(buf, proto);
	if (len)
		memcpy(buf + 2, data, len);
	/* fsm_send_reply truncates the rejected information to the peer's MRU. */
	fsm_send_packet(&p->lcp, LCP_PROTO_REJ, buf, len + 2);
}
