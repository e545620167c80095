/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PXP_MONO_CLOCK_H
#define PXP_MONO_CLOCK_H

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t pxp_mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

#endif
