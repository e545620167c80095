// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for WireGuard data messages (wg-bridge/noise.c): any bytes are checked
 * and decrypted in place under B's keys of a fixed handshake, refused with a named reason or
 * opened into a packet inside the message; and the same bytes as a packet, sealed by A,
 * open back to themselves (padded with zeros) under B's keys, sealed as the per-call cipher
 * seals. The keys are set up once, as the device sets up a session's (wg_data_seal/open).
 * Input: the message.
 */
#include <stdint.h>

#include "fuzz_wg_common.h"

static struct wg_transport_keys fuzz_ka, fuzz_kb;
static struct wg_aead_key fuzz_seal_a, fuzz_open_b;

static void fuzz_keys(void)
{
	static const uint8_t stamp[WG_TAI64N_LEN] = { 0x40, 0, 0, 0, 0x65 };
	struct wg_handshake ha = { 0 }, hb = { 0 };
	struct wg_msg_initiation init;
	struct wg_msg_response resp;
	static bool done;
	uint32_t n = 0;

	if (done)
		return;
	fuzz_wg_setup();
	if (wg_initiation_create(&init, &ha, &fuzz_a, &fuzz_a_peer, stamp, 1, fuzz_rng, &n, 0) ||
	    wg_initiation_consume(&hb, &fuzz_b, &init, sizeof(init), fuzz_lookup, NULL, NULL) ||
	    wg_response_create(&resp, &hb, &fuzz_b, 2, fuzz_rng, &n, 0) ||
	    wg_response_consume(&ha, &fuzz_a, &resp, sizeof(resp), NULL) ||
	    wg_transport_keys_derive(&fuzz_ka, &ha) || wg_transport_keys_derive(&fuzz_kb, &hb) ||
	    wg_aead_key_init(&fuzz_seal_a, fuzz_ka.send, true) ||
	    wg_aead_key_init(&fuzz_open_b, fuzz_kb.recv, false))
		abort();
	done = true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t msg[2048], out[2048 + 64], back[2048 + 64], want[2048 + 64];
	enum wg_message_type type;
	size_t len, padded;
	uint32_t receiver;
	uint64_t counter;
	enum wg_drop d;
	int n;

	if (size > sizeof(msg))
		return 0;
	fuzz_keys();
	memcpy(msg, data, size);
	d = wg_message_check(msg, size, &type);
	if (d == WG_OK && type == WG_MSG_DATA) {
		wg_data_header(msg, &receiver, &counter);
		d = wg_data_open(msg + sizeof(struct wg_msg_data), &len, msg, size, &fuzz_open_b);
		if ((unsigned int)d >= WG_DROP_COUNT)
			abort();
		if (d == WG_OK && len != size - WG_DATA_MIN_LEN)
			abort();
	}

	n = wg_data_seal(out, sizeof(out), data, size, 1420, fuzz_ka.remote_index, &fuzz_seal_a,
			 size);
	if (n < 0)
		abort();
	if (wg_message_check(out, (size_t)n, &type) || type != WG_MSG_DATA)
		abort();
	/* The sealed bytes are the per-call cipher's (test_wg_crypto checks it against libsodium).
	 */
	padded = (size_t)n - WG_DATA_MIN_LEN;
	memset(want, 0, padded);
	memcpy(want, data, size);
	if (wg_aead_encrypt(want, want, padded, NULL, 0, size, fuzz_ka.send) ||
	    memcmp(out + sizeof(struct wg_msg_data), want, padded + WG_AEAD_TAG_LEN))
		abort();
	wg_data_header(out, &receiver, &counter);
	if (receiver != fuzz_kb.local_index || counter != size)
		abort();
	if (wg_data_open(back, &len, out, (size_t)n, &fuzz_open_b) || len < size ||
	    memcmp(back, data, size))
		abort();
	for (; size < len; size++)
		if (back[size])
			abort();
	return 0;
}
