/* SPDX-License-Identifier: GPL-2.0 */
/*
 * WireGuard's four messages on the wire (whitepaper section 5.4; wireguard.com/protocol).
 * Multi-byte integers are little-endian (the *_le fields); the first 4 bytes are the type
 * as a 32-bit little-endian number, so the three reserved bytes after the type byte are zero.
 */
#ifndef PXP_WG_MESSAGES_H
#define PXP_WG_MESSAGES_H

#include <stdint.h>

#include "wg_crypto.h"

enum wg_message_type {
	WG_MSG_INITIATION = 1,
	WG_MSG_RESPONSE = 2,
	WG_MSG_COOKIE_REPLY = 3,
	WG_MSG_DATA = 4,
};

struct wg_msg_header {
	uint32_t type_le; /* one of wg_message_type; the upper 24 bits (reserved) zero */
} __attribute__((packed));

/* The two MACs every handshake message ends with. */
struct wg_msg_macs {
	uint8_t mac1[WG_MAC_LEN]; /* MAC(HASH("mac1----" || receiver's static), msg up to here) */
	uint8_t mac2[WG_MAC_LEN]; /* MAC(cookie, msg up to here), or zeros without a cookie */
} __attribute__((packed));

struct wg_msg_initiation {
	struct wg_msg_header header;
	uint32_t sender_le;
	uint8_t ephemeral[WG_KEY_LEN];
	uint8_t encrypted_static[WG_KEY_LEN + WG_AEAD_TAG_LEN];
	uint8_t encrypted_timestamp[WG_TAI64N_LEN + WG_AEAD_TAG_LEN];
	struct wg_msg_macs macs;
} __attribute__((packed));

struct wg_msg_response {
	struct wg_msg_header header;
	uint32_t sender_le;
	uint32_t receiver_le;
	uint8_t ephemeral[WG_KEY_LEN];
	uint8_t encrypted_nothing[WG_AEAD_TAG_LEN];
	struct wg_msg_macs macs;
} __attribute__((packed));

struct wg_msg_cookie_reply {
	struct wg_msg_header header;
	uint32_t receiver_le;
	uint8_t nonce[WG_XNONCE_LEN];
	uint8_t encrypted_cookie[WG_MAC_LEN + WG_AEAD_TAG_LEN];
} __attribute__((packed));

/* A data message: this header, then the encrypted packet (padded to 16) and its tag. */
struct wg_msg_data {
	struct wg_msg_header header;
	uint32_t receiver_le;
	uint64_t counter_le;
	uint8_t encrypted[];
} __attribute__((packed));

_Static_assert(sizeof(struct wg_msg_initiation) == 148, "initiation is 148 bytes");
_Static_assert(sizeof(struct wg_msg_response) == 92, "response is 92 bytes");
_Static_assert(sizeof(struct wg_msg_cookie_reply) == 64, "cookie reply is 64 bytes");
_Static_assert(sizeof(struct wg_msg_data) == 16, "data header is 16 bytes");

/* The smallest data message: a keepalive, an empty packet and its tag. */
#define WG_DATA_MIN_LEN (sizeof(struct wg_msg_data) + WG_AEAD_TAG_LEN)
/* Data packets are padded to a multiple of this, but never past the MTU. */
#define WG_DATA_PAD	16

#endif
