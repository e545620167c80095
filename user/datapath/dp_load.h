/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading the programs of the express data path with their shared maps: the XDP WAN
 * object owns the maps, the others reuse them. Used by user/datapath.c and the BPF
 * table tests.
 */
#ifndef PXP_DP_LOAD_H
#define PXP_DP_LOAD_H

#include <stdbool.h>

struct xdp_wan;
struct xdp_session;
struct tc_wan;
struct tc_session;

/* The XDP programs and their tc (skb) counterparts of mode tc, all on the same maps. */
struct pxp_dp_progs {
	struct xdp_wan *wan;
	struct xdp_session *session;
	struct tc_wan *tc_wan;
	struct tc_session *tc_session;
	bool xsks;     /* loaded with PXP_DP_LOAD_XSKS: xsks_map exists */
	bool xdp_meta; /* the kernel's XDP has bpf_xdp_adjust_meta: xdp-pass, CPU spreading */
};

/* pxp_dp_progs_load() flags. */
enum {
	/*
	 * The programs store their last redirect target for BPF_PROG_TEST_RUN tests (off in
	 * production: the verifier drops the stores).
	 */
	PXP_DP_LOAD_RECORD_REDIRECTS = 1 << 0,
	/*
	 * Mode afxdp, and only it: create the XSKMAP and keep the XDP programs' redirect to
	 * AF_XDP sockets. Without it the objects load on a kernel without XDP sockets.
	 */
	PXP_DP_LOAD_XSKS = 1 << 1,
};

/*
 * Open and load all four objects (flags: PXP_DP_LOAD_*). Returns 0 or -errno; on failure
 * nothing is left loaded.
 */
int pxp_dp_progs_load(struct pxp_dp_progs *p, unsigned int flags);
/*
 * Does the running kernel have XDP sockets (an XSKMAP can be created; CONFIG_XDP_SOCKETS)?
 * 1 or 0, or -errno if the probe itself failed.
 */
int pxp_dp_kernel_has_xsks(void);
/*
 * May the running kernel's XDP programs call bpf_xdp_adjust_meta (the receive half
 * xdp-pass and CPU spreading need it)? 1 or 0, or -errno if the probe itself failed.
 */
int pxp_dp_kernel_has_xdp_meta(void);
void pxp_dp_progs_destroy(struct pxp_dp_progs *p);

/* Fds of the shared maps and programs (valid after a successful load). */
int pxp_dp_fd_sessions(const struct pxp_dp_progs *p);
int pxp_dp_fd_egress(const struct pxp_dp_progs *p);
int pxp_dp_fd_counters(const struct pxp_dp_progs *p);
int pxp_dp_fd_config(const struct pxp_dp_progs *p);
/* -ENOENT unless loaded with PXP_DP_LOAD_XSKS. */
int pxp_dp_fd_xsks(const struct pxp_dp_progs *p);
int pxp_dp_fd_prog_wan(const struct pxp_dp_progs *p);
int pxp_dp_fd_prog_session(const struct pxp_dp_progs *p);
int pxp_dp_fd_cpus(const struct pxp_dp_progs *p);
int pxp_dp_fd_prog_cpu(const struct pxp_dp_progs *p);
int pxp_dp_fd_prog_tc_wan(const struct pxp_dp_progs *p);
int pxp_dp_fd_prog_tc_session(const struct pxp_dp_progs *p);
int pxp_dp_fd_prog_tc_wan_pass(const struct pxp_dp_progs *p);

struct pxp_counters;
/* The counters of one RX queue, summed over CPUs. */
int pxp_dp_read_counters(int counters_fd, unsigned int queue, struct pxp_counters *sum);
/*
 * An fd of the counters map of the WAN program (XDP or tc) attached to ifindex (whoever
 * attached it: the daemon or a test tool). Returns the fd, or -ENOENT if none of ours is attached.
 */
int pxp_dp_counters_fd_of_wan(int ifindex);
/* A counter's name for reports, e.g. "drop_too_big". */
const char *pxp_counter_name(unsigned int counter);

#endif
