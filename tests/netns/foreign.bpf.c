// SPDX-License-Identifier: GPL-2.0
/*
 * Someone else's programs, for tests/netns/test_datapath.sh: a tc filter and an XDP program
 * that let every frame pass. Attached to the WAN port beside pppoe-xp's own, they must still
 * be there after pppoe-xp stops ("touch only what we attached").
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

SEC("tc")
int foreign_tc(struct __sk_buff *skb __attribute__((unused)))
{
	return TC_ACT_OK;
}

SEC("xdp")
int foreign_xdp(struct xdp_md *ctx __attribute__((unused)))
{
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
