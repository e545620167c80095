// SPDX-License-Identifier: GPL-2.0
/* A client and a server struct ppp negotiating with each other in memory. */
#include "check.h"
#include "ppp_harness.h"

static struct h_side client, server;

/* Brings the pair up with auth and checks what both ends learned. */
static int up_with(enum ppp_auth_proto auth)
{
	struct ppp_config cc, sc;
	struct ppp_status cs, ss;

	h_client_config(&cc, "s3cret");
	h_server_config(&sc, auth);
	if (h_init(&client, &cc, 1) || h_init(&server, &sc, 2))
		return __LINE__;
	h_start(&client, &server);
	if (h_count(&client, PPP_EV_IPV4_UP) != 1 || h_count(&server, PPP_EV_IPV4_UP) != 1)
		return __LINE__;
	if (h_count(&client, PPP_EV_IPV6_UP) != 1 || h_count(&server, PPP_EV_IPV6_UP) != 1)
		return __LINE__;
	if (auth != PPP_AUTH_NONE &&
	    (h_count(&client, PPP_EV_AUTH_OK) != 1 || h_count(&server, PPP_EV_AUTH_OK) != 1))
		return __LINE__;
	ppp_get_status(&client.ppp, &cs);
	ppp_get_status(&server.ppp, &ss);
	if (strcmp(cs.lcp_state, "Opened") || strcmp(ss.ipcp_state, "Opened") ||
	    strcmp(cs.ipv6cp_state, "Opened"))
		return __LINE__;
	if (cs.auth != auth || ss.auth != auth)
		return __LINE__;
	if (auth != PPP_AUTH_NONE && strcmp(ss.peer_name, "alice"))
		return __LINE__;
	if (auth != PPP_AUTH_NONE &&
	    (!strstr(cs.auth_message, "succeeded") || !strstr(ss.auth_message, "alice")))
		return __LINE__;
	if (strcmp(cs.phase, "Network") || strcmp(ss.phase, "Network"))
		return __LINE__;
	if (cs.local_ip != sc.peer_ip || cs.peer_ip != sc.local_ip)
		return __LINE__;
	if (ss.local_ip != sc.local_ip || ss.peer_ip != sc.peer_ip)
		return __LINE__;
	if (cs.dns[0] != sc.dns[0] || cs.dns[1] != sc.dns[1])
		return __LINE__;
	if (memcmp(cs.local_ifid, ss.peer_ifid, 8) || memcmp(cs.peer_ifid, ss.local_ifid, 8))
		return __LINE__;
	if (!memcmp(cs.local_ifid, cs.peer_ifid, 8))
		return __LINE__;
	if (cs.local_mru != 1492 || cs.peer_mru != 1492 || ss.peer_mru != 1492)
		return __LINE__;
	if (cs.rx_malformed || ss.rx_malformed || cs.rx_proto_reject || ss.rx_proto_reject)
		return __LINE__;
	if (client.bad_sends || server.bad_sends)
		return __LINE__;
	return 0;
}

TEST(up_without_auth)
{
	CHECK_EQ(up_with(PPP_AUTH_NONE), 0);
}

TEST(up_with_pap)
{
	CHECK_EQ(up_with(PPP_AUTH_PAP), 0);
	CHECK(client.sent[3][1] >= 1); /* PAP Authenticate-Request */
}

TEST(up_with_chap_md5)
{
	CHECK_EQ(up_with(PPP_AUTH_CHAP_MD5), 0);
	CHECK(server.sent[4][1] >= 1); /* CHAP Challenge */
}

TEST(up_with_mschapv2)
{
	CHECK_EQ(up_with(PPP_AUTH_MSCHAPV2), 0);
	CHECK(server.sent[4][3] >= 1); /* CHAP Success */
}

static void wrong_password(enum ppp_auth_proto auth)
{
	struct ppp_config cc, sc;

	h_client_config(&cc, "wrong");
	h_server_config(&sc, auth);
	h_init(&client, &cc, 3);
	h_init(&server, &sc, 4);
	h_start(&client, &server);
	h_run(&client, &server, h_now + 60000);
}

TEST(wrong_password_pap)
{
	struct ppp_status cs;

	wrong_password(PPP_AUTH_PAP);
	ppp_get_status(&client.ppp, &cs);
	CHECK(strstr(cs.auth_message, "PAP") != NULL);
	CHECK(!strcmp(cs.phase, "Dead"));
	CHECK_EQ(h_down_reason(&client), PPP_DOWN_AUTH_FAILED);
	CHECK_EQ(h_down_reason(&server), PPP_DOWN_AUTH_FAILED);
	CHECK_EQ(h_count(&client, PPP_EV_IPV4_UP), 0);
	CHECK_EQ(h_count(&server, PPP_EV_AUTH_OK), 0);
}

TEST(wrong_password_chap_md5)
{
	wrong_password(PPP_AUTH_CHAP_MD5);
	CHECK_EQ(h_down_reason(&client), PPP_DOWN_AUTH_FAILED);
	CHECK_EQ(h_down_reason(&server), PPP_DOWN_AUTH_FAILED);
	CHECK_EQ(h_count(&server, PPP_EV_IPV4_UP), 0);
}

TEST(wrong_password_mschapv2)
{
	wrong_password(PPP_AUTH_MSCHAPV2);
	CHECK_EQ(h_down_reason(&client), PPP_DOWN_AUTH_FAILED);
	CHECK_EQ(h_down_reason(&server), PPP_DOWN_AUTH_FAILED);
	CHECK_EQ(h_count(&client, PPP_EV_LINK_DOWN), 1);
}

TEST(unknown_user_fails)
{
	struct ppp_config cc, sc;

	h_client_config(&cc, "s3cret");
	strcpy(cc.user, "mallory");
	h_server_config(&sc, PPP_AUTH_CHAP_MD5);
	h_init(&client, &cc, 5);
	h_init(&server, &sc, 6);
	h_start(&client, &server);
	h_run(&client, &server, h_now + 60000);
	CHECK_EQ(h_down_reason(&server), PPP_DOWN_AUTH_FAILED);
	CHECK_EQ(h_down_reason(&client), PPP_DOWN_AUTH_FAILED);
}

/* The server has no DNS to give: the client's DNS options are rejected, IPCP still opens. */
TEST(dns_rejected_ipcp_opens)
{
	struct ppp_config cc, sc;
	struct ppp_status cs;

	h_client_config(&cc, "s3cret");
	h_server_config(&sc, PPP_AUTH_PAP);
	sc.dns[0] = sc.dns[1] = 0;
	h_init(&client, &cc, 7);
	h_init(&server, &sc, 8);
	h_start(&client, &server);
	ppp_get_status(&client.ppp, &cs);
	CHECK_EQ(h_count(&client, PPP_EV_IPV4_UP), 1);
	CHECK_EQ(cs.dns[0], 0);
	CHECK_EQ(cs.local_ip, sc.peer_ip);
	CHECK(server.sent[1][4] >= 1); /* IPCP Configure-Reject */
	CHECK(server.sent[1][3] >= 1); /* IPCP Configure-Nak (the address) */
}

/* A server without an address pool rejects 0.0.0.0: no IPv4 and no IPv6 means no link. */
TEST(no_address_no_network)
{
	struct ppp_config cc, sc;

	h_client_config(&cc, "s3cret");
	cc.ipv6 = false;
	h_server_config(&sc, PPP_AUTH_NONE);
	sc.peer_ip = 0;
	sc.ipv6 = false;
	h_init(&client, &cc, 9);
	h_init(&server, &sc, 10);
	h_start(&client, &server);
	h_run(&client, &server, h_now + 60000);
	CHECK_EQ(h_down_reason(&client), PPP_DOWN_NO_NETWORK);
	CHECK_EQ(h_count(&client, PPP_EV_IPV4_UP), 0);
	CHECK_EQ(h_count(&server, PPP_EV_LINK_DOWN), 1);
}

/* The server does not run IPv6CP: it Protocol-Rejects it, IPv4 stays up. */
TEST(ipv6cp_protocol_rejected)
{
	struct ppp_config cc, sc;
	struct ppp_status cs, ss;

	h_client_config(&cc, "s3cret");
	h_server_config(&sc, PPP_AUTH_PAP);
	sc.ipv6 = false;
	h_init(&client, &cc, 11);
	h_init(&server, &sc, 12);
	h_start(&client, &server);
	h_run(&client, &server, h_now + 30000);
	ppp_get_status(&client.ppp, &cs);
	ppp_get_status(&server.ppp, &ss);
	CHECK_EQ(h_count(&client, PPP_EV_IPV4_UP), 1);
	CHECK_EQ(h_count(&client, PPP_EV_IPV6_UP), 0);
	CHECK_EQ(h_count(&client, PPP_EV_LINK_DOWN), 0);
	CHECK(ss.rx_proto_reject >= 1);
	CHECK(!strcmp(cs.ipv6cp_state, "Stopped"));
	CHECK(!strcmp(cs.lcp_state, "Opened"));
}

/* RFC 4638: a client allowed 1500 still sends at most what the server takes. */
TEST(mru_1500_meets_1492)
{
	struct ppp_config cc, sc;
	struct ppp_status cs, ss;

	h_client_config(&cc, "s3cret");
	cc.mru = 1500;
	h_server_config(&sc, PPP_AUTH_NONE);
	h_init(&client, &cc, 13);
	h_init(&server, &sc, 14);
	h_start(&client, &server);
	ppp_get_status(&client.ppp, &cs);
	ppp_get_status(&server.ppp, &ss);
	CHECK_EQ(cs.local_mru, 1500);
	CHECK_EQ(cs.peer_mru, 1492);
	CHECK_EQ(ss.peer_mru, 1492);
}

static void up_with_echo(bool adaptive)
{
	struct ppp_config cc, sc;

	h_client_config(&cc, "s3cret");
	cc.echo_interval_ms = 1000;
	cc.echo_max_failures = 3;
	cc.echo_adaptive = adaptive;
	h_server_config(&sc, PPP_AUTH_NONE);
	h_init(&client, &cc, 15);
	h_init(&server, &sc, 16);
	h_start(&client, &server);
}

TEST(echo_keepalive)
{
	struct ppp_status cs;

	up_with_echo(false);
	CHECK_EQ(h_count(&client, PPP_EV_IPV4_UP), 1);
	h_run(&client, &server, h_now + 10000);
	ppp_get_status(&client.ppp, &cs);
	CHECK(cs.echo_sent >= 9);
	CHECK_EQ(cs.echo_replies, cs.echo_sent);
	CHECK_EQ(cs.echo_missed, 0);
	CHECK_EQ(h_count(&client, PPP_EV_LINK_DOWN), 0);
}

TEST(echo_timeout)
{
	struct ppp_status cs;
	uint64_t cut;

	up_with_echo(false);
	CHECK_EQ(h_count(&client, PPP_EV_IPV4_UP), 1);
	cut = h_now;
	server.peer = NULL; /* the server's frames no longer arrive */
	h_run(&client, &server, cut + 3500);
	CHECK_EQ(h_count(&client, PPP_EV_LINK_DOWN), 0);
	CHECK(!ppp_terminating(&client.ppp));
	/* The 3rd unanswered Echo closes LCP; Terminate-Requests go unanswered too. */
	h_run(&client, &server, cut + 4500);
	ppp_get_status(&client.ppp, &cs);
	CHECK(!strcmp(cs.lcp_state, "Closing"));
	CHECK(ppp_terminating(&client.ppp));
	h_run(&client, &server, cut + 4500 + 2 * 3000);
	CHECK_EQ(h_down_reason(&client), PPP_DOWN_ECHO_TIMEOUT);
	CHECK(!ppp_terminating(&client.ppp));
	CHECK_EQ(h_count(&client, PPP_EV_IPV4_DOWN), 1);
	ppp_get_status(&client.ppp, &cs);
	CHECK(cs.echo_missed >= 3);
}

TEST(echo_adaptive_skips_while_data_flows)
{
	struct ppp_status cs;

	uint32_t sent;

	up_with_echo(true);
	server.peer = NULL;
	ppp_get_status(&client.ppp, &cs);
	sent = cs.echo_sent;
	for (int i = 0; i < 20; i++) {
		ppp_data_seen(&client.ppp, h_now);
		h_run(&client, &server, h_now + 500);
	}
	ppp_get_status(&client.ppp, &cs);
	CHECK_EQ(cs.echo_sent, sent);
	CHECK_EQ(h_count(&client, PPP_EV_LINK_DOWN), 0);
	/* Once data stops, the peer's silence ends the link. */
	h_run(&client, &server, h_now + 12000);
	CHECK_EQ(h_down_reason(&client), PPP_DOWN_ECHO_TIMEOUT);
}

TEST(peer_terminate)
{
	const struct h_pkt *tr;
	struct ppp_status ss;

	CHECK_EQ(up_with(PPP_AUTH_CHAP_MD5), 0);
	CHECK(!ppp_terminating(&server.ppp));
	ppp_close(&server.ppp, h_now);
	ppp_get_status(&server.ppp, &ss);
	CHECK(!strcmp(ss.phase, "Terminate"));
	CHECK(ppp_terminating(&server.ppp));
	h_run(&client, &server, h_now + 10000);
	CHECK_EQ(h_down_reason(&server), PPP_DOWN_ADMIN);
	CHECK_EQ(h_down_reason(&client), PPP_DOWN_PEER_TERMINATE);
	CHECK_EQ(h_count(&client, PPP_EV_IPV4_DOWN), 1);
	CHECK_EQ(h_count(&client, PPP_EV_IPV6_DOWN), 1);
	CHECK_EQ(h_count(&server, PPP_EV_IPV4_DOWN), 1);
	CHECK(server.sent[0][5] >= 1); /* Terminate-Request */
	tr = h_last(&server, PPP_PROTO_LCP, FSM_TERM_REQ);
	CHECK(tr != NULL);
	CHECK_EQ(tr->len, 4 + strlen("User request"));
	CHECK_MEM(tr->data + 4, "User request", strlen("User request"));
	CHECK(client.sent[0][6] >= 1); /* Terminate-Ack */
	CHECK_EQ(ppp_deadline(&client.ppp), UINT64_MAX);
}

TEST(lower_down)
{
	CHECK_EQ(up_with(PPP_AUTH_PAP), 0);
	ppp_lower_down(&client.ppp, h_now);
	CHECK_EQ(h_down_reason(&client), PPP_DOWN_LOWER);
	CHECK_EQ(h_count(&client, PPP_EV_IPV4_DOWN), 1);
	CHECK_EQ(h_count(&client, PPP_EV_LINK_DOWN), 1);
	CHECK_EQ(client.sent[0][5], 0); /* no Terminate-Request without a lower layer */
	/* A new session on the same struct negotiates again. */
	ppp_lower_down(&server.ppp, h_now);
	client.nevents = server.nevents = 0;
	ppp_lower_up(&client.ppp, h_now);
	ppp_lower_up(&server.ppp, h_now);
	h_run(&client, &server, h_now + 2000);
	CHECK_EQ(h_count(&client, PPP_EV_IPV4_UP), 1);
	CHECK_EQ(h_count(&server, PPP_EV_IPV6_UP), 1);
}

/* A Configure-Request in Opened renegotiates: NCPs go down, auth and NCPs run again. */
TEST(lcp_renegotiation)
{
	static const uint8_t opts[] = { 5, 6, 0x0b, 0xad, 0xf0, 0x0d };
	struct ppp_status cs;

	CHECK_EQ(up_with(PPP_AUTH_CHAP_MD5), 0);
	h_packet(&client, PPP_PROTO_LCP, FSM_CONF_REQ, 0x77, opts, sizeof(opts));
	ppp_get_status(&client.ppp, &cs);
	CHECK(!strcmp(cs.phase, "Establish"));
	CHECK_EQ(h_count(&client, PPP_EV_IPV4_DOWN), 1);
	CHECK_EQ(h_count(&client, PPP_EV_IPV6_DOWN), 1);
	h_run(&client, &server, h_now + 5000);
	CHECK_EQ(h_count(&client, PPP_EV_AUTH_OK), 2);
	CHECK_EQ(h_count(&server, PPP_EV_AUTH_OK), 2);
	CHECK_EQ(h_count(&client, PPP_EV_IPV4_UP), 2);
	CHECK_EQ(h_count(&server, PPP_EV_IPV6_UP), 2);
	CHECK_EQ(h_count(&client, PPP_EV_LINK_DOWN), 0);
}

/* A looped-back line: the client talks to itself. */
TEST(loopback_detected)
{
	struct ppp_config cc;

	h_client_config(&cc, "s3cret");
	h_init(&client, &cc, 17);
	h_now = 1000;
	client.peer = &client;
	ppp_lower_up(&client.ppp, h_now);
	h_run(&client, NULL, h_now + 60000);
	CHECK_EQ(h_down_reason(&client), PPP_DOWN_LOOPBACK);
	CHECK_EQ(h_count(&client, PPP_EV_LINK_DOWN), 1);
}

/* An Echo-Request carrying our own magic number in Opened: looped back. */
TEST(loopback_in_opened_echo)
{
	uint8_t echo[8] = { 9, 77, 0, 8 };
	uint32_t magic;

	CHECK_EQ(up_with(PPP_AUTH_NONE), 0);
	magic = client.ppp.lcp_opt.magic;
	echo[4] = magic >> 24;
	echo[5] = magic >> 16;
	echo[6] = magic >> 8;
	echo[7] = magic;
	h_inject(&client, PPP_PROTO_LCP, echo, sizeof(echo));
	h_run(&client, &server, h_now + 10000);
	CHECK_EQ(h_down_reason(&client), PPP_DOWN_LOOPBACK);
}

TEST(malformed_dropped_without_state_change)
{
	static const uint8_t bad[][8] = {
		{ 1, 1, 0, 3 },		    /* Length below the header */
		{ 1, 1, 0, 200 },	    /* Length past the data */
		{ 1, 1, 0, 8, 1, 1, 0, 0 }, /* option length 1 */
		{ 1, 1, 0, 8, 3, 9, 0, 0 }, /* option overruns */
		{ 9, 1, 0, 6, 0, 0 },	    /* Echo without a whole magic */
		{ 8, 1, 0, 5, 0 },	    /* Protocol-Reject without a protocol */
		{ 7, 1, 0, 4 },		    /* Code-Reject without the rejected code */
		{ 2, 1, 0, 6, 1, 1 },	    /* Ack with a bad option list */
	};
	struct ppp_status before, after;

	CHECK_EQ(up_with(PPP_AUTH_PAP), 0);
	ppp_get_status(&client.ppp, &before);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		h_inject(&client, PPP_PROTO_LCP, bad[i], sizeof(bad[i]));
		if (bad[i][0] >= 8) /* LCP-only codes: the NCPs Code-Reject them */
			continue;
		h_inject(&client, PPP_PROTO_IPCP, bad[i], sizeof(bad[i]));
		h_inject(&client, PPP_PROTO_IPV6CP, bad[i], sizeof(bad[i]));
	}
	h_inject(&client, PPP_PROTO_LCP, bad[0], 2); /* shorter than a header */
	ppp_get_status(&client.ppp, &after);
	CHECK(!strcmp(after.lcp_state, "Opened"));
	CHECK(!strcmp(after.ipcp_state, "Opened"));
	CHECK(!strcmp(after.ipv6cp_state, "Opened"));
	CHECK(after.rx_malformed >= before.rx_malformed + 19);
	CHECK_EQ(client.head, client.tail); /* nothing was sent in answer */
	h_run(&client, &server, h_now + 10000);
	CHECK_EQ(h_count(&client, PPP_EV_LINK_DOWN), 0);
}

TEST(unknown_protocol_rejected)
{
	static const uint8_t payload[] = { 1, 2, 3, 4 };
	struct ppp_status cs, ss;

	CHECK_EQ(up_with(PPP_AUTH_NONE), 0);
	h_inject(&client, 0x4021, payload, sizeof(payload));
	CHECK_EQ(client.sent[0][8], 1); /* LCP Protocol-Reject */
	h_run(&client, &server, h_now + 5000);
	ppp_get_status(&client.ppp, &cs);
	ppp_get_status(&server.ppp, &ss);
	CHECK_EQ(cs.rx_proto_reject, 1);
	CHECK(!strcmp(ss.lcp_state, "Opened")); /* a reject of a foreign protocol is RXJ+ */
	CHECK_EQ(h_count(&server, PPP_EV_LINK_DOWN), 0);
}

TEST(ncp_before_network_phase_ignored)
{
	static const uint8_t req[] = { 1, 1, 0, 10, 3, 6, 10, 0, 0, 9 };
	struct ppp_config cc;
	struct ppp_status cs;

	h_client_config(&cc, "s3cret");
	h_init(&client, &cc, 18);
	h_now = 0;
	ppp_lower_up(&client.ppp, 0);
	h_inject(&client, PPP_PROTO_IPCP, req, sizeof(req));
	ppp_get_status(&client.ppp, &cs);
	CHECK(!strcmp(cs.ipcp_state, "Initial"));
	CHECK_EQ(cs.rx_ignored, 1);
}

TEST(init_rejects_bad_config)
{
	struct ppp_config sc;
	struct ppp_callbacks cb = h_callbacks;
	struct ppp p;

	h_server_config(&sc, PPP_AUTH_PAP);
	sc.mru = 100;
	CHECK_EQ(ppp_init(&p, &sc, &cb), -EINVAL);
	sc.mru = 9000; /* RFC 4638 on a jumbo-frame link */
	CHECK_EQ(ppp_init(&p, &sc, &cb), 0);
	ppp_destroy(&p);
	sc.mru = 0;
	cb.get_secret = NULL;
	CHECK_EQ(ppp_init(&p, &sc, &cb), -EINVAL);
}

/* Every reason has its own words, and a reason out of range reads as "none". */
TEST(down_reason_text_per_reason)
{
	int i, j;

	for (i = PPP_DOWN_NONE; i <= PPP_DOWN_NO_NETWORK; i++) {
		CHECK(ppp_down_reason_text(i)[0] != '\0');
		for (j = PPP_DOWN_NONE; j < i; j++)
			CHECK(strcmp(ppp_down_reason_text(i), ppp_down_reason_text(j)));
	}
	CHECK(!strcmp(ppp_down_reason_text(PPP_DOWN_NO_NETWORK + 1),
		      ppp_down_reason_text(PPP_DOWN_NONE)));
}

int main(void)
{
	check_prefix = "ppp_link";
	RUN(up_without_auth);
	RUN(up_with_pap);
	RUN(up_with_chap_md5);
	RUN(up_with_mschapv2);
	RUN(wrong_password_pap);
	RUN(wrong_password_chap_md5);
	RUN(wrong_password_mschapv2);
	RUN(unknown_user_fails);
	RUN(dns_rejected_ipcp_opens);
	RUN(no_address_no_network);
	RUN(ipv6cp_protocol_rejected);
	RUN(mru_1500_meets_1492);
	RUN(echo_keepalive);
	RUN(echo_timeout);
	RUN(echo_adaptive_skips_while_data_flows);
	RUN(peer_terminate);
	RUN(lower_down);
	RUN(lcp_renegotiation);
	RUN(loopback_detected);
	RUN(loopback_in_opened_echo);
	RUN(malformed_dropped_without_state_change);
	RUN(unknown_protocol_rejected);
	RUN(ncp_before_network_phase_ignored);
	RUN(init_rejects_bad_config);
	RUN(down_reason_text_per_reason);
	return check_summary();
}
