// SPDX-License-Identifier: GPL-2.0
/*
 * The WireGuard device's crypto pool (user/shell/crypto_pool.h): every job of a round runs
 * exactly once and before crypto_pool_run returns, over many rounds of every size (none, fewer
 * jobs than threads, many), with 1 to CRYPTO_POOL_MAX_THREADS threads; a thread index is
 * never in two jobs at once; the workers really take jobs; rounds after the workers fell
 * asleep still complete.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "crypto_pool.h"

#define JOBS_MAX 1024

struct round {
	unsigned int n, threads;
	_Atomic unsigned int runs[JOBS_MAX];
	_Atomic bool in_use[CRYPTO_POOL_MAX_THREADS];
	_Atomic unsigned int by_thread[CRYPTO_POOL_MAX_THREADS];
	_Atomic unsigned int bad; /* a job out of range, a thread index out of range or shared */
	unsigned int spin;	  /* busy work per job, so that several threads overlap */
};

static void job(void *ctx, unsigned int i, unsigned int thread)
{
	struct round *r = ctx;
	volatile unsigned int x = 0;

	if (i >= r->n || thread >= r->threads || atomic_exchange(&r->in_use[thread], true)) {
		atomic_fetch_add(&r->bad, 1);
		return;
	}
	for (unsigned int k = 0; k < r->spin; k++)
		x += k;
	atomic_fetch_add(&r->runs[i], 1);
	atomic_fetch_add(&r->by_thread[thread], 1);
	atomic_store(&r->in_use[thread], false);
}

/* One round of n jobs; false if a job ran other than once or a rule was broken. */
static bool round_ok(struct crypto_pool *p, struct round *r, unsigned int n)
{
	r->n = n;
	for (unsigned int i = 0; i < JOBS_MAX; i++)
		atomic_store(&r->runs[i], 0);
	crypto_pool_run(p, n, job, r);
	for (unsigned int i = 0; i < n; i++)
		if (atomic_load(&r->runs[i]) != 1)
			return false;
	return atomic_load(&r->bad) == 0;
}

TEST(create_refuses_bad_counts)
{
	struct crypto_pool *p = (void *)1;

	CHECK_EQ(crypto_pool_create(&p, 0), -EINVAL);
	CHECK(p == NULL);
	CHECK_EQ(crypto_pool_create(&p, CRYPTO_POOL_MAX_THREADS + 1), -EINVAL);
	crypto_pool_destroy(NULL);
}

TEST(default_threads_in_range)
{
	unsigned int n = crypto_pool_default_threads();

	CHECK(n >= 1 && n <= CRYPTO_POOL_DEFAULT_MAX);
}

/* Sizes 0, 1, fewer than the threads, odd, many; 2000 rounds for each thread count. */
TEST(every_job_once)
{
	static const unsigned int sizes[] = { 0, 1, 2, 3, 5, 7, 8, 31, 64, 100, 257, JOBS_MAX };
	static struct round r;

	for (unsigned int t = 1; t <= CRYPTO_POOL_MAX_THREADS; t++) {
		struct crypto_pool *p;

		CHECK_EQ(crypto_pool_create(&p, t), 0);
		CHECK_EQ(crypto_pool_threads(p), t);
		memset(&r, 0, sizeof(r));
		r.threads = t;
		for (unsigned int k = 0; k < 2000; k++) {
			unsigned int n = sizes[k % (sizeof(sizes) / sizeof(sizes[0]))];

			r.spin = k % 3 ? 0 : 200;
			if (!round_ok(p, &r, n)) {
				crypto_pool_destroy(p);
				printf("# threads %u round %u jobs %u\n", t, k, n);
				CHECK(0);
			}
		}
		crypto_pool_destroy(p);
	}
}

/* With slow jobs the workers take some: the pool is not the caller alone. */
TEST(workers_take_jobs)
{
	static struct round r;
	struct crypto_pool *p;
	unsigned int others = 0;

	CHECK_EQ(crypto_pool_create(&p, 2), 0);
	memset(&r, 0, sizeof(r));
	r.threads = 2;
	r.spin = 20000;
	for (unsigned int k = 0; k < 200 && !others; k++) {
		CHECK(round_ok(p, &r, 64));
		others = atomic_load(&r.by_thread[1]);
	}
	crypto_pool_destroy(p);
	CHECK(others > 0);
}

/* Rounds far apart: the workers sleep between them (futex) and still serve the next. */
TEST(rounds_after_sleep)
{
	static struct round r;
	struct crypto_pool *p;
	struct timespec gap = { .tv_nsec = 2000000 }; /* past the workers' spin */

	CHECK_EQ(crypto_pool_create(&p, 4), 0);
	memset(&r, 0, sizeof(r));
	r.threads = 4;
	r.spin = 1000;
	for (unsigned int k = 0; k < 20; k++) {
		nanosleep(&gap, NULL);
		CHECK(round_ok(p, &r, 1 + k * 13));
	}
	crypto_pool_destroy(p);
}

int main(void)
{
	check_prefix = "crypto_pool";
	RUN(create_refuses_bad_counts);
	RUN(default_threads_in_range);
	RUN(every_job_once);
	RUN(workers_take_jobs);
	RUN(rounds_after_sleep);
	return check_summary();
}
