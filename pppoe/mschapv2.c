// SPDX-License-Identifier: GPL-2.0
/* MS-CHAPv2 (RFC 2759): NT-Response, Authenticator-Response, Success and Failure messages. */
#include "mschapv2.h"
#include "pxp_hex.h"

#include <errno.h>
#include <string.h>

#include <nettle/des.h>
#include <nettle/md4.h>
#include <nettle/memops.h>
#include <nettle/sha1.h>

/* RFC 2759 section 8.7: Magic1 and Magic2 are these ASCII strings without a NUL. */
static const char magic_server_signing[] = "Magic server to client signing constant";
static const char magic_pad[] = "Pad to make it do more than one iteration";

/* Decodes one UTF-8 sequence at s[0..len); returns its length or 0 if it is not valid. */
static size_t utf8_decode(const uint8_t *s, size_t len, uint32_t *cp)
{
	size_t need, i;
	uint32_t c, min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xE0) == 0xC0) {
		need = 2;
		c = s[0] & 0x1F;
		min = 0x80;
	} else if ((s[0] & 0xF0) == 0xE0) {
		need = 3;
		c = s[0] & 0x0F;
		min = 0x800;
	} else if ((s[0] & 0xF8) == 0xF0) {
		need = 4;
		c = s[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (len < need)
		return 0;
	for (i = 1; i < need; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return need;
}

static int put_utf16le(uint8_t *buf, size_t *units, uint32_t unit)
{
	if (*units >= MSCHAPV2_PASSWORD_MAX_CHARS)
		return -EINVAL;
	buf[2 * *units] = unit & 0xFF;
	buf[2 * *units + 1] = unit >> 8;
	(*units)++;
	return 0;
}

int mschapv2_nt_password_hash(const uint8_t *password, size_t len,
			      uint8_t hash[static MSCHAPV2_PW_HASH_LEN])
{
	uint8_t unicode[2 * MSCHAPV2_PASSWORD_MAX_CHARS];
	struct md4_ctx md4;
	size_t pos = 0, units = 0, step;
	uint32_t cp;
	int err = 0;

	while (pos < len && !err) {
		step = utf8_decode(password + pos, len - pos, &cp);
		if (!step) {
			cp = password[pos];
			step = 1;
		}
		pos += step;
		if (cp >= 0x10000) {
			cp -= 0x10000;
			err = put_utf16le(unicode, &units, 0xD800 | (cp >> 10));
			if (!err)
				err = put_utf16le(unicode, &units, 0xDC00 | (cp & 0x3FF));
		} else {
			err = put_utf16le(unicode, &units, cp);
		}
	}
	cp = 0;
	if (err)
		goto wipe;
	md4_init(&md4);
	md4_update(&md4, 2 * units, unicode);
	md4_digest(&md4, MSCHAPV2_PW_HASH_LEN, hash);
	explicit_bzero(&md4, sizeof(md4));
wipe:
	explicit_bzero(unicode, sizeof(unicode));
	return err;
}

size_t mschapv2_user_offset(const char *name, size_t len)
{
	size_t i, start = 0;

	for (i = 0; i < len; i++)
		if (name[i] == '\\')
			start = i + 1;
	return start;
}

void mschapv2_challenge_hash(const uint8_t peer_challenge[static MSCHAPV2_CHALLENGE_LEN],
			     const uint8_t auth_challenge[static MSCHAPV2_CHALLENGE_LEN],
			     const char *user, size_t user_len, uint8_t out[static 8])
{
	uint8_t digest[SHA1_DIGEST_SIZE];
	struct sha1_ctx sha;

	sha1_init(&sha);
	sha1_update(&sha, MSCHAPV2_CHALLENGE_LEN, peer_challenge);
	sha1_update(&sha, MSCHAPV2_CHALLENGE_LEN, auth_challenge);
	sha1_update(&sha, user_len, (const uint8_t *)user);
	sha1_digest(&sha, sizeof(digest), digest);
	memcpy(out, digest, 8);
}

/* Spreads 56 key bits over 8 bytes, 7 bits each, leaving the low bit for parity. */
static void des_expand_key(const uint8_t in[static 7], uint8_t out[static 8])
{
	out[0] = in[0] & 0xFE;
	out[1] = (uint8_t)(in[0] << 7) | (in[1] >> 1);
	out[2] = (uint8_t)(in[1] << 6) | (in[2] >> 2);
	out[3] = (uint8_t)(in[2] << 5) | (in[3] >> 3);
	out[4] = (uint8_t)(in[3] << 4) | (in[4] >> 4);
	out[5] = (uint8_t)(in[4] << 3) | (in[5] >> 5);
	out[6] = (uint8_t)(in[5] << 2) | (in[6] >> 6);
	out[7] = (uint8_t)(in[6] << 1);
	des_fix_parity(8, out, out);
}

static void des_encrypt_block(const uint8_t key7[static 7], const uint8_t clear[static 8],
			      uint8_t cypher[static 8])
{
	uint8_t key[DES_KEY_SIZE];
	struct des_ctx des;

	des_expand_key(key7, key);
	/*
	 * The result only flags weak keys; the schedule is set up either way, and MS-CHAP
	 * must use whatever key the hash yields.
	 */
	(void)des_set_key(&des, key);
	des_encrypt(&des, DES_BLOCK_SIZE, cypher, clear);
	explicit_bzero(key, sizeof(key));
	explicit_bzero(&des, sizeof(des));
}

void mschapv2_challenge_response(const uint8_t challenge[static 8],
				 const uint8_t pw_hash[static MSCHAPV2_PW_HASH_LEN],
				 uint8_t out[static MSCHAPV2_NT_RESPONSE_LEN])
{
	uint8_t zpw[21] = { 0 };

	memcpy(zpw, pw_hash, MSCHAPV2_PW_HASH_LEN);
	des_encrypt_block(zpw, challenge, out);
	des_encrypt_block(zpw + 7, challenge, out + 8);
	des_encrypt_block(zpw + 14, challenge, out + 16);
	explicit_bzero(zpw, sizeof(zpw));
}

int mschapv2_nt_response(const uint8_t auth_challenge[static MSCHAPV2_CHALLENGE_LEN],
			 const uint8_t peer_challenge[static MSCHAPV2_CHALLENGE_LEN],
			 const char *user, size_t user_len, const uint8_t *password,
			 size_t password_len, uint8_t out[static MSCHAPV2_NT_RESPONSE_LEN])
{
	uint8_t challenge[8], pw_hash[MSCHAPV2_PW_HASH_LEN];
	size_t skip = mschapv2_user_offset(user, user_len);
	int err;

	err = mschapv2_nt_password_hash(password, password_len, pw_hash);
	if (err)
		return err;
	mschapv2_challenge_hash(peer_challenge, auth_challenge, user + skip, user_len - skip,
				challenge);
	mschapv2_challenge_response(challenge, pw_hash, out);
	explicit_bzero(pw_hash, sizeof(pw_hash));
	return 0;
}

int mschapv2_authenticator_digest(const uint8_t *password, size_t password_len,
				  const uint8_t nt_response[static MSCHAPV2_NT_RESPONSE_LEN],
				  const uint8_t peer_challenge[static MSCHAPV2_CHALLENGE_LEN],
				  const uint8_t auth_challenge[static MSCHAPV2_CHALLENGE_LEN],
				  const char *user, size_t user_len,
				  uint8_t digest[static MSCHAPV2_DIGEST_LEN])
{
	uint8_t pw_hash[MSCHAPV2_PW_HASH_LEN], pw_hash_hash[MSCHAPV2_PW_HASH_LEN];
	uint8_t challenge[8];
	size_t skip = mschapv2_user_offset(user, user_len);
	struct md4_ctx md4;
	struct sha1_ctx sha;
	int err;

	err = mschapv2_nt_password_hash(password, password_len, pw_hash);
	if (err)
		return err;
	md4_init(&md4);
	md4_update(&md4, sizeof(pw_hash), pw_hash);
	md4_digest(&md4, sizeof(pw_hash_hash), pw_hash_hash);

	sha1_init(&sha);
	sha1_update(&sha, sizeof(pw_hash_hash), pw_hash_hash);
	sha1_update(&sha, MSCHAPV2_NT_RESPONSE_LEN, nt_response);
	sha1_update(&sha, sizeof(magic_server_signing) - 1, (const uint8_t *)magic_server_signing);
	sha1_digest(&sha, MSCHAPV2_DIGEST_LEN, digest);

	mschapv2_challenge_hash(peer_challenge, auth_challenge, user + skip, user_len - skip,
				challenge);
	sha1_init(&sha);
	sha1_update(&sha, MSCHAPV2_DIGEST_LEN, digest);
	sha1_update(&sha, sizeof(challenge), challenge);
	sha1_update(&sha, sizeof(magic_pad) - 1, (const uint8_t *)magic_pad);
	sha1_digest(&sha, MSCHAPV2_DIGEST_LEN, digest);

	explicit_bzero(pw_hash, sizeof(pw_hash));
	explicit_bzero(pw_hash_hash, sizeof(pw_hash_hash));
	explicit_bzero(&md4, sizeof(md4));
	explicit_bzero(&sha, sizeof(sha));
	return 0;
}

void mschapv2_format_auth_response(const uint8_t digest[static MSCHAPV2_DIGEST_LEN],
				   char out[static MSCHAPV2_AUTH_RESPONSE_LEN + 1])
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i;

	out[0] = 'S';
	out[1] = '=';
	for (i = 0; i < MSCHAPV2_DIGEST_LEN; i++) {
		out[2 + 2 * i] = hex[digest[i] >> 4];
		out[3 + 2 * i] = hex[digest[i] & 0xF];
	}
	out[MSCHAPV2_AUTH_RESPONSE_LEN] = '\0';
}

bool mschapv2_success_matches(const uint8_t *msg, size_t len,
			      const uint8_t digest[static MSCHAPV2_DIGEST_LEN])
{
	uint8_t got[MSCHAPV2_DIGEST_LEN];
	int hi, lo;
	size_t i;

	if (len < MSCHAPV2_AUTH_RESPONSE_LEN || msg[0] != 'S' || msg[1] != '=')
		return false;
	/* Anything after the digest must start a new field (" M=..."). */
	if (len > MSCHAPV2_AUTH_RESPONSE_LEN && msg[MSCHAPV2_AUTH_RESPONSE_LEN] != ' ')
		return false;
	for (i = 0; i < MSCHAPV2_DIGEST_LEN; i++) {
		hi = pxp_hex_digit(msg[2 + 2 * i]);
		lo = pxp_hex_digit(msg[3 + 2 * i]);
		if (hi < 0 || lo < 0)
			return false;
		got[i] = (uint8_t)(hi << 4 | lo);
	}
	return memeql_sec(got, digest, MSCHAPV2_DIGEST_LEN);
}

/*
 * Parses a decimal field; RFC 2759 allows up to 10 digits ("E=0000000691"). Returns -1 if
 * there are none, more than 10, or the value does not fit an int.
 */
static int parse_decimal(const uint8_t *s, size_t len)
{
	uint64_t value = 0;
	size_t i;

	for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		if (i == 10)
			return -1;
		value = value * 10 + (s[i] - '0');
	}
	if (i == 0 || value > INT32_MAX)
		return -1;
	return (int)value;
}

void mschapv2_parse_failure(const uint8_t *msg, size_t len, struct mschapv2_failure *out)
{
	size_t pos = 0, end;

	out->error = -1;
	out->retry = -1;
	out->message = NULL;
	out->message_len = 0;
	while (pos < len) {
		while (pos < len && msg[pos] == ' ')
			pos++;
		if (len - pos >= 2 && msg[pos] == 'M' && msg[pos + 1] == '=') {
			/* The message is the rest of the packet, spaces included. */
			out->message = msg + pos + 2;
			out->message_len = len - pos - 2;
			return;
		}
		end = pos;
		while (end < len && msg[end] != ' ')
			end++;
		if (end - pos >= 2 && msg[pos + 1] == '=') {
			if (msg[pos] == 'E')
				out->error = parse_decimal(msg + pos + 2, end - pos - 2);
			else if (msg[pos] == 'R')
				out->retry = parse_decimal(msg + pos + 2, end - pos - 2);
		}
		pos = end;
	}
}

const char *mschapv2_error_name(int error)
{
	switch (error) {
	case 646:
		return "logon outside the allowed hours";
	case 647:
		return "account disabled";
	case 648:
		return "password expired";
	case 649:
		return "no dial-in permission";
	case 691:
		return "authentication failure";
	case 709:
		return "error changing the password";
	default:
		return "unknown error";
	}
}
