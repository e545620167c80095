// SPDX-License-Identifier: GPL-2.0
/* Loading the XDP programs of the express data path; see dp_load.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/if_link.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dp_load.h"
#include "dp_tc.h"
#include "pxp_maps.h"
#include "tc_session.skel.h"
#include "tc_wan.skel.h"
#include "xdp_session.skel.h"
#include "xdp_wan.skel.h"

static int reuse_map(struct bpf_map *map, struct bpf_map *owner)
{
	return bpf_map__reuse_fd(map, bpf_map__fd(owner));
}

/* The maps every program but the XDP WAN one shares with it (the cpumap is its alone). */
#define REUSE_SHARED_MAPS(err, skel, wan)                                                    \
	do {                                                                                 \
		err = reuse_map((skel)->maps.pxp_sessions, (wan)->maps.pxp_sessions);        \
		err = err ?: reuse_map((skel)->maps.pxp_egress, (wan)->maps.pxp_egress);     \
		err = err ?: reuse_map((skel)->maps.pxp_counters, (wan)->maps.pxp_counters); \
		err = err ?: reuse_map((skel)->maps.pxp_config, (wan)->maps.pxp_config);     \
	} while (0)

/*
 * The XSKMAP of an XDP object (pxp_xsk.bpf.h): created, and the redirect to it kept, only
 * with PXP_DP_LOAD_XSKS; otherwise neither, so that the object loads on a kernel without
 * XDP sockets.
 */
#define SET_XSKS(skel, xsks)                                            \
	do {                                                            \
		(skel)->rodata->pxp_xsks = (xsks);                      \
		bpf_map__set_autocreate((skel)->maps.xsks_map, (xsks)); \
	} while (0)

int pxp_dp_kernel_has_xsks(void)
{
	int ret = libbpf_probe_bpf_map_type(BPF_MAP_TYPE_XSKMAP, NULL);

	return ret < 0 ? ret : ret > 0;
}

/*
 * Loads the smallest XDP program that calls the helper. libbpf_probe_bpf_helper() cannot
 * tell: it takes a refusal for support unless the log says "unknown func", and kernels
 * since 6.x say "program of this type cannot use helper".
 */
int pxp_dp_kernel_has_xdp_meta(void)
{
	const struct bpf_insn insns[] = {
		/* r1 is the context already; r2 = -4; call; return XDP_PASS */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_2, .imm = -4 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_xdp_adjust_meta },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_XDP, NULL, "GPL", insns, 4, NULL);

	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return errno == EINVAL || errno == EACCES ? 0 : -errno;
}

int pxp_dp_progs_load(struct pxp_dp_progs *p, unsigned int flags)
{
	bool record_redirects = flags & PXP_DP_LOAD_RECORD_REDIRECTS;
	int err;

	memset(p, 0, sizeof(*p));
	p->xsks = flags & PXP_DP_LOAD_XSKS;
	p->wan = xdp_wan__open();
	if (!p->wan)
		return -errno;
	p->wan->rodata->pxp_record_redirects = record_redirects;
	p->xdp_meta = pxp_dp_kernel_has_xdp_meta() > 0;
	p->wan->rodata->pxp_xdp_meta = p->xdp_meta;
	SET_XSKS(p->wan, p->xsks);
	err = xdp_wan__load(p->wan);
	if (err)
		goto destroy;

	p->session = xdp_session__open();
	if (!p->session) {
		err = -errno;
		goto destroy;
	}
	p->session->rodata->pxp_record_redirects = record_redirects;
	SET_XSKS(p->session, p->xsks);
	REUSE_SHARED_MAPS(err, p->session, p->wan);
	if (p->xsks)
		err = err ?: reuse_map(p->session->maps.xsks_map, p->wan->maps.xsks_map);
	err = err ?: xdp_session__load(p->session);
	if (err)
		goto destroy;

	p->tc_wan = tc_wan__open();
	if (!p->tc_wan) {
		err = -errno;
		goto destroy;
	}
	p->tc_wan->rodata->pxp_record_redirects = record_redirects;
	REUSE_SHARED_MAPS(err, p->tc_wan, p->wan);
	err = err ?: tc_wan__load(p->tc_wan);
	if (err)
		goto destroy;

	p->tc_session = tc_session__open();
	if (!p->tc_session) {
		err = -errno;
		goto destroy;
	}
	p->tc_session->rodata->pxp_record_redirects = record_redirects;
	REUSE_SHARED_MAPS(err, p->tc_session, p->wan);
	err = err ?: tc_session__load(p->tc_session);
	if (err)
		goto destroy;
	return 0;

destroy:
	pxp_dp_progs_destroy(p);
	return err < 0 ? err : -EINVAL;
}

void pxp_dp_progs_destroy(struct pxp_dp_progs *p)
{
	tc_session__destroy(p->tc_session);
	tc_wan__destroy(p->tc_wan);
	p->tc_session = NULL;
	p->tc_wan = NULL;
	xdp_session__destroy(p->session);
	xdp_wan__destroy(p->wan);
	p->session = NULL;
	p->wan = NULL;
}

int pxp_dp_fd_sessions(const struct pxp_dp_progs *p)
{
	return bpf_map__fd(p->wan->maps.pxp_sessions);
}

int pxp_dp_fd_egress(const struct pxp_dp_progs *p)
{
	return bpf_map__fd(p->wan->maps.pxp_egress);
}

int pxp_dp_fd_counters(const struct pxp_dp_progs *p)
{
	return bpf_map__fd(p->wan->maps.pxp_counters);
}

int pxp_dp_fd_config(const struct pxp_dp_progs *p)
{
	return bpf_map__fd(p->wan->maps.pxp_config);
}

int pxp_dp_fd_xsks(const struct pxp_dp_progs *p)
{
	return p->xsks ? bpf_map__fd(p->wan->maps.xsks_map) : -ENOENT;
}

int pxp_dp_fd_prog_wan(const struct pxp_dp_progs *p)
{
	return bpf_program__fd(p->wan->progs.pxp_xdp_wan);
}

int pxp_dp_fd_cpus(const struct pxp_dp_progs *p)
{
	return bpf_map__fd(p->wan->maps.pxp_cpus);
}

int pxp_dp_fd_prog_cpu(const struct pxp_dp_progs *p)
{
	return bpf_program__fd(p->wan->progs.pxp_xdp_cpu);
}

int pxp_dp_fd_prog_session(const struct pxp_dp_progs *p)
{
	return bpf_program__fd(p->session->progs.pxp_xdp_session);
}

int pxp_dp_fd_prog_tc_wan(const struct pxp_dp_progs *p)
{
	return bpf_program__fd(p->tc_wan->progs.pxp_tc_wan);
}

int pxp_dp_fd_prog_tc_wan_pass(const struct pxp_dp_progs *p)
{
	return bpf_program__fd(p->tc_wan->progs.pxp_tc_wan_pass);
}

int pxp_dp_fd_prog_tc_session(const struct pxp_dp_progs *p)
{
	return bpf_program__fd(p->tc_session->progs.pxp_tc_session);
}

int pxp_dp_read_counters(int counters_fd, unsigned int queue, struct pxp_counters *sum)
{
	int ncpu = libbpf_num_possible_cpus();
	struct pxp_counters *per_cpu;
	__u32 key = queue;

	if (ncpu <= 0)
		return ncpu < 0 ? ncpu : -EINVAL;
	per_cpu = calloc((size_t)ncpu, sizeof(*per_cpu));
	if (!per_cpu)
		return -ENOMEM;
	if (bpf_map_lookup_elem(counters_fd, &key, per_cpu)) {
		free(per_cpu);
		return -errno;
	}
	memset(sum, 0, sizeof(*sum));
	for (int cpu = 0; cpu < ncpu; cpu++)
		for (int i = 0; i < PXP_CNT__MAX; i++)
			sum->c[i] += per_cpu[cpu].c[i];
	free(per_cpu);
	return 0;
}

/* The map named name among the maps prog_fd uses: its fd, or -ENOENT. */
static int prog_map_by_name(int prog_fd, const char *name)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info), map_ids[16];
	int ret = -ENOENT;

	info.nr_map_ids = sizeof(map_ids) / sizeof(map_ids[0]);
	info.map_ids = (__u64)(unsigned long)map_ids;
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return -errno;
	for (__u32 i = 0; i < info.nr_map_ids && i < 16 && ret == -ENOENT; i++) {
		struct bpf_map_info minfo = { 0 };
		__u32 mlen = sizeof(minfo);
		int fd = bpf_map_get_fd_by_id(map_ids[i]);

		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &minfo, &mlen) && !strcmp(minfo.name, name))
			ret = fd;
		else
			close(fd);
	}
	return ret;
}

int pxp_dp_counters_fd_of_wan(int ifindex)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	__u32 ids[16];
	int n = 0;

	if (!bpf_xdp_query(ifindex, 0, &q)) {
		ids[n++] = q.drv_prog_id;
		ids[n++] = q.skb_prog_id;
	}
	n += pxp_tc_prog_ids(ifindex, true, ids + n, (unsigned int)(16 - n));
	for (int i = 0; i < n; i++) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		int prog_fd, fd;

		if (!ids[i])
			continue;
		prog_fd = bpf_prog_get_fd_by_id(ids[i]);
		if (prog_fd < 0)
			continue;
		fd = -ENOENT;
		if (!bpf_obj_get_info_by_fd(prog_fd, &info, &len) &&
		    (!strcmp(info.name, PXP_PROG_NAME_WAN) ||
		     !strcmp(info.name, PXP_PROG_NAME_TC_WAN)))
			fd = prog_map_by_name(prog_fd, "pxp_counters");
		close(prog_fd);
		if (fd >= 0)
			return fd;
	}
	return -ENOENT;
}

static const char *const counter_names[PXP_CNT__MAX] = {
#define X(id, key, field, description) [PXP_CNT_##id] = key,
	PXP_COUNTERS(X)
#undef X
};

const char *pxp_counter_name(unsigned int counter)
{
	return counter < PXP_CNT__MAX ? counter_names[counter] : "?";
}
