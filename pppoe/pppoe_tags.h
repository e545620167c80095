/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PPPoE discovery frame codec (RFC 2516 section 5 and appendix A, RFC 4638).
 *
 * The parser turns an Ethernet frame (destination MAC first, ethertype 0x8863, no
 * VLAN tag: the daemon reads from the VLAN netdev) into bounds-checked views of the
 * tags. Views point into the caller's buffer and live as long as it does. The builder
 * writes frames into a bounded caller buffer. Neither allocates, logs nor reads clocks.
 */
#ifndef PXP_PPPOE_TAGS_H
#define PXP_PPPOE_TAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pppoe_wire.h"

/* Discovery frames never exceed a 1500-byte Ethernet MTU (RFC 4638 section 4). */
#define PPPOE_DISC_FRAME_MAX (PXP_ETH_HLEN + 1500)
#define PPPOE_DISC_HDR_LEN   (PXP_ETH_HLEN + (int)sizeof(struct pppoe_hdr))
/* Service-Name tags kept per frame; a PADO may list several services. */
#define PPPOE_MAX_SERVICES   8

/* Why a frame was dropped. Indexes the drop counters of the discovery cores. */
enum pppoe_drop_reason {
	/* Codec: malformed frames. */
	PPPOE_DROP_SHORT,	/* shorter than Ethernet + PPPoE headers */
	PPPOE_DROP_ETHERTYPE,	/* not 0x8863 */
	PPPOE_DROP_VER_TYPE,	/* PPPoE version/type is not 1/1 */
	PPPOE_DROP_LENGTH,	/* PPPoE length runs past the frame */
	PPPOE_DROP_TAG_OVERRUN, /* a tag runs past the PPPoE payload */
	PPPOE_DROP_DUP_TAG,	/* a tag that must be unique appears twice */
	PPPOE_DROP_TAG_LEN,	/* PPP-Max-Payload tag not 2 bytes long */
	/* Protocol: well-formed but unwanted frames. */
	PPPOE_DROP_SRC_MAC,	    /* multicast or zero source MAC */
	PPPOE_DROP_DST_MAC,	    /* unicast to another station */
	PPPOE_DROP_CODE,	    /* code not expected by this side/state */
	PPPOE_DROP_SESSION_ID,	    /* session id not what the code requires */
	PPPOE_DROP_HOST_UNIQ,	    /* Host-Uniq missing or not ours */
	PPPOE_DROP_SERVICE,	    /* Service-Name missing or not wanted/offered */
	PPPOE_DROP_AC_NAME,	    /* AC-Name does not match the filter */
	PPPOE_DROP_AC_MAC,	    /* AC MAC does not match the filter / our AC */
	PPPOE_DROP_ERROR_TAG,	    /* PADO carrying an error tag */
	PPPOE_DROP_PADT_FOREIGN,    /* PADT for another session or from another MAC */
	PPPOE_DROP_COOKIE,	    /* AC-Cookie missing, wrong, tampered or expired */
	PPPOE_DROP_RATE_LIMIT,	    /* PADI/PADR over the token-bucket rate */
	PPPOE_DROP_NO_SESSION_SLOT, /* max sessions reached */
	PPPOE_DROP_TOO_LONG,	    /* a tag too long to keep (Host-Uniq, cookie) */
	PPPOE_DROP_DUP_AC,	    /* discover mode: AC already reported or table full */
	PPPOE_DROP_REASON_COUNT
};

/* Short stable name of a drop reason for `status`, e.g. "host-uniq". */
const char *pppoe_drop_reason_name(enum pppoe_drop_reason reason);

/* A tag value inside the parsed frame. present is false when the tag was absent. */
struct pppoe_tag_view {
	const uint8_t *data;
	uint16_t len;
	bool present;
};

struct pppoe_disc_frame {
	uint8_t dst[PXP_ETH_ALEN];
	uint8_t src[PXP_ETH_ALEN];
	uint8_t code;
	uint16_t session_id; /* host order */
	/* First Service-Name, and all of them (up to PPPOE_MAX_SERVICES). */
	struct pppoe_tag_view service_name;
	struct pppoe_tag_view services[PPPOE_MAX_SERVICES];
	unsigned int service_count; /* kept in services[] */
	unsigned int service_total; /* seen in the frame, may exceed the array */
	struct pppoe_tag_view ac_name;
	struct pppoe_tag_view host_uniq;
	struct pppoe_tag_view ac_cookie;
	struct pppoe_tag_view relay_session_id;
	bool has_max_payload;
	uint16_t max_payload; /* RFC 4638 PPP-Max-Payload, host order */
	struct pppoe_tag_view service_name_error;
	struct pppoe_tag_view ac_system_error;
	struct pppoe_tag_view generic_error;
};

/*
 * Parses a discovery frame. Returns 0, or -EBADMSG with *reason (if not NULL) set.
 * Bytes after the PPPoE payload (Ethernet padding) are ignored; an End-Of-List tag
 * ends the tag list. Duplicates of AC-Name, Host-Uniq, AC-Cookie, Relay-Session-Id and
 * PPP-Max-Payload are rejected; Service-Name may repeat (a PADO lists services).
 */
int pppoe_disc_parse(const void *frame, size_t len, struct pppoe_disc_frame *out,
		     enum pppoe_drop_reason *reason);

/* Frame builder with a sticky error: add tags, then finish to learn the length. */
struct pppoe_builder {
	uint8_t *buf;
	size_t cap;
	size_t len;
	int err; /* first error (-EMSGSIZE, -EINVAL), 0 if none */
};

/* Starts a frame with Ethernet and PPPoE headers. src/dst are 6-byte MACs. */
void pppoe_build_begin(struct pppoe_builder *b, void *buf, size_t cap, const uint8_t *dst,
		       const uint8_t *src, uint8_t code, uint16_t session_id);
void pppoe_build_tag(struct pppoe_builder *b, uint16_t type, const void *value, size_t len);
void pppoe_build_tag_u16(struct pppoe_builder *b, uint16_t type, uint16_t value);
/* Writes the PPPoE length. Returns the frame length or the first -errno. */
int pppoe_build_finish(struct pppoe_builder *b);

/*
 * RFC 4638: the PPP-Max-Payload to ask for on a WAN link with this Ethernet MTU:
 * mtu - 8 (1500 on a 1508 MTU), or 0 (do not ask) when that is no more than 1492.
 */
uint16_t pppoe_max_payload_for_mtu(unsigned int wan_mtu);

extern const uint8_t pppoe_broadcast_mac[PXP_ETH_ALEN];

/* True for a MAC a station may send from: not multicast/broadcast, not all-zero. */
bool pppoe_mac_is_unicast(const uint8_t *mac);

/* Copies a configured name (NULL = "") into dst[size]; -ENAMETOOLONG if it does not fit. */
int pppoe_copy_name(char *dst, size_t size, const char *src);

/* Copies a tag into a NUL-terminated printable string ('?' for other bytes). */
void pppoe_tag_to_string(const struct pppoe_tag_view *tag, char *out, size_t out_size);

#endif
