// SPDX-License-Identifier: GPL-2.0
/*
 * TUN offloads: superpackets split into segments, segments joined into superpackets
 * (tun_offload.h). The segmentation follows the kernel's tcp_gso_segment/__udp_gso_segment
 * (each segment's IP length and id, TCP sequence, FIN/PSH on the last only, CWR on the
 * first only); the coalescing follows tcp_gro_receive's rules in a simpler form: only the
 * pending flow, only in order, ACK (and a closing PSH) and nothing else among the flags.
 */
#include <arpa/inet.h>
#include <string.h>

#include "tun_offload.h"

#define IPPROTO_TCP_ 6
#define IPPROTO_UDP_ 17
#define TCP_FIN	     0x01
#define TCP_PSH	     0x08
#define TCP_ACK	     0x10
#define TCP_CWR	     0x80
#define TCP_CSUM_OFF 16
#define UDP_CSUM_OFF 6

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

uint16_t tun_csum_fold(const void *buf, size_t len, uint32_t initial)
{
	const uint8_t *b = buf;
	uint64_t acc = 0;
	uint16_t w;

	/* Summed in memory order as native words (one's complement sums commute with a byte
	 * swap), turned to network order once at the end. */
	for (; len >= 8; b += 8, len -= 8) {
		uint32_t x, y;

		memcpy(&x, b, 4);
		memcpy(&y, b + 4, 4);
		acc += (uint64_t)x + y;
	}
	for (; len >= 2; b += 2, len -= 2) {
		memcpy(&w, b, 2);
		acc += w;
	}
	if (len) {
		uint8_t last[2] = { b[0], 0 };

		memcpy(&w, last, 2);
		acc += w;
	}
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	acc = (uint64_t)ntohs((uint16_t)acc) + initial;
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return (uint16_t)acc;
}

/* The pseudo header's sum for an L4 segment of l4_len bytes behind the IP header ip. */
static uint16_t pseudo_sum(const uint8_t *ip, uint8_t proto, size_t l4_len)
{
	bool v4 = ip[0] >> 4 == 4;

	return tun_csum_fold(ip + (v4 ? 12 : 8), v4 ? 8 : 32, proto + (uint32_t)l4_len);
}

static void ipv4_csum_set(uint8_t *ip)
{
	put16(ip + 10, 0);
	put16(ip + 10, (uint16_t)~tun_csum_fold(ip, 20, 0));
}

/* A complete L4 checksum (the field at csum_off zeroed first); 0 is sent as 0xffff. */
static void l4_csum_set(uint8_t *ip, size_t iph_len, size_t len, uint8_t proto, size_t csum_off)
{
	uint16_t c;

	put16(ip + iph_len + csum_off, 0);
	c = (uint16_t)~tun_csum_fold(ip + iph_len, len - iph_len,
				     pseudo_sum(ip, proto, len - iph_len));
	put16(ip + iph_len + csum_off, c ? c : 0xffff);
}

/* A TCP header at l4 (l4_room bytes to the packet's end): its length, or 0 if it is none. */
static size_t tcp_hdr_len(const uint8_t *l4, size_t l4_room)
{
	size_t n;

	if (l4_room < 20)
		return 0;
	n = (size_t)(l4[12] >> 4) * 4;
	return n >= 20 && n <= l4_room ? n : 0;
}

enum tun_drop tun_gso_parse(struct tun_gso *g, const struct virtio_net_hdr *h, uint8_t *pkt,
			    size_t len, size_t max_seg)
{
	uint8_t type = h->gso_type, want, proto;
	size_t iph, l4h;

	*g = (struct tun_gso){ .type = VIRTIO_NET_HDR_GSO_NONE, .segs = 1, .len = len };
	if (type == VIRTIO_NET_HDR_GSO_NONE) {
		if (h->flags & VIRTIO_NET_HDR_F_NEEDS_CSUM) {
			size_t start = h->csum_start, at = start + h->csum_offset;
			uint16_t c;

			if (start >= len || at + 2 > len)
				return TUN_DROP_vnet_csum;
			/* The field holds the pseudo header's sum: fold it in with the rest. */
			c = (uint16_t)~tun_csum_fold(pkt + start, len - start, 0);
			put16(pkt + at, c ? c : 0xffff);
		}
		return len ? TUN_OK : TUN_DROP_vnet_short;
	}
	if (type != VIRTIO_NET_HDR_GSO_TCPV4 && type != VIRTIO_NET_HDR_GSO_TCPV6 &&
	    type != VIRTIO_NET_HDR_GSO_UDP_L4)
		return TUN_DROP_vnet_gso_type;
	if (!h->gso_size)
		return TUN_DROP_vnet_gso_size;
	if (h->hdr_len > len)
		return TUN_DROP_vnet_hdr_len;
	if (len < 20 || len > TUN_GSO_MAX)
		return TUN_DROP_gso_ip;
	if (pkt[0] >> 4 == 4) {
		if (type == VIRTIO_NET_HDR_GSO_TCPV6)
			return TUN_DROP_vnet_gso_type;
		/* No options, not a fragment, the length the read gave. */
		if ((pkt[0] & 15) != 5 || get16(pkt + 2) != len || get16(pkt + 6) & 0x3fff)
			return TUN_DROP_gso_ip;
		iph = 20;
		proto = pkt[9];
	} else if (pkt[0] >> 4 == 6) {
		if (type == VIRTIO_NET_HDR_GSO_TCPV4)
			return TUN_DROP_vnet_gso_type;
		if (len < 40 || 40 + (size_t)get16(pkt + 4) != len)
			return TUN_DROP_gso_ip;
		iph = 40;
		proto = pkt[6]; /* an extension header is not TCP or UDP: refused below */
	} else {
		return TUN_DROP_gso_ip;
	}
	want = type == VIRTIO_NET_HDR_GSO_UDP_L4 ? IPPROTO_UDP_ : IPPROTO_TCP_;
	if (proto != want)
		return TUN_DROP_gso_ip;
	if ((h->flags & VIRTIO_NET_HDR_F_NEEDS_CSUM) &&
	    (h->csum_start != iph ||
	     h->csum_offset != (want == IPPROTO_TCP_ ? TCP_CSUM_OFF : UDP_CSUM_OFF)))
		return TUN_DROP_vnet_csum;
	l4h = want == IPPROTO_TCP_ ? tcp_hdr_len(pkt + iph, len - iph) : (len >= iph + 8 ? 8 : 0);
	if (!l4h)
		return TUN_DROP_gso_l4;
	if (iph + l4h == len)
		return TUN_DROP_vnet_hdr_len;
	if (iph + l4h + h->gso_size > max_seg)
		return TUN_DROP_vnet_gso_size;
	g->segs = (unsigned int)((len - iph - l4h + h->gso_size - 1) / h->gso_size);
	if (g->segs > TUN_GSO_SEGS_MAX)
		return TUN_DROP_gso_segs;
	g->type = type;
	g->iph_len = (uint8_t)iph;
	g->hdr_len = (uint16_t)(iph + l4h);
	g->gso_size = h->gso_size;
	return TUN_OK;
}

size_t tun_gso_segment(const struct tun_gso *g, const uint8_t *pkt, unsigned int i, uint8_t *out)
{
	size_t off = g->hdr_len + (size_t)i * g->gso_size, pay, n;
	uint8_t *l4 = out + g->iph_len;

	if (g->type == VIRTIO_NET_HDR_GSO_NONE) {
		memcpy(out, pkt, g->len);
		return g->len;
	}
	pay = g->len - off < g->gso_size ? g->len - off : g->gso_size;
	n = g->hdr_len + pay;
	memcpy(out, pkt, g->hdr_len);
	memcpy(out + g->hdr_len, pkt + off, pay);
	if (g->iph_len == 20) {
		put16(out + 2, (uint16_t)n);
		put16(out + 4, (uint16_t)(get16(pkt + 4) + i));
		ipv4_csum_set(out);
	} else {
		put16(out + 4, (uint16_t)(n - 40));
	}
	if (g->type == VIRTIO_NET_HDR_GSO_UDP_L4) {
		put16(l4 + 4, (uint16_t)(n - g->iph_len));
		l4_csum_set(out, g->iph_len, n, IPPROTO_UDP_, UDP_CSUM_OFF);
		return n;
	}
	put32(l4 + 4, get32(l4 + 4) + (uint32_t)(i * g->gso_size));
	if (i + 1 < g->segs)
		l4[13] &= (uint8_t) ~(TCP_FIN | TCP_PSH);
	if (i)
		l4[13] &= (uint8_t)~TCP_CWR;
	l4_csum_set(out, g->iph_len, n, IPPROTO_TCP_, TCP_CSUM_OFF);
	return n;
}

void tun_gro_init(struct tun_gro *g)
{
	g->len = 0;
	g->held = NULL;
	g->coalesced = g->superpackets = 0;
}

/*
 * A TCP segment that may join a superpacket: IPv4 without options or fragments, or IPv6
 * with TCP next; payload; ACK and maybe PSH only; checksums right (the kernel takes a
 * coalesced packet's checksum as given, so a wrong one must not hide in it).
 */
static bool tcp_joinable(const uint8_t *p, size_t len, size_t *iph, size_t *hdr)
{
	size_t l4h;

	if (len >= 20 && p[0] == 0x45) {
		if (p[9] != IPPROTO_TCP_ || get16(p + 6) & 0x3fff || get16(p + 2) != len ||
		    tun_csum_fold(p, 20, 0) != 0xffff)
			return false;
		*iph = 20;
	} else if (len >= 40 && p[0] >> 4 == 6) {
		if (p[6] != IPPROTO_TCP_ || 40 + (size_t)get16(p + 4) != len)
			return false;
		*iph = 40;
	} else {
		return false;
	}
	l4h = tcp_hdr_len(p + *iph, len - *iph);
	if (!l4h || *iph + l4h == len || (p[*iph + 13] & ~TCP_PSH) != TCP_ACK)
		return false;
	*hdr = *iph + l4h;
	return tun_csum_fold(p + *iph, len - *iph, pseudo_sum(p, IPPROTO_TCP_, len - *iph)) ==
	       0xffff;
}

/* Same flow and IP header as the pending superpacket's first segment, and next in order. */
static bool tcp_follows(const struct tun_gro *g, const uint8_t *p, size_t iph, size_t hdr)
{
	const uint8_t *q = g->buf + TUN_VNET_LEN, *tq = q + iph, *tp = p + iph;

	if (iph != g->iph_len || hdr != g->hdr_len)
		return false;
	if (iph == 20) {
		/* TOS, TTL, DF, addresses */
		if (q[1] != p[1] || q[8] != p[8] || (q[6] ^ p[6]) & 0x40 ||
		    memcmp(q + 12, p + 12, 8))
			return false;
	} else if (memcmp(q, p, 4) || q[7] != p[7] || memcmp(q + 8, p + 8, 32)) {
		return false;
	}
	/* ports; the sequence; the ack; the options (timestamps included) */
	return !memcmp(tq, tp, 4) && get32(tp + 4) == g->next_seq && !memcmp(tq + 8, tp + 8, 4) &&
	       !memcmp(tq + 20, tp + 20, hdr - iph - 20);
}

/* pkt, checked (iph, hdr), as the first segment of a new superpacket. */
static void gro_begin(struct tun_gro *g, const uint8_t *pkt, size_t len, size_t iph, size_t hdr)
{
	size_t pay = len - hdr;

	memcpy(g->buf + TUN_VNET_LEN, pkt, len);
	g->len = len;
	g->segs = 1;
	g->gso_size = (uint16_t)pay;
	g->iph_len = (uint8_t)iph;
	g->hdr_len = (uint8_t)hdr;
	g->next_seq = get32(pkt + iph + 4) + (uint32_t)pay;
	g->closed = pkt[iph + 13] & TCP_PSH;
}

enum tun_gro_verdict tun_gro_add(struct tun_gro *g, const uint8_t *pkt, size_t len)
{
	uint8_t *q = g->buf + TUN_VNET_LEN;
	size_t iph, hdr, pay;

	g->held = NULL;
	/* An IPv6 length field allows 40 bytes more than a superpacket holds. */
	if (len > TUN_GSO_MAX || !tcp_joinable(pkt, len, &iph, &hdr))
		return TUN_GRO_ALONE;
	if (!g->len) {
		gro_begin(g, pkt, len, iph, hdr);
		return TUN_GRO_JOINED;
	}
	pay = len - hdr;
	if (g->closed || pay > g->gso_size || g->len + pay > TUN_GSO_MAX ||
	    !tcp_follows(g, pkt, iph, hdr)) {
		g->held = pkt;
		g->held_len = len;
		g->held_iph = (uint8_t)iph;
		g->held_hdr = (uint8_t)hdr;
		return TUN_GRO_FLUSH;
	}
	memcpy(q + g->len, pkt + hdr, pay);
	g->len += pay;
	g->segs++;
	g->next_seq += (uint32_t)pay;
	memcpy(q + iph + 14, pkt + iph + 14, 2); /* the latest window, as tcp_gro_receive */
	if (pkt[iph + 13] & TCP_PSH) {
		q[iph + 13] |= TCP_PSH;
		g->closed = true;
	}
	if (pay < g->gso_size)
		g->closed = true;
	return TUN_GRO_JOINED;
}

bool tun_gro_start(struct tun_gro *g)
{
	if (!g->held || g->len)
		return false;
	gro_begin(g, g->held, g->held_len, g->held_iph, g->held_hdr);
	g->held = NULL;
	return true;
}

size_t tun_gro_finish(struct tun_gro *g, const uint8_t **out)
{
	struct virtio_net_hdr h = { 0 };
	uint8_t *q = g->buf + TUN_VNET_LEN;
	size_t n = g->len;

	if (!n)
		return 0;
	if (g->segs > 1) {
		if (g->iph_len == 20) {
			put16(q + 2, (uint16_t)n);
			ipv4_csum_set(q);
		} else {
			put16(q + 4, (uint16_t)(n - 40));
		}
		/* NEEDS_CSUM: the field holds the pseudo header's sum, the kernel adds the rest. */
		put16(q + g->iph_len + TCP_CSUM_OFF, pseudo_sum(q, IPPROTO_TCP_, n - g->iph_len));
		h.flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
		h.gso_type = g->iph_len == 20 ? VIRTIO_NET_HDR_GSO_TCPV4 : VIRTIO_NET_HDR_GSO_TCPV6;
		h.hdr_len = g->hdr_len;
		h.gso_size = g->gso_size;
		h.csum_start = g->iph_len;
		h.csum_offset = TCP_CSUM_OFF;
		g->superpackets++;
		g->coalesced += g->segs;
	}
	memcpy(g->buf, &h, sizeof(h));
	*out = g->buf;
	g->len = 0;
	return TUN_VNET_LEN + n;
}
