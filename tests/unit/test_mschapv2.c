// SPDX-License-Identifier: GPL-2.0
/* MS-CHAPv2 computations against the RFC 2759 section 9.2 test vectors. */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "mschapv2.h"

static const char user[] = "User";
static const char password[] = "clientPass";
static const uint8_t auth_challenge[16] = { 0x5B, 0x5D, 0x7C, 0x7D, 0x7B, 0x3F, 0x2F, 0x3E,
					    0x3C, 0x2C, 0x60, 0x21, 0x32, 0x26, 0x26, 0x28 };
static const uint8_t peer_challenge[16] = { 0x21, 0x40, 0x23, 0x24, 0x25, 0x5E, 0x26, 0x2A,
					    0x28, 0x29, 0x5F, 0x2B, 0x3A, 0x33, 0x7C, 0x7E };
static const uint8_t rfc_challenge[8] = { 0xD0, 0x2E, 0x43, 0x86, 0xBC, 0xE9, 0x12, 0x26 };
static const uint8_t rfc_pw_hash[16] = { 0x44, 0xEB, 0xBA, 0x8D, 0x53, 0x12, 0xB8, 0xD6,
					 0x11, 0x47, 0x44, 0x11, 0xF5, 0x69, 0x89, 0xAE };
static const uint8_t rfc_nt_response[24] = { 0x82, 0x30, 0x9E, 0xCD, 0x8D, 0x70, 0x8B, 0x5E,
					     0xA0, 0x8F, 0xAA, 0x39, 0x81, 0xCD, 0x83, 0x54,
					     0x42, 0x33, 0x11, 0x4A, 0x3D, 0x85, 0xD6, 0xDF };
static const char rfc_auth_response[] = "S=407A5589115FD0D6209F510FE9C04566932CDA56";

TEST(nt_password_hash_rfc2759)
{
	uint8_t hash[16];

	CHECK_EQ(mschapv2_nt_password_hash((const uint8_t *)password, strlen(password), hash), 0);
	CHECK_MEM(hash, rfc_pw_hash, 16);
}

TEST(challenge_hash_rfc2759)
{
	uint8_t challenge[8];

	mschapv2_challenge_hash(peer_challenge, auth_challenge, user, strlen(user), challenge);
	CHECK_MEM(challenge, rfc_challenge, 8);
}

TEST(nt_response_rfc2759)
{
	uint8_t response[24];

	CHECK_EQ(mschapv2_nt_response(auth_challenge, peer_challenge, user, strlen(user),
				      (const uint8_t *)password, strlen(password), response),
		 0);
	CHECK_MEM(response, rfc_nt_response, 24);
}

TEST(authenticator_response_rfc2759)
{
	uint8_t digest[MSCHAPV2_DIGEST_LEN];
	char text[MSCHAPV2_AUTH_RESPONSE_LEN + 1];

	CHECK_EQ(mschapv2_authenticator_digest((const uint8_t *)password, strlen(password),
					       rfc_nt_response, peer_challenge, auth_challenge,
					       user, strlen(user), digest),
		 0);
	mschapv2_format_auth_response(digest, text);
	CHECK(strcmp(text, rfc_auth_response) == 0);
}

/* The domain part of "DOMAIN\User" is not hashed: the RFC vector still holds. */
TEST(domain_is_stripped_from_challenge_hash)
{
	static const char domain_user[] = "CORP\\User";
	uint8_t response[24];

	CHECK_EQ(mschapv2_user_offset(domain_user, strlen(domain_user)), 5);
	CHECK_EQ(mschapv2_nt_response(auth_challenge, peer_challenge, domain_user,
				      strlen(domain_user), (const uint8_t *)password,
				      strlen(password), response),
		 0);
	CHECK_MEM(response, rfc_nt_response, 24);
}

TEST(success_message_checked_both_cases)
{
	uint8_t digest[MSCHAPV2_DIGEST_LEN];
	char msg[128];

	mschapv2_authenticator_digest((const uint8_t *)password, strlen(password), rfc_nt_response,
				      peer_challenge, auth_challenge, user, strlen(user), digest);
	snprintf(msg, sizeof(msg), "%s M=Access granted", rfc_auth_response);
	CHECK(mschapv2_success_matches((const uint8_t *)msg, strlen(msg), digest));
	/* Exactly the S= field with nothing after it. */
	CHECK(mschapv2_success_matches((const uint8_t *)rfc_auth_response,
				       strlen(rfc_auth_response), digest));
	CHECK(mschapv2_success_matches(
		(const uint8_t *)"S=407a5589115fd0d6209f510fe9c04566932cda56", 42, digest));
	/* One digit off, truncated, or glued to more text. */
	msg[41] = '7';
	CHECK(!mschapv2_success_matches((const uint8_t *)msg, strlen(msg), digest));
	CHECK(!mschapv2_success_matches((const uint8_t *)rfc_auth_response, 41, digest));
	CHECK(!mschapv2_success_matches(
		(const uint8_t *)"S=407A5589115FD0D6209F510FE9C04566932CDA56X", 43, digest));
	CHECK(!mschapv2_success_matches((const uint8_t *)"M=Access granted", 16, digest));
}

TEST(wrong_password_changes_everything)
{
	uint8_t response[24];

	CHECK_EQ(mschapv2_nt_response(auth_challenge, peer_challenge, user, strlen(user),
				      (const uint8_t *)"clientPasS", 10, response),
		 0);
	CHECK(memcmp(response, rfc_nt_response, 24) != 0);
}

/* UTF-8 input is hashed as UTF-16LE: "é" (C3 A9) is U+00E9, the same as Latin-1 E9. */
TEST(password_utf8_and_latin1)
{
	uint8_t from_utf8[16], from_latin1[16], astral[16];
	static const uint8_t utf8[] = { 'p', 0xC3, 0xA9 };
	static const uint8_t latin1[] = { 'p', 0xE9 };
	static const uint8_t emoji[] = { 0xF0, 0x9F, 0x98, 0x80 };

	CHECK_EQ(mschapv2_nt_password_hash(utf8, sizeof(utf8), from_utf8), 0);
	CHECK_EQ(mschapv2_nt_password_hash(latin1, sizeof(latin1), from_latin1), 0);
	CHECK_MEM(from_utf8, from_latin1, 16);
	CHECK_EQ(mschapv2_nt_password_hash(emoji, sizeof(emoji), astral), 0);
	CHECK(memcmp(astral, from_utf8, 16) != 0);
}

TEST(password_too_long_rejected)
{
	uint8_t long_pw[257], hash[16];

	memset(long_pw, 'a', sizeof(long_pw));
	CHECK_EQ(mschapv2_nt_password_hash(long_pw, 256, hash), 0);
	CHECK_EQ(mschapv2_nt_password_hash(long_pw, 257, hash), -EINVAL);
}

/*
 * A password hash ending in zero bytes gives a weak DES key (all zero bits); MS-CHAP must
 * still encrypt with it. DES under the all-zero key maps zeros to 8CA64DE9C1B123A7.
 */
TEST(weak_des_key_still_used)
{
	static const uint8_t zero_des[8] = { 0x8C, 0xA6, 0x4D, 0xE9, 0xC1, 0xB1, 0x23, 0xA7 };
	uint8_t hash[16] = { 0 }, challenge[8] = { 0 }, out[24];

	mschapv2_challenge_response(challenge, hash, out);
	CHECK_MEM(out, zero_des, 8);
	CHECK_MEM(out + 8, zero_des, 8);
	CHECK_MEM(out + 16, zero_des, 8);
}

TEST(failure_message_parsed)
{
	static const char msg[] =
		"E=691 R=0 C=5B5D7C7D7B3F2F3E3C2C602132262628 V=3 M=Access denied here";
	struct mschapv2_failure f;

	mschapv2_parse_failure((const uint8_t *)msg, strlen(msg), &f);
	CHECK_EQ(f.error, 691);
	CHECK_EQ(f.retry, 0);
	CHECK(f.message != NULL);
	CHECK_EQ(f.message_len, strlen("Access denied here"));
	CHECK_MEM(f.message, "Access denied here", f.message_len);
	CHECK(strcmp(mschapv2_error_name(f.error), "authentication failure") == 0);
}

TEST(failure_message_malformed_fields_absent)
{
	struct mschapv2_failure f;

	mschapv2_parse_failure((const uint8_t *)"E= R=x", 6, &f);
	CHECK_EQ(f.error, -1);
	CHECK_EQ(f.retry, -1);
	CHECK(f.message == NULL);
	/* Ten digits with leading zeros are valid; more, or past INT_MAX, are not. */
	mschapv2_parse_failure((const uint8_t *)"E=0000000691 R=1", 16, &f);
	CHECK_EQ(f.error, 691);
	CHECK_EQ(f.retry, 1);
	mschapv2_parse_failure((const uint8_t *)"E=99999999999999999999", 22, &f);
	CHECK_EQ(f.error, -1);
	mschapv2_parse_failure((const uint8_t *)"E=4444444444", 12, &f);
	CHECK_EQ(f.error, -1);
	/* Length bounds the parse, not a NUL: "E=6" is all that is visible here. */
	mschapv2_parse_failure((const uint8_t *)"E=691", 3, &f);
	CHECK_EQ(f.error, 6);
	mschapv2_parse_failure((const uint8_t *)"", 0, &f);
	CHECK_EQ(f.error, -1);
}

int main(void)
{
	check_prefix = "mschapv2";
	RUN(nt_password_hash_rfc2759);
	RUN(challenge_hash_rfc2759);
	RUN(nt_response_rfc2759);
	RUN(authenticator_response_rfc2759);
	RUN(domain_is_stripped_from_challenge_hash);
	RUN(success_message_checked_both_cases);
	RUN(wrong_password_changes_everything);
	RUN(password_utf8_and_latin1);
	RUN(password_too_long_rejected);
	RUN(weak_des_key_still_used);
	RUN(failure_message_parsed);
	RUN(failure_message_malformed_fields_absent);
	return check_summary();
}
