// SPDX-License-Identifier: GPL-2.0
/*
 * XDP on the WAN port: PPPoE session data frames of known sessions are decapsulated and
 * redirected into the session netdev's hidden veth peer, so they come out of pxp0 into the
 * normal stack (routes, nftables, conntrack). Everything else passes untouched to the stack,
 * where the control plane's raw sockets read discovery and PPP control frames.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "lib/pxp_maps.bpf.h"
#include "lib/pxp_xsk.bpf.h"
#include "lib/pxp_parse.h"
#include "lib/pxp_encap.h"
#include "lib/pxp_mss.h"
#include "lib/pxp_hash.h"

/*
 * CPUs that decapsulated frames are spread to (software RSS: a NIC puts a whole PPPoE
 * session on one RX queue). Each entry runs pxp_xdp_cpu below on its CPU.
 */
struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, PXP_MAX_CPUS);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
} pxp_cpus SEC(".maps");

/*
 * Set by user/datapath/dp_load.c before load: the kernel lets XDP programs call
 * bpf_xdp_adjust_meta. Some kernels refuse it (seen: a sandbox's 6.18 build); with this
 * clear the verifier prunes both calls below (read-only data it knows), the object still
 * loads, and userspace refuses the two features that need them: the receive half xdp-pass
 * and CPU spreading.
 */
const volatile __u8 pxp_xdp_meta;

/* What the WAN program tells the CPU program, in the frame's metadata area. */
struct pxp_cpu_meta {
	__u32 peer_ifindex;
};

/* Spread a decapsulated frame to a CPU by its flow; XDP_ABORTED if that is impossible. */
static __always_inline int spread_to_cpu(struct xdp_md *ctx, const struct pxp_config *cfg,
					 const struct pxp_session *s, __u16 ppp_proto)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	__u32 cpu = pxp_flow_hash(data + PXP_ETH_HLEN, data_end, ppp_proto) % cfg->nr_cpus;
	struct pxp_cpu_meta *meta;
	__u32 peer_ifindex = s->peer_ifindex;

	if (!pxp_xdp_meta || bpf_xdp_adjust_meta(ctx, -(int)sizeof(*meta)))
		return XDP_ABORTED;
	meta = (void *)(long)ctx->data_meta;
	if ((void *)(meta + 1) > (void *)(long)ctx->data)
		return XDP_ABORTED;
	meta->peer_ifindex = peer_ifindex;
	if (pxp_record_redirects)
		pxp_last_redirect = PXP_REDIRECT_CPU_FLAG | cpu;
	return bpf_redirect_map(&pxp_cpus, cpu, XDP_ABORTED);
}

/*
 * Receive half xdp-pass: hand the decapsulated frame to the stack, so the WAN port's GRO
 * coalesces the inner IP, with the session key in the metadata for pxp_tc_wan_pass
 * (bpf/tc_wan.bpf.c), which redirects it into pxp0. XDP_ABORTED if there is no room.
 */
static __always_inline int pass_to_tc(struct xdp_md *ctx, const struct pxp_wan_frame *f)
{
	struct pxp_pass_meta *meta;

	if (!pxp_xdp_meta || bpf_xdp_adjust_meta(ctx, -(int)sizeof(*meta)))
		return XDP_ABORTED;
	meta = (void *)(long)ctx->data_meta;
	if ((void *)(meta + 1) > (void *)(long)ctx->data)
		return XDP_ABORTED;
	meta->magic = PXP_PASS_MAGIC;
	meta->key = f->key;
	return XDP_PASS;
}

SEC("xdp")
int pxp_xdp_wan(struct xdp_md *ctx)
{
	struct pxp_counters *cnt = pxp_queue_counters(ctx->rx_queue_index);
	struct pxp_wan_frame f = {};
	const struct pxp_config *cfg;
	const struct pxp_session *s;
	__u32 zero = 0;
	void *data, *data_end;

	pxp_count(cnt, PXP_CNT_RX);
	cfg = bpf_map_lookup_elem(&pxp_config, &zero);
	if (!cfg)
		return XDP_PASS;

	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	switch (pxp_parse_wan(data, data_end, cfg->vlan_tci, &f)) {
	case PXP_PARSE_DATA:
		break;
	case PXP_PARSE_DROP:
		pxp_count(cnt, f.drop_reason);
		return XDP_DROP;
	default:
		pxp_count(cnt, PXP_CNT_PASS);
		return XDP_PASS;
	}

	s = bpf_map_lookup_elem(&pxp_sessions, &f.key);
	if (!s) {
		/*
		 * Someone else's session, or a stale one: to the stack, where an AC answers with a
		 * PADT (disc_ac_unknown_session()) and a client only counts it.
		 */
		pxp_count(cnt, PXP_CNT_PASS);
		return XDP_PASS;
	}
	if (f.ip_len > s->mtu) {
		pxp_count(cnt, PXP_CNT_DROP_TOO_BIG);
		return XDP_DROP;
	}
	if (pxp_to_xsk(cfg)) {
		pxp_count(cnt, PXP_CNT_TO_XSK);
		return pxp_redirect_xsk(cfg->wan_xsk_base + ctx->rx_queue_index);
	}

	if (f.pad_len && bpf_xdp_adjust_tail(ctx, -(int)f.pad_len)) {
		pxp_count(cnt, PXP_CNT_DROP_ADJUST);
		return XDP_DROP;
	}
	if (bpf_xdp_adjust_head(ctx, f.l2_len - PXP_ETH_HLEN)) {
		pxp_count(cnt, PXP_CNT_DROP_ADJUST);
		return XDP_DROP;
	}
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	if (pxp_write_decap_eth(data, data_end, s, f.ppp_proto)) {
		pxp_count(cnt, PXP_CNT_DROP_TRUNCATED);
		return XDP_DROP;
	}
	if ((s->flags & PXP_SESSION_F_MSS_CLAMP) &&
	    pxp_mss_clamp(data + PXP_ETH_HLEN, data_end, f.ppp_proto, s->mtu))
		pxp_count(cnt, PXP_CNT_MSS_CLAMPED);
	pxp_count(cnt, PXP_CNT_DECAP);
	if (cfg->flags & PXP_CFG_F_XDP_PASS)
		return pass_to_tc(ctx, &f);
	if ((cfg->flags & PXP_CFG_F_CPU_SPREAD) && cfg->nr_cpus) {
		int ret = spread_to_cpu(ctx, cfg, s, f.ppp_proto);

		if (ret == XDP_REDIRECT)
			return ret;
		/* No such CPU entry: deliver here rather than lose the frame. */
		pxp_count(cnt, PXP_CNT_CPU_FALLBACK);
	}
	return pxp_redirect(s->peer_ifindex);
}

/* Runs on the CPU pxp_xdp_wan chose: moves the frame into the session netdev there. */
SEC("xdp/cpumap")
int pxp_xdp_cpu(struct xdp_md *ctx)
{
	struct pxp_cpu_meta *meta = (void *)(long)ctx->data_meta;

	if ((void *)(meta + 1) > (void *)(long)ctx->data) {
		pxp_count(pxp_queue_counters(0), PXP_CNT_DROP_NO_SESSION);
		return XDP_DROP;
	}
	return pxp_redirect(meta->peer_ifindex);
}

char LICENSE[] SEC("license") = "GPL";
