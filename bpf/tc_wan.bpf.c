// SPDX-License-Identifier: GPL-2.0
/*
 * tc ingress on the WAN port (mode tc, no XDP anywhere): PPPoE session data frames of known
 * sessions are decapsulated in the skb and redirected into the session netdev pxp0 (through
 * its hidden peer). The skb is kept: no copy, where XDP on a veth or generic XDP copies every frame
 * a stack sent. Everything else continues to the stack (TC_ACT_OK), where the control plane's raw
 * sockets read discovery and PPP control frames. Same parser, session lookup, checks, MSS clamp and
 * counters as bpf/xdp_wan.bpf.c.
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
int pxp_tc_wan(struct __sk_buff *skb)
{
	struct pxp_counters *cnt = pxp_queue_counters(pxp_skb_rx_queue(skb));
	struct pxp_wan_frame f = {};
	const struct pxp_config *cfg;
	const struct pxp_session *s;
	__u16 vlan_tci;
	__u32 zero = 0;
	void *data, *data_end;

	pxp_count(cnt, PXP_CNT_RX);
	cfg = bpf_map_lookup_elem(&pxp_config, &zero);
	if (!cfg)
		return TC_ACT_OK;
	/*
	 * The stack has moved an 802.1Q tag out of the frame (skb->vlan_tci) before tc runs:
	 * match it here and parse the rest as untagged. A tag still in the frame (802.1ad, or
	 * BPF_PROG_TEST_RUN) is the parser's to match.
	 */
	vlan_tci = cfg->vlan_tci;
	if (skb->vlan_present) {
		if (!vlan_tci || (skb->vlan_tci & 0x0fff) != (vlan_tci & 0x0fff)) {
			pxp_count(cnt, PXP_CNT_PASS);
			return TC_ACT_OK;
		}
		vlan_tci = 0;
	}
	pxp_skb_pull_headers(skb);
	data = (void *)(long)skb->data;
	data_end = (void *)(long)skb->data_end;
	switch (pxp_parse_wan_len(data, data_end, skb->len, vlan_tci, &f)) {
	case PXP_PARSE_DATA:
		break;
	case PXP_PARSE_DROP:
		pxp_count(cnt, f.drop_reason);
		return TC_ACT_SHOT;
	default:
		pxp_count(cnt, PXP_CNT_PASS);
		return TC_ACT_OK;
	}

	s = bpf_map_lookup_elem(&pxp_sessions, &f.key);
	if (!s) {
		/*
		 * Someone else's session, or a stale one: to the stack, where an AC answers with a
		 * PADT (disc_ac_unknown_session()) and a client only counts it.
		 */
		pxp_count(cnt, PXP_CNT_PASS);
		return TC_ACT_OK;
	}
	if (f.ip_len > s->mtu) {
		pxp_count(cnt, PXP_CNT_DROP_TOO_BIG);
		return TC_ACT_SHOT;
	}
	if (pxp_skb_strip_l2(skb, f.l2_len, f.ppp_proto) ||
	    (f.pad_len && bpf_skb_change_tail(skb, PXP_ETH_HLEN + f.ip_len, 0))) {
		pxp_count(cnt, PXP_CNT_DROP_ADJUST);
		return TC_ACT_SHOT;
	}
	data = (void *)(long)skb->data;
	data_end = (void *)(long)skb->data_end;
	if (pxp_write_decap_eth(data, data_end, s, f.ppp_proto)) {
		pxp_count(cnt, PXP_CNT_DROP_TRUNCATED);
		return TC_ACT_SHOT;
	}
	if ((s->flags & PXP_SESSION_F_MSS_CLAMP) &&
	    pxp_mss_clamp(data + PXP_ETH_HLEN, data_end, f.ppp_proto, s->mtu))
		pxp_count(cnt, PXP_CNT_MSS_CLAMPED);
	pxp_count(cnt, PXP_CNT_DECAP);
	/*
	 * Into the hidden peer's transmit, as XDP mode delivers: pxp0 then receives it through
	 * its own receive path, counted in its statistics and with GRO. Redirecting into pxp0's
	 * receive path directly (BPF_F_INGRESS) skips both, and measured no faster here.
	 */
	return pxp_redirect(s->peer_ifindex);
}

/*
 * Receive half xdp-pass: tc ingress on the WAN port, after pxp_xdp_wan decapsulated a frame,
 * returned XDP_PASS and the port's GRO coalesced it. The session key the XDP program left
 * in the metadata names the session; its pxp0 gets the (super)packet. Anything else
 * continues untouched.
 */
SEC("tc")
int pxp_tc_wan_pass(struct __sk_buff *skb)
{
	struct pxp_pass_meta *meta = (void *)(long)skb->data_meta;
	const struct pxp_session *s;
	struct pxp_session_key key;

	if ((void *)(meta + 1) > (void *)(long)skb->data || meta->magic != PXP_PASS_MAGIC)
		return TC_ACT_OK;
	key = meta->key;
	s = bpf_map_lookup_elem(&pxp_sessions, &key);
	if (!s)
		return TC_ACT_OK; /* ended meanwhile: the stack drops a frame not for this host */
	pxp_count(pxp_queue_counters(pxp_skb_rx_queue(skb)), PXP_CNT_PASS_REDIRECTED);
	return pxp_redirect(s->peer_ifindex);
}

char LICENSE[] SEC("license") = "GPL";
