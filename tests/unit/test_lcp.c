// SPDX-License-Identifier: GPL-2.0
/* LCP options, keepalive and rejects, against a scripted peer. */
#include "check.h"
#include "ppp_harness.h"

static struct h_side s;

static const uint8_t magic_opt[] = { 5, 6, 0x11, 0x22, 0x33, 0x44 };

static void client(void)
{
	struct ppp_config c;

	h_client_config(&c, "s3cret");
	h_init(&s, &c, 42);
	h_now = 1000;
}

static void server(enum ppp_auth_proto auth)
{
	struct ppp_config c;

	h_server_config(&c, auth);
	h_init(&s, &c, 43);
	h_now = 1000;
}

/* Finds option type in an option list; returns its total length or 0. */
static size_t find_option(const uint8_t *opts, size_t len, uint8_t type, const uint8_t **opt)
{
	for (size_t off = 0; off + 2 <= len && opts[off + 1] >= 2; off += opts[off + 1]) {
		if (opts[off] == type) {
			*opt = opts + off;
			return opts[off + 1];
		}
	}
	return 0;
}

static const char *lcp_state(void)
{
	struct ppp_status st;

	ppp_get_status(&s.ppp, &st);
	return st.lcp_state;
}

TEST(client_request)
{
	const uint8_t *req, *opt;
	size_t len;

	client();
	ppp_lower_up(&s.ppp, h_now);
	req = h_last_request(&s, PPP_PROTO_LCP, &len);
	CHECK(req != NULL);
	CHECK_EQ(find_option(req, len, 1, &opt), 4);
	CHECK_EQ(opt[2] << 8 | opt[3], 1492);
	CHECK_EQ(find_option(req, len, 5, &opt), 6);
	CHECK(opt[2] | opt[3] | opt[4] | opt[5]);
	CHECK_EQ(find_option(req, len, 3, &opt), 0); /* a client asks for no auth */
	CHECK_EQ(len, 10);
	CHECK(!strcmp(lcp_state(), "Req-Sent"));
}

TEST(rfc4638_mru_from_config)
{
	struct ppp_config c;
	const uint8_t *req, *opt;
	size_t len;

	h_client_config(&c, "x");
	c.mru = 1500;
	h_init(&s, &c, 1);
	ppp_lower_up(&s.ppp, 0);
	req = h_last_request(&s, PPP_PROTO_LCP, &len);
	CHECK_EQ(find_option(req, len, 1, &opt), 4);
	CHECK_EQ(opt[2] << 8 | opt[3], 1500);
}

static int server_auth_option(enum ppp_auth_proto auth, const uint8_t *want, size_t want_len)
{
	const uint8_t *req, *opt;
	size_t len;

	server(auth);
	ppp_lower_up(&s.ppp, h_now);
	req = h_last_request(&s, PPP_PROTO_LCP, &len);
	if (!req || find_option(req, len, 3, &opt) != want_len)
		return __LINE__;
	return memcmp(opt, want, want_len) ? __LINE__ : 0;
}

TEST(server_requests_auth)
{
	static const uint8_t pap[] = { 3, 4, 0xc0, 0x23 };
	static const uint8_t md5[] = { 3, 5, 0xc2, 0x23, 5 };
	static const uint8_t ms2[] = { 3, 5, 0xc2, 0x23, 0x81 };

	CHECK_EQ(server_auth_option(PPP_AUTH_PAP, pap, sizeof(pap)), 0);
	CHECK_EQ(server_auth_option(PPP_AUTH_CHAP_MD5, md5, sizeof(md5)), 0);
	CHECK_EQ(server_auth_option(PPP_AUTH_MSCHAPV2, ms2, sizeof(ms2)), 0);
}

/* The code the client answers a request holding opts with, and the reply. */
static const struct h_pkt *judge(const uint8_t *opts, size_t len)
{
	h_packet(&s, PPP_PROTO_LCP, FSM_CONF_REQ, 0x33, opts, len);
	return h_last(&s, PPP_PROTO_LCP, 0);
}

TEST(client_accepts_supported_auth)
{
	static const uint8_t opts[][5] = {
		{ 3, 4, 0xc0, 0x23 },
		{ 3, 5, 0xc2, 0x23, 5 },
		{ 3, 5, 0xc2, 0x23, 0x81 },
	};
	static const enum ppp_auth_proto protos[] = { PPP_AUTH_PAP, PPP_AUTH_CHAP_MD5,
						      PPP_AUTH_MSCHAPV2 };

	for (int i = 0; i < 3; i++) {
		const struct h_pkt *reply;
		struct ppp_status st;

		client();
		ppp_lower_up(&s.ppp, h_now);
		reply = judge(opts[i], opts[i][1]);
		CHECK_EQ(reply->data[0], FSM_CONF_ACK);
		CHECK_EQ(reply->data[1], 0x33);
		CHECK_MEM(reply->data + 4, opts[i], opts[i][1]);
		h_ack_last_request(&s, PPP_PROTO_LCP);
		ppp_get_status(&s.ppp, &st);
		CHECK(!strcmp(st.lcp_state, "Opened"));
		CHECK_EQ(st.auth, protos[i]);
	}
}

TEST(client_naks_unsupported_auth)
{
	static const uint8_t eap[] = { 3, 4, 0xc2, 0x27 };
	static const uint8_t mschapv1[] = { 3, 5, 0xc2, 0x23, 0x80 };
	static const uint8_t md5[] = { 3, 5, 0xc2, 0x23, 5 };
	const struct h_pkt *reply;

	client();
	ppp_lower_up(&s.ppp, h_now);
	reply = judge(eap, sizeof(eap));
	CHECK_EQ(reply->data[0], FSM_CONF_NAK);
	CHECK_EQ(reply->len, 4 + sizeof(md5));
	CHECK_MEM(reply->data + 4, md5, sizeof(md5));
	reply = judge(mschapv1, sizeof(mschapv1));
	CHECK_EQ(reply->data[0], FSM_CONF_NAK);
	CHECK_MEM(reply->data + 4, md5, sizeof(md5));
}

TEST(server_rejects_auth_from_client)
{
	static const uint8_t opts[] = { 1, 4, 0x05, 0xd4, 3, 4, 0xc0, 0x23 };
	const struct h_pkt *reply;

	server(PPP_AUTH_PAP);
	ppp_lower_up(&s.ppp, h_now);
	reply = judge(opts, sizeof(opts));
	CHECK_EQ(reply->data[0], FSM_CONF_REJ);
	CHECK_EQ(reply->len, 8);
	CHECK_MEM(reply->data + 4, opts + 4, 4);
}

/* RFC 2516: ACCM, PFC and ACFC mean nothing on PPPoE; unknown options are rejected too. */
TEST(accm_pfc_acfc_unknown_rejected)
{
	static const uint8_t opts[] = {
		1,  4, 0x05, 0xd4,	      /* MRU 1492: fine */
		2,  6, 0,    0,	   0,	 0,   /* ACCM */
		7,  2,			      /* PFC */
		8,  2,			      /* ACFC */
		13, 3, 6,		      /* Callback */
		5,  6, 0x11, 0x22, 0x33, 0x44 /* Magic: fine */
	};
	static const uint8_t want[] = { 2, 6, 0, 0, 0, 0, 7, 2, 8, 2, 13, 3, 6 };
	const struct h_pkt *reply;

	client();
	ppp_lower_up(&s.ppp, h_now);
	reply = judge(opts, sizeof(opts));
	CHECK_EQ(reply->data[0], FSM_CONF_REJ);
	CHECK_EQ(reply->len, 4 + sizeof(want));
	CHECK_MEM(reply->data + 4, want, sizeof(want));
}

TEST(wrong_length_options_rejected)
{
	static const uint8_t opts[] = { 1, 3, 5, 5, 5, 1, 2, 3 };
	const struct h_pkt *reply;

	client();
	ppp_lower_up(&s.ppp, h_now);
	reply = judge(opts, sizeof(opts));
	CHECK_EQ(reply->data[0], FSM_CONF_REJ);
	CHECK_MEM(reply->data + 4, opts, sizeof(opts));
}

TEST(peer_mru_bounds_session_mtu)
{
	static const uint8_t small[] = { 1, 4, 0x05, 0x78 }; /* 1400 */
	static const uint8_t tiny[] = { 1, 4, 0x00, 0x40 };  /* 64 */
	const struct h_pkt *reply;
	struct ppp_status st;

	client();
	ppp_lower_up(&s.ppp, h_now);
	reply = judge(tiny, sizeof(tiny));
	CHECK_EQ(reply->data[0], FSM_CONF_NAK);
	CHECK_EQ(reply->data[6] << 8 | reply->data[7], 1492);
	h_lcp_open(&s, small, sizeof(small));
	ppp_get_status(&s.ppp, &st);
	CHECK(!strcmp(st.lcp_state, "Opened"));
	CHECK_EQ(st.peer_mru, 1400);
	CHECK_EQ(st.local_mru, 1492);
}

TEST(peer_without_mru_gets_link_limit)
{
	struct ppp_status st;

	client();
	h_lcp_open(&s, magic_opt, sizeof(magic_opt));
	ppp_get_status(&s.ppp, &st);
	CHECK_EQ(st.peer_mru, 1492); /* the default 1500 does not fit in PPPoE */
}

TEST(magic_zero_and_collision_naked)
{
	uint8_t opts[6] = { 5, 6, 0, 0, 0, 0 };
	const struct h_pkt *reply;
	const uint8_t *req, *opt;
	size_t len;
	uint32_t ours;

	client();
	ppp_lower_up(&s.ppp, h_now);
	reply = judge(opts, sizeof(opts));
	CHECK_EQ(reply->data[0], FSM_CONF_NAK);
	CHECK(reply->data[6] | reply->data[7] | reply->data[8] | reply->data[9]);
	ours = s.ppp.lcp_opt.magic;
	opts[2] = ours >> 24;
	opts[3] = ours >> 16;
	opts[4] = ours >> 8;
	opts[5] = ours;
	reply = judge(opts, sizeof(opts));
	CHECK_EQ(reply->data[0], FSM_CONF_NAK);
	CHECK(memcmp(reply->data + 6, opts + 2, 4) != 0);
	CHECK(memcmp(reply->data + 6, "\0\0\0\0", 4) != 0);
	/* Our number changes too, with the next request (an Ack repeats the old one). */
	CHECK_EQ(s.ppp.lcp_opt.magic, ours);
	h_now += 3000;
	ppp_timer(&s.ppp, h_now);
	req = h_last_request(&s, PPP_PROTO_LCP, &len);
	CHECK_EQ(find_option(req, len, 5, &opt), 6);
	CHECK(memcmp(opt + 2, opts + 2, 4) != 0);
	CHECK(s.ppp.lcp_opt.magic != ours);
}

TEST(nak_and_reject_of_our_options)
{
	static const uint8_t nak_mru[] = { 1, 4, 0x05, 0x00 }; /* 1280: smaller is fine */
	static const uint8_t nak_big[] = { 1, 4, 0x23, 0x28 }; /* 9000: more than PPPoE */
	const uint8_t *req, *opt;
	uint8_t rej_magic[6];
	size_t len;
	const struct h_pkt *cr;
	struct ppp_status st;

	client();
	ppp_lower_up(&s.ppp, h_now);
	cr = h_last(&s, PPP_PROTO_LCP, FSM_CONF_REQ);
	h_packet(&s, PPP_PROTO_LCP, FSM_CONF_NAK, cr->data[1], nak_big, sizeof(nak_big));
	req = h_last_request(&s, PPP_PROTO_LCP, &len);
	CHECK_EQ(find_option(req, len, 1, &opt), 4);
	CHECK_EQ(opt[2] << 8 | opt[3], 1492);
	cr = h_last(&s, PPP_PROTO_LCP, FSM_CONF_REQ);
	h_packet(&s, PPP_PROTO_LCP, FSM_CONF_NAK, cr->data[1], nak_mru, sizeof(nak_mru));
	req = h_last_request(&s, PPP_PROTO_LCP, &len);
	CHECK_EQ(find_option(req, len, 1, &opt), 4);
	CHECK_EQ(opt[2] << 8 | opt[3], 1280);
	/* Reject the magic number: the next request drops it. */
	CHECK_EQ(find_option(req, len, 5, &opt), 6);
	memcpy(rej_magic, opt, 6);
	cr = h_last(&s, PPP_PROTO_LCP, FSM_CONF_REQ);
	h_packet(&s, PPP_PROTO_LCP, FSM_CONF_REJ, cr->data[1], rej_magic, 6);
	req = h_last_request(&s, PPP_PROTO_LCP, &len);
	CHECK_EQ(find_option(req, len, 5, &opt), 0);
	CHECK_EQ(len, 4);
	h_packet(&s, PPP_PROTO_LCP, FSM_CONF_REQ, 1, NULL, 0);
	h_ack_last_request(&s, PPP_PROTO_LCP);
	ppp_get_status(&s.ppp, &st);
	CHECK(!strcmp(st.lcp_state, "Opened"));
	CHECK_EQ(st.local_mru, 1280);
}

TEST(server_auth_rejected_fails)
{
	const struct h_pkt *cr;
	const uint8_t *opt;

	server(PPP_AUTH_CHAP_MD5);
	ppp_lower_up(&s.ppp, h_now);
	cr = h_last(&s, PPP_PROTO_LCP, FSM_CONF_REQ);
	CHECK_EQ(find_option(cr->data + 4, cr->len - 4, 3, &opt), 5);
	h_packet(&s, PPP_PROTO_LCP, FSM_CONF_REJ, cr->data[1], opt, 5);
	CHECK(!strcmp(lcp_state(), "Closing"));
	h_run(&s, NULL, h_now + 20000);
	CHECK_EQ(h_down_reason(&s), PPP_DOWN_AUTH_FAILED);
}

TEST(echo_request_answered_in_opened_only)
{
	static const uint8_t echo[] = { 0xde, 0xad, 0xbe, 0xef, 'h', 'i' };
	const struct h_pkt *reply;
	uint32_t ours;

	client();
	ppp_lower_up(&s.ppp, h_now);
	h_packet(&s, PPP_PROTO_LCP, LCP_ECHO_REQ, 9, echo, sizeof(echo));
	CHECK(h_last(&s, PPP_PROTO_LCP, LCP_ECHO_REPLY) == NULL);
	h_packet(&s, PPP_PROTO_LCP, FSM_CONF_REQ, 0x50, magic_opt, sizeof(magic_opt));
	h_ack_last_request(&s, PPP_PROTO_LCP);
	CHECK(!strcmp(lcp_state(), "Opened"));
	h_packet(&s, PPP_PROTO_LCP, LCP_ECHO_REQ, 9, echo, sizeof(echo));
	reply = h_last(&s, PPP_PROTO_LCP, LCP_ECHO_REPLY);
	CHECK(reply != NULL);
	CHECK_EQ(reply->data[1], 9);
	CHECK_EQ(reply->len, 4 + sizeof(echo));
	ours = s.ppp.lcp_opt.magic;
	CHECK_EQ((uint32_t)reply->data[4] << 24 | (uint32_t)reply->data[5] << 16 |
			 (uint32_t)reply->data[6] << 8 | reply->data[7],
		 ours);
	CHECK_MEM(reply->data + 8, "hi", 2);
}

TEST(discard_request_silent)
{
	static const uint8_t data[] = { 1, 2, 3, 4, 5 };
	unsigned int before;

	client();
	h_lcp_open(&s, magic_opt, sizeof(magic_opt));
	before = s.nlog;
	h_packet(&s, PPP_PROTO_LCP, LCP_DISCARD_REQ, 3, data, sizeof(data));
	CHECK_EQ(s.nlog, before);
	CHECK(!strcmp(lcp_state(), "Opened"));
}

TEST(protocol_reject_of_lcp_is_fatal)
{
	static const uint8_t rej[] = { 0xc0, 0x21, 1, 1, 0, 4 };

	client();
	h_lcp_open(&s, magic_opt, sizeof(magic_opt));
	CHECK(!strcmp(lcp_state(), "Opened"));
	h_packet(&s, PPP_PROTO_LCP, LCP_PROTO_REJ, 3, rej, sizeof(rej));
	CHECK(!strcmp(lcp_state(), "Stopping"));
	h_run(&s, NULL, h_now + 20000);
	CHECK_EQ(h_down_reason(&s), PPP_DOWN_NEGOTIATION);
}

TEST(protocol_reject_of_ipcp_stops_it)
{
	static const uint8_t rej[] = { 0x80, 0x21, 1, 1, 0, 4 };
	struct ppp_status st;

	client();
	h_lcp_open(&s, magic_opt, sizeof(magic_opt));
	h_packet(&s, PPP_PROTO_LCP, LCP_PROTO_REJ, 3, rej, sizeof(rej));
	ppp_get_status(&s.ppp, &st);
	CHECK(!strcmp(st.ipcp_state, "Stopped"));
	CHECK(!strcmp(st.ipv6cp_state, "Req-Sent"));
	CHECK(!strcmp(st.lcp_state, "Opened"));
}

TEST(code_reject_of_echo_tolerated)
{
	static const uint8_t rej[] = { LCP_ECHO_REQ, 1, 0, 8, 0, 0, 0, 1 };

	client();
	h_lcp_open(&s, magic_opt, sizeof(magic_opt));
	h_packet(&s, PPP_PROTO_LCP, FSM_CODE_REJ, 3, rej, sizeof(rej));
	CHECK(!strcmp(lcp_state(), "Opened"));
}

TEST(silent_peer_max_configure)
{
	client();
	ppp_lower_up(&s.ppp, h_now);
	h_run(&s, NULL, h_now + 60000);
	CHECK_EQ(s.sent[0][FSM_CONF_REQ], 10);
	CHECK_EQ(h_down_reason(&s), PPP_DOWN_NEGOTIATION);
	CHECK(!strcmp(lcp_state(), "Stopped"));
}

TEST(unknown_code_rejected)
{
	static const uint8_t junk[] = { 0x42, 7, 0, 6, 0xaa, 0xbb };
	const struct h_pkt *reply;

	client();
	h_lcp_open(&s, magic_opt, sizeof(magic_opt));
	h_inject(&s, PPP_PROTO_LCP, junk, sizeof(junk));
	reply = h_last(&s, PPP_PROTO_LCP, FSM_CODE_REJ);
	CHECK(reply != NULL);
	CHECK_MEM(reply->data + 4, junk, sizeof(junk));
	CHECK(!strcmp(lcp_state(), "Opened"));
}

int main(void)
{
	check_prefix = "lcp";
	RUN(client_request);
	RUN(rfc4638_mru_from_config);
	RUN(server_requests_auth);
	RUN(client_accepts_supported_auth);
	RUN(client_naks_unsupported_auth);
	RUN(server_rejects_auth_from_client);
	RUN(accm_pfc_acfc_unknown_rejected);
	RUN(wrong_length_options_rejected);
	RUN(peer_mru_bounds_session_mtu);
	RUN(peer_without_mru_gets_link_limit);
	RUN(magic_zero_and_collision_naked);
	RUN(nak_and_reject_of_our_options);
	RUN(server_auth_rejected_fails);
	RUN(echo_request_answered_in_opened_only);
	RUN(discard_request_silent);
	RUN(protocol_reject_of_lcp_is_fatal);
	RUN(protocol_reject_of_ipcp_stops_it);
	RUN(code_reject_of_echo_tolerated);
	RUN(silent_peer_max_configure);
	RUN(unknown_code_rejected);
	return check_summary();
}
