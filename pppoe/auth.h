/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Authentication phase: PAP (RFC 1334), CHAP-MD5 (RFC 1994) and MS-CHAPv2 (RFC 2759), as
 * peer (client) and as authenticator (server). A pure core used by the PPP link once LCP is
 * opened; it follows the protocol core convention (time passed in, callbacks out).
 *
 * Concurrency: single-threaded, driven by the PPP link.
 */
#ifndef PXP_AUTH_H
#define PXP_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ppp_types.h"

enum auth_role {
	AUTH_ROLE_PEER,		 /* proves its identity (client) */
	AUTH_ROLE_AUTHENTICATOR, /* checks the peer (server) */
};

struct auth_callbacks {
	void *ctx;
	void (*send)(void *ctx, uint16_t proto, const uint8_t *data, size_t len);
	/* Called once: ok, or not with a message in words ("CHAP: wrong secret"). */
	void (*result)(void *ctx, bool ok, const char *message);
	void (*random)(void *ctx, void *buf, size_t len);
	/* Authenticator: the secret for user; returns its length or -ENOENT. */
	int (*get_secret)(void *ctx, const char *user, uint8_t *secret, size_t cap);
};

struct auth_config {
	enum auth_role role;
	enum ppp_auth_proto proto;
	char name[PPP_NAME_MAX + 1];	/* peer: our user name; authenticator: our CHAP name */
	uint8_t secret[PPP_SECRET_MAX]; /* peer only */
	size_t secret_len;
	uint32_t restart_ms;   /* retransmit interval; 0 = 3000 */
	uint32_t max_attempts; /* requests/challenges before giving up; 0 = 10 */
};

/*
 * Attempts: the PAP peer sends at most max_attempts requests and the CHAP authenticator
 * at most max_attempts challenges, restart_ms apart; the CHAP peer answers at most
 * max_attempts distinct challenges; a side that only answers waits max_attempts *
 * restart_ms. A wrong answer ends authentication at once with Nak/Failure, as RFC 1334
 * and RFC 1994 advise (MS-CHAPv2 Failure says R=0), and the peer is never told whether
 * the user or the secret was wrong. After the result, a repeated request or response
 * gets the same verdict again (the first copy may have been lost). An empty secret from
 * get_secret never authenticates anyone.
 */

/* Input dropped, by reason (exported for `status`). */
struct auth_stats {
	uint64_t rx_malformed;	/* truncated, a length out of bounds, a bad value size */
	uint64_t rx_bad_id;	/* Identifier does not match what we sent or answered */
	uint64_t rx_unexpected; /* code, protocol or timing not valid for our role and state */
};

/* The struct definitions need the types above; they belong to the core. */
#include "auth_internal.h" /* struct auth: owned by the auth core */

int auth_init(struct auth *a, const struct auth_config *cfg, const struct auth_callbacks *cb);
void auth_start(struct auth *a, uint64_t now_ms);
/* proto is PPP_PROTO_PAP or PPP_PROTO_CHAP; anything else is ignored. */
void auth_input(struct auth *a, uint64_t now_ms, uint16_t proto, const uint8_t *data, size_t len);
void auth_timer(struct auth *a, uint64_t now_ms);
uint64_t auth_deadline(const struct auth *a);
/* The authenticated peer name (authenticator) once the result was ok. */
const char *auth_peer_name(const struct auth *a);
const struct auth_stats *auth_get_stats(const struct auth *a);
/* Wipe secrets and challenge state. */
void auth_destroy(struct auth *a);

#endif
