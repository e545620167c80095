/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The maps every program of the data path shares (layouts and the sharing scheme in
 * include/pxp_maps.h), and the counter helper. The XSKMAP of mode afxdp is apart, in
 * pxp_xsk.bpf.h: a stock OpenWrt kernel has none. BPF only.
 */
#ifndef PXP_MAPS_BPF_H
#define PXP_MAPS_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "pxp_maps.h"

/* Established sessions by (session id, peer MAC): the WAN program's lookup. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PXP_MAX_SESSIONS);
	__type(key, struct pxp_session_key);
	__type(value, struct pxp_session);
} pxp_sessions SEC(".maps");

/* The same sessions by the ifindex of their hidden peer: the session program's lookup. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PXP_MAX_SESSIONS);
	__type(key, __u32);
	__type(value, struct pxp_session);
} pxp_egress SEC(".maps");

/* Counters by RX queue, per CPU: no atomics on the hot path. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PXP_MAX_RX_QUEUES);
	__type(key, __u32);
	__type(value, struct pxp_counters);
} pxp_counters SEC(".maps");

/* Settings of the WAN port: VLAN, AF_XDP steering. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pxp_config);
} pxp_config SEC(".maps");

/*
 * Set by the BPF table tests only: BPF_PROG_TEST_RUN does not report where a frame was
 * redirected, so the programs record it here. The verifier removes the stores when false.
 */
const volatile __u8 pxp_record_redirects;
__u32 pxp_last_redirect;
#define PXP_REDIRECT_XSK_FLAG 0x80000000u
#define PXP_REDIRECT_CPU_FLAG 0x40000000u

static __always_inline struct pxp_counters *pxp_queue_counters(__u32 rx_queue)
{
	__u32 key = rx_queue < PXP_MAX_RX_QUEUES ? rx_queue : PXP_MAX_RX_QUEUES - 1;

	return bpf_map_lookup_elem(&pxp_counters, &key);
}

static __always_inline void pxp_count(struct pxp_counters *cnt, enum pxp_counter what)
{
	if (cnt && what < PXP_CNT__MAX)
		cnt->c[what]++;
}

static __always_inline int pxp_redirect(__u32 ifindex)
{
	if (pxp_record_redirects)
		pxp_last_redirect = ifindex;
	return bpf_redirect(ifindex, 0);
}

#endif
