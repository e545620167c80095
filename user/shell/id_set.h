/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A set of the numbers 0 .. n-1 that finds the lowest number not in it in O(log64 n): at
 * most 4 words read for a /8 pool. The AC's session slots, its IPv6 pool indexes and its
 * IPv4 pool (offsets from the pool's first address) hand out the lowest free number, as
 * a scan from 0 would, without the scan.
 *
 * A bitmap (bit set = in the set) with summary levels above it: a bit of level k+1 is set
 * when word j of level k is full. The bits past n are set, so they are never free.
 *
 * Concurrency: used from the daemon's single thread.
 */
#ifndef PXP_ID_SET_H
#define PXP_ID_SET_H

#include <stdbool.h>
#include <stdint.h>

/* Enough levels for n up to 2^32: 64^6 > 2^32. */
#define ID_SET_LEVELS 6

struct id_set {
	uint64_t *words; /* every level's words, the bitmap (level 0) first */
	uint32_t level_start[ID_SET_LEVELS];
	unsigned int levels; /* the top level has one word */
	uint32_t n;
};

/* The numbers 0 .. n-1, none in the set yet. 0, -EINVAL (n 0) or -ENOMEM. */
int id_set_init(struct id_set *s, uint32_t n);
void id_set_free(struct id_set *s);
/* Whether i (< n) is in the set. */
bool id_set_has(const struct id_set *s, uint32_t i);
/* Adds i (< n; in already is fine). */
void id_set_add(struct id_set *s, uint32_t i);
/* Removes i (< n; absent already is fine). */
void id_set_del(struct id_set *s, uint32_t i);
/* The lowest number not in the set, n when all are. */
uint32_t id_set_lowest_free(const struct id_set *s);

#endif
