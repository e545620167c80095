// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for WireGuard data messages (wg-bridge/noise.c): any bytes are checked
 * and decrypted in place under B's keys of a fixed handshake, refused with a named reason or
 * opened into a packet inside the message; and the same bytes as a packet, encrypted by A,
 * open back to themselves (padded with zeros) under B's keys. The keyed ciphers the device
 * uses (wg_data_seal/open, set up once) give the same verdicts and bytes. Input: the message.
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
	uint8_t msg[2048], msg2[2048], out[2048 + 64], out2[2048 + 64], back[2048 + 64];
	enum wg_message_type type;
	size_t len;
	uint32_t receiver;
	uint64_t counter;
	enum wg_drop d;
	int n;

	if (size > sizeof(msg))
		return 0;
	fuzz_keys();
	memcpy(msg, data, size);
	memcpy(msg2, data, size);
	d = wg_message_check(msg, size, &type);
	if (d == WG_OK && type == WG_MSG_DATA) {
		size_t len2;

		wg_data_header(msg, &receiver, &counter);
		d = wg_data_decrypt(msg + sizeof(struct wg_msg_data), &len, msg, size, &fuzz_kb);
		if ((unsigned int)d >= WG_DROP_COUNT)
			abort();
		if (d == WG_OK && len != size - WG_DATA_MIN_LEN)
			abort();
		if (wg_data_open(msg2 + sizeof(struct wg_msg_data), &len2, msg2, size,
				 &fuzz_open_b) != d ||
		    (d == WG_OK && (len2 != len || memcmp(msg, msg2, size))))
			abort();
	}

	n = wg_data_encrypt(out, sizeof(out), data, size, 1420, &fuzz_ka, size);
	if (n < 0)
		abort();
	if (wg_data_seal(out2, sizeof(out2), data, size, 1420, fuzz_ka.remote_index, &fuzz_seal_a,
			 size) != n ||
	    memcmp(out, out2, (size_t)n))
		abort();
	if (wg_message_check(out, (size_t)n, &type) || type != WG_MSG_DATA)
		abort();
	wg_data_header(out, &receiver, &counter);
	if (receiver != fuzz_kb.local_index || counter != size)
		abort();
	if (wg_data_decrypt(back, &len, out, (size_t)n, &fuzz_kb) || len < size ||
	    memcmp(back, data, size))
		abort();
	for (; size < len; size++)
		if (back[size])
			abort();
	return 0;
}
