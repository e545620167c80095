/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Big-endian (network order) loads and stores on byte buffers: wire fields of the control
 * protocols at any alignment, without casts to __be16 pointers.
 */
#ifndef PXP_BYTES_H
#define PXP_BYTES_H

#include <stdint.h>

static inline uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static inline void put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, v >> 16);
	put_be16(p + 2, v & 0xffff);
}

#endif
