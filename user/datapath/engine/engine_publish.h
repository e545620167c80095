/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Publication of the state the AF_XDP workers read (CONVENTIONS 16b): quiescent-state-based
 * reclamation, as liburcu's QSBR flavour, without a library.
 *
 * The publication rule, for every table a worker reads (today: the session record):
 *  1. A published table is immutable. To change it, the control thread builds a new one and
 *     engine_publish() swaps it in with one atomic pointer store (release).
 *  2. A worker reads the pointer with engine_published() (acquire) and uses the table only
 *     until its next quiescent point: it keeps no pointer to a table across
 *     engine_qsbr_quiescent(), which it calls after every loop iteration, nor across
 *     engine_qsbr_offline(), which it calls before it sleeps.
 *  3. engine_publish() returns the old table only once every reader has passed a quiescent
 *     point (or gone offline) since the swap; only then may the writer free it.
 * One writer (the control thread) per slot and per struct engine_qsbr; readers are the
 * workers, one reader index each. Readers never wait; the writer waits about one worker
 * loop iteration (microseconds), or not at all for a sleeping worker.
 */
#ifndef PXP_ENGINE_PUBLISH_H
#define PXP_ENGINE_PUBLISH_H

#include <stdint.h>

/* 0 = offline: the reader holds no table pointer, the writer does not wait for it. */
#define ENGINE_QSBR_OFFLINE 0

/* One reader's last quiescent point: the writer's epoch it saw then. Written by that reader. */
struct engine_qsbr_reader {
	uint64_t seen;
} __attribute__((aligned(64)));

struct engine_qsbr {
	uint64_t epoch; /* advanced by the writer on every publication; starts at 1 */
	unsigned int nr_readers;
	struct engine_qsbr_reader *readers;
};

/* A pointer to the current table of one kind; see the publication rule above. */
struct engine_slot {
	void *table;
};

/* All nr_readers readers start offline. Returns 0 or -ENOMEM. */
int engine_qsbr_init(struct engine_qsbr *qs, unsigned int nr_readers);
void engine_qsbr_destroy(struct engine_qsbr *qs);

/*
 * Reader r holds no table pointer from before this call (and comes online if it was
 * offline); tables it reads after it are the current ones. Called by reader r only.
 */
static inline void engine_qsbr_quiescent(struct engine_qsbr *qs, unsigned int r)
{
	uint64_t epoch = __atomic_load_n(&qs->epoch, __ATOMIC_SEQ_CST);

	/* Nothing published since our last quiescent point: nobody waits for us (the hot path). */
	if (qs->readers[r].seen == epoch)
		return;
	__atomic_store_n(&qs->readers[r].seen, epoch, __ATOMIC_SEQ_CST);
	/* Our later reads of a slot must not move before the store the writer waits for. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* Reader r holds no table pointer until its next engine_qsbr_quiescent(). Called by r only. */
static inline void engine_qsbr_offline(struct engine_qsbr *qs, unsigned int r)
{
	__atomic_store_n(&qs->readers[r].seen, ENGINE_QSBR_OFFLINE, __ATOMIC_RELEASE);
}

/* The slot's current table, valid until the caller's next quiescent point (readers). */
static inline const void *engine_published(const struct engine_slot *slot)
{
	return __atomic_load_n(&slot->table, __ATOMIC_ACQUIRE);
}

/*
 * Writer: make table the slot's current one, wait until no reader can still hold the
 * previous one and return that (NULL if there was none) for the caller to free.
 */
void *engine_publish(struct engine_qsbr *qs, struct engine_slot *slot, void *table);

#endif
