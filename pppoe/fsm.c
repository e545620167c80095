// SPDX-License-Identifier: GPL-2.0
/*
 * The RFC 1661 automaton. Each event handler below is one row of the state transition
 * table of section 4.1; the cells marked "-" (cannot happen) are ignored and counted.
 * The optional restart ("r") and passive ("p") behaviours are not implemented.
 */
#include "fsm.h"
#include "pxp_bytes.h"

#include <errno.h>
#include <string.h>

#define DEFAULT_RESTART_MS    3000
#define DEFAULT_MAX_CONFIGURE 10
#define DEFAULT_MAX_TERMINATE 2
#define DEFAULT_MAX_FAILURE   5

static const char *const state_names[FSM_STATE_COUNT] = {
	[FSM_INITIAL] = "Initial",   [FSM_STARTING] = "Starting", [FSM_CLOSED] = "Closed",
	[FSM_STOPPED] = "Stopped",   [FSM_CLOSING] = "Closing",	  [FSM_STOPPING] = "Stopping",
	[FSM_REQ_SENT] = "Req-Sent", [FSM_ACK_RCVD] = "Ack-Rcvd", [FSM_ACK_SENT] = "Ack-Sent",
	[FSM_OPENED] = "Opened",
};

const char *fsm_state_name(enum fsm_state s)
{
	if ((unsigned int)s >= FSM_STATE_COUNT)
		return "unknown";
	return state_names[s];
}

static const char *const drop_names[FSM_DROP_COUNT] = {
	[FSM_DROP_HEADER] = "header",
	[FSM_DROP_OPTIONS] = "options",
	[FSM_DROP_FIELD] = "field",
	[FSM_DROP_ACK_MISMATCH] = "ack-mismatch",
	[FSM_DROP_REJECT_FOREIGN] = "reject-foreign",
	[FSM_DROP_STALE_ID] = "stale-id",
	[FSM_DROP_STATE] = "state",
	[FSM_DROP_UNKNOWN_CODE] = "unknown-code",
};

const char *fsm_drop_name(enum fsm_drop d)
{
	if ((unsigned int)d >= FSM_DROP_COUNT)
		return "unknown";
	return drop_names[d];
}

uint64_t fsm_malformed(const struct fsm *f)
{
	uint64_t n = 0;

	for (int d = 0; d <= FSM_DROP_LAST_MALFORMED; d++)
		n += f->drops[d];
	return n;
}

uint64_t fsm_ignored(const struct fsm *f)
{
	uint64_t n = 0;

	for (int d = FSM_DROP_LAST_MALFORMED + 1; d < FSM_DROP_COUNT; d++)
		n += f->drops[d];
	return n;
}

int fsm_init(struct fsm *f, const struct fsm_config *cfg)
{
	if (!cfg->ops || !cfg->send || !cfg->ops->build_request || !cfg->ops->request_option)
		return -EINVAL;
	memset(f, 0, sizeof(*f));
	f->proto = cfg->proto;
	f->name = cfg->name;
	f->ops = cfg->ops;
	f->ctx = cfg->ctx;
	f->send = cfg->send;
	f->restart_ms = cfg->restart_ms ? cfg->restart_ms : DEFAULT_RESTART_MS;
	f->max_configure = cfg->max_configure ? cfg->max_configure : DEFAULT_MAX_CONFIGURE;
	f->max_terminate = cfg->max_terminate ? cfg->max_terminate : DEFAULT_MAX_TERMINATE;
	f->max_failure = cfg->max_failure ? cfg->max_failure : DEFAULT_MAX_FAILURE;
	f->peer_mru = FSM_MAX_PACKET;
	fsm_reset(f);
	return 0;
}

void fsm_reset(struct fsm *f)
{
	f->state = FSM_INITIAL;
	f->cause = FSM_CAUSE_NONE;
	f->deadline = UINT64_MAX;
	f->restart_count = 0;
	f->naks_sent = 0;
	f->naks_received = 0;
	f->req_len = 0;
}

static bool timer_runs_in(enum fsm_state s)
{
	return s == FSM_CLOSING || s == FSM_STOPPING || s == FSM_REQ_SENT || s == FSM_ACK_RCVD ||
	       s == FSM_ACK_SENT;
}

static void set_state(struct fsm *f, enum fsm_state s)
{
	f->state = s;
	if (!timer_runs_in(s))
		f->deadline = UINT64_MAX;
}

void fsm_send_reply(struct fsm *f, uint8_t code, uint8_t id, const uint8_t *data, size_t len)
{
	uint8_t pkt[FSM_MAX_PACKET];
	size_t cap = f->peer_mru < sizeof(pkt) ? f->peer_mru : sizeof(pkt);

	/* Only rejects echo peer data back; they are truncated to what the peer takes. */
	if (len > cap - FSM_HDR_LEN)
		len = cap - FSM_HDR_LEN;
	pkt[0] = code;
	pkt[1] = id;
	put_be16(pkt + 2, (uint16_t)(len + FSM_HDR_LEN));
	if (len)
		memcpy(pkt + FSM_HDR_LEN, data, len);
	f->send(f->ctx, f->proto, pkt, len + FSM_HDR_LEN);
}

uint8_t fsm_send_packet(struct fsm *f, uint8_t code, const uint8_t *data, size_t len)
{
	uint8_t id = f->next_id++;

	fsm_send_reply(f, code, id, data, len);
	return id;
}

/* ---- actions (RFC 1661 section 4.4) ---- */

static void tlu(struct fsm *f)
{
	if (f->ops->up)
		f->ops->up(f);
}

static void tld(struct fsm *f)
{
	if (f->ops->down)
		f->ops->down(f);
}

static void tls(struct fsm *f)
{
	if (f->ops->started)
		f->ops->started(f);
}

static void tlf(struct fsm *f)
{
	if (f->ops->finished)
		f->ops->finished(f);
}

static void irc_configure(struct fsm *f)
{
	f->restart_count = f->max_configure;
}

static void irc_terminate(struct fsm *f)
{
	f->restart_count = f->max_terminate;
}

static void zrc(struct fsm *f)
{
	f->restart_count = 0;
	f->deadline = f->now_ms + f->restart_ms;
}

static void start_timer(struct fsm *f)
{
	if (f->restart_count)
		f->restart_count--;
	f->deadline = f->now_ms + f->restart_ms;
}

/* A negotiation starts from a state where none ran: the protocol forgets old results. */
static void begin_negotiation(struct fsm *f)
{
	f->peer_silent = true;
	f->answer_due = false;
	f->naks_sent = 0;
	f->naks_received = 0;
	if (f->ops->reset)
		f->ops->reset(f);
}

static void scr(struct fsm *f)
{
	f->req_len = f->ops->build_request(f, f->req, sizeof(f->req));
	/* A fresh identifier each time: a late reply to an older request is discarded. */
	f->req_id = fsm_send_packet(f, FSM_CONF_REQ, f->req, f->req_len);
	f->answer_due = false;
	start_timer(f);
}

static void str(struct fsm *f)
{
	const char *text = f->term_text ? f->term_text : "";

	fsm_send_packet(f, FSM_TERM_REQ, (const uint8_t *)text, strlen(text));
	start_timer(f);
}

static void sta(struct fsm *f, uint8_t id)
{
	fsm_send_reply(f, FSM_TERM_ACK, id, NULL, 0);
}

static void scj(struct fsm *f, const uint8_t *pkt, size_t len)
{
	fsm_send_packet(f, FSM_CODE_REJ, pkt, len);
}

static void finish(struct fsm *f, enum fsm_state next, enum fsm_cause cause)
{
	if (f->cause == FSM_CAUSE_NONE)
		f->cause = cause;
	set_state(f, next);
	tlf(f);
}

/* ---- administrative and lower-layer events ---- */

void fsm_up(struct fsm *f, uint64_t now_ms)
{
	f->now_ms = now_ms;
	switch (f->state) {
	case FSM_INITIAL:
		set_state(f, FSM_CLOSED);
		break;
	case FSM_STARTING:
		begin_negotiation(f);
		irc_configure(f);
		scr(f);
		set_state(f, FSM_REQ_SENT);
		break;
	default:
		f->drops[FSM_DROP_STATE]++;
		break;
	}
}

void fsm_down(struct fsm *f, uint64_t now_ms)
{
	f->now_ms = now_ms;
	switch (f->state) {
	case FSM_CLOSED:
	case FSM_CLOSING:
		set_state(f, FSM_INITIAL);
		break;
	case FSM_STOPPED:
		set_state(f, FSM_STARTING);
		tls(f);
		break;
	case FSM_STOPPING:
	case FSM_REQ_SENT:
	case FSM_ACK_RCVD:
	case FSM_ACK_SENT:
		set_state(f, FSM_STARTING);
		break;
	case FSM_OPENED:
		tld(f);
		set_state(f, FSM_STARTING);
		break;
	default:
		f->drops[FSM_DROP_STATE]++;
		break;
	}
}

void fsm_open(struct fsm *f, uint64_t now_ms)
{
	f->now_ms = now_ms;
	f->cause = FSM_CAUSE_NONE;
	switch (f->state) {
	case FSM_INITIAL:
		set_state(f, FSM_STARTING);
		tls(f);
		break;
	case FSM_CLOSED:
		begin_negotiation(f);
		irc_configure(f);
		scr(f);
		set_state(f, FSM_REQ_SENT);
		break;
	case FSM_CLOSING:
		set_state(f, FSM_STOPPING);
		break;
	default: /* Starting, Stopped, Stopping, Req-Sent ... Opened: no change */
		break;
	}
}

void fsm_close(struct fsm *f, uint64_t now_ms)
{
	f->now_ms = now_ms;
	switch (f->state) {
	case FSM_STARTING:
		set_state(f, FSM_INITIAL);
		tlf(f);
		break;
	case FSM_STOPPED:
		set_state(f, FSM_CLOSED);
		break;
	case FSM_STOPPING:
		set_state(f, FSM_CLOSING);
		break;
	case FSM_OPENED:
		tld(f);
		/* fall through */
	case FSM_REQ_SENT:
	case FSM_ACK_RCVD:
	case FSM_ACK_SENT:
		irc_terminate(f);
		str(f);
		set_state(f, FSM_CLOSING);
		break;
	default: /* Initial, Closed, Closing: no change */
		break;
	}
}

void fsm_timer(struct fsm *f, uint64_t now_ms)
{
	if (!timer_runs_in(f->state) || now_ms < f->deadline)
		return;
	f->now_ms = now_ms;
	f->deadline = UINT64_MAX;
	if (f->restart_count > 0) { /* TO+ */
		switch (f->state) {
		case FSM_CLOSING:
		case FSM_STOPPING:
			str(f);
			break;
		case FSM_REQ_SENT:
		case FSM_ACK_RCVD:
			scr(f);
			set_state(f, FSM_REQ_SENT);
			break;
		case FSM_ACK_SENT:
			scr(f);
			break;
		default:
			break;
		}
		return;
	}
	switch (f->state) { /* TO- */
	case FSM_CLOSING:
		finish(f, FSM_CLOSED, FSM_CAUSE_TIMEOUT);
		break;
	default: /* Stopping, Req-Sent, Ack-Rcvd, Ack-Sent */
		finish(f, FSM_STOPPED, FSM_CAUSE_TIMEOUT);
		break;
	}
}

uint64_t fsm_deadline(const struct fsm *f)
{
	return f->deadline;
}

void fsm_rxj(struct fsm *f, uint64_t now_ms, bool catastrophic)
{
	f->now_ms = now_ms;
	if (f->state == FSM_INITIAL || f->state == FSM_STARTING) {
		f->drops[FSM_DROP_STATE]++;
		return;
	}
	if (!catastrophic) { /* RXJ+: only Ack-Rcvd moves (its Ack is void) */
		if (f->state == FSM_ACK_RCVD)
			set_state(f, FSM_REQ_SENT);
		return;
	}
	switch (f->state) {
	case FSM_CLOSED:
	case FSM_CLOSING:
		finish(f, FSM_CLOSED, FSM_CAUSE_REJECTED);
		break;
	case FSM_OPENED:
		if (f->cause == FSM_CAUSE_NONE)
			f->cause = FSM_CAUSE_REJECTED;
		tld(f);
		irc_terminate(f);
		str(f);
		set_state(f, FSM_STOPPING);
		break;
	default: /* Stopped, Stopping, Req-Sent, Ack-Rcvd, Ack-Sent */
		finish(f, FSM_STOPPED, FSM_CAUSE_REJECTED);
		break;
	}
}

/* ---- receive events ---- */

/* Walks an option list; returns false if any option overruns it or is shorter than 2. */
static bool options_well_formed(const uint8_t *opts, size_t len)
{
	size_t off = 0;

	while (off < len) {
		if (len - off < 2 || opts[off + 1] < 2 || opts[off + 1] > len - off)
			return false;
		off += opts[off + 1];
	}
	return true;
}

static void append_option(uint8_t *buf, size_t *len, bool *overflow, uint8_t type,
			  const uint8_t *val, size_t vlen)
{
	if (vlen > 253 || *len + 2 + vlen > FSM_MAX_PACKET - FSM_HDR_LEN) {
		*overflow = true;
		return;
	}
	buf[*len] = type;
	buf[*len + 1] = (uint8_t)(vlen + 2);
	if (vlen)
		memcpy(buf + *len + 2, val, vlen);
	*len += 2 + vlen;
}

void fsm_nak_missing(struct fsm *f, uint8_t type, const uint8_t *val, size_t len)
{
	/* Past Max-Failure we stop asking: the peer cannot reject what it did not send. */
	if (!f->nak_buf || f->naks_sent >= f->max_failure)
		return;
	append_option(f->nak_buf, &f->nak_len, &f->nak_overflow, type, val, len);
}

/*
 * Judges the peer's well-formed Configure-Request and builds the reply into out. Returns
 * the reply code (Ack, Nak or Reject) or -EMSGSIZE when the reply would not fit.
 */
static int judge_request(struct fsm *f, const uint8_t *opts, size_t len, uint8_t *out,
			 size_t *out_len)
{
	uint8_t rej[FSM_MAX_PACKET], nak_val[256];
	size_t rej_len = 0, off = 0;
	bool rej_overflow = false;
	bool nak_to_rej = f->naks_sent >= f->max_failure;
	int code;

	f->nak_buf = out;
	f->nak_len = 0;
	f->nak_overflow = false;
	if (f->ops->request_begin)
		f->ops->request_begin(f);
	while (off < len) {
		uint8_t type = opts[off], olen = opts[off + 1];
		size_t nak_len = 0;
		enum fsm_verdict v;

		v = f->ops->request_option(f, type, opts + off + 2, olen - 2u, nak_val, &nak_len);
		if (v == FSM_NAK && (nak_to_rej || nak_len > 253))
			v = FSM_REJ;
		if (v == FSM_REJ)
			append_option(rej, &rej_len, &rej_overflow, type, opts + off + 2,
				      olen - 2u);
		else if (v == FSM_NAK)
			append_option(out, &f->nak_len, &f->nak_overflow, type, nak_val, nak_len);
		off += olen;
	}
	if (f->ops->request_end)
		f->ops->request_end(f);
	f->nak_buf = NULL;
	if (rej_overflow || f->nak_overflow)
		return -EMSGSIZE;
	if (rej_len) {
		memcpy(out, rej, rej_len);
		*out_len = rej_len;
		code = FSM_CONF_REJ;
	} else if (f->nak_len) {
		*out_len = f->nak_len;
		code = FSM_CONF_NAK;
	} else {
		memcpy(out, opts, len);
		*out_len = len;
		code = FSM_CONF_ACK;
	}
	return code;
}

static void send_judgement(struct fsm *f, int code, uint8_t id, const uint8_t *opts, size_t len)
{
	if (code == FSM_CONF_ACK)
		f->naks_sent = 0;
	else
		f->naks_sent++;
	fsm_send_reply(f, (uint8_t)code, id, opts, len);
}

static void rx_conf_req(struct fsm *f, uint8_t id, const uint8_t *opts, size_t len)
{
	uint8_t reply[FSM_MAX_PACKET];
	size_t reply_len = 0;
	bool cut_timer;
	int code;

	switch (f->state) {
	case FSM_CLOSED:
		sta(f, id);
		return;
	case FSM_CLOSING:
	case FSM_STOPPING:
		f->drops[FSM_DROP_STATE]++;
		return;
	default:
		break;
	}
	if (!options_well_formed(opts, len)) {
		f->drops[FSM_DROP_OPTIONS]++;
		return;
	}
	switch (f->state) {
	case FSM_STOPPED: /* the peer starts a negotiation: irc, scr, then judge */
		begin_negotiation(f);
		irc_configure(f);
		break;
	case FSM_OPENED: /* renegotiation: tld, scr, then judge */
		tld(f);
		begin_negotiation(f);
		break;
	default:
		break;
	}
	cut_timer = f->state == FSM_REQ_SENT && f->peer_silent;
	f->peer_silent = false;
	code = judge_request(f, opts, len, reply, &reply_len);
	if (code < 0) {
		/* A reply that would not fit: refuse every option instead. */
		memcpy(reply, opts, len);
		reply_len = len;
		code = FSM_CONF_REJ;
	}
	if (f->state == FSM_STOPPED || f->state == FSM_OPENED)
		scr(f);
	else if (cut_timer && f->deadline > f->now_ms + FSM_PEER_ANSWER_MS) {
		f->deadline = f->now_ms + FSM_PEER_ANSWER_MS;
		f->answer_due = true;
	}
	send_judgement(f, code, id, reply, reply_len);
	if (code == FSM_CONF_ACK) { /* RCR+ */
		switch (f->state) {
		case FSM_ACK_RCVD:
			set_state(f, FSM_OPENED);
			tlu(f);
			break;
		default: /* Stopped, Req-Sent, Ack-Sent, Opened */
			set_state(f, FSM_ACK_SENT);
			break;
		}
	} else { /* RCR- */
		switch (f->state) {
		case FSM_ACK_RCVD:
			break;
		default: /* Stopped, Req-Sent, Ack-Sent, Opened */
			set_state(f, FSM_REQ_SENT);
			break;
		}
	}
}

/* Bounds the Nak/Reject ping-pong: past this many without an Ack we give up. */
static bool too_many_naks(const struct fsm *f)
{
	return f->naks_received > f->max_configure + f->max_failure;
}

static void not_converging(struct fsm *f)
{
	f->cause = FSM_CAUSE_NOT_CONVERGING;
	fsm_close(f, f->now_ms);
}

/* Checks that every rejected option is one we sent, verbatim (RFC 1661 5.4). */
static bool reject_matches_request(const struct fsm *f, const uint8_t *opts, size_t len)
{
	size_t off = 0, roff = 0;

	while (off < len) {
		uint8_t olen = opts[off + 1];
		bool found = false;

		/* Rejected options keep the order of our request. */
		while (roff + 2 <= f->req_len) {
			uint8_t rlen = f->req[roff + 1];

			if (rlen == olen && !memcmp(f->req + roff, opts + off, olen))
				found = true;
			roff += rlen;
			if (found)
				break;
		}
		if (!found)
			return false;
		off += olen;
	}
	return true;
}

/* Applies a valid Nak or Reject to our next request; returns 0 or -EPROTO. */
static int apply_nak_or_reject(struct fsm *f, uint8_t code, const uint8_t *opts, size_t len)
{
	size_t off = 0;
	int err = 0;

	while (off < len && !err) {
		uint8_t type = opts[off], olen = opts[off + 1];

		if (code == FSM_CONF_REJ)
			err = f->ops->reject_option ? f->ops->reject_option(f, type) : -EPROTO;
		else if (f->ops->nak_option)
			err = f->ops->nak_option(f, type, opts + off + 2, olen - 2u);
		off += olen;
	}
	return err;
}

/*
 * A Configure-Ack, -Nak or -Reject: in Closed and Stopped the RFC answers Terminate-Ack, in
 * Closing and Stopping it is ignored, and elsewhere it must carry our request's identifier.
 * True when it answers the request we have outstanding. Any answer shows the peer listens.
 */
static bool answers_our_request(struct fsm *f, uint8_t id)
{
	f->peer_silent = false;
	switch (f->state) {
	case FSM_CLOSED:
	case FSM_STOPPED:
		sta(f, id);
		return false;
	case FSM_CLOSING:
	case FSM_STOPPING:
		f->drops[FSM_DROP_STATE]++;
		return false;
	default:
		break;
	}
	if (id != f->req_id) {
		f->drops[FSM_DROP_STALE_ID]++;
		return false;
	}
	if (f->answer_due) { /* it heard ours after all: the restart timer as the RFC has it */
		f->answer_due = false;
		f->deadline = f->now_ms + f->restart_ms;
	}
	return true;
}

static void rx_conf_ack(struct fsm *f, uint8_t id, const uint8_t *opts, size_t len)
{
	if (!answers_our_request(f, id))
		return;
	if (len != f->req_len || memcmp(opts, f->req, len)) {
		f->drops[FSM_DROP_ACK_MISMATCH]++;
		return;
	}
	f->naks_received = 0;
	switch (f->state) {
	case FSM_REQ_SENT:
		irc_configure(f);
		set_state(f, FSM_ACK_RCVD);
		break;
	case FSM_ACK_RCVD: /* crossed connection */
		scr(f);
		set_state(f, FSM_REQ_SENT);
		break;
	case FSM_ACK_SENT:
		irc_configure(f);
		set_state(f, FSM_OPENED);
		tlu(f);
		break;
	case FSM_OPENED:
		tld(f);
		begin_negotiation(f);
		scr(f);
		set_state(f, FSM_REQ_SENT);
		break;
	default:
		break;
	}
}

static void rx_conf_nak(struct fsm *f, uint8_t code, uint8_t id, const uint8_t *opts, size_t len)
{
	int err;

	if (!answers_our_request(f, id))
		return;
	if (!options_well_formed(opts, len)) {
		f->drops[FSM_DROP_OPTIONS]++;
		return;
	}
	if (code == FSM_CONF_REJ && !reject_matches_request(f, opts, len)) {
		f->drops[FSM_DROP_REJECT_FOREIGN]++;
		return;
	}
	if (f->state == FSM_OPENED) {
		tld(f);
		begin_negotiation(f);
	}
	err = apply_nak_or_reject(f, code, opts, len);
	f->naks_received++;
	if (err || too_many_naks(f)) {
		if (f->state == FSM_OPENED)
			set_state(f, FSM_REQ_SENT);
		not_converging(f);
		return;
	}
	switch (f->state) {
	case FSM_REQ_SENT:
		irc_configure(f);
		scr(f);
		break;
	case FSM_ACK_RCVD: /* crossed connection */
	case FSM_OPENED:
		scr(f);
		set_state(f, FSM_REQ_SENT);
		break;
	case FSM_ACK_SENT:
		irc_configure(f);
		scr(f);
		break;
	default:
		break;
	}
}

static void rx_term_req(struct fsm *f, uint8_t id)
{
	switch (f->state) {
	case FSM_ACK_RCVD:
	case FSM_ACK_SENT:
		sta(f, id);
		set_state(f, FSM_REQ_SENT);
		break;
	case FSM_OPENED:
		if (f->cause == FSM_CAUSE_NONE)
			f->cause = FSM_CAUSE_PEER_TERMINATE;
		tld(f);
		zrc(f);
		sta(f, id);
		set_state(f, FSM_STOPPING);
		break;
	default: /* Closed, Stopped, Closing, Stopping, Req-Sent: stay */
		sta(f, id);
		break;
	}
}

static void rx_term_ack(struct fsm *f)
{
	switch (f->state) {
	case FSM_CLOSING:
		finish(f, FSM_CLOSED, FSM_CAUSE_NONE);
		break;
	case FSM_STOPPING:
		finish(f, FSM_STOPPED, FSM_CAUSE_NONE);
		break;
	case FSM_ACK_RCVD:
		set_state(f, FSM_REQ_SENT);
		break;
	case FSM_OPENED:
		tld(f);
		begin_negotiation(f);
		scr(f);
		set_state(f, FSM_REQ_SENT);
		break;
	default: /* Closed, Stopped, Req-Sent, Ack-Sent: stay */
		break;
	}
}

static void rx_code_reject(struct fsm *f, const uint8_t *data, size_t len)
{
	if (len < 1) {
		f->drops[FSM_DROP_FIELD]++;
		return;
	}
	/* Our Configure/Terminate/Code-Reject machinery is not optional (RXJ-). */
	fsm_rxj(f, f->now_ms, data[0] >= FSM_CONF_REQ && data[0] <= FSM_CODE_REJ);
}

static bool is_lcp(const struct fsm *f)
{
	return f->ops->rx_echo != NULL;
}

void fsm_input(struct fsm *f, uint64_t now_ms, const uint8_t *pkt, size_t len)
{
	uint8_t code, id;
	uint16_t plen;
	const uint8_t *data;
	size_t dlen;

	f->now_ms = now_ms;
	if (len < FSM_HDR_LEN) {
		f->drops[FSM_DROP_HEADER]++;
		return;
	}
	code = pkt[0];
	id = pkt[1];
	plen = get_be16(pkt + 2);
	/*
	 * Octets past Length are padding (RFC 1661 5); a Length past the data is corrupt.
	 * Control packets larger than our buffers have no legitimate use: dropped.
	 */
	if (plen < FSM_HDR_LEN || plen > len || plen > FSM_MAX_PACKET) {
		f->drops[FSM_DROP_HEADER]++;
		return;
	}
	data = pkt + FSM_HDR_LEN;
	dlen = plen - FSM_HDR_LEN;
	if (f->state == FSM_INITIAL || f->state == FSM_STARTING) {
		f->drops[FSM_DROP_STATE]++;
		return;
	}

	switch (code) {
	case FSM_CONF_REQ:
		rx_conf_req(f, id, data, dlen);
		break;
	case FSM_CONF_ACK:
		rx_conf_ack(f, id, data, dlen);
		break;
	case FSM_CONF_NAK:
	case FSM_CONF_REJ:
		rx_conf_nak(f, code, id, data, dlen);
		break;
	case FSM_TERM_REQ:
		rx_term_req(f, id);
		break;
	case FSM_TERM_ACK:
		rx_term_ack(f);
		break;
	case FSM_CODE_REJ:
		rx_code_reject(f, data, dlen);
		break;
	case LCP_PROTO_REJ:
		if (!is_lcp(f))
			goto unknown_code;
		if (dlen < 2) {
			f->drops[FSM_DROP_FIELD]++;
			break;
		}
		if (f->state != FSM_OPENED) {
			f->drops[FSM_DROP_STATE]++;
			break;
		}
		fsm_rxj(f, now_ms, f->ops->rx_protocol_reject(f, get_be16(data)));
		break;
	case LCP_ECHO_REQ:
	case LCP_ECHO_REPLY:
	case LCP_DISCARD_REQ:
		if (!is_lcp(f))
			goto unknown_code;
		if (dlen < 4) { /* Magic-Number field */
			f->drops[FSM_DROP_FIELD]++;
			break;
		}
		if (f->state != FSM_OPENED) { /* RXR: no action outside Opened */
			f->drops[FSM_DROP_STATE]++;
			break;
		}
		f->ops->rx_echo(f, code, id, data, dlen);
		break;
	default:
unknown_code: /* RUC: scj, every state stays */
		f->drops[FSM_DROP_UNKNOWN_CODE]++;
		scj(f, pkt, plen);
		break;
	}
}
