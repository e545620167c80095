// SPDX-License-Identifier: GPL-2.0
/*
 * The packet code shared by the XDP programs and the AF_XDP engine (bpf/lib/) on
 * arbitrary frames: parse, decap header rewrite, encap, MSS clamp and flow hash must stay
 * inside the exact-size buffer whatever the bytes say. The tc programs parse an skb whose
 * linear part may be shorter than the frame (pxp_parse_*_len): the same bytes are parsed
 * again with only a prefix readable, and the verdict and lengths must not change unless the
 * prefix cuts a header the parser has to read.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "lib/pxp_parse.h"
#include "lib/pxp_encap.h"
#include "lib/pxp_mss.h"
#include "lib/pxp_hash.h"

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t n)
{
	uint8_t *buf = malloc(64 + n + 1);
	uint8_t *data = buf + 64, *end = data + n;
	struct pxp_session s = { .mtu = 1492, .vlan_tci = n & 1 ? 100 : 0, .flags = 1 };
	struct pxp_wan_frame f = { 0 };
	struct pxp_egress_frame e = { 0 };

	memcpy(data, in, n);
	if (pxp_parse_wan(data, end, n & 2 ? 100 : 0, &f) == PXP_PARSE_DATA) {
		uint8_t *d = data + f.l2_len - PXP_ETH_HLEN, *t = end - f.pad_len;
		if (t - d < PXP_ETH_HLEN + f.ip_len)
			abort();
		pxp_write_decap_eth(d, t, &s, f.ppp_proto);
		pxp_mss_clamp(d + PXP_ETH_HLEN, t, f.ppp_proto, s.mtu);
		pxp_flow_hash(d + PXP_ETH_HLEN, t, f.ppp_proto);
	}
	memcpy(data, in, n);
	if (pxp_parse_egress(data, end, &e) == PXP_PARSE_DATA) {
		uint8_t *t = end - e.pad_len, *d = data - pxp_encap_growth(&s);
		if (t - data != PXP_ETH_HLEN + e.ip_len)
			abort();
		if (pxp_write_encap(d, t, &s, e.ppp_proto, e.ip_len))
			abort();
		pxp_mss_clamp(d + PXP_ETH_HLEN + pxp_encap_growth(&s), t, e.ppp_proto, s.mtu);
	}
	/* A readable prefix (the input's first byte picks its length) of the whole frame. */
	if (n) {
		size_t lin = in[0] % (n + 1);
		struct pxp_wan_frame fl = { 0 };
		struct pxp_egress_frame el = { 0 };
		uint8_t *pre = malloc(lin + 1); /* exactly the prefix: reads past it trip ASan */
		enum pxp_parse_verdict v, vl;

		memcpy(data, in, n);
		memcpy(pre, in, lin);
		v = pxp_parse_wan(data, end, n & 2 ? 100 : 0, &f);
		vl = pxp_parse_wan_len(pre, pre + lin, (uint32_t)n, n & 2 ? 100 : 0, &fl);
		if (v == PXP_PARSE_DATA && vl == PXP_PARSE_DATA &&
		    (fl.ip_len != f.ip_len || fl.pad_len != f.pad_len || fl.l2_len != f.l2_len))
			abort();
		if (vl == PXP_PARSE_DATA && v != PXP_PARSE_DATA)
			abort(); /* a shorter view never makes a frame acceptable */
		v = pxp_parse_egress(data, end, &e);
		vl = pxp_parse_egress_len(pre, pre + lin, (uint32_t)n, &el);
		if (v == PXP_PARSE_DATA && vl == PXP_PARSE_DATA &&
		    (el.ip_len != e.ip_len || el.pad_len != e.pad_len))
			abort();
		if (vl == PXP_PARSE_DATA && v != PXP_PARSE_DATA)
			abort();
		free(pre);
	}
	free(buf);
	return 0;
}
