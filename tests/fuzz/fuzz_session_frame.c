// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the control plane's PPPoE session-frame parser (pppoe/session_frame.c): any
 * bytes either parse into a payload inside the frame or are dropped with a named reason; a parsed
 * frame rebuilt from its fields parses back to the same fields.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "session_frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum session_drop_reason reason = SESSION_DROP_REASON_COUNT;
	struct session_frame f, g;
	uint8_t rebuilt[2048];
	int n;

	if (session_frame_parse(data, size, &f, &reason)) {
		if (reason >= SESSION_DROP_REASON_COUNT)
			abort();
		return 0;
	}
	if (f.payload < data || f.payload + f.payload_len > data + size)
		abort();
	n = session_frame_build(rebuilt, sizeof(rebuilt), f.dst, f.src, f.session_id, f.ppp_proto,
				f.payload, f.payload_len);
	if (n < 0)
		return 0; /* larger than any frame we send */
	if (session_frame_parse(rebuilt, (size_t)n, &g, &reason) || g.session_id != f.session_id ||
	    g.ppp_proto != f.ppp_proto || g.payload_len != f.payload_len ||
	    memcmp(g.payload, f.payload, f.payload_len))
		abort();
	return 0;
}
