/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AF_XDP engine's per-frame transforms, in place inside a UMEM frame. They compose the
 * parsers and header writers the XDP programs use (bpf/lib/), so both modes agree on every
 * byte; what is left here is moving the frame start within the frame's headroom.
 *
 * A frame is (data, len) with `headroom` writable bytes before data. On success a transform
 * returns PXP_CNT__MAX and sets *delta (how far the frame start moved; negative = into the
 * headroom) and *new_len; otherwise it returns the reason to count the drop under.
 */
#ifndef PXP_ENGINE_XFORM_H
#define PXP_ENGINE_XFORM_H

#include <stdint.h>
#include <string.h>

#include "lib/pxp_encap.h"
#include "lib/pxp_mss.h"
#include "lib/pxp_parse.h"
#include "pxp_maps.h"

#define ENGINE_XFORM_OK PXP_CNT__MAX

/* WAN -> pxp0: strip Ethernet (+802.1Q) + PPPoE + PPP and any Ethernet padding. */
static inline enum pxp_counter engine_decap(const struct pxp_session *s, uint8_t *data,
					    uint32_t len, int32_t *delta, uint32_t *new_len)
{
	struct pxp_wan_frame f;
	uint8_t *eth;

	switch (pxp_parse_wan(data, data + len, s->vlan_tci, &f)) {
	case PXP_PARSE_DATA:
		break;
	case PXP_PARSE_DROP:
		return f.drop_reason;
	default:
		/* Not a data frame: the XDP program should have passed it to the stack. */
		return PXP_CNT_PASS;
	}
	if (f.key.session_id != s->session_id || memcmp(f.key.peer_mac, s->peer_mac, 6))
		return PXP_CNT_DROP_NO_SESSION;
	if (f.ip_len > s->mtu)
		return PXP_CNT_DROP_TOO_BIG;
	eth = data + f.l2_len - PXP_ETH_HLEN;
	if (pxp_write_decap_eth(eth, data + len, s, f.ppp_proto))
		return PXP_CNT_DROP_TRUNCATED;
	if (s->flags & PXP_SESSION_F_MSS_CLAMP)
		pxp_mss_clamp(eth + PXP_ETH_HLEN, eth + PXP_ETH_HLEN + f.ip_len, f.ppp_proto,
			      s->mtu);
	*delta = f.l2_len - PXP_ETH_HLEN;
	*new_len = PXP_ETH_HLEN + f.ip_len;
	return ENGINE_XFORM_OK;
}

/* pxp0 -> WAN: grow the frame into the headroom and write Ethernet (+802.1Q) + PPPoE + PPP. */
static inline enum pxp_counter engine_encap(const struct pxp_session *s, uint8_t *data,
					    uint32_t len, uint32_t headroom, int32_t *delta,
					    uint32_t *new_len)
{
	uint16_t growth = pxp_encap_growth(s);
	struct pxp_egress_frame f;
	uint8_t *end;

	if (pxp_parse_egress(data, data + len, &f) != PXP_PARSE_DATA)
		return f.drop_reason;
	if (f.ip_len > s->mtu)
		return PXP_CNT_DROP_TOO_BIG;
	if (headroom < growth)
		return PXP_CNT_DROP_ADJUST;
	end = data + PXP_ETH_HLEN + f.ip_len; /* drops padding */
	if (pxp_write_encap(data - growth, end, s, f.ppp_proto, f.ip_len))
		return PXP_CNT_DROP_TRUNCATED;
	if (s->flags & PXP_SESSION_F_MSS_CLAMP)
		pxp_mss_clamp(data + PXP_ETH_HLEN, end, f.ppp_proto, s->mtu);
	*delta = -(int32_t)growth;
	*new_len = growth + PXP_ETH_HLEN + f.ip_len;
	return ENGINE_XFORM_OK;
}

#endif
