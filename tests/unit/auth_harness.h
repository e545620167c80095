/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Drives two real authentication cores against each other in memory: each endpoint
 * queues what it sends, records its result, draws deterministic "random" bytes and looks
 * secrets up in a small table. Shared by test_pap.c and test_chap.c.
 */
#ifndef PXP_TEST_AUTH_HARNESS_H
#define PXP_TEST_AUTH_HARNESS_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "auth.h"
#include "pppoe_wire.h"

#define HARNESS_MAX_PKTS 64
#define HARNESS_PKT_MAX	 600

struct harness_pkt {
	uint16_t proto;
	uint8_t data[HARNESS_PKT_MAX];
	size_t len;
};

struct endpoint {
	struct auth auth;
	struct harness_pkt out[HARNESS_MAX_PKTS];
	size_t n_out;  /* queued, not yet delivered */
	size_t n_sent; /* every packet ever sent */
	int results;   /* how many times result() was called */
	bool ok;
	char message[512];
	uint8_t next_random;	     /* counter-based bytes by default */
	const uint8_t *fixed_random; /* or these bytes, consumed in order */
	size_t fixed_len, fixed_pos;
	const char *users[4], *secrets[4]; /* authenticator's secrets table */
	int lookups;
};

static void harness_send(void *ctx, uint16_t proto, const uint8_t *data, size_t len)
{
	struct endpoint *e = ctx;

	e->n_sent++;
	if (e->n_out >= HARNESS_MAX_PKTS || len > HARNESS_PKT_MAX)
		return;
	e->out[e->n_out].proto = proto;
	memcpy(e->out[e->n_out].data, data, len);
	e->out[e->n_out].len = len;
	e->n_out++;
}

static void harness_result(void *ctx, bool ok, const char *message)
{
	struct endpoint *e = ctx;

	e->results++;
	e->ok = ok;
	snprintf(e->message, sizeof(e->message), "%s", message);
}

static void harness_random(void *ctx, void *buf, size_t len)
{
	struct endpoint *e = ctx;
	uint8_t *p = buf;

	for (size_t i = 0; i < len; i++) {
		if (e->fixed_random && e->fixed_pos < e->fixed_len)
			p[i] = e->fixed_random[e->fixed_pos++];
		else
			p[i] = e->next_random++;
	}
}

static int harness_get_secret(void *ctx, const char *user, uint8_t *secret, size_t cap)
{
	struct endpoint *e = ctx;

	e->lookups++;
	for (size_t i = 0; i < 4 && e->users[i]; i++) {
		if (strcmp(e->users[i], user) == 0) {
			size_t len = strlen(e->secrets[i]);

			if (len > cap)
				return -ENOSPC;
			memcpy(secret, e->secrets[i], len);
			return (int)len;
		}
	}
	return -ENOENT;
}

static inline int endpoint_init(struct endpoint *e, enum auth_role role, enum ppp_auth_proto proto,
				const char *name, const char *secret, uint32_t max_attempts)
{
	struct auth_config cfg = { .role = role, .proto = proto, .max_attempts = max_attempts };
	struct auth_callbacks cb = { .ctx = e,
				     .send = harness_send,
				     .result = harness_result,
				     .random = harness_random,
				     .get_secret = harness_get_secret };

	memset(e, 0, sizeof(*e));
	snprintf(cfg.name, sizeof(cfg.name), "%s", name);
	cfg.secret_len = strlen(secret);
	memcpy(cfg.secret, secret, cfg.secret_len);
	return auth_init(&e->auth, &cfg, &cb);
}

/* Delivers everything from queued to `to`, in order; returns how many were delivered. */
static inline size_t deliver(struct endpoint *from, struct endpoint *to, uint64_t now_ms)
{
	struct harness_pkt pkts[HARNESS_MAX_PKTS];
	size_t n = from->n_out;

	memcpy(pkts, from->out, n * sizeof(pkts[0]));
	from->n_out = 0;
	for (size_t i = 0; i < n; i++)
		auth_input(&to->auth, now_ms, pkts[i].proto, pkts[i].data, pkts[i].len);
	return n;
}

/* Exchanges packets until both sides are quiet. */
static inline void pump(struct endpoint *a, struct endpoint *b, uint64_t now_ms)
{
	for (int round = 0; round < 32; round++) {
		size_t moved = deliver(a, b, now_ms);

		moved += deliver(b, a, now_ms);
		if (!moved)
			return;
	}
}

/* Runs the timer of e at its deadline; returns that time or UINT64_MAX. */
static inline uint64_t fire_timer(struct endpoint *e)
{
	uint64_t when = auth_deadline(&e->auth);

	if (when != UINT64_MAX)
		auth_timer(&e->auth, when);
	return when;
}

#endif
