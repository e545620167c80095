// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the WireGuard response consumer (wg-bridge/noise.c): A has sent an
 * initiation to B (the same one every run); any bytes as the answer are refused with a named
 * reason, with no DH for those refused before it and the handshake left waiting, or complete
 * it into transport keys. Input: the flags byte of fuzz_wg_common.h, then the message.
 */
#include <stdint.h>

#include "fuzz_wg_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wg_cookie_ctx load = { &fuzz_checker,  fuzz_src, sizeof(fuzz_src),
				      FUZZ_WG_NOW_NS, fuzz_rng, NULL };
	static const uint8_t stamp[WG_TAI64N_LEN] = { 0x40, 0, 0, 0, 0x65 };
	uint8_t msg[FUZZ_WG_MAX];
	struct wg_msg_initiation init;
	struct wg_handshake hs = { 0 };
	struct wg_transport_keys keys;
	uint32_t n = 0;
	enum wg_drop d;
	uint64_t dh;

	if (size < 1 || size - 1 > sizeof(msg))
		return 0;
	fuzz_wg_setup();
	load.rng_ctx = &n;
	if (wg_initiation_create(&init, &hs, &fuzz_a, &fuzz_a_peer, stamp, 0x01020304, fuzz_rng, &n,
				 FUZZ_WG_NOW_NS))
		abort();
	memcpy(msg, data + 1, size - 1);
	fuzz_wg_remac(msg, size - 1, data[0], &fuzz_a);
	dh = fuzz_a.dh_count;
	d = wg_response_consume(&hs, &fuzz_a, msg, size - 1, data[0] & FUZZ_WG_LOAD ? &load : NULL);
	if ((unsigned int)d >= WG_DROP_COUNT)
		abort();
	if (fuzz_wg_before_dh(d) && fuzz_a.dh_count != dh)
		abort();
	if (d != WG_OK) {
		if (hs.state != WG_HS_INITIATION_CREATED || hs.local_index != 0x01020304)
			abort();
	} else if (wg_transport_keys_derive(&keys, &hs) || !keys.initiator) {
		abort();
	}
	wg_handshake_clear(&hs);
	return 0;
}
