/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The session netdev (pxp0): the stack-facing end of a pair with a hidden peer ("<name>-x"),
 * of either kind:
 * - veth (libnl-route): the hidden peer runs the session XDP program (or, for a tc transmit
 *   half, the tc program for GSO skbs); GRO is on on pxp0 (so frames redirected into the peer
 *   are accepted and aggregated);
 * - netkit in L3 mode (netkit.c, raw rtnetlink; Linux 6.7+): the session program runs on
 *   pxp0's own transmit as its primary program; the hidden peer only carries received frames
 *   into pxp0 (redirected to its transmit, as into a veth peer) and drops whatever else it
 *   would send. TSO/GSO are off from the start: the program must see MTU-sized skbs.
 * pxp0 is NOARP, its MTU is the session MTU, and TX checksum offload is off (an encapsulated
 * frame leaves with no checksum offload left to finish it: a NIC would not find the IP
 * header behind PPPoE).
 *
 * Concurrency: called from the daemon's single control thread.
 */
#ifndef PXP_SESSION_NETDEV_H
#define PXP_SESSION_NETDEV_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "datapath.h"

struct pxp_netdev {
	enum pxp_dp_netdev kind; /* VETH or NETKIT */
	char name[IF_NAMESIZE];
	char peer_name[IF_NAMESIZE];
	int ifindex;
	int peer_ifindex;
	uint8_t mac[6];
	uint8_t peer_mac[6];
};

/* The hidden peer's name for a session netdev name: "<name>-x", cut to fit IFNAMSIZ. */
void pxp_netdev_peer_name(const char *name, char peer[IF_NAMESIZE]);
/*
 * Create the pair of this kind (VETH or NETKIT), administratively down; a veth has nr_queues
 * RX/TX queues on each end (netkit has no queues to spread).
 */
int pxp_netdev_create(const char *name, enum pxp_dp_netdev kind, uint16_t mtu,
		      unsigned int nr_queues, struct pxp_netdev *out);
/* Bring both ends up (after the peer's XDP program is attached). */
int pxp_netdev_up(const struct pxp_netdev *nd);
int pxp_netdev_set_mtu(const struct pxp_netdev *nd, uint16_t mtu);
/* Accept router advertisements on name (accept_ra 2, autoconf 1); 0 or -errno. */
int pxp_netdev_accept_ra(const char *name);
/*
 * TSO and GSO on pxp0 off: what its own sockets send is then MTU-sized before pxp0's tc
 * egress sees it (mode tc encapsulates there; a GSO skb must take the hidden peer's way).
 */
int pxp_netdev_no_segmentation_offload(const struct pxp_netdev *nd);
/*
 * TSO off on a veth pair's hidden peer, so that what it sends reaches pxp0's GRO: a veth
 * hands a frame to its peer's NAPI (and so GRO) only when the sender has no TSO
 * (veth_skb_is_eligible_for_gro); otherwise it goes through the backlog one by one. The tc
 * receive half redirects MTU-sized decapsulated packets into the hidden peer; XDP's
 * redirects take the NAPI path anyway. 0 or -errno.
 */
int pxp_netdev_peer_to_gro(const struct pxp_netdev *nd);
/*
 * The alias (IFLA_IFALIAS) every pair we create carries on its stack end: after a crash,
 * when no record gives the ifindex, it tells our netdevs from someone else's of that name.
 */
#define PXP_NETDEV_ALIAS "pppoe-xp session netdev"
/*
 * Delete the pair if name is a netdev of this kind (AUTO: a veth or a netkit) with this
 * ifindex (0: any that carries PXP_NETDEV_ALIAS); -ENODEV if there is none, -EEXIST if of
 * another kind or, with ifindex 0, without our alias, -ESTALE if another ifindex holds the
 * name.
 */
int pxp_netdev_delete(const char *name, enum pxp_dp_netdev kind, int ifindex);
/*
 * Deleting a netdev waits for the kernel's RCU grace periods (10-30 ms each); deleting a
 * group of them waits once. pxp_netdev_retire() moves the pair into netdev group `group`
 * (a fast request by its ifindex), pxp_netdev_delete_group() deletes every netdev of the
 * group in one request. 0 or -errno (-ENODEV: the netdev is gone already).
 */
int pxp_netdev_retire(const struct pxp_netdev *nd, uint32_t group);
int pxp_netdev_delete_group(uint32_t group);

/* What the data path needs to know about a WAN port. */
struct pxp_wan_info {
	int ifindex;
	uint8_t mac[6];
	unsigned int nr_rx_queues;
	unsigned int mtu;
};
int pxp_wan_info_get(const char *ifname, struct pxp_wan_info *info);
/*
 * A port with rx-vlan-offload on strips the 802.1Q tag before XDP runs (native and generic
 * alike), and the WAN program matches the tag in the frame: a tagged session turns it off.
 * Sets it on or off; *was_on (if not NULL) gets the state found, for putting it back.
 */
int pxp_wan_set_vlan_strip(const char *ifname, bool on, bool *was_on);
/* The port's driver as ethtool names it ("veth", "r8169"); "" and -errno if it says none. */
int pxp_wan_driver(const char *ifname, char *driver, size_t len);

#endif
