// SPDX-License-Identifier: GPL-2.0
/* Authentication core: configuration, packet header parsing, dispatch and the result. */
#include "auth.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pppoe_wire.h"
#include "pxp_bytes.h"

#define AUTH_DEFAULT_RESTART_MS	  3000
#define AUTH_DEFAULT_MAX_ATTEMPTS 10

int auth_init(struct auth *a, const struct auth_config *cfg, const struct auth_callbacks *cb)
{
	bool authenticator = cfg->role == AUTH_ROLE_AUTHENTICATOR;

	if (cfg->role != AUTH_ROLE_PEER && !authenticator)
		return -EINVAL;
	if (cfg->proto != PPP_AUTH_PAP && cfg->proto != PPP_AUTH_CHAP_MD5 &&
	    cfg->proto != PPP_AUTH_MSCHAPV2)
		return -EINVAL;
	if (strnlen(cfg->name, sizeof(cfg->name)) > PPP_NAME_MAX ||
	    cfg->secret_len > PPP_SECRET_MAX)
		return -EINVAL;
	if (!cb->send || !cb->result || !cb->random || (authenticator && !cb->get_secret))
		return -EINVAL;

	memset(a, 0, sizeof(*a));
	a->cfg = *cfg;
	a->cb = *cb;
	a->state = AUTH_STATE_INITIAL;
	a->deadline = UINT64_MAX;
	a->restart_ms = cfg->restart_ms ? cfg->restart_ms : AUTH_DEFAULT_RESTART_MS;
	a->max_attempts = cfg->max_attempts ? cfg->max_attempts : AUTH_DEFAULT_MAX_ATTEMPTS;
	return 0;
}

void auth_start(struct auth *a, uint64_t now_ms)
{
	if (a->state != AUTH_STATE_INITIAL)
		return;
	a->state = AUTH_STATE_PENDING;
	if (a->cfg.proto == PPP_AUTH_PAP)
		pap_start(a, now_ms);
	else
		chap_start(a, now_ms);
}

void auth_input(struct auth *a, uint64_t now_ms, uint16_t proto, const uint8_t *data, size_t len)
{
	bool pap = a->cfg.proto == PPP_AUTH_PAP;
	size_t pkt_len;

	if ((proto == PPP_PROTO_PAP && !pap) || (proto == PPP_PROTO_CHAP && pap) ||
	    (proto != PPP_PROTO_PAP && proto != PPP_PROTO_CHAP) || a->state == AUTH_STATE_INITIAL) {
		a->stats.rx_unexpected++;
		return;
	}
	if (len < AUTH_HDR_LEN) {
		a->stats.rx_malformed++;
		return;
	}
	/* Bytes past Length are padding (RFC 1661 section 5); a Length past the data is not. */
	pkt_len = get_be16(data + 2);
	if (pkt_len < AUTH_HDR_LEN || pkt_len > len) {
		a->stats.rx_malformed++;
		return;
	}
	if (pap)
		pap_input(a, now_ms, data[0], data[1], data + AUTH_HDR_LEN, pkt_len - AUTH_HDR_LEN);
	else
		chap_input(a, now_ms, data[0], data[1], data + AUTH_HDR_LEN,
			   pkt_len - AUTH_HDR_LEN);
}

void auth_timer(struct auth *a, uint64_t now_ms)
{
	if (a->state != AUTH_STATE_PENDING || now_ms < a->deadline)
		return;
	if (a->cfg.proto == PPP_AUTH_PAP)
		pap_timer(a, now_ms);
	else
		chap_timer(a, now_ms);
}

uint64_t auth_deadline(const struct auth *a)
{
	return a->state == AUTH_STATE_PENDING ? a->deadline : UINT64_MAX;
}

const char *auth_peer_name(const struct auth *a)
{
	if (a->cfg.role != AUTH_ROLE_AUTHENTICATOR || a->state != AUTH_STATE_SUCCEEDED)
		return NULL;
	return a->peer_name;
}

const struct auth_stats *auth_get_stats(const struct auth *a)
{
	return &a->stats;
}

void auth_destroy(struct auth *a)
{
	/* Leaves AUTH_STATE_UNUSABLE: later calls are ignored until auth_init(). */
	explicit_bzero(a, sizeof(*a));
	a->deadline = UINT64_MAX;
}

void auth_put_header(struct auth *a, uint8_t code, uint8_t id, size_t len)
{
	a->tx[0] = code;
	a->tx[1] = id;
	put_be16(a->tx + 2, (uint16_t)len);
	a->tx_len = len;
}

void auth_transmit(struct auth *a, uint16_t proto)
{
	a->cb.send(a->cb.ctx, proto, a->tx, a->tx_len);
}

void auth_finish(struct auth *a, bool ok, const char *fmt, ...)
{
	char message[512];
	va_list ap;

	a->state = ok ? AUTH_STATE_SUCCEEDED : AUTH_STATE_FAILED;
	a->deadline = UINT64_MAX;
	/* A PAP request holds our password in clear and will not be sent again. */
	if (a->cfg.proto == PPP_AUTH_PAP && a->cfg.role == AUTH_ROLE_PEER) {
		explicit_bzero(a->tx, sizeof(a->tx));
		a->tx_len = 0;
	}
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	a->cb.result(a->cb.ctx, ok, message);
}

void auth_printable(char *dst, size_t cap, const uint8_t *src, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len && n + 1 < cap; i++)
		dst[n++] = (src[i] >= 0x20 && src[i] < 0x7F) ? (char)src[i] : '?';
	dst[n] = '\0';
}

int auth_copy_name(char dst[static PPP_NAME_MAX + 1], const uint8_t *src, size_t len)
{
	if (len > PPP_NAME_MAX || memchr(src, '\0', len))
		return -EINVAL;
	memcpy(dst, src, len);
	dst[len] = '\0';
	return 0;
}

uint64_t auth_wait_ms(const struct auth *a)
{
	return (uint64_t)a->restart_ms * a->max_attempts;
}
