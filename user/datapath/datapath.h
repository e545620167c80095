/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The express data path of PPPoE sessions, the one narrow interface between the control
 * plane and the data plane. The daemon attaches the data path to a WAN port once, then adds
 * one record per established session (session id, peer MAC, MTU); the data path creates the
 * session netdev (pxp0: what routes, nftables and sockets see, as they would see ppp0) and
 * moves that session's IPv4/IPv6 frames between it and the WAN port, never through a kernel
 * PPP channel. Discovery, LCP/auth/IPCP/IPv6CP and frames of unknown sessions are left to
 * the kernel stack untouched, where the daemon's raw sockets read them.
 *
 * Concurrency: all functions are called from the daemon's single control thread.
 */
#ifndef PXP_DATAPATH_H
#define PXP_DATAPATH_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dp_stats.h"

enum pxp_dp_mode {
	PXP_DP_AUTO,	/* by the WAN port's driver: the auto table (dp_auto.c) */
	PXP_DP_XDP,	/* native XDP decap/encap in the kernel */
	PXP_DP_AFXDP,	/* AF_XDP sockets and the userspace engine */
	PXP_DP_GENERIC, /* skb-mode XDP, for drivers without native XDP */
	PXP_DP_TC,	/* tc programs on the skb, no XDP anywhere (stock OpenWrt kernels) */
	PXP_DP__MODES,	/* how many there are */
};

/*
 * The programs of each half of the data path: receive (WAN -> pxp0) and transmit (pxp0 ->
 * WAN), chosen apart so that every combination can be measured. XDP halves run in the
 * mode's XDP flavour (native, or generic in mode generic).
 */
enum pxp_dp_half {
	PXP_DP_HALF_DEFAULT, /* the mode's: tc in mode tc, XDP otherwise */
	PXP_DP_HALF_XDP,     /* rx: decap + redirect into the hidden peer; tx: XDP on the peer */
	PXP_DP_HALF_TC,	     /* rx: tc decap + redirect into pxp0; tx: tc on pxp0's egress */
	/*
	 * rx only: XDP decap + XDP_PASS, so that the WAN port's GRO coalesces the inner IP,
	 * then a tc ingress program redirects into pxp0 (GRO on the WAN port, as on a NIC)
	 */
	PXP_DP_HALF_XDP_PASS,
	PXP_DP__HALVES,
};

/* The session netdev's kind (--netdev); status and the instance record name it. */
enum pxp_dp_netdev {
	/* netkit where the kernel has it and the receive half is xdp-pass (tc's wants a veth's
	 * GRO), else veth */
	PXP_DP_NETDEV_AUTO,
	PXP_DP_NETDEV_VETH, /* a veth pair: XDP halves run on its hidden peer */
	/*
	 * a netkit pair (Linux 6.7+): the tc transmit half runs on pxp0's own transmit, no veth
	 * hop; the receive half is tc or xdp-pass (netkit takes no XDP redirect)
	 */
	PXP_DP_NETDEV_NETKIT,
	PXP_DP__NETDEVS,
};

struct pxp_dp_session {
	char ifname[IF_NAMESIZE]; /* session netdev to create, e.g. "pxp0" */
	uint16_t session_id;	  /* host order */
	uint8_t peer_mac[6];	  /* the AC's MAC (client) or the client's MAC (server) */
	uint16_t mtu;		  /* session MTU: the peer's negotiated MRU */
	bool mss_clamp;		  /* clamp TCP MSS on SYNs to the session MTU, both ways */
};

struct pxp_dp;

/*
 * Attach to the WAN port: load and attach programs for the mode (AUTO resolved here, with
 * the session netdev kind to come from pxp_dp_set_netdev(): a netkit row of the auto table
 * only where netdev allows one) and the halves (modes xdp, generic and tc; not afxdp).
 * vlan_id 0 = untagged. A program already attached to the port is an error (-EBUSY or
 * -EEXIST): what a crashed run left is removed by pxp_dp_remove_owned() or
 * pxp_dp_cleanup_stale() first.
 */
int pxp_dp_attach_halves(struct pxp_dp **dp, const char *wan_ifname, enum pxp_dp_mode mode,
			 enum pxp_dp_half rx, enum pxp_dp_half tx, enum pxp_dp_netdev netdev,
			 uint16_t vlan_id);
const char *pxp_dp_half_name(enum pxp_dp_half half);
int pxp_dp_half_parse(const char *name, enum pxp_dp_half *half);
const char *pxp_dp_netdev_name(enum pxp_dp_netdev kind);
int pxp_dp_netdev_parse(const char *name, enum pxp_dp_netdev *kind);
/*
 * The kind of the session netdevs created from here on (call before the first session): AUTO
 * with rx xdp-pass and tx tc probes the kernel for netkit (pxp_netkit_probe) and takes it if
 * there is one; any other AUTO is a veth.
 * NETKIT on a kernel without it, or with halves that cannot use it, is -EOPNOTSUPP or
 * -EINVAL, logged with the reason. Without this call the data path makes veths.
 */
int pxp_dp_set_netdev(struct pxp_dp *dp, enum pxp_dp_netdev kind);
/* VETH or NETKIT: what the session netdevs are. */
enum pxp_dp_netdev pxp_dp_netdev_kind(const struct pxp_dp *dp);
/* Which programs run each half, for status: "rx tc (tcx), tx xdp (native)". */
void pxp_dp_halves_text(const struct pxp_dp *dp, char *buf, size_t len);
/*
 * 802.1Q priority (PCP 0..7) of the frames the data path sends on a tagged WAN (default 0);
 * applies to existing and later sessions. -EINVAL on an untagged WAN.
 */
int pxp_dp_set_vlan_pcp(struct pxp_dp *dp, uint8_t pcp);
/*
 * Software RSS for modes xdp and generic: spread decapsulated frames over CPUs 0..nr_cpus-1
 * by the inner flow hash (a NIC puts a whole PPPoE session on one RX queue); 0 turns it off.
 */
int pxp_dp_set_cpu_spread(struct pxp_dp *dp, unsigned int nr_cpus);
/*
 * Mode afxdp: the CPU of each engine worker (one per WAN RX queue), in queue order and
 * repeating when the list is shorter; PXP_DP_CPU_ANY leaves a worker to the scheduler. With
 * none set (nr 0) worker q runs on CPU q modulo the CPUs online. Before the first session.
 */
#define PXP_DP_CPU_ANY (-1)
struct pxp_dp_cpu_list {
	unsigned int nr;
	int cpu[PXP_DP_MAX_QUEUES];
};
int pxp_dp_set_afxdp_cpus(struct pxp_dp *dp, const struct pxp_dp_cpu_list *cpus);
/* Create the session netdev and start moving the session's frames; *ifindex gets its index. */
int pxp_dp_session_add(struct pxp_dp *dp, const struct pxp_dp_session *s, int *ifindex);
int pxp_dp_session_set_mtu(struct pxp_dp *dp, uint16_t session_id, uint16_t mtu);
/*
 * The session netdev takes the AC's router advertisements: a SLAAC address from the
 * advertised prefix and the default route via the AC's link-local address.
 */
int pxp_dp_session_accept_ra(struct pxp_dp *dp, uint16_t session_id);
/*
 * Stop forwarding the session and delete its netdev (with pxp_dp_defer_deletes(): at the
 * next pxp_dp_flush()).
 */
int pxp_dp_session_del(struct pxp_dp *dp, uint16_t session_id);
/*
 * For many sessions (the AC): a deleted session's netdev only leaves the stack's way at
 * once (moved out of service) and goes with the others at pxp_dp_flush(), one request
 * for a batch, since every netdev deletion waits for the kernel's grace periods. The
 * caller flushes once per event-loop pass; pxp_dp_detach() flushes too.
 */
void pxp_dp_defer_deletes(struct pxp_dp *dp);
void pxp_dp_flush(struct pxp_dp *dp);
/* Detach everything from the WAN port and free dp; safe with NULL. */
void pxp_dp_detach(struct pxp_dp *dp);
enum pxp_dp_mode pxp_dp_mode(const struct pxp_dp *dp);
/*
 * Why the data path runs this mode, one line for status: with --mode auto the auto table's
 * row for the WAN port's driver ("auto: veth: XDP on a veth copies ..."), else "asked for".
 */
const char *pxp_dp_mode_reason(const struct pxp_dp *dp);
/* Bytes of AF_XDP UMEM the data path holds: 0 outside mode afxdp or before a session. */
uint64_t pxp_dp_umem_bytes(const struct pxp_dp *dp);
/*
 * Mode afxdp: the engine workers' CPUs as --afxdp-cpus writes them, in buf (at least
 * PXP_DP_CPUS_TEXT bytes: a CPU number below 10000 and its comma a queue); else NULL.
 */
#define PXP_DP_CPUS_TEXT (PXP_DP_MAX_QUEUES * 5 + 1)
const char *pxp_dp_afxdp_cpus(const struct pxp_dp *dp, char *buf, size_t len);
const char *pxp_dp_mode_name(enum pxp_dp_mode mode);
int pxp_dp_mode_parse(const char *name, enum pxp_dp_mode *mode);
int pxp_dp_get_stats(struct pxp_dp *dp, struct pxp_dp_stats *st);
/*
 * Frames our XDP redirects sent to the WAN port that its driver refused, by the driver's
 * errno (by_errno[0]: none given, or errno n and above): a veth whose peer has neither XDP
 * nor GRO refuses every one with ENXIO. -ENOENT when they are not counted (no XDP transmit
 * half, or a kernel without BTF tracing).
 */
int pxp_dp_redirects_refused(const struct pxp_dp *dp, uint64_t *by_errno, unsigned int n);
/*
 * Remove what a crashed run left on this WAN port and session netdev name, if anything, by
 * name: for a caller that knows nobody else uses those (the AC's pxs<N>, test tools).
 */
int pxp_dp_cleanup_stale(const char *wan_ifname, const char *session_ifname);

/*
 * What a data path created, by identity: a daemon records it so that after a crash
 * exactly these objects are removed, never a netdev or program of the same name that a
 * live daemon or someone else owns.
 */
struct pxp_dp_owned {
	int wan_ifindex;
	uint32_t wan_prog_id;	  /* the WAN program attached there; 0 = none */
	char netdev[IF_NAMESIZE]; /* the (first) session netdev; "" = none */
	int netdev_ifindex;
	char netdev_kind[8]; /* "veth" or "netkit" (pxp_dp_netdev_name); "" in older records: veth
			      */
};

/* What dp created now (all zero for NULL). */
void pxp_dp_owned(const struct pxp_dp *dp, struct pxp_dp_owned *o);
/*
 * Removes what o names where it still is that object: the netdev if its name still has
 * that ifindex and is of that kind (its addresses and routes go with it), the WAN program if that
 * program id is still attached. Logs what it removed and what it left; 0 or -errno.
 */
int pxp_dp_remove_owned(const struct pxp_dp_owned *o);

#endif
