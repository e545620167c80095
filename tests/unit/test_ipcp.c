// SPDX-License-Identifier: GPL-2.0
/* IPCP (RFC 1332, RFC 1877 DNS) in both roles, against a scripted peer. */
#include "check.h"
#include "ppp_harness.h"

static struct h_side s;

static const uint8_t magic_opt[] = { 5, 6, 0x11, 0x22, 0x33, 0x44 };

/* Brings s through LCP (no auth) into the Network phase. */
static void network_phase(enum ppp_role role, bool server_dns)
{
	struct ppp_config c;

	if (role == PPP_ROLE_CLIENT) {
		h_client_config(&c, "x");
	} else {
		h_server_config(&c, PPP_AUTH_NONE);
		if (!server_dns)
			c.dns[0] = c.dns[1] = 0;
	}
	c.ipv6 = false;
	h_init(&s, &c, 7);
	h_lcp_open(&s, magic_opt, sizeof(magic_opt));
}

static const struct h_pkt *judge(const uint8_t *opts, size_t len)
{
	h_packet(&s, PPP_PROTO_IPCP, FSM_CONF_REQ, 0x21, opts, len);
	return h_last(&s, PPP_PROTO_IPCP, 0);
}

static void status(struct ppp_status *st)
{
	ppp_get_status(&s.ppp, st);
}

TEST(client_asks_zero_address_and_dns)
{
	static const uint8_t want[] = { 3, 6, 0, 0, 0, 0, 129, 6, 0, 0, 0, 0, 131, 6, 0, 0, 0, 0 };
	const uint8_t *req;
	size_t len;

	network_phase(PPP_ROLE_CLIENT, false);
	req = h_last_request(&s, PPP_PROTO_IPCP, &len);
	CHECK(req != NULL);
	CHECK_EQ(len, sizeof(want));
	CHECK_MEM(req, want, sizeof(want));
}

TEST(client_takes_naked_values)
{
	static const uint8_t nak[] = {
		3, 6, 100, 64, 0, 7, 129, 6, 9, 9, 9, 9, 131, 6, 8, 8, 4, 4
	};
	static const uint8_t server_req[] = { 3, 6, 100, 64, 0, 1 };
	const struct h_pkt *cr, *reply;
	const uint8_t *req;
	size_t len;
	struct ppp_status st;

	network_phase(PPP_ROLE_CLIENT, false);
	cr = h_last(&s, PPP_PROTO_IPCP, FSM_CONF_REQ);
	h_packet(&s, PPP_PROTO_IPCP, FSM_CONF_NAK, cr->data[1], nak, sizeof(nak));
	req = h_last_request(&s, PPP_PROTO_IPCP, &len);
	CHECK_EQ(len, sizeof(nak));
	CHECK_MEM(req, nak, sizeof(nak));
	reply = judge(server_req, sizeof(server_req));
	CHECK_EQ(reply->data[0], FSM_CONF_ACK);
	h_ack_last_request(&s, PPP_PROTO_IPCP);
	status(&st);
	CHECK(!strcmp(st.ipcp_state, "Opened"));
	CHECK_EQ(st.local_ip, htonl(0x64400007));
	CHECK_EQ(st.peer_ip, htonl(0x64400001));
	CHECK_EQ(st.dns[0], htonl(0x09090909));
	CHECK_EQ(st.dns[1], htonl(0x08080404));
	CHECK_EQ(h_count(&s, PPP_EV_IPV4_UP), 1);
}

TEST(client_rejects_compression_nbns_and_zero_address)
{
	static const uint8_t opts[] = { 2,   6, 0, 0x2d, 0x0f, 0x01, /* VJ compression */
					130, 6, 1, 2,	 3,    4,    /* NBNS */
					3,   6, 0, 0,	 0,    0 };  /* no address */
	const struct h_pkt *reply;

	network_phase(PPP_ROLE_CLIENT, false);
	reply = judge(opts, sizeof(opts));
	CHECK_EQ(reply->data[0], FSM_CONF_REJ);
	CHECK_EQ(reply->len, 4 + sizeof(opts));
	CHECK_MEM(reply->data + 4, opts, sizeof(opts));
}

TEST(client_dns_rejected_dropped)
{
	static const uint8_t rej[] = { 129, 6, 0, 0, 0, 0, 131, 6, 0, 0, 0, 0 };
	const struct h_pkt *cr;
	const uint8_t *req;
	size_t len;

	network_phase(PPP_ROLE_CLIENT, false);
	cr = h_last(&s, PPP_PROTO_IPCP, FSM_CONF_REQ);
	h_packet(&s, PPP_PROTO_IPCP, FSM_CONF_REJ, cr->data[1], rej, sizeof(rej));
	req = h_last_request(&s, PPP_PROTO_IPCP, &len);
	CHECK_EQ(len, 6);
	CHECK_EQ(req[0], 3);
}

/* A client that cannot get an address stops IPCP; with no other NCP the link ends. */
TEST(client_address_rejected_no_network)
{
	static const uint8_t rej[] = { 3, 6, 0, 0, 0, 0 };
	const struct h_pkt *cr;

	network_phase(PPP_ROLE_CLIENT, false);
	cr = h_last(&s, PPP_PROTO_IPCP, FSM_CONF_REQ);
	h_packet(&s, PPP_PROTO_IPCP, FSM_CONF_REJ, cr->data[1], rej, sizeof(rej));
	h_run(&s, NULL, h_now + 30000);
	CHECK_EQ(h_down_reason(&s), PPP_DOWN_NO_NETWORK);
}

/* A server that Acks 0.0.0.0 assigned nothing: no IPV4_UP, IPCP closes, the link ends. */
TEST(client_zero_address_acked_not_up)
{
	static const uint8_t server_req[] = { 3, 6, 10, 0, 0, 1 };
	struct ppp_status st;

	network_phase(PPP_ROLE_CLIENT, false);
	CHECK_EQ(judge(server_req, sizeof(server_req))->data[0], FSM_CONF_ACK);
	h_ack_last_request(&s, PPP_PROTO_IPCP);
	status(&st);
	CHECK(!strcmp(st.ipcp_state, "Closing"));
	CHECK_EQ(h_count(&s, PPP_EV_IPV4_UP), 0);
	h_run(&s, NULL, h_now + 30000);
	CHECK_EQ(h_count(&s, PPP_EV_IPV4_DOWN), 0);
	CHECK_EQ(h_down_reason(&s), PPP_DOWN_NO_NETWORK);
}

TEST(server_request_holds_its_address)
{
	static const uint8_t want[] = { 3, 6, 10, 0, 0, 1 };
	const uint8_t *req;
	size_t len;

	network_phase(PPP_ROLE_SERVER, true);
	req = h_last_request(&s, PPP_PROTO_IPCP, &len);
	CHECK_EQ(len, sizeof(want));
	CHECK_MEM(req, want, sizeof(want));
}

TEST(server_naks_address_and_dns)
{
	static const uint8_t opts[] = { 3, 6, 0, 0, 0, 0, 129, 6, 0, 0, 0, 0, 131, 6, 0, 0, 0, 0 };
	static const uint8_t want[] = { 3, 6, 10, 0, 0, 2, 129, 6, 8, 8, 8, 8, 131, 6, 1, 1, 1, 1 };
	const struct h_pkt *reply;
	struct ppp_status st;

	network_phase(PPP_ROLE_SERVER, true);
	reply = judge(opts, sizeof(opts));
	CHECK_EQ(reply->data[0], FSM_CONF_NAK);
	CHECK_EQ(reply->len, 4 + sizeof(want));
	CHECK_MEM(reply->data + 4, want, sizeof(want));
	reply = judge(want, sizeof(want));
	CHECK_EQ(reply->data[0], FSM_CONF_ACK);
	h_ack_last_request(&s, PPP_PROTO_IPCP);
	status(&st);
	CHECK(!strcmp(st.ipcp_state, "Opened"));
	CHECK_EQ(st.peer_ip, htonl(0x0a000002));
	CHECK_EQ(st.local_ip, htonl(0x0a000001));
}

TEST(server_without_dns_rejects_dns)
{
	static const uint8_t opts[] = { 3, 6, 10, 0, 0, 2, 129, 6, 0, 0, 0, 0 };
	const struct h_pkt *reply;

	network_phase(PPP_ROLE_SERVER, false);
	reply = judge(opts, sizeof(opts));
	CHECK_EQ(reply->data[0], FSM_CONF_REJ);
	CHECK_EQ(reply->len, 4 + 6);
	CHECK_MEM(reply->data + 4, opts + 6, 6);
}

/* RFC 1332 3.3: a client that names no address is told which one to use. */
TEST(server_appends_missing_address)
{
	static const uint8_t opts[] = { 129, 6, 8, 8, 8, 8 };
	static const uint8_t want[] = { 3, 6, 10, 0, 0, 2 };
	const struct h_pkt *reply;

	network_phase(PPP_ROLE_SERVER, true);
	reply = judge(opts, sizeof(opts));
	CHECK_EQ(reply->data[0], FSM_CONF_NAK);
	CHECK_EQ(reply->len, 4 + sizeof(want));
	CHECK_MEM(reply->data + 4, want, sizeof(want));
}

TEST(wrong_length_rejected)
{
	static const uint8_t opts[] = { 3, 5, 10, 0, 0 };
	const struct h_pkt *reply;

	network_phase(PPP_ROLE_SERVER, true);
	reply = judge(opts, sizeof(opts));
	CHECK_EQ(reply->data[0], FSM_CONF_REJ);
}

/* A client that keeps asking for another address: Naks turn into Rejects (Max-Failure). */
TEST(server_max_failure)
{
	static const uint8_t opts[] = { 3, 6, 192, 168, 1, 1 };
	const struct h_pkt *reply = NULL;

	network_phase(PPP_ROLE_SERVER, true);
	for (int i = 0; i < 5; i++) {
		reply = judge(opts, sizeof(opts));
		CHECK_EQ(reply->data[0], FSM_CONF_NAK);
	}
	reply = judge(opts, sizeof(opts));
	CHECK_EQ(reply->data[0], FSM_CONF_REJ);
}

int main(void)
{
	check_prefix = "ipcp";
	RUN(client_asks_zero_address_and_dns);
	RUN(client_takes_naked_values);
	RUN(client_rejects_compression_nbns_and_zero_address);
	RUN(client_dns_rejected_dropped);
	RUN(client_address_rejected_no_network);
	RUN(client_zero_address_acked_not_up);
	RUN(server_request_holds_its_address);
	RUN(server_naks_address_and_dns);
	RUN(server_without_dns_rejects_dns);
	RUN(server_appends_missing_address);
	RUN(wrong_length_rejected);
	RUN(server_max_failure);
	return check_summary();
}
