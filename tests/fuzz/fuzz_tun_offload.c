// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the TUN offloads (wg-bridge/tun_offload.c). Input: a virtio_net_hdr
 * (10 bytes, host order) and the packet a TUN read would give. A packet the parser takes is
 * split; every segment is at most the MTU with right checksums (by an RFC 1071 sum of this
 * file's own); the segments go through the coalescer as the device offers them, and every
 * superpacket it writes parses again and splits back into exactly the segments that went in.
 * The raw packet is offered to the coalescer too.
 */
#include <stdlib.h>
#include <string.h>

#include "tun_offload.h"

#define FUZZ_MTU 1500

static uint8_t pkt[TUN_GSO_MAX], seg[TUN_GSO_SEGS_MAX][FUZZ_MTU], again[FUZZ_MTU];
static size_t seg_len[TUN_GSO_SEGS_MAX];
static struct tun_gro gro;

static uint16_t ref_fold(const uint8_t *b, size_t len, uint32_t acc)
{
	for (size_t i = 0; i + 1 < len; i += 2)
		acc += (uint32_t)(b[i] << 8 | b[i + 1]);
	if (len & 1)
		acc += (uint32_t)b[len - 1] << 8;
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return (uint16_t)acc;
}

static void check_segment(const uint8_t *s, size_t n, uint8_t type)
{
	size_t iph = s[0] >> 4 == 4 ? 20 : 40;
	uint32_t pseudo;

	if (n > FUZZ_MTU || n < iph)
		abort();
	if (type == VIRTIO_NET_HDR_GSO_NONE)
		return;
	if (iph == 20 && ref_fold(s, 20, 0) != 0xffff)
		abort();
	pseudo = ref_fold(s + (iph == 20 ? 12 : 8), iph == 20 ? 8 : 32, 0) +
		 (type == VIRTIO_NET_HDR_GSO_UDP_L4 ? 17u : 6u) + (uint32_t)(n - iph);
	if (ref_fold(s + iph, n - iph, pseudo) != 0xffff)
		abort();
}

/* The superpacket the coalescer wrote holds segments first..first+count-1, and only them. */
static void check_written(const uint8_t *out, size_t len, unsigned int first, unsigned int count)
{
	struct virtio_net_hdr h;
	struct tun_gso g;

	if (len < TUN_VNET_LEN || len > TUN_GRO_BUF)
		abort();
	memcpy(&h, out, sizeof(h));
	memcpy(pkt, out + TUN_VNET_LEN, len - TUN_VNET_LEN);
	if (h.gso_type == VIRTIO_NET_HDR_GSO_NONE) {
		if (h.flags || count != 1 || len - TUN_VNET_LEN != seg_len[first] ||
		    memcmp(pkt, seg[first], seg_len[first]))
			abort();
		return;
	}
	if (count < 2 || tun_gso_parse(&g, &h, pkt, len - TUN_VNET_LEN, FUZZ_MTU) != TUN_OK ||
	    g.segs != count)
		abort();
	for (unsigned int i = 0; i < count; i++)
		if (tun_gso_segment(&g, pkt, i, again) != seg_len[first + i] ||
		    memcmp(again, seg[first + i], seg_len[first + i]))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct virtio_net_hdr h;
	const uint8_t *out;
	unsigned int first = 0;
	struct tun_gso g;
	size_t len, n;

	if (size < TUN_VNET_LEN || size - TUN_VNET_LEN > TUN_GSO_MAX)
		return 0;
	memcpy(&h, data, sizeof(h));
	len = size - TUN_VNET_LEN;
	memcpy(pkt, data + TUN_VNET_LEN, len);
	tun_gro_init(&gro);
	if (tun_gro_add(&gro, pkt, len) == TUN_GRO_JOINED) {
		n = tun_gro_finish(&gro, &out);
		if (n != TUN_VNET_LEN + len || memcmp(out + TUN_VNET_LEN, data + TUN_VNET_LEN, len))
			abort();
	}
	if (tun_gso_parse(&g, &h, pkt, len, FUZZ_MTU) != TUN_OK)
		return 0;
	if (g.segs == 0 || g.segs > TUN_GSO_SEGS_MAX)
		abort();
	if (g.type == VIRTIO_NET_HDR_GSO_NONE)
		return 0; /* one packet of any length, its checksum completed in place */
	for (unsigned int i = 0; i < g.segs; i++) {
		seg_len[i] = tun_gso_segment(&g, pkt, i, seg[i]);
		check_segment(seg[i], seg_len[i], g.type);
	}
	for (unsigned int i = 0; i < g.segs; i++) {
		enum tun_gro_verdict v = tun_gro_add(&gro, seg[i], seg_len[i]);

		if (v == TUN_GRO_JOINED)
			continue;
		n = tun_gro_finish(&gro, &out);
		if (n)
			check_written(out, n, first, i - first);
		first = i;
		if (v == TUN_GRO_FLUSH ? !tun_gro_start(&gro) : tun_gro_start(&gro))
			abort(); /* held exactly when FLUSH says so */
		if (v == TUN_GRO_ALONE)
			first = i + 1; /* written as it is */
	}
	n = tun_gro_finish(&gro, &out);
	if (n)
		check_written(out, n, first, g.segs - first);
	return 0;
}
