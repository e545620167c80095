/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A map of 32-bit keys (never 0) to values the size of a pointer, with O(1) lookups: the
 * AC's addresses in use and those the secrets file reserves (values unused), its IPv6
 * sessions by netdev ifindex (value: the session's slot), and a WireGuard device's receiver
 * indices (value: the peer). Open addressing with linear probing, at most half full, so a
 * miss ends soon.
 *
 * Concurrency: used from the daemon's single thread.
 */
#ifndef PXP_U32_MAP_H
#define PXP_U32_MAP_H

#include <stdbool.h>
#include <stdint.h>

struct u32_map_slot {
	uint32_t key; /* 0 = empty */
	uintptr_t value;
};

struct u32_map {
	struct u32_map_slot *slots;
	unsigned int mask; /* slots - 1 (a power of two minus one) */
	unsigned int count, max;
};

/* Room for max keys. 0 or -ENOMEM. */
int u32_map_init(struct u32_map *m, unsigned int max);
void u32_map_free(struct u32_map *m);
/* Room for max keys (at least count), the keys kept. 0 or -ENOMEM (the map unchanged). */
int u32_map_resize(struct u32_map *m, unsigned int max);
/* Whether key is present; its value into *value (when not NULL). */
bool u32_map_get(const struct u32_map *m, uint32_t key, uintptr_t *value);
/* Adds key or replaces its value: 0, -EINVAL for key 0, -ENOSPC past max. */
int u32_map_put(struct u32_map *m, uint32_t key, uintptr_t value);
void u32_map_del(struct u32_map *m, uint32_t key);
/* Deletes every key for which gone(key, its value, ctx) is true; gone must not change m. */
void u32_map_del_if(struct u32_map *m, bool (*gone)(uint32_t key, uintptr_t value, void *ctx),
		    void *ctx);

#endif
