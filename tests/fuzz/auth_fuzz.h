/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared body of fuzz_pap.c and fuzz_chap.c: a real peer and a real authenticator are
 * brought to a chosen state by a genuine exchange, then one of them (the target) gets
 * the fuzzer's frames while whatever either side sends is delivered to the other.
 *
 * Input: byte 0 selects the case:
 *	bit 0	 CHAP algorithm: 0 MD5, 1 MS-CHAPv2 (ignored for PAP)
 *	bit 1	 target: 0 the peer, 1 the authenticator
 *	bits 2-3 state: 0 not started, 1 started, 2 one packet exchanged, 3 finished
 *	bit 6	 the peer uses a wrong password
 * The rest is frames, each a 2-byte big-endian header (bit 15: send it as the other
 * auth protocol; bits 0-14: length) and that many bytes; a short tail is one last frame.
 * The clock advances 700 ms per frame and due timers run, so retransmissions and
 * timeouts are reached. Invariants: result() at most once per side, every packet sent
 * has a consistent Length, the deadline never lies in the past after a timer ran.
 */
#ifndef PXP_AUTH_FUZZ_H
#define PXP_AUTH_FUZZ_H

#include <stdint.h>
#include <stdlib.h>

#include "../unit/auth_harness.h"

static void fuzz_check_sent(const struct endpoint *e)
{
	for (size_t i = 0; i < e->n_out; i++) {
		const struct harness_pkt *p = &e->out[i];

		if (p->len < 4 || p->len > AUTH_PKT_MAX ||
		    ((size_t)p->data[2] << 8 | p->data[3]) != p->len)
			__builtin_trap();
	}
	if (e->results > 1)
		__builtin_trap();
}

static void fuzz_step(struct endpoint *peer, struct endpoint *server, uint64_t now)
{
	fuzz_check_sent(peer);
	fuzz_check_sent(server);
	pump(peer, server, now);
	fuzz_check_sent(peer);
	fuzz_check_sent(server);
}

static void fuzz_run_timer(struct endpoint *e, uint64_t now)
{
	if (auth_deadline(&e->auth) <= now) {
		auth_timer(&e->auth, now);
		if (auth_deadline(&e->auth) <= now)
			__builtin_trap();
	}
}

static int fuzz_auth(const uint8_t *data, size_t size, bool pap)
{
	static struct endpoint peer, server;
	enum ppp_auth_proto proto;
	struct endpoint *target, *first;
	uint16_t own_proto = pap ? PPP_PROTO_PAP : PPP_PROTO_CHAP;
	uint16_t other_proto = pap ? PPP_PROTO_CHAP : PPP_PROTO_PAP;
	unsigned int stage;
	uint64_t now = 0;
	size_t pos = 1;
	uint8_t sel;

	if (size < 1)
		return 0;
	sel = data[0];
	proto = pap ? PPP_AUTH_PAP : (sel & 1) ? PPP_AUTH_MSCHAPV2 : PPP_AUTH_CHAP_MD5;
	target = (sel & 2) ? &server : &peer;
	stage = (sel >> 2) & 3;
	if (endpoint_init(&peer, AUTH_ROLE_PEER, proto, "alice", (sel & 0x40) ? "wrong" : "s3cret",
			  3) ||
	    endpoint_init(&server, AUTH_ROLE_AUTHENTICATOR, proto, "bras", "", 3))
		__builtin_trap();
	server.users[0] = "alice";
	server.secrets[0] = "s3cret";
	server.next_random = 0x40;
	peer.next_random = 0x90;

	if (stage >= 1) {
		auth_start(&server.auth, now);
		auth_start(&peer.auth, now);
	}
	if (stage == 2) {
		/* PAP starts with the peer's request, CHAP with the server's challenge. */
		first = pap ? &peer : &server;
		deliver(first, first == &peer ? &server : &peer, now);
	}
	if (stage == 3)
		fuzz_step(&peer, &server, now);

	while (pos < size) {
		size_t len = size - pos;
		uint16_t proto_sent = own_proto;

		if (len >= 2) {
			uint16_t hdr = (uint16_t)(data[pos] << 8 | data[pos + 1]);

			pos += 2;
			proto_sent = (hdr & 0x8000) ? other_proto : own_proto;
			len = hdr & 0x7FFF;
			if (len > size - pos)
				len = size - pos;
		}
		now += 700;
		auth_input(&target->auth, now, proto_sent, data + pos, len);
		pos += len;
		fuzz_step(&peer, &server, now);
		fuzz_run_timer(&peer, now);
		fuzz_run_timer(&server, now);
		fuzz_step(&peer, &server, now);
	}
	auth_destroy(&peer.auth);
	auth_destroy(&server.auth);
	return 0;
}

#endif
