/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A binary min-heap of deadlines: the event loop's timers (event_loop.h), so that finding
 * the next deadline is O(1) and arming, moving or cancelling one is O(log n) in the number
 * of timers, never a scan of the sessions. Intrusive: a timer is a struct embedded in its
 * owner, which knows its own slot, so cancelling needs no search. No clock here: deadlines
 * are whatever numbers the caller gives (the cores' monotonic milliseconds).
 *
 * Room is made when a timer joins (timer_heap_attach(), the one call that can fail), so
 * that arming one never fails: len <= attached <= cap.
 *
 * Concurrency: single-threaded, like the daemon's loop.
 */
#ifndef PXP_TIMER_HEAP_H
#define PXP_TIMER_HEAP_H

#include <stdbool.h>
#include <stdint.h>

#define TIMER_NEVER UINT64_MAX

struct pxp_timer {
	uint64_t deadline; /* TIMER_NEVER when not queued */
	unsigned int slot; /* index in the heap + 1, 0 = not queued */
	bool attached;
};

struct timer_heap {
	struct pxp_timer **v; /* v[0] is the earliest; v[i] <= v[2i+1], v[2i+2] */
	unsigned int len, attached, cap;
};

void timer_heap_init(struct timer_heap *h);
void timer_heap_free(struct timer_heap *h);
/* t (zeroed before its first attach) joins, not queued; 0 or -ENOMEM. */
int timer_heap_attach(struct timer_heap *h, struct pxp_timer *t);
/* t leaves (cancelled first); a no-op for a timer that never joined or already left. */
void timer_heap_detach(struct timer_heap *h, struct pxp_timer *t);
/* Queues t at deadline, moves it there, or (TIMER_NEVER) cancels it; a no-op for a timer
 * that is not attached. */
void timer_heap_set(struct timer_heap *h, struct pxp_timer *t, uint64_t deadline);
/* The earliest deadline, TIMER_NEVER when none is queued. */
uint64_t timer_heap_next(const struct timer_heap *h);
/* The earliest timer if its deadline is <= now, dequeued (still attached); else NULL. */
struct pxp_timer *timer_heap_pop_due(struct timer_heap *h, uint64_t now);

#endif
