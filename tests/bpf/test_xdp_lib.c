// SPDX-License-Identifier: GPL-2.0
/*
 * The packet transforms of bpf/lib/ compiled with gcc, as the AF_XDP engine uses them, run
 * over the same table as the XDP programs (xdp_cases.h). The two small drivers below do
 * what bpf/xdp_wan.bpf.c and bpf/xdp_session.bpf.c do around the shared helpers, with
 * pointer moves inside a headroom buffer in place of bpf_xdp_adjust_head/tail. A case
 * passes when the verdict, the output bytes, the redirect target and the counter agree.
 */
#include <stdio.h>

#include "xdp_cases.h"
#include "lib/pxp_encap.h"
#include "lib/pxp_mss.h"
#include "lib/pxp_parse.h"

#define HEADROOM 256

struct result {
	int verdict;
	uint32_t redirect;
	uint32_t counters; /* bit per enum pxp_counter that moved */
	struct frame out;
};

static struct pxp_session session_of(const struct xdp_case *c)
{
	struct pxp_session s = {
		.session_id = htons(TEST_SID),
		.mtu = TEST_MTU,
		.wan_ifindex = WAN_IFINDEX,
		.peer_ifindex = PEER_IFINDEX,
		.vlan_tci = c->vlan_tci,
		.flags = PXP_SESSION_F_MSS_CLAMP,
	};

	memcpy(s.peer_mac, peer_mac, 6);
	memcpy(s.wan_mac, wan_mac, 6);
	memcpy(s.netdev_mac, netdev_mac, 6);
	memcpy(s.peer_netdev_mac, peer_netdev_mac, 6);
	return s;
}

static void count(struct result *r, enum pxp_counter what)
{
	r->counters |= 1u << what;
}

static void emit(struct result *r, const uint8_t *data, const uint8_t *end)
{
	r->out.len = (size_t)(end - data);
	memcpy(r->out.b, data, r->out.len);
}

static void run_wan(const struct xdp_case *c, uint8_t *data, uint8_t *end, struct result *r)
{
	struct pxp_session s = session_of(c);
	struct pxp_wan_frame f = { 0 };

	switch (pxp_parse_wan(data, end, c->vlan_tci, &f)) {
	case PXP_PARSE_DATA:
		break;
	case PXP_PARSE_DROP:
		count(r, f.drop_reason);
		r->verdict = XDP_DROP;
		return;
	default:
		count(r, PXP_CNT_PASS);
		r->verdict = XDP_PASS;
		emit(r, data, end);
		return;
	}
	if (f.key.session_id != s.session_id || memcmp(f.key.peer_mac, s.peer_mac, 6)) {
		count(r, PXP_CNT_PASS);
		r->verdict = XDP_PASS;
		emit(r, data, end);
		return;
	}
	if (f.ip_len > s.mtu) {
		count(r, PXP_CNT_DROP_TOO_BIG);
		r->verdict = XDP_DROP;
		return;
	}
	if (c->afxdp) {
		count(r, PXP_CNT_TO_XSK);
		r->redirect = XSK_REDIRECT_FLAG | WAN_XSK_BASE;
		r->verdict = XDP_PASS; /* no socket in the map: the program's fallback */
		emit(r, data, end);
		return;
	}
	end -= f.pad_len;
	data += f.l2_len - PXP_ETH_HLEN;
	if (pxp_write_decap_eth(data, end, &s, f.ppp_proto)) {
		count(r, PXP_CNT_DROP_TRUNCATED);
		r->verdict = XDP_DROP;
		return;
	}
	if (pxp_mss_clamp(data + PXP_ETH_HLEN, end, f.ppp_proto, s.mtu))
		count(r, PXP_CNT_MSS_CLAMPED);
	count(r, PXP_CNT_DECAP);
	r->redirect = s.peer_ifindex;
	r->verdict = XDP_REDIRECT;
	emit(r, data, end);
}

static void run_session(const struct xdp_case *c, uint8_t *data, uint8_t *end, struct result *r)
{
	struct pxp_session s = session_of(c);
	struct pxp_egress_frame f = { 0 };

	if (c->no_egress_record) {
		count(r, PXP_CNT_DROP_NO_SESSION);
		r->verdict = XDP_DROP;
		return;
	}
	if (pxp_parse_egress(data, end, &f) != PXP_PARSE_DATA) {
		count(r, f.drop_reason);
		r->verdict = XDP_DROP;
		return;
	}
	if (f.ip_len > s.mtu) {
		count(r, PXP_CNT_DROP_TOO_BIG);
		r->verdict = XDP_DROP;
		return;
	}
	if (c->afxdp) {
		count(r, PXP_CNT_TO_XSK);
		r->redirect = XSK_REDIRECT_FLAG | PEER_XSK_BASE;
		r->verdict = XDP_PASS;
		emit(r, data, end);
		return;
	}
	end -= f.pad_len;
	data -= pxp_encap_growth(&s);
	if (pxp_write_encap(data, end, &s, f.ppp_proto, f.ip_len)) {
		count(r, PXP_CNT_DROP_TRUNCATED);
		r->verdict = XDP_DROP;
		return;
	}
	if (pxp_mss_clamp(data + PXP_ETH_HLEN + pxp_encap_growth(&s), end, f.ppp_proto, s.mtu))
		count(r, PXP_CNT_MSS_CLAMPED);
	count(r, PXP_CNT_ENCAP);
	r->redirect = s.wan_ifindex;
	r->verdict = XDP_REDIRECT;
	emit(r, data, end);
}

static bool run_case(const struct xdp_case *c)
{
	static uint8_t buf[HEADROOM + FRAME_MAX];
	struct result r = { 0 };
	const struct frame *want;

	if (c->nr_cpus) {
		printf("SKIP lib/%s: cpumap hand-over is XDP-only\n", c->name);
		return true;
	}
	memset(buf, 0xa5, sizeof(buf));
	memcpy(buf + HEADROOM, c->in.b, c->in.len);
	if (c->prog == PROG_WAN)
		run_wan(c, buf + HEADROOM, buf + HEADROOM + c->in.len, &r);
	else
		run_session(c, buf + HEADROOM, buf + HEADROOM + c->in.len, &r);

	if (r.verdict != c->verdict) {
		printf("FAIL lib/%s: verdict %d, want %d\n", c->name, r.verdict, c->verdict);
		return false;
	}
	if (c->redirect && r.redirect != c->redirect) {
		printf("FAIL lib/%s: redirect %#x, want %#x\n", c->name, r.redirect, c->redirect);
		return false;
	}
	want = c->out.len ? &c->out : &c->in;
	if (c->verdict != XDP_DROP &&
	    (r.out.len != want->len || memcmp(r.out.b, want->b, want->len))) {
		printf("FAIL lib/%s: output frame differs (len %zu, want %zu)\n", c->name,
		       r.out.len, want->len);
		return false;
	}
	if (!(r.counters & (1u << c->counter))) {
		printf("FAIL lib/%s: counter %d did not move\n", c->name, c->counter);
		return false;
	}
	printf("PASS lib/%s\n", c->name);
	return true;
}

int main(void)
{
	int failed = 0;

	build_table();
	for (size_t i = 0; i < nr_cases; i++)
		failed += !run_case(&cases[i]);
	return failed ? 1 : 0;
}
