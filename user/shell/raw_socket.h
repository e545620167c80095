/* SPDX-License-Identifier: GPL-2.0 */
/*
 * AF_PACKET sockets on the WAN port for what the data path leaves to the control plane:
 * PPPoE discovery (0x8863) and the control protocols inside session frames (0x8864:
 * LCP, PAP, CHAP, IPCP, IPv6CP; a socket filter keeps IPv4/IPv6 data out). With a VLAN
 * configured, the tag is added on send and required on receive, so the protocol cores
 * only ever see untagged frames.
 *
 * Concurrency: used from the daemon's single thread.
 */
#ifndef PXP_RAW_SOCKET_H
#define PXP_RAW_SOCKET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pppoe_wire.h"

/*
 * The receive buffer asked for: 4 MiB holds a burst of several thousand control frames
 * (each costs its buffer's true size, under 1 KiB), what a thousand sessions' LCP, IPCP
 * and PADTs bring at once; at the default rmem (208 KiB) an AC at 1000 sessions lost ~1,900
 * frames in 10 s. Memory is used only while frames wait.
 */
#define RAW_SOCKET_RCVBUF (4 << 20)

struct raw_socket {
	int fd;
	int ifindex;
	uint16_t ethertype;
	uint16_t vlan_id; /* 0 = untagged */
	uint8_t vlan_pcp; /* 802.1p priority of what we send */
	uint8_t mac[PXP_ETH_ALEN];
	unsigned int mtu;
	/* Frames skipped: another VLAN, or unicast to another station (not errors). */
	uint64_t rx_other_vlan;
	uint64_t tx_errors;
	uint64_t rx_dropped; /* the kernel's drops (full receive buffer), summed */
};

/* Opens and binds the socket; fills ifindex, mac and mtu. 0 or -errno. */
int raw_socket_open(struct raw_socket *s, const char *ifname, uint16_t ethertype, uint16_t vlan_id,
		    uint8_t vlan_pcp);
void raw_socket_close(struct raw_socket *s);
/* Frames the kernel dropped for want of buffer space since the socket opened. */
uint64_t raw_socket_rx_dropped(struct raw_socket *s);
/*
 * Reads one frame (without VLAN tag) into buf. Returns its length, 0 when a frame
 * was skipped (another VLAN), -EAGAIN when nothing is queued, or -errno.
 */
ssize_t raw_socket_recv(struct raw_socket *s, void *buf, size_t cap);
/* Sends one untagged frame (Ethernet header first), tagging it if configured. */
int raw_socket_send(struct raw_socket *s, const void *frame, size_t len);

#endif
