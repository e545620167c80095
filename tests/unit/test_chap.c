// SPDX-License-Identifier: GPL-2.0
/* CHAP-MD5 and MS-CHAPv2 cores: wire format, both roles against each other, failures. */
#include <stdio.h>

#include "check.h"
#include "auth_harness.h"

static struct endpoint peer, server;

static int setup(enum ppp_auth_proto proto, const char *password, uint32_t max_attempts)
{
	int err = endpoint_init(&peer, AUTH_ROLE_PEER, proto, "alice", password, max_attempts);

	if (!err)
		err = endpoint_init(&server, AUTH_ROLE_AUTHENTICATOR, proto, "isp-bras", "",
				    max_attempts);
	server.users[0] = "alice";
	server.secrets[0] = "s3cret pass";
	server.users[1] = "bob";
	server.secrets[1] = "bobs secret";
	server.next_random = 0x40;
	peer.next_random = 0x90;
	return err;
}

static void start_both(uint64_t now_ms)
{
	auth_start(&server.auth, now_ms);
	auth_start(&peer.auth, now_ms);
}

/* MD5(0x01 | "secret" | 00 01 .. 0f), computed with an independent MD5 implementation. */
TEST(md5_response_known_value)
{
	static const uint8_t expected[16] = { 0x74, 0x0e, 0x86, 0x46, 0x3b, 0xda, 0x3a, 0x4d,
					      0x70, 0x17, 0xd6, 0xe0, 0xfb, 0xa0, 0x69, 0x9d };
	uint8_t challenge[4 + 1 + 16 + 3] = { 1, 1, 0, sizeof(challenge), 16 };

	for (int i = 0; i < 16; i++)
		challenge[5 + i] = (uint8_t)i;
	memcpy(challenge + 21, "bng", 3);
	CHECK_EQ(endpoint_init(&peer, AUTH_ROLE_PEER, PPP_AUTH_CHAP_MD5, "alice", "secret", 0), 0);
	auth_start(&peer.auth, 0);
	auth_input(&peer.auth, 0, PPP_PROTO_CHAP, challenge, sizeof(challenge));
	CHECK_EQ(peer.n_out, 1);
	CHECK_EQ(peer.out[0].proto, PPP_PROTO_CHAP);
	CHECK_EQ(peer.out[0].len, 4 + 1 + 16 + 5);
	CHECK_EQ(peer.out[0].data[0], 2); /* Response */
	CHECK_EQ(peer.out[0].data[1], 1); /* the Challenge's Identifier */
	CHECK_EQ(peer.out[0].data[3], 26);
	CHECK_EQ(peer.out[0].data[4], 16);
	CHECK_MEM(peer.out[0].data + 5, expected, 16);
	CHECK_MEM(peer.out[0].data + 21, "alice", 5);
}

TEST(md5_both_roles_succeed)
{
	CHECK_EQ(setup(PPP_AUTH_CHAP_MD5, "s3cret pass", 0), 0);
	start_both(0);
	CHECK_EQ(server.n_out, 1);
	CHECK_EQ(server.out[0].data[0], 1);
	CHECK_EQ(server.out[0].data[4], 16); /* challenge length */
	CHECK_MEM(server.out[0].data + 21, "isp-bras", 8);
	pump(&server, &peer, 10);
	CHECK_EQ(server.results, 1);
	CHECK_EQ(peer.results, 1);
	CHECK(server.ok);
	CHECK(peer.ok);
	CHECK(strcmp(auth_peer_name(&server.auth), "alice") == 0);
	CHECK_EQ(auth_deadline(&server.auth), UINT64_MAX);
	CHECK_EQ(auth_deadline(&peer.auth), UINT64_MAX);
	CHECK(strstr(peer.message, "succeeded") != NULL);
}

TEST(md5_wrong_secret_fails_both_sides)
{
	CHECK_EQ(setup(PPP_AUTH_CHAP_MD5, "wrong", 0), 0);
	start_both(0);
	pump(&server, &peer, 10);
	CHECK_EQ(server.results, 1);
	CHECK_EQ(peer.results, 1);
	CHECK(!server.ok);
	CHECK(!peer.ok);
	CHECK(auth_peer_name(&server.auth) == NULL);
	CHECK(strstr(peer.message, "CHAP authentication failed: peer rejected our response") !=
	      NULL);
	CHECK(strstr(peer.message, "Access denied") != NULL);
	CHECK(strstr(server.message, "unknown user or wrong secret") != NULL);
}

/* The peer cannot tell an unknown user from a wrong password: same packet, same words. */
TEST(unknown_user_indistinguishable)
{
	struct harness_pkt wrong_pw, unknown;
	char wrong_msg[512];

	CHECK_EQ(setup(PPP_AUTH_CHAP_MD5, "wrong", 0), 0);
	start_both(0);
	deliver(&server, &peer, 1);
	deliver(&peer, &server, 2);
	CHECK_EQ(server.n_out, 1);
	wrong_pw = server.out[0];
	deliver(&server, &peer, 3);
	CHECK(!server.ok);
	CHECK(!peer.ok);
	snprintf(wrong_msg, sizeof(wrong_msg), "%s", peer.message);

	CHECK_EQ(setup(PPP_AUTH_CHAP_MD5, "wrong", 0), 0);
	server.users[0] = "carol"; /* alice is now unknown */
	start_both(0);
	deliver(&server, &peer, 1);
	deliver(&peer, &server, 2);
	CHECK_EQ(server.n_out, 1);
	unknown = server.out[0];
	deliver(&server, &peer, 3);
	CHECK(!server.ok);
	CHECK(!peer.ok);
	CHECK_EQ(unknown.data[0], 4);
	CHECK_EQ(unknown.len, wrong_pw.len);
	CHECK_MEM(unknown.data, wrong_pw.data, wrong_pw.len);
	CHECK(strcmp(wrong_msg, peer.message) == 0);
	CHECK(strstr(server.message, "unknown user or wrong secret") != NULL);
}

TEST(mschapv2_both_roles_succeed)
{
	CHECK_EQ(setup(PPP_AUTH_MSCHAPV2, "s3cret pass", 0), 0);
	start_both(0);
	pump(&server, &peer, 10);
	CHECK(server.ok);
	CHECK(peer.ok);
	CHECK_EQ(peer.results, 1);
	CHECK(strstr(peer.message, "MS-CHAPv2 authentication succeeded") != NULL);
	CHECK(strcmp(auth_peer_name(&server.auth), "alice") == 0);
}

TEST(mschapv2_wrong_password_e691)
{
	CHECK_EQ(setup(PPP_AUTH_MSCHAPV2, "s3cret pasS", 0), 0);
	start_both(0);
	deliver(&server, &peer, 1);
	deliver(&peer, &server, 2);
	CHECK_EQ(server.n_out, 1);
	CHECK_EQ(server.out[0].data[0], 4);
	/* "E=691 R=0 C=<our challenge 40 41 ..> V=3 M=Access denied" */
	CHECK_EQ(server.out[0].len, 4 + 64);
	CHECK_MEM(server.out[0].data + 4,
		  "E=691 R=0 C=4142434445464748494A4B4C4D4E4F50 V=3 M=Access denied", 64);
	deliver(&server, &peer, 3);
	CHECK(!peer.ok);
	CHECK(strstr(peer.message, "peer rejected our response (E=691 authentication failure") !=
	      NULL);
	CHECK(strstr(peer.message, "Access denied") != NULL);
}

/* The RFC 2759 9.2 exchange seen from the peer, with a server that knows the password. */
static const uint8_t rfc_auth_challenge[16] = { 0x5B, 0x5D, 0x7C, 0x7D, 0x7B, 0x3F, 0x2F, 0x3E,
						0x3C, 0x2C, 0x60, 0x21, 0x32, 0x26, 0x26, 0x28 };
static const uint8_t rfc_peer_challenge[16] = { 0x21, 0x40, 0x23, 0x24, 0x25, 0x5E, 0x26, 0x2A,
						0x28, 0x29, 0x5F, 0x2B, 0x3A, 0x33, 0x7C, 0x7E };
static const uint8_t rfc_nt_response[24] = { 0x82, 0x30, 0x9E, 0xCD, 0x8D, 0x70, 0x8B, 0x5E,
					     0xA0, 0x8F, 0xAA, 0x39, 0x81, 0xCD, 0x83, 0x54,
					     0x42, 0x33, 0x11, 0x4A, 0x3D, 0x85, 0xD6, 0xDF };

static void rfc_peer_answers(void)
{
	uint8_t challenge[4 + 1 + 16 + 3] = { 1, 7, 0, sizeof(challenge), 16 };

	memcpy(challenge + 5, rfc_auth_challenge, 16);
	memcpy(challenge + 21, "bng", 3);
	endpoint_init(&peer, AUTH_ROLE_PEER, PPP_AUTH_MSCHAPV2, "User", "clientPass", 0);
	peer.fixed_random = rfc_peer_challenge;
	peer.fixed_len = 16;
	auth_start(&peer.auth, 0);
	auth_input(&peer.auth, 0, PPP_PROTO_CHAP, challenge, sizeof(challenge));
}

static void send_verdict(uint8_t code, uint8_t id, const char *msg)
{
	uint8_t pkt[128];
	size_t len = 4 + strlen(msg);

	pkt[0] = code;
	pkt[1] = id;
	pkt[2] = 0;
	pkt[3] = (uint8_t)len;
	memcpy(pkt + 4, msg, strlen(msg));
	auth_input(&peer.auth, 5, PPP_PROTO_CHAP, pkt, len);
}

TEST(mschapv2_peer_rfc_vector_and_server_proof)
{
	static const uint8_t zero[8] = { 0 };

	rfc_peer_answers();
	CHECK_EQ(peer.n_out, 1);
	CHECK_EQ(peer.out[0].len, 4 + 1 + 49 + 4);
	CHECK_EQ(peer.out[0].data[1], 7);
	CHECK_EQ(peer.out[0].data[4], 49);
	CHECK_MEM(peer.out[0].data + 5, rfc_peer_challenge, 16);
	CHECK_MEM(peer.out[0].data + 21, zero, 8);
	CHECK_MEM(peer.out[0].data + 29, rfc_nt_response, 24);
	CHECK_EQ(peer.out[0].data[53], 0); /* Flags */
	CHECK_MEM(peer.out[0].data + 54, "User", 4);
	send_verdict(3, 7, "S=407A5589115FD0D6209F510FE9C04566932CDA56 M=Welcome");
	CHECK_EQ(peer.results, 1);
	CHECK(peer.ok);
}

/* A server that accepts us without knowing the password cannot produce S=. */
TEST(mschapv2_peer_rejects_forged_success)
{
	rfc_peer_answers();
	send_verdict(3, 7, "S=407A5589115FD0D6209F510FE9C04566932CDA57 M=Welcome");
	CHECK_EQ(peer.results, 1);
	CHECK(!peer.ok);
	CHECK(strstr(peer.message, "Authenticator-Response is wrong") != NULL);

	rfc_peer_answers();
	send_verdict(3, 7, "M=Welcome");
	CHECK(!peer.ok);
}

TEST(mschapv2_failure_fields_in_words)
{
	rfc_peer_answers();
	send_verdict(4, 7, "E=648 R=0 C=00000000000000000000000000000000 V=3 M=expired");
	CHECK(!peer.ok);
	CHECK(strstr(peer.message, "E=648 password expired") != NULL);
	CHECK(strstr(peer.message, "\"expired\"") != NULL);
}

TEST(verdict_with_wrong_id_ignored)
{
	rfc_peer_answers();
	send_verdict(4, 8, "E=691 R=0 C=00 V=3 M=x");
	CHECK_EQ(peer.results, 0);
	CHECK_EQ(auth_get_stats(&peer.auth)->rx_bad_id, 1);
	send_verdict(3, 7, "S=407A5589115FD0D6209F510FE9C04566932CDA56 M=Welcome");
	CHECK(peer.ok);
	/* A second verdict after the result is dropped, and result() stays at one call. */
	send_verdict(4, 7, "E=691 R=0 C=00 V=3 M=x");
	CHECK_EQ(peer.results, 1);
	CHECK_EQ(auth_get_stats(&peer.auth)->rx_unexpected, 1);
}

/* A lost Challenge is retransmitted with the same Identifier and value. */
TEST(lost_challenge_retransmitted)
{
	struct harness_pkt first;

	CHECK_EQ(setup(PPP_AUTH_MSCHAPV2, "s3cret pass", 0), 0);
	start_both(0);
	first = server.out[0];
	server.n_out = 0; /* lost */
	CHECK_EQ(auth_deadline(&server.auth), 3000);
	CHECK_EQ(fire_timer(&server), 3000);
	CHECK_EQ(server.n_out, 1);
	CHECK_EQ(server.out[0].len, first.len);
	CHECK_MEM(server.out[0].data, first.data, first.len);
	CHECK_EQ(auth_deadline(&server.auth), 6000);
	pump(&server, &peer, 3100);
	CHECK(server.ok);
	CHECK(peer.ok);
}

/* A lost Response: the repeated Challenge gets the very same Response (same peer challenge). */
TEST(lost_response_answered_again)
{
	struct harness_pkt response;

	CHECK_EQ(setup(PPP_AUTH_MSCHAPV2, "s3cret pass", 0), 0);
	start_both(0);
	deliver(&server, &peer, 1);
	response = peer.out[0];
	peer.n_out = 0; /* lost */
	fire_timer(&server);
	deliver(&server, &peer, 3000);
	CHECK_EQ(peer.n_out, 1);
	CHECK_MEM(peer.out[0].data, response.data, response.len);
	pump(&server, &peer, 3001);
	CHECK(server.ok);
	CHECK(peer.ok);
}

/* A lost Success: the repeated Response gets the same Success again (RFC 1994 4.2). */
TEST(lost_success_repeated)
{
	struct harness_pkt success;

	CHECK_EQ(setup(PPP_AUTH_MSCHAPV2, "s3cret pass", 0), 0);
	start_both(0);
	deliver(&server, &peer, 1);
	deliver(&peer, &server, 2);
	CHECK(server.ok);
	success = server.out[0];
	server.n_out = 0; /* lost */
	CHECK_EQ(auth_deadline(&server.auth), UINT64_MAX);
	/* The peer still waits; the authenticator does not retransmit after its verdict. */
	CHECK(auth_deadline(&peer.auth) != UINT64_MAX);
	auth_input(&server.auth, 3, PPP_PROTO_CHAP, peer.auth.tx, peer.auth.tx_len);
	CHECK_EQ(server.n_out, 1);
	CHECK_MEM(server.out[0].data, success.data, success.len);
	CHECK_EQ(server.results, 1);
	deliver(&server, &peer, 4);
	CHECK(peer.ok);
}

TEST(authenticator_gives_up_after_max_attempts)
{
	CHECK_EQ(setup(PPP_AUTH_CHAP_MD5, "s3cret pass", 3), 0);
	auth_start(&server.auth, 1000);
	CHECK_EQ(fire_timer(&server), 4000);
	CHECK_EQ(fire_timer(&server), 7000);
	CHECK_EQ(server.results, 0);
	CHECK_EQ(server.n_sent, 3);
	CHECK_EQ(fire_timer(&server), 10000);
	CHECK_EQ(server.n_sent, 3);
	CHECK_EQ(server.results, 1);
	CHECK(!server.ok);
	CHECK(strstr(server.message, "no response to 3 challenges") != NULL);
	CHECK_EQ(auth_deadline(&server.auth), UINT64_MAX);
}

TEST(peer_times_out_without_challenge)
{
	CHECK_EQ(setup(PPP_AUTH_CHAP_MD5, "s3cret pass", 2), 0);
	auth_start(&peer.auth, 100);
	CHECK_EQ(auth_deadline(&peer.auth), 100 + 2 * 3000);
	auth_timer(&peer.auth, 5000); /* early: nothing happens */
	CHECK_EQ(peer.results, 0);
	CHECK_EQ(fire_timer(&peer), 6100);
	CHECK_EQ(peer.results, 1);
	CHECK(!peer.ok);
	CHECK(strstr(peer.message, "no Challenge from the peer within 6 s") != NULL);
}

/* A peer keeps getting fresh challenges (a server retrying forever): bounded. */
TEST(peer_bounded_by_max_attempts)
{
	uint8_t challenge[4 + 1 + 16] = { 1, 0, 0, sizeof(challenge), 16 };

	CHECK_EQ(setup(PPP_AUTH_CHAP_MD5, "s3cret pass", 3), 0);
	auth_start(&peer.auth, 0);
	for (int i = 0; i < 4; i++) {
		challenge[1] = (uint8_t)i;
		auth_input(&peer.auth, 0, PPP_PROTO_CHAP, challenge, sizeof(challenge));
	}
	CHECK_EQ(peer.n_sent, 3);
	CHECK_EQ(peer.results, 1);
	CHECK(!peer.ok);
}

TEST(response_with_wrong_id_or_size_dropped)
{
	uint8_t response[HARNESS_PKT_MAX];
	size_t len;

	CHECK_EQ(setup(PPP_AUTH_CHAP_MD5, "s3cret pass", 0), 0);
	start_both(0);
	deliver(&server, &peer, 1);
	len = peer.out[0].len;
	memcpy(response, peer.out[0].data, len);
	response[1] ^= 1;
	auth_input(&server.auth, 2, PPP_PROTO_CHAP, response, len);
	CHECK_EQ(auth_get_stats(&server.auth)->rx_bad_id, 1);
	response[1] ^= 1;
	response[4] = 15; /* MD5 values are 16 bytes */
	auth_input(&server.auth, 2, PPP_PROTO_CHAP, response, len);
	CHECK_EQ(auth_get_stats(&server.auth)->rx_malformed, 1);
	response[4] = 16;
	response[3] += 1; /* Length past the data */
	auth_input(&server.auth, 2, PPP_PROTO_CHAP, response, len);
	CHECK_EQ(auth_get_stats(&server.auth)->rx_malformed, 2);
	auth_input(&server.auth, 2, PPP_PROTO_CHAP, response, 3);
	CHECK_EQ(auth_get_stats(&server.auth)->rx_malformed, 3);
	auth_input(&server.auth, 2, PPP_PROTO_PAP, peer.out[0].data, len);
	CHECK_EQ(auth_get_stats(&server.auth)->rx_unexpected, 1);
	CHECK_EQ(server.results, 0);
	/* The genuine one still works, and trailing padding is ignored. */
	memcpy(response, peer.out[0].data, len);
	response[len] = 0xEE;
	auth_input(&server.auth, 3, PPP_PROTO_CHAP, response, len + 1);
	CHECK(server.ok);
}

/* A name with a NUL byte must not be looked up as a shorter name. */
TEST(name_with_nul_rejected)
{
	uint8_t response[HARNESS_PKT_MAX];
	size_t len;

	CHECK_EQ(setup(PPP_AUTH_CHAP_MD5, "s3cret pass", 0), 0);
	start_both(0);
	deliver(&server, &peer, 1);
	len = peer.out[0].len;
	memcpy(response, peer.out[0].data, len);
	response[len] = 0;
	response[len + 1] = 'x';
	response[3] = (uint8_t)(len + 2);
	auth_input(&server.auth, 2, PPP_PROTO_CHAP, response, len + 2);
	CHECK_EQ(auth_get_stats(&server.auth)->rx_malformed, 1);
	CHECK_EQ(server.lookups, 0);
	CHECK_EQ(server.results, 0);
}

/* MD5 challenges may be any length up to 255; a repeat of a long one is still spotted. */
TEST(long_md5_challenge)
{
	uint8_t challenge[4 + 1 + 255];
	size_t responses;

	memset(challenge, 0xA5, sizeof(challenge));
	challenge[0] = 1;
	challenge[1] = 9;
	challenge[2] = sizeof(challenge) >> 8;
	challenge[3] = sizeof(challenge) & 0xFF;
	challenge[4] = 255;
	CHECK_EQ(endpoint_init(&peer, AUTH_ROLE_PEER, PPP_AUTH_CHAP_MD5, "alice", "pw", 0), 0);
	auth_start(&peer.auth, 0);
	auth_input(&peer.auth, 0, PPP_PROTO_CHAP, challenge, sizeof(challenge));
	auth_input(&peer.auth, 0, PPP_PROTO_CHAP, challenge, sizeof(challenge));
	responses = peer.n_out;
	CHECK_EQ(responses, 2);
	CHECK_MEM(peer.out[0].data, peer.out[1].data, peer.out[0].len);
	CHECK_EQ(peer.auth.attempts, 1);
}

TEST(init_rejects_bad_config)
{
	struct auth a;
	struct auth_config cfg = { .role = AUTH_ROLE_AUTHENTICATOR, .proto = PPP_AUTH_CHAP_MD5 };
	struct auth_callbacks cb = { .send = harness_send,
				     .result = harness_result,
				     .random = harness_random };

	CHECK_EQ(auth_init(&a, &cfg, &cb), -EINVAL); /* no get_secret */
	cb.get_secret = harness_get_secret;
	CHECK_EQ(auth_init(&a, &cfg, &cb), 0);
	cfg.proto = PPP_AUTH_NONE;
	CHECK_EQ(auth_init(&a, &cfg, &cb), -EINVAL);
	cfg.proto = PPP_AUTH_MSCHAPV2;
	cfg.secret_len = PPP_SECRET_MAX + 1;
	CHECK_EQ(auth_init(&a, &cfg, &cb), -EINVAL);
}

TEST(destroy_wipes_secret)
{
	static const uint8_t zero[PPP_SECRET_MAX] = { 0 };

	CHECK_EQ(setup(PPP_AUTH_MSCHAPV2, "s3cret pass", 0), 0);
	start_both(0);
	pump(&server, &peer, 1);
	auth_destroy(&peer.auth);
	CHECK_MEM(peer.auth.cfg.secret, zero, sizeof(zero));
	CHECK_EQ(peer.auth.cfg.secret_len, 0);
	CHECK_EQ(auth_deadline(&peer.auth), UINT64_MAX);
	/* A destroyed core ignores everything (its callbacks are gone too). */
	auth_start(&peer.auth, 2);
	auth_input(&peer.auth, 2, PPP_PROTO_CHAP, server.auth.tx, server.auth.tx_len);
	auth_timer(&peer.auth, 1000000);
	CHECK_EQ(auth_deadline(&peer.auth), UINT64_MAX);
}

int main(void)
{
	check_prefix = "chap";
	RUN(md5_response_known_value);
	RUN(md5_both_roles_succeed);
	RUN(md5_wrong_secret_fails_both_sides);
	RUN(unknown_user_indistinguishable);
	RUN(mschapv2_both_roles_succeed);
	RUN(mschapv2_wrong_password_e691);
	RUN(mschapv2_peer_rfc_vector_and_server_proof);
	RUN(mschapv2_peer_rejects_forged_success);
	RUN(mschapv2_failure_fields_in_words);
	RUN(verdict_with_wrong_id_ignored);
	RUN(lost_challenge_retransmitted);
	RUN(lost_response_answered_again);
	RUN(lost_success_repeated);
	RUN(authenticator_gives_up_after_max_attempts);
	RUN(peer_times_out_without_challenge);
	RUN(peer_bounded_by_max_attempts);
	RUN(response_with_wrong_id_or_size_dropped);
	RUN(name_with_nul_rejected);
	RUN(long_md5_challenge);
	RUN(init_rejects_bad_config);
	RUN(destroy_wipes_secret);
	return check_summary();
}
