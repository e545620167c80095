// SPDX-License-Identifier: GPL-2.0
/*
 * Encapsulation in mode tc, on the skb: attached as tc ingress on pxp0's hidden peer, so that
 * what the stack sends has crossed pxp0's own transmit (its qdisc, its counters), or as a
 * netkit pxp0's primary program (in its transmit). Either way pxp0's transmit has segmented
 * a GSO skb (TSO/GSO off on pxp0): the kernel has no PPPoE segmentation (each segment needs
 * its own PPPoE length), so a GSO skb here would leave as a superpacket and is dropped.
 * Nothing larger than the session MTU leaves. Same parser, checks, header writer, MSS clamp
 * and counters as bpf/xdp_session.bpf.c.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#include "lib/pxp_maps.bpf.h"
#include "lib/pxp_parse.h"
#include "lib/pxp_encap.h"
#include "lib/pxp_mss.h"
#include "lib/pxp_skb.h"

SEC("tc")
int pxp_tc_session(struct __sk_buff *skb)
{
	struct pxp_counters *cnt = pxp_queue_counters(skb->queue_mapping);
	struct pxp_egress_frame f = {};
	const struct pxp_session *s;
	__u32 ifindex = skb->ifindex;
	void *data, *data_end;
	__u16 growth;

	s = bpf_map_lookup_elem(&pxp_egress, &ifindex);
	if (!s) {
		/* Nothing else may leave through a session netdev. */
		pxp_count(cnt, PXP_CNT_TX);
		pxp_count(cnt, PXP_CNT_DROP_NO_SESSION);
		return TC_ACT_SHOT;
	}
	pxp_count(cnt, PXP_CNT_TX);
	if (skb->gso_size) {
		pxp_count(cnt, PXP_CNT_DROP_TOO_BIG);
		return TC_ACT_SHOT;
	}
	pxp_skb_pull_headers(skb);
	data = (void *)(long)skb->data;
	data_end = (void *)(long)skb->data_end;
	if (pxp_parse_egress_len(data, data_end, skb->len, &f) != PXP_PARSE_DATA) {
		pxp_count(cnt, f.drop_reason);
		return TC_ACT_SHOT;
	}
	if (f.ip_len > s->mtu) {
		pxp_count(cnt, PXP_CNT_DROP_TOO_BIG);
		return TC_ACT_SHOT;
	}
	growth = pxp_encap_growth(s);
	if ((f.pad_len && bpf_skb_change_tail(skb, PXP_ETH_HLEN + f.ip_len, 0)) ||
	    bpf_skb_change_head(skb, growth, 0)) {
		pxp_count(cnt, PXP_CNT_DROP_ADJUST);
		return TC_ACT_SHOT;
	}
	data = (void *)(long)skb->data;
	data_end = (void *)(long)skb->data_end;
	if (pxp_write_encap(data, data_end, s, f.ppp_proto, f.ip_len)) {
		pxp_count(cnt, PXP_CNT_DROP_TRUNCATED);
		return TC_ACT_SHOT;
	}
	if ((s->flags & PXP_SESSION_F_MSS_CLAMP) &&
	    pxp_mss_clamp(data + PXP_ETH_HLEN + growth, data_end, f.ppp_proto, s->mtu))
		pxp_count(cnt, PXP_CNT_MSS_CLAMPED);
	pxp_count(cnt, PXP_CNT_ENCAP);
	return pxp_redirect(s->wan_ifindex);
}

char LICENSE[] SEC("license") = "GPL";
