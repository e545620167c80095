// SPDX-License-Identifier: GPL-2.0
/* PAP core: wire format, both roles against each other, retransmission and failures. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>

#include "check.h"
#include "auth_harness.h"

static struct endpoint peer, server;

static int setup(const char *password, uint32_t max_attempts)
{
	int err =
		endpoint_init(&peer, AUTH_ROLE_PEER, PPP_AUTH_PAP, "alice", password, max_attempts);

	if (!err)
		err = endpoint_init(&server, AUTH_ROLE_AUTHENTICATOR, PPP_AUTH_PAP, "bras", "",
				    max_attempts);
	server.users[0] = "alice";
	server.secrets[0] = "open sesame";
	peer.next_random = 0x20;
	return err;
}

static void send_to_peer(uint8_t code, uint8_t id, const uint8_t *body, size_t body_len)
{
	uint8_t pkt[HARNESS_PKT_MAX];

	pkt[0] = code;
	pkt[1] = id;
	pkt[2] = (uint8_t)((4 + body_len) >> 8);
	pkt[3] = (uint8_t)(4 + body_len);
	memcpy(pkt + 4, body, body_len);
	auth_input(&peer.auth, 10, PPP_PROTO_PAP, pkt, 4 + body_len);
}

TEST(request_wire_format)
{
	static const uint8_t expected[] = { 1,	 0x20, 0,   18,	 5,   'a', 'l', 'i', 'c',
					    'e', 7,    'p', 'a', 's', 's', 'w', 'r', 'd' };

	CHECK_EQ(setup("passwrd", 0), 0);
	auth_start(&peer.auth, 0);
	CHECK_EQ(peer.n_out, 1);
	CHECK_EQ(peer.out[0].proto, PPP_PROTO_PAP);
	CHECK_EQ(peer.out[0].len, sizeof(expected));
	CHECK_MEM(peer.out[0].data, expected, sizeof(expected));
}

TEST(both_roles_succeed)
{
	static const uint8_t ack[] = { 2, 0x20, 0, 13, 8, 'L', 'o', 'g', 'i', 'n', ' ', 'o', 'k' };

	CHECK_EQ(setup("open sesame", 0), 0);
	auth_start(&server.auth, 0);
	auth_start(&peer.auth, 0);
	CHECK_EQ(server.n_out, 0); /* the authenticator only answers */
	deliver(&peer, &server, 1);
	CHECK_EQ(server.n_out, 1);
	CHECK_MEM(server.out[0].data, ack, sizeof(ack));
	deliver(&server, &peer, 2);
	CHECK(server.ok);
	CHECK(peer.ok);
	CHECK_EQ(server.results, 1);
	CHECK_EQ(peer.results, 1);
	CHECK(strcmp(auth_peer_name(&server.auth), "alice") == 0);
	CHECK_EQ(auth_deadline(&peer.auth), UINT64_MAX);
	/* The request with the password in clear is not kept once it is answered. */
	CHECK(memmem(peer.auth.tx, sizeof(peer.auth.tx), "open sesame", 11) == NULL);
}

TEST(wrong_password_nak)
{
	CHECK_EQ(setup("open sesamE", 0), 0);
	auth_start(&server.auth, 0);
	auth_start(&peer.auth, 0);
	pump(&peer, &server, 1);
	CHECK(!server.ok);
	CHECK(!peer.ok);
	CHECK(auth_peer_name(&server.auth) == NULL);
	CHECK(strstr(peer.message,
		     "PAP authentication failed: peer rejected our user name or password "
		     "(message \"Login incorrect\")") != NULL);
	CHECK(strstr(server.message, "peer \"alice\" failed: unknown user or wrong password") !=
	      NULL);
}

/* A prefix of the right password, or the password with extra bytes, is wrong. */
TEST(password_length_matters)
{
	CHECK_EQ(setup("open", 0), 0);
	auth_start(&server.auth, 0);
	auth_start(&peer.auth, 0);
	pump(&peer, &server, 1);
	CHECK(!server.ok);

	CHECK_EQ(setup("open sesame!", 0), 0);
	auth_start(&server.auth, 0);
	auth_start(&peer.auth, 0);
	pump(&peer, &server, 1);
	CHECK(!server.ok);
}

TEST(unknown_user_same_nak)
{
	struct harness_pkt wrong_pw;

	CHECK_EQ(setup("bad", 0), 0);
	auth_start(&server.auth, 0);
	auth_start(&peer.auth, 0);
	deliver(&peer, &server, 1);
	wrong_pw = server.out[0];

	CHECK_EQ(setup("open sesame", 0), 0);
	server.users[0] = "mallory";
	auth_start(&server.auth, 0);
	auth_start(&peer.auth, 0);
	deliver(&peer, &server, 1);
	CHECK_EQ(server.out[0].len, wrong_pw.len);
	CHECK_MEM(server.out[0].data, wrong_pw.data, wrong_pw.len);
	CHECK(!server.ok);
	CHECK_EQ(server.lookups, 1);
}

/* Empty secrets in the table never authenticate anyone, not even with an empty password. */
TEST(empty_secret_never_matches)
{
	CHECK_EQ(setup("", 0), 0);
	server.secrets[0] = "";
	auth_start(&server.auth, 0);
	auth_start(&peer.auth, 0);
	pump(&peer, &server, 1);
	CHECK(!server.ok);
	CHECK(!peer.ok);
}

/* Lost requests are resent with a new Identifier; the answer to the last one counts. */
TEST(retransmit_new_id_then_ack)
{
	CHECK_EQ(setup("open sesame", 0), 0);
	auth_start(&server.auth, 0);
	auth_start(&peer.auth, 0);
	peer.n_out = 0; /* lost */
	CHECK_EQ(fire_timer(&peer), 3000);
	CHECK_EQ(peer.n_out, 1);
	CHECK_EQ(peer.out[0].data[1], 0x21);
	pump(&peer, &server, 3001);
	CHECK(peer.ok);
	CHECK(server.ok);
}

TEST(peer_gives_up_after_max_attempts)
{
	CHECK_EQ(setup("open sesame", 4), 0);
	auth_start(&peer.auth, 0);
	for (int i = 0; i < 3; i++)
		fire_timer(&peer);
	CHECK_EQ(peer.n_sent, 4);
	CHECK_EQ(peer.results, 0);
	CHECK_EQ(fire_timer(&peer), 12000);
	CHECK_EQ(peer.n_sent, 4);
	CHECK_EQ(peer.results, 1);
	CHECK(!peer.ok);
	CHECK(strstr(peer.message, "no reply to 4 requests") != NULL);
	CHECK_EQ(auth_deadline(&peer.auth), UINT64_MAX);
}

TEST(authenticator_times_out)
{
	CHECK_EQ(setup("open sesame", 2), 0);
	auth_start(&server.auth, 500);
	CHECK_EQ(fire_timer(&server), 6500);
	CHECK(!server.ok);
	CHECK(strstr(server.message, "no Authenticate-Request from the peer within 6 s") != NULL);
	/* A request arriving after the timeout gets nothing: no verdict was ever sent. */
	auth_start(&peer.auth, 7000);
	deliver(&peer, &server, 7000);
	CHECK_EQ(server.n_out, 0);
	CHECK_EQ(server.results, 1);
}

/* The Ack was lost: the peer's retransmission (new Identifier) gets an Ack with that id. */
TEST(lost_ack_repeated)
{
	CHECK_EQ(setup("open sesame", 0), 0);
	auth_start(&server.auth, 0);
	auth_start(&peer.auth, 0);
	deliver(&peer, &server, 1);
	CHECK(server.ok);
	server.n_out = 0; /* lost */
	fire_timer(&peer);
	deliver(&peer, &server, 3000);
	CHECK_EQ(server.n_out, 1);
	CHECK_EQ(server.out[0].data[0], 2);
	CHECK_EQ(server.out[0].data[1], 0x21);
	CHECK_EQ(server.results, 1);
	deliver(&server, &peer, 3001);
	CHECK(peer.ok);
}

TEST(ack_with_wrong_id_or_bad_length_dropped)
{
	static const uint8_t overlong_msg[] = { 9, 'h', 'i' };
	static const uint8_t no_msg_length[1] = { 0 };

	CHECK_EQ(setup("x", 0), 0);
	auth_start(&peer.auth, 0);
	send_to_peer(2, 0x21, overlong_msg, 0);
	CHECK_EQ(auth_get_stats(&peer.auth)->rx_bad_id, 1);
	send_to_peer(2, 0x20, overlong_msg, sizeof(overlong_msg));
	CHECK_EQ(auth_get_stats(&peer.auth)->rx_malformed, 1);
	send_to_peer(1, 0x20, overlong_msg, sizeof(overlong_msg));
	CHECK_EQ(auth_get_stats(&peer.auth)->rx_unexpected, 1);
	CHECK_EQ(peer.results, 0);
	/* An Ack without Msg-Length at all is accepted, as pppd does. */
	send_to_peer(2, 0x20, no_msg_length, 0);
	CHECK(peer.ok);
}

/* The server's Nak message is shown, but only as bounded printable text. */
TEST(nak_message_sanitized)
{
	uint8_t body[1 + 200];

	CHECK_EQ(setup("x", 0), 0);
	auth_start(&peer.auth, 0);
	body[0] = 200;
	memset(body + 1, 'A', 200);
	body[1] = '\n';
	body[2] = 0;
	send_to_peer(3, 0x20, body, sizeof(body));
	CHECK(!peer.ok);
	CHECK(strstr(peer.message, "(message \"??AAAA") != NULL);
	CHECK(strchr(peer.message, '\n') == NULL);
	CHECK(strlen(peer.message) < 200);
}

TEST(request_lengths_checked)
{
	static const uint8_t name_past_end[] = { 1, 1, 0, 9, 6, 'a', 'l', 'i', 'c' };
	static const uint8_t no_password[] = { 1, 1, 0, 10, 5, 'a', 'l', 'i', 'c', 'e' };
	static const uint8_t password_past_end[] = {
		1, 1, 0, 12, 5, 'a', 'l', 'i', 'c', 'e', 2, 'x'
	};
	static const uint8_t nul_in_name[] = { 1, 1, 0, 11, 5, 'a', 0, 'i', 'c', 'e', 0 };

	CHECK_EQ(setup("x", 0), 0);
	auth_start(&server.auth, 0);
	auth_input(&server.auth, 1, PPP_PROTO_PAP, name_past_end, sizeof(name_past_end));
	auth_input(&server.auth, 1, PPP_PROTO_PAP, no_password, sizeof(no_password));
	auth_input(&server.auth, 1, PPP_PROTO_PAP, password_past_end, sizeof(password_past_end));
	auth_input(&server.auth, 1, PPP_PROTO_PAP, nul_in_name, sizeof(nul_in_name));
	CHECK_EQ(auth_get_stats(&server.auth)->rx_malformed, 4);
	CHECK_EQ(server.lookups, 0);
	CHECK_EQ(server.n_out, 0);
	CHECK_EQ(server.results, 0);
}

TEST(input_before_start_ignored)
{
	CHECK_EQ(setup("open sesame", 0), 0);
	auth_start(&peer.auth, 0);
	deliver(&peer, &server, 1);
	CHECK_EQ(auth_get_stats(&server.auth)->rx_unexpected, 1);
	CHECK_EQ(server.n_out, 0);
	CHECK_EQ(auth_deadline(&server.auth), UINT64_MAX);
}

int main(void)
{
	check_prefix = "pap";
	RUN(request_wire_format);
	RUN(both_roles_succeed);
	RUN(wrong_password_nak);
	RUN(password_length_matters);
	RUN(unknown_user_same_nak);
	RUN(empty_secret_never_matches);
	RUN(retransmit_new_id_then_ack);
	RUN(peer_gives_up_after_max_attempts);
	RUN(authenticator_times_out);
	RUN(lost_ack_repeated);
	RUN(ack_with_wrong_id_or_bad_length_dropped);
	RUN(nak_message_sanitized);
	RUN(request_lengths_checked);
	RUN(input_before_start_ignored);
	return check_summary();
}
