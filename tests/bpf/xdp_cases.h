/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-packet decision, tested once: input frames, expected verdicts, output frames and
 * counters, run through the XDP programs under BPF_PROG_TEST_RUN (test_xdp_datapath.c) and
 * through the AF_XDP engine's own transforms, engine_decap/engine_encap
 * (test_xdp_engine.c). Where the engine legitimately differs, the case says so. Expected
 * frames are built from scratch here (checksums computed in full), never by the code under
 * test.
 */
#ifndef PXP_TEST_XDP_CASES_H
#define PXP_TEST_XDP_CASES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <arpa/inet.h>
#include <linux/bpf.h>

#include "pppoe_wire.h"
#include "../lib/test_session.h"
#include "pxp_maps.h"

#define FRAME_MAX	    2048
/* BPF_PROG_TEST_RUN needs a real device for ingress_ifindex: loopback. */
#define EGRESS_TEST_IFINDEX 1
#define XSK_REDIRECT_FLAG   0x80000000u
#define WAN_XSK_BASE	    0
#define PEER_XSK_BASE	    64

static const uint8_t other_mac[6] = { 0x02, 0xee, 0, 0, 0, 0x09 };

/*
 * pxp_xdp_cpu (the cpumap program) has no case here: BPF_PROG_TEST_RUN refuses cpumap
 * programs (-EINVAL); tests/netns/test_datapath.sh runs it for real.
 */
enum prog { PROG_WAN, PROG_SESSION };
#define CPU_REDIRECT_FLAG 0x40000000u

struct frame {
	uint8_t b[FRAME_MAX];
	size_t len;
};

struct xdp_case {
	const char *name;
	enum prog prog;
	struct frame in, out; /* out is compared when the verdict is XDP_REDIRECT or XDP_PASS */
	int verdict;
	uint32_t redirect;	  /* ifindex, or XSK_REDIRECT_FLAG | xsks_map key */
	enum pxp_counter counter; /* must grow by exactly one */
	uint16_t vlan_tci;	  /* WAN config and session record */
	bool afxdp;
	bool no_egress_record;
	bool xdp_pass;	   /* receive half xdp-pass (PXP_CFG_F_XDP_PASS) */
	uint16_t nr_cpus;  /* CPU spreading over this many cpumap entries */
	bool no_cpu_entry; /* ... with the cpumap left empty */
	/*
	 * The engine's transform ends as the program does (XDP_REDIRECT: out; XDP_DROP: the
	 * same reason; XDP_PASS: "not a data frame", PXP_CNT_PASS) unless one of these says:
	 */
	const char *xdp_only;	      /* the engine never runs this: why */
	const char *tc_only;	      /* only the tc programs run this: why */
	const char *xdp_not_tc;	      /* the tc programs are not run on this: why */
	uint32_t gso_size;	      /* tc: the skb is GSO with this segment size */
	enum pxp_counter engine_drop; /* the engine drops it (0: as the program) */
};

/* The session record both the programs (through their maps) and the engine are given. */
static struct pxp_session case_session(const struct xdp_case *c)
{
	return test_session(c->vlan_tci);
}

/* ---- frame builders ------------------------------------------------------------------ */

static void put(struct frame *f, const void *p, size_t n)
{
	memcpy(f->b + f->len, p, n);
	f->len += n;
}

static void put16(struct frame *f, uint16_t v)
{
	uint16_t be = htons(v);

	put(f, &be, 2);
}

static void put_eth(struct frame *f, const uint8_t *dst, const uint8_t *src, uint16_t proto)
{
	put(f, dst, 6);
	put(f, src, 6);
	put16(f, proto);
}

static void put_vlan(struct frame *f, const uint8_t *dst, const uint8_t *src, uint16_t tci,
		     uint16_t proto)
{
	put_eth(f, dst, src, PXP_ETH_P_8021Q);
	put16(f, tci);
	put16(f, proto);
}

static void put_pppoe(struct frame *f, uint16_t sid, uint16_t payload_len, uint16_t ppp_proto)
{
	uint8_t h[2] = { PPPOE_VER_TYPE, PPPOE_CODE_SESSION };

	put(f, h, 2);
	put16(f, sid);
	put16(f, payload_len);
	put16(f, ppp_proto);
}

static uint32_t sum16(const uint8_t *p, size_t n, uint32_t sum)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		sum += (uint32_t)(p[n - 1] << 8);
	return sum;
}

static uint16_t fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

struct l4_spec {
	uint8_t proto; /* 6 TCP, 17 UDP */
	uint8_t tcp_flags;
	const uint8_t *opts; /* TCP options, length a multiple of 4 */
	size_t opts_len;
	size_t payload_len;
};

/* The L4 segment with its checksum over the pseudo header sum ph. */
static size_t build_l4(uint8_t *l4, const struct l4_spec *s, uint32_t ph)
{
	size_t hlen, len;

	if (s->proto == 6) {
		hlen = 20 + s->opts_len;
		memset(l4, 0, hlen);
		l4[0] = 0x30, l4[1] = 0x39; /* 12345 */
		l4[2] = 0x00, l4[3] = 0x50; /* 80 */
		l4[7] = 1;
		l4[12] = (uint8_t)((hlen / 4) << 4);
		l4[13] = s->tcp_flags;
		l4[14] = 0xfa, l4[15] = 0xf0;
		memcpy(l4 + 20, s->opts, s->opts_len);
	} else {
		hlen = 8;
		memset(l4, 0, hlen);
		l4[0] = 0x30, l4[1] = 0x39;
		l4[2] = 0x13, l4[3] = 0x89;
	}
	len = hlen + s->payload_len;
	for (size_t i = 0; i < s->payload_len; i++)
		l4[hlen + i] = (uint8_t)(i * 7 + 1);
	if (s->proto == 17)
		l4[4] = (uint8_t)(len >> 8), l4[5] = (uint8_t)len;
	ph += s->proto + (uint32_t)len;
	uint16_t c = fold(sum16(l4, len, ph));
	size_t at = s->proto == 6 ? 16 : 6;
	l4[at] = (uint8_t)(c >> 8), l4[at + 1] = (uint8_t)c;
	return len;
}

/* Appends an IPv4 packet; returns its length. */
static size_t put_ipv4(struct frame *f, const struct l4_spec *s)
{
	uint8_t *ip = f->b + f->len;
	size_t len;

	memset(ip, 0, 20);
	ip[0] = 0x45;
	ip[6] = 0x40; /* DF */
	ip[8] = 64;
	ip[9] = s->proto;
	memcpy(ip + 12, (uint8_t[]){ 100, 64, 1, 2 }, 4);
	memcpy(ip + 16, (uint8_t[]){ 198, 51, 100, 2 }, 4);
	len = 20 + build_l4(ip + 20, s, sum16(ip + 12, 8, 0));
	ip[2] = (uint8_t)(len >> 8), ip[3] = (uint8_t)len;
	uint16_t c = fold(sum16(ip, 20, 0));
	ip[10] = (uint8_t)(c >> 8), ip[11] = (uint8_t)c;
	f->len += len;
	return len;
}

static size_t put_ipv6(struct frame *f, const struct l4_spec *s)
{
	uint8_t *ip6 = f->b + f->len;
	size_t plen;

	memset(ip6, 0, 40);
	ip6[0] = 0x60;
	ip6[6] = s->proto;
	ip6[7] = 64;
	memcpy(ip6 + 8, (uint8_t[]){ 0x20, 0x01, 0x0d, 0xb8, 0, 1 }, 6);
	ip6[23] = 2;
	memcpy(ip6 + 24, (uint8_t[]){ 0x20, 0x01, 0x0d, 0xb8, 0, 2 }, 6);
	ip6[39] = 2;
	plen = build_l4(ip6 + 40, s, sum16(ip6 + 8, 32, 0));
	ip6[4] = (uint8_t)(plen >> 8), ip6[5] = (uint8_t)plen;
	f->len += 40 + plen;
	return 40 + plen;
}

static size_t put_ip(struct frame *f, bool v6, const struct l4_spec *s)
{
	return v6 ? put_ipv6(f, s) : put_ipv4(f, s);
}

static uint16_t ppp_of(bool v6)
{
	return v6 ? PPP_PROTO_IPV6 : PPP_PROTO_IPV4;
}

static uint16_t eth_of(bool v6)
{
	return v6 ? PXP_ETH_P_IPV6 : PXP_ETH_P_IP;
}

/* The IP packet of spec s as a session frame from the peer (PPPoE length filled in). */
static void wan_frame(struct frame *f, bool v6, const struct l4_spec *s, uint16_t sid,
		      const uint8_t *src, uint16_t vlan_tci)
{
	size_t hdr, ip_len;

	if (vlan_tci)
		put_vlan(f, WAN_MAC, src, vlan_tci, PXP_ETH_P_PPP_SES);
	else
		put_eth(f, WAN_MAC, src, PXP_ETH_P_PPP_SES);
	hdr = f->len;
	put_pppoe(f, sid, 0, ppp_of(v6));
	ip_len = put_ip(f, v6, s);
	f->b[hdr + 4] = (uint8_t)((ip_len + 2) >> 8);
	f->b[hdr + 5] = (uint8_t)(ip_len + 2);
}

/* The same IP packet as it must come out towards pxp0. */
static void decap_frame(struct frame *f, bool v6, const struct l4_spec *s)
{
	put_eth(f, NETDEV_MAC, PEER_NETDEV_MAC, eth_of(v6));
	put_ip(f, v6, s);
}

/* An IP packet as the stack sends it out of pxp0. */
static void stack_frame(struct frame *f, bool v6, const struct l4_spec *s)
{
	put_eth(f, PEER_NETDEV_MAC, NETDEV_MAC, eth_of(v6));
	put_ip(f, v6, s);
}

/* ---- the table ----------------------------------------------------------------------- */

static const uint8_t opt_mss1460[] = { 2, 4, 0x05, 0xb4, 1, 1, 4, 2 };
static const uint8_t opt_mss1452[] = { 2, 4, 0x05, 0xac, 1, 1, 4, 2 };
static const uint8_t opt_mss1440[] = { 2, 4, 0x05, 0xa0, 1, 1, 4, 2 };
static const uint8_t opt_mss1432[] = { 2, 4, 0x05, 0x98, 1, 1, 4, 2 };
static const uint8_t opt_mss1400[] = { 2, 4, 0x05, 0x78, 1, 1, 4, 2 };
/* MSS at an odd offset inside the header: the checksum fix must swap bytes. */
static const uint8_t opt_odd1460[] = { 1, 2, 4, 0x05, 0xb4, 1, 1, 0 };
static const uint8_t opt_odd1452[] = { 1, 2, 4, 0x05, 0xac, 1, 1, 0 };
static const uint8_t opt_no_mss[] = { 1, 3, 3, 7, 4, 2, 1, 1 };

#define TCP_SYN 0x02
#define TCP_ACK 0x10
#define TCP(flags, o)                                                                \
	{                                                                            \
		.proto = 6, .tcp_flags = (flags), .opts = (o), .opts_len = sizeof(o) \
	}
#define UDP(n)                                  \
	{                                       \
		.proto = 17, .payload_len = (n) \
	}

static struct xdp_case cases[64];
static size_t nr_cases;

static struct xdp_case *add(const char *name, enum prog prog, int verdict, enum pxp_counter counter)
{
	struct xdp_case *c = &cases[nr_cases++];

	memset(c, 0, sizeof(*c));
	c->name = name;
	c->prog = prog;
	c->verdict = verdict;
	c->counter = counter;
	if (verdict == XDP_REDIRECT)
		c->redirect = prog == PROG_SESSION ? WAN_IFINDEX : PEER_IFINDEX;
	return c;
}

/* A WAN frame that must come out decapsulated, as the packet out_spec. */
static void add_decap(const char *name, bool v6, struct l4_spec in_spec, struct l4_spec out_spec,
		      enum pxp_counter counter)
{
	struct xdp_case *c = add(name, PROG_WAN, XDP_REDIRECT, counter);

	wan_frame(&c->in, v6, &in_spec, TEST_SID, PEER_MAC, 0);
	decap_frame(&c->out, v6, &out_spec);
}

static void add_encap(const char *name, bool v6, struct l4_spec in_spec, struct l4_spec out_spec,
		      enum pxp_counter counter)
{
	struct xdp_case *c = add(name, PROG_SESSION, XDP_REDIRECT, counter);

	stack_frame(&c->in, v6, &in_spec);
	wan_frame(&c->out, v6, &out_spec, TEST_SID, PEER_MAC, 0);
	/* wan_frame builds frames towards us: the encapsulated one goes the other way. */
	memcpy(c->out.b, PEER_MAC, 6);
	memcpy(c->out.b + 6, WAN_MAC, 6);
}

/* A case whose output must equal its input (passed untouched). */
static struct xdp_case *add_pass(const char *name, enum prog prog, enum pxp_counter counter)
{
	return add(name, prog, XDP_PASS, counter);
}

/* Why two cases have no tc run: the kernel refuses their input before the program runs. */
static const char skb_refuses_cut_ip[] =
	"BPF_PROG_TEST_RUN refuses an skb with an IP ethertype and a cut IP header (EINVAL)";

static void build_table(void)
{
	struct l4_spec udp = UDP(100), syn = TCP(TCP_SYN, opt_mss1460);
	struct xdp_case *c;

	add_decap("wan_ipv4_decap", false, udp, udp, PXP_CNT_DECAP);
	add_decap("wan_ipv6_decap", true, udp, udp, PXP_CNT_DECAP);
	add_decap("wan_mss_clamp_v4_syn", false, syn, (struct l4_spec)TCP(TCP_SYN, opt_mss1452),
		  PXP_CNT_MSS_CLAMPED);
	add_decap("wan_mss_clamp_v4_synack", false,
		  (struct l4_spec)TCP(TCP_SYN | TCP_ACK, opt_mss1460),
		  (struct l4_spec)TCP(TCP_SYN | TCP_ACK, opt_mss1452), PXP_CNT_MSS_CLAMPED);
	add_decap("wan_mss_clamp_v6_syn", true, syn, (struct l4_spec)TCP(TCP_SYN, opt_mss1432),
		  PXP_CNT_MSS_CLAMPED);
	add_decap("wan_mss_clamp_odd_offset", false, (struct l4_spec)TCP(TCP_SYN, opt_odd1460),
		  (struct l4_spec)TCP(TCP_SYN, opt_odd1452), PXP_CNT_MSS_CLAMPED);
	add_decap("wan_mss_syn_without_option", false, (struct l4_spec)TCP(TCP_SYN, opt_no_mss),
		  (struct l4_spec)TCP(TCP_SYN, opt_no_mss), PXP_CNT_DECAP);
	add_decap("wan_mss_non_syn_untouched", false, (struct l4_spec)TCP(TCP_ACK, opt_mss1460),
		  (struct l4_spec)TCP(TCP_ACK, opt_mss1460), PXP_CNT_DECAP);
	add_decap("wan_mss_already_small", false, (struct l4_spec)TCP(TCP_SYN, opt_mss1400),
		  (struct l4_spec)TCP(TCP_SYN, opt_mss1400), PXP_CNT_DECAP);
	add_decap("wan_mss_v6_at_limit_kept", true, (struct l4_spec)TCP(TCP_SYN, opt_mss1432),
		  (struct l4_spec)TCP(TCP_SYN, opt_mss1432), PXP_CNT_DECAP);

	c = add("wan_ethernet_padding_trimmed", PROG_WAN, XDP_REDIRECT, PXP_CNT_DECAP);
	wan_frame(&c->in, false, &(struct l4_spec)UDP(2), TEST_SID, PEER_MAC, 0);
	memset(c->in.b + c->in.len, 0, 60 - c->in.len);
	c->in.len = 60;
	decap_frame(&c->out, false, &(struct l4_spec)UDP(2));

	c = add("wan_vlan_decap", PROG_WAN, XDP_REDIRECT, PXP_CNT_DECAP);
	c->vlan_tci = (5 << 13) | 100;
	wan_frame(&c->in, false, &udp, TEST_SID, PEER_MAC, (3 << 13) | 100);
	decap_frame(&c->out, false, &udp);

	c = add_pass("wan_vlan_other_vid_passed", PROG_WAN, PXP_CNT_PASS);
	c->vlan_tci = 100;
	wan_frame(&c->in, false, &udp, TEST_SID, PEER_MAC, 200);

	c = add_pass("wan_untagged_on_vlan_wan_passed", PROG_WAN, PXP_CNT_PASS);
	c->vlan_tci = 100;
	wan_frame(&c->in, false, &udp, TEST_SID, PEER_MAC, 0);

	c = add_pass("wan_tagged_on_untagged_wan_passed", PROG_WAN, PXP_CNT_PASS);
	wan_frame(&c->in, false, &udp, TEST_SID, PEER_MAC, 100);

	/*
	 * Not our session: the program finds no record and leaves the frame to the control
	 * plane (PADT). The engine serves one session per socket; a frame for another one
	 * cannot be steered to it, and if it were, it drops it as no_session.
	 */
	c = add_pass("wan_wrong_session_passed", PROG_WAN, PXP_CNT_PASS);
	c->engine_drop = PXP_CNT_DROP_NO_SESSION;
	wan_frame(&c->in, false, &udp, TEST_SID + 1, PEER_MAC, 0);

	c = add_pass("wan_wrong_mac_passed", PROG_WAN, PXP_CNT_PASS);
	c->engine_drop = PXP_CNT_DROP_NO_SESSION;
	wan_frame(&c->in, false, &udp, TEST_SID, other_mac, 0);

	c = add_pass("wan_discovery_passed", PROG_WAN, PXP_CNT_PASS);
	put_eth(&c->in, WAN_MAC, PEER_MAC, PXP_ETH_P_PPP_DISC);
	put(&c->in, (uint8_t[]){ PPPOE_VER_TYPE, PPPOE_CODE_PADO, 0, 0, 0, 4, 0x01, 0x01, 0, 0 },
	    10);

	c = add_pass("wan_lcp_passed", PROG_WAN, PXP_CNT_PASS);
	put_eth(&c->in, WAN_MAC, PEER_MAC, PXP_ETH_P_PPP_SES);
	put_pppoe(&c->in, TEST_SID, 6, PPP_PROTO_LCP);
	put(&c->in, (uint8_t[]){ 9, 1, 0, 4 }, 4); /* echo request header */

	c = add_pass("wan_ipv4_ethertype_passed", PROG_WAN, PXP_CNT_PASS);
	put_eth(&c->in, WAN_MAC, PEER_MAC, PXP_ETH_P_IP);
	put_ipv4(&c->in, &udp);

	c = add("wan_truncated_pppoe_dropped", PROG_WAN, XDP_DROP, PXP_CNT_DROP_TRUNCATED);
	put_eth(&c->in, WAN_MAC, PEER_MAC, PXP_ETH_P_PPP_SES);
	put(&c->in, (uint8_t[]){ PPPOE_VER_TYPE, 0, 0x12, 0x34, 0 }, 5);

	c = add("wan_truncated_ipv4_dropped", PROG_WAN, XDP_DROP, PXP_CNT_DROP_TRUNCATED);
	put_eth(&c->in, WAN_MAC, PEER_MAC, PXP_ETH_P_PPP_SES);
	put_pppoe(&c->in, TEST_SID, 2 + 19, PPP_PROTO_IPV4);
	put(&c->in, (uint8_t[19]){ 0x45 }, 19);

	c = add("wan_truncated_ipv6_dropped", PROG_WAN, XDP_DROP, PXP_CNT_DROP_TRUNCATED);
	put_eth(&c->in, WAN_MAC, PEER_MAC, PXP_ETH_P_PPP_SES);
	put_pppoe(&c->in, TEST_SID, 2 + 39, PPP_PROTO_IPV6);
	put(&c->in, (uint8_t[39]){ 0x60 }, 39);

	c = add("wan_lying_pppoe_length_dropped", PROG_WAN, XDP_DROP, PXP_CNT_DROP_BAD_LENGTH);
	wan_frame(&c->in, false, &udp, TEST_SID, PEER_MAC, 0);
	c->in.b[18] = 0x05; /* length 0x05xx: far beyond the frame */

	c = add("wan_pppoe_length_below_ppp_dropped", PROG_WAN, XDP_DROP, PXP_CNT_DROP_BAD_LENGTH);
	wan_frame(&c->in, false, &udp, TEST_SID, PEER_MAC, 0);
	c->in.b[18] = 0, c->in.b[19] = 1;

	c = add("wan_oversize_dropped", PROG_WAN, XDP_DROP, PXP_CNT_DROP_TOO_BIG);
	wan_frame(&c->in, false, &(struct l4_spec)UDP(TEST_MTU + 1 - 28), TEST_SID, PEER_MAC, 0);

	c = add_pass("wan_afxdp_no_socket_passed", PROG_WAN, PXP_CNT_TO_XSK);
	c->afxdp = true;
	c->xdp_only = "steering to the engine's socket";
	c->xdp_not_tc = c->xdp_only;
	c->redirect = XSK_REDIRECT_FLAG | WAN_XSK_BASE;
	wan_frame(&c->in, false, &udp, TEST_SID, PEER_MAC, 0);

	add_encap("session_ipv4_encap", false, udp, udp, PXP_CNT_ENCAP);
	add_encap("session_ipv6_encap", true, udp, udp, PXP_CNT_ENCAP);
	add_encap("session_mss_clamp_v4_syn", false, syn, (struct l4_spec)TCP(TCP_SYN, opt_mss1452),
		  PXP_CNT_MSS_CLAMPED);
	add_encap("session_mss_clamp_v6_synack", true,
		  (struct l4_spec)TCP(TCP_SYN | TCP_ACK, opt_mss1440),
		  (struct l4_spec)TCP(TCP_SYN | TCP_ACK, opt_mss1432), PXP_CNT_MSS_CLAMPED);
	add_encap("session_mss_non_syn_untouched", false, (struct l4_spec)TCP(TCP_ACK, opt_mss1460),
		  (struct l4_spec)TCP(TCP_ACK, opt_mss1460), PXP_CNT_ENCAP);
	add_encap("session_max_size_encap", false, (struct l4_spec)UDP(TEST_MTU - 28),
		  (struct l4_spec)UDP(TEST_MTU - 28), PXP_CNT_ENCAP);

	c = add("session_vlan_encap_with_pcp", PROG_SESSION, XDP_REDIRECT, PXP_CNT_ENCAP);
	c->vlan_tci = (5 << 13) | 100;
	stack_frame(&c->in, false, &udp);
	put_vlan(&c->out, PEER_MAC, WAN_MAC, (5 << 13) | 100, PXP_ETH_P_PPP_SES);
	put_pppoe(&c->out, TEST_SID, (uint16_t)(c->in.len - 14 + 2), PPP_PROTO_IPV4);
	put_ipv4(&c->out, &udp);

	c = add("session_oversize_dropped", PROG_SESSION, XDP_DROP, PXP_CNT_DROP_TOO_BIG);
	stack_frame(&c->in, false, &(struct l4_spec)UDP(TEST_MTU + 1 - 28));

	c = add("session_not_ip_dropped", PROG_SESSION, XDP_DROP, PXP_CNT_DROP_NOT_IP);
	put_eth(&c->in, PEER_NETDEV_MAC, NETDEV_MAC, 0x0806);
	put(&c->in, (uint8_t[28]){ 0, 1, 8, 0, 6, 4, 0, 1 }, 28);

	c = add("session_truncated_ip_dropped", PROG_SESSION, XDP_DROP, PXP_CNT_DROP_TRUNCATED);
	c->xdp_not_tc = skb_refuses_cut_ip;
	put_eth(&c->in, PEER_NETDEV_MAC, NETDEV_MAC, PXP_ETH_P_IP);
	put(&c->in, (uint8_t[10]){ 0x45 }, 10);

	c = add("session_truncated_ipv6_dropped", PROG_SESSION, XDP_DROP, PXP_CNT_DROP_TRUNCATED);
	c->xdp_not_tc = skb_refuses_cut_ip;
	put_eth(&c->in, PEER_NETDEV_MAC, NETDEV_MAC, PXP_ETH_P_IPV6);
	put(&c->in, (uint8_t[39]){ 0x60 }, 39);

	c = add("session_lying_ip_length_dropped", PROG_SESSION, XDP_DROP, PXP_CNT_DROP_BAD_LENGTH);
	stack_frame(&c->in, false, &udp);
	c->in.b[14 + 2] = 0x04; /* total length 0x04xx */

	/* Mode tc: pxp0's transmit segments GSO skbs before the program; one still GSO would
	 * leave as a superpacket. */
	c = add("session_tc_gso_dropped", PROG_SESSION, XDP_DROP, PXP_CNT_DROP_TOO_BIG);
	c->tc_only = "GSO skbs exist only for the tc programs";
	c->xdp_only = c->tc_only;
	c->gso_size = 1400;
	stack_frame(&c->in, false, &udp);

	c = add("session_no_record_dropped", PROG_SESSION, XDP_DROP, PXP_CNT_DROP_NO_SESSION);
	c->no_egress_record = true;
	c->xdp_only = "the engine's peer socket belongs to its session: no record to miss";
	stack_frame(&c->in, false, &udp);

	c = add_pass("session_afxdp_no_socket_passed", PROG_SESSION, PXP_CNT_TO_XSK);
	c->afxdp = true;
	c->xdp_only = "steering to the engine's socket";
	c->xdp_not_tc = c->xdp_only;
	c->redirect = XSK_REDIRECT_FLAG | PEER_XSK_BASE;
	stack_frame(&c->in, false, &udp);

	/* Software RSS: the decapsulated frame goes to a CPU with the peer's ifindex in its
	 * metadata (output frames of BPF_PROG_TEST_RUN start at the metadata). */
	const uint32_t meta = PEER_IFINDEX; /* host order, as the program stores it */

	c = add("wan_cpu_spread", PROG_WAN, XDP_REDIRECT, PXP_CNT_DECAP);
	c->nr_cpus = 1;
	c->xdp_only = "cpumap hand-over";
	c->xdp_not_tc = c->xdp_only;
	c->redirect = CPU_REDIRECT_FLAG | 0;
	wan_frame(&c->in, false, &udp, TEST_SID, PEER_MAC, 0);
	put(&c->out, &meta, sizeof(meta));
	decap_frame(&c->out, false, &udp);

	/* Receive half xdp-pass: decapsulated, passed to the stack with the session key in front.
	 */
	struct pxp_pass_meta pass_meta = {
		.magic = PXP_PASS_MAGIC,
		.key = { .session_id = htons(TEST_SID) },
	};

	memcpy(pass_meta.key.peer_mac, PEER_MAC, 6);

	c = add("wan_xdp_pass_to_tc", PROG_WAN, XDP_PASS, PXP_CNT_DECAP);
	c->xdp_pass = true;
	c->xdp_only = "the stack's GRO and tc take over from the XDP program";
	c->xdp_not_tc = c->xdp_only;
	wan_frame(&c->in, false, &udp, TEST_SID, PEER_MAC, 0);
	put(&c->out, &pass_meta, sizeof(pass_meta));
	decap_frame(&c->out, false, &udp);

	c = add("wan_cpu_spread_no_entry_delivers_here", PROG_WAN, XDP_REDIRECT,
		PXP_CNT_CPU_FALLBACK);
	c->nr_cpus = 1;
	c->xdp_only = "cpumap hand-over";
	c->xdp_not_tc = c->xdp_only;
	c->no_cpu_entry = true;
	wan_frame(&c->in, true, &udp, TEST_SID, PEER_MAC, 0);
	put(&c->out, &meta, sizeof(meta));
	decap_frame(&c->out, true, &udp);
}

#endif
