/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PPPoE and PPP wire formats (RFC 2516, RFC 1661), shared by the BPF programs and
 * userspace. Fixed-width big-endian fields only; every struct is size-checked.
 */
#ifndef PXP_PPPOE_WIRE_H
#define PXP_PPPOE_WIRE_H

#include <linux/types.h>

#define PXP_ETH_ALEN  6
#define PXP_ETH_HLEN  14
#define PXP_VLAN_HLEN 4

#define PXP_ETH_P_IP	   0x0800
#define PXP_ETH_P_IPV6	   0x86DD
#define PXP_ETH_P_8021Q	   0x8100
#define PXP_ETH_P_8021AD   0x88A8
#define PXP_ETH_P_PPP_DISC 0x8863
#define PXP_ETH_P_PPP_SES  0x8864

/* PPPoE version 1, type 1, packed into the first header byte. */
#define PPPOE_VER_TYPE 0x11

/* Discovery codes (RFC 2516 section 5). Code 0 is a session frame. */
#define PPPOE_CODE_SESSION 0x00
#define PPPOE_CODE_PADI	   0x09
#define PPPOE_CODE_PADO	   0x07
#define PPPOE_CODE_PADR	   0x19
#define PPPOE_CODE_PADS	   0x65
#define PPPOE_CODE_PADT	   0xA7

/* Discovery tags (RFC 2516 appendix A, RFC 4638). */
#define PPPOE_TAG_END_OF_LIST	     0x0000
#define PPPOE_TAG_SERVICE_NAME	     0x0101
#define PPPOE_TAG_AC_NAME	     0x0102
#define PPPOE_TAG_HOST_UNIQ	     0x0103
#define PPPOE_TAG_AC_COOKIE	     0x0104
#define PPPOE_TAG_VENDOR_SPECIFIC    0x0105
#define PPPOE_TAG_RELAY_SESSION_ID   0x0110
#define PPPOE_TAG_PPP_MAX_PAYLOAD    0x0120
#define PPPOE_TAG_SERVICE_NAME_ERROR 0x0201
#define PPPOE_TAG_AC_SYSTEM_ERROR    0x0202
#define PPPOE_TAG_GENERIC_ERROR	     0x0203

/* PPP protocol numbers carried in session frames. */
#define PPP_PROTO_IPV4	 0x0021
#define PPP_PROTO_IPV6	 0x0057
#define PPP_PROTO_IPCP	 0x8021
#define PPP_PROTO_IPV6CP 0x8057
#define PPP_PROTO_LCP	 0xC021
#define PPP_PROTO_PAP	 0xC023
#define PPP_PROTO_CHAP	 0xC223

/* The largest PPPoE payload on a 1500-byte Ethernet MTU: 1500 - 6 (PPPoE) - 2 (PPP). */
#define PPPOE_DEFAULT_MRU      1492
/* PPPoE header plus the PPP protocol field: what a session frame adds to an IP packet. */
#define PPPOE_SESSION_OVERHEAD 8

struct pxp_ethhdr {
	__u8 dst[PXP_ETH_ALEN];
	__u8 src[PXP_ETH_ALEN];
	__be16 proto;
} __attribute__((packed));

struct pxp_vlanhdr {
	__be16 tci;
	__be16 proto;
} __attribute__((packed));

struct pppoe_hdr {
	__u8 ver_type;
	__u8 code;
	__be16 session_id;
	__be16 length; /* payload bytes after this header */
} __attribute__((packed));

struct pppoe_tag_hdr {
	__be16 type;
	__be16 length;
} __attribute__((packed));

/* A session frame's PPPoE header followed by the PPP protocol field. */
struct pppoe_session_hdr {
	struct pppoe_hdr pppoe;
	__be16 ppp_proto;
} __attribute__((packed));

_Static_assert(sizeof(struct pxp_ethhdr) == 14, "ethhdr is 14 bytes");
_Static_assert(sizeof(struct pxp_vlanhdr) == 4, "vlanhdr is 4 bytes");
_Static_assert(sizeof(struct pppoe_hdr) == 6, "pppoe_hdr is 6 bytes");
_Static_assert(sizeof(struct pppoe_tag_hdr) == 4, "tag header is 4 bytes");
_Static_assert(sizeof(struct pppoe_session_hdr) == PPPOE_SESSION_OVERHEAD,
	       "session header is 8 bytes");

#endif
