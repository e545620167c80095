/* SPDX-License-Identifier: GPL-2.0 */
/*
 * skb steps of the tc programs (mode tc); BPF only. tc has no bpf_xdp_adjust_head, and
 * bpf_skb_adjust_room refuses an skb whose protocol is not IPv4/IPv6 (a PPPoE frame's is
 * ETH_P_PPP_SES): the VLAN helpers, which set skb->protocol from the frame and keep the
 * checksum state right, make it IP first (see pxp_skb_strip_l2).
 */
#ifndef PXP_SKB_H
#define PXP_SKB_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "pxp_compat.h"
#include "pppoe_wire.h"

/*
 * Bytes made linear (readable through skb->data) before parsing: Ethernet, two tags, PPPoE
 * and PPP, and the longest IPv6 + TCP header the MSS clamp reads.
 */
#define PXP_SKB_PULL_LEN (PXP_ETH_HLEN + 2 * PXP_VLAN_HLEN + 8 + 40 + 60)

static __always_inline void pxp_skb_pull_headers(struct __sk_buff *skb)
{
	__u32 len = skb->len < PXP_SKB_PULL_LEN ? skb->len : PXP_SKB_PULL_LEN;

	/* Failing leaves the frame as it was: the parser's bounds checks then pass or drop it. */
	bpf_skb_pull_data(skb, len);
}

/* The RX queue an skb arrived on (skb->queue_mapping holds it plus one, 0 = not recorded). */
static __always_inline __u32 pxp_skb_rx_queue(const struct __sk_buff *skb)
{
	return skb->queue_mapping ? skb->queue_mapping - 1 : 0;
}

static __always_inline int pxp_is_vlan_proto(__u32 proto_be)
{
	return proto_be == bpf_htons(PXP_ETH_P_8021Q) || proto_be == bpf_htons(PXP_ETH_P_8021AD);
}

/*
 * Cut the l2_len - PXP_ETH_HLEN bytes between the MAC addresses and the IP packet (PPPoE +
 * PPP, and a tag still in the frame), leaving Ethernet + IP with ethertype ppp_proto's.
 * bpf_skb_adjust_room does the cut once skb->protocol is IP, and only the VLAN helpers can
 * make it so: the ethertype in front of the PPPoE header (the frame's, or the tag's inner
 * one) becomes the IP ethertype, a vlan_push with a tag already outside the frame moves
 * that tag into it and makes skb->protocol 802.1Q, and vlan_pop takes the frame's tags off
 * again, each leaving skb->protocol the ethertype behind it, until none is left. Returns 0,
 * or -1 (frame left unusable: drop it).
 */
static __always_inline int pxp_skb_strip_l2(struct __sk_buff *skb, __u16 l2_len, __u16 ppp_proto)
{
	__u16 ip_type =
		ppp_proto == PPP_PROTO_IPV4 ? bpf_htons(PXP_ETH_P_IP) : bpf_htons(PXP_ETH_P_IPV6);
	__u16 tpid = bpf_htons(PXP_ETH_P_8021Q);
	__u32 expect_len;
	int i;

	if (l2_len == PXP_ETH_HLEN + PPPOE_SESSION_OVERHEAD) {
		/* Offset 12 is the MAC header's: not in skb->csum at tc ingress. */
		if (bpf_skb_store_bytes(skb, 12, &ip_type, 2, 0))
			return -1;
		if (!skb->vlan_present && bpf_skb_vlan_push(skb, tpid, 0))
			return -1;
		if (bpf_skb_vlan_push(skb, tpid, 0))
			return -1;
	} else if (l2_len == PXP_ETH_HLEN + PXP_VLAN_HLEN + PPPOE_SESSION_OVERHEAD) {
		/* The tag's inner ethertype is payload as the checksum sees it. */
		if (bpf_skb_store_bytes(skb, 16, &ip_type, 2, BPF_F_RECOMPUTE_CSUM))
			return -1;
	} else {
		return -1;
	}
	for (i = 0; i < 4; i++) {
		if (!skb->vlan_present && !pxp_is_vlan_proto(skb->protocol))
			break;
		if (bpf_skb_vlan_pop(skb))
			return -1;
	}
	expect_len = skb->len - PPPOE_SESSION_OVERHEAD;
	if (skb->vlan_present || skb->protocol != ip_type ||
	    bpf_skb_adjust_room(skb, -(int)PPPOE_SESSION_OVERHEAD, BPF_ADJ_ROOM_MAC, 0) ||
	    skb->len != expect_len)
		return -1;
	return 0;
}

#endif
