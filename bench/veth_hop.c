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
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <linux/if_link.h>

#include "veth_hop.skel.h"

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
