/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TCP MSS clamping on SYN and SYN-ACK, so that TCP through the session never builds segments
 * bigger than the session MTU (PPPoE's 8 bytes come off a 1500-byte path, and ICMP
 * too-big is often filtered). Plain C shared by the XDP programs and the AF_XDP engine.
 */
#ifndef PXP_MSS_H
#define PXP_MSS_H

#include "pxp_compat.h"
#include "pxp_csum.h"
#include "pppoe_wire.h"

#define PXP_IPPROTO_TCP	   6
#define PXP_TCP_FLAG_SYN   0x02
#define PXP_TCPOPT_EOL	   0
#define PXP_TCPOPT_NOP	   1
#define PXP_TCPOPT_MSS	   2
/* At most 40 option bytes: bounds the walk for the verifier. */
#define PXP_TCPOPT_MAX_LEN 40

/*
 * Lower the MSS option of a TCP SYN in the IP packet at l3 to mtu - 40 (IPv4) or
 * mtu - 60 (IPv6), fixing the TCP checksum incrementally. Non-first fragments, IPv6
 * extension headers, non-SYN segments and SYNs without an MSS option are left alone.
 * Returns 1 if the MSS was lowered, 0 otherwise.
 */
static __always_inline int pxp_mss_clamp(void *l3, void *data_end, __u16 ppp_proto, __u16 mtu)
{
	__u8 *tcp, *opt;
	__u16 max_mss, mss, new_mss, *csum;
	__u32 tcp_hlen, off;
	int i;

	if (ppp_proto == PPP_PROTO_IPV4) {
		__u8 *ip = l3;
		__u32 ihl;

		if ((void *)(ip + 20) > data_end)
			return 0;
		if (ip[9] != PXP_IPPROTO_TCP || ((ip[6] & 0x1f) | ip[7]))
			return 0;
		ihl = (ip[0] & 0x0f) * 4;
		if (ihl < 20)
			return 0;
		tcp = ip + ihl;
		max_mss = mtu - 40;
	} else {
		__u8 *ip6 = l3;

		if ((void *)(ip6 + 40) > data_end)
			return 0;
		if (ip6[6] != PXP_IPPROTO_TCP)
			return 0;
		tcp = ip6 + 40;
		max_mss = mtu - 60;
	}
	if ((void *)(tcp + 20) > data_end)
		return 0;
	if (!(tcp[13] & PXP_TCP_FLAG_SYN))
		return 0;
	tcp_hlen = (tcp[12] >> 4) * 4;
	if (tcp_hlen <= 20)
		return 0;

	off = 20;
	for (i = 0; i < PXP_TCPOPT_MAX_LEN; i++) {
		if (off + 1 > tcp_hlen)
			return 0;
		off &= 0x3f; /* always true (tcp_hlen <= 60); bounds the offset for the verifier */
		opt = tcp + off;
		if ((void *)(opt + 1) > data_end)
			return 0;
		if (opt[0] == PXP_TCPOPT_EOL)
			return 0;
		if (opt[0] == PXP_TCPOPT_NOP) {
			off++;
			continue;
		}
		if ((void *)(opt + 2) > data_end || opt[1] < 2)
			return 0;
		if (opt[0] != PXP_TCPOPT_MSS) {
			off += opt[1];
			continue;
		}
		if (opt[1] != 4 || off + 4 > tcp_hlen || (void *)(opt + 4) > data_end)
			return 0;
		mss = (__u16)(opt[2] << 8 | opt[3]);
		if (mss <= max_mss)
			return 0;
		new_mss = bpf_htons(max_mss);
		csum = (__u16 *)(tcp + 16);
		/* The MSS may sit at an odd offset: sum it as the bytes fall in 16-bit words. */
		if (off & 1) {
			pxp_csum_replace2(csum, (__u16)(bpf_htons(mss) >> 8 | bpf_htons(mss) << 8),
					  (__u16)(new_mss >> 8 | new_mss << 8));
		} else {
			pxp_csum_replace2(csum, bpf_htons(mss), new_mss);
		}
		__builtin_memcpy(opt + 2, &new_mss, sizeof(new_mss));
		return 1;
	}
	return 0;
}

#endif
