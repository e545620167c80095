/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one session the data path's tests forward: its id, MTU, the MACs of its four ends and
 * the ifindexes of its two ports, and the record built from them. Shared by the packet table
 * (tests/bpf/xdp_cases.h, run through the XDP programs and the engine's transforms) and the
 * engine's unit tests (tests/unit/engine_harness.h), so both describe the same session.
 */
#ifndef PXP_TEST_SESSION_H
#define PXP_TEST_SESSION_H

#include <arpa/inet.h>
#include <stdint.h>
#include <string.h>

#include "pxp_maps.h"

#define TEST_MTU     1492
#define TEST_SID     0x1234
#define WAN_IFINDEX  7
#define PEER_IFINDEX 9

static const uint8_t PEER_MAC[6] = { 0x02, 0xac, 0, 0, 0, 0x01 };	 /* the AC */
static const uint8_t WAN_MAC[6] = { 0x02, 0xcc, 0, 0, 0, 0x01 };	 /* our WAN port */
static const uint8_t NETDEV_MAC[6] = { 0x02, 0x0d, 0, 0, 0, 0x01 };	 /* pxp0 */
static const uint8_t PEER_NETDEV_MAC[6] = { 0x02, 0x0d, 0, 0, 0, 0x02 }; /* pxp0-x */

/* The session record (MSS clamp on), as the data path and the engine are given it. */
static inline struct pxp_session test_session(uint16_t vlan_tci)
{
	struct pxp_session s = {
		.session_id = htons(TEST_SID),
		.mtu = TEST_MTU,
		.wan_ifindex = WAN_IFINDEX,
		.peer_ifindex = PEER_IFINDEX,
		.vlan_tci = vlan_tci,
		.flags = PXP_SESSION_F_MSS_CLAMP,
	};

	memcpy(s.peer_mac, PEER_MAC, 6);
	memcpy(s.wan_mac, WAN_MAC, 6);
	memcpy(s.netdev_mac, NETDEV_MAC, 6);
	memcpy(s.peer_netdev_mac, PEER_NETDEV_MAC, 6);
	return s;
}

#endif
