/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Attaching the tc programs of mode tc: a tcx link (BPF_LINK_CREATE, Linux 6.6+) where the
 * kernel has tcx, else a filter of our own handle and priority in the device's clsact qdisc.
 * Either way only our own program is touched: a tcx link sits beside whatever else is
 * attached and goes with our fd; a clsact filter is removed by its handle, priority and
 * program id, and the clsact qdisc (which may hold other filters) is never deleted.
 *
 * Concurrency: called from the daemon's single control thread.
 */
#ifndef PXP_DP_TC_H
#define PXP_DP_TC_H

#include <stdbool.h>
#include <stdint.h>

struct pxp_tc_att {
	int ifindex;
	bool ingress;
	bool linked; /* a tcx or netkit link (link_fd), else a clsact filter if prog_id */
	bool netkit; /* the link is a netkit device's primary program */
	int link_fd;
	uint32_t prog_id; /* the program attached; 0 if none */
};

/* Attach prog_fd to ifindex's ingress or egress; 0 or -errno. */
int pxp_tc_attach(int ifindex, bool ingress, int prog_fd, struct pxp_tc_att *att);
/*
 * The same as a clsact filter even where the kernel has tcx: for a device that is ours
 * alone (a session netdev's hidden peer), whose filter goes with the device. A tcx attach
 * waits for an RCU grace period under the RTNL lock (~15 ms here); a filter in a fresh
 * clsact qdisc waits at most for an expedited one. 0 or -errno.
 */
int pxp_tc_attach_clsact(int ifindex, bool ingress, int prog_fd, struct pxp_tc_att *att);
/*
 * Attach prog_fd as the primary program of the netkit device ifindex (BPF_LINK_CREATE,
 * BPF_NETKIT_PRIMARY): it runs on the device's transmit. 0 or -errno.
 */
int pxp_tc_attach_netkit(int ifindex, int prog_fd, struct pxp_tc_att *att);
/*
 * For tests: pxp_tc_attach makes clsact filters even where the kernel has tcx, so that the
 * fallback of older kernels (OpenWrt 24.10's 6.6 has tcx, Debian 12's 6.1 has not) runs here.
 */
void pxp_tc_force_clsact(bool on);
/* Detach what att holds (nothing if zeroed or detached already). */
void pxp_tc_detach(struct pxp_tc_att *att);
/*
 * A clsact filter of ours (our handle and priority, a program named name, with this id
 * unless id is 0) left on ifindex by a crashed run: remove it. 1 if removed, 0 if none.
 */
int pxp_tc_detach_stale(int ifindex, bool ingress, const char *name, uint32_t id);
/*
 * Ids of the programs on ifindex's ingress or egress that could be ours: every tcx program
 * and the one at our clsact handle. Returns how many (at most max) were stored in ids.
 */
int pxp_tc_prog_ids(int ifindex, bool ingress, uint32_t *ids, unsigned int max);
/* "tcx", "netkit" or "clsact": how att is attached, for status; "-" if it is not. */
const char *pxp_tc_kind(const struct pxp_tc_att *att);

#endif
