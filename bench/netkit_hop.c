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
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "netkit.h"
#include "netkit_hop.skel.h"
#include "pxp_uapi_compat.h"

static int read_mac(const char *ifname, volatile __u8 *mac)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr))
		err = -errno;
	else
		for (int i = 0; i < 6; i++)
			mac[i] = (__u8)ifr.ifr_hwaddr.sa_data[i];
	close(fd);
	return err;
}

static int parse_mac(const char *s, volatile __u8 *mac)
{
	unsigned int b[6];
	char end;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &end) != 6)
		return -1;
	for (int i = 0; i < 6; i++) {
		if (b[i] > 0xff)
			return -1;
		mac[i] = (__u8)b[i];
	}
	return 0;
}

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
