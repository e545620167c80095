/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hash of the inner flow of a decapsulated IP packet (addresses, and ports for unfragmented
 * TCP/UDP), to spread one PPPoE session (one RX queue on the NIC: NICs cannot hash PPPoE)
 * over CPUs while keeping each flow on one CPU, in order. Plain C, shared with userspace.
 */
#ifndef PXP_HASH_H
#define PXP_HASH_H

#include "pxp_compat.h"
#include "pppoe_wire.h"

/* A murmur3-style finaliser step: mixes every input bit into every output bit. */
static __always_inline __u32 pxp_hash_mix(__u32 h, __u32 v)
{
	v *= 0xcc9e2d51u;
	v = (v << 15) | (v >> 17);
	v *= 0x1b873593u;
	h ^= v;
	h = (h << 13) | (h >> 19);
	return h * 5 + 0xe6546b64u;
}

static __always_inline __u32 pxp_hash_final(__u32 h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

static __always_inline __u32 pxp_load32(const __u8 *p)
{
	return (__u32)p[0] << 24 | (__u32)p[1] << 16 | (__u32)p[2] << 8 | p[3];
}

/* Hash of the IP packet at l3 (ppp_proto says which); 0 if the headers are cut short. */
static __always_inline __u32 pxp_flow_hash(void *l3, void *data_end, __u16 ppp_proto)
{
	__u8 *ip = l3, *l4;
	__u32 h = 0x9e3779b9u;
	__u8 proto;

	if (ppp_proto == PPP_PROTO_IPV4) {
		if ((void *)(ip + 20) > data_end)
			return 0;
		h = pxp_hash_mix(h, pxp_load32(ip + 12));
		h = pxp_hash_mix(h, pxp_load32(ip + 16));
		proto = ip[9];
		/* Fragments after the first carry no ports: addresses only, for every fragment. */
		if ((ip[6] & 0x3f) | ip[7])
			return pxp_hash_final(pxp_hash_mix(h, proto));
		l4 = ip + (ip[0] & 0x0f) * 4;
	} else {
		if ((void *)(ip + 40) > data_end)
			return 0;
		for (int i = 8; i < 40; i += 4)
			h = pxp_hash_mix(h, pxp_load32(ip + i));
		proto = ip[6];
		l4 = ip + 40;
	}
	h = pxp_hash_mix(h, proto);
	if ((proto == 6 || proto == 17) && (void *)(l4 + 4) <= data_end)
		h = pxp_hash_mix(h, pxp_load32(l4));
	return pxp_hash_final(h);
}

#endif
