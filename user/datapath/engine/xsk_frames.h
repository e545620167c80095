/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The buffer cache of one AF_XDP engine worker: a LIFO stack of free UMEM frame addresses.
 * A worker owns one UMEM shared by its two sockets, so frames only ever circulate inside
 * that worker: completions and dropped frames are pushed here, fill rings are topped up
 * from here. LIFO keeps recently used (cache-hot) frames in use.
 *
 * Concurrency: single owner (the worker thread); no locks.
 */
#ifndef PXP_XSK_FRAMES_H
#define PXP_XSK_FRAMES_H

#include <errno.h>
#include <stdint.h>

struct xsk_frames {
	uint64_t *addrs;
	uint32_t count;
	uint32_t capacity;
	uint64_t chunk_mask; /* clears the offset inside a frame: ~(frame_size - 1) */
};

/*
 * Hold all nr_frames frames of a UMEM of frame_size-byte frames (both powers of two),
 * all free. Returns 0 or -EINVAL / -ENOMEM.
 */
int xsk_frames_init(struct xsk_frames *fr, uint32_t nr_frames, uint32_t frame_size);
void xsk_frames_destroy(struct xsk_frames *fr);

/* Pop up to n free frame base addresses into out; returns how many. */
static inline uint32_t xsk_frames_pop(struct xsk_frames *fr, uint64_t *out, uint32_t n)
{
	if (n > fr->count)
		n = fr->count;
	for (uint32_t i = 0; i < n; i++)
		out[i] = fr->addrs[--fr->count];
	return n;
}

static inline uint64_t xsk_frames_pop_one(struct xsk_frames *fr)
{
	return fr->addrs[--fr->count];
}

/*
 * Return a frame given by any address inside it (a descriptor's addr carries the headroom
 * offset). Returns 0, or -ENOSPC if the cache is full: more frees than frames, a bug.
 */
static inline int xsk_frames_push(struct xsk_frames *fr, uint64_t addr)
{
	if (fr->count == fr->capacity)
		return -ENOSPC;
	fr->addrs[fr->count++] = addr & fr->chunk_mask;
	return 0;
}

#endif
