// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "tp_xdp_xmit.skel.h"
#include "xmit_watch.h"

struct pxp_xmit_watch {
	struct tp_xdp_xmit *skel;
};

int pxp_xmit_watch_start(int ifindex, struct pxp_xmit_watch **out)
{
	struct pxp_xmit_watch *w;
	struct stat ns;
	int err;

	*out = NULL;
	/* ifindexes repeat across namespaces: the tracepoint fires for all of them. */
	if (stat("/proc/self/ns/net", &ns))
		return -errno;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->skel = tp_xdp_xmit__open();
	if (!w->skel) {
		err = -errno;
		goto free_w;
	}
	w->skel->rodata->wan_ifindex = (__u32)ifindex;
	w->skel->rodata->wan_netns_inum = (__u32)ns.st_ino;
	err = tp_xdp_xmit__load(w->skel);
	if (!err)
		err = tp_xdp_xmit__attach(w->skel);
	if (err)
		goto destroy_skel;
	*out = w;
	return 0;

destroy_skel:
	tp_xdp_xmit__destroy(w->skel);
free_w:
	free(w);
	return err < 0 ? err : -EINVAL;
}

void pxp_xmit_watch_stop(struct pxp_xmit_watch *w)
{
	if (!w)
		return;
	tp_xdp_xmit__destroy(w->skel);
	free(w);
}

int pxp_xmit_watch_read(const struct pxp_xmit_watch *w, uint64_t *by_errno, unsigned int n)
{
	const struct bpf_map *map = w->skel->maps.pxp_xmit_refused;
	int ncpu = libbpf_num_possible_cpus(), fd = bpf_map__fd(map);
	__u32 slots = bpf_map__max_entries(map);
	uint64_t *per_cpu;

	if (ncpu <= 0 || !n)
		return ncpu <= 0 ? ncpu : -EINVAL;
	per_cpu = calloc((size_t)ncpu, sizeof(*per_cpu));
	if (!per_cpu)
		return -ENOMEM;
	memset(by_errno, 0, n * sizeof(*by_errno));
	for (__u32 slot = 0; slot < slots; slot++) {
		uint64_t sum = 0;

		if (bpf_map_lookup_elem(fd, &slot, per_cpu)) {
			int err = -errno;

			free(per_cpu);
			return err;
		}
		for (int c = 0; c < ncpu; c++)
			sum += per_cpu[c];
		by_errno[slot < n ? slot : 0] += sum;
	}
	free(per_cpu);
	return 0;
}
