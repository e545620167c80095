// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the --debug decoders (pppoe/ppp_decode.c) of PPP control packets
 * and of PPPoE discovery frames. Input: the PPP protocol (2 bytes, big-endian), then the
 * packet; the whole input is also taken as a discovery frame (Ethernet header on). The
 * decoders must never read past the input (ASan) nor write past the buffer; the text is
 * printable ASCII (every wire string escaped), ends inside the buffer, and never shows a
 * PAP password.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ppp_decode.h"
#include "ppp_numbers.h"
#include "pppoe_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool ends_with(const char *out, size_t n, const char *tail)
{
	size_t k = strlen(tail);

	return n >= k && !strcmp(out + n - k, tail);
}

/* pap_request: the text decodes a PAP Authenticate-Request (a Nak's message may say
 * anything, " user=" included, so the label decides, not the text). */
static void check_text(bool pap_request, const char *out, size_t cap)
{
	size_t n = strnlen(out, cap), i;

	if (n >= cap)
		abort();
	for (i = 0; i < n; i++)
		if (out[i] < ' ' || out[i] > '~')
			abort();
	/* A decoded request ends in the hidden password, is malformed, or is cut before it. */
	if (pap_request && !ends_with(out, n, " password=<hidden>]") &&
	    !ends_with(out, n, " <malformed>]") && !ends_with(out, n, "...]"))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Sizes that cut the text anywhere, and the one the daemon uses. */
	static const size_t caps[] = { 8, 21, 64, PPP_DECODE_MAX };
	char out[PPP_DECODE_MAX + 16];
	uint16_t proto;
	size_t i;

	if (size < 2)
		return 0;
	/* The control protocols most of the time, any protocol now and then. */
	proto = (uint16_t)(data[0] << 8 | data[1]);
	if (data[0] < 0xf0) {
		static const uint16_t known[] = { PPP_PROTO_LCP, PPP_PROTO_PAP, PPP_PROTO_CHAP,
						  PPP_PROTO_IPCP, PPP_PROTO_IPV6CP };

		proto = known[data[1] % 5];
	}
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		memset(out, 0x7f, sizeof(out));
		if (ppp_decode(proto, data + 2, size - 2, out, caps[i]))
			abort();
		check_text(proto == PPP_PROTO_PAP && size > 2 && data[2] == PAP_AUTH_REQ, out,
			   caps[i]);
		if ((unsigned char)out[caps[i]] != 0x7f)
			abort();
		memset(out, 0x7f, sizeof(out));
		if (pppoe_disc_decode(data, size, out, caps[i]))
			abort();
		check_text(false, out, caps[i]);
		if ((unsigned char)out[caps[i]] != 0x7f)
			abort();
	}
	return 0;
}
