/* SPDX-License-Identifier: GPL-2.0 */
/* Incremental Internet checksum update (RFC 1624), for BPF and userspace alike. */
#ifndef PXP_CSUM_H
#define PXP_CSUM_H

#include "pxp_compat.h"

/*
 * Fix *csum for one 16-bit word changing from old_word to new_word. All three are raw
 * (network order) values read at the same 16-bit alignment as the summed data:
 * the one's complement sum is byte-order independent, so no swapping is needed.
 */
static __always_inline void pxp_csum_replace2(__u16 *csum, __u16 old_word, __u16 new_word)
{
	__u32 sum = (__u16) ~*csum;

	sum += (__u16)~old_word;
	sum += new_word;
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	*csum = (__u16)~sum;
}

#endif
