/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Map layouts of the express data path, shared by the XDP programs (bpf/xdp_wan.bpf.c,
 * bpf/xdp_session.bpf.c) and userspace (user/datapath/datapath.c, the AF_XDP engine).
 * Fixed-width fields only; every struct is size-checked.
 *
 * Maps (declared in bpf/lib/pxp_maps.bpf.h, shared by both programs: userspace loads the
 * WAN object first and hands its map fds to the session object with bpf_map__reuse_fd):
 *   pxp_sessions  HASH  struct pxp_session_key -> struct pxp_session   (WAN ingress lookup)
 *   pxp_egress    HASH  __u32 hidden-peer ifindex -> struct pxp_session (egress lookup);
 *                 mode tc also keys it by pxp0's own ifindex (its egress program's lookup)
 *   pxp_counters  PERCPU_ARRAY  __u32 rx queue -> struct pxp_counters
 *   pxp_config    ARRAY  __u32 0 -> struct pxp_config
 *   pxp_cpus      CPUMAP __u32 cpu -> queue + pxp_xdp_cpu (WAN object only), used when
 *                 pxp_config.flags has PXP_CFG_F_CPU_SPREAD.
 *   xsks_map      XSKMAP __u32 key -> AF_XDP socket (the two XDP objects only, declared in
 *                 bpf/lib/pxp_xsk.bpf.h); exists only in mode afxdp (a stock OpenWrt
 *                 kernel has no XSKMAP) and is used only when pxp_config.flags has
 *                 PXP_CFG_F_AFXDP: the WAN program redirects session data frames to key
 *                 wan_xsk_base + rx_queue, the session program to peer_xsk_base + rx_queue.
 */
#ifndef PXP_MAPS_H
#define PXP_MAPS_H

#include <linux/types.h>

#include "pxp_counters.h"

#define PXP_MAX_SESSIONS  4096
#define PXP_MAX_RX_QUEUES 64
#define PXP_XSKS_MAX	  (2 * PXP_MAX_RX_QUEUES)

/* The program names userspace recognises a stale attachment by. */
#define PXP_PROG_NAME_WAN     "pxp_xdp_wan"
#define PXP_PROG_NAME_SESSION "pxp_xdp_session"
#define PXP_PROG_NAME_TC_WAN  "pxp_tc_wan"
#define PXP_PROG_NAME_TC_SESS "pxp_tc_session"
#define PXP_PROG_NAME_TC_PASS "pxp_tc_wan_pass"

/* Sessions are looked up by id and the peer's MAC: two ACs may hand out the same id. */
struct pxp_session_key {
	__be16 session_id;
	__u8 peer_mac[6];
};

/* Clamp the MSS of TCP SYNs (and SYN-ACKs) to mtu - 40 (IPv4) / mtu - 60 (IPv6). */
#define PXP_SESSION_F_MSS_CLAMP 0x0001

/* One established session: everything both directions need, in one record. */
struct pxp_session {
	__u8 peer_mac[6];	 /* the AC (client) or the client (server) */
	__u8 wan_mac[6];	 /* our WAN port: source of encapsulated frames */
	__u8 netdev_mac[6];	 /* pxp0: destination of decapsulated frames */
	__u8 peer_netdev_mac[6]; /* pxp0's hidden peer: source of decapsulated frames */
	__be16 session_id;
	__u16 mtu; /* host order: the largest IP packet the session carries */
	__u32 wan_ifindex;
	__u32 peer_ifindex; /* the hidden peer: decapsulated frames are redirected into it */
	__u16 vlan_tci;	    /* host order, pushed on encapsulated frames; 0 = untagged */
	__u16 flags;	    /* PXP_SESSION_F_* */
};

/* Counter slots, per CPU and per RX queue: the rows of include/pxp_counters.h. */
enum pxp_counter {
#define X(id, key, field, description) PXP_CNT_##id,
	PXP_COUNTERS(X)
#undef X
		PXP_CNT__MAX,
};

struct pxp_counters {
	__u64 c[PXP_CNT__MAX];
};

/* pxp_config.flags: steer session data frames to xsks_map instead of forwarding them. */
#define PXP_CFG_F_AFXDP	     0x0001
/*
 * pxp_config.flags: hand decapsulated frames to CPU (inner flow hash % nr_cpus) through
 * pxp_cpus, whose program (pxp_xdp_cpu) redirects them into the session netdev there.
 */
#define PXP_CFG_F_CPU_SPREAD 0x0002
#define PXP_MAX_CPUS	     64
/*
 * pxp_config.flags (receive half xdp-pass): the WAN program passes decapsulated frames to
 * the stack (XDP_PASS, so the WAN port's GRO coalesces them) with struct pxp_pass_meta in
 * the metadata area, and the tc program pxp_tc_wan_pass redirects them into pxp0.
 */
#define PXP_CFG_F_XDP_PASS   0x0004

/* What the WAN program tells pxp_tc_wan_pass, in front of a passed frame. */
#define PXP_PASS_MAGIC 0x70787031u /* "pxp1": not some other program's metadata */
struct pxp_pass_meta {
	__u32 magic;
	struct pxp_session_key key;
};

struct pxp_config {
	__u32 flags;
	__u16 vlan_tci; /* host order; 0 = untagged WAN. The WAN takes frames with this VID only */
	__u16 nr_cpus;	/* with PXP_CFG_F_CPU_SPREAD: pxp_cpus keys 0..nr_cpus-1 are set */
	__u32 wan_xsk_base;
	__u32 peer_xsk_base;
};

_Static_assert(sizeof(struct pxp_session_key) == 8, "session key is 8 bytes");
_Static_assert(sizeof(struct pxp_session) == 40, "session record is 40 bytes");
_Static_assert(sizeof(struct pxp_counters) == 8 * PXP_CNT__MAX, "counters are u64 slots");
_Static_assert(sizeof(struct pxp_config) == 16, "config is 16 bytes");
_Static_assert(sizeof(struct pxp_pass_meta) == 12, "XDP metadata is a multiple of 4 bytes");

#endif
