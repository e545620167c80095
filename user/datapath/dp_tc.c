// SPDX-License-Identifier: GPL-2.0
/* Attaching the tc programs of mode tc; see dp_tc.h. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dp_tc.h"
#include "log.h"
#include "pxp_uapi_compat.h"

/* Our clsact filter's handle and priority ("px"): what we remove, and nothing else. */
#define PXP_TC_HANDLE 0x7078
#define PXP_TC_PRIO   0x7078

static bool force_clsact; /* pxp_tc_force_clsact(): set before any attach */

void pxp_tc_force_clsact(bool on)
{
	force_clsact = on;
}

static enum bpf_attach_type tcx_type(bool ingress)
{
	return (enum bpf_attach_type)(ingress ? PXP_BPF_TCX_INGRESS : PXP_BPF_TCX_EGRESS);
}

static void tc_hook(struct bpf_tc_hook *hook, int ifindex, bool ingress)
{
	memset(hook, 0, sizeof(*hook));
	hook->sz = sizeof(*hook);
	hook->ifindex = ifindex;
	hook->attach_point = ingress ? BPF_TC_INGRESS : BPF_TC_EGRESS;
}

/*
 * bpf_tc_query without libbpf's warning: "no filter at our handle" is the usual answer
 * here, and libbpf prints the kernel's message for it.
 */
static int tc_query_quiet(const struct bpf_tc_hook *hook, struct bpf_tc_opts *opts)
{
	libbpf_print_fn_t print = libbpf_set_print(NULL);
	int err = bpf_tc_query(hook, opts);

	libbpf_set_print(print);
	return err;
}

static int prog_id_of(int prog_fd, uint32_t *id)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return -errno;
	*id = info.id;
	return 0;
}

static int clsact_attach(int ifindex, bool ingress, int prog_fd, struct pxp_tc_att *att)
{
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = PXP_TC_HANDLE, .priority = PXP_TC_PRIO,
		    .prog_fd = prog_fd);
	struct bpf_tc_hook hook;
	int err;

	tc_hook(&hook, ifindex, ingress);
	err = bpf_tc_hook_create(&hook);
	if (err && err != -EEXIST)
		return err;
	/* No BPF_TC_F_REPLACE: a filter already at our handle is refused, never replaced. */
	err = bpf_tc_attach(&hook, &opts);
	if (err)
		return err;
	att->prog_id = opts.prog_id;
	return 0;
}

int pxp_tc_attach_clsact(int ifindex, bool ingress, int prog_fd, struct pxp_tc_att *att)
{
	memset(att, 0, sizeof(*att));
	att->ifindex = ifindex;
	att->ingress = ingress;
	return clsact_attach(ifindex, ingress, prog_fd, att);
}

int pxp_tc_attach(int ifindex, bool ingress, int prog_fd, struct pxp_tc_att *att)
{
	int fd, err;

	memset(att, 0, sizeof(*att));
	att->ifindex = ifindex;
	att->ingress = ingress;
	err = prog_id_of(prog_fd, &att->prog_id);
	if (err)
		return err;
	if (force_clsact)
		return clsact_attach(ifindex, ingress, prog_fd, att);
	fd = bpf_link_create(prog_fd, ifindex, tcx_type(ingress), NULL);
	if (fd >= 0) {
		att->linked = true;
		att->link_fd = fd;
		return 0;
	}
	err = -errno;
	att->prog_id = 0;
	if (err != -EINVAL && err != -EOPNOTSUPP)
		return err;
	pxp_debug("no tcx on ifindex %d (%s): using a clsact filter", ifindex, strerror(-err));
	return clsact_attach(ifindex, ingress, prog_fd, att);
}

int pxp_tc_attach_netkit(int ifindex, int prog_fd, struct pxp_tc_att *att)
{
	int fd, err;

	memset(att, 0, sizeof(*att));
	att->ifindex = ifindex;
	err = prog_id_of(prog_fd, &att->prog_id);
	if (err)
		return err;
	/* libbpf 1.1 knows no netkit options; the kernel takes target_ifindex and no flags. */
	fd = bpf_link_create(prog_fd, ifindex, (enum bpf_attach_type)PXP_BPF_NETKIT_PRIMARY, NULL);
	if (fd < 0) {
		att->prog_id = 0;
		return -errno;
	}
	att->linked = true;
	att->netkit = true;
	att->link_fd = fd;
	return 0;
}

void pxp_tc_detach(struct pxp_tc_att *att)
{
	if (att->linked) {
		/* Detach now, even if a forked child still holds a copy of the fd. */
		bpf_link_detach(att->link_fd);
		close(att->link_fd);
	} else if (att->prog_id) {
		pxp_tc_detach_stale(att->ifindex, att->ingress, NULL, att->prog_id);
	}
	att->linked = false;
	att->netkit = false;
	att->prog_id = 0;
}

int pxp_tc_detach_stale(int ifindex, bool ingress, const char *name, uint32_t id)
{
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = PXP_TC_HANDLE, .priority = PXP_TC_PRIO);
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);
	struct bpf_tc_hook hook;
	int fd, err;

	tc_hook(&hook, ifindex, ingress);
	err = tc_query_quiet(&hook, &opts);
	if (err == -ENOENT || err == -EINVAL)
		return 0; /* no clsact qdisc, or no filter at our handle */
	if (err)
		return err;
	if (id && opts.prog_id != id)
		return 0;
	if (name) {
		fd = bpf_prog_get_fd_by_id(opts.prog_id);
		if (fd < 0)
			return -errno;
		memset(&info, 0, sizeof(info));
		err = bpf_obj_get_info_by_fd(fd, &info, &len) ? -errno : 0;
		close(fd);
		if (err)
			return err;
		if (strcmp(info.name, name))
			return 0; /* someone else's filter at our handle: leave it */
	}
	opts.prog_fd = 0;
	opts.prog_id = 0;
	opts.flags = 0;
	err = bpf_tc_detach(&hook, &opts);
	return err ? err : 1;
}

int pxp_tc_prog_ids(int ifindex, bool ingress, uint32_t *ids, unsigned int max)
{
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = PXP_TC_HANDLE, .priority = PXP_TC_PRIO);
	__u32 cnt = max, attach_flags = 0;
	struct bpf_tc_hook hook;

	if (bpf_prog_query(ifindex, tcx_type(ingress), 0, &attach_flags, ids, &cnt))
		cnt = 0; /* no tcx here */
	tc_hook(&hook, ifindex, ingress);
	if (cnt < max && !tc_query_quiet(&hook, &opts))
		ids[cnt++] = opts.prog_id;
	return (int)cnt;
}

const char *pxp_tc_kind(const struct pxp_tc_att *att)
{
	if (att->linked)
		return att->netkit ? "netkit" : "tcx";
	return att->prog_id ? "clsact" : "-";
}
