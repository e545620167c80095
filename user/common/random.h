/* SPDX-License-Identifier: GPL-2.0 */
/* The randomness callback the protocol cores take (Host-Uniq, magic numbers, challenges). */
#ifndef PXP_RANDOM_H
#define PXP_RANDOM_H

#include <stddef.h>

/* Fills buf from the kernel's CSPRNG; ctx is unused. Never returns short: a core cannot
 * handle missing randomness, so a kernel without any source aborts the process. */
void pxp_random_fill(void *ctx, void *buf, size_t len);

#endif
