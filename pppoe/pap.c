// SPDX-License-Identifier: GPL-2.0
/* PAP (RFC 1334): the peer sends Authenticate-Request, the authenticator Ack or Nak. */
#include <errno.h>
#include <string.h>

#include <nettle/memops.h>

#include "auth.h"
#include "ppp_numbers.h"
#include "pppoe_wire.h"

/* Shown to the peer; the same words whether the user or the password was wrong. */
static const char pap_msg_ok[] = "Login ok";
static const char pap_msg_denied[] = "Login incorrect";

static void pap_send_request(struct auth *a)
{
	size_t name_len = strlen(a->cfg.name), pos = AUTH_HDR_LEN;

	a->tx[pos++] = (uint8_t)name_len;
	memcpy(a->tx + pos, a->cfg.name, name_len);
	pos += name_len;
	a->tx[pos++] = (uint8_t)a->cfg.secret_len;
	memcpy(a->tx + pos, a->cfg.secret, a->cfg.secret_len);
	pos += a->cfg.secret_len;
	auth_put_header(a, PAP_AUTH_REQ, a->id, pos);
	auth_transmit(a, PPP_PROTO_PAP);
}

void pap_start(struct auth *a, uint64_t now_ms)
{
	if (a->cfg.role == AUTH_ROLE_AUTHENTICATOR) {
		a->deadline = now_ms + auth_wait_ms(a);
		return;
	}
	a->cb.random(a->cb.ctx, &a->id, sizeof(a->id));
	a->attempts = 1;
	a->deadline = now_ms + a->restart_ms;
	pap_send_request(a);
}

void pap_timer(struct auth *a, uint64_t now_ms)
{
	if (a->cfg.role == AUTH_ROLE_AUTHENTICATOR) {
		auth_finish(a, false,
			    "PAP authentication failed: no Authenticate-Request from the peer "
			    "within %llu s",
			    (unsigned long long)auth_wait_ms(a) / 1000);
		return;
	}
	if (a->attempts >= a->max_attempts) {
		auth_finish(a, false, "PAP authentication failed: no reply to %u requests",
			    a->attempts);
		return;
	}
	/* RFC 1334 section 2.2.1: a new Identifier for each transmission. */
	a->id++;
	a->attempts++;
	a->deadline = now_ms + a->restart_ms;
	pap_send_request(a);
}

static void pap_peer_input(struct auth *a, uint8_t code, uint8_t id, const uint8_t *body,
			   size_t len)
{
	char text[80];
	size_t msg_len = 0;

	if (code != PAP_AUTH_ACK && code != PAP_AUTH_NAK) {
		a->stats.rx_unexpected++;
		return;
	}
	if (id != a->id) {
		a->stats.rx_bad_id++;
		return;
	}
	/* Some servers omit Msg-Length altogether; a Msg-Length past the packet is malformed. */
	if (len >= 1) {
		msg_len = body[0];
		if (msg_len > len - 1) {
			a->stats.rx_malformed++;
			return;
		}
	}
	if (a->state != AUTH_STATE_PENDING) {
		a->stats.rx_unexpected++;
		return;
	}
	if (code == PAP_AUTH_ACK) {
		auth_finish(a, true, "PAP authentication succeeded");
		return;
	}
	auth_printable(text, sizeof(text), body + 1, msg_len);
	auth_finish(a, false,
		    "PAP authentication failed: peer rejected our user name or password "
		    "(message \"%s\")",
		    text);
}

/* Reads Peer-ID and Password; returns -EINVAL if a length runs past the packet. */
static int pap_parse_request(const uint8_t *body, size_t len, const uint8_t **name,
			     size_t *name_len, const uint8_t **password, size_t *password_len)
{
	size_t pos = 0;

	if (len < 1 || body[0] > len - 1)
		return -EINVAL;
	*name_len = body[0];
	*name = body + 1;
	pos = 1 + *name_len;
	if (pos >= len || body[pos] > len - pos - 1)
		return -EINVAL;
	*password_len = body[pos];
	*password = body + pos + 1;
	return 0;
}

/* Constant time in the content of both secrets: compares fixed-size zero-padded copies. */
static bool pap_password_ok(const uint8_t *got, size_t got_len, const uint8_t *want,
			    size_t want_len)
{
	uint8_t x[PPP_SECRET_MAX] = { 0 }, y[PPP_SECRET_MAX] = { 0 };
	bool same;

	memcpy(x, got, got_len);
	memcpy(y, want, want_len);
	same = memeql_sec(x, y, sizeof(x));
	explicit_bzero(x, sizeof(x));
	explicit_bzero(y, sizeof(y));
	return same && got_len == want_len;
}

static void pap_send_verdict(struct auth *a, uint8_t id, bool ok)
{
	const char *msg = ok ? pap_msg_ok : pap_msg_denied;
	size_t msg_len = strlen(msg);

	a->tx[AUTH_HDR_LEN] = (uint8_t)msg_len;
	memcpy(a->tx + AUTH_HDR_LEN + 1, msg, msg_len);
	auth_put_header(a, ok ? PAP_AUTH_ACK : PAP_AUTH_NAK, id, AUTH_HDR_LEN + 1 + msg_len);
	auth_transmit(a, PPP_PROTO_PAP);
}

static void pap_authenticator_input(struct auth *a, uint8_t code, uint8_t id, const uint8_t *body,
				    size_t len)
{
	uint8_t secret[PPP_SECRET_MAX];
	const uint8_t *name, *password;
	size_t name_len, password_len;
	char user[PPP_NAME_MAX + 1], shown[64];
	int secret_len;
	bool ok;

	if (code != PAP_AUTH_REQ) {
		a->stats.rx_unexpected++;
		return;
	}
	if (pap_parse_request(body, len, &name, &name_len, &password, &password_len) ||
	    auth_copy_name(user, name, name_len)) {
		a->stats.rx_malformed++;
		return;
	}
	/* A retransmission after our verdict was lost gets the same verdict (RFC 1334). */
	if (a->state != AUTH_STATE_PENDING) {
		if (!a->verdict_sent) {
			a->stats.rx_unexpected++;
			return;
		}
		pap_send_verdict(a, id, a->state == AUTH_STATE_SUCCEEDED);
		return;
	}

	secret_len = a->cb.get_secret(a->cb.ctx, user, secret, sizeof(secret));
	/* An unknown user takes the same path as a wrong password. */
	if (secret_len < 0 || (size_t)secret_len > sizeof(secret))
		secret_len = 0;
	ok = pap_password_ok(password, password_len, secret, (size_t)secret_len) && secret_len > 0;
	explicit_bzero(secret, sizeof(secret));

	a->verdict_sent = true;
	pap_send_verdict(a, id, ok);
	auth_printable(shown, sizeof(shown), name, name_len);
	if (ok) {
		memcpy(a->peer_name, user, name_len + 1);
		auth_finish(a, true, "PAP authentication of peer \"%s\" succeeded", shown);
	} else {
		auth_finish(a, false,
			    "PAP authentication of peer \"%s\" failed: unknown user or wrong "
			    "password",
			    shown);
	}
}

void pap_input(struct auth *a, uint64_t now_ms, uint8_t code, uint8_t id, const uint8_t *body,
	       size_t len)
{
	(void)now_ms;
	if (a->cfg.role == AUTH_ROLE_AUTHENTICATOR)
		pap_authenticator_input(a, code, id, body, len);
	else
		pap_peer_input(a, code, id, body, len);
}
