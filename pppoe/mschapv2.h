/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MS-CHAPv2 (RFC 2759) computations and the parsing of its Success and Failure messages.
 * Pure functions; the CHAP framing lives in chap.c. Every intermediate secret is wiped.
 */
#ifndef PXP_MSCHAPV2_H
#define PXP_MSCHAPV2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MSCHAPV2_CHALLENGE_LEN		 16
#define MSCHAPV2_NT_RESPONSE_LEN	 24
#define MSCHAPV2_PW_HASH_LEN		 16
/* CHAP Response value: Peer-Challenge, 8 reserved zero bytes, NT-Response, Flags. */
#define MSCHAPV2_RESPONSE_LEN		 49
#define MSCHAPV2_RESPONSE_PEER_CHALLENGE 0
#define MSCHAPV2_RESPONSE_NT_RESPONSE	 24
#define MSCHAPV2_RESPONSE_FLAGS		 48
#define MSCHAPV2_DIGEST_LEN		 20
/* "S=" and 40 upper-case hex digits, the Authenticator-Response in a Success message. */
#define MSCHAPV2_AUTH_RESPONSE_LEN	 42
/* RFC 2759 limits the password to 256 Unicode characters. */
#define MSCHAPV2_PASSWORD_MAX_CHARS	 256

/*
 * NtPasswordHash: MD4 of the password in UTF-16LE. The password is taken as UTF-8; a byte
 * that is not part of a valid UTF-8 sequence counts as one Latin-1 character (what pppd
 * does for every byte). Returns -EINVAL for more than 256 characters.
 */
int mschapv2_nt_password_hash(const uint8_t *password, size_t len,
			      uint8_t hash[static MSCHAPV2_PW_HASH_LEN]);

/*
 * The user name hashed into the challenge is the name without a "DOMAIN\" prefix
 * (RFC 2759 section 8.2); returns the offset of that part in name.
 */
size_t mschapv2_user_offset(const char *name, size_t len);

/* ChallengeHash: the first 8 bytes of SHA1(PeerChallenge | AuthenticatorChallenge | user). */
void mschapv2_challenge_hash(const uint8_t peer_challenge[static MSCHAPV2_CHALLENGE_LEN],
			     const uint8_t auth_challenge[static MSCHAPV2_CHALLENGE_LEN],
			     const char *user, size_t user_len, uint8_t out[static 8]);

/* ChallengeResponse: three DES encryptions of the 8-byte challenge under the hash. */
void mschapv2_challenge_response(const uint8_t challenge[static 8],
				 const uint8_t pw_hash[static MSCHAPV2_PW_HASH_LEN],
				 uint8_t out[static MSCHAPV2_NT_RESPONSE_LEN]);

/* GenerateNTResponse; user is the full name (the domain is stripped here). */
int mschapv2_nt_response(const uint8_t auth_challenge[static MSCHAPV2_CHALLENGE_LEN],
			 const uint8_t peer_challenge[static MSCHAPV2_CHALLENGE_LEN],
			 const char *user, size_t user_len, const uint8_t *password,
			 size_t password_len, uint8_t out[static MSCHAPV2_NT_RESPONSE_LEN]);

/* GenerateAuthenticatorResponse as a raw 20-byte digest. */
int mschapv2_authenticator_digest(const uint8_t *password, size_t password_len,
				  const uint8_t nt_response[static MSCHAPV2_NT_RESPONSE_LEN],
				  const uint8_t peer_challenge[static MSCHAPV2_CHALLENGE_LEN],
				  const uint8_t auth_challenge[static MSCHAPV2_CHALLENGE_LEN],
				  const char *user, size_t user_len,
				  uint8_t digest[static MSCHAPV2_DIGEST_LEN]);

/* "S=" and the digest in upper-case hex; out is NUL-terminated. */
void mschapv2_format_auth_response(const uint8_t digest[static MSCHAPV2_DIGEST_LEN],
				   char out[static MSCHAPV2_AUTH_RESPONSE_LEN + 1]);

/*
 * Checks a Success message ("S=<40 hex> M=...") against the expected digest in constant
 * time. Hex digits of either case are accepted.
 */
bool mschapv2_success_matches(const uint8_t *msg, size_t len,
			      const uint8_t digest[static MSCHAPV2_DIGEST_LEN]);

/* A parsed Failure message "E=eeeeeeeeee R=r C=cccc... V=vvvvvvvvvv M=<msg>". */
struct mschapv2_failure {
	int error;		/* E=, or -1 when absent or malformed */
	int retry;		/* R=, or -1 when absent */
	const uint8_t *message; /* M= text inside the packet (not NUL-terminated), or NULL */
	size_t message_len;
};

/* Never fails: fields missing or malformed are reported as absent. */
void mschapv2_parse_failure(const uint8_t *msg, size_t len, struct mschapv2_failure *out);

/* The Microsoft error code in words, e.g. 691 -> "authentication failure". */
const char *mschapv2_error_name(int error);

#endif
