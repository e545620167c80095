// SPDX-License-Identifier: GPL-2.0
/*
 * The AF_XDP engine's in-place transforms (user/datapath/engine/engine_xform.h) on frames laid out
 * as in a UMEM frame: headroom, then the frame. Expected headers are written out byte by byte.
 */
#include <arpa/inet.h>
#include <stdbool.h>

#include "check.h"
#include "engine_harness.h"
#include "engine_xform.h"

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		sum += (uint32_t)(p[n - 1] << 8);
	return sum;
}

/* A TCP checksum over the pseudo-header verifies to 0xffff. */
static bool tcp4_csum_ok(const uint8_t *ip)
{
	size_t ihl = (ip[0] & 0x0f) * 4, tot = (size_t)(ip[2] << 8 | ip[3]);
	uint32_t sum = csum_add(0, ip + 12, 8);

	sum += 6 + (uint32_t)(tot - ihl);
	return csum_fold(csum_add(sum, ip + ihl, tot - ihl)) == 0xffff;
}

/*
 * An IPv4 TCP SYN with options MSS 1460, NOP, NOP, SACK-permitted... written at ip.
 * Returns its length. The TCP checksum is valid.
 */
static size_t write_ipv4_syn(uint8_t *ip, uint16_t mss)
{
	static const uint8_t hdr[20] = { 0x45, 0, 0,   48,  0,	 1, 0x40, 0,  64,  6,
					 0,    0, 192, 168, 100, 2, 198,  51, 100, 2 };
	uint8_t *tcp = ip + 20;
	uint32_t sum;

	memcpy(ip, hdr, sizeof(hdr));
	memset(tcp, 0, 28);
	tcp[0] = 0x9c, tcp[1] = 0x40; /* sport 40000 */
	tcp[3] = 80;
	tcp[12] = 7 << 4; /* 28 bytes: 20 + 8 of options */
	tcp[13] = 0x02;	  /* SYN */
	tcp[14] = 0xff, tcp[15] = 0xff;
	tcp[20] = 2, tcp[21] = 4, tcp[22] = mss >> 8, tcp[23] = mss & 0xff;
	tcp[24] = 1, tcp[25] = 1, tcp[26] = 4, tcp[27] = 2;
	sum = csum_add(0, ip + 12, 8) + 6 + 28;
	sum = csum_add(sum, tcp, 28);
	tcp[16] = (uint8_t)(~csum_fold(sum) >> 8);
	tcp[17] = (uint8_t)(~csum_fold(sum) & 0xff);
	return 48;
}

TEST(decap_ipv4_syn_clamps_mss)
{
	struct pxp_session s = session(0);
	size_t ip_len = write_ipv4_syn(frame + 22, 1460);
	size_t len = wrap_pppoe(0, TEST_SID, PEER_MAC, 0x0021, ip_len, 0);
	uint32_t new_len;
	int32_t delta;
	uint8_t *out;

	CHECK_EQ(engine_decap(&s, frame, len, &delta, &new_len), ENGINE_XFORM_OK);
	CHECK_EQ(delta, 8);
	CHECK_EQ(new_len, 14 + ip_len);
	out = frame + delta;
	CHECK_MEM(out, NETDEV_MAC, 6);
	CHECK_MEM(out + 6, PEER_NETDEV_MAC, 6);
	CHECK_EQ(out[12] << 8 | out[13], 0x0800);
	CHECK_EQ(out[14 + 20 + 22] << 8 | out[14 + 20 + 23], 1452);
	CHECK(tcp4_csum_ok(out + 14));
}

TEST(decap_trims_ethernet_padding)
{
	static const uint8_t icmp[28] = { 0x45, 0, 0, 28, 0, 0, 0, 0, 64, 1 };
	struct pxp_session s = session(0);
	size_t len;
	uint32_t new_len;
	int32_t delta;

	memcpy(frame + 22, icmp, sizeof(icmp));
	len = wrap_pppoe(0, TEST_SID, PEER_MAC, 0x0021, sizeof(icmp), 10);
	CHECK_EQ(len, 60);
	CHECK_EQ(engine_decap(&s, frame, len, &delta, &new_len), ENGINE_XFORM_OK);
	CHECK_EQ(new_len, 14 + 28);
	CHECK_MEM(frame + delta + 14, icmp, sizeof(icmp));
}

TEST(decap_rejects_other_sessions_and_senders)
{
	static const uint8_t stranger[6] = { 0x02, 0xee, 0, 0, 0, 9 };
	struct pxp_session s = session(0);
	size_t ip_len = write_ipv4_syn(frame + 22, 1400);
	uint32_t new_len;
	int32_t delta;
	size_t len;

	len = wrap_pppoe(0, 0x1235, PEER_MAC, 0x0021, ip_len, 0);
	CHECK_EQ(engine_decap(&s, frame, len, &delta, &new_len), PXP_CNT_DROP_NO_SESSION);
	len = wrap_pppoe(0, TEST_SID, stranger, 0x0021, ip_len, 0);
	CHECK_EQ(engine_decap(&s, frame, len, &delta, &new_len), PXP_CNT_DROP_NO_SESSION);
}

TEST(decap_drops_lies_and_truncation)
{
	struct pxp_session s = session(0);
	size_t ip_len = write_ipv4_syn(frame + 22, 1400);
	size_t len = wrap_pppoe(0, TEST_SID, PEER_MAC, 0x0021, ip_len, 0);
	uint32_t new_len;
	int32_t delta;

	/* The PPPoE length claims one byte more than the frame holds. */
	frame[18] = (uint8_t)((ip_len + 3) >> 8), frame[19] = (uint8_t)((ip_len + 3) & 0xff);
	CHECK_EQ(engine_decap(&s, frame, len, &delta, &new_len), PXP_CNT_DROP_BAD_LENGTH);
	/* Cut inside the PPPoE header. */
	CHECK_EQ(engine_decap(&s, frame, 17, &delta, &new_len), PXP_CNT_DROP_TRUNCATED);
}

TEST(decap_refuses_control_and_oversize)
{
	struct pxp_session s = session(0);
	size_t ip_len = write_ipv4_syn(frame + 22, 1400);
	uint32_t new_len;
	int32_t delta;
	size_t len;

	len = wrap_pppoe(0, TEST_SID, PEER_MAC, 0xc021, ip_len, 0); /* LCP */
	CHECK_EQ(engine_decap(&s, frame, len, &delta, &new_len), PXP_CNT_PASS);
	s.mtu = (uint16_t)(ip_len - 1);
	len = wrap_pppoe(0, TEST_SID, PEER_MAC, 0x0021, ip_len, 0);
	CHECK_EQ(engine_decap(&s, frame, len, &delta, &new_len), PXP_CNT_DROP_TOO_BIG);
}

TEST(decap_pops_the_vlan_tag)
{
	struct pxp_session s = session(100);
	size_t ip_len = write_ipv4_syn(frame + 26, 1400);
	size_t len = wrap_pppoe(100, TEST_SID, PEER_MAC, 0x0021, ip_len, 0);
	uint32_t new_len;
	int32_t delta;

	CHECK_EQ(engine_decap(&s, frame, len, &delta, &new_len), ENGINE_XFORM_OK);
	CHECK_EQ(delta, 12);
	CHECK_EQ(new_len, 14 + ip_len);
	CHECK_EQ(frame[delta + 12] << 8 | frame[delta + 13], 0x0800);
	/* An untagged frame on a tagged WAN is not ours. */
	ip_len = write_ipv4_syn(frame + 22, 1400);
	len = wrap_pppoe(0, TEST_SID, PEER_MAC, 0x0021, ip_len, 0);
	CHECK_EQ(engine_decap(&s, frame, len, &delta, &new_len), PXP_CNT_PASS);
}

TEST(encap_ipv4_writes_pppoe_and_clamps)
{
	static const uint8_t hdr[22] = { 0x02, 0xac, 0, 0,  0,	  1,	0x02, 0xcc,
					 0,    0,    0, 1,  0x88, 0x64, 0x11, 0x00,
					 0x12, 0x34, 0, 50, 0x00, 0x21 };
	struct pxp_session s = session(0);
	size_t ip_len = write_ipv4_syn(frame + 14, 1460);
	size_t len = wrap_eth(0x0800, ip_len);
	uint32_t new_len;
	int32_t delta;
	uint8_t *out;

	CHECK_EQ(engine_encap(&s, frame, len, HEADROOM, &delta, &new_len), ENGINE_XFORM_OK);
	CHECK_EQ(delta, -8);
	CHECK_EQ(new_len, 22 + ip_len);
	out = frame + delta;
	CHECK_MEM(out, hdr, sizeof(hdr));
	CHECK_EQ(out[22 + 20 + 22] << 8 | out[22 + 20 + 23], 1452);
	CHECK(tcp4_csum_ok(out + 22));
}

TEST(encap_then_decap_restores_ipv6)
{
	uint8_t ip6[60] = { 0x60, 0, 0, 0, 0, 20, 17, 64 }; /* UDP, 20 bytes of payload */
	struct pxp_session s = session(0);
	uint32_t new_len, len;
	int32_t delta;
	uint8_t *p;

	for (size_t i = 8; i < sizeof(ip6); i++)
		ip6[i] = (uint8_t)i;
	memcpy(frame + 14, ip6, sizeof(ip6));
	len = (uint32_t)wrap_eth(0x86dd, sizeof(ip6));
	CHECK_EQ(engine_encap(&s, frame, len, HEADROOM, &delta, &new_len), ENGINE_XFORM_OK);
	p = frame + delta;
	CHECK_EQ(p[20] << 8 | p[21], 0x0057);
	/* Turn the frame around as the peer would send it back. */
	memcpy(p + 6, PEER_MAC, 6);
	len = new_len;
	CHECK_EQ(engine_decap(&s, p, len, &delta, &new_len), ENGINE_XFORM_OK);
	CHECK_EQ(new_len, 14 + sizeof(ip6));
	CHECK_EQ(p[delta + 12] << 8 | p[delta + 13], 0x86dd);
	CHECK_MEM(p + delta + 14, ip6, sizeof(ip6));
}

TEST(encap_pushes_the_vlan_tag)
{
	static const uint8_t tag[8] = { 0x81, 0x00, 0x00, 100, 0x88, 0x64, 0x11, 0x00 };
	struct pxp_session s = session(100);
	size_t ip_len = write_ipv4_syn(frame + 14, 1400);
	size_t len = wrap_eth(0x0800, ip_len);
	uint32_t new_len;
	int32_t delta;

	CHECK_EQ(engine_encap(&s, frame, len, HEADROOM, &delta, &new_len), ENGINE_XFORM_OK);
	CHECK_EQ(delta, -12);
	CHECK_EQ(new_len, 26 + ip_len);
	CHECK_MEM(frame + delta + 12, tag, sizeof(tag));
}

TEST(encap_refuses_what_cannot_leave)
{
	struct pxp_session s = session(0);
	size_t ip_len = write_ipv4_syn(frame + 14, 1400);
	size_t len = wrap_eth(0x0800, ip_len);
	uint32_t new_len;
	int32_t delta;

	CHECK_EQ(engine_encap(&s, frame, len, 7, &delta, &new_len), PXP_CNT_DROP_ADJUST);
	s.mtu = (uint16_t)(ip_len - 1);
	CHECK_EQ(engine_encap(&s, frame, len, HEADROOM, &delta, &new_len), PXP_CNT_DROP_TOO_BIG);
	s.mtu = 1492;
	/* IPv4 total length larger than the frame. */
	CHECK_EQ(engine_encap(&s, frame, len - 1, HEADROOM, &delta, &new_len),
		 PXP_CNT_DROP_BAD_LENGTH);
	len = wrap_eth(0x0806, 28); /* ARP */
	CHECK_EQ(engine_encap(&s, frame, len, HEADROOM, &delta, &new_len), PXP_CNT_DROP_NOT_IP);
	len = wrap_eth(0x0800, 6); /* IPv4 cut inside its header */
	CHECK_EQ(engine_encap(&s, frame, len, HEADROOM, &delta, &new_len), PXP_CNT_DROP_TRUNCATED);
}

static uint32_t xorshift(uint32_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

/*
 * Valid frames with random bytes flipped and random lengths: whatever the verdict, a frame
 * that passes stays inside the buffer (start within the headroom, end within the input).
 */
TEST(mutated_frames_stay_in_bounds)
{
	uint32_t seed = 0x9e3779b9, new_len, len;
	struct pxp_session s = session(0);
	int32_t delta;

	for (int round = 0; round < 200000; round++) {
		bool tagged = round & 1, decap = round & 2;
		size_t ip_len;

		s.vlan_tci = tagged ? 100 : 0;
		if (decap) {
			ip_len = write_ipv4_syn(frame + (tagged ? 26 : 22), 1460);
			len = (uint32_t)wrap_pppoe(tagged ? 100 : 0, TEST_SID, PEER_MAC, 0x0021,
						   ip_len, 0);
		} else {
			ip_len = write_ipv4_syn(frame + 14, 1460);
			len = (uint32_t)wrap_eth(round & 4 ? 0x86dd : 0x0800, ip_len);
		}
		for (int flips = xorshift(&seed) % 4; flips >= 0; flips--)
			frame[xorshift(&seed) % len] = (uint8_t)xorshift(&seed);
		if (xorshift(&seed) % 4 == 0)
			len = xorshift(&seed) % (len + 1);
		if (decap) {
			if (engine_decap(&s, frame, len, &delta, &new_len) != ENGINE_XFORM_OK)
				continue;
			CHECK(delta >= 0);
		} else {
			if (engine_encap(&s, frame, len, HEADROOM, &delta, &new_len) !=
			    ENGINE_XFORM_OK)
				continue;
			CHECK(delta < 0 && -delta <= HEADROOM);
		}
		CHECK(new_len >= 14);
		CHECK((int64_t)delta + new_len <= (int64_t)len);
	}
}

int main(void)
{
	check_prefix = "engine_xform";
	RUN(decap_ipv4_syn_clamps_mss);
	RUN(decap_trims_ethernet_padding);
	RUN(decap_rejects_other_sessions_and_senders);
	RUN(decap_drops_lies_and_truncation);
	RUN(decap_refuses_control_and_oversize);
	RUN(decap_pops_the_vlan_tag);
	RUN(encap_ipv4_writes_pppoe_and_clamps);
	RUN(encap_then_decap_restores_ipv6);
	RUN(encap_pushes_the_vlan_tag);
	RUN(encap_refuses_what_cannot_leave);
	RUN(mutated_frames_stay_in_bounds);
	return check_summary();
}
