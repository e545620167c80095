// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>

#include "xsk_frames.h"

static int is_power_of_two(uint32_t v)
{
	return v && !(v & (v - 1));
}

int xsk_frames_init(struct xsk_frames *fr, uint32_t nr_frames, uint32_t frame_size)
{
	if (!is_power_of_two(nr_frames) || !is_power_of_two(frame_size))
		return -EINVAL;
	fr->addrs = calloc(nr_frames, sizeof(*fr->addrs));
	if (!fr->addrs)
		return -ENOMEM;
	fr->capacity = nr_frames;
	fr->chunk_mask = ~((uint64_t)frame_size - 1);
	/* Lowest addresses on top: the first frames handed out are the first of the UMEM. */
	fr->count = nr_frames;
	for (uint32_t i = 0; i < nr_frames; i++)
		fr->addrs[i] = (uint64_t)(nr_frames - 1 - i) * frame_size;
	return 0;
}

void xsk_frames_destroy(struct xsk_frames *fr)
{
	free(fr->addrs);
	fr->addrs = NULL;
	fr->count = fr->capacity = 0;
}
