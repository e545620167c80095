// SPDX-License-Identifier: GPL-2.0
/* The handshake rate limiter: token buckets in a bounded hash table, as ratelimiter.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "ratelimit.h"

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

static size_t bucket_of(const struct ratelimit *rl, const uint8_t *key)
{
	uint64_t h = rl->seed;

	for (int i = 0; i < 9; i++)
		h = mix(h ^ key[i]);
	return h & (rl->nbuckets - 1);
}

int ratelimit_init(struct ratelimit *rl, size_t capacity, uint64_t seed)
{
	memset(rl, 0, sizeof(*rl));
	if (!capacity || capacity > INT32_MAX / 2)
		return -EINVAL;
	/* About 8 sources a bucket when full, as the driver sizes it. */
	rl->nbuckets = 1;
	while (rl->nbuckets * 8 < capacity)
		rl->nbuckets <<= 1;
	rl->entries = calloc(capacity, sizeof(*rl->entries));
	rl->buckets = malloc(rl->nbuckets * sizeof(*rl->buckets));
	if (!rl->entries || !rl->buckets) {
		ratelimit_free(rl);
		return -ENOMEM;
	}
	for (size_t i = 0; i < rl->nbuckets; i++)
		rl->buckets[i] = -1;
	for (size_t i = 0; i < capacity; i++)
		rl->entries[i].next = i + 1 < capacity ? (int32_t)(i + 1) : -1;
	rl->capacity = capacity;
	rl->free_list = 0;
	rl->seed = seed;
	return 0;
}

void ratelimit_free(struct ratelimit *rl)
{
	free(rl->entries);
	free(rl->buckets);
	memset(rl, 0, sizeof(*rl));
}

void ratelimit_gc(struct ratelimit *rl, uint64_t now_ns)
{
	for (size_t b = 0; b < rl->nbuckets; b++) {
		int32_t *link = &rl->buckets[b];

		while (*link >= 0) {
			struct ratelimit_entry *e = &rl->entries[*link];
			int32_t idx = *link;

			if (now_ns - e->last_ns > RATELIMIT_IDLE_NS) {
				*link = e->next;
				e->next = rl->free_list;
				rl->free_list = idx;
				rl->used--;
			} else {
				link = &e->next;
			}
		}
	}
	rl->next_gc_ns = now_ns + RATELIMIT_IDLE_NS;
}

bool ratelimit_allowed(struct ratelimit *rl, int family, const uint8_t *addr, uint64_t now_ns)
{
	uint8_t key[9] = { 0 };
	struct ratelimit_entry *e;
	uint64_t tokens;
	size_t b;
	int32_t i;

	if (family == AF_INET) {
		key[0] = 4;
		memcpy(key + 1, addr, 4);
	} else if (family == AF_INET6) {
		/* One /64 is one source: an end host usually gets a whole one. */
		key[0] = 6;
		memcpy(key + 1, addr, 8);
	} else {
		return false;
	}
	if (now_ns >= rl->next_gc_ns)
		ratelimit_gc(rl, now_ns);
	b = bucket_of(rl, key);
	for (i = rl->buckets[b]; i >= 0; i = rl->entries[i].next) {
		e = &rl->entries[i];
		if (memcmp(e->key, key, sizeof(key)))
			continue;
		/* Compared before adding: a long gap must not wrap around. */
		tokens = now_ns - e->last_ns;
		tokens = tokens >= RATELIMIT_TOKEN_MAX_NS ? tokens : tokens + e->tokens;
		if (tokens > RATELIMIT_TOKEN_MAX_NS)
			tokens = RATELIMIT_TOKEN_MAX_NS;
		e->last_ns = now_ns;
		if (tokens < RATELIMIT_PACKET_COST_NS) {
			e->tokens = tokens;
			return false;
		}
		e->tokens = tokens - RATELIMIT_PACKET_COST_NS;
		return true;
	}
	/* A new source starts with a full burst, this packet paid from it. */
	if (rl->free_list < 0)
		return false;
	i = rl->free_list;
	e = &rl->entries[i];
	rl->free_list = e->next;
	memcpy(e->key, key, sizeof(key));
	e->last_ns = now_ns;
	e->tokens = RATELIMIT_TOKEN_MAX_NS - RATELIMIT_PACKET_COST_NS;
	e->next = rl->buckets[b];
	rl->buckets[b] = i;
	rl->used++;
	return true;
}

bool wg_under_load(struct wg_load *l, size_t handshake_queue_len, uint64_t now_ns)
{
	if (handshake_queue_len >= WG_UNDER_LOAD_QUEUE_LEN) {
		l->was_under_load = true;
		l->last_under_load_ns = now_ns;
		return true;
	}
	if (!l->was_under_load)
		return false;
	if (l->last_under_load_ns + WG_UNDER_LOAD_STICKY_NS > now_ns)
		return true;
	l->was_under_load = false;
	return false;
}
