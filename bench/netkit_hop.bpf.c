// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's netkit-hop case (bench/lib/guest.sh): veth-hop's bound for a netkit session
 * netdev. The router routes through nk0, a netkit device in L3 mode (no ARP; its frames still
 * carry an Ethernet header, with nk0's all-zero address), as it would through a netkit pxp0.
 * nk_out runs on nk0's transmit (BPF_NETKIT_PRIMARY), rewrites the Ethernet addresses and
 * redirects out of the WAN port; nk_in runs at the WAN port's tcx ingress, after its GRO, and
 * hands every IPv4 frame into nk0, addressed to it. No PPPoE, no XDP, no copy: this case /
 * ceiling is what a netkit session netdev costs by itself.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

/* Set by build/bench/netkit_hop before loading. */
const volatile __u32 wan_ifindex;
const volatile __u32 nk_ifindex;
const volatile __u8 wan_mac[ETH_ALEN];
const volatile __u8 isp_mac[ETH_ALEN];
const volatile __u8 nk_mac[ETH_ALEN];

static __always_inline void set_mac(__u8 *to, const volatile __u8 *from)
{
	for (int i = 0; i < ETH_ALEN; i++)
		to[i] = from[i];
}

SEC("tc")
int nk_out(struct __sk_buff *skb)
{
	struct ethhdr *eth = (void *)(long)skb->data;

	if ((void *)(eth + 1) > (void *)(long)skb->data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return TC_ACT_SHOT;
	set_mac(eth->h_dest, isp_mac);
	set_mac(eth->h_source, wan_mac);
	return bpf_redirect(wan_ifindex, 0);
}

SEC("tc")
int nk_in(struct __sk_buff *skb)
{
	struct ethhdr *eth = (void *)(long)skb->data;

	if ((void *)(eth + 1) > (void *)(long)skb->data_end)
		return TC_ACT_SHOT;
	/* ARP (and IPv6, which this case routes over the WAN port) stays on the WAN port. */
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;
	/* Else nk0 takes the frame for another host's and the stack drops it. */
	set_mac(eth->h_dest, nk_mac);
	return bpf_redirect(nk_ifindex, BPF_F_INGRESS);
}

char LICENSE[] SEC("license") = "GPL";
