// SPDX-License-Identifier: GPL-2.0
/* The workers' upcall queues (see engine_upcall.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine_upcall.h"

int engine_upcall_ring_init(struct engine_upcall_ring *r, uint32_t nr_slots)
{
	if (!nr_slots || (nr_slots & (nr_slots - 1)))
		return -EINVAL;
	r->slots = calloc(nr_slots, sizeof(*r->slots));
	if (!r->slots)
		return -ENOMEM;
	r->head = r->tail = 0;
	r->mask = nr_slots - 1;
	return 0;
}

void engine_upcall_ring_destroy(struct engine_upcall_ring *r)
{
	free(r->slots);
	r->slots = NULL;
}

int engine_upcall_pop(struct engine_upcall_ring *r, void *buf, size_t size, unsigned int *port)
{
	uint32_t tail = r->tail;
	const struct engine_upcall *u;
	int len;

	/* Acquire: the producer's copy into the slot is visible once its head is. */
	if (__atomic_load_n(&r->head, __ATOMIC_ACQUIRE) == tail)
		return -EAGAIN;
	u = &r->slots[tail & r->mask];
	len = u->len;
	memcpy(buf, u->data, (size_t)len < size ? (size_t)len : size);
	*port = u->port;
	/* Release: we are done reading the slot before the producer may reuse it. */
	__atomic_store_n(&r->tail, tail + 1, __ATOMIC_RELEASE);
	return len;
}
