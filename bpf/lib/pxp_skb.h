/* SPDX-License-Identifier: GPL-2.0 */
/*
 * skb steps of the tc programs (mode tc); BPF only. tc has no bpf_xdp_adjust_head, and
 * bpf_skb_adjust_room refuses an skb whose protocol is not IPv4/IPv6 (a PPPoE frame's is
 * ETH_P_PPP_SES), so the 8 bytes of PPPoE and PPP are taken off with the VLAN helpers, which
 * remove 4 bytes after the MAC addresses each and keep skb->protocol and the checksum state
 * right (see pxp_skb_strip_l2).
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
 * PPP, and a tag still in the frame), leaving Ethernet + IP with ethertype ppp_proto's. The
 * bytes from offset 12 up to the IP packet are rewritten as 802.1Q tags (VID 0) followed by
 * the IP ethertype; two vlan_push make skb->protocol 802.1Q (the second moves the first tag
 * into the frame), and each vlan_pop then removes one tag from the frame, until none is left
 * and skb->protocol is the IP ethertype. Returns 0, or -1 (frame left unusable: drop it).
 */
static __always_inline int pxp_skb_strip_l2(struct __sk_buff *skb, __u16 l2_len, __u16 ppp_proto)
{
	__u16 ip_type =
		ppp_proto == PPP_PROTO_IPV4 ? bpf_htons(PXP_ETH_P_IP) : bpf_htons(PXP_ETH_P_IPV6);
	__u16 tpid = bpf_htons(PXP_ETH_P_8021Q);
	/* Offset 14 on: TCI 0, 802.1Q, TCI 0, [802.1Q, TCI 0,] the IP ethertype. */
	__u16 tags[6] = { 0, tpid, 0, tpid, 0, ip_type };
	__u32 expect_len, strip;
	int i;

	if (l2_len == PXP_ETH_HLEN + PPPOE_SESSION_OVERHEAD) {
		tags[3] = ip_type;
		strip = PPPOE_SESSION_OVERHEAD;
	} else if (l2_len == PXP_ETH_HLEN + PXP_VLAN_HLEN + PPPOE_SESSION_OVERHEAD) {
		strip = PXP_VLAN_HLEN + PPPOE_SESSION_OVERHEAD;
	} else {
		return -1;
	}
	expect_len = skb->len - strip;
	/* Offset 12 is the MAC header's (not in skb->csum at tc ingress), 14 on is the payload's.
	 */
	if (bpf_skb_store_bytes(skb, 12, &tpid, 2, 0) ||
	    bpf_skb_store_bytes(skb, 14, tags, strip, BPF_F_RECOMPUTE_CSUM))
		return -1;
	if (!skb->vlan_present && bpf_skb_vlan_push(skb, tpid, 0))
		return -1;
	if (bpf_skb_vlan_push(skb, tpid, 0))
		return -1;
	for (i = 0; i < 6; i++) {
		if (!skb->vlan_present && !pxp_is_vlan_proto(skb->protocol))
			break;
		if (bpf_skb_vlan_pop(skb))
			return -1;
	}
	if (skb->vlan_present || skb->protocol != ip_type || skb->len != expect_len)
		return -1;
	return 0;
}

#endif
