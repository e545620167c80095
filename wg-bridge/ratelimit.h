/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The handshake rate limiter and the "under load" switch, as the Linux driver's
 * ratelimiter.c and receive.c. Under load, handshake messages that carry a valid MAC2 are
 * still limited per source: a token bucket of 20 a second with a burst of 5 per IPv4
 * address or IPv6 /64. The table is bounded (a full table refuses new sources) and
 * sources idle for a second are forgotten. Pure: the time (monotonic, in ns) comes in.
 *
 * Concurrency: the caller serialises calls on one limiter.
 */
#ifndef PXP_WG_RATELIMIT_H
#define PXP_WG_RATELIMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RATELIMIT_PACKETS_PER_SECOND 20
#define RATELIMIT_PACKETS_BURSTABLE  5
#define RATELIMIT_PACKET_COST_NS     (1000000000ULL / RATELIMIT_PACKETS_PER_SECOND)
#define RATELIMIT_TOKEN_MAX_NS	     (RATELIMIT_PACKET_COST_NS * RATELIMIT_PACKETS_BURSTABLE)
/* A source quiet this long is dropped from the table. */
#define RATELIMIT_IDLE_NS	     1000000000ULL

/* The driver's MAX_QUEUED_INCOMING_HANDSHAKES / 8; load is sticky for a second. */
#define WG_UNDER_LOAD_QUEUE_LEN 512
#define WG_UNDER_LOAD_STICKY_NS 1000000000ULL

struct ratelimit_entry {
	uint8_t key[9]; /* family tag, then the IPv4 address or the IPv6 /64 */
	uint64_t last_ns;
	uint64_t tokens; /* in ns of credit */
	int32_t next;	 /* chain in the bucket or the free list; -1 ends it */
};

struct ratelimit {
	struct ratelimit_entry *entries;
	int32_t *buckets;
	size_t capacity, nbuckets, used;
	int32_t free_list;
	uint64_t seed;
	uint64_t next_gc_ns;
};

/*
 * A limiter for at most capacity sources (the driver allows 8 per bucket of up to 8192
 * buckets). seed: a random value keying the hash, so that sources cannot pick one chain.
 * Returns 0, -EINVAL (capacity 0 or past INT32_MAX) or -ENOMEM.
 */
int ratelimit_init(struct ratelimit *rl, size_t capacity, uint64_t seed);
void ratelimit_free(struct ratelimit *rl);

/*
 * May a handshake from addr (AF_INET: 4 bytes, AF_INET6: 16) be handled at now_ns?
 * Takes a token if so. An unknown family or a full table answers false.
 */
bool ratelimit_allowed(struct ratelimit *rl, int family, const uint8_t *addr, uint64_t now_ns);

/* Forgets sources idle for RATELIMIT_IDLE_NS; ratelimit_allowed() runs it once a second. */
void ratelimit_gc(struct ratelimit *rl, uint64_t now_ns);

/* receive.c's under_load: a long handshake queue, and for a second after. */
struct wg_load {
	bool was_under_load;
	uint64_t last_under_load_ns;
};

bool wg_under_load(struct wg_load *l, size_t handshake_queue_len, uint64_t now_ns);

#endif
