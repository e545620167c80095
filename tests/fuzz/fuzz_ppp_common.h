/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared body of the PPP link fuzzers: arbitrary bytes into a struct ppp that a scripted
 * peer first brought to a chosen phase. Input layout:
 *   byte 0: bits 0-1 phase (0 Establish, 1 Authenticate, 2 Network, 3 all Opened),
 *           bit 2 server role (Establish, Network, Opened)
 *   then packets: length byte, flags byte, data. Flags bit 7 advances the clock by
 *   (flags & 0x7f) * 100 ms and runs the timers first; bits 0-2 pick the protocol
 *   (0-3: the harness's own, 4 LCP, 5 IPCP, 6 IPv6CP or CHAP in Authenticate, 7 unknown);
 *   bit 3 multiplies the length by 16 (packets past the 1500-byte control limit).
 * Invariants checked: every packet the link sends is framed and bounded, the states stay
 * valid, and LINK_DOWN is reported at most once.
 */
#ifndef PXP_FUZZ_PPP_COMMON_H
#define PXP_FUZZ_PPP_COMMON_H

#include <stdlib.h>

#include "../unit/ppp_harness.h"

static struct h_side fuzz_side;

static const uint8_t fuzz_magic_opt[] = { 5, 6, 0x11, 0x22, 0x33, 0x44 };

static void fuzz_setup(unsigned int phase, bool server)
{
	struct ppp_config c;
	static const uint8_t ipcp_req[] = { 3, 6, 10, 0, 0, 9 };
	static const uint8_t ipv6cp_req[] = { 1, 10, 1, 2, 3, 4, 5, 6, 7, 8 };

	if (phase == 1) {
		h_server_config(&c, PPP_AUTH_CHAP_MD5);
	} else if (server) {
		h_server_config(&c, PPP_AUTH_NONE);
	} else {
		h_client_config(&c, "pw");
	}
	if (h_init(&fuzz_side, &c, 0x9e3779b97f4a7c15ull))
		abort();
	if (phase == 0) {
		h_now = 1000;
		ppp_lower_up(&fuzz_side.ppp, h_now);
		return;
	}
	h_lcp_open(&fuzz_side, fuzz_magic_opt, sizeof(fuzz_magic_opt));
	if (phase == 3) {
		h_packet(&fuzz_side, PPP_PROTO_IPCP, FSM_CONF_REQ, 1, ipcp_req, sizeof(ipcp_req));
		h_ack_last_request(&fuzz_side, PPP_PROTO_IPCP);
		h_packet(&fuzz_side, PPP_PROTO_IPV6CP, FSM_CONF_REQ, 1, ipv6cp_req,
			 sizeof(ipv6cp_req));
		h_ack_last_request(&fuzz_side, PPP_PROTO_IPV6CP);
	}
}

static void fuzz_check(void)
{
	const struct ppp *p = &fuzz_side.ppp;

	if (fuzz_side.bad_sends || h_count(&fuzz_side, PPP_EV_LINK_DOWN) > 1)
		abort();
	if (p->lcp.state >= FSM_STATE_COUNT || p->ipcp.state >= FSM_STATE_COUNT ||
	    p->ipv6cp.state >= FSM_STATE_COUNT)
		abort();
}

static int fuzz_ppp_run(const uint8_t *data, size_t size, uint16_t own_proto)
{
	uint16_t protos[8] = { own_proto,     own_proto,      own_proto,	own_proto,
			       PPP_PROTO_LCP, PPP_PROTO_IPCP, PPP_PROTO_IPV6CP, 0x4021 };
	struct ppp_status st;
	size_t off = 1;

	if (size < 1)
		return 0;
	fuzz_setup(data[0] & 3, data[0] & 4);
	if ((data[0] & 3) == 1)
		protos[6] = PPP_PROTO_CHAP;
	fuzz_check();
	while (off + 2 <= size) {
		uint8_t flags = data[off + 1];
		size_t len = flags & 8 ? data[off] * 16u : data[off];

		off += 2;
		if (len > size - off)
			len = size - off;
		if (flags & 0x80) {
			h_now += (uint64_t)(flags & 0x7f) * 100;
			ppp_timer(&fuzz_side.ppp, h_now);
		}
		ppp_input(&fuzz_side.ppp, h_now, protos[flags & 7], data + off, len);
		off += len;
		fuzz_check();
	}
	/* Let every timer run out: the link must wind down cleanly. */
	for (int i = 0; i < 64 && ppp_deadline(&fuzz_side.ppp) != UINT64_MAX; i++) {
		uint64_t d = ppp_deadline(&fuzz_side.ppp);

		h_now = d > h_now ? d : h_now;
		ppp_timer(&fuzz_side.ppp, h_now);
		fuzz_check();
	}
	ppp_get_status(&fuzz_side.ppp, &st);
	ppp_destroy(&fuzz_side.ppp);
	return 0;
}

#endif
