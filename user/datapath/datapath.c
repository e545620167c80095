// SPDX-License-Identifier: GPL-2.0
/*
 * The express data path (user/datapath.h): loads bpf/xdp_wan.bpf.c onto the WAN port and
 * bpf/xdp_session.bpf.c onto the hidden peer of each session netdev, keeps the session
 * records in their maps, and in mode afxdp starts the AF_XDP engine on top of them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_link.h>

#include "datapath.h"
#include "dp_auto.h"
#include "dp_load.h"
#include "dp_tc.h"
#include "engine.h"
#include "log.h"
#include "netkit.h"
#include "pppoe_wire.h"
#include "pxp_maps.h"
#include "pxp_mtu.h"
#include "session_netdev.h"
#include "xmit_watch.h"

/* The engine's sockets: WAN queue q at key q, hidden-peer queue q at key PEER_XSK_BASE + q. */
#define WAN_XSK_BASE		 0
#define PEER_XSK_BASE		 PXP_MAX_RX_QUEUES
/*
 * The netdev group that ended sessions' netdevs wait in (pxp_dp_defer_deletes()), one per
 * WAN port ("pxp" in the high bytes, the WAN ifindex below): no one else's netdev is in it.
 */
#define PXP_DP_RETIRE_GROUP_BASE 0x70780000u

struct dp_session {
	struct pxp_netdev nd;
	struct pxp_session rec;
	struct pxp_session_key key;
	/* tc transmit: the hidden peer's ingress (veth), or a netkit pxp0's primary program */
	struct pxp_tc_att tc_tx;
};

struct pxp_dp {
	enum pxp_dp_mode mode;
	enum pxp_dp_half rx, tx;   /* resolved: never PXP_DP_HALF_DEFAULT */
	enum pxp_dp_netdev netdev; /* resolved: VETH or NETKIT */
	char reason[320];	   /* why this mode: the auto table's row, or "asked for" */
	__u32 xdp_flags;	   /* XDP_FLAGS_DRV_MODE or XDP_FLAGS_SKB_MODE */
	struct pxp_wan_info wan;
	char wan_name[IF_NAMESIZE];
	uint16_t vlan_tci;
	bool vlan_strip_was_on;		   /* rx-vlan-offload turned off for a tagged session */
	uint16_t nr_cpus;		   /* CPU spreading over CPUs 0..nr_cpus-1; 0 = off */
	struct pxp_dp_cpu_list afxdp_cpus; /* the engine workers' CPUs; nr 0 = its default */
	struct pxp_dp_progs progs;
	struct pxp_tc_att wan_tc; /* mode tc: the WAN's ingress */
	__u32 wan_prog_id;	  /* what pxp_dp_owned() records: the program we attached */
	struct dp_session *sessions;
	unsigned int nr_sessions, cap_sessions;
	/* sessions[] index + 1 by session id (host order), 0 = none: lookups in O(1). */
	uint16_t *slot_by_id;
	/* pxp_dp_defer_deletes(): ended sessions' netdevs wait in retire_group for
	 * pxp_dp_flush(), which deletes them in one request. */
	bool defer_deletes;
	uint32_t retire_group;
	unsigned int nr_retired;
	struct engine *engine;
	struct pxp_xmit_watch *xmit_watch; /* NULL: refused redirects are not counted */
};

/* The modes' names, once: status, logs and --mode all use these. */
static const char *const mode_names[PXP_DP__MODES] = {
	[PXP_DP_AUTO] = "auto",	      [PXP_DP_XDP] = "xdp", [PXP_DP_AFXDP] = "afxdp",
	[PXP_DP_GENERIC] = "generic", [PXP_DP_TC] = "tc",
};

/* The halves' names, once; "default" stands for the mode's choice. */
static const char *const half_names[PXP_DP__HALVES] = {
	[PXP_DP_HALF_DEFAULT] = "default",
	[PXP_DP_HALF_XDP] = "xdp",
	[PXP_DP_HALF_TC] = "tc",
	[PXP_DP_HALF_XDP_PASS] = "xdp-pass",
};

/* The session netdev kinds' names, once: --netdev, status and the instance record. */
static const char *const netdev_names[PXP_DP__NETDEVS] = {
	[PXP_DP_NETDEV_AUTO] = "auto",
	[PXP_DP_NETDEV_VETH] = "veth",
	[PXP_DP_NETDEV_NETKIT] = "netkit",
};

const char *pxp_dp_netdev_name(enum pxp_dp_netdev kind)
{
	return (unsigned int)kind < PXP_DP__NETDEVS ? netdev_names[kind] : "unknown";
}

int pxp_dp_netdev_parse(const char *name, enum pxp_dp_netdev *kind)
{
	for (unsigned int i = 0; i < PXP_DP__NETDEVS; i++) {
		if (!strcmp(name, netdev_names[i])) {
			*kind = (enum pxp_dp_netdev)i;
			return 0;
		}
	}
	return -EINVAL;
}

enum pxp_dp_netdev pxp_dp_netdev_kind(const struct pxp_dp *dp)
{
	return dp->netdev;
}

/*
 * A netkit pxp0 runs the tc transmit half itself, and takes received frames only from tc
 * (netkit has no XDP redirect target): rx tc or xdp-pass, tx tc, never the AF_XDP engine.
 */
static bool halves_fit_netkit(const struct pxp_dp *dp)
{
	return dp->mode != PXP_DP_AFXDP && dp->tx == PXP_DP_HALF_TC && dp->rx != PXP_DP_HALF_XDP;
}

int pxp_dp_set_netdev(struct pxp_dp *dp, enum pxp_dp_netdev kind)
{
	int has;

	if ((unsigned int)kind >= PXP_DP__NETDEVS)
		return -EINVAL;
	if (dp->nr_sessions)
		return -EBUSY;
	if (kind == PXP_DP_NETDEV_VETH ||
	    (kind == PXP_DP_NETDEV_AUTO && !pxp_dp_auto_netkit(dp->mode, dp->rx, dp->tx))) {
		dp->netdev = PXP_DP_NETDEV_VETH;
		return 0;
	}
	if (!halves_fit_netkit(dp)) {
		pxp_err("--netdev netkit needs receive half tc or xdp-pass and transmit half tc "
			"(--mode tc, or --rx tc|xdp-pass --tx tc), not rx %s, tx %s in mode %s",
			pxp_dp_half_name(dp->rx), pxp_dp_half_name(dp->tx),
			pxp_dp_mode_name(dp->mode));
		return -EINVAL;
	}
	has = pxp_netkit_probe();
	if (has < 0) {
		pxp_err("probing the kernel for netkit: %s", strerror(-has));
		if (kind == PXP_DP_NETDEV_NETKIT)
			return has;
	}
	if (!has && kind == PXP_DP_NETDEV_NETKIT) {
		pxp_err("--netdev netkit: this kernel has no netkit (CONFIG_NETKIT, Linux 6.7+)");
		return -EOPNOTSUPP;
	}
	/* auto: a failed probe (say, a device of the probe's name left over) means veth. */
	dp->netdev = has > 0 ? PXP_DP_NETDEV_NETKIT : PXP_DP_NETDEV_VETH;
	pxp_info("session netdevs: %s%s%s", pxp_dp_netdev_name(dp->netdev),
		 !has ? " (this kernel has no netkit)" : "",
		 has < 0 ? " (the netkit probe failed)" : "");
	return 0;
}

const char *pxp_dp_half_name(enum pxp_dp_half half)
{
	return (unsigned int)half < PXP_DP__HALVES ? half_names[half] : "unknown";
}

int pxp_dp_half_parse(const char *name, enum pxp_dp_half *half)
{
	for (unsigned int i = 0; i < PXP_DP__HALVES; i++) {
		if (!strcmp(name, half_names[i])) {
			*half = (enum pxp_dp_half)i;
			return 0;
		}
	}
	return -EINVAL;
}

void pxp_dp_halves_text(const struct pxp_dp *dp, char *buf, size_t len)
{
	const char *xdp = dp->xdp_flags == XDP_FLAGS_SKB_MODE ? "generic" : "native";

	if (dp->mode == PXP_DP_AFXDP) {
		snprintf(buf, len, "rx afxdp, tx afxdp");
		return;
	}
	snprintf(
		buf, len, "rx %s (%s%s%s), tx %s (%s)", pxp_dp_half_name(dp->rx),
		dp->rx == PXP_DP_HALF_TC ? "" : xdp, dp->rx == PXP_DP_HALF_XDP_PASS ? " + " : "",
		dp->rx == PXP_DP_HALF_XDP ? "" : pxp_tc_kind(&dp->wan_tc), pxp_dp_half_name(dp->tx),
		dp->tx == PXP_DP_HALF_TC
			? (dp->nr_sessions ? pxp_tc_kind(&dp->sessions[0].tc_tx) : "no session yet")
			: xdp);
}

const char *pxp_dp_mode_name(enum pxp_dp_mode mode)
{
	if ((unsigned int)mode >= PXP_DP__MODES)
		return "unknown";
	return mode_names[mode];
}

int pxp_dp_mode_parse(const char *name, enum pxp_dp_mode *mode)
{
	for (unsigned int i = 0; i < PXP_DP__MODES; i++) {
		if (!strcmp(name, mode_names[i])) {
			*mode = (enum pxp_dp_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

enum pxp_dp_mode pxp_dp_mode(const struct pxp_dp *dp)
{
	return dp->mode;
}

const char *pxp_dp_mode_reason(const struct pxp_dp *dp)
{
	return dp->reason;
}

/*
 * Does ifindex's driver run XDP natively? Attaches a program that passes everything in
 * driver mode and takes it off again. 1 or 0; 1 if an XDP program is there already (the
 * real attach then says whose).
 */
static int native_xdp_probe(int ifindex)
{
	const struct bpf_insn pass[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd, err;

	fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "pxp_probe", "GPL", pass, 2, NULL);
	if (fd < 0)
		return 0;
	err = bpf_xdp_attach(ifindex, fd, XDP_FLAGS_DRV_MODE | XDP_FLAGS_UPDATE_IF_NOEXIST, NULL);
	if (!err)
		bpf_xdp_detach(ifindex, XDP_FLAGS_DRV_MODE, NULL);
	close(fd);
	return !err || err == -EBUSY || err == -EEXIST;
}

/*
 * May --netdev kind be a netkit here? 1 or 0, probing the kernel only for auto; why says why
 * not.
 */
static int netkit_allowed(enum pxp_dp_netdev kind, const char **why)
{
	int has;

	if (kind == PXP_DP_NETDEV_VETH) {
		*why = "--netdev veth";
		return 0;
	}
	if (kind == PXP_DP_NETDEV_NETKIT)
		return 1;
	has = pxp_netkit_probe();
	*why = has < 0 ? "the netkit probe failed" : "this kernel has no netkit";
	return has > 0;
}

/*
 * --mode auto: the auto table's row for the WAN port's driver (and for the kernel: with or
 * without netkit) gives the mode and the halves not asked for (dp_auto.c), and the reason
 * status prints. The probes run only where the table needs their answer.
 */
static void pick_auto(struct pxp_dp *dp, enum pxp_dp_netdev kind, enum pxp_dp_mode *mode,
		      enum pxp_dp_half *rx, enum pxp_dp_half *tx)
{
	const struct pxp_dp_auto *a;
	const char *no_netkit = NULL;
	char driver[32];
	int native = -1, netkit = -1;

	if (pxp_wan_driver(dp->wan_name, driver, sizeof(driver)))
		driver[0] = '\0'; /* unnamed: the classes decide */
	while (!(a = pxp_dp_auto_pick(driver, native, netkit))) {
		if (netkit < 0)
			netkit = netkit_allowed(kind, &no_netkit);
		else
			native = native_xdp_probe(dp->wan.ifindex);
	}
	*mode = a->mode;
	*rx = *rx != PXP_DP_HALF_DEFAULT ? *rx : a->rx;
	*tx = *tx != PXP_DP_HALF_DEFAULT ? *tx : a->tx;
	snprintf(dp->reason, sizeof(dp->reason), "auto: %s%s: %s%s%s",
		 driver[0] ? driver : "a driver",
		 native < 0 ? ""
		 : native   ? " has native XDP"
			    : " has no native XDP",
		 a->why, !netkit ? "; " : "", !netkit ? no_netkit : "");
}

uint64_t pxp_dp_umem_bytes(const struct pxp_dp *dp)
{
	return dp->engine ? engine_umem_bytes(dp->engine) : 0;
}

const char *pxp_dp_afxdp_cpus(const struct pxp_dp *dp, char *buf, size_t len)
{
	return dp && dp->engine ? engine_worker_cpus(dp->engine, buf, len) : NULL;
}

/* Is the program with this id one of ours (by name)? Returns its fd, or -errno / -ENOENT. */
static int our_prog_fd(__u32 id, const char *name)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	int fd;

	fd = bpf_prog_get_fd_by_id(id);
	if (fd < 0)
		return -errno;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len) || strcmp(info.name, name)) {
		close(fd);
		return -ENOENT;
	}
	return fd;
}

/*
 * Detach a program named name from ifindex in whichever mode it sits, only the one with
 * this id unless id is 0; 1 if one was removed.
 */
static int detach_ours(int ifindex, const char *name, __u32 id)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	struct {
		__u32 id;
		__u32 flags;
	} modes[2];
	int removed = 0, err;

	err = bpf_xdp_query(ifindex, 0, &q);
	if (err)
		return err;
	modes[0].id = q.drv_prog_id, modes[0].flags = XDP_FLAGS_DRV_MODE;
	modes[1].id = q.skb_prog_id, modes[1].flags = XDP_FLAGS_SKB_MODE;
	for (int i = 0; i < 2; i++) {
		LIBBPF_OPTS(bpf_xdp_attach_opts, opts);
		int fd;

		if (!modes[i].id || (id && modes[i].id != id))
			continue;
		fd = our_prog_fd(modes[i].id, name);
		if (fd == -ENOENT)
			continue; /* someone else's program: leave it */
		if (fd < 0)
			return fd;
		opts.old_prog_fd = fd;
		err = bpf_xdp_detach(ifindex, modes[i].flags | XDP_FLAGS_REPLACE, &opts);
		close(fd);
		if (err)
			return err;
		removed = 1;
	}
	return removed;
}

/* Our clsact filters on the WAN (a crashed run's; tcx links do not outlive it): by name. */
static int remove_stale_filters(int ifindex, const char *wan_ifname)
{
	static const char *const names[] = { PXP_PROG_NAME_TC_WAN, PXP_PROG_NAME_TC_PASS };
	int err = 0;

	for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]) && err >= 0; i++) {
		err = pxp_tc_detach_stale(ifindex, true, names[i], 0);
		if (err > 0)
			pxp_warn("removed a stale %s filter from %s", names[i], wan_ifname);
	}
	return err;
}

int pxp_dp_cleanup_stale(const char *wan_ifname, const char *session_ifname)
{
	int err = 0, ifindex;

	if (wan_ifname) {
		ifindex = (int)if_nametoindex(wan_ifname);
		if (ifindex) {
			err = remove_stale_filters(ifindex, wan_ifname);
			err = err < 0 ? err : detach_ours(ifindex, PXP_PROG_NAME_WAN, 0);
			if (err > 0)
				pxp_warn("removed a stale %s program from %s", PXP_PROG_NAME_WAN,
					 wan_ifname);
			if (err < 0) {
				pxp_err("cannot clean up XDP on %s: %s", wan_ifname,
					strerror(-err));
				return err;
			}
		}
	}
	if (session_ifname) {
		err = pxp_netdev_delete(session_ifname, PXP_DP_NETDEV_AUTO, 0);
		if (!err)
			pxp_warn("deleted a stale session netdev %s", session_ifname);
		if (err == -EEXIST)
			pxp_warn("%s is not a veth or netkit pair with the alias '%s': someone "
				 "else's, left alone",
				 session_ifname, PXP_NETDEV_ALIAS);
		if (err == -ENODEV)
			err = 0;
	}
	return err < 0 ? err : 0;
}

void pxp_dp_owned(const struct pxp_dp *dp, struct pxp_dp_owned *o)
{
	memset(o, 0, sizeof(*o));
	if (!dp)
		return;
	o->wan_ifindex = dp->wan.ifindex;
	o->wan_prog_id = dp->wan_prog_id;
	if (dp->nr_sessions) {
		snprintf(o->netdev, sizeof(o->netdev), "%s", dp->sessions[0].nd.name);
		o->netdev_ifindex = dp->sessions[0].nd.ifindex;
		snprintf(o->netdev_kind, sizeof(o->netdev_kind), "%s",
			 pxp_dp_netdev_name(dp->sessions[0].nd.kind));
	}
}

int pxp_dp_remove_owned(const struct pxp_dp_owned *o)
{
	enum pxp_dp_netdev kind = PXP_DP_NETDEV_VETH; /* what a record without netdev_kind made */
	int err = 0, ret;

	if (o->netdev[0] && o->netdev_kind[0] &&
	    (pxp_dp_netdev_parse(o->netdev_kind, &kind) || kind == PXP_DP_NETDEV_AUTO)) {
		pxp_warn("the record's netdev_kind '%s' is not veth or netkit: %s left alone",
			 o->netdev_kind, o->netdev);
		err = -EINVAL;
	} else if (o->netdev[0]) {
		/* Its hidden peer, the peer's program, addresses and routes go with it. */
		ret = pxp_netdev_delete(o->netdev, kind, o->netdev_ifindex);
		if (!ret)
			pxp_info("deleted the session netdev %s", o->netdev);
		else if (ret == -EEXIST || ret == -ESTALE)
			pxp_warn("%s is not the %s pppoe-xp created (ifindex %d): left alone",
				 o->netdev, pxp_dp_netdev_name(kind), o->netdev_ifindex);
		else if (ret != -ENODEV)
			err = ret;
	}
	if (o->wan_prog_id) {
		ret = detach_ours(o->wan_ifindex, PXP_PROG_NAME_WAN, o->wan_prog_id);
		if (ret > 0)
			pxp_info("detached XDP program %u from ifindex %d", o->wan_prog_id,
				 o->wan_ifindex);
		else if (ret < 0 && ret != -ENODEV)
			err = ret;
		/* Mode tc: a clsact filter outlives its daemon (a tcx link does not). */
		ret = pxp_tc_detach_stale(o->wan_ifindex, true, PXP_PROG_NAME_TC_WAN,
					  o->wan_prog_id);
		if (ret > 0)
			pxp_info("detached tc program %u from ifindex %d", o->wan_prog_id,
				 o->wan_ifindex);
		else if (ret < 0 && ret != -ENODEV)
			err = ret;
		/* Receive half xdp-pass: its filter beside the XDP program (by name and handle). */
		ret = pxp_tc_detach_stale(o->wan_ifindex, true, PXP_PROG_NAME_TC_PASS, 0);
		if (ret < 0 && ret != -ENODEV)
			err = ret;
	}
	return err;
}

static int write_config(struct pxp_dp *dp, bool afxdp)
{
	struct pxp_config cfg = {
		.flags = (afxdp ? PXP_CFG_F_AFXDP : 0) | (dp->nr_cpus ? PXP_CFG_F_CPU_SPREAD : 0) |
			 (dp->rx == PXP_DP_HALF_XDP_PASS ? PXP_CFG_F_XDP_PASS : 0),
		.vlan_tci = dp->vlan_tci,
		.nr_cpus = dp->nr_cpus,
		.wan_xsk_base = WAN_XSK_BASE,
		.peer_xsk_base = PEER_XSK_BASE,
	};
	__u32 zero = 0;

	if (bpf_map_update_elem(pxp_dp_fd_config(&dp->progs), &zero, &cfg, BPF_ANY))
		return -errno;
	return 0;
}

static int prog_id(int prog_fd, __u32 *id)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return -errno;
	*id = info.id;
	return 0;
}

static int attach_prog(int ifindex, int prog_fd, __u32 flags)
{
	return bpf_xdp_attach(ifindex, prog_fd, flags | XDP_FLAGS_UPDATE_IF_NOEXIST, NULL);
}

/* Detaches the program we attached (prog_fd, in mode flags) from ifindex, if still there. */
static int detach_attached(int ifindex, int prog_fd, __u32 flags)
{
	LIBBPF_OPTS(bpf_xdp_attach_opts, opts, .old_prog_fd = prog_fd);

	return bpf_xdp_detach(ifindex, flags | XDP_FLAGS_REPLACE, &opts);
}

/* Attach the WAN program in the mode asked for; AFXDP tries native first. */
static int attach_wan(struct pxp_dp *dp, enum pxp_dp_mode mode)
{
	int fd = pxp_dp_fd_prog_wan(&dp->progs), err;

	if (mode != PXP_DP_GENERIC) {
		dp->xdp_flags = XDP_FLAGS_DRV_MODE;
		err = attach_prog(dp->wan.ifindex, fd, dp->xdp_flags);
		if (!err || mode == PXP_DP_XDP || err == -EBUSY || err == -EEXIST)
			return err;
		pxp_info("%s has no native XDP (%s): using generic XDP", dp->wan_name,
			 strerror(-err));
	}
	dp->xdp_flags = XDP_FLAGS_SKB_MODE;
	return attach_prog(dp->wan.ifindex, fd, dp->xdp_flags);
}

/* An XDP transmit half redirects to the WAN port: count what its driver refuses. */
static void watch_redirects(struct pxp_dp *dp)
{
	int err;

	if (dp->tx != PXP_DP_HALF_XDP || dp->mode == PXP_DP_AFXDP)
		return;
	err = pxp_xmit_watch_start(dp->wan.ifindex, &dp->xmit_watch);
	if (err)
		pxp_warn("%s: frames its driver refuses after an XDP redirect are not counted: %s",
			 dp->wan_name, strerror(-err));
}

static void log_attached(const struct pxp_dp *dp)
{
	char halves[64];

	pxp_dp_halves_text(dp, halves, sizeof(halves));
	pxp_info("data path on %s: %s (%s), %s", dp->wan_name, pxp_dp_mode_name(dp->mode), halves,
		 dp->reason);
}

static enum pxp_dp_half resolve_half(enum pxp_dp_half half, enum pxp_dp_mode mode)
{
	if (half != PXP_DP_HALF_DEFAULT)
		return half;
	return mode == PXP_DP_TC ? PXP_DP_HALF_TC : PXP_DP_HALF_XDP;
}

/* Mode afxdp needs XDP sockets, which OpenWrt's stock kernels lack. -EOPNOTSUPP if absent. */
static int check_kernel_xsks(void)
{
	int has = pxp_dp_kernel_has_xsks();

	if (has < 0) {
		pxp_err("probing the kernel for AF_XDP sockets: %s", strerror(-has));
		return has;
	}
	if (!has) {
		pxp_err("mode afxdp: this kernel has no AF_XDP sockets (it cannot create an "
			"XSKMAP: built without CONFIG_XDP_SOCKETS, as OpenWrt's stock kernels "
			"are); use --mode xdp, generic or tc");
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * The receive half xdp-pass hands the session key to tc in the frame's metadata, which some
 * kernels refuse XDP programs (bpf_xdp_adjust_meta). Where --mode auto chose it, the
 * receive half becomes tc (its row for WANs without native XDP); asked for, it is an error.
 * 0, or -EOPNOTSUPP.
 */
static int check_kernel_xdp_meta(struct pxp_dp *dp, bool rx_asked)
{
	size_t n = strlen(dp->reason);

	if (dp->rx != PXP_DP_HALF_XDP_PASS || pxp_dp_kernel_has_xdp_meta() > 0)
		return 0;
	if (rx_asked) {
		pxp_err("--rx xdp-pass: this kernel refuses bpf_xdp_adjust_meta to XDP programs, "
			"which hands the session to tc; use --rx xdp or tc");
		return -EOPNOTSUPP;
	}
	dp->rx = PXP_DP_HALF_TC;
	snprintf(dp->reason + n, sizeof(dp->reason) - n,
		 "; receive half tc: this kernel refuses bpf_xdp_adjust_meta to XDP programs");
	return 0;
}

int pxp_dp_attach_halves(struct pxp_dp **dpp, const char *wan_ifname, enum pxp_dp_mode mode,
			 enum pxp_dp_half rx, enum pxp_dp_half tx, enum pxp_dp_netdev netdev,
			 uint16_t vlan_id)
{
	bool rx_asked = rx != PXP_DP_HALF_DEFAULT;
	struct pxp_dp *dp;
	int err;

	*dpp = NULL;
	if (mode == PXP_DP_AFXDP && (rx != PXP_DP_HALF_DEFAULT || tx != PXP_DP_HALF_DEFAULT)) {
		pxp_err("mode afxdp runs both halves in its engine: no --rx/--tx");
		return -EINVAL;
	}
	if ((unsigned int)rx >= PXP_DP__HALVES || (unsigned int)tx >= PXP_DP__HALVES ||
	    tx == PXP_DP_HALF_XDP_PASS) {
		pxp_err("the transmit half is xdp or tc, not %s", pxp_dp_half_name(tx));
		return -EINVAL;
	}
	if (vlan_id > 4094) {
		pxp_err("vlan %u is out of range 0..4094", vlan_id);
		return -EINVAL;
	}
	if (strlen(wan_ifname) >= IF_NAMESIZE)
		return -EINVAL;
	err = mode == PXP_DP_AFXDP ? check_kernel_xsks() : 0;
	if (err)
		return err;
	dp = calloc(1, sizeof(*dp));
	if (!dp)
		return -ENOMEM;
	dp->slot_by_id = calloc(UINT16_MAX + 1, sizeof(*dp->slot_by_id));
	if (!dp->slot_by_id) {
		free(dp);
		return -ENOMEM;
	}
	snprintf(dp->wan_name, sizeof(dp->wan_name), "%s", wan_ifname);
	dp->vlan_tci = vlan_id;
	dp->netdev = PXP_DP_NETDEV_VETH;
	err = pxp_wan_info_get(wan_ifname, &dp->wan);
	if (err) {
		pxp_err("WAN port %s: %s", wan_ifname, strerror(-err));
		goto free_dp;
	}
	if (mode == PXP_DP_AUTO)
		pick_auto(dp, netdev, &mode, &rx, &tx);
	else
		snprintf(dp->reason, sizeof(dp->reason), "asked for (--mode %s)",
			 pxp_dp_mode_name(mode));
	dp->rx = resolve_half(rx, mode);
	dp->tx = resolve_half(tx, mode);
	err = check_kernel_xdp_meta(dp, rx_asked);
	if (err)
		goto free_dp;
	/* The XDP flavour of an XDP half that the WAN's attachment does not settle. */
	dp->xdp_flags = mode == PXP_DP_GENERIC ? XDP_FLAGS_SKB_MODE : XDP_FLAGS_DRV_MODE;
	dp->retire_group = PXP_DP_RETIRE_GROUP_BASE + (uint32_t)(dp->wan.ifindex & 0xffff);
	/* tc sees the tag the stack moved out of the frame; XDP sees only what is in it. */
	if (vlan_id && dp->rx != PXP_DP_HALF_TC) {
		err = pxp_wan_set_vlan_strip(wan_ifname, false, &dp->vlan_strip_was_on);
		if (err) {
			pxp_err("WAN port %s strips VLAN tags before XDP sees them, and turning "
				"rx-vlan-offload off failed: %s",
				wan_ifname, strerror(-err));
			goto free_dp;
		}
		if (dp->vlan_strip_was_on)
			pxp_info("%s: rx-vlan-offload off while the tagged session runs",
				 wan_ifname);
	}
	err = pxp_dp_progs_load(&dp->progs, mode == PXP_DP_AFXDP ? PXP_DP_LOAD_XSKS : 0);
	if (err) {
		pxp_err("loading the XDP programs: %s", strerror(-err));
		goto free_dp;
	}
	err = write_config(dp, false);
	if (err)
		goto destroy_progs;
	if (dp->rx == PXP_DP_HALF_TC) {
		err = pxp_tc_attach(dp->wan.ifindex, true, pxp_dp_fd_prog_tc_wan(&dp->progs),
				    &dp->wan_tc);
		if (err) {
			pxp_err("attaching tc ingress to %s: %s%s", wan_ifname, strerror(-err),
				err == -EEXIST ? " (a filter of a crashed run is there)" : "");
			goto destroy_progs;
		}
		dp->wan_prog_id = dp->wan_tc.prog_id;
		dp->mode = mode;
		watch_redirects(dp);
		log_attached(dp);
		*dpp = dp;
		return 0;
	}
	err = attach_wan(dp, mode == PXP_DP_TC ? PXP_DP_XDP : mode);
	if (err) {
		pxp_err("attaching XDP to %s: %s%s", wan_ifname, strerror(-err),
			err == -EBUSY || err == -EEXIST ? " (another XDP program is attached)"
							: "");
		goto destroy_progs;
	}
	err = prog_id(pxp_dp_fd_prog_wan(&dp->progs), &dp->wan_prog_id);
	if (err)
		goto detach_wan;
	if (dp->rx == PXP_DP_HALF_XDP_PASS) {
		err = pxp_tc_attach(dp->wan.ifindex, true, pxp_dp_fd_prog_tc_wan_pass(&dp->progs),
				    &dp->wan_tc);
		if (err) {
			pxp_err("attaching tc ingress to %s: %s", wan_ifname, strerror(-err));
			goto detach_wan;
		}
	}
	if (mode == PXP_DP_AFXDP || mode == PXP_DP_TC)
		dp->mode = mode;
	else
		dp->mode = dp->xdp_flags == XDP_FLAGS_DRV_MODE ? PXP_DP_XDP : PXP_DP_GENERIC;
	watch_redirects(dp);
	log_attached(dp);
	*dpp = dp;
	return 0;

detach_wan:
	pxp_tc_detach(&dp->wan_tc);
	bpf_xdp_detach(dp->wan.ifindex, dp->xdp_flags, NULL);
destroy_progs:
	pxp_dp_progs_destroy(&dp->progs);
free_dp:
	if (dp->vlan_strip_was_on)
		pxp_wan_set_vlan_strip(wan_ifname, true, NULL);
	free(dp->slot_by_id);
	free(dp);
	return err;
}

/*
 * Rewrite a session's record under both its keys (ds->rec changed): the hidden peer's
 * ifindex, where every transmit half meets it (a netkit hands its primary program the skb
 * already addressed to the peer), and the session key.
 */
static int update_records(struct pxp_dp *dp, const struct dp_session *ds)
{
	__u32 peer_key = ds->rec.peer_ifindex;

	if (bpf_map_update_elem(pxp_dp_fd_egress(&dp->progs), &peer_key, &ds->rec, BPF_EXIST) ||
	    bpf_map_update_elem(pxp_dp_fd_sessions(&dp->progs), &ds->key, &ds->rec, BPF_EXIST))
		return -errno;
	return 0;
}

int pxp_dp_set_vlan_pcp(struct pxp_dp *dp, uint8_t pcp)
{
	int err;

	if (pcp > 7 || !(dp->vlan_tci & 0x0fff)) {
		pxp_err("vlan priority %u needs a VLAN id and a value in 0..7", pcp);
		return -EINVAL;
	}
	dp->vlan_tci = (uint16_t)((dp->vlan_tci & 0x0fff) | pcp << 13);
	err = write_config(dp, dp->engine != NULL);
	for (unsigned int i = 0; i < dp->nr_sessions && !err; i++) {
		struct dp_session *ds = &dp->sessions[i];

		ds->rec.vlan_tci = dp->vlan_tci;
		err = update_records(dp, ds);
	}
	return err;
}

int pxp_dp_set_cpu_spread(struct pxp_dp *dp, unsigned int nr_cpus)
{
	int possible = libbpf_num_possible_cpus(), err;
	struct bpf_cpumap_val val = {
		.qsize = 2048,
		.bpf_prog.fd = pxp_dp_fd_prog_cpu(&dp->progs),
	};

	if (possible < 0)
		return possible;
	if (nr_cpus > (unsigned int)possible || nr_cpus > PXP_MAX_CPUS) {
		pxp_err("cannot spread over %u CPUs: %d possible, at most %d", nr_cpus, possible,
			PXP_MAX_CPUS);
		return -EINVAL;
	}
	if ((dp->mode == PXP_DP_AFXDP || dp->rx != PXP_DP_HALF_XDP) && nr_cpus) {
		pxp_err("CPU spreading needs XDP receiving in mode xdp or generic, not %s",
			pxp_dp_mode_name(dp->mode));
		return -EINVAL;
	}
	if (!dp->progs.xdp_meta && nr_cpus) {
		pxp_err("CPU spreading: this kernel refuses bpf_xdp_adjust_meta to XDP programs, "
			"which tells the other CPU the session");
		return -EOPNOTSUPP;
	}
	for (__u32 cpu = 0; cpu < nr_cpus; cpu++) {
		if (bpf_map_update_elem(pxp_dp_fd_cpus(&dp->progs), &cpu, &val, BPF_ANY)) {
			err = -errno;
			pxp_err("adding CPU %u to the cpumap: %s", cpu, strerror(-err));
			return err;
		}
	}
	/* Steer only once the entries exist; entries beyond nr_cpus stay harmlessly. */
	dp->nr_cpus = (uint16_t)nr_cpus;
	return write_config(dp, dp->engine != NULL);
}

int pxp_dp_set_afxdp_cpus(struct pxp_dp *dp, const struct pxp_dp_cpu_list *cpus)
{
	if (dp->mode != PXP_DP_AFXDP || dp->engine || cpus->nr > PXP_DP_MAX_QUEUES)
		return -EINVAL;
	dp->afxdp_cpus = *cpus;
	return 0;
}

static struct dp_session *find_session(struct pxp_dp *dp, uint16_t session_id)
{
	unsigned int slot = dp->slot_by_id[session_id];

	return slot ? &dp->sessions[slot - 1] : NULL;
}

static int start_engine(struct pxp_dp *dp, const struct dp_session *ds)
{
	int cpus[PXP_DP_MAX_QUEUES];
	const struct pxp_dp_cpu_list *l = &dp->afxdp_cpus;
	struct engine_config cfg = {
		.wan_ifindex = dp->wan.ifindex,
		.nr_queues = dp->wan.nr_rx_queues,
		.peer_ifindex = ds->nd.peer_ifindex,
		.wan_xskmap_fd = pxp_dp_fd_xsks(&dp->progs),
		.peer_xskmap_fd = pxp_dp_fd_xsks(&dp->progs),
		.wan_key_base = WAN_XSK_BASE,
		.peer_key_base = PEER_XSK_BASE,
		.zerocopy = true,
		.session = ds->rec,
		.cpus = l->nr ? cpus : NULL,
	};
	int err;

	for (unsigned int q = 0; l->nr && q < cfg.nr_queues && q < PXP_DP_MAX_QUEUES; q++)
		cpus[q] = l->cpu[q % l->nr];
	err = engine_start(&dp->engine, &cfg);
	if (err) {
		pxp_err("starting the AF_XDP engine: %s", strerror(-err));
		return err;
	}
	/* Steer only once the sockets are in xsks_map. */
	return write_config(dp, true);
}

static unsigned int session_queues(const struct pxp_dp *dp)
{
	return dp->wan.nr_rx_queues < PXP_MAX_RX_QUEUES ? dp->wan.nr_rx_queues : PXP_MAX_RX_QUEUES;
}

static int check_session_mtu(const struct pxp_dp *dp, unsigned int mtu)
{
	if (pxp_mtu_fits(mtu, PXP_MTU_MIN_IP, dp->wan.mtu))
		return 0;
	pxp_err("session mtu %u is outside %u..%u (the WAN MTU %u minus 8)", mtu, PXP_MTU_MIN_IP,
		dp->wan.mtu - PPPOE_SESSION_OVERHEAD, dp->wan.mtu);
	return -EINVAL;
}

/*
 * A tc transmit half on a veth: the session program at the hidden peer's tc ingress, so
 * that what the stack sends crosses pxp0's own transmit: its qdisc (shaping on pxp0, as on
 * ppp0), its segmentation (TSO/GSO off on pxp0: only MTU-sized skbs reach the program) and
 * its counters (ip -s link, status, stats), which a redirect from pxp0's tc egress would
 * skip. The price is the veth hop (one backlog pass a packet); a netkit pxp0 has none. A
 * clsact filter, not a tcx link: the peer is ours alone and the filter goes with it, and a
 * tcx attach waits for an RCU grace period under the RTNL lock, which made an AC's session
 * set-up 5.8x slower than in mode xdp. On a netkit: the same program as pxp0's primary
 * program (a link; TSO/GSO off on it since its creation).
 */
static int attach_session_tc(struct pxp_dp *dp, struct dp_session *ds)
{
	int fd = pxp_dp_fd_prog_tc_session(&dp->progs), err;

	if (ds->nd.kind == PXP_DP_NETDEV_NETKIT)
		return pxp_tc_attach_netkit(ds->nd.ifindex, fd, &ds->tc_tx);
	err = pxp_netdev_no_segmentation_offload(&ds->nd);
	return err ?: pxp_tc_attach_clsact(ds->nd.peer_ifindex, true, fd, &ds->tc_tx);
}

int pxp_dp_session_add(struct pxp_dp *dp, const struct pxp_dp_session *s, int *ifindex)
{
	struct dp_session *grown, *ds;
	__u32 peer_key;
	int err;

	err = check_session_mtu(dp, s->mtu);
	if (err)
		return err;
	if (find_session(dp, s->session_id))
		return -EEXIST;
	if (dp->mode == PXP_DP_AFXDP && dp->nr_sessions) {
		pxp_err("mode afxdp carries one session per WAN port");
		return -EBUSY;
	}
	if (dp->nr_sessions == dp->cap_sessions) {
		unsigned int cap = dp->cap_sessions ? 2 * dp->cap_sessions : 4;

		grown = realloc(dp->sessions, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		dp->sessions = grown;
		dp->cap_sessions = cap;
	}
	ds = &dp->sessions[dp->nr_sessions];
	memset(ds, 0, sizeof(*ds));

	/*
	 * Never deletes a netdev of that name: whose it is, is the caller's to know. A name
	 * in use (ours or not) is refused here by the kernel (-EEXIST).
	 */
	err = pxp_netdev_create(s->ifname, dp->netdev, s->mtu, session_queues(dp), &ds->nd);
	if (err == -EEXIST && dp->nr_retired) {
		/* Perhaps a retired netdev of an ended session with this id. */
		pxp_dp_flush(dp);
		err = pxp_netdev_create(s->ifname, dp->netdev, s->mtu, session_queues(dp), &ds->nd);
	}
	if (err) {
		pxp_err("creating session netdev %s: %s", s->ifname, strerror(-err));
		return err;
	}
	memcpy(ds->rec.peer_mac, s->peer_mac, 6);
	memcpy(ds->rec.wan_mac, dp->wan.mac, 6);
	memcpy(ds->rec.netdev_mac, ds->nd.mac, 6);
	memcpy(ds->rec.peer_netdev_mac, ds->nd.peer_mac, 6);
	ds->rec.session_id = htons(s->session_id);
	ds->rec.mtu = s->mtu;
	ds->rec.wan_ifindex = (__u32)dp->wan.ifindex;
	ds->rec.peer_ifindex = (__u32)ds->nd.peer_ifindex;
	ds->rec.vlan_tci = dp->vlan_tci;
	ds->rec.flags = s->mss_clamp ? PXP_SESSION_F_MSS_CLAMP : 0;
	ds->key.session_id = ds->rec.session_id;
	memcpy(ds->key.peer_mac, s->peer_mac, 6);
	peer_key = ds->rec.peer_ifindex;

	/* Egress first, ingress last: no frame is steered towards a half-built session. */
	if (bpf_map_update_elem(pxp_dp_fd_egress(&dp->progs), &peer_key, &ds->rec, BPF_NOEXIST)) {
		err = -errno;
		goto delete_netdev;
	}
	if (dp->tx == PXP_DP_HALF_TC)
		err = attach_session_tc(dp, ds);
	else
		err = attach_prog(ds->nd.peer_ifindex, pxp_dp_fd_prog_session(&dp->progs),
				  dp->xdp_flags);
	if (err) {
		pxp_err("attaching the session program to %s: %s", ds->nd.name, strerror(-err));
		goto delete_egress;
	}
	/* Not with xdp-pass: its superpackets would be cut up again at the peer. */
	if (dp->rx == PXP_DP_HALF_TC && ds->nd.kind == PXP_DP_NETDEV_VETH)
		err = pxp_netdev_peer_to_gro(&ds->nd);
	err = err ?: pxp_netdev_up(&ds->nd);
	if (err)
		goto delete_egress;
	if (dp->mode == PXP_DP_AFXDP) {
		err = start_engine(dp, ds);
		if (err)
			goto stop_engine;
	}
	if (bpf_map_update_elem(pxp_dp_fd_sessions(&dp->progs), &ds->key, &ds->rec, BPF_NOEXIST)) {
		err = -errno;
		goto stop_engine;
	}
	dp->slot_by_id[s->session_id] = (uint16_t)++dp->nr_sessions;
	if (ifindex)
		*ifindex = ds->nd.ifindex;
	return 0;

stop_engine:
	engine_stop(dp->engine);
	dp->engine = NULL;
	write_config(dp, false);
delete_egress:
	pxp_tc_detach(&ds->tc_tx);
	bpf_map_delete_elem(pxp_dp_fd_egress(&dp->progs), &peer_key);
delete_netdev:
	pxp_netdev_delete(ds->nd.name, ds->nd.kind, ds->nd.ifindex);
	return err;
}

int pxp_dp_session_set_mtu(struct pxp_dp *dp, uint16_t session_id, uint16_t mtu)
{
	struct dp_session *ds = find_session(dp, session_id);
	int err;

	if (!ds)
		return -ENOENT;
	err = check_session_mtu(dp, mtu);
	if (err)
		return err;
	err = pxp_netdev_set_mtu(&ds->nd, mtu);
	if (err)
		return err;
	ds->rec.mtu = mtu;
	err = update_records(dp, ds);
	if (err)
		return err;
	if (dp->engine)
		return engine_set_mtu(dp->engine, mtu);
	return 0;
}

int pxp_dp_session_accept_ra(struct pxp_dp *dp, uint16_t session_id)
{
	struct dp_session *ds = find_session(dp, session_id);

	return ds ? pxp_netdev_accept_ra(ds->nd.name) : -ENOENT;
}

int pxp_dp_session_del(struct pxp_dp *dp, uint16_t session_id)
{
	struct dp_session *ds = find_session(dp, session_id);
	__u32 peer_key;
	int err;

	if (!ds)
		return -ENOENT;
	/* Ingress first: from here on the session's frames pass to the stack. */
	bpf_map_delete_elem(pxp_dp_fd_sessions(&dp->progs), &ds->key);
	if (dp->engine) {
		write_config(dp, false);
		engine_stop(dp->engine);
		dp->engine = NULL;
	}
	/* A netkit link's fd is ours to close, now: the netdev may go only at the next flush. */
	if (ds->tc_tx.netkit)
		pxp_tc_detach(&ds->tc_tx);
	/*
	 * The netdev takes its peer and the peer's program with it: no query of the links
	 * (libbpf's bpf_xdp_query() dumps every link, thousands on a busy AC), no detach that
	 * waits for a grace period. Only a netdev left in place loses our program, by the fd or
	 * id we attached, in one targeted request.
	 */
	err = -EAGAIN;
	if (dp->defer_deletes) {
		err = pxp_netdev_retire(&ds->nd, dp->retire_group);
		if (!err)
			dp->nr_retired++;
	}
	if (err && err != -ENODEV)
		err = pxp_netdev_delete(ds->nd.name, ds->nd.kind, ds->nd.ifindex);
	if (err == -ENODEV)
		err = 0; /* someone deleted it already */
	else if (err && dp->tx == PXP_DP_HALF_TC)
		pxp_tc_detach(&ds->tc_tx);
	else if (err)
		detach_attached(ds->nd.peer_ifindex, pxp_dp_fd_prog_session(&dp->progs),
				dp->xdp_flags);
	peer_key = ds->rec.peer_ifindex;
	bpf_map_delete_elem(pxp_dp_fd_egress(&dp->progs), &peer_key);
	dp->slot_by_id[session_id] = 0;
	if (ds != &dp->sessions[--dp->nr_sessions]) {
		*ds = dp->sessions[dp->nr_sessions];
		dp->slot_by_id[ntohs(ds->rec.session_id)] = (uint16_t)(ds - dp->sessions + 1);
	}
	return err;
}

void pxp_dp_defer_deletes(struct pxp_dp *dp)
{
	dp->defer_deletes = true;
}

void pxp_dp_flush(struct pxp_dp *dp)
{
	int err;

	if (!dp || !dp->nr_retired)
		return;
	err = pxp_netdev_delete_group(dp->retire_group);
	if (err)
		pxp_warn("deleting %u ended session netdevs (group %u): %s", dp->nr_retired,
			 dp->retire_group, strerror(-err));
	dp->nr_retired = 0;
}

void pxp_dp_detach(struct pxp_dp *dp)
{
	if (!dp)
		return;
	while (dp->nr_sessions)
		pxp_dp_session_del(dp, ntohs(dp->sessions[0].rec.session_id));
	pxp_dp_flush(dp);
	pxp_tc_detach(&dp->wan_tc);
	if (dp->rx != PXP_DP_HALF_TC)
		detach_attached(dp->wan.ifindex, pxp_dp_fd_prog_wan(&dp->progs), dp->xdp_flags);
	if (dp->vlan_strip_was_on)
		pxp_wan_set_vlan_strip(dp->wan_name, true, NULL);
	pxp_xmit_watch_stop(dp->xmit_watch);
	pxp_dp_progs_destroy(&dp->progs);
	free(dp->sessions);
	free(dp->slot_by_id);
	free(dp);
}

int pxp_dp_redirects_refused(const struct pxp_dp *dp, uint64_t *by_errno, unsigned int n)
{
	return dp->xmit_watch ? pxp_xmit_watch_read(dp->xmit_watch, by_errno, n) : -ENOENT;
}

/* The programs' counters of one queue into its report, by the field each counter adds into. */
static void add_queue_stats(struct pxp_dp_queue_stats *q, const __u64 *c)
{
	for (unsigned int i = 0; i < PXP_CNT__MAX; i++) {
		enum pxp_dp_field f = pxp_dp_counter_field(i);

		if (f != PXP_DP_F_none)
			q->field[f] += c[i];
	}
}

int pxp_dp_get_stats(struct pxp_dp *dp, struct pxp_dp_stats *st)
{
	struct pxp_counters sum;
	int err;

	memset(st, 0, sizeof(*st));
	for (unsigned int q = 0; q < PXP_MAX_RX_QUEUES && q < PXP_DP_MAX_QUEUES; q++) {
		err = pxp_dp_read_counters(pxp_dp_fd_counters(&dp->progs), q, &sum);
		if (err)
			return err;
		add_queue_stats(&st->queue[q], sum.c);
		if (q < dp->wan.nr_rx_queues || sum.c[PXP_CNT_RX] || sum.c[PXP_CNT_TX])
			st->nr_queues = q + 1;
	}
	if (dp->engine) {
		struct pxp_dp_stats eng;

		err = engine_get_stats(dp->engine, &eng);
		if (err)
			return err;
		/*
		 * rx and tx stay the programs' in every mode: the frames the WAN port received
		 * and those the stack sent through the session netdev. The engine's own rx/tx
		 * count both of its sockets, so they would count each WAN frame a second time
		 * and add the session netdev's frames to rx. decap/encap are the engine's (the
		 * programs only steer into sockets); the drops add up.
		 */
		for (unsigned int q = 0; q < eng.nr_queues && q < PXP_DP_MAX_QUEUES; q++) {
			st->queue[q].decap = eng.queue[q].decap;
			st->queue[q].encap = eng.queue[q].encap;
			for (unsigned int f = 0; f < PXP_DP_F__MAX; f++)
				if (pxp_dp_field_is_drop(f))
					st->queue[q].field[f] += eng.queue[q].field[f];
		}
		if (eng.nr_queues > st->nr_queues)
			st->nr_queues = eng.nr_queues;
	}
	return 0;
}
