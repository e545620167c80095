// SPDX-License-Identifier: GPL-2.0
/*
 * The automaton against the state transition table of RFC 1661 section 4.1, cell by cell:
 * each of the 10 states x 16 events is set up, the event is injected as the real input
 * (a call or a packet), and the state after, the actions (callbacks and packets sent, in
 * order) and the restart counter (irc, zrc) are compared with the RFC's cell.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fsm.h"

/* The table as printed in RFC 1661 section 4.1 (both halves joined per row). */
static const char *const rfc_table[16][11] = {
	/* event   Initial  Starting     Closed       Stopped          Closing  Stopping
	 *         Req-Sent     Ack-Rcvd     Ack-Sent     Opened */
	{ "Up", "2", "irc,scr/6", "-", "-", "-", "-", "-", "-", "-", "-" },
	{ "Down", "-", "-", "0", "tls/1", "0", "1", "1", "1", "1", "tld/1" },
	{ "Open", "tls/1", "1", "irc,scr/6", "3r", "5r", "5r", "6", "7", "8", "9r" },
	{ "Close", "0", "tlf/0", "2", "2", "4", "4", "irc,str/4", "irc,str/4", "irc,str/4",
	  "tld,irc,str/4" },
	{ "TO+", "-", "-", "-", "-", "str/4", "str/5", "scr/6", "scr/6", "scr/8", "-" },
	{ "TO-", "-", "-", "-", "-", "tlf/2", "tlf/3", "tlf/3p", "tlf/3p", "tlf/3p", "-" },
	{ "RCR+", "-", "-", "sta/2", "irc,scr,sca/8", "4", "5", "sca/8", "sca,tlu/9", "sca/8",
	  "tld,scr,sca/8" },
	{ "RCR-", "-", "-", "sta/2", "irc,scr,scn/6", "4", "5", "scn/6", "scn/7", "scn/6",
	  "tld,scr,scn/6" },
	{ "RCA", "-", "-", "sta/2", "sta/3", "4", "5", "irc/7", "scr/6x", "irc,tlu/9",
	  "tld,scr/6x" },
	{ "RCN", "-", "-", "sta/2", "sta/3", "4", "5", "irc,scr/6", "scr/6x", "irc,scr/8",
	  "tld,scr/6x" },
	{ "RTR", "-", "-", "sta/2", "sta/3", "sta/4", "sta/5", "sta/6", "sta/6", "sta/6",
	  "tld,zrc,sta/5" },
	{ "RTA", "-", "-", "2", "3", "tlf/2", "tlf/3", "6", "6", "8", "tld,scr/6" },
	{ "RUC", "-", "-", "scj/2", "scj/3", "scj/4", "scj/5", "scj/6", "scj/7", "scj/8", "scj/9" },
	{ "RXJ+", "-", "-", "2", "3", "4", "5", "6", "6", "8", "9" },
	{ "RXJ-", "-", "-", "tlf/2", "tlf/3", "tlf/2", "tlf/3", "tlf/3", "tlf/3", "tlf/3",
	  "tld,irc,str/5" },
	{ "RXR", "-", "-", "2", "3", "4", "5", "6", "7", "8", "ser/9" },
};

#define MAX_CONFIGURE  10
#define MAX_TERMINATE  2
#define COUNTER_BEFORE 5 /* restart counter before each event, to see irc/zrc/scr */
#define OUR_REQ_ID     7

static struct fsm f;
static char actions[96];
static enum fsm_verdict verdict = FSM_ACK;

static void log_action(const char *a)
{
	if (actions[0])
		strcat(actions, ",");
	strcat(actions, a);
}

static void tp_send(void *ctx, uint16_t proto, const uint8_t *data, size_t len)
{
	static const char *const names[] = {
		[FSM_CONF_REQ] = "scr",	  [FSM_CONF_ACK] = "sca",    [FSM_CONF_NAK] = "scn",
		[FSM_CONF_REJ] = "scn",	  [FSM_TERM_REQ] = "str",    [FSM_TERM_ACK] = "sta",
		[FSM_CODE_REJ] = "scj",	  [LCP_PROTO_REJ] = "spj",   [LCP_ECHO_REQ] = "seq",
		[LCP_ECHO_REPLY] = "ser", [LCP_DISCARD_REQ] = "sdr",
	};

	(void)ctx;
	(void)proto;
	if (len < FSM_HDR_LEN || data[0] > LCP_DISCARD_REQ || !data[0])
		log_action("bad-packet");
	else
		log_action(names[data[0]]);
}

static size_t tp_build_request(struct fsm *fsm, uint8_t *buf, size_t cap)
{
	(void)fsm;
	(void)cap;
	buf[0] = 1;
	buf[1] = 3;
	buf[2] = 0x42;
	return 3;
}

static enum fsm_verdict tp_request_option(struct fsm *fsm, uint8_t type, const uint8_t *val,
					  size_t len, uint8_t *nak, size_t *nak_len)
{
	(void)fsm;
	(void)type;
	memcpy(nak, val, len);
	*nak_len = len;
	return verdict;
}

static int tp_nak_option(struct fsm *fsm, uint8_t type, const uint8_t *val, size_t len)
{
	(void)fsm;
	(void)type;
	(void)val;
	(void)len;
	return 0;
}

static int tp_reject_option(struct fsm *fsm, uint8_t type)
{
	(void)fsm;
	(void)type;
	return 0;
}

static void tp_up(struct fsm *fsm)
{
	(void)fsm;
	log_action("tlu");
}

static void tp_down(struct fsm *fsm)
{
	(void)fsm;
	log_action("tld");
}

static void tp_started(struct fsm *fsm)
{
	(void)fsm;
	log_action("tls");
}

static void tp_finished(struct fsm *fsm)
{
	(void)fsm;
	log_action("tlf");
}

static void tp_rx_echo(struct fsm *fsm, uint8_t code, uint8_t id, const uint8_t *data, size_t len)
{
	if (code == LCP_ECHO_REQ)
		fsm_send_reply(fsm, LCP_ECHO_REPLY, id, data, len);
}

static bool tp_rx_protocol_reject(struct fsm *fsm, uint16_t proto)
{
	(void)fsm;
	return proto == 0xc021;
}

static const struct fsm_ops tp_ops = {
	.build_request = tp_build_request,
	.request_option = tp_request_option,
	.nak_option = tp_nak_option,
	.reject_option = tp_reject_option,
	.up = tp_up,
	.down = tp_down,
	.started = tp_started,
	.finished = tp_finished,
	.rx_echo = tp_rx_echo,
	.rx_protocol_reject = tp_rx_protocol_reject,
};

static void setup(enum fsm_state s)
{
	struct fsm_config cfg = {
		.proto = 0xc021,
		.name = "test",
		.ops = &tp_ops,
		.send = tp_send,
		.max_configure = MAX_CONFIGURE,
		.max_terminate = MAX_TERMINATE,
	};

	fsm_init(&f, &cfg);
	f.state = s;
	f.restart_count = COUNTER_BEFORE;
	f.req_len = tp_build_request(&f, f.req, sizeof(f.req));
	f.req_id = OUR_REQ_ID;
	f.next_id = 100;
	if (s == FSM_CLOSING || s == FSM_STOPPING || s == FSM_REQ_SENT || s == FSM_ACK_RCVD ||
	    s == FSM_ACK_SENT)
		f.deadline = 5000;
	actions[0] = '\0';
}

static void inject(uint8_t code, uint8_t id, const uint8_t *data, size_t len)
{
	uint8_t pkt[64];

	pkt[0] = code;
	pkt[1] = id;
	pkt[2] = 0;
	pkt[3] = (uint8_t)(len + 4);
	if (len)
		memcpy(pkt + 4, data, len);
	fsm_input(&f, 2000, pkt, len + 4);
}

static void fire(int event)
{
	static const uint8_t our_opts[] = { 1, 3, 0x42 };
	static const uint8_t magic[] = { 1, 2, 3, 4 };
	static const uint8_t rejected_echo[] = { LCP_ECHO_REQ, 1, 0, 8, 1, 2, 3, 4 };
	static const uint8_t rejected_req[] = { FSM_CONF_REQ, 1, 0, 4 };

	switch (event) {
	case 0:
		fsm_up(&f, 2000);
		break;
	case 1:
		fsm_down(&f, 2000);
		break;
	case 2:
		fsm_open(&f, 2000);
		break;
	case 3:
		fsm_close(&f, 2000);
		break;
	case 4: /* TO+ */
		fsm_timer(&f, 5000);
		break;
	case 5: /* TO- (the counter was zeroed by check_cell) */
		fsm_timer(&f, 5000);
		break;
	case 6: /* RCR+ */
		verdict = FSM_ACK;
		inject(FSM_CONF_REQ, 3, our_opts, sizeof(our_opts));
		break;
	case 7: /* RCR- */
		verdict = FSM_NAK;
		inject(FSM_CONF_REQ, 3, our_opts, sizeof(our_opts));
		break;
	case 8:
		inject(FSM_CONF_ACK, OUR_REQ_ID, our_opts, sizeof(our_opts));
		break;
	case 9:
		inject(FSM_CONF_NAK, OUR_REQ_ID, our_opts, sizeof(our_opts));
		break;
	case 10:
		inject(FSM_TERM_REQ, 4, NULL, 0);
		break;
	case 11:
		inject(FSM_TERM_ACK, 4, NULL, 0);
		break;
	case 12:
		inject(0x55, 4, NULL, 0);
		break;
	case 13: /* RXJ+: Code-Reject of an Echo-Request */
		inject(FSM_CODE_REJ, 4, rejected_echo, sizeof(rejected_echo));
		break;
	case 14: /* RXJ-: Code-Reject of a Configure-Request */
		inject(FSM_CODE_REJ, 4, rejected_req, sizeof(rejected_req));
		break;
	case 15:
		inject(LCP_ECHO_REQ, 4, magic, sizeof(magic));
		break;
	}
}

/* Checks one cell; returns NULL or a description of the difference. */
static const char *check_cell(int event, int state, char *why, size_t cap)
{
	char spec[64], want[64] = "", *slash, *tok, *save;
	long next;
	bool irc = false, zrc = false, sends = false;
	uint32_t want_count, before;

	snprintf(spec, sizeof(spec), "%s", rfc_table[event][state + 1]);
	setup((enum fsm_state)state);
	if (event == 5)
		f.restart_count = 0;
	before = f.restart_count;
	fire(event);
	if (!strcmp(spec, "-")) {
		/* Cannot happen: must change nothing and do nothing. */
		if (f.state != (enum fsm_state)state || actions[0] || f.restart_count != before) {
			snprintf(why, cap, "illegal event acted: state %d actions '%s'", f.state,
				 actions);
			return why;
		}
		return NULL;
	}
	slash = strchr(spec, '/');
	if (slash) {
		*slash = '\0';
		for (tok = strtok_r(spec, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if (!strcmp(tok, "irc")) {
				irc = true;
				continue;
			}
			if (!strcmp(tok, "zrc")) {
				zrc = true;
				continue;
			}
			if (!strcmp(tok, "scr") || !strcmp(tok, "str"))
				sends = true;
			if (want[0])
				strcat(want, ",");
			strcat(want, tok);
		}
		next = strtol(slash + 1, NULL, 10);
	} else {
		next = strtol(spec, NULL, 10);
	}
	if (f.state != next) {
		snprintf(why, cap, "state %s, want %s", fsm_state_name(f.state),
			 fsm_state_name((enum fsm_state)next));
		return why;
	}
	if (strcmp(actions, want)) {
		snprintf(why, cap, "actions '%s', want '%s'", actions, want);
		return why;
	}
	if (zrc)
		want_count = 0;
	else if (irc && strstr(want, "str"))
		want_count = MAX_TERMINATE - 1;
	else if (irc)
		want_count = MAX_CONFIGURE - (sends ? 1 : 0);
	else
		want_count = before - (sends ? 1 : 0);
	if (f.restart_count != want_count) {
		snprintf(why, cap, "restart counter %u, want %u", f.restart_count, want_count);
		return why;
	}
	/* The restart timer runs exactly in the states that need it (RFC 1661 4.6). */
	if ((f.deadline != UINT64_MAX) != (next == FSM_CLOSING || next == FSM_STOPPING ||
					   next == FSM_REQ_SENT || next == FSM_ACK_RCVD ||
					   next == FSM_ACK_SENT)) {
		snprintf(why, cap, "timer %s in %s", f.deadline == UINT64_MAX ? "off" : "on",
			 fsm_state_name(f.state));
		return why;
	}
	return NULL;
}

TEST(rfc1661_state_table)
{
	char why[400];
	int failures = 0, cells = 0;

	for (int event = 0; event < 16; event++) {
		for (int state = 0; state < FSM_STATE_COUNT; state++) {
			const char *err = check_cell(event, state, why, sizeof(why));

			cells++;
			if (err) {
				printf("# %s in %s: %s\n", rfc_table[event][0],
				       fsm_state_name((enum fsm_state)state), err);
				failures++;
			}
		}
	}
	CHECK_EQ(cells, 160);
	CHECK_EQ(failures, 0);
}

/* TO+ until the counter runs out, then TO-: Max-Configure requests in all. */
TEST(max_configure)
{
	int requests = 1;

	setup(FSM_STARTING);
	fsm_up(&f, 0);
	CHECK_EQ(f.state, FSM_REQ_SENT);
	for (uint64_t t = 0; f.state == FSM_REQ_SENT && requests < 100; requests++)
		fsm_timer(&f, t += 3000);
	CHECK_EQ(requests - 1, MAX_CONFIGURE);
	CHECK_EQ(f.state, FSM_STOPPED);
	CHECK_EQ(f.cause, FSM_CAUSE_TIMEOUT);
	CHECK(strstr(actions, "tlf") != NULL);
}

TEST(max_terminate)
{
	setup(FSM_OPENED);
	fsm_close(&f, 0);
	fsm_timer(&f, 3000);
	CHECK_EQ(f.state, FSM_CLOSING);
	fsm_timer(&f, 6000);
	CHECK_EQ(f.state, FSM_CLOSED);
	CHECK(!strcmp(actions, "tld,str,str,tlf"));
}

static uint8_t last_code;

static void code_send(void *ctx, uint16_t proto, const uint8_t *data, size_t len)
{
	(void)ctx;
	(void)proto;
	if (len)
		last_code = data[0];
}

/* Past Max-Failure Naks, a Nak becomes a Reject; an Ack resets the count. */
TEST(max_failure_sends_reject_code)
{
	static const uint8_t req[] = { FSM_CONF_REQ, 9, 0, 7, 1, 3, 0x43 };

	setup(FSM_REQ_SENT);
	f.send = code_send;
	verdict = FSM_NAK;
	for (int i = 0; i < 5; i++) {
		fsm_input(&f, 0, req, sizeof(req));
		CHECK_EQ(last_code, FSM_CONF_NAK);
	}
	fsm_input(&f, 0, req, sizeof(req));
	CHECK_EQ(last_code, FSM_CONF_REJ);
	verdict = FSM_ACK;
	fsm_input(&f, 0, req, sizeof(req));
	CHECK_EQ(last_code, FSM_CONF_ACK);
	CHECK_EQ(f.naks_sent, 0);
}

/* A peer that Naks forever cannot keep us negotiating forever. */
TEST(nak_loop_bounded)
{
	static const uint8_t nak[] = { 1, 3, 0x44 };
	int rounds = 0;

	setup(FSM_REQ_SENT);
	while (f.state == FSM_REQ_SENT && rounds < 1000) {
		inject(FSM_CONF_NAK, f.req_id, nak, sizeof(nak));
		rounds++;
	}
	CHECK(rounds < 100);
	CHECK_EQ(f.state, FSM_CLOSING);
	CHECK_EQ(f.cause, FSM_CAUSE_NOT_CONVERGING);
}

/*
 * Beyond RFC 1661: the peer's first Configure-Request in Req-Sent, before anything else
 * was heard from it, says the peer listens now, not whether it heard our first request
 * (pppd's kernel channel attaches after PADS and loses it). The restart timer is cut to
 * FSM_PEER_ANSWER_MS: a peer that does not answer ours by then gets it again, with a fresh
 * id, instead of after the restart timer.
 */
TEST(first_peer_request_resends_ours)
{
	static const uint8_t opts[] = { 1, 3, 0x42 };
	uint8_t first_id;

	setup(FSM_INITIAL);
	fsm_open(&f, 0);
	fsm_up(&f, 0);
	CHECK_EQ(f.state, FSM_REQ_SENT);
	first_id = f.req_id;
	actions[0] = '\0';
	verdict = FSM_ACK;
	inject(FSM_CONF_REQ, 7, opts, sizeof(opts)); /* at 2000 ms */
	CHECK(!strcmp(actions, "sca"));
	CHECK_EQ(f.state, FSM_ACK_SENT);
	CHECK_EQ(fsm_deadline(&f), 2000 + FSM_PEER_ANSWER_MS);
	fsm_timer(&f, 2000 + FSM_PEER_ANSWER_MS - 1);
	CHECK(!strcmp(actions, "sca"));
	fsm_timer(&f, 2000 + FSM_PEER_ANSWER_MS);
	CHECK(!strcmp(actions, "sca,scr"));
	CHECK(f.req_id != first_id);
	CHECK_EQ(fsm_deadline(&f), 2000 + FSM_PEER_ANSWER_MS + 3000);
	/* Only the first time: later requests are judged as the RFC says. */
	actions[0] = '\0';
	inject(FSM_CONF_REQ, 8, opts, sizeof(opts));
	CHECK(!strcmp(actions, "sca"));
	CHECK_EQ(fsm_deadline(&f), 2000 + FSM_PEER_ANSWER_MS + 3000);
}

/* A peer that heard our first request (our AC, BNG Blaster) answers it: nothing goes twice. */
TEST(first_peer_request_then_answer_no_resend)
{
	static const uint8_t opts[] = { 1, 3, 0x42 };

	setup(FSM_INITIAL);
	fsm_open(&f, 0);
	fsm_up(&f, 0);
	actions[0] = '\0';
	verdict = FSM_ACK;
	inject(FSM_CONF_REQ, 7, opts, sizeof(opts));
	inject(FSM_CONF_ACK, f.req_id, opts, sizeof(opts));
	CHECK(!strcmp(actions, "sca,tlu"));
	CHECK_EQ(f.state, FSM_OPENED);
	fsm_timer(&f, 2000 + FSM_PEER_ANSWER_MS);
	CHECK(!strcmp(actions, "sca,tlu"));

	/* The same when we Nak the peer's request: its Ack of ours brings back the RFC timer. */
	setup(FSM_INITIAL);
	fsm_open(&f, 0);
	fsm_up(&f, 0);
	actions[0] = '\0';
	verdict = FSM_NAK;
	inject(FSM_CONF_REQ, 7, opts, sizeof(opts));
	CHECK_EQ(f.state, FSM_REQ_SENT);
	inject(FSM_CONF_ACK, f.req_id, opts, sizeof(opts));
	CHECK_EQ(f.state, FSM_ACK_RCVD);
	CHECK(!strcmp(actions, "scn"));
	CHECK_EQ(fsm_deadline(&f), 2000 + 3000);
	fsm_timer(&f, 2000 + FSM_PEER_ANSWER_MS);
	CHECK(!strcmp(actions, "scn"));
	verdict = FSM_ACK;
}

TEST(stale_identifier_ignored)
{
	static const uint8_t opts[] = { 1, 3, 0x42 };

	setup(FSM_REQ_SENT);
	inject(FSM_CONF_ACK, OUR_REQ_ID + 1, opts, sizeof(opts));
	CHECK_EQ(f.state, FSM_REQ_SENT);
	CHECK_EQ(f.drops[FSM_DROP_STALE_ID], 1);
	inject(FSM_CONF_NAK, OUR_REQ_ID - 1, opts, sizeof(opts));
	CHECK_EQ(f.state, FSM_REQ_SENT);
	CHECK_EQ(f.drops[FSM_DROP_STALE_ID], 2);
	CHECK_EQ(fsm_ignored(&f), 2);
	CHECK_EQ(fsm_malformed(&f), 0);
	CHECK(!actions[0]);
}

TEST(ack_must_match_request)
{
	static const uint8_t other[] = { 1, 3, 0x41 };

	setup(FSM_REQ_SENT);
	inject(FSM_CONF_ACK, OUR_REQ_ID, other, sizeof(other));
	CHECK_EQ(f.state, FSM_REQ_SENT);
	CHECK_EQ(f.drops[FSM_DROP_ACK_MISMATCH], 1);
	CHECK_EQ(fsm_malformed(&f), 1);
}

TEST(reject_must_name_our_options)
{
	static const uint8_t foreign[] = { 2, 2 };

	setup(FSM_REQ_SENT);
	inject(FSM_CONF_REJ, OUR_REQ_ID, foreign, sizeof(foreign));
	CHECK_EQ(f.state, FSM_REQ_SENT);
	CHECK_EQ(f.drops[FSM_DROP_REJECT_FOREIGN], 1);
	CHECK(!actions[0]);
}

TEST(padding_after_length_ignored)
{
	static const uint8_t req[] = { FSM_CONF_REQ, 9, 0, 7, 1, 3, 0x43, 0xff, 0xff };

	setup(FSM_REQ_SENT);
	verdict = FSM_ACK;
	fsm_input(&f, 0, req, sizeof(req));
	CHECK_EQ(f.state, FSM_ACK_SENT);
	CHECK(!strcmp(actions, "sca"));
}

TEST(code_reject_truncated_to_peer_mru)
{
	uint8_t big[FSM_MAX_PACKET] = { 0x55, 1, FSM_MAX_PACKET >> 8, FSM_MAX_PACKET & 0xff };

	setup(FSM_OPENED);
	f.send = code_send;
	f.peer_mru = 600;
	fsm_input(&f, 0, big, sizeof(big));
	CHECK_EQ(last_code, FSM_CODE_REJ);
	CHECK_EQ(f.drops[FSM_DROP_UNKNOWN_CODE], 1);
	CHECK_EQ(f.state, FSM_OPENED);
}

/* Control packets past FSM_MAX_PACKET are dropped before any buffer sees them. */
TEST(oversized_packet_dropped)
{
	static uint8_t big[FSM_MAX_PACKET + 100];

	setup(FSM_REQ_SENT);
	big[0] = FSM_CONF_REQ;
	big[1] = 1;
	big[2] = sizeof(big) >> 8;
	big[3] = sizeof(big) & 0xff;
	for (size_t off = 4; off + 100 <= sizeof(big); off += 100) {
		big[off] = 13;
		big[off + 1] = 100;
	}
	fsm_input(&f, 0, big, sizeof(big));
	CHECK_EQ(f.drops[FSM_DROP_HEADER], 1);
	CHECK_EQ(f.state, FSM_REQ_SENT);
	CHECK(!actions[0]);
}

TEST(state_names)
{
	CHECK(!strcmp(fsm_state_name(FSM_ACK_RCVD), "Ack-Rcvd"));
	CHECK(!strcmp(fsm_state_name((enum fsm_state)99), "unknown"));
	CHECK(!strcmp(fsm_drop_name(FSM_DROP_STALE_ID), "stale-id"));
	CHECK(!strcmp(fsm_drop_name(FSM_DROP_COUNT), "unknown"));
	CHECK_EQ(fsm_init(&f, &(struct fsm_config){ 0 }), -EINVAL);
}

int main(void)
{
	check_prefix = "fsm";
	RUN(rfc1661_state_table);
	RUN(max_configure);
	RUN(max_terminate);
	RUN(max_failure_sends_reject_code);
	RUN(nak_loop_bounded);
	RUN(stale_identifier_ignored);
	RUN(first_peer_request_resends_ours);
	RUN(first_peer_request_then_answer_no_resend);
	RUN(ack_must_match_request);
	RUN(reject_must_name_our_options);
	RUN(padding_after_length_ignored);
	RUN(code_reject_truncated_to_peer_mru);
	RUN(oversized_packet_dropped);
	RUN(state_names);
	return check_summary();
}
