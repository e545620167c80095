// SPDX-License-Identifier: GPL-2.0
/* The session netdev: a veth pair (libnl-route) or a netkit pair; see session_netdev.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <netlink/route/link/veth.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "netkit.h"
#include "netlink.h"
#include "pxp_uapi_compat.h"
#include "session_netdev.h"

static int route_socket(struct nl_sock **sk)
{
	int err;

	*sk = nl_socket_alloc();
	if (!*sk)
		return -ENOMEM;
	err = nl_connect(*sk, NETLINK_ROUTE);
	if (err) {
		nl_socket_free(*sk);
		*sk = NULL;
		return nl_to_errno(err);
	}
	return 0;
}

void pxp_netdev_peer_name(const char *name, char peer[IF_NAMESIZE])
{
	snprintf(peer, IF_NAMESIZE, "%.*s-x", IF_NAMESIZE - 3, name);
}

/* One SIOCETHTOOL request (cmd is any struct ethtool_*, its first member the command). */
static int ethtool_ioctl(const char *ifname, void *cmd)
{
	struct ifreq ifr = { 0 };
	int fd, err = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		err = -errno;
	close(fd);
	return err;
}

static int ethtool_set(const char *ifname, __u32 cmd, __u32 value)
{
	struct ethtool_value ev = { .cmd = cmd, .data = value };

	return ethtool_ioctl(ifname, &ev);
}

/* net.ipv6.conf.IFNAME.KEY = value (one digit); a kernel without IPv6 has nothing to set. */
static int ipv6_conf_set(const char *ifname, const char *key, char value)
{
	char path[96];
	int fd, err = 0;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/%s", ifname, key);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (write(fd, &value, 1) != 1)
		err = -errno;
	close(fd);
	return err;
}

/* The hidden peer must stay silent: no IPv6 link-local address, no DAD, no RS. */
static int disable_ipv6(const char *ifname)
{
	return ipv6_conf_set(ifname, "disable_ipv6", '1');
}

/*
 * Like ppp0, the session netdev has only the link-local address IPv6CP negotiated: the
 * kernel's fe80::<MAC> would be a second source address the peer never agreed to. Set
 * while the netdev is down, before the kernel would generate one.
 */
static int no_kernel_link_local(const char *ifname)
{
	return ipv6_conf_set(ifname, "addr_gen_mode", '0' + IN6_ADDR_GEN_MODE_NONE);
}

/*
 * The AC's router advertisements on the session netdev: SLAAC address and default route.
 * 2, not 1: a router forwards, and with forwarding on accept_ra 1 ignores them.
 */
int pxp_netdev_accept_ra(const char *name)
{
	int err = ipv6_conf_set(name, "accept_ra", '2');

	return err ?: ipv6_conf_set(name, "autoconf", '1');
}

static int link_info(struct nl_sock *sk, const char *name, int *ifindex, uint8_t mac[6])
{
	struct rtnl_link *link;
	struct nl_addr *addr;
	int err;

	err = nl_to_errno(rtnl_link_get_kernel(sk, 0, name, &link));
	if (err)
		return err;
	*ifindex = rtnl_link_get_ifindex(link);
	addr = rtnl_link_get_addr(link);
	if (mac && addr && nl_addr_get_len(addr) == 6)
		memcpy(mac, nl_addr_get_binary_addr(addr), 6);
	rtnl_link_put(link);
	return 0;
}

static int veth_create(struct nl_sock *sk, const struct pxp_netdev *nd, uint16_t mtu,
		       unsigned int nr_queues)
{
	struct rtnl_link *link, *peer;
	int err;

	link = rtnl_link_veth_alloc();
	if (!link)
		return -ENOMEM;
	peer = rtnl_link_veth_get_peer(link);
	rtnl_link_set_name(link, nd->name);
	rtnl_link_set_mtu(link, mtu);
	rtnl_link_set_flags(link, IFF_NOARP);
	rtnl_link_set_num_rx_queues(link, nr_queues);
	rtnl_link_set_num_tx_queues(link, nr_queues);
	rtnl_link_set_name(peer, nd->peer_name);
	rtnl_link_set_mtu(peer, mtu);
	rtnl_link_set_flags(peer, IFF_NOARP);
	rtnl_link_set_num_rx_queues(peer, nr_queues);
	rtnl_link_set_num_tx_queues(peer, nr_queues);
	rtnl_link_put(peer);
	err = nl_to_errno(rtnl_link_add(sk, link, NLM_F_CREATE | NLM_F_EXCL));
	rtnl_link_put(link);
	return err;
}

/* MTU, flags and alias of name, each only when given (0, 0, NULL: unchanged). */
static int change_link(struct nl_sock *sk, const char *name, int mtu, unsigned int set_flags,
		       const char *alias)
{
	struct rtnl_link *orig, *change;
	int err;

	err = nl_to_errno(rtnl_link_get_kernel(sk, 0, name, &orig));
	if (err)
		return err;
	change = rtnl_link_alloc();
	if (!change) {
		rtnl_link_put(orig);
		return -ENOMEM;
	}
	if (mtu)
		rtnl_link_set_mtu(change, (unsigned int)mtu);
	if (set_flags)
		rtnl_link_set_flags(change, set_flags);
	if (alias)
		rtnl_link_set_ifalias(change, alias);
	err = nl_to_errno(rtnl_link_change(sk, orig, change, 0));
	rtnl_link_put(change);
	rtnl_link_put(orig);
	return err;
}

/* What each kind needs on top of the pair; 0 or -errno. */
static int netdev_settings(struct nl_sock *sk, const struct pxp_netdev *nd)
{
	/* Our mark (the kernel ignores IFLA_IFALIAS when it creates a link). */
	int err = change_link(sk, nd->name, 0, 0, PXP_NETDEV_ALIAS);

	err = err ?: disable_ipv6(nd->peer_name);
	err = err ?: no_kernel_link_local(nd->name);
	err = err ?: ethtool_set(nd->name, ETHTOOL_STXCSUM, 0);
	if (nd->kind == PXP_DP_NETDEV_NETKIT)
		return err ?: pxp_netdev_no_segmentation_offload(nd);
	return err ?: ethtool_set(nd->name, ETHTOOL_SGRO, 1);
}

int pxp_netdev_create(const char *name, enum pxp_dp_netdev kind, uint16_t mtu,
		      unsigned int nr_queues, struct pxp_netdev *out)
{
	struct nl_sock *sk;
	int err;

	if (strlen(name) >= IF_NAMESIZE || !nr_queues ||
	    (kind != PXP_DP_NETDEV_VETH && kind != PXP_DP_NETDEV_NETKIT))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->kind = kind;
	snprintf(out->name, sizeof(out->name), "%s", name);
	pxp_netdev_peer_name(name, out->peer_name);

	err = route_socket(&sk);
	if (err)
		return err;
	/*
	 * netkit: pxp0 drops what no program decided (before the session program is attached,
	 * after a crash took its link); the hidden peer passes what is redirected to it on into
	 * pxp0, as a veth peer does.
	 */
	if (kind == PXP_DP_NETDEV_NETKIT)
		err = pxp_netkit_create(out->name, out->peer_name, mtu, PXP_NETKIT_DROP,
					PXP_NETKIT_PASS);
	else
		err = veth_create(sk, out, mtu, nr_queues);
	if (err)
		goto free_sock;

	err = link_info(sk, out->name, &out->ifindex, out->mac);
	err = err ?: link_info(sk, out->peer_name, &out->peer_ifindex, out->peer_mac);
	err = err ?: netdev_settings(sk, out);
	if (err) {
		struct rtnl_link *link = rtnl_link_alloc();

		if (link) {
			rtnl_link_set_name(link, out->name);
			rtnl_link_delete(sk, link);
			rtnl_link_put(link);
		}
	}
free_sock:
	nl_socket_free(sk);
	return err;
}

int pxp_netdev_no_segmentation_offload(const struct pxp_netdev *nd)
{
	int err = ethtool_set(nd->name, ETHTOOL_STSO, 0);

	return err ?: ethtool_set(nd->name, ETHTOOL_SGSO, 0);
}

int pxp_netdev_peer_to_gro(const struct pxp_netdev *nd)
{
	return ethtool_set(nd->peer_name, ETHTOOL_STSO, 0);
}

int pxp_netdev_up(const struct pxp_netdev *nd)
{
	struct nl_sock *sk;
	int err;

	err = route_socket(&sk);
	if (err)
		return err;
	err = change_link(sk, nd->peer_name, 0, IFF_UP, NULL);
	err = err ?: change_link(sk, nd->name, 0, IFF_UP, NULL);
	nl_socket_free(sk);
	return err;
}

int pxp_netdev_set_mtu(const struct pxp_netdev *nd, uint16_t mtu)
{
	struct rtnl_link *link;
	struct nl_sock *sk;
	unsigned int cur;
	int err;

	if (!mtu)
		return -EINVAL;
	err = route_socket(&sk);
	if (err)
		return err;
	err = nl_to_errno(rtnl_link_get_kernel(sk, 0, nd->name, &link));
	if (err)
		goto free_sock;
	cur = rtnl_link_get_mtu(link);
	rtnl_link_put(link);
	/* The peer first when growing, pxp0 first when shrinking: pxp0 never sends a frame
	 * bigger than its peer accepts. */
	if (mtu > cur) {
		err = change_link(sk, nd->peer_name, mtu, 0, NULL);
		err = err ?: change_link(sk, nd->name, mtu, 0, NULL);
	} else {
		err = change_link(sk, nd->name, mtu, 0, NULL);
		err = err ?: change_link(sk, nd->peer_name, mtu, 0, NULL);
	}
free_sock:
	nl_socket_free(sk);
	return err;
}

/* The IFLA_INFO_KIND of each kind of ours. */
static bool is_kind(const char *type, enum pxp_dp_netdev kind)
{
	bool veth = type && !strcmp(type, "veth"), netkit = type && !strcmp(type, "netkit");

	return kind == PXP_DP_NETDEV_VETH     ? veth
	       : kind == PXP_DP_NETDEV_NETKIT ? netkit
					      : veth || netkit;
}

int pxp_netdev_delete(const char *name, enum pxp_dp_netdev kind, int ifindex)
{
	struct rtnl_link *link;
	const char *type, *alias;
	struct nl_sock *sk;
	int err;

	err = route_socket(&sk);
	if (err)
		return err;
	err = nl_to_errno(rtnl_link_get_kernel(sk, 0, name, &link));
	if (err)
		goto free_sock;
	type = rtnl_link_get_type(link);
	alias = rtnl_link_get_ifalias(link);
	/*
	 * Someone else's device of that name: not ours to delete. Without an ifindex from a
	 * record (the AC's pxs<N> after a crash) a veth of the name is not proof enough.
	 */
	if (!is_kind(type, kind) || (!ifindex && (!alias || strcmp(alias, PXP_NETDEV_ALIAS))))
		err = -EEXIST;
	else if (ifindex && rtnl_link_get_ifindex(link) != ifindex)
		err = -ESTALE; /* the name now belongs to a netdev created since */
	else
		err = nl_to_errno(rtnl_link_delete(sk, link));
	rtnl_link_put(link);
free_sock:
	nl_socket_free(sk);
	return err;
}

/* One RTM_SETLINK or RTM_DELLINK of ifindex (0: none) with IFLA_GROUP = group. */
static int link_group_request(int type, int ifindex, uint32_t group)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex };
	struct nl_msg *msg;
	struct nl_sock *sk;
	int err;

	err = route_socket(&sk);
	if (err)
		return err;
	msg = nlmsg_alloc_simple(type, NLM_F_REQUEST | NLM_F_ACK);
	if (!msg) {
		err = -ENOMEM;
		goto free_sock;
	}
	err = nl_to_errno(nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO));
	err = err ?: nl_to_errno(nla_put_u32(msg, IFLA_GROUP, group));
	if (!err) {
		err = nl_send_auto(sk, msg);
		err = err < 0 ? nl_to_errno(err) : nl_to_errno(nl_wait_for_ack(sk));
	}
	nlmsg_free(msg);
free_sock:
	nl_socket_free(sk);
	return err;
}

int pxp_netdev_retire(const struct pxp_netdev *nd, uint32_t group)
{
	return link_group_request(RTM_SETLINK, nd->ifindex, group);
}

int pxp_netdev_delete_group(uint32_t group)
{
	return link_group_request(RTM_DELLINK, 0, group);
}

/*
 * RX queues in use (what AF_XDP sockets may bind to): the ethtool channel count, else the
 * rx-N entries in sysfs. IFLA_NUM_RX_QUEUES would be wrong: it counts allocated queues.
 */
static unsigned int rx_queues_in_use(const char *ifname)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	unsigned int n = 0;
	char path[64];

	if (!ethtool_ioctl(ifname, &ch))
		n = ch.rx_count + ch.combined_count;
	while (!n || n > 4096) {
		n = 0;
		for (;;) {
			snprintf(path, sizeof(path), "/sys/class/net/%s/queues/rx-%u", ifname, n);
			if (access(path, F_OK))
				break;
			n++;
		}
		if (!n)
			n = 1;
	}
	return n;
}

int pxp_wan_info_get(const char *ifname, struct pxp_wan_info *info)
{
	struct rtnl_link *link;
	struct nl_addr *addr;
	struct nl_sock *sk;
	int err;

	memset(info, 0, sizeof(*info));
	err = route_socket(&sk);
	if (err)
		return err;
	err = nl_to_errno(rtnl_link_get_kernel(sk, 0, ifname, &link));
	if (err)
		goto free_sock;
	info->ifindex = rtnl_link_get_ifindex(link);
	info->mtu = rtnl_link_get_mtu(link);
	info->nr_rx_queues = rx_queues_in_use(ifname);
	addr = rtnl_link_get_addr(link);
	if (addr && nl_addr_get_len(addr) == 6)
		memcpy(info->mac, nl_addr_get_binary_addr(addr), 6);
	else
		err = -EINVAL; /* not an Ethernet port */
	rtnl_link_put(link);
free_sock:
	nl_socket_free(sk);
	return err;
}

/*
 * ETH_FLAG_RXVLAN is rx-vlan-offload (NETIF_F_HW_VLAN_CTAG_RX). The legacy flags call sets
 * every flag at once, so the others are written back as read.
 */
int pxp_wan_set_vlan_strip(const char *ifname, bool on, bool *was_on)
{
	struct ethtool_value ev = { .cmd = ETHTOOL_GFLAGS };
	bool is_on;
	int err;

	err = ethtool_ioctl(ifname, &ev);
	if (err == -EOPNOTSUPP && !on)
		err = 0; /* no flags at all: nothing strips */
	is_on = !err && (ev.data & ETH_FLAG_RXVLAN);
	if (was_on)
		*was_on = is_on;
	if (err || is_on == on)
		return err;
	return ethtool_set(ifname, ETHTOOL_SFLAGS,
			   on ? ev.data | ETH_FLAG_RXVLAN : ev.data & ~ETH_FLAG_RXVLAN);
}

int pxp_wan_driver(const char *ifname, char *driver, size_t len)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	int err = ethtool_ioctl(ifname, &info);

	snprintf(driver, len, "%.*s", err ? 0 : (int)sizeof(info.driver), info.driver);
	return err;
}
