// SPDX-License-Identifier: GPL-2.0
/*
 * The AF_XDP engine's in-place decap and encap (user/datapath/engine/engine_xform.h, built on the
 * same bpf/lib parsers as the XDP programs) on arbitrary frames: whatever the bytes, the result
 * must stay inside the buffer and its headroom. The first input bytes pick the session.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine_xform.h"

#define HEADROOM  256
#define FRAME_MAX 4096

static void check_result(enum pxp_counter verdict, int32_t delta, uint32_t new_len, uint32_t len,
			 uint32_t headroom)
{
	if (verdict != ENGINE_XFORM_OK)
		return;
	/* The new frame starts at data + delta and must lie in [buffer start, data + len). */
	if (delta < -(int32_t)headroom || delta > (int32_t)len)
		abort();
	if ((uint64_t)(delta + (int64_t)headroom) + new_len > headroom + (uint64_t)len)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	static uint8_t buf[HEADROOM + FRAME_MAX];
	struct pxp_session s = { 0 };
	uint32_t new_len, len;
	int32_t delta;

	if (size < 4)
		return 0;
	s.session_id = (__be16)(in[0] << 8 | in[1]);
	s.mtu = 576 + (in[2] & 0x7f) * 8;
	s.flags = (in[3] & 1) ? PXP_SESSION_F_MSS_CLAMP : 0;
	s.vlan_tci = (in[3] & 2) ? 7 : 0;
	/* The session's peer MAC is the frame's source, so the lookup can match. */
	if (size >= 16)
		memcpy(s.peer_mac, in + 4 + 6, 6);
	in += 4;
	size -= 4;
	len = size > FRAME_MAX ? FRAME_MAX : (uint32_t)size;

	memcpy(buf + HEADROOM, in, len);
	delta = 0;
	new_len = 0;
	check_result(engine_decap(&s, buf + HEADROOM, len, &delta, &new_len), delta, new_len, len,
		     HEADROOM);

	memcpy(buf + HEADROOM, in, len);
	delta = 0;
	new_len = 0;
	check_result(engine_encap(&s, buf + HEADROOM, len, HEADROOM, &delta, &new_len), delta,
		     new_len, len, HEADROOM);
	return 0;
}
