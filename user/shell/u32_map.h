/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A map of 32-bit keys (never 0) to 32-bit values with O(1) lookups: the AC's addresses in
 * use and those the secrets file reserves (values unused), and its IPv6 sessions by netdev
 * ifindex (value: the session's slot). Open addressing with linear probing, at most half
 * full, so a miss ends soon.
 *
 * Concurrency: used from the daemon's single thread.
 */
#ifndef PXP_U32_MAP_H
#define PXP_U32_MAP_H

#include <stdbool.h>
#include <stdint.h>

struct u32_map_slot {
	uint32_t key; /* 0 = empty */
	uint32_t value;
};

struct u32_map {
	struct u32_map_slot *slots;
	unsigned int mask; /* slots - 1 (a power of two minus one) */
	unsigned int count, max;
};

/* Room for max keys. 0 or -ENOMEM. */
int u32_map_init(struct u32_map *m, unsigned int max);
void u32_map_free(struct u32_map *m);
/* Whether key is present; its value into *value (when not NULL). */
bool u32_map_get(const struct u32_map *m, uint32_t key, uint32_t *value);
/* Adds key or replaces its value: 0, -EINVAL for key 0, -ENOSPC past max. */
int u32_map_put(struct u32_map *m, uint32_t key, uint32_t value);
void u32_map_del(struct u32_map *m, uint32_t key);

#endif
