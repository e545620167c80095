/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The upcall queue of one AF_XDP worker: frames a stage hands to the control plane (a
 * handshake, say), copied out of the UMEM so that UMEM frames never leave their worker.
 * A bounded ring of fixed-size slots with free-running 32-bit indices (head - tail frames
 * are waiting, wrap-around included).
 *
 * Concurrency: single producer (the worker), single consumer (the control thread); no locks.
 * A full ring refuses the frame: the producer drops and counts it, it never waits.
 */
#ifndef PXP_ENGINE_UPCALL_H
#define PXP_ENGINE_UPCALL_H

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "engine_stage.h"

/* The largest frame an upcall carries: what the kernel writes into a UMEM frame. */
#define ENGINE_UPCALL_FRAME_MAX ENGINE_FRAME_DATA_MAX

struct engine_upcall {
	uint16_t len;
	uint8_t port; /* index of the worker's port the frame arrived on */
	uint8_t data[ENGINE_UPCALL_FRAME_MAX];
};

struct engine_upcall_ring {
	uint32_t head __attribute__((aligned(64))); /* next slot to write: the producer's */
	uint32_t tail __attribute__((aligned(64))); /* next slot to read: the consumer's */
	uint32_t mask;				    /* slots - 1 */
	struct engine_upcall *slots;
};

/* An empty ring of nr_slots slots (a power of two). Returns 0 or -EINVAL / -ENOMEM. */
int engine_upcall_ring_init(struct engine_upcall_ring *r, uint32_t nr_slots);
void engine_upcall_ring_destroy(struct engine_upcall_ring *r);

/*
 * Producer: copy a frame of len bytes that arrived on port into the ring. Returns 0,
 * -ENOSPC if the ring is full or -EMSGSIZE if the frame is larger than a slot.
 */
static inline int engine_upcall_push(struct engine_upcall_ring *r, uint8_t port, const void *data,
				     uint32_t len)
{
	uint32_t head = r->head;
	struct engine_upcall *u;

	if (len > ENGINE_UPCALL_FRAME_MAX)
		return -EMSGSIZE;
	/* Acquire: the consumer is done with the slot it released. */
	if (head - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) > r->mask)
		return -ENOSPC;
	u = &r->slots[head & r->mask];
	u->len = (uint16_t)len;
	u->port = port;
	memcpy(u->data, data, len);
	/* Release: the slot's bytes are visible before the consumer sees the new head. */
	__atomic_store_n(&r->head, head + 1, __ATOMIC_RELEASE);
	return 0;
}

/*
 * Consumer: take the oldest frame, copying at most size bytes of it into buf and its port
 * into *port. Returns the frame's length (larger than size if it was cut short) or
 * -EAGAIN if the ring is empty.
 */
int engine_upcall_pop(struct engine_upcall_ring *r, void *buf, size_t size, unsigned int *port);

#endif
