// SPDX-License-Identifier: GPL-2.0
/*
 * The event loop's timer heap (user/common/timer_heap.h): add, cancel, re-arm, equal
 * deadlines, many timers popped in order, and random operations checked against a plain
 * array, with the heap invariant and every timer's slot checked after each.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "check.h"
#include "timer_heap.h"

#define MANY 5000

static struct pxp_timer timers[MANY];

/* Each parent no later than its children, and each timer knows its slot. */
static bool heap_ok(const struct timer_heap *h)
{
	for (unsigned int i = 0; i < h->len; i++) {
		if (h->v[i]->slot != i + 1 || h->v[i]->deadline == TIMER_NEVER)
			return false;
		if (i > 0 && h->v[(i - 1) / 2]->deadline > h->v[i]->deadline)
			return false;
	}
	return h->len <= h->attached && h->attached <= h->cap;
}

static void attach_all(struct timer_heap *h, unsigned int n)
{
	timer_heap_init(h);
	for (unsigned int i = 0; i < n; i++) {
		timers[i].attached = false;
		if (timer_heap_attach(h, &timers[i]))
			abort();
	}
}

TEST(add_and_pop_in_order)
{
	struct timer_heap h;

	attach_all(&h, 3);
	CHECK_EQ(timer_heap_next(&h), TIMER_NEVER);
	CHECK(!timer_heap_pop_due(&h, UINT64_MAX - 1));
	timer_heap_set(&h, &timers[0], 300);
	timer_heap_set(&h, &timers[1], 100);
	timer_heap_set(&h, &timers[2], 200);
	CHECK(heap_ok(&h));
	CHECK_EQ(timer_heap_next(&h), 100);
	CHECK(!timer_heap_pop_due(&h, 99));
	CHECK(timer_heap_pop_due(&h, 250) == &timers[1]);
	CHECK(timer_heap_pop_due(&h, 250) == &timers[2]);
	CHECK(!timer_heap_pop_due(&h, 250));
	CHECK_EQ(timers[1].slot, 0);
	CHECK_EQ(timers[1].deadline, TIMER_NEVER);
	CHECK_EQ(timer_heap_next(&h), 300);
	CHECK(timer_heap_pop_due(&h, 300) == &timers[0]);
	CHECK_EQ(h.len, 0);
	timer_heap_free(&h);
}

TEST(cancel_anywhere)
{
	struct timer_heap h;

	attach_all(&h, 7);
	for (unsigned int i = 0; i < 7; i++)
		timer_heap_set(&h, &timers[i], 10 * (i + 1));
	timer_heap_set(&h, &timers[0], TIMER_NEVER); /* the root */
	timer_heap_set(&h, &timers[3], TIMER_NEVER); /* inside */
	timer_heap_set(&h, &timers[6], TIMER_NEVER); /* the last */
	timer_heap_set(&h, &timers[6], TIMER_NEVER); /* twice: a no-op */
	CHECK(heap_ok(&h));
	CHECK_EQ(h.len, 4);
	CHECK_EQ(timers[3].slot, 0);
	CHECK(timer_heap_pop_due(&h, 1000) == &timers[1]);
	CHECK(timer_heap_pop_due(&h, 1000) == &timers[2]);
	CHECK(timer_heap_pop_due(&h, 1000) == &timers[4]);
	CHECK(timer_heap_pop_due(&h, 1000) == &timers[5]);
	CHECK(!timer_heap_pop_due(&h, 1000));
	/* Detaching a queued timer dequeues it; detaching again changes nothing. */
	timer_heap_set(&h, &timers[2], 5);
	timer_heap_detach(&h, &timers[2]);
	timer_heap_detach(&h, &timers[2]);
	CHECK_EQ(h.len, 0);
	CHECK_EQ(h.attached, 6);
	/* A detached timer is never queued: no room was made for it. */
	timer_heap_set(&h, &timers[2], 5);
	CHECK_EQ(h.len, 0);
	CHECK_EQ(timers[2].slot, 0);
	CHECK(heap_ok(&h));
	timer_heap_free(&h);
}

TEST(rearm_earlier_and_later)
{
	struct timer_heap h;

	attach_all(&h, 4);
	for (unsigned int i = 0; i < 4; i++)
		timer_heap_set(&h, &timers[i], 100 * (i + 1));
	timer_heap_set(&h, &timers[3], 50); /* later to first */
	CHECK(heap_ok(&h));
	CHECK_EQ(timer_heap_next(&h), 50);
	timer_heap_set(&h, &timers[3], 1000); /* first to last */
	timer_heap_set(&h, &timers[0], 250);  /* between */
	timer_heap_set(&h, &timers[1], 200);  /* unchanged */
	CHECK(heap_ok(&h));
	CHECK(timer_heap_pop_due(&h, 5000) == &timers[1]);
	CHECK(timer_heap_pop_due(&h, 5000) == &timers[0]);
	CHECK(timer_heap_pop_due(&h, 5000) == &timers[2]);
	CHECK(timer_heap_pop_due(&h, 5000) == &timers[3]);
	/* A popped timer is armed again like a new one. */
	timer_heap_set(&h, &timers[3], 7);
	CHECK_EQ(timer_heap_next(&h), 7);
	CHECK(heap_ok(&h));
	timer_heap_free(&h);
}

TEST(equal_deadlines_all_fire)
{
	struct timer_heap h;
	bool seen[64] = { false };
	struct pxp_timer *t;
	unsigned int n = 0;

	attach_all(&h, 64);
	for (unsigned int i = 0; i < 64; i++)
		timer_heap_set(&h, &timers[i], i % 2 ? 500 : 400);
	CHECK(heap_ok(&h));
	while ((t = timer_heap_pop_due(&h, 450))) {
		CHECK_EQ((t - timers) % 2, 0);
		CHECK(!seen[t - timers]);
		seen[t - timers] = true;
		n++;
	}
	CHECK_EQ(n, 32);
	while ((t = timer_heap_pop_due(&h, 500))) {
		CHECK(!seen[t - timers]);
		seen[t - timers] = true;
		n++;
	}
	CHECK_EQ(n, 64);
	timer_heap_free(&h);
}

TEST(many_pop_sorted)
{
	struct timer_heap h;
	uint64_t last = 0;
	struct pxp_timer *t;
	unsigned int n = 0;

	srandom(17);
	attach_all(&h, MANY);
	for (unsigned int i = 0; i < MANY; i++)
		timer_heap_set(&h, &timers[i], (uint64_t)(random() % 100000));
	CHECK(heap_ok(&h));
	while ((t = timer_heap_pop_due(&h, UINT64_MAX - 1))) {
		CHECK(t->deadline == TIMER_NEVER && t->slot == 0);
		n++;
	}
	CHECK_EQ(n, MANY);
	/* Again, checking the order through what each deadline was. */
	for (unsigned int i = 0; i < MANY; i++)
		timer_heap_set(&h, &timers[i], (uint64_t)(random() % 100000));
	for (n = 0; n < MANY; n++) {
		uint64_t d = timer_heap_next(&h);

		CHECK(d >= last);
		last = d;
		CHECK(timer_heap_pop_due(&h, d));
	}
	CHECK_EQ(h.len, 0);
	timer_heap_free(&h);
}

/* Random arms, moves, cancels, pops and detaches against an array of expected deadlines. */
TEST(random_ops_keep_the_invariant)
{
	static uint64_t want[MANY];
	static bool in[MANY];
	struct timer_heap h;
	unsigned int n = 500, op;
	uint64_t now = 0;

	srandom(4242);
	attach_all(&h, n);
	for (unsigned int i = 0; i < n; i++) {
		want[i] = TIMER_NEVER;
		in[i] = true;
	}
	for (op = 0; op < 200000; op++) {
		unsigned int i = (unsigned int)random() % n;
		long r = random() % 10;
		struct pxp_timer *t;

		if (r < 5 && in[i]) {
			/* Few distinct values: many equal deadlines. */
			want[i] = now + (uint64_t)(random() % 50);
			timer_heap_set(&h, &timers[i], want[i]);
		} else if (r < 7 && in[i]) {
			want[i] = TIMER_NEVER;
			timer_heap_set(&h, &timers[i], TIMER_NEVER);
		} else if (r < 9) {
			now += (uint64_t)(random() % 5);
			while ((t = timer_heap_pop_due(&h, now))) {
				unsigned int k = (unsigned int)(t - timers);

				CHECK(want[k] <= now);
				want[k] = TIMER_NEVER;
			}
		} else if (in[i]) {
			timer_heap_detach(&h, &timers[i]);
			in[i] = false;
			want[i] = TIMER_NEVER;
		} else {
			CHECK_EQ(timer_heap_attach(&h, &timers[i]), 0);
			in[i] = true;
		}
		CHECK(heap_ok(&h));
		if (op % 101 == 0) {
			uint64_t min = TIMER_NEVER;
			unsigned int queued = 0;

			for (unsigned int k = 0; k < n; k++) {
				CHECK_EQ(timers[k].deadline, want[k]);
				CHECK_EQ(timers[k].slot != 0, want[k] != TIMER_NEVER);
				if (want[k] < min)
					min = want[k];
				queued += want[k] != TIMER_NEVER;
			}
			CHECK_EQ(timer_heap_next(&h), min);
			CHECK_EQ(h.len, queued);
		}
	}
	timer_heap_free(&h);
}

int main(void)
{
	check_prefix = "timer_heap";
	RUN(add_and_pop_in_order);
	RUN(cancel_anywhere);
	RUN(rearm_earlier_and_later);
	RUN(equal_deadlines_all_fire);
	RUN(many_pop_sorted);
	RUN(random_ops_keep_the_invariant);
	return check_summary();
}
