/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TUN offloads for the WireGuard device, pure (no sockets): what a TUN opened with
 * IFF_VNET_HDR and TUNSETOFFLOAD hands over and takes, in the shape of wireguard-go's
 * tun/offload_linux.go.
 *
 *   read side:  a virtio_net_hdr and an up-to-64 KB superpacket (TCP TSO, UDP USO) ->
 *               tun_gso_parse checks it, tun_gso_segment writes segment i of it with its
 *               IP and TCP/UDP headers and checksums complete; a non-GSO packet with a
 *               partial checksum (NEEDS_CSUM) is completed in place.
 *   write side: decrypted packets offered one by one to struct tun_gro, which joins
 *               consecutive in-order TCP segments of one flow into one superpacket with a
 *               virtio_net_hdr (GSO_TCPV4/6, NEEDS_CSUM); anything else goes as it is.
 *
 * The vnet header is in host byte order (a TUN without TUNSETVNETLE/BE is legacy virtio:
 * native endian). Superpackets from the TUN are hostile input as much as the wire's:
 * every field is checked and a refusal is named (enum tun_drop).
 */
#ifndef PXP_TUN_OFFLOAD_H
#define PXP_TUN_OFFLOAD_H

#include <linux/virtio_net.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Newer than some distributions' headers (Linux 6.2). */
#ifndef VIRTIO_NET_HDR_GSO_UDP_L4
#define VIRTIO_NET_HDR_GSO_UDP_L4 5
#endif

#define TUN_VNET_LEN	 sizeof(struct virtio_net_hdr)
/* The largest IP packet a superpacket (or a coalesced one) is. */
#define TUN_GSO_MAX	 65535
/* A bound on the segments of one superpacket (64 KB at the 576-byte minimum MTU is 122). */
#define TUN_GSO_SEGS_MAX 256
/* The largest coalesced superpacket written with its vnet header. */
#define TUN_GRO_BUF	 (TUN_VNET_LEN + TUN_GSO_MAX)

/* Why a packet read from the TUN was refused: X(name, why); tun_ok is not a drop. */
#define TUN_OFFLOAD_DROPS(X)                                                                 \
	X(vnet_short, "TUN read shorter than its virtio_net_hdr")                            \
	X(vnet_csum, "csum_start/csum_offset outside the packet or not the L4 checksum")     \
	X(vnet_gso_type, "a GSO type not offered (UFO, ECN) or not the packet's IP version") \
	X(vnet_gso_size, "gso_size 0, or a segment longer than the MTU")                     \
	X(vnet_hdr_len, "hdr_len past the packet, or no payload after the headers")          \
	X(gso_ip, "superpacket IP header: options, extension headers, fragment, length")     \
	X(gso_l4, "superpacket TCP/UDP header short or its data offset wrong")               \
	X(gso_segs, "superpacket of more segments than TUN_GSO_SEGS_MAX")

enum tun_drop {
	TUN_OK = 0,
#define TUN_DROP_ENUM(name, why) TUN_DROP_##name,
	TUN_OFFLOAD_DROPS(TUN_DROP_ENUM)
#undef TUN_DROP_ENUM
		TUN_DROP_COUNT
};

/* A superpacket checked by tun_gso_parse: where its headers end and how it splits. */
struct tun_gso {
	uint8_t type;	   /* VIRTIO_NET_HDR_GSO_* without ECN; NONE: one packet as it is */
	uint8_t iph_len;   /* 20 or 40: options and extension headers are refused */
	uint16_t hdr_len;  /* IP + TCP/UDP header, as the packet says (not hdr_len's word) */
	uint16_t gso_size; /* payload bytes a segment */
	unsigned int segs; /* 1 for a non-GSO packet */
	size_t len;	   /* the whole packet */
};

/*
 * Checks the packet pkt (len bytes, the vnet header h stripped off) read from the TUN; a
 * non-GSO packet's partial checksum is completed in place. max_seg: the longest segment
 * (IP packet) the caller sends (the MTU). TUN_OK and *g filled, or why not.
 */
enum tun_drop tun_gso_parse(struct tun_gso *g, const struct virtio_net_hdr *h, uint8_t *pkt,
			    size_t len, size_t max_seg);

/*
 * Segment i (< g->segs) of the checked packet pkt into out (room for hdr_len + gso_size
 * bytes): headers copied and fixed (IP length and id, TCP sequence, FIN/PSH/CWR as the
 * kernel's segmentation sets them), checksums complete. Its length.
 */
size_t tun_gso_segment(const struct tun_gso *g, const uint8_t *pkt, unsigned int i, uint8_t *out);

/* The pending superpacket of consecutive TCP segments of one flow. */
struct tun_gro {
	size_t len; /* IP bytes in buf after the vnet header; 0: none pending */
	unsigned int segs;
	uint16_t gso_size; /* the first segment's payload */
	uint8_t iph_len, hdr_len;
	bool closed; /* a PSH or a short segment ended it */
	uint32_t next_seq;
	/* The packet that got TUN_GRO_FLUSH, checked, for tun_gro_start; NULL: none. */
	const uint8_t *held;
	size_t held_len;
	uint8_t held_iph, held_hdr;
	uint64_t coalesced; /* segments written inside superpackets (statistics) */
	uint64_t superpackets;
	uint8_t buf[TUN_GRO_BUF];
};

void tun_gro_init(struct tun_gro *g);

/* What tun_gro_add did with a packet; each packet's headers and checksums are checked once. */
enum tun_gro_verdict {
	TUN_GRO_JOINED, /* taken: appended to the pending superpacket, or the start of one */
	/* Coalescable, but it does not follow the pending superpacket: write that one
	 * (tun_gro_finish), then tun_gro_start makes this packet the start of the next. */
	TUN_GRO_FLUSH,
	TUN_GRO_ALONE, /* never coalescable: write the pending one, then this as it is */
};

/*
 * Offers the IP packet pkt (len: its IP length). After TUN_GRO_FLUSH, pkt is held by
 * pointer until tun_gro_start or the next tun_gro_add: keep it where it is, unchanged.
 */
enum tun_gro_verdict tun_gro_add(struct tun_gro *g, const uint8_t *pkt, size_t len);

/*
 * The packet held by TUN_GRO_FLUSH starts the next superpacket, without its checks run
 * again. False (nothing changes) if none is held or the pending one was not finished.
 */
bool tun_gro_start(struct tun_gro *g);

/*
 * Closes the pending superpacket: headers, vnet header (GSO_TCPV4/6 and a partial checksum
 * for two segments or more; zero for one). *out: vnet header and packet. Its length, 0 if
 * nothing was pending.
 */
size_t tun_gro_finish(struct tun_gro *g, const uint8_t **out);

/* The Internet checksum of buf folded into 16 bits (not inverted), with initial added. */
uint16_t tun_csum_fold(const void *buf, size_t len, uint32_t initial);

#endif
