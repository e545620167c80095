// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's veth-hop case (bench/lib/host.sh): the shape of pppoe-xp's XDP data path
 * with none of its PPPoE work. The router routes through a veth pair (hop0, NAT out of it)
 * as it routes through pxp0. hop_out runs on the pair's hidden end, as pxp_xdp_session does,
 * and sends what the stack transmits out of the WAN port; hop_in runs on the WAN port, as
 * pxp_xdp_wan does, and hands every IPv4 frame into hop0. Both only rewrite the Ethernet
 * addresses and redirect: this case / ceiling is what a veth session netdev costs by itself,
 * the bound for the XDP mode on this machine.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

/* Set by build/bench/veth_hop before loading. */
const volatile __u32 wan_ifindex;
const volatile __u32 hop_peer_ifindex;
const volatile __u8 wan_mac[ETH_ALEN];
const volatile __u8 isp_mac[ETH_ALEN];
const volatile __u8 hop_mac[ETH_ALEN];

static __always_inline void set_mac(__u8 *to, const volatile __u8 *from)
{
	for (int i = 0; i < ETH_ALEN; i++)
		to[i] = from[i];
}

SEC("xdp")
int hop_out(struct xdp_md *ctx)
{
	struct ethhdr *eth = (void *)(long)ctx->data;

	if ((void *)(eth + 1) > (void *)(long)ctx->data_end)
		return XDP_DROP;
	set_mac(eth->h_dest, isp_mac);
	set_mac(eth->h_source, wan_mac);
	return bpf_redirect(wan_ifindex, 0);
}

SEC("xdp")
int hop_in(struct xdp_md *ctx)
{
	struct ethhdr *eth = (void *)(long)ctx->data;

	if ((void *)(eth + 1) > (void *)(long)ctx->data_end)
		return XDP_DROP;
	/* ARP (and IPv6, which this case routes over the WAN port) stays on the WAN port. */
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	set_mac(eth->h_dest, hop_mac);
	return bpf_redirect(hop_peer_ifindex, 0);
}

char LICENSE[] SEC("license") = "GPL";
