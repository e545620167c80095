/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The receive side's replay window, as the Linux driver's counter_validate(): a ring of
 * 8192 bits of which the last 64-bit word is redundant (it is cleared as the window moves
 * into it), so counters up to REPLAY_WINDOW_SIZE (8128) behind the highest one seen are
 * still accepted once each. A counter at or past WG_REJECT_AFTER_MESSAGES is refused.
 *
 * Concurrency: one struct per key; the caller serialises calls on it.
 */
#ifndef PXP_WG_REPLAY_H
#define PXP_WG_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

/* The whitepaper's and wireguard-go's 2^64 - 2^13 - 1. */
#define WG_REJECT_AFTER_MESSAGES (UINT64_MAX - (1ULL << 13))

#define REPLAY_BITS_TOTAL  8192
#define REPLAY_WORD_BITS   64
#define REPLAY_WINDOW_SIZE (REPLAY_BITS_TOTAL - REPLAY_WORD_BITS)

struct replay_window {
	uint64_t counter; /* one past the highest counter accepted; 0 = none yet */
	uint64_t backtrack[REPLAY_BITS_TOTAL / REPLAY_WORD_BITS];
};

void replay_init(struct replay_window *w);

/*
 * True, and the counter marked as seen, if their_counter (the nonce of a packet whose tag
 * was verified) is new and inside the window; false for a replay, a counter too far
 * behind, or one at or past WG_REJECT_AFTER_MESSAGES.
 */
bool replay_validate(struct replay_window *w, uint64_t their_counter);

#endif
