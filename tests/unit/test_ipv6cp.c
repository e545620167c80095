// SPDX-License-Identifier: GPL-2.0
/* IPv6CP (RFC 5072) Interface-Identifier negotiation, against a scripted peer. */
#include "check.h"
#include "ppp_harness.h"

static struct h_side s;

static const uint8_t magic_opt[] = { 5, 6, 0x11, 0x22, 0x33, 0x44 };
static const uint8_t zero[8];

static void network_phase(void)
{
	struct ppp_config c;

	h_client_config(&c, "x");
	h_init(&s, &c, 99);
	h_lcp_open(&s, magic_opt, sizeof(magic_opt));
}

static const struct h_pkt *judge(const uint8_t *opts, size_t len)
{
	h_packet(&s, PPP_PROTO_IPV6CP, FSM_CONF_REQ, 0x61, opts, len);
	return h_last(&s, PPP_PROTO_IPV6CP, 0);
}

static const uint8_t *our_ifid(void)
{
	size_t len;
	const uint8_t *req = h_last_request(&s, PPP_PROTO_IPV6CP, &len);

	return req && len == 10 && req[0] == 1 && req[1] == 10 ? req + 2 : NULL;
}

TEST(request_has_random_nonzero_ifid)
{
	const uint8_t *id;

	network_phase();
	id = our_ifid();
	CHECK(id != NULL);
	CHECK(memcmp(id, zero, 8) != 0);
}

TEST(zero_ifid_naked_with_suggestion)
{
	static const uint8_t opts[] = { 1, 10, 0, 0, 0, 0, 0, 0, 0, 0 };
	const struct h_pkt *reply;
	uint8_t ours[8];

	network_phase();
	memcpy(ours, our_ifid(), 8);
	reply = judge(opts, sizeof(opts));
	CHECK_EQ(reply->data[0], FSM_CONF_NAK);
	CHECK_EQ(reply->len, 14);
	CHECK(memcmp(reply->data + 6, zero, 8) != 0);
	CHECK(memcmp(reply->data + 6, ours, 8) != 0);
}

TEST(colliding_ifid_naked)
{
	uint8_t opts[10] = { 1, 10 };
	const struct h_pkt *reply;

	network_phase();
	memcpy(opts + 2, our_ifid(), 8);
	reply = judge(opts, sizeof(opts));
	CHECK_EQ(reply->data[0], FSM_CONF_NAK);
	CHECK(memcmp(reply->data + 6, opts + 2, 8) != 0);
	CHECK(memcmp(reply->data + 6, zero, 8) != 0);
}

TEST(distinct_ifid_acked_and_opens)
{
	static const uint8_t opts[] = { 1, 10, 2, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 };
	const struct h_pkt *reply;
	struct ppp_status st;
	uint8_t ours[8];

	network_phase();
	memcpy(ours, our_ifid(), 8);
	reply = judge(opts, sizeof(opts));
	CHECK_EQ(reply->data[0], FSM_CONF_ACK);
	h_ack_last_request(&s, PPP_PROTO_IPV6CP);
	ppp_get_status(&s.ppp, &st);
	CHECK(!strcmp(st.ipv6cp_state, "Opened"));
	CHECK_MEM(st.peer_ifid, opts + 2, 8);
	CHECK_MEM(st.local_ifid, ours, 8);
	CHECK_EQ(h_count(&s, PPP_EV_IPV6_UP), 1);
}

TEST(naked_ifid_adopted)
{
	static const uint8_t nak[] = { 1, 10, 0, 0, 0, 0, 0, 0, 0, 0x77 };
	const struct h_pkt *cr;

	network_phase();
	cr = h_last(&s, PPP_PROTO_IPV6CP, FSM_CONF_REQ);
	h_packet(&s, PPP_PROTO_IPV6CP, FSM_CONF_NAK, cr->data[1], nak, sizeof(nak));
	CHECK(our_ifid() != NULL);
	CHECK_MEM(our_ifid(), nak + 2, 8);
}

/* A Nak suggesting the identifier the peer itself uses is not taken. */
TEST(naked_ifid_equal_to_peer_refused)
{
	static const uint8_t peer[] = { 1, 10, 2, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 };
	const struct h_pkt *cr;

	network_phase();
	CHECK_EQ(judge(peer, sizeof(peer))->data[0], FSM_CONF_ACK);
	cr = h_last(&s, PPP_PROTO_IPV6CP, FSM_CONF_REQ);
	h_packet(&s, PPP_PROTO_IPV6CP, FSM_CONF_NAK, cr->data[1], peer, sizeof(peer));
	CHECK(our_ifid() != NULL);
	CHECK(memcmp(our_ifid(), peer + 2, 8) != 0);
	CHECK(memcmp(our_ifid(), zero, 8) != 0);
}

TEST(compression_and_bad_length_rejected)
{
	static const uint8_t opts[] = { 2, 4, 0x00, 0x4f, 1, 6, 1, 2, 3, 4 };
	const struct h_pkt *reply;

	network_phase();
	reply = judge(opts, sizeof(opts));
	CHECK_EQ(reply->data[0], FSM_CONF_REJ);
	CHECK_EQ(reply->len, 4 + sizeof(opts));
}

TEST(ifid_rejected_still_opens)
{
	static const uint8_t peer[] = { 1, 10, 2, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 };
	const struct h_pkt *cr;
	struct {
		uint8_t id;
		uint8_t opts[10];
	} rej;
	struct ppp_status st;
	size_t len = 1;

	network_phase();
	cr = h_last(&s, PPP_PROTO_IPV6CP, FSM_CONF_REQ);
	rej.id = cr->data[1];
	memcpy(rej.opts, cr->data + 4, 10);
	h_packet(&s, PPP_PROTO_IPV6CP, FSM_CONF_REJ, rej.id, rej.opts, 10);
	CHECK(h_last_request(&s, PPP_PROTO_IPV6CP, &len) != NULL);
	CHECK_EQ(len, 0);
	judge(peer, sizeof(peer));
	h_ack_last_request(&s, PPP_PROTO_IPV6CP);
	ppp_get_status(&s.ppp, &st);
	CHECK(!strcmp(st.ipv6cp_state, "Opened"));
	CHECK_MEM(st.local_ifid, rej.opts + 2, 8);
}

int main(void)
{
	check_prefix = "ipv6cp";
	RUN(request_has_random_nonzero_ifid);
	RUN(zero_ifid_naked_with_suggestion);
	RUN(colliding_ifid_naked);
	RUN(distinct_ifid_acked_and_opens);
	RUN(naked_ifid_adopted);
	RUN(naked_ifid_equal_to_peer_refused);
	RUN(compression_and_bad_length_rejected);
	RUN(ifid_rejected_still_opens);
	return check_summary();
}
