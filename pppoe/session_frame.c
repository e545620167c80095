// SPDX-License-Identifier: GPL-2.0
#include "session_frame.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#define SESSION_HDR_LEN (PXP_ETH_HLEN + PPPOE_SESSION_OVERHEAD)

int session_frame_parse(const void *frame, size_t len, struct session_frame *out,
			enum session_drop_reason *reason)
{
	const uint8_t *p = frame;
	struct pxp_ethhdr eth;
	struct pppoe_session_hdr h;
	size_t pppoe_len;

	if (len < SESSION_HDR_LEN) {
		*reason = SESSION_DROP_SHORT;
		return -EBADMSG;
	}
	memcpy(&eth, p, sizeof(eth));
	memcpy(&h, p + PXP_ETH_HLEN, sizeof(h));
	if (ntohs(eth.proto) != PXP_ETH_P_PPP_SES || h.pppoe.ver_type != PPPOE_VER_TYPE ||
	    h.pppoe.code != PPPOE_CODE_SESSION) {
		*reason = SESSION_DROP_HEADER;
		return -EBADMSG;
	}
	pppoe_len = ntohs(h.pppoe.length);
	if (pppoe_len < sizeof(h.ppp_proto) ||
	    pppoe_len > len - PXP_ETH_HLEN - sizeof(struct pppoe_hdr)) {
		*reason = SESSION_DROP_LENGTH;
		return -EBADMSG;
	}
	out->dst = p;
	out->src = p + PXP_ETH_ALEN;
	out->session_id = ntohs(h.pppoe.session_id);
	out->ppp_proto = ntohs(h.ppp_proto);
	out->payload = p + SESSION_HDR_LEN;
	out->payload_len = pppoe_len - sizeof(h.ppp_proto);
	return 0;
}

int session_frame_build(void *buf, size_t cap, const uint8_t *dst, const uint8_t *src,
			uint16_t session_id, uint16_t ppp_proto, const uint8_t *data, size_t len)
{
	struct pxp_ethhdr eth;
	struct pppoe_session_hdr h;
	uint8_t *p = buf;

	if (len > UINT16_MAX - sizeof(h.ppp_proto) || len > cap || cap - len < SESSION_HDR_LEN)
		return -EMSGSIZE;
	memcpy(eth.dst, dst, PXP_ETH_ALEN);
	memcpy(eth.src, src, PXP_ETH_ALEN);
	eth.proto = htons(PXP_ETH_P_PPP_SES);
	h.pppoe.ver_type = PPPOE_VER_TYPE;
	h.pppoe.code = PPPOE_CODE_SESSION;
	h.pppoe.session_id = htons(session_id);
	h.pppoe.length = htons((uint16_t)(len + sizeof(h.ppp_proto)));
	h.ppp_proto = htons(ppp_proto);
	memcpy(p, &eth, sizeof(eth));
	memcpy(p + PXP_ETH_HLEN, &h, sizeof(h));
	memcpy(p + SESSION_HDR_LEN, data, len);
	return (int)(SESSION_HDR_LEN + len);
}

const char *session_drop_reason_name(enum session_drop_reason reason)
{
	static const char *const names[SESSION_DROP_REASON_COUNT] = {
		[SESSION_DROP_SHORT] = "short",
		[SESSION_DROP_HEADER] = "header",
		[SESSION_DROP_LENGTH] = "length",
		[SESSION_DROP_DST_MAC] = "dst-mac",
		[SESSION_DROP_UNKNOWN] = "unknown-session",
	};

	return reason < SESSION_DROP_REASON_COUNT ? names[reason] : "unknown";
}
