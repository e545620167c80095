/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Header writers for both directions, plain C shared by the XDP programs and the AF_XDP
 * engine. The caller moves the frame start first (bpf_xdp_adjust_head, or a pointer inside
 * the UMEM headroom) and then has the new headers written in place.
 */
#ifndef PXP_ENCAP_H
#define PXP_ENCAP_H

#include "pxp_compat.h"
#include "pppoe_wire.h"
#include "pxp_maps.h"

/* Bytes encapsulation adds in front of the IP packet, replacing the 14-byte Ethernet header. */
static __always_inline __u16 pxp_encap_growth(const struct pxp_session *s)
{
	return PPPOE_SESSION_OVERHEAD + (s->vlan_tci ? PXP_VLAN_HLEN : 0);
}

/*
 * Decapsulation: data points PXP_ETH_HLEN bytes before the IP packet (the PPPoE, PPP and any
 * VLAN header already cut off). Writes the Ethernet header towards the session netdev.
 * Returns 0, or -1 if the frame is too short.
 */
static __always_inline int pxp_write_decap_eth(void *data, void *data_end,
					       const struct pxp_session *s, __u16 ppp_proto)
{
	struct pxp_ethhdr *eth = data;

	if ((void *)(eth + 1) > data_end)
		return -1;
	__builtin_memcpy(eth->dst, s->netdev_mac, PXP_ETH_ALEN);
	__builtin_memcpy(eth->src, s->peer_netdev_mac, PXP_ETH_ALEN);
	eth->proto =
		ppp_proto == PPP_PROTO_IPV4 ? bpf_htons(PXP_ETH_P_IP) : bpf_htons(PXP_ETH_P_IPV6);
	return 0;
}

/*
 * Encapsulation: data points pxp_encap_growth(s) bytes before the old Ethernet header.
 * Writes Ethernet (+802.1Q) + PPPoE + PPP for an IP packet of ip_len bytes.
 * Returns 0, or -1 if the frame is too short.
 */
static __always_inline int pxp_write_encap(void *data, void *data_end, const struct pxp_session *s,
					   __u16 ppp_proto, __u16 ip_len)
{
	struct pxp_ethhdr *eth = data;
	struct pppoe_session_hdr *ses;

	if ((void *)(eth + 1) > data_end)
		return -1;
	__builtin_memcpy(eth->dst, s->peer_mac, PXP_ETH_ALEN);
	__builtin_memcpy(eth->src, s->wan_mac, PXP_ETH_ALEN);
	if (s->vlan_tci) {
		struct pxp_vlanhdr *vlan = (void *)(eth + 1);

		if ((void *)(vlan + 1) > data_end)
			return -1;
		eth->proto = bpf_htons(PXP_ETH_P_8021Q);
		vlan->tci = bpf_htons(s->vlan_tci);
		vlan->proto = bpf_htons(PXP_ETH_P_PPP_SES);
		ses = (void *)(vlan + 1);
	} else {
		eth->proto = bpf_htons(PXP_ETH_P_PPP_SES);
		ses = (void *)(eth + 1);
	}
	if ((void *)(ses + 1) > data_end)
		return -1;
	ses->pppoe.ver_type = PPPOE_VER_TYPE;
	ses->pppoe.code = PPPOE_CODE_SESSION;
	ses->pppoe.session_id = s->session_id;
	ses->pppoe.length = bpf_htons(ip_len + sizeof(ses->ppp_proto));
	ses->ppp_proto = bpf_htons(ppp_proto);
	return 0;
}

#endif
