// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the WireGuard initiation consumer (wg-bridge/noise.c): any bytes are
 * refused with a named reason or accepted for the one configured peer; what is refused
 * before the DH steps (size, type, reserved bytes, MAC1, MAC2) ran no DH, and a refusal leaves
 * the handshake untouched. Input: the flags byte of fuzz_wg_common.h, then the message.
 */
#include <stdint.h>

#include "fuzz_wg_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wg_cookie_ctx load = { &fuzz_checker,  fuzz_src, sizeof(fuzz_src),
				      FUZZ_WG_NOW_NS, fuzz_rng, NULL };
	uint8_t msg[FUZZ_WG_MAX];
	struct wg_handshake hs = { 0 };
	struct wg_msg_response resp;
	uint32_t n = 0;
	enum wg_drop d;
	uint64_t dh;

	if (size < 1 || size - 1 > sizeof(msg))
		return 0;
	fuzz_wg_setup();
	load.rng_ctx = &n;
	memcpy(msg, data + 1, size - 1);
	fuzz_wg_remac(msg, size - 1, data[0], &fuzz_b);
	dh = fuzz_b.dh_count;
	d = wg_initiation_consume(&hs, &fuzz_b, msg, size - 1, fuzz_lookup, NULL,
				  data[0] & FUZZ_WG_LOAD ? &load : NULL);
	if ((unsigned int)d >= WG_DROP_COUNT || !wg_drop_name(d))
		abort();
	if (fuzz_wg_before_dh(d) && fuzz_b.dh_count != dh)
		abort();
	if (d != WG_OK) {
		if (hs.state != WG_HS_NONE || hs.peer)
			abort();
		return 0;
	}
	if (hs.state != WG_HS_INITIATION_CONSUMED || hs.peer != &fuzz_b_peer)
		abort();
	/* An accepted initiation is answerable. */
	if (wg_response_create(&resp, &hs, &fuzz_b, 1, fuzz_rng, &n, FUZZ_WG_NOW_NS))
		abort();
	wg_handshake_clear(&hs);
	return 0;
}
