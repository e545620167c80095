/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The authentication core's state (included by auth.h so callers can embed struct auth)
 * and the helpers shared by auth.c, pap.c and chap.c. Nothing here is for the PPP link
 * beyond the struct's size.
 */
#ifndef PXP_AUTH_INTERNAL_H
#define PXP_AUTH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mschapv2.h"

/* PAP and CHAP share the header Code, Identifier, Length (RFC 1334, RFC 1994). */
#define AUTH_HDR_LEN	   4
/* Largest packet we build: a PAP Authenticate-Request with a 255-byte name and secret. */
#define AUTH_PKT_MAX	   (AUTH_HDR_LEN + 1 + PPP_NAME_MAX + 1 + PPP_SECRET_MAX)
/* The challenge we send; the ones we answer may hold up to 255 bytes (Value-Size). */
#define AUTH_CHALLENGE_LEN 16
#define AUTH_VALUE_MAX	   255

enum auth_state {
	AUTH_STATE_UNUSABLE,  /* zeroed: never initialised, or destroyed */
	AUTH_STATE_INITIAL,   /* auth_start() not called yet */
	AUTH_STATE_PENDING,   /* exchanging packets, timer armed */
	AUTH_STATE_SUCCEEDED, /* result(ok) reported; still answers duplicates */
	AUTH_STATE_FAILED,    /* result(failed) reported; still answers duplicates */
};

struct auth {
	struct auth_config cfg; /* holds the peer's secret: wiped by auth_destroy() */
	struct auth_callbacks cb;
	struct auth_stats stats;
	enum auth_state state;
	uint64_t deadline;
	uint32_t restart_ms;
	uint32_t max_attempts;
	/* Requests or challenges sent (PAP peer, authenticator), challenges answered (peer). */
	uint32_t attempts;
	uint8_t id;	   /* Identifier of the packet in tx */
	bool answered;	   /* CHAP peer: tx holds a Response to Identifier id */
	bool verdict_sent; /* authenticator: tx holds our Ack/Nak or Success/Failure */
	uint8_t challenge[AUTH_VALUE_MAX]; /* our challenge, or the one we answered */
	size_t challenge_len;
	/* MS-CHAPv2 peer: the Authenticator-Response the server must prove. */
	uint8_t expected_digest[MSCHAPV2_DIGEST_LEN];
	uint8_t tx[AUTH_PKT_MAX]; /* last packet sent: retransmitted or repeated */
	size_t tx_len;
	char peer_name[PPP_NAME_MAX + 1];
};

/* Helpers of auth.c for the protocol files. */
void auth_put_header(struct auth *a, uint8_t code, uint8_t id, size_t len);
void auth_transmit(struct auth *a, uint16_t proto);
/* Reports the result once and stops the timer. */
void auth_finish(struct auth *a, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Copies wire text for a message: printable ASCII only, at most cap - 1 bytes, NUL. */
void auth_printable(char *dst, size_t cap, const uint8_t *src, size_t len);
/* Copies a name from the wire; -EINVAL if it is too long or holds a NUL byte. */
int auth_copy_name(char dst[static PPP_NAME_MAX + 1], const uint8_t *src, size_t len);
/* How long a side that only answers waits for the other before giving up. */
uint64_t auth_wait_ms(const struct auth *a);

void pap_start(struct auth *a, uint64_t now_ms);
void pap_input(struct auth *a, uint64_t now_ms, uint8_t code, uint8_t id, const uint8_t *body,
	       size_t len);
void pap_timer(struct auth *a, uint64_t now_ms);

/* CHAP with MD5 or MS-CHAPv2, per cfg.proto. */
void chap_start(struct auth *a, uint64_t now_ms);
void chap_input(struct auth *a, uint64_t now_ms, uint8_t code, uint8_t id, const uint8_t *body,
		size_t len);
void chap_timer(struct auth *a, uint64_t now_ms);

#endif
