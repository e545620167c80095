// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the WireGuard cookie reply consumer (wg-bridge/noise.c): A has sent
 * a handshake message to B (a fixed MAC1); any bytes as B's cookie reply either give A a
 * cookie or are refused with a named reason and give it none. Input: the message.
 */
#include <stdint.h>

#include "fuzz_wg_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum wg_drop d;

	fuzz_wg_setup();
	memset(fuzz_a_peer.last_mac1, 0x5d, WG_MAC_LEN);
	fuzz_a_peer.have_last_mac1 = true;
	d = wg_cookie_reply_consume(&fuzz_a_peer, data, size, FUZZ_WG_NOW_NS);
	if ((unsigned int)d >= WG_DROP_COUNT)
		abort();
	if ((d == WG_OK) != fuzz_a_peer.have_cookie)
		abort();
	/* One reply per message sent: the same one again is refused. */
	if (d == WG_OK &&
	    wg_cookie_reply_consume(&fuzz_a_peer, data, size, FUZZ_WG_NOW_NS) != WG_DROP_STATE)
		abort();
	return 0;
}
