/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Frames for the AF_XDP engine's tests, laid out as in a UMEM frame: HEADROOM bytes, then
 * the frame, for the session of tests/lib/test_session.h.
 * Shared by the transform and the stage tests.
 */
#ifndef PXP_TEST_ENGINE_HARNESS_H
#define PXP_TEST_ENGINE_HARNESS_H

#include <arpa/inet.h>
#include <stdint.h>
#include <string.h>

#include "../lib/test_session.h"
#include "pxp_maps.h"

#define HEADROOM 256

static uint8_t umem[HEADROOM + 2048];
static uint8_t *const frame = umem + HEADROOM;

static inline struct pxp_session session(uint16_t vlan_tci)
{
	return test_session(vlan_tci);
}

/* A PPPoE session frame around an IP packet already written at frame + l2 (l2 = 22 or 26). */
static inline size_t wrap_pppoe(uint16_t vlan, uint16_t sid, const uint8_t *src, uint16_t ppp_proto,
				size_t ip_len, size_t pad)
{
	size_t l2 = vlan ? 26 : 22;
	uint8_t *p = frame + 12;

	memcpy(frame, WAN_MAC, 6);
	memcpy(frame + 6, src, 6);
	if (vlan) {
		*p++ = 0x81, *p++ = 0x00, *p++ = vlan >> 8, *p++ = vlan & 0xff;
	}
	*p++ = 0x88, *p++ = 0x64, *p++ = 0x11, *p++ = 0x00;
	*p++ = sid >> 8, *p++ = sid & 0xff;
	*p++ = (uint8_t)((ip_len + 2) >> 8), *p++ = (uint8_t)((ip_len + 2) & 0xff);
	*p++ = ppp_proto >> 8, *p++ = ppp_proto & 0xff;
	memset(frame + l2 + ip_len, 0, pad);
	return l2 + ip_len + pad;
}

/* An Ethernet frame from pxp0 around an IP packet already written at frame + 14. */
static inline size_t wrap_eth(uint16_t proto, size_t ip_len)
{
	memcpy(frame, PEER_NETDEV_MAC, 6);
	memcpy(frame + 6, NETDEV_MAC, 6);
	frame[12] = proto >> 8, frame[13] = proto & 0xff;
	return 14 + ip_len;
}

#endif
