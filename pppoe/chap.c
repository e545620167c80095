// SPDX-License-Identifier: GPL-2.0
/*
 * CHAP (RFC 1994) framing for both algorithms: MD5 (RFC 1994) and MS-CHAPv2 (RFC 2759).
 * The authenticator sends Challenges and judges the Response; the peer answers every
 * Challenge and checks the verdict (for MS-CHAPv2 also the server's Authenticator-Response).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <nettle/md5.h>
#include <nettle/memops.h>

#include "auth.h"
#include "ppp_numbers.h"
#include "pppoe_wire.h"

_Static_assert(PPP_SECRET_MAX <= MSCHAPV2_PASSWORD_MAX_CHARS,
	       "every PPP secret must fit the MS-CHAPv2 password limit");

/* Shown to the peer; the same words whether the user or the password was wrong. */
static const char chap_msg_ok[] = "Access granted";
static const char chap_msg_denied[] = "Access denied";

static bool chap_is_mschapv2(const struct auth *a)
{
	return a->cfg.proto == PPP_AUTH_MSCHAPV2;
}

static const char *chap_label(const struct auth *a)
{
	return chap_is_mschapv2(a) ? "MS-CHAPv2" : "CHAP";
}

/* RFC 1994 section 4.1: MD5 over Identifier, secret and Challenge value. */
static void chap_md5_response(uint8_t id, const uint8_t *secret, size_t secret_len,
			      const uint8_t *challenge, size_t challenge_len,
			      uint8_t out[static MD5_DIGEST_SIZE])
{
	struct md5_ctx md5;

	md5_init(&md5);
	md5_update(&md5, 1, &id);
	md5_update(&md5, secret_len, secret);
	md5_update(&md5, challenge_len, challenge);
	md5_digest(&md5, MD5_DIGEST_SIZE, out);
	explicit_bzero(&md5, sizeof(md5));
}

/* Challenge and Response share Value-Size, Value, Name. */
struct chap_value {
	const uint8_t *value;
	size_t value_len;
	const uint8_t *name;
	size_t name_len;
};

static int chap_parse_value(const uint8_t *body, size_t len, struct chap_value *v)
{
	if (len < 1 || body[0] == 0 || body[0] > len - 1)
		return -EINVAL;
	v->value_len = body[0];
	v->value = body + 1;
	v->name = body + 1 + v->value_len;
	v->name_len = len - 1 - v->value_len;
	return 0;
}

/* Appends Value-Size, value and our name after the header; returns the packet length. */
static size_t chap_put_value(struct auth *a, const uint8_t *value, size_t value_len)
{
	size_t name_len = strlen(a->cfg.name), pos = AUTH_HDR_LEN;

	a->tx[pos++] = (uint8_t)value_len;
	memcpy(a->tx + pos, value, value_len);
	pos += value_len;
	memcpy(a->tx + pos, a->cfg.name, name_len);
	return pos + name_len;
}

/* ---- authenticator ---- */

static void chap_send_challenge(struct auth *a)
{
	auth_put_header(a, CHAP_CHALLENGE, a->id,
			chap_put_value(a, a->challenge, a->challenge_len));
	auth_transmit(a, PPP_PROTO_CHAP);
}

static void chap_send_verdict(struct auth *a, uint8_t code, const char *msg)
{
	size_t msg_len = strlen(msg);

	memcpy(a->tx + AUTH_HDR_LEN, msg, msg_len);
	auth_put_header(a, code, a->id, AUTH_HDR_LEN + msg_len);
	auth_transmit(a, PPP_PROTO_CHAP);
}

/*
 * Checks the Response against secret; for MS-CHAPv2 a success also builds our Success
 * message with the Authenticator-Response into ok_msg.
 */
static bool chap_verify(struct auth *a, const struct chap_value *v, const char *user,
			const uint8_t *secret, size_t secret_len, char *ok_msg, size_t cap)
{
	uint8_t expected[MSCHAPV2_NT_RESPONSE_LEN], digest[MSCHAPV2_DIGEST_LEN];
	char auth_response[MSCHAPV2_AUTH_RESPONSE_LEN + 1];
	const uint8_t *peer_challenge = v->value + MSCHAPV2_RESPONSE_PEER_CHALLENGE;
	const uint8_t *nt_response = v->value + MSCHAPV2_RESPONSE_NT_RESPONSE;
	bool ok;

	if (!chap_is_mschapv2(a)) {
		chap_md5_response(a->id, secret, secret_len, a->challenge, a->challenge_len,
				  expected);
		ok = memeql_sec(expected, v->value, MD5_DIGEST_SIZE);
		snprintf(ok_msg, cap, "%s", chap_msg_ok);
		goto out;
	}
	if (mschapv2_nt_response(a->challenge, peer_challenge, user, strlen(user), secret,
				 secret_len, expected)) {
		ok = false;
		goto out;
	}
	ok = memeql_sec(expected, nt_response, MSCHAPV2_NT_RESPONSE_LEN) &&
	     !mschapv2_authenticator_digest(secret, secret_len, nt_response, peer_challenge,
					    a->challenge, user, strlen(user), digest);
	if (ok) {
		mschapv2_format_auth_response(digest, auth_response);
		snprintf(ok_msg, cap, "%s M=%s", auth_response, chap_msg_ok);
	}
out:
	explicit_bzero(expected, sizeof(expected));
	explicit_bzero(digest, sizeof(digest));
	return ok;
}

static void chap_authenticator_input(struct auth *a, uint8_t code, uint8_t id, const uint8_t *body,
				     size_t len)
{
	size_t want_len = chap_is_mschapv2(a) ? MSCHAPV2_RESPONSE_LEN : MD5_DIGEST_SIZE;
	char user[PPP_NAME_MAX + 1], shown[64], ok_msg[96], fail_msg[96];
	uint8_t secret[PPP_SECRET_MAX];
	struct chap_value v;
	int secret_len;
	bool ok;

	if (code != CHAP_RESPONSE) {
		a->stats.rx_unexpected++;
		return;
	}
	if (id != a->id) {
		a->stats.rx_bad_id++;
		return;
	}
	if (chap_parse_value(body, len, &v) || v.value_len != want_len ||
	    auth_copy_name(user, v.name, v.name_len)) {
		a->stats.rx_malformed++;
		return;
	}
	/* A Response repeated because our verdict was lost gets it again (RFC 1994 4.2). */
	if (a->state != AUTH_STATE_PENDING) {
		if (a->verdict_sent)
			auth_transmit(a, PPP_PROTO_CHAP);
		else
			a->stats.rx_unexpected++;
		return;
	}

	secret_len = a->cb.get_secret(a->cb.ctx, user, secret, sizeof(secret));
	/* An unknown user takes the same path, and about the same time, as a wrong secret. */
	if (secret_len < 0 || (size_t)secret_len > sizeof(secret))
		secret_len = 0;
	ok = chap_verify(a, &v, user, secret, (size_t)secret_len, ok_msg, sizeof(ok_msg)) &&
	     secret_len > 0;
	explicit_bzero(secret, sizeof(secret));

	a->verdict_sent = true;
	auth_printable(shown, sizeof(shown), v.name, v.name_len);
	if (ok) {
		chap_send_verdict(a, CHAP_SUCCESS, ok_msg);
		memcpy(a->peer_name, user, v.name_len + 1);
		auth_finish(a, true, "%s authentication of peer \"%s\" succeeded", chap_label(a),
			    shown);
		return;
	}
	if (chap_is_mschapv2(a)) {
		/* R=0: RFC 2759 retries would need a new challenge; we end the link instead. */
		size_t pos = (size_t)snprintf(fail_msg, sizeof(fail_msg), "E=691 R=0 C=");
		for (size_t i = 0; i < a->challenge_len; i++)
			pos += (size_t)snprintf(fail_msg + pos, sizeof(fail_msg) - pos, "%02X",
						a->challenge[i]);
		snprintf(fail_msg + pos, sizeof(fail_msg) - pos, " V=3 M=%s", chap_msg_denied);
	} else {
		snprintf(fail_msg, sizeof(fail_msg), "%s", chap_msg_denied);
	}
	chap_send_verdict(a, CHAP_FAILURE, fail_msg);
	auth_finish(a, false,
		    "%s authentication of peer \"%s\" failed: unknown user or wrong secret",
		    chap_label(a), shown);
}

static void chap_authenticator_timer(struct auth *a, uint64_t now_ms)
{
	if (a->attempts >= a->max_attempts) {
		auth_finish(a, false, "%s authentication failed: no response to %u challenges",
			    chap_label(a), a->attempts);
		return;
	}
	/* The same Identifier and value: a late Response to an earlier copy still counts. */
	a->attempts++;
	a->deadline = now_ms + a->restart_ms;
	auth_transmit(a, PPP_PROTO_CHAP);
}

/* ---- peer ---- */

static void chap_send_response(struct auth *a, uint8_t id, const struct chap_value *v)
{
	uint8_t value[MSCHAPV2_RESPONSE_LEN] = { 0 };
	size_t value_len;

	if (chap_is_mschapv2(a)) {
		uint8_t *peer_challenge = value + MSCHAPV2_RESPONSE_PEER_CHALLENGE;
		uint8_t *nt_response = value + MSCHAPV2_RESPONSE_NT_RESPONSE;
		size_t name_len = strlen(a->cfg.name);

		a->cb.random(a->cb.ctx, peer_challenge, MSCHAPV2_CHALLENGE_LEN);
		/*
		 * Cannot fail while the assertion above holds (255 bytes never make more than
		 * 256 UTF-16 units); checked so that a larger PPP_SECRET_MAX fails safe.
		 */
		if (mschapv2_nt_response(v->value, peer_challenge, a->cfg.name, name_len,
					 a->cfg.secret, a->cfg.secret_len, nt_response) ||
		    mschapv2_authenticator_digest(a->cfg.secret, a->cfg.secret_len, nt_response,
						  peer_challenge, v->value, a->cfg.name, name_len,
						  a->expected_digest)) {
			auth_finish(a, false,
				    "MS-CHAPv2 authentication failed: our password is longer "
				    "than 256 characters");
			return;
		}
		value_len = MSCHAPV2_RESPONSE_LEN;
	} else {
		chap_md5_response(id, a->cfg.secret, a->cfg.secret_len, v->value, v->value_len,
				  value);
		value_len = MD5_DIGEST_SIZE;
	}
	a->id = id;
	a->answered = true;
	a->challenge_len = v->value_len;
	memcpy(a->challenge, v->value, v->value_len);
	auth_put_header(a, CHAP_RESPONSE, id, chap_put_value(a, value, value_len));
	explicit_bzero(value, sizeof(value));
	auth_transmit(a, PPP_PROTO_CHAP);
}

static void chap_peer_challenge(struct auth *a, uint64_t now_ms, uint8_t id, const uint8_t *body,
				size_t len)
{
	struct chap_value v;

	if (chap_parse_value(body, len, &v) ||
	    (chap_is_mschapv2(a) && v.value_len != MSCHAPV2_CHALLENGE_LEN)) {
		a->stats.rx_malformed++;
		return;
	}
	if (a->state == AUTH_STATE_FAILED) {
		a->stats.rx_unexpected++;
		return;
	}
	/* A retransmitted Challenge gets the same Response, so one verdict fits both. */
	if (a->answered && id == a->id && v.value_len == a->challenge_len &&
	    !memcmp(v.value, a->challenge, v.value_len)) {
		auth_transmit(a, PPP_PROTO_CHAP);
		return;
	}
	/* After success the authenticator may challenge again at any time (RFC 1994 4). */
	if (a->state == AUTH_STATE_PENDING) {
		if (a->attempts >= a->max_attempts) {
			auth_finish(a, false,
				    "%s authentication failed: still challenged after %u responses",
				    chap_label(a), a->attempts);
			return;
		}
		a->attempts++;
		a->deadline = now_ms + auth_wait_ms(a);
	}
	chap_send_response(a, id, &v);
}

static void chap_peer_verdict(struct auth *a, uint8_t code, uint8_t id, const uint8_t *body,
			      size_t len)
{
	struct mschapv2_failure failure;
	char text[80];

	if (!a->answered || id != a->id) {
		a->stats.rx_bad_id++;
		return;
	}
	if (a->state != AUTH_STATE_PENDING) {
		a->stats.rx_unexpected++;
		return;
	}
	if (code == CHAP_SUCCESS) {
		if (chap_is_mschapv2(a) &&
		    !mschapv2_success_matches(body, len, a->expected_digest)) {
			auth_finish(a, false,
				    "MS-CHAPv2 authentication failed: the peer's "
				    "Authenticator-Response "
				    "is wrong, so it does not know our password");
			return;
		}
		auth_finish(a, true, "%s authentication succeeded", chap_label(a));
		return;
	}
	if (!chap_is_mschapv2(a)) {
		auth_printable(text, sizeof(text), body, len);
		auth_finish(
			a, false,
			"CHAP authentication failed: peer rejected our response (message \"%s\")",
			text);
		return;
	}
	mschapv2_parse_failure(body, len, &failure);
	auth_printable(text, sizeof(text), failure.message, failure.message_len);
	if (failure.error < 0)
		auth_finish(a, false,
			    "MS-CHAPv2 authentication failed: peer rejected our response "
			    "(no error code, message \"%s\")",
			    text);
	else
		auth_finish(a, false,
			    "MS-CHAPv2 authentication failed: peer rejected our response "
			    "(E=%d %s, message \"%s\")",
			    failure.error, mschapv2_error_name(failure.error), text);
}

/* ---- common ---- */

void chap_start(struct auth *a, uint64_t now_ms)
{
	if (a->cfg.role == AUTH_ROLE_PEER) {
		a->deadline = now_ms + auth_wait_ms(a);
		return;
	}
	a->cb.random(a->cb.ctx, &a->id, sizeof(a->id));
	a->challenge_len = AUTH_CHALLENGE_LEN;
	a->cb.random(a->cb.ctx, a->challenge, a->challenge_len);
	a->attempts = 1;
	a->deadline = now_ms + a->restart_ms;
	chap_send_challenge(a);
}

void chap_input(struct auth *a, uint64_t now_ms, uint8_t code, uint8_t id, const uint8_t *body,
		size_t len)
{
	if (a->cfg.role == AUTH_ROLE_AUTHENTICATOR) {
		chap_authenticator_input(a, code, id, body, len);
		return;
	}
	switch (code) {
	case CHAP_CHALLENGE:
		chap_peer_challenge(a, now_ms, id, body, len);
		break;
	case CHAP_SUCCESS:
	case CHAP_FAILURE:
		chap_peer_verdict(a, code, id, body, len);
		break;
	default:
		a->stats.rx_unexpected++;
		break;
	}
}

void chap_timer(struct auth *a, uint64_t now_ms)
{
	if (a->cfg.role == AUTH_ROLE_AUTHENTICATOR) {
		chap_authenticator_timer(a, now_ms);
		return;
	}
	if (a->answered)
		auth_finish(a, false,
			    "%s authentication failed: no Success or Failure from the peer within "
			    "%llu s",
			    chap_label(a), (unsigned long long)auth_wait_ms(a) / 1000);
	else
		auth_finish(a, false,
			    "%s authentication failed: no Challenge from the peer within %llu s",
			    chap_label(a), (unsigned long long)auth_wait_ms(a) / 1000);
}
