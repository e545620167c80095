// SPDX-License-Identifier: GPL-2.0
/*
 * XDP on the hidden veth peer of a session netdev (pxp0): what the stack sends out of pxp0
 * arrives here, is encapsulated in PPPoE (+802.1Q) towards the session's peer and redirected
 * to the WAN port. One program serves every session; the hidden peer's ifindex selects it.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "lib/pxp_maps.bpf.h"
#include "lib/pxp_xsk.bpf.h"
#include "lib/pxp_parse.h"
#include "lib/pxp_encap.h"
#include "lib/pxp_mss.h"

SEC("xdp")
int pxp_xdp_session(struct xdp_md *ctx)
{
	struct pxp_counters *cnt = pxp_queue_counters(ctx->rx_queue_index);
	__u32 ifindex = ctx->ingress_ifindex;
	struct pxp_egress_frame f = {};
	const struct pxp_config *cfg;
	const struct pxp_session *s;
	__u32 zero = 0;
	void *data, *data_end;

	pxp_count(cnt, PXP_CNT_TX);
	s = bpf_map_lookup_elem(&pxp_egress, &ifindex);
	if (!s) {
		/* Nothing else may leave through a session netdev. */
		pxp_count(cnt, PXP_CNT_DROP_NO_SESSION);
		return XDP_DROP;
	}
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	if (pxp_parse_egress(data, data_end, &f) != PXP_PARSE_DATA) {
		pxp_count(cnt, f.drop_reason);
		return XDP_DROP;
	}
	if (f.ip_len > s->mtu) {
		pxp_count(cnt, PXP_CNT_DROP_TOO_BIG);
		return XDP_DROP;
	}
	cfg = bpf_map_lookup_elem(&pxp_config, &zero);
	if (pxp_to_xsk(cfg)) {
		pxp_count(cnt, PXP_CNT_TO_XSK);
		return pxp_redirect_xsk(cfg->peer_xsk_base + ctx->rx_queue_index);
	}

	if (f.pad_len && bpf_xdp_adjust_tail(ctx, -(int)f.pad_len)) {
		pxp_count(cnt, PXP_CNT_DROP_ADJUST);
		return XDP_DROP;
	}
	if (bpf_xdp_adjust_head(ctx, -(int)pxp_encap_growth(s))) {
		pxp_count(cnt, PXP_CNT_DROP_ADJUST);
		return XDP_DROP;
	}
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	if (pxp_write_encap(data, data_end, s, f.ppp_proto, f.ip_len)) {
		pxp_count(cnt, PXP_CNT_DROP_TRUNCATED);
		return XDP_DROP;
	}
	if (s->flags & PXP_SESSION_F_MSS_CLAMP) {
		__u16 l2 = PXP_ETH_HLEN + pxp_encap_growth(s);

		if (pxp_mss_clamp(data + l2, data_end, f.ppp_proto, s->mtu))
			pxp_count(cnt, PXP_CNT_MSS_CLAMPED);
	}
	pxp_count(cnt, PXP_CNT_ENCAP);
	return pxp_redirect(s->wan_ifindex);
}

char LICENSE[] SEC("license") = "GPL";
