// SPDX-License-Identifier: GPL-2.0
/*
 * The frames the kernel drops after our programs' XDP_REDIRECT to the WAN port, which no
 * counter of ours would see: the redirect itself refused (xdp:xdp_redirect_err; a veth
 * whose peer has neither XDP nor GRO offers no XDP transmit: EOPNOTSUPP), or the port's
 * driver refusing the frames when the batch is sent (xdp:xdp_devmap_xmit). Counted by
 * errno for the one WAN port the daemon watches (ifindex and network namespace, both set
 * at load: ifindexes repeat across namespaces). Tracing programs: they read the net_device
 * through BTF (CO-RE), the one place in bpf/ that needs it.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

/* Errnos below this have a slot of their own (userspace reads it from the map). */
#define XMIT_ERRNO_SLOTS 128

/* The few kernel fields read, relocated against the running kernel's BTF. */
struct ns_common {
	unsigned int inum;
} __attribute__((preserve_access_index));
struct net {
	struct ns_common ns;
} __attribute__((preserve_access_index));
typedef struct {
	struct net *net;
} __attribute__((preserve_access_index)) possible_net_t;
struct net_device {
	int ifindex;
	possible_net_t nd_net;
} __attribute__((preserve_access_index));

const volatile __u32 wan_ifindex;
const volatile __u32 wan_netns_inum;

/* Frames dropped after a redirect to the WAN port, per CPU, by errno (slot 0: no errno). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XMIT_ERRNO_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} pxp_xmit_refused SEC(".maps");

static __always_inline int is_wan(const struct net_device *dev, int ifindex)
{
	return ifindex == (int)wan_ifindex &&
	       BPF_CORE_READ(dev, nd_net.net, ns.inum) == wan_netns_inum;
}

static __always_inline void count(int err, __u64 frames)
{
	__u32 slot = err < 0 && -err < XMIT_ERRNO_SLOTS ? (__u32)-err : 0;
	__u64 *n = bpf_map_lookup_elem(&pxp_xmit_refused, &slot);

	if (n)
		*n += frames;
}

/* Arguments: dev (the receiving port), xdp, tgt, err, map_type, map_id, index. */
SEC("tp_btf/xdp_redirect_err")
int pxp_tp_redirect_err(unsigned long long *ctx)
{
	const struct net_device *dev = (const void *)ctx[0];

	/* bpf_redirect(ifindex): no map, index is the target's ifindex in dev's namespace. */
	if ((int)ctx[4] == BPF_MAP_TYPE_UNSPEC && is_wan(dev, (int)ctx[6]))
		count((int)ctx[3], 1);
	return 0;
}

/* Arguments: from_dev, to_dev, sent, drops, err. */
SEC("tp_btf/xdp_devmap_xmit")
int pxp_tp_xdp_xmit(unsigned long long *ctx)
{
	const struct net_device *to_dev = (const void *)ctx[1];
	int drops = (int)ctx[3];

	if (drops > 0 && is_wan(to_dev, BPF_CORE_READ(to_dev, ifindex)))
		count((int)ctx[4], (__u64)drops);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
