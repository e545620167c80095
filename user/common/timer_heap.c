// SPDX-License-Identifier: GPL-2.0
#include "timer_heap.h"

#include <errno.h>
#include <stdlib.h>

void timer_heap_init(struct timer_heap *h)
{
	h->v = NULL;
	h->len = h->attached = h->cap = 0;
}

void timer_heap_free(struct timer_heap *h)
{
	free(h->v);
	timer_heap_init(h);
}

static void place(struct timer_heap *h, unsigned int i, struct pxp_timer *t)
{
	h->v[i] = t;
	t->slot = i + 1;
}

/* t, at index i or about to be, moves up past every later parent. */
static void sift_up(struct timer_heap *h, unsigned int i, struct pxp_timer *t)
{
	while (i > 0) {
		unsigned int parent = (i - 1) / 2;

		if (h->v[parent]->deadline <= t->deadline)
			break;
		place(h, i, h->v[parent]);
		i = parent;
	}
	place(h, i, t);
}

/* t, at index i or about to be, moves down past every earlier child. */
static void sift_down(struct timer_heap *h, unsigned int i, struct pxp_timer *t)
{
	for (;;) {
		unsigned int child = 2 * i + 1;

		if (child >= h->len)
			break;
		if (child + 1 < h->len && h->v[child + 1]->deadline < h->v[child]->deadline)
			child++;
		if (t->deadline <= h->v[child]->deadline)
			break;
		place(h, i, h->v[child]);
		i = child;
	}
	place(h, i, t);
}

static void dequeue(struct timer_heap *h, struct pxp_timer *t)
{
	unsigned int i = t->slot - 1;
	struct pxp_timer *last = h->v[--h->len];

	t->slot = 0;
	t->deadline = TIMER_NEVER;
	if (last == t)
		return;
	/* The last timer fills the hole, then goes whichever way its deadline says. */
	if (i > 0 && last->deadline < h->v[(i - 1) / 2]->deadline)
		sift_up(h, i, last);
	else
		sift_down(h, i, last);
}

int timer_heap_attach(struct timer_heap *h, struct pxp_timer *t)
{
	if (t->attached)
		return 0;
	if (h->attached == h->cap) {
		unsigned int cap = h->cap ? 2 * h->cap : 16;
		struct pxp_timer **v = realloc(h->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		h->v = v;
		h->cap = cap;
	}
	h->attached++;
	t->attached = true;
	t->slot = 0;
	t->deadline = TIMER_NEVER;
	return 0;
}

void timer_heap_detach(struct timer_heap *h, struct pxp_timer *t)
{
	if (!t->attached)
		return;
	timer_heap_set(h, t, TIMER_NEVER);
	t->attached = false;
	h->attached--;
}

void timer_heap_set(struct timer_heap *h, struct pxp_timer *t, uint64_t deadline)
{
	uint64_t old = t->deadline;

	/* Room exists for attached timers only: anything else would write past the end. */
	if (!t->attached)
		return;
	if (deadline == TIMER_NEVER) {
		if (t->slot)
			dequeue(h, t);
		return;
	}
	t->deadline = deadline;
	if (!t->slot)
		sift_up(h, h->len++, t); /* attach made the room */
	else if (deadline < old)
		sift_up(h, t->slot - 1, t);
	else if (deadline > old)
		sift_down(h, t->slot - 1, t);
}

uint64_t timer_heap_next(const struct timer_heap *h)
{
	return h->len ? h->v[0]->deadline : TIMER_NEVER;
}

struct pxp_timer *timer_heap_pop_due(struct timer_heap *h, uint64_t now)
{
	struct pxp_timer *t;

	if (!h->len || h->v[0]->deadline > now)
		return NULL;
	t = h->v[0];
	dequeue(h, t);
	return t;
}
