// SPDX-License-Identifier: GPL-2.0
/*
 * netkit_hop: creates the netkit pair NK / NK_PEER (L3 mode) for the benchmark's netkit-hop
 * case over rtnetlink (user/datapath/netkit.c, as pxp0 is made), loads bench/netkit_hop.bpf.c and
 * attaches nk_out to NK's transmit (BPF_NETKIT_PRIMARY) and nk_in to WAN's tcx ingress.
 * BPF_PROG_ATTACH, not links: the attachments outlive this process, as veth_hop's do; deleting the
 * namespace removes them.
 *
 * usage: netkit_hop WAN NK NK_PEER ISP_MAC   (in the router's namespace, kernel 6.7 or later)
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "netkit.h"
#include "hop_mac.h"
#include "netkit_hop.skel.h"
#include "pxp_uapi_compat.h"

int main(int argc, char **argv)
{
	struct netkit_hop *skel;
	unsigned int wan, nk;
	int err;

	if (argc != 5) {
		fprintf(stderr, "usage: netkit_hop WAN NK NK_PEER ISP_MAC\n");
		return 2;
	}
	wan = if_nametoindex(argv[1]);
	if (!wan) {
		fprintf(stderr, "netkit_hop: no interface %s\n", argv[1]);
		return 2;
	}
	err = pxp_netkit_create(argv[2], argv[3], 0, PXP_NETKIT_PASS, PXP_NETKIT_PASS);
	if (err) {
		fprintf(stderr, "netkit_hop: creating netkit %s/%s: %s\n", argv[2], argv[3],
			err == -EOPNOTSUPP ? "this kernel has no netkit (CONFIG_NETKIT, Linux 6.7+)"
					   : strerror(-err));
		return 1;
	}
	nk = if_nametoindex(argv[2]);
	skel = netkit_hop__open();
	if (!nk || !skel) {
		fprintf(stderr, "netkit_hop: %s\n",
			nk ? "opening the BPF object failed" : "the netkit device vanished");
		return 1;
	}
	skel->rodata->wan_ifindex = wan;
	skel->rodata->nk_ifindex = nk;
	if (parse_mac(argv[4], skel->rodata->isp_mac)) {
		fprintf(stderr,
			"netkit_hop: ISP_MAC '%s' is not a MAC address (aa:bb:cc:dd:ee:ff)\n",
			argv[4]);
		err = 2;
		goto out;
	}
	err = read_mac(argv[1], skel->rodata->wan_mac) ?: read_mac(argv[2], skel->rodata->nk_mac);
	err = err ?: netkit_hop__load(skel);
	err = err
		      ?: bpf_prog_attach(bpf_program__fd(skel->progs.nk_out), (int)nk,
					 (enum bpf_attach_type)PXP_BPF_NETKIT_PRIMARY, 0);
	err = err
		      ?: bpf_prog_attach(bpf_program__fd(skel->progs.nk_in), (int)wan,
					 (enum bpf_attach_type)PXP_BPF_TCX_INGRESS, 0);
	if (err) {
		fprintf(stderr, "netkit_hop: %s\n", strerror(errno ? errno : -err));
		err = 1;
	}
out:
	netkit_hop__destroy(skel);
	return err;
}
