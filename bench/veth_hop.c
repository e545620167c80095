// SPDX-License-Identifier: GPL-2.0
/*
 * veth_hop: loads bench/veth_hop.bpf.c for the benchmark's veth-hop case and attaches it in
 * native mode: hop_in on WAN, hop_out on HOP_PEER (the hidden end of the veth pair whose other
 * end, HOP, the router routes through). The attachments outlive this process; deleting the
 * namespace removes them.
 *
 * usage: veth_hop WAN HOP HOP_PEER ISP_MAC   (in the router's namespace)
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>
#include <linux/if_link.h>

#include "hop_mac.h"
#include "veth_hop.skel.h"

int main(int argc, char **argv)
{
	struct veth_hop *skel;
	unsigned int wan, hop_peer;
	int err;

	if (argc != 5) {
		fprintf(stderr, "usage: veth_hop WAN HOP HOP_PEER ISP_MAC\n");
		return 2;
	}
	wan = if_nametoindex(argv[1]);
	hop_peer = if_nametoindex(argv[3]);
	if (!wan || !hop_peer) {
		fprintf(stderr, "veth_hop: no interface %s\n", wan ? argv[3] : argv[1]);
		return 2;
	}
	skel = veth_hop__open();
	if (!skel) {
		fprintf(stderr, "veth_hop: opening the BPF object: %s\n", strerror(errno));
		return 1;
	}
	skel->rodata->wan_ifindex = wan;
	skel->rodata->hop_peer_ifindex = hop_peer;
	if (parse_mac(argv[4], skel->rodata->isp_mac)) {
		fprintf(stderr, "veth_hop: ISP_MAC '%s' is not a MAC address (aa:bb:cc:dd:ee:ff)\n",
			argv[4]);
		err = 2;
		goto out;
	}
	err = read_mac(argv[1], skel->rodata->wan_mac) ?: read_mac(argv[2], skel->rodata->hop_mac);
	err = err ?: veth_hop__load(skel);
	err = err
		      ?: bpf_xdp_attach((int)wan, bpf_program__fd(skel->progs.hop_in),
					XDP_FLAGS_DRV_MODE, NULL);
	err = err
		      ?: bpf_xdp_attach((int)hop_peer, bpf_program__fd(skel->progs.hop_out),
					XDP_FLAGS_DRV_MODE, NULL);
	if (err) {
		fprintf(stderr, "veth_hop: %s\n", strerror(-err));
		err = 1;
	}
out:
	veth_hop__destroy(skel);
	return err;
}
