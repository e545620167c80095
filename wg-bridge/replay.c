// SPDX-License-Identifier: GPL-2.0
/* The replay window: the Linux driver's counter_validate() on 64-bit words. */
#include <string.h>

#include "replay.h"

#define REPLAY_WORDS (REPLAY_BITS_TOTAL / REPLAY_WORD_BITS)

void replay_init(struct replay_window *w)
{
	memset(w, 0, sizeof(*w));
}

bool replay_validate(struct replay_window *w, uint64_t their_counter)
{
	uint64_t index, index_current, top, bit;

	if (w->counter >= WG_REJECT_AFTER_MESSAGES + 1 || their_counter >= WG_REJECT_AFTER_MESSAGES)
		return false;
	/* Stored one up, so that 0 can mean "nothing seen" and counter 0 is still valid. */
	their_counter++;
	if (REPLAY_WINDOW_SIZE + their_counter < w->counter)
		return false;
	index = their_counter / REPLAY_WORD_BITS;
	if (their_counter > w->counter) {
		index_current = w->counter / REPLAY_WORD_BITS;
		top = index - index_current;
		if (top > REPLAY_WORDS)
			top = REPLAY_WORDS;
		/* The words the window slides over start empty. */
		for (uint64_t i = 1; i <= top; i++)
			w->backtrack[(i + index_current) & (REPLAY_WORDS - 1)] = 0;
		w->counter = their_counter;
	}
	index &= REPLAY_WORDS - 1;
	bit = 1ULL << (their_counter & (REPLAY_WORD_BITS - 1));
	if (w->backtrack[index] & bit)
		return false;
	w->backtrack[index] |= bit;
	return true;
}
