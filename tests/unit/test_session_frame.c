// SPDX-License-Identifier: GPL-2.0
/* PPPoE session frames as the control plane parses and builds them. */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "session_frame.h"

static const uint8_t ac[6] = { 2, 0, 0, 0, 0, 1 }, host[6] = { 2, 0, 0, 0, 0, 2 };

TEST(round_trip)
{
	const uint8_t lcp[] = { 1, 7, 0, 8, 1, 4, 5, 0xd4 };
	uint8_t buf[64];
	struct session_frame f;
	enum session_drop_reason reason;
	int n;

	n = session_frame_build(buf, sizeof(buf), ac, host, 0x1234, PPP_PROTO_LCP, lcp,
				sizeof(lcp));
	CHECK_EQ(n, 14 + 8 + sizeof(lcp));
	CHECK_EQ(buf[12], 0x88);
	CHECK_EQ(buf[13], 0x64);
	CHECK_EQ(buf[14], 0x11);
	CHECK_EQ(buf[19], 2 + sizeof(lcp)); /* PPPoE length covers the PPP protocol */
	/* Ethernet padding after the payload is ignored. */
	memset(buf + n, 0xee, 10);
	CHECK_EQ(session_frame_parse(buf, (size_t)n + 10, &f, &reason), 0);
	CHECK_EQ(f.session_id, 0x1234);
	CHECK_EQ(f.ppp_proto, PPP_PROTO_LCP);
	CHECK_EQ(f.payload_len, sizeof(lcp));
	CHECK_MEM(f.payload, lcp, sizeof(lcp));
	CHECK_MEM(f.dst, ac, 6);
	CHECK_MEM(f.src, host, 6);
}

TEST(build_too_big)
{
	uint8_t buf[30], data[16] = { 0 };

	CHECK_EQ(session_frame_build(buf, sizeof(buf), ac, host, 1, PPP_PROTO_LCP, data,
				     sizeof(data)),
		 -EMSGSIZE);
}

static enum session_drop_reason parse_reason(const uint8_t *frame, size_t len)
{
	struct session_frame f;
	enum session_drop_reason reason = SESSION_DROP_REASON_COUNT;

	if (session_frame_parse(frame, len, &f, &reason) == 0)
		return SESSION_DROP_REASON_COUNT;
	return reason;
}

TEST(malformed)
{
	uint8_t good[40], bad[40];
	int n = session_frame_build(good, sizeof(good), ac, host, 9, PPP_PROTO_IPCP,
				    (const uint8_t *)"\1\1\0\4", 4);

	CHECK(n > 0);
	CHECK_EQ(parse_reason(good, (size_t)n), SESSION_DROP_REASON_COUNT);
	CHECK_EQ(parse_reason(good, 21), SESSION_DROP_SHORT);
	memcpy(bad, good, (size_t)n);
	bad[14] = 0x12; /* version 1, type 2 */
	CHECK_EQ(parse_reason(bad, (size_t)n), SESSION_DROP_HEADER);
	memcpy(bad, good, (size_t)n);
	bad[15] = PPPOE_CODE_PADT; /* a discovery code in a session frame */
	CHECK_EQ(parse_reason(bad, (size_t)n), SESSION_DROP_HEADER);
	memcpy(bad, good, (size_t)n);
	bad[13] = 0x63; /* discovery ethertype */
	CHECK_EQ(parse_reason(bad, (size_t)n), SESSION_DROP_HEADER);
	memcpy(bad, good, (size_t)n);
	bad[19] = 200; /* length past the frame */
	CHECK_EQ(parse_reason(bad, (size_t)n), SESSION_DROP_LENGTH);
	memcpy(bad, good, (size_t)n);
	bad[18] = 0;
	bad[19] = 1; /* too short for the PPP protocol field */
	CHECK_EQ(parse_reason(bad, (size_t)n), SESSION_DROP_LENGTH);
}

TEST(reason_names)
{
	unsigned int i;

	for (i = 0; i < SESSION_DROP_REASON_COUNT; i++)
		CHECK(strcmp(session_drop_reason_name(i), "unknown") != 0);
	CHECK(!strcmp(session_drop_reason_name(SESSION_DROP_REASON_COUNT), "unknown"));
}

int main(void)
{
	check_prefix = "session_frame";
	RUN(round_trip);
	RUN(build_too_big);
	RUN(malformed);
	RUN(reason_names);
	return check_summary();
}
