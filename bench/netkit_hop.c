// SPDX-License-Identifier: GPL-2.0
/*
 * netkit_hop: creates the netkit pair NK / NK_PEER (L3 mode) for the benchmark's netkit-hop
 * case over rtnetlink, loads bench/netkit_hop.bpf.c and attaches nk_out to NK's transmit
 * (BPF_NETKIT_PRIMARY) and nk_in to WAN's tcx ingress. BPF_PROG_ATTACH, not links: the
 * attachments outlive this process, as veth_hop's do; deleting the namespace removes them.
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
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "netkit_hop.skel.h"

/*
 * Linux 6.7's netkit uapi (include/uapi/linux/if_link.h, bpf.h), which Debian 12's headers
 * and libbpf 1.1 predate; the values are the kernel's ABI.
 */
enum {
	PXB_IFLA_NETKIT_PEER_INFO = 1,
	PXB_IFLA_NETKIT_MODE = 5,
};
enum { PXB_NETKIT_L3 = 1 };
enum {
	PXB_BPF_TCX_INGRESS = 46,
	PXB_BPF_NETKIT_PRIMARY = 54,
};

struct nlbuf {
	struct nlmsghdr h;
	struct ifinfomsg i;
	char attrs[512];
};

static struct rtattr *nl_put(struct nlbuf *m, unsigned short type, const void *data, size_t len)
{
	struct rtattr *a = (struct rtattr *)((char *)m + NLMSG_ALIGN(m->h.nlmsg_len));

	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(a), data, len);
	m->h.nlmsg_len = NLMSG_ALIGN(m->h.nlmsg_len) + RTA_ALIGN(a->rta_len);
	return a;
}

static void nl_end(struct nlbuf *m, struct rtattr *nest)
{
	nest->rta_len = (unsigned short)((char *)m + m->h.nlmsg_len - (char *)nest);
}

/* RTM_NEWLINK for the pair; iproute2 6.1 can make a netkit only with no options. */
static int netkit_create(const char *name, const char *peer)
{
	struct nlbuf m = { .h = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg)),
				  .nlmsg_type = RTM_NEWLINK,
				  .nlmsg_flags =
					  NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL } };
	struct ifinfomsg peer_ifi = { .ifi_family = AF_UNSPEC };
	struct rtattr *info, *data, *pinfo;
	__u32 mode = PXB_NETKIT_L3;
	char reply[1024];
	struct nlmsgerr *e;
	ssize_t n;
	int fd, err;

	if (strlen(name) >= IFNAMSIZ || strlen(peer) >= IFNAMSIZ)
		return -ENAMETOOLONG;
	nl_put(&m, IFLA_IFNAME, name, strlen(name) + 1);
	info = nl_put(&m, IFLA_LINKINFO, NULL, 0);
	nl_put(&m, IFLA_INFO_KIND, "netkit", sizeof("netkit"));
	data = nl_put(&m, IFLA_INFO_DATA, NULL, 0);
	nl_put(&m, PXB_IFLA_NETKIT_MODE, &mode, sizeof(mode));
	/* The peer's attributes follow its ifinfomsg, as in veth's VETH_INFO_PEER. */
	pinfo = nl_put(&m, PXB_IFLA_NETKIT_PEER_INFO, &peer_ifi, sizeof(peer_ifi));
	nl_put(&m, IFLA_IFNAME, peer, strlen(peer) + 1);
	nl_end(&m, pinfo);
	nl_end(&m, data);
	nl_end(&m, info);

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (send(fd, &m, m.h.nlmsg_len, 0) < 0) {
		err = -errno;
		goto out;
	}
	n = recv(fd, reply, sizeof(reply), 0);
	e = NLMSG_DATA((struct nlmsghdr *)reply);
	if (n < 0)
		err = -errno;
	else if ((size_t)n < NLMSG_LENGTH(sizeof(*e)) ||
		 ((struct nlmsghdr *)reply)->nlmsg_type != NLMSG_ERROR)
		err = -EPROTO;
	else
		err = e->error;
out:
	close(fd);
	return err;
}

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
	err = netkit_create(argv[2], argv[3]);
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
					 (enum bpf_attach_type)PXB_BPF_NETKIT_PRIMARY, 0);
	err = err
		      ?: bpf_prog_attach(bpf_program__fd(skel->progs.nk_in), (int)wan,
					 (enum bpf_attach_type)PXB_BPF_TCX_INGRESS, 0);
	if (err) {
		fprintf(stderr, "netkit_hop: %s\n", strerror(errno ? errno : -err));
		err = 1;
	}
out:
	netkit_hop__destroy(skel);
	return err;
}
