/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PPPoE session frames (RFC 2516 section 6) as the control plane sees them: the PPP
 * control packets of a session, received on the raw socket and sent from the PPP cores.
 * Pure: no sockets, no logging. Malformed frames are reported by reason so the caller
 * counts them.
 */
#ifndef PXP_SESSION_FRAME_H
#define PXP_SESSION_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "pppoe_wire.h"

enum session_drop_reason {
	SESSION_DROP_SHORT,   /* shorter than Ethernet + PPPoE + PPP protocol */
	SESSION_DROP_HEADER,  /* not version/type 1/1, code 0 or ethertype 0x8864 */
	SESSION_DROP_LENGTH,  /* PPPoE length runs past the frame or below 2 */
	SESSION_DROP_DST_MAC, /* unicast to another station */
	SESSION_DROP_UNKNOWN, /* no session with this id and source MAC */
	SESSION_DROP_REASON_COUNT
};

struct session_frame {
	const uint8_t *dst, *src; /* into the frame */
	uint16_t session_id;
	uint16_t ppp_proto;
	const uint8_t *payload; /* the PPP information field */
	size_t payload_len;
};

/* Returns 0, or -EBADMSG with *reason set. Ethernet padding past the length is ignored. */
int session_frame_parse(const void *frame, size_t len, struct session_frame *out,
			enum session_drop_reason *reason);
/* Builds a session frame; returns its length or -EMSGSIZE. */
int session_frame_build(void *buf, size_t cap, const uint8_t *dst, const uint8_t *src,
			uint16_t session_id, uint16_t ppp_proto, const uint8_t *data, size_t len);
const char *session_drop_reason_name(enum session_drop_reason reason);

#endif
