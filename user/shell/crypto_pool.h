/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fork-join pool for the WireGuard device's batch crypto: threads - 1 persistent workers
 * plus the calling thread. crypto_pool_run() hands out the indices 0..n_jobs-1 (an atomic
 * counter, a few at a time) and returns once every job has run, so whatever the caller does
 * after it sees every job's writes, and the order the batch had is the caller's to keep.
 * Workers spin briefly for the next round, then sleep on a futex: an idle device burns no
 * CPU.
 *
 * Concurrency: one caller at a time (the device's loop thread). fn runs on several threads
 * at once, each call with its own job; `thread` (0 the caller, 1..threads-1 the workers)
 * is never used by two calls at once, so fn may use per-thread state by it (a cipher
 * context each: OpenSSL's are not thread-safe).
 */
#ifndef PXP_CRYPTO_POOL_H
#define PXP_CRYPTO_POOL_H

/* --crypto-threads' bound, and the default's: the CPUs we may run on, at most that. */
#define CRYPTO_POOL_MAX_THREADS 8
#define CRYPTO_POOL_DEFAULT_MAX 4

typedef void (*crypto_pool_fn)(void *ctx, unsigned int job, unsigned int thread);

struct crypto_pool;

/* The CPUs sched_getaffinity allows, at most CRYPTO_POOL_DEFAULT_MAX (1 if unknown). */
unsigned int crypto_pool_default_threads(void);

/*
 * A pool of threads (1..CRYPTO_POOL_MAX_THREADS; 1: no worker, every job inline) into *out.
 * 0, -EINVAL or -errno of pthread_create/malloc.
 */
int crypto_pool_create(struct crypto_pool **out, unsigned int threads);
/* Stops and joins the workers. NULL is fine. */
void crypto_pool_destroy(struct crypto_pool *p);
unsigned int crypto_pool_threads(const struct crypto_pool *p);
/* fn(ctx, job, thread) for every job in 0..n_jobs-1, exactly once each; returns after all. */
void crypto_pool_run(struct crypto_pool *p, unsigned int n_jobs, crypto_pool_fn fn, void *ctx);

#endif
