/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared set-up of the WireGuard message fuzzers: two fixed identities, A (the initiator)
 * and B (the responder), that know each other with a preshared key, and deterministic
 * randomness. Handshake inputs start with a flags byte:
 *   bit 0  recompute MAC1 for the receiver, so the input reaches the DH and AEAD steps
 *   bit 1  the receiver is under load (MAC2 required)
 *   bit 2  recompute MAC2 with the right cookie too
 * and the message follows.
 */
#ifndef PXP_FUZZ_WG_COMMON_H
#define PXP_FUZZ_WG_COMMON_H

#include <stdlib.h>
#include <string.h>

#include "noise.h"

#define FUZZ_WG_MAC1   0x01
#define FUZZ_WG_LOAD   0x02
#define FUZZ_WG_MAC2   0x04
#define FUZZ_WG_MAX    256
#define FUZZ_WG_NOW_NS 1000000000000ULL

static struct wg_noise_local fuzz_a, fuzz_b;
static struct wg_noise_peer fuzz_a_peer, fuzz_b_peer; /* A's view of B, B's view of A */
static struct wg_cookie_checker fuzz_checker;
static const uint8_t fuzz_src[] = { 192, 0, 2, 1, 0xca, 0x6c };
static const uint8_t fuzz_psk[WG_KEY_LEN] = { 0x42 };

static int fuzz_rng(void *ctx, uint8_t *buf, size_t len)
{
	uint32_t *n = ctx;

	while (len) {
		uint8_t block[32];
		size_t take = len < 32 ? len : 32;

		wg_blake2s(block, 32, n, sizeof(*n), NULL, 0);
		(*n)++;
		memcpy(buf, block, take);
		buf += take;
		len -= take;
	}
	return 0;
}

static struct wg_noise_peer *fuzz_lookup(void *ctx, const uint8_t pub[WG_KEY_LEN])
{
	(void)ctx;
	return memcmp(pub, fuzz_b_peer.pub, WG_KEY_LEN) ? NULL : &fuzz_b_peer;
}

/* Fresh state for one input: peers as configured, the cookie secret one known value. */
static void fuzz_wg_setup(void)
{
	static bool done;
	uint8_t priv[WG_KEY_LEN];

	if (!done) {
		memset(priv, 0xa1, sizeof(priv));
		if (wg_noise_local_init(&fuzz_a, priv))
			abort();
		memset(priv, 0xb2, sizeof(priv));
		if (wg_noise_local_init(&fuzz_b, priv))
			abort();
		done = true;
	}
	wg_noise_peer_init(&fuzz_a_peer, fuzz_b.key.pub, fuzz_psk);
	wg_noise_peer_init(&fuzz_b_peer, fuzz_a.key.pub, fuzz_psk);
	memset(fuzz_checker.secret, 0xc3, sizeof(fuzz_checker.secret));
	fuzz_checker.birth_ns = FUZZ_WG_NOW_NS;
	fuzz_checker.have = true;
}

/* Fixes MAC1 (and MAC2) of a handshake message of len bytes as the flags ask. */
static void fuzz_wg_remac(uint8_t *msg, size_t len, uint8_t flags, const struct wg_noise_local *to)
{
	struct wg_msg_macs *m = (struct wg_msg_macs *)(msg + len - sizeof(*m));
	uint8_t cookie[WG_MAC_LEN];

	if (len < sizeof(struct wg_msg_header) + sizeof(*m))
		return;
	if (flags & FUZZ_WG_MAC1)
		wg_mac(m->mac1, to->mac1_key, WG_HASH_LEN, msg, (size_t)(m->mac1 - msg));
	if (flags & FUZZ_WG_MAC2) {
		wg_mac(cookie, fuzz_checker.secret, WG_HASH_LEN, fuzz_src, sizeof(fuzz_src));
		wg_mac(m->mac2, cookie, WG_MAC_LEN, msg, (size_t)(m->mac2 - msg));
	}
}

/* Drops decided before any DH. */
static bool fuzz_wg_before_dh(enum wg_drop d)
{
	return d == WG_DROP_SIZE || d == WG_DROP_TYPE || d == WG_DROP_RESERVED ||
	       d == WG_DROP_MAC1 || d == WG_DROP_COOKIE_NEEDED;
}

#endif
