// SPDX-License-Identifier: GPL-2.0
/* netkit devices over raw rtnetlink; see netkit.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>

#include "netkit.h"
#include "pxp_uapi_compat.h"

struct nk_msg {
	struct nlmsghdr h;
	struct ifinfomsg i;
	char attrs[256];
};

/* Append one attribute; the buffer is sized for the fixed requests below. */
static struct rtattr *nk_put(struct nk_msg *m, unsigned short type, const void *data, size_t len)
{
	struct rtattr *a = (struct rtattr *)((char *)m + NLMSG_ALIGN(m->h.nlmsg_len));

	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(a), data, len);
	m->h.nlmsg_len = NLMSG_ALIGN(m->h.nlmsg_len) + RTA_ALIGN(a->rta_len);
	return a;
}

static void nk_end(struct nk_msg *m, struct rtattr *nest)
{
	nest->rta_len = (unsigned short)((char *)m + m->h.nlmsg_len - (char *)nest);
}

static void nk_begin(struct nk_msg *m, unsigned short type, unsigned short flags)
{
	memset(m, 0, sizeof(*m));
	m->h.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg));
	m->h.nlmsg_type = type;
	m->h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	m->i.ifi_family = AF_UNSPEC;
}

/* Send m and read the kernel's acknowledgement: 0 or its -errno. */
static int nk_talk(const struct nk_msg *m)
{
	char reply[1024];
	const struct nlmsghdr *h = (const void *)reply;
	ssize_t n;
	int fd, err;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (send(fd, m, m->h.nlmsg_len, 0) < 0) {
		err = -errno;
		goto out;
	}
	n = recv(fd, reply, sizeof(reply), 0);
	if (n < 0)
		err = -errno;
	else if ((size_t)n < NLMSG_LENGTH(sizeof(struct nlmsgerr)) || h->nlmsg_type != NLMSG_ERROR)
		err = -EPROTO;
	else
		err = ((const struct nlmsgerr *)NLMSG_DATA(h))->error;
out:
	close(fd);
	return err;
}

int pxp_netkit_create(const char *name, const char *peer, unsigned int mtu, int policy,
		      int peer_policy)
{
	struct ifinfomsg peer_ifi = { .ifi_family = AF_UNSPEC };
	struct rtattr *info, *data, *pinfo;
	__u32 mode = PXP_NETKIT_L3, pol = (__u32)policy, peer_pol = (__u32)peer_policy;
	struct nk_msg m;

	if (strlen(name) >= IF_NAMESIZE || strlen(peer) >= IF_NAMESIZE)
		return -ENAMETOOLONG;
	nk_begin(&m, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	nk_put(&m, IFLA_IFNAME, name, strlen(name) + 1);
	if (mtu)
		nk_put(&m, IFLA_MTU, &mtu, sizeof(mtu));
	info = nk_put(&m, IFLA_LINKINFO, NULL, 0);
	nk_put(&m, IFLA_INFO_KIND, "netkit", sizeof("netkit"));
	data = nk_put(&m, IFLA_INFO_DATA, NULL, 0);
	nk_put(&m, PXP_IFLA_NETKIT_MODE, &mode, sizeof(mode));
	nk_put(&m, PXP_IFLA_NETKIT_POLICY, &pol, sizeof(pol));
	nk_put(&m, PXP_IFLA_NETKIT_PEER_POLICY, &peer_pol, sizeof(peer_pol));
	/* The peer's attributes follow its ifinfomsg, as in veth's VETH_INFO_PEER. */
	pinfo = nk_put(&m, PXP_IFLA_NETKIT_PEER_INFO, &peer_ifi, sizeof(peer_ifi));
	nk_put(&m, IFLA_IFNAME, peer, strlen(peer) + 1);
	if (mtu)
		nk_put(&m, IFLA_MTU, &mtu, sizeof(mtu));
	nk_end(&m, pinfo);
	nk_end(&m, data);
	nk_end(&m, info);
	return nk_talk(&m);
}

static int nk_delete(const char *name)
{
	struct nk_msg m;

	nk_begin(&m, RTM_DELLINK, 0);
	nk_put(&m, IFLA_IFNAME, name, strlen(name) + 1);
	return nk_talk(&m);
}

int pxp_netkit_probe(void)
{
	char name[IF_NAMESIZE], peer[IF_NAMESIZE];
	unsigned int id = (unsigned int)getpid() % 10000000;
	int err;

	snprintf(name, sizeof(name), "pxpnk%u", id);
	snprintf(peer, sizeof(peer), "pxpnk%up", id);
	err = pxp_netkit_create(name, peer, 0, PXP_NETKIT_DROP, PXP_NETKIT_DROP);
	if (err == -EOPNOTSUPP)
		return 0;
	if (err)
		return err;
	nk_delete(name); /* the peer goes with it */
	return 1;
}
