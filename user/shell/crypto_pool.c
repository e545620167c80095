// SPDX-License-Identifier: GPL-2.0
/*
 * The fork-join pool of crypto_pool.h. A round: the caller makes gen odd (setting up), waits
 * until no worker is inside the last round, writes fn/ctx/n_jobs, makes gen even
 * (published), runs jobs itself and waits until `done` reaches n_jobs. A worker enters a
 * round by counting itself in `busy` and checking that gen is still the one it saw, so it
 * never reads a half-written round; the caller never waits for a worker that is asleep,
 * only for jobs, so a late worker costs nothing.
 *
 * Each store that a later load of another variable must not pass (gen then busy or
 * sleepers; caller_sleeps then done) is a read-modify-write, not a plain seq_cst store.
 * C11 orders the two either way, but qemu-aarch64 on an x86 host appears to let STLR's
 * store wait in the store buffer past the LDAR that follows: a worker could then enter a
 * round being set up and run jobs past its end, and the caller wait for a `done` it never
 * reaches (the likely cause of test_crypto_pool hanging in CI's cross tier; not reproduced
 * here). An RMW is a full barrier on every host.
 */
#define _GNU_SOURCE /* CPU_COUNT, sched_getaffinity */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cpu_relax.h"
#include "crypto_pool.h"
#include "mono_clock.h"

/* How long a worker spins for the next round, and the caller for the last jobs, before
 * sleeping: a batch arrives every few tens of microseconds under load. */
#define WORKER_SPIN_NS 20000
#define CALLER_SPIN_NS 20000
/* Jobs taken at a time: a few per thread and round, so a slow thread leaves work to others. */
#define CHUNK_MAX      16

struct worker {
	struct crypto_pool *pool;
	unsigned int index;
	pthread_t tid;
};

struct crypto_pool {
	unsigned int threads;
	/* The round: written by the caller while gen is odd and busy is 0. */
	crypto_pool_fn fn;
	void *ctx;
	unsigned int n_jobs, chunk;
	_Atomic uint32_t gen;	       /* even: a round published; odd: one being set up */
	_Atomic unsigned int next;     /* the next job to hand out */
	_Atomic uint32_t done;	       /* jobs of this round finished; the caller sleeps on it */
	_Atomic unsigned int busy;     /* workers inside a round */
	_Atomic unsigned int sleepers; /* workers asleep on gen */
	_Atomic bool caller_sleeps;
	_Atomic bool stop;
	struct worker worker[CRYPTO_POOL_MAX_THREADS]; /* [1..threads-1] */
};

static void futex_wait(_Atomic uint32_t *addr, uint32_t val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *addr, int n)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

unsigned int crypto_pool_default_threads(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	n = CPU_COUNT(&set);
	if (n < 1)
		return 1;
	return n > CRYPTO_POOL_DEFAULT_MAX ? CRYPTO_POOL_DEFAULT_MAX : (unsigned int)n;
}

/* Jobs of the round until none is left, counted into done (the caller waits for all). */
static void work(struct crypto_pool *p, unsigned int thread)
{
	unsigned int n = p->n_jobs, chunk = p->chunk, did = 0;

	for (;;) {
		unsigned int i = atomic_fetch_add_explicit(&p->next, chunk, memory_order_relaxed);
		unsigned int end = i + chunk < n ? i + chunk : n;

		if (i >= n)
			break;
		did += end - i;
		for (; i < end; i++)
			p->fn(p->ctx, i, thread);
	}
	/* Release: the jobs' writes are the caller's once it sees done reach n_jobs. */
	if (did && atomic_fetch_add(&p->done, did) + did == n && atomic_load(&p->caller_sleeps))
		futex_wake(&p->done, 1);
}

/* A round other than seen, published (gen even), or the stop; gen's value then. */
static uint32_t wait_round(struct crypto_pool *p, uint32_t seen)
{
	uint64_t until = 0;

	for (unsigned int spins = 0;; spins++) {
		uint32_t g = atomic_load(&p->gen);

		if ((g != seen && !(g & 1)) || atomic_load(&p->stop))
			return g;
		cpu_relax();
		if (spins % 64)
			continue;
		if (!until) {
			until = pxp_mono_ns() + WORKER_SPIN_NS;
			continue;
		}
		if (pxp_mono_ns() < until)
			continue;
		/* Asleep until the caller publishes a round (it wakes sleepers after). */
		atomic_fetch_add(&p->sleepers, 1);
		g = atomic_load(&p->gen);
		if ((g == seen || (g & 1)) && !atomic_load(&p->stop))
			futex_wait(&p->gen, g);
		atomic_fetch_sub(&p->sleepers, 1);
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct crypto_pool *p = w->pool;
	uint32_t seen = 0;

	for (;;) {
		uint32_t g = wait_round(p, seen);

		if (atomic_load(&p->stop))
			return NULL;
		atomic_fetch_add(&p->busy, 1);
		/* The caller may have begun the next set-up since: then this round is not ours. */
		if (atomic_load(&p->gen) == g) {
			seen = g;
			work(p, w->index);
		}
		atomic_fetch_sub(&p->busy, 1);
	}
}

int crypto_pool_create(struct crypto_pool **out, unsigned int threads)
{
	struct crypto_pool *p;
	sigset_t all, old;
	int err = 0;

	*out = NULL;
	if (threads < 1 || threads > CRYPTO_POOL_MAX_THREADS)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	/* Signals are the loop thread's (its signalfd): the workers take none. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (p->threads = 1; p->threads < threads; p->threads++) {
		struct worker *w = &p->worker[p->threads];

		w->pool = p;
		w->index = p->threads;
		err = -pthread_create(&w->tid, NULL, worker_main, w);
		if (err)
			break;
		pthread_setname_np(w->tid, "pxp-crypto");
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		crypto_pool_destroy(p);
		return err;
	}
	*out = p;
	return 0;
}

void crypto_pool_destroy(struct crypto_pool *p)
{
	if (!p)
		return;
	atomic_store(&p->stop, true);
	atomic_fetch_add(&p->gen, 2);
	futex_wake(&p->gen, INT_MAX);
	for (unsigned int i = 1; i < p->threads; i++)
		pthread_join(p->worker[i].tid, NULL);
	free(p);
}

unsigned int crypto_pool_threads(const struct crypto_pool *p)
{
	return p->threads;
}

void crypto_pool_run(struct crypto_pool *p, unsigned int n_jobs, crypto_pool_fn fn, void *ctx)
{
	uint32_t g = atomic_load_explicit(&p->gen, memory_order_relaxed); /* ours alone */
	unsigned int chunk;
	uint64_t until;

	if (p->threads == 1 || n_jobs < 2) {
		for (unsigned int i = 0; i < n_jobs; i++)
			fn(ctx, i, 0);
		return;
	}
	atomic_exchange(&p->gen, g + 1);
	/* A worker still inside the last round leaves at once: nothing is left in it (unless
	 * it was preempted there: then its CPU is what it needs). */
	for (unsigned int spins = 1; atomic_load(&p->busy); spins++) {
		cpu_relax();
		if (!(spins % 256))
			sched_yield();
	}
	chunk = n_jobs / (p->threads * 4);
	p->chunk = chunk < 1 ? 1 : chunk > CHUNK_MAX ? CHUNK_MAX : chunk;
	p->fn = fn;
	p->ctx = ctx;
	p->n_jobs = n_jobs;
	atomic_store_explicit(&p->next, 0, memory_order_relaxed);
	atomic_store_explicit(&p->done, 0, memory_order_relaxed);
	atomic_exchange(&p->gen, g + 2);
	if (atomic_load(&p->sleepers))
		futex_wake(&p->gen, INT_MAX);
	work(p, 0);
	until = pxp_mono_ns() + CALLER_SPIN_NS;
	for (unsigned int spins = 0;; spins++) {
		uint32_t d = atomic_load(&p->done);

		if (d == n_jobs)
			break;
		cpu_relax();
		if (spins % 64 || pxp_mono_ns() < until)
			continue;
		atomic_exchange(&p->caller_sleeps, true);
		d = atomic_load(&p->done);
		if (d != n_jobs)
			futex_wait(&p->done, d);
		atomic_store(&p->caller_sleeps, false);
	}
}
