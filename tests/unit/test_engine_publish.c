// SPDX-License-Identifier: GPL-2.0
/*
 * Publication of the workers' tables (user/datapath/engine/engine_publish.h), with real
 * reader threads: a reader never sees a table the writer has retired, the writer waits for
 * a reader that holds the old table and not for one that is offline.
 *
 * Retired tables are poisoned, not freed, until the end: a reader that still used one would
 * read the poison (a freed one would be undefined behaviour, not a reliable failure).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "engine_publish.h"

#define ALIVE  0x600dcafeu
#define POISON 0xdeadbeefu

struct table {
	uint32_t magic;
	uint32_t generation;
	uint32_t words[15]; /* all equal to generation while the table is alive */
};

static struct table *new_table(uint32_t generation)
{
	struct table *t = malloc(sizeof(*t));

	if (!t)
		abort();
	t->magic = ALIVE;
	t->generation = generation;
	for (int i = 0; i < 15; i++)
		t->words[i] = generation;
	return t;
}

static void poison(struct table *t)
{
	t->magic = POISON;
	for (int i = 0; i < 15; i++)
		t->words[i] = POISON;
}

static bool table_ok(const struct table *t)
{
	if (__atomic_load_n(&t->magic, __ATOMIC_RELAXED) != ALIVE)
		return false;
	for (int i = 0; i < 15; i++) {
		if (__atomic_load_n(&t->words[i], __ATOMIC_RELAXED) != t->generation)
			return false;
	}
	return true;
}

TEST(first_publication_returns_nothing)
{
	struct engine_qsbr qs;
	struct engine_slot slot = { 0 };
	struct table *t = new_table(1);

	CHECK_EQ(engine_qsbr_init(&qs, 2), 0);
	CHECK(engine_publish(&qs, &slot, t) == NULL);
	CHECK(engine_published(&slot) == t);
	CHECK(engine_publish(&qs, &slot, NULL) == t); /* both readers offline: no wait */
	free(t);
	engine_qsbr_destroy(&qs);
}

/* A worker loop in miniature: read the table, use it, pass a quiescent point. */
struct reader {
	struct engine_qsbr *qs;
	struct engine_slot *slot;
	unsigned int index;
	int stop;
	uint64_t reads;
	uint32_t newest; /* the highest generation seen */
	bool saw_poison;
	bool went_back; /* generations must never decrease */
};

static void *read_loop(void *arg)
{
	struct reader *r = arg;

	engine_qsbr_quiescent(r->qs, r->index);
	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		for (int burst = 0; burst < 8; burst++) {
			const struct table *t = engine_published(r->slot);

			if (!table_ok(t))
				r->saw_poison = true;
			if (t->generation < r->newest)
				r->went_back = true;
			r->newest = t->generation;
			__atomic_store_n(&r->reads, r->reads + 1, __ATOMIC_RELAXED);
		}
		engine_qsbr_quiescent(r->qs, r->index);
		/* Now and then asleep and offline, as an idle worker in poll(). */
		if (r->reads % 4096 == 0) {
			engine_qsbr_offline(r->qs, r->index);
			usleep(100);
			engine_qsbr_quiescent(r->qs, r->index);
		}
	}
	engine_qsbr_offline(r->qs, r->index);
	return NULL;
}

#define READERS	    3
#define GENERATIONS 2000

/* Readers hammer the slot while the writer publishes and retires tables. */
TEST(readers_never_see_a_retired_table)
{
	static struct table *retired[GENERATIONS];
	struct reader readers[READERS];
	pthread_t threads[READERS];
	struct engine_slot slot = { 0 };
	struct engine_qsbr qs;
	bool ok = true;

	CHECK_EQ(engine_qsbr_init(&qs, READERS), 0);
	engine_publish(&qs, &slot, new_table(0));
	for (unsigned int i = 0; i < READERS; i++) {
		readers[i] = (struct reader){ .qs = &qs, .slot = &slot, .index = i };
		CHECK_EQ(pthread_create(&threads[i], NULL, read_loop, &readers[i]), 0);
	}
	/* Publish only once every reader reads: an offline one would not hold up anything. */
	for (unsigned int i = 0; i < READERS; i++) {
		while (!__atomic_load_n(&readers[i].reads, __ATOMIC_RELAXED))
			sched_yield();
	}
	for (uint32_t g = 1; g <= GENERATIONS; g++) {
		struct table *old = engine_publish(&qs, &slot, new_table(g));

		if (!old || old->generation != g - 1)
			ok = false;
		else
			poison(old);
		retired[g - 1] = old;
	}
	for (unsigned int i = 0; i < READERS; i++) {
		__atomic_store_n(&readers[i].stop, 1, __ATOMIC_RELEASE);
		pthread_join(threads[i], NULL);
	}
	for (uint32_t g = 0; g < GENERATIONS; g++)
		free(retired[g]);
	free(engine_publish(&qs, &slot, NULL));
	engine_qsbr_destroy(&qs);
	CHECK(ok);
	for (unsigned int i = 0; i < READERS; i++) {
		CHECK(readers[i].reads > 0);
		CHECK(!readers[i].saw_poison);
		CHECK(!readers[i].went_back);
	}
}

/* A reader that holds a table, and the moment it lets go. */
struct holder {
	struct engine_qsbr *qs;
	struct engine_slot *slot;
	const struct table *held;
	int holding;  /* set once held is read */
	int released; /* set just before its quiescent point */
};

static void *hold_then_release(void *arg)
{
	struct holder *h = arg;

	engine_qsbr_quiescent(h->qs, 0);
	h->held = engine_published(h->slot);
	__atomic_store_n(&h->holding, 1, __ATOMIC_RELEASE);
	usleep(50 * 1000); /* the writer publishes meanwhile and must wait */
	__atomic_store_n(&h->released, 1, __ATOMIC_RELEASE);
	engine_qsbr_quiescent(h->qs, 0);
	engine_qsbr_offline(h->qs, 0);
	return NULL;
}

TEST(writer_waits_for_a_reader_holding_the_old_table)
{
	struct engine_slot slot = { 0 };
	struct table *first = new_table(1), *old;
	struct holder h = { .slot = &slot };
	struct engine_qsbr qs;
	pthread_t thread;
	int released;

	CHECK_EQ(engine_qsbr_init(&qs, 1), 0);
	h.qs = &qs;
	engine_publish(&qs, &slot, first);
	CHECK_EQ(pthread_create(&thread, NULL, hold_then_release, &h), 0);
	while (!__atomic_load_n(&h.holding, __ATOMIC_ACQUIRE))
		sched_yield();
	old = engine_publish(&qs, &slot, new_table(2));
	released = __atomic_load_n(&h.released, __ATOMIC_ACQUIRE);
	pthread_join(thread, NULL);
	free(old);
	free(engine_publish(&qs, &slot, NULL));
	engine_qsbr_destroy(&qs);
	CHECK(old == first);
	CHECK(h.held == first);
	CHECK_EQ(released, 1);
}

int main(void)
{
	check_prefix = "engine_publish";
	RUN(first_publication_returns_nothing);
	RUN(readers_never_see_a_retired_table);
	RUN(writer_waits_for_a_reader_holding_the_old_table);
	return check_summary();
}
