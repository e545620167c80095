/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsers of the two kinds of frames the data path handles: PPPoE session frames arriving on
 * the WAN port and IP frames the stack sends out of the session netdev. Plain C over
 * (data, data_end), shared by the XDP programs and the AF_XDP engine. Every field is
 * bounds-checked: frames are hostile.
 */
#ifndef PXP_PARSE_H
#define PXP_PARSE_H

#include "pxp_compat.h"
#include "pppoe_wire.h"
#include "pxp_maps.h"

/* Verdicts of the parsers; a drop carries its reason in frame->drop_reason. */
enum pxp_parse_verdict {
	PXP_PARSE_DATA, /* an IPv4/IPv6 data frame for the data path */
	PXP_PARSE_PASS, /* not ours (discovery, control, other VLAN): leave it to the stack */
	PXP_PARSE_DROP, /* malformed */
};

/* A PPPoE session data frame as parsed on the WAN. */
struct pxp_wan_frame {
	struct pxp_session_key key; /* session id and the sender's MAC */
	__u16 l2_len;	 /* Ethernet (+802.1Q) + PPPoE + PPP bytes before the IP packet */
	__u16 ppp_proto; /* host order: PPP_PROTO_IPV4 or PPP_PROTO_IPV6 */
	__u16 ip_len;	 /* IP bytes, from the PPPoE length field */
	__u16 pad_len;	 /* bytes after the PPPoE payload (Ethernet padding) */
	enum pxp_counter drop_reason;
};

/*
 * Parse a WAN frame of frame_len bytes whose first (data_end - data) bytes are readable at
 * data (an skb's linear part; the whole frame for XDP and the engine). vlan_tci (host order)
 * is the WAN's tag: 0 takes untagged frames only, otherwise only frames tagged with the
 * same VID. Headers are read within data_end; lengths are checked against frame_len.
 */
static __always_inline enum pxp_parse_verdict pxp_parse_wan_len(void *data, void *data_end,
								__u32 frame_len, __u16 vlan_tci,
								struct pxp_wan_frame *f)
{
	struct pxp_ethhdr *eth = data;
	struct pppoe_session_hdr *ses;
	__u16 payload, proto;
	__u16 l2 = PXP_ETH_HLEN;
	__u32 avail;

	if ((void *)(eth + 1) > data_end)
		return PXP_PARSE_PASS; /* not even Ethernet: nothing we could own */
	proto = bpf_ntohs(eth->proto);
	if (proto == PXP_ETH_P_8021Q) {
		struct pxp_vlanhdr *vlan = (void *)(eth + 1);

		if ((void *)(vlan + 1) > data_end)
			return PXP_PARSE_PASS;
		if (!vlan_tci || (bpf_ntohs(vlan->tci) & 0x0fff) != (vlan_tci & 0x0fff))
			return PXP_PARSE_PASS;
		proto = bpf_ntohs(vlan->proto);
		l2 += PXP_VLAN_HLEN;
	} else if (vlan_tci) {
		return PXP_PARSE_PASS;
	}
	if (proto != PXP_ETH_P_PPP_SES)
		return PXP_PARSE_PASS;

	ses = data + l2;
	if ((void *)(ses + 1) > data_end) {
		f->drop_reason = PXP_CNT_DROP_TRUNCATED;
		return PXP_PARSE_DROP;
	}
	if (ses->pppoe.ver_type != PPPOE_VER_TYPE || ses->pppoe.code != PPPOE_CODE_SESSION)
		return PXP_PARSE_PASS;

	payload = bpf_ntohs(ses->pppoe.length);
	if (frame_len < (__u32)(data_end - data))
		frame_len = (__u32)(data_end - data); /* a caller's lie cannot hide bytes */
	avail = frame_len - l2 - sizeof(struct pppoe_hdr);
	if (payload > avail || payload < sizeof(ses->ppp_proto)) {
		f->drop_reason = PXP_CNT_DROP_BAD_LENGTH;
		return PXP_PARSE_DROP;
	}
	proto = bpf_ntohs(ses->ppp_proto);
	if (proto != PPP_PROTO_IPV4 && proto != PPP_PROTO_IPV6)
		return PXP_PARSE_PASS; /* LCP, IPCP, auth...: the control plane's */

	/* An IP header cut short: the stack would drop it too, but uncounted. */
	if (payload - sizeof(ses->ppp_proto) < (proto == PPP_PROTO_IPV4 ? 20 : 40)) {
		f->drop_reason = PXP_CNT_DROP_TRUNCATED;
		return PXP_PARSE_DROP;
	}

	f->key.session_id = ses->pppoe.session_id;
	__builtin_memcpy(f->key.peer_mac, eth->src, PXP_ETH_ALEN);
	f->l2_len = l2 + sizeof(*ses);
	f->ppp_proto = proto;
	f->ip_len = payload - sizeof(ses->ppp_proto);
	f->pad_len = (__u16)(avail - payload > 0xffff ? 0xffff : avail - payload);
	return PXP_PARSE_DATA;
}

static __always_inline enum pxp_parse_verdict pxp_parse_wan(void *data, void *data_end,
							    __u16 vlan_tci, struct pxp_wan_frame *f)
{
	return pxp_parse_wan_len(data, data_end, (__u32)(data_end - data), vlan_tci, f);
}

/* An IP frame the stack sent out of the session netdev. */
struct pxp_egress_frame {
	__u16 ppp_proto; /* host order */
	__u16 ip_len;	 /* from the IP header */
	__u16 pad_len;	 /* bytes after the IP packet */
	enum pxp_counter drop_reason;
};

/* Parse an egress frame of frame_len bytes, (data_end - data) of them readable at data. */
static __always_inline enum pxp_parse_verdict
pxp_parse_egress_len(void *data, void *data_end, __u32 frame_len, struct pxp_egress_frame *f)
{
	struct pxp_ethhdr *eth = data;
	void *l3 = eth + 1;
	__u32 avail;
	__u16 ip_len;

	if (l3 > data_end) {
		f->drop_reason = PXP_CNT_DROP_TRUNCATED;
		return PXP_PARSE_DROP;
	}
	if (frame_len < (__u32)(data_end - data))
		frame_len = (__u32)(data_end - data);
	avail = frame_len - PXP_ETH_HLEN;
	if (eth->proto == bpf_htons(PXP_ETH_P_IP)) {
		__u8 *ip = l3;

		if (l3 + 20 > data_end) {
			f->drop_reason = PXP_CNT_DROP_TRUNCATED;
			return PXP_PARSE_DROP;
		}
		ip_len = (__u16)(ip[2] << 8 | ip[3]);
		if (ip_len < 20)
			ip_len = 0xffff; /* a lie: caught as bad length below */
		f->ppp_proto = PPP_PROTO_IPV4;
	} else if (eth->proto == bpf_htons(PXP_ETH_P_IPV6)) {
		__u8 *ip6 = l3;

		if (l3 + 40 > data_end) {
			f->drop_reason = PXP_CNT_DROP_TRUNCATED;
			return PXP_PARSE_DROP;
		}
		ip_len = (__u16)(ip6[4] << 8 | ip6[5]);
		ip_len = ip_len > 0xffff - 40 ? 0xffff : ip_len + 40;
		f->ppp_proto = PPP_PROTO_IPV6;
	} else {
		f->drop_reason = PXP_CNT_DROP_NOT_IP;
		return PXP_PARSE_DROP;
	}
	if (ip_len > avail) {
		f->drop_reason = PXP_CNT_DROP_BAD_LENGTH;
		return PXP_PARSE_DROP;
	}
	f->ip_len = ip_len;
	f->pad_len = (__u16)(avail - ip_len > 0xffff ? 0xffff : avail - ip_len);
	return PXP_PARSE_DATA;
}

static __always_inline enum pxp_parse_verdict pxp_parse_egress(void *data, void *data_end,
							       struct pxp_egress_frame *f)
{
	return pxp_parse_egress_len(data, data_end, (__u32)(data_end - data), f);
}

#endif
