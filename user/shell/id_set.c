// SPDX-License-Identifier: GPL-2.0
#include "id_set.h"

#include <errno.h>
#include <stdlib.h>

#define FULL UINT64_MAX

static uint32_t words_for(uint64_t bits)
{
	return (uint32_t)((bits + 63) / 64);
}

int id_set_init(struct id_set *s, uint32_t n)
{
	uint64_t bits = n, total = 0;
	unsigned int k;

	if (!n)
		return -EINVAL;
	/* Level k has one bit per word of level k-1, up to a level of one word. */
	for (k = 0;; k++) {
		s->level_start[k] = (uint32_t)total;
		total += words_for(bits);
		if (words_for(bits) == 1)
			break;
		bits = words_for(bits);
	}
	s->levels = k + 1;
	s->words = calloc(total, sizeof(*s->words));
	if (!s->words)
		return -ENOMEM;
	s->n = n;
	/* The padding past each level's last bit reads as taken (level 0) or full (above). */
	for (k = 0, bits = n; k < s->levels; k++, bits = words_for(bits))
		if (bits % 64)
			s->words[s->level_start[k] + bits / 64] |= FULL << (bits % 64);
	return 0;
}

void id_set_free(struct id_set *s)
{
	free(s->words);
	s->words = NULL;
	s->n = 0;
}

bool id_set_has(const struct id_set *s, uint32_t i)
{
	return i < s->n && (s->words[i / 64] >> (i % 64) & 1);
}

void id_set_add(struct id_set *s, uint32_t i)
{
	unsigned int k;

	if (i >= s->n)
		return;
	/* Up while a word became full. */
	for (k = 0; k < s->levels; k++, i /= 64) {
		uint64_t *w = &s->words[s->level_start[k] + i / 64];

		*w |= 1ull << (i % 64);
		if (*w != FULL)
			break;
	}
}

void id_set_del(struct id_set *s, uint32_t i)
{
	unsigned int k;

	if (i >= s->n)
		return;
	/* Up while a word was full before. */
	for (k = 0; k < s->levels; k++, i /= 64) {
		uint64_t *w = &s->words[s->level_start[k] + i / 64];
		bool was_full = *w == FULL;

		*w &= ~(1ull << (i % 64));
		if (!was_full)
			break;
	}
}

uint32_t id_set_lowest_free(const struct id_set *s)
{
	uint64_t i = 0;
	unsigned int k;

	/* Down from the top: each clear bit names a word below with a clear bit. */
	for (k = s->levels; k-- > 0;) {
		uint64_t w = s->words[s->level_start[k] + i];

		if (w == FULL)
			return s->n;
		i = i * 64 + (uint64_t)__builtin_ctzll(~w);
	}
	return (uint32_t)i;
}
