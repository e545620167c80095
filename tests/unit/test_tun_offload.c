// SPDX-License-Identifier: GPL-2.0
/*
 * TUN offloads (wg-bridge/tun_offload.c): superpackets as the kernel hands them over
 * (IPv4 and IPv6 TCP with timestamps, UDP) split into segments whose checksums an
 * independent RFC 1071 sum verifies, and the TCP segments coalesced back into the very bytes
 * they came from; the coalescer's refusals; hostile vnet headers, each refused by name.
 */
#include <stdlib.h>

#include "check.h"
#include "tun_offload.h"

#define MSS 1368

/* RFC 1071 by the book, a byte pair at a time: the check the code under test must pass. */
static uint32_t ref_sum(const uint8_t *b, size_t len, uint32_t acc)
{
	for (size_t i = 0; i + 1 < len; i += 2)
		acc += (uint32_t)(b[i] << 8 | b[i + 1]);
	if (len & 1)
		acc += (uint32_t)b[len - 1] << 8;
	return acc;
}

static uint16_t ref_fold(uint32_t acc)
{
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return (uint16_t)acc;
}

/* The sum of the pseudo header and the L4 bytes: 0xffff when its checksum is right. */
static uint16_t ref_l4(const uint8_t *ip, size_t len)
{
	bool v4 = ip[0] >> 4 == 4;
	size_t iph = v4 ? 20 : 40;
	uint32_t acc = ref_sum(ip + (v4 ? 12 : 8), v4 ? 8 : 32, 0);

	acc += (uint32_t)(v4 ? ip[9] : ip[6]) + (uint32_t)(len - iph);
	return ref_fold(ref_sum(ip + iph, len - iph, acc));
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void set16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint8_t sp[TUN_GSO_MAX], seg[TUN_GSO_SEGS_MAX][2048];
static size_t seg_len[TUN_GSO_SEGS_MAX];
static struct tun_gro gro;

/*
 * A superpacket as TSO hands it to the TUN: IPv4 (id 0x1234, DF, TTL 64) or IPv6, TCP
 * with a 12-byte timestamp option, ACK|PSH, payload bytes i*7, the TCP checksum field the
 * pseudo header's sum (NEEDS_CSUM). Its length; *h filled.
 */
static size_t make_tcp(bool v6, size_t payload, uint8_t flags, struct virtio_net_hdr *h)
{
	size_t iph = v6 ? 40 : 20, len = iph + 32 + payload;
	uint8_t *t = sp + iph;

	memset(sp, 0, iph + 32);
	if (v6) {
		sp[0] = 0x60;
		set16(sp + 4, (uint32_t)(len - 40));
		sp[6] = 6;
		sp[7] = 64;
		for (int i = 0; i < 16; i++)
			sp[8 + i] = (uint8_t)(0x20 + i), sp[24 + i] = (uint8_t)(0x40 + i);
	} else {
		sp[0] = 0x45;
		set16(sp + 2, (uint32_t)len);
		set16(sp + 4, 0x1234);
		sp[6] = 0x40;
		sp[8] = 64;
		sp[9] = 6;
		memcpy(sp + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
		set16(sp + 10, (uint16_t)~ref_fold(ref_sum(sp, 20, 0)));
	}
	set16(t, 40000);
	set16(t + 2, 5201);
	memcpy(t + 4, "\xff\xff\xf0\x00", 4); /* the sequence wraps inside the superpacket */
	memcpy(t + 8, "\x00\x00\x10\x00", 4);
	t[12] = 8 << 4;
	t[13] = flags;
	set16(t + 14, 502);
	memcpy(t + 20, "\x01\x01\x08\x0a\x00\x00\x00\x07\x00\x00\x00\x09", 12);
	for (size_t i = 0; i < payload; i++)
		sp[iph + 32 + i] = (uint8_t)(i * 7);
	{
		uint32_t acc =
			ref_sum(sp + (v6 ? 8 : 12), v6 ? 32 : 8, 0) + 6 + (uint32_t)(len - iph);

		set16(t + 16, ref_fold(acc));
	}
	*h = (struct virtio_net_hdr){ .flags = VIRTIO_NET_HDR_F_NEEDS_CSUM,
				      .gso_type = v6 ? VIRTIO_NET_HDR_GSO_TCPV6
						     : VIRTIO_NET_HDR_GSO_TCPV4,
				      .hdr_len = (uint16_t)(iph + 32),
				      .gso_size = MSS,
				      .csum_start = (uint16_t)iph,
				      .csum_offset = 16 };
	return len;
}

/* Splits sp; checks every segment independently; the number of segments or -1. */
static int split(const struct virtio_net_hdr *h, size_t len, bool v6)
{
	struct tun_gso g;
	size_t iph = v6 ? 40 : 20;

	uint8_t psh = sp[iph + 13] & 0x08;

	if (tun_gso_parse(&g, h, sp, len, 1500) != TUN_OK)
		return -1;
	for (unsigned int i = 0; i < g.segs; i++) {
		uint8_t *s = seg[i];
		size_t n = tun_gso_segment(&g, sp, i, s);

		seg_len[i] = n;
		if (n > 1500 || (i + 1 < g.segs && n != iph + 32 + MSS))
			return -1;
		if (v6 ? be16(s + 4) != n - 40 : be16(s + 2) != n || be16(s + 4) != 0x1234 + i)
			return -1;
		if (!v6 && ref_fold(ref_sum(s, 20, 0)) != 0xffff)
			return -1;
		if (ref_l4(s, n) != 0xffff)
			return -1;
		if (be32(s + iph + 4) != 0xfffff000u + i * MSS)
			return -1;
		/* PSH only on the last */
		if ((s[iph + 13] & 0x08) != (i + 1 == g.segs ? psh : 0))
			return -1;
		if (memcmp(s + iph + 32, sp + iph + 32 + (size_t)i * MSS, n - iph - 32))
			return -1;
	}
	return (int)g.segs;
}

/* Coalesces segments 0..n-1 the way the device does; the superpackets written. */
static int coalesce(int n, const uint8_t **out, size_t *out_len)
{
	int written = 0;

	tun_gro_init(&gro);
	for (int i = 0; i < n; i++) {
		enum tun_gro_verdict v = tun_gro_add(&gro, seg[i], seg_len[i]);

		if (v == TUN_GRO_JOINED)
			continue;
		*out_len = tun_gro_finish(&gro, out);
		written++;
		if (v != TUN_GRO_FLUSH || !tun_gro_start(&gro))
			return -1;
	}
	*out_len = tun_gro_finish(&gro, out);
	return written + 1;
}

static void round_trip(bool v6, size_t payload)
{
	struct virtio_net_hdr h, back;
	size_t len = make_tcp(v6, payload, 0x18, &h), out_len;
	const uint8_t *out;
	int n = split(&h, len, v6);

	CHECK_EQ(n, (int)((payload + MSS - 1) / MSS));
	CHECK_EQ(coalesce(n, &out, &out_len), 1);
	CHECK_EQ(out_len, TUN_VNET_LEN + len);
	memcpy(&back, out, sizeof(back));
	CHECK_EQ(back.gso_type, h.gso_type);
	CHECK_EQ(back.flags, h.flags);
	CHECK_EQ(back.gso_size, MSS);
	CHECK_EQ(back.hdr_len, h.hdr_len);
	CHECK_EQ(back.csum_start, h.csum_start);
	CHECK_EQ(back.csum_offset, h.csum_offset);
	CHECK_MEM(out + TUN_VNET_LEN, sp, len);
	CHECK_EQ(gro.superpackets, 1);
	CHECK_EQ(gro.coalesced, (uint64_t)n);
}

TEST(tcp4_segment_and_coalesce_back)
{
	round_trip(false, 65535 - 52);
}

TEST(tcp6_segment_and_coalesce_back)
{
	round_trip(true, 20 * MSS + 77);
}

TEST(tcp_two_segments_exactly)
{
	round_trip(false, 2 * MSS);
}

/* One segment: written as it is with a zero vnet header, its checksum untouched. */
TEST(single_segment_goes_as_is)
{
	struct virtio_net_hdr h, zero = { 0 };
	size_t len = make_tcp(false, 100, 0x18, &h), out_len;
	const uint8_t *out;

	CHECK_EQ(split(&h, len, false), 1);
	CHECK_EQ(coalesce(1, &out, &out_len), 1);
	CHECK_EQ(out_len, TUN_VNET_LEN + seg_len[0]);
	CHECK_MEM(out, &zero, TUN_VNET_LEN);
	CHECK_MEM(out + TUN_VNET_LEN, seg[0], seg_len[0]);
	CHECK_EQ(gro.superpackets, 0);
}

/* FIN goes on the last segment only, CWR on the first only; FIN is never coalesced. */
TEST(tcp_flags_per_segment)
{
	struct virtio_net_hdr h;
	size_t len = make_tcp(false, 3 * MSS, 0x80 | 0x18 | 0x01, &h);
	struct tun_gso g;

	CHECK_EQ(tun_gso_parse(&g, &h, sp, len, 1420), TUN_OK);
	CHECK_EQ(g.segs, 3);
	for (unsigned int i = 0; i < 3; i++) {
		seg_len[i] = tun_gso_segment(&g, sp, i, seg[i]);
		CHECK_EQ(ref_l4(seg[i], seg_len[i]), 0xffff);
	}
	CHECK_EQ(seg[0][33], 0x90);
	CHECK_EQ(seg[1][33], 0x10);
	CHECK_EQ(seg[2][33], 0x19);
	tun_gro_init(&gro);
	CHECK_EQ(tun_gro_add(&gro, seg[0], seg_len[0]), TUN_GRO_ALONE); /* CWR */
	CHECK_EQ(tun_gro_add(&gro, seg[1], seg_len[1]), TUN_GRO_JOINED);
	CHECK_EQ(tun_gro_add(&gro, seg[2], seg_len[2]), TUN_GRO_ALONE); /* FIN */
}

TEST(udp_segments)
{
	struct virtio_net_hdr h = { .flags = VIRTIO_NET_HDR_F_NEEDS_CSUM,
				    .gso_type = VIRTIO_NET_HDR_GSO_UDP_L4,
				    .hdr_len = 28,
				    .gso_size = 1000,
				    .csum_start = 20,
				    .csum_offset = 6 };
	size_t len = 20 + 8 + 2500;
	struct tun_gso g;

	memset(sp, 0, 28);
	sp[0] = 0x45;
	set16(sp + 2, (uint32_t)len);
	sp[8] = 64;
	sp[9] = 17;
	memcpy(sp + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
	for (size_t i = 28; i < len; i++)
		sp[i] = (uint8_t)i;
	CHECK_EQ(tun_gso_parse(&g, &h, sp, len, 1420), TUN_OK);
	CHECK_EQ(g.segs, 3);
	for (unsigned int i = 0; i < 3; i++) {
		size_t n = tun_gso_segment(&g, sp, i, seg[i]);

		CHECK_EQ(n, i < 2 ? 1028 : 528);
		CHECK_EQ(be16(seg[i] + 24), n - 20);
		CHECK_EQ(ref_fold(ref_sum(seg[i], 20, 0)), 0xffff);
		CHECK_EQ(ref_l4(seg[i], n), 0xffff);
		CHECK_MEM(seg[i] + 28, sp + 28 + i * 1000, n - 28);
	}
}

/* A non-GSO packet with a partial checksum is completed in place. */
TEST(needs_csum_completed)
{
	struct virtio_net_hdr h = { .flags = VIRTIO_NET_HDR_F_NEEDS_CSUM,
				    .csum_start = 20,
				    .csum_offset = 6 };
	size_t len = 20 + 8 + 333;
	struct tun_gso g;
	uint32_t acc;

	memset(sp, 0, len);
	sp[0] = 0x45;
	set16(sp + 2, (uint32_t)len);
	sp[9] = 17;
	memcpy(sp + 12, "\xc0\x00\x02\x01\xc0\x00\x02\x02", 8);
	set16(sp + 24, (uint32_t)(len - 20));
	for (size_t i = 28; i < len; i++)
		sp[i] = (uint8_t)(i * 13);
	acc = ref_sum(sp + 12, 8, 0) + 17 + (uint32_t)(len - 20);
	set16(sp + 26, ref_fold(acc));
	CHECK_EQ(tun_gso_parse(&g, &h, sp, len, 1420), TUN_OK);
	CHECK_EQ(g.segs, 1);
	CHECK_EQ(ref_l4(sp, len), 0xffff);
}

/* What breaks a superpacket in two, or keeps a segment out. */
TEST(coalesce_refusals)
{
	struct virtio_net_hdr h;
	size_t len = make_tcp(false, 4 * MSS - 100, 0x10, &h);
	const uint8_t *out;
	uint8_t keep[2048];

	CHECK_EQ(split(&h, len, false), 4);
	/* a gap in the sequence: two superpackets */
	tun_gro_init(&gro);
	CHECK_EQ(tun_gro_add(&gro, seg[0], seg_len[0]), TUN_GRO_JOINED);
	CHECK_EQ(tun_gro_add(&gro, seg[2], seg_len[2]), TUN_GRO_FLUSH);
	/* another flow (port), other options (timestamp), another ack */
	for (int f = 0; f < 3; f++) {
		static const size_t at[] = { 20 + 1, 20 + 31, 20 + 11 };

		memcpy(keep, seg[1], seg_len[1]);
		keep[at[f]] ^= 1;
		set16(keep + 36, 0);
		set16(keep + 36,
		      (uint16_t)~ref_fold(ref_sum(keep + 12, 8, 6 + (uint32_t)(seg_len[1] - 20)) +
					  ref_sum(keep + 20, seg_len[1] - 20, 0)));
		CHECK_EQ(ref_l4(keep, seg_len[1]), 0xffff);
		CHECK_EQ(tun_gro_add(&gro, keep, seg_len[1]), TUN_GRO_FLUSH);
	}
	/* a wrong TCP checksum is never hidden inside a superpacket */
	memcpy(keep, seg[1], seg_len[1]);
	keep[100] ^= 0x55;
	CHECK_EQ(tun_gro_add(&gro, keep, seg_len[1]), TUN_GRO_ALONE);
	/* a wrong IPv4 header checksum neither */
	memcpy(keep, seg[1], seg_len[1]);
	keep[8] = 63;
	CHECK_EQ(tun_gro_add(&gro, keep, seg_len[1]), TUN_GRO_ALONE);
	CHECK_EQ(tun_gro_add(&gro, seg[1], seg_len[1]), TUN_GRO_JOINED);
	CHECK_EQ(tun_gro_finish(&gro, &out), TUN_VNET_LEN + 20 + 32 + 2 * MSS);
	/* a short segment ends it: nothing joins after it */
	CHECK_EQ(tun_gro_add(&gro, seg[2], seg_len[2]), TUN_GRO_JOINED);
	CHECK_EQ(tun_gro_add(&gro, seg[3], seg_len[3]), TUN_GRO_JOINED);
	CHECK_EQ(tun_gro_add(&gro, seg[3], seg_len[3]), TUN_GRO_FLUSH);
	CHECK_EQ(tun_gro_finish(&gro, &out), TUN_VNET_LEN + 20 + 32 + 2 * MSS - 100);
	/* not TCP, an IPv4 fragment, a pure ACK */
	memcpy(keep, seg[0], 52);
	set16(keep + 2, 52);
	CHECK_EQ(tun_gro_add(&gro, keep, 52), TUN_GRO_ALONE);
	CHECK_EQ(tun_gro_add(&gro, (const uint8_t *)"\x45\x00\x00\x14", 4), TUN_GRO_ALONE);
}

/*
 * A coalescable segment that does not follow the pending superpacket is held, checked,
 * and starts the next one only once that is finished; the next offer forgets it.
 */
TEST(coalesce_flush_then_start)
{
	struct virtio_net_hdr h, back;
	size_t len = make_tcp(false, 4 * MSS, 0x10, &h);
	const uint8_t *out;

	CHECK_EQ(split(&h, len, false), 4);
	tun_gro_init(&gro);
	CHECK(!tun_gro_start(&gro)); /* nothing held */
	CHECK_EQ(tun_gro_add(&gro, seg[0], seg_len[0]), TUN_GRO_JOINED);
	CHECK_EQ(tun_gro_add(&gro, seg[2], seg_len[2]), TUN_GRO_FLUSH);
	CHECK(!tun_gro_start(&gro)); /* seg[0] still pending: it would be lost */
	CHECK_EQ(tun_gro_finish(&gro, &out), TUN_VNET_LEN + seg_len[0]);
	CHECK_MEM(out + TUN_VNET_LEN, seg[0], seg_len[0]);
	CHECK(tun_gro_start(&gro));
	CHECK(!tun_gro_start(&gro)); /* taken once */
	CHECK_EQ(tun_gro_add(&gro, seg[3], seg_len[3]), TUN_GRO_JOINED);
	CHECK_EQ(tun_gro_finish(&gro, &out), TUN_VNET_LEN + 20 + 32 + 2 * MSS);
	memcpy(&back, out, sizeof(back));
	CHECK_EQ(back.gso_type, VIRTIO_NET_HDR_GSO_TCPV4);
	CHECK_EQ(be32(out + TUN_VNET_LEN + 24), be32(seg[2] + 24)); /* seg[2]'s sequence */
	CHECK_MEM(out + TUN_VNET_LEN + 52, seg[2] + 52, MSS);
	CHECK_MEM(out + TUN_VNET_LEN + 52 + MSS, seg[3] + 52, MSS);
	CHECK_EQ(gro.superpackets, 1);
	/* a FLUSH forgotten by the next offer; never after ALONE */
	CHECK_EQ(tun_gro_add(&gro, seg[1], seg_len[1]), TUN_GRO_JOINED);
	CHECK_EQ(tun_gro_add(&gro, seg[3], seg_len[3]), TUN_GRO_FLUSH);
	CHECK_EQ(tun_gro_add(&gro, (const uint8_t *)"\x45\x00\x00\x14", 4), TUN_GRO_ALONE);
	tun_gro_finish(&gro, &out);
	CHECK(!tun_gro_start(&gro));
}

/*
 * An IPv6 packet whose payload length says 65535 is 65575 bytes, more than a superpacket
 * holds: refused before anything is copied (a peer's message is never that long, since a
 * UDP datagram carries at most 65507 bytes over IPv4, but the coalescer must not rely on it).
 */
TEST(coalesce_refuses_oversized)
{
	static uint8_t big[40 + 65535];

	memset(big, 0, sizeof(big));
	big[0] = 0x60;
	set16(big + 4, 65535);
	big[6] = 6; /* TCP */
	big[7] = 64;
	big[40 + 12] = 5 << 4; /* data offset */
	big[40 + 13] = 0x10;   /* ACK */
	set16(big + 40 + 16, (uint16_t)~ref_l4(big, sizeof(big)));
	CHECK_EQ(ref_l4(big, sizeof(big)), 0xffff);
	tun_gro_init(&gro);
	CHECK_EQ(tun_gro_add(&gro, big, sizeof(big)), TUN_GRO_ALONE);
}

/* Each hostile header refused by name, never a crash; the packet untouched. */
TEST(hostile_vnet_headers)
{
	struct virtio_net_hdr good, h;
	size_t len = make_tcp(false, 4 * MSS, 0x18, &good);
	struct tun_gso g;
	static uint8_t v6[TUN_GSO_MAX];
	size_t v6_len;

#define REFUSED(hdr, l, why) CHECK_EQ(tun_gso_parse(&g, &(hdr), sp, (l), 1420), TUN_DROP_##why)
	h = good, h.gso_size = 0;
	REFUSED(h, len, vnet_gso_size);
	h = good, h.gso_size = 1421;
	REFUSED(h, len, vnet_gso_size);
	h = good, h.hdr_len = (uint16_t)(len + 1);
	REFUSED(h, len, vnet_hdr_len);
	h = good, h.csum_start = 21;
	REFUSED(h, len, vnet_csum);
	h = good, h.csum_offset = 6;
	REFUSED(h, len, vnet_csum);
	h = good, h.gso_type = VIRTIO_NET_HDR_GSO_TCPV4 | VIRTIO_NET_HDR_GSO_ECN;
	REFUSED(h, len, vnet_gso_type);
	h = good, h.gso_type = VIRTIO_NET_HDR_GSO_UDP;
	REFUSED(h, len, vnet_gso_type);
	h = good, h.gso_type = VIRTIO_NET_HDR_GSO_TCPV6;
	REFUSED(h, len, vnet_gso_type);
	h = good, h.gso_type = VIRTIO_NET_HDR_GSO_UDP_L4;
	REFUSED(h, len, gso_ip);
	h = good, h.gso_size = 1;
	REFUSED(h, len, gso_segs);
	REFUSED(good, len - 1, gso_ip); /* IP length not the read's */
	REFUSED(good, 52, gso_ip);
	h = good, h.gso_type = 0, h.csum_start = (uint16_t)len;
	REFUSED(h, len, vnet_csum);
	h = good, h.gso_type = 0, h.csum_offset = (uint16_t)(len - 20 - 1);
	REFUSED(h, len, vnet_csum);
	h = good, h.gso_type = 0, h.csum_start = 0xffff, h.csum_offset = 0xffff;
	REFUSED(h, len, vnet_csum);
	/* IPv4 options */
	sp[0] = 0x46;
	REFUSED(good, len, gso_ip);
	sp[0] = 0x45;
	/* a fragment */
	sp[6] |= 0x20;
	REFUSED(good, len, gso_ip);
	sp[6] &= (uint8_t)~0x20;
	/* a TCP data offset under 5 or past the packet */
	sp[32] = 4 << 4;
	REFUSED(good, len, gso_l4);
	sp[32] = 8 << 4;
	set16(sp + 2, 20 + 24);
	h = good, h.hdr_len = 0;
	REFUSED(h, 20 + 24, gso_l4);
	set16(sp + 2, (uint32_t)len);
	CHECK_EQ(tun_gso_parse(&g, &good, sp, len, 1420), TUN_OK);
	/* IPv6 with a hop-by-hop extension header before TCP */
	v6_len = make_tcp(true, 3 * MSS, 0x18, &h);
	memcpy(v6, sp, v6_len);
	sp[6] = 0;
	REFUSED(h, v6_len, gso_ip);
	sp[6] = 6;
	CHECK_EQ(tun_gso_parse(&g, &h, sp, v6_len, 1500), TUN_OK);
	h.csum_start = 20;
	CHECK_EQ(tun_gso_parse(&g, &h, sp, v6_len, 1500), TUN_DROP_vnet_csum);
	CHECK_EQ(tun_gso_parse(&g, &h, sp, 0, 1420), TUN_DROP_vnet_hdr_len);
#undef REFUSED
}

int main(void)
{
	check_prefix = "tun_offload";
	RUN(tcp4_segment_and_coalesce_back);
	RUN(tcp6_segment_and_coalesce_back);
	RUN(tcp_two_segments_exactly);
	RUN(single_segment_goes_as_is);
	RUN(tcp_flags_per_segment);
	RUN(udp_segments);
	RUN(needs_csum_completed);
	RUN(coalesce_refusals);
	RUN(coalesce_flush_then_start);
	RUN(coalesce_refuses_oversized);
	RUN(hostile_vnet_headers);
	return check_summary();
}
