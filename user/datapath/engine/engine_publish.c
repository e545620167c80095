// SPDX-License-Identifier: GPL-2.0
/* Publication of the workers' tables (see engine_publish.h). */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "engine_publish.h"

int engine_qsbr_init(struct engine_qsbr *qs, unsigned int nr_readers)
{
	size_t size = sizeof(*qs->readers) * (nr_readers ? nr_readers : 1);

	qs->readers = aligned_alloc(sizeof(*qs->readers), size);
	if (!qs->readers)
		return -ENOMEM;
	memset(qs->readers, 0, size); /* ENGINE_QSBR_OFFLINE */
	qs->nr_readers = nr_readers;
	qs->epoch = 1;
	return 0;
}

void engine_qsbr_destroy(struct engine_qsbr *qs)
{
	free(qs->readers);
	qs->readers = NULL;
	qs->nr_readers = 0;
}

/* Wait until every reader is offline or has passed a quiescent point in epoch target or later. */
static void wait_for_readers(struct engine_qsbr *qs, uint64_t target)
{
	for (unsigned int r = 0; r < qs->nr_readers; r++) {
		for (;;) {
			uint64_t seen = __atomic_load_n(&qs->readers[r].seen, __ATOMIC_SEQ_CST);

			if (seen == ENGINE_QSBR_OFFLINE || seen >= target)
				break;
			/* The readers may share our CPU: let them run to their quiescent point. */
			sched_yield();
		}
	}
}

void *engine_publish(struct engine_qsbr *qs, struct engine_slot *slot, void *table)
{
	void *old = __atomic_exchange_n(&slot->table, table, __ATOMIC_SEQ_CST);
	/* A reader that saw this epoch (or a later one) read the slot after the exchange. */
	uint64_t target = __atomic_add_fetch(&qs->epoch, 1, __ATOMIC_SEQ_CST);

	if (old)
		wait_for_readers(qs, target);
	return old;
}
