// SPDX-License-Identifier: GPL-2.0
/*
 * PPP control packets decoded as pppd's `debug` prints them. The expected lines are the
 * text between "sent " / "rcvd " and the end of lines pppd logs for the same bytes (its
 * printers: lcp_printpkt, upap_printpkt, chap_print_pkt, ipcp_printpkt, ipv6cp_printpkt),
 * plus our "<malformed>" mark where pppd would just dump the rest in hex.
 */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "ppp_decode.h"
#include "pppoe_wire.h"

struct decode_case {
	const char *name;
	uint16_t proto;
	uint8_t data[64];
	size_t len;
	const char *text;
};

#define PKT(...) { __VA_ARGS__ }, sizeof((uint8_t[]){ __VA_ARGS__ })

static const struct decode_case cases[] = {
	{ "lcp confreq mru magic", PPP_PROTO_LCP,
	  PKT(1, 1, 0, 14, 1, 4, 0x05, 0xd4, 5, 6, 0x5e, 0x3d, 0x1c, 0x2a),
	  "[LCP ConfReq id=0x1 <mru 1492> <magic 0x5e3d1c2a>]" },
	{ "lcp confreq auth chap md5", PPP_PROTO_LCP,
	  PKT(1, 0x2, 0, 19, 1, 4, 0x05, 0xd4, 3, 5, 0xc2, 0x23, 5, 5, 6, 0x12, 0x34, 0x56, 0x78),
	  "[LCP ConfReq id=0x2 <mru 1492> <auth chap MD5> <magic 0x12345678>]" },
	{ "lcp confack auth pap", PPP_PROTO_LCP, PKT(2, 0x3, 0, 8, 3, 4, 0xc0, 0x23),
	  "[LCP ConfAck id=0x3 <auth pap>]" },
	{ "lcp confnak auth ms-v2", PPP_PROTO_LCP, PKT(3, 0x4, 0, 9, 3, 5, 0xc2, 0x23, 0x81),
	  "[LCP ConfNak id=0x4 <auth chap MS-v2>]" },
	{ "lcp confrej pcomp accomp asyncmap", PPP_PROTO_LCP,
	  PKT(4, 0x5, 0, 14, 7, 2, 8, 2, 2, 6, 0, 0, 0, 0),
	  "[LCP ConfRej id=0x5 <pcomp> <accomp> <asyncmap 0x0>]" },
	{ "lcp callback cbcp", PPP_PROTO_LCP, PKT(1, 0x6, 0, 7, 0x0d, 3, 6),
	  "[LCP ConfReq id=0x6 <callback CBCP>]" },
	{ "lcp unknown option type", PPP_PROTO_LCP, PKT(1, 0x6, 0, 8, 0x2a, 4, 0xab, 0xcd),
	  "[LCP ConfReq id=0x6 < 2a 04 ab cd>]" },
	{ "lcp mru of the wrong length", PPP_PROTO_LCP, PKT(1, 0x6, 0, 7, 1, 3, 0xff),
	  "[LCP ConfReq id=0x6 < 01 03 ff>]" },
	{ "lcp termreq text", PPP_PROTO_LCP,
	  PKT(5, 0x7, 0, 16, 'U', 's', 'e', 'r', ' ', 'r', 'e', 'q', 'u', 'e', 's', 't'),
	  "[LCP TermReq id=0x7 \"User request\"]" },
	{ "lcp termack empty", PPP_PROTO_LCP, PKT(6, 0x7, 0, 4), "[LCP TermAck id=0x7]" },
	{ "lcp echoreq magic", PPP_PROTO_LCP, PKT(9, 0x0, 0, 8, 0xde, 0xad, 0xbe, 0xef),
	  "[LCP EchoReq id=0x0 magic=0xdeadbeef]" },
	{ "lcp echorep magic and data", PPP_PROTO_LCP, PKT(10, 0x1, 0, 10, 0, 0, 0, 1, 0xaa, 0xbb),
	  "[LCP EchoRep id=0x1 magic=0x1 aa bb]" },
	{ "lcp protrej", PPP_PROTO_LCP, PKT(8, 0x2, 0, 8, 0x80, 0x57, 1, 1),
	  "[LCP ProtRej id=0x2 80 57 01 01]" },
	{ "lcp unknown code", PPP_PROTO_LCP, PKT(0x42, 0x2, 0, 5, 1), "[LCP code=0x42 id=0x2 01]" },
	{ "lcp ident string", PPP_PROTO_LCP, PKT(12, 0x3, 0, 10, 0, 0, 0, 0, 'h', 'i'),
	  "[LCP Ident id=0x3 magic=0x0 \"hi\"]" },
	{ "pap authreq hides the password", PPP_PROTO_PAP,
	  PKT(1, 0x1, 0, 18, 5, 'a', 'l', 'i', 'c', 'e', 7, 's', 'e', 'c', 'r', 'e', 't', '1'),
	  "[PAP AuthReq id=0x1 user=\"alice\" password=<hidden>]" },
	{ "pap authack message", PPP_PROTO_PAP, PKT(2, 0x1, 0, 8, 3, 'O', 'K', '!'),
	  "[PAP AuthAck id=0x1 \"OK!\"]" },
	{ "pap authnak empty message", PPP_PROTO_PAP, PKT(3, 0x1, 0, 5, 0),
	  "[PAP AuthNak id=0x1 \"\"]" },
	{ "pap authreq cut in the password: no hex", PPP_PROTO_PAP,
	  PKT(1, 0x1, 0, 12, 1, 'a', 7, 's', 'e', 'c', 'r', 'e'),
	  "[PAP AuthReq id=0x1 <malformed>]" },
	{ "pap header longer than the packet: no hex", PPP_PROTO_PAP,
	  PKT(1, 0x1, 0, 40, 1, 'a', 3, 's', 'e', 'c'), "[PAP <malformed>]" },
	{ "chap challenge", PPP_PROTO_CHAP,
	  PKT(1, 0x1, 0, 13, 4, 0x01, 0x23, 0xab, 0xcd, 'p', 'x', 'c', '-'),
	  "[CHAP Challenge id=0x1 <0123abcd>, name = \"pxc-\"]" },
	{ "chap response", PPP_PROTO_CHAP, PKT(2, 0x1, 0, 11, 2, 0xff, 0x00, 'a', 'l', 'i', 'c'),
	  "[CHAP Response id=0x1 <ff00>, name = \"alic\"]" },
	{ "chap success", PPP_PROTO_CHAP,
	  PKT(3, 0x1, 0, 18, 'A', 'c', 'c', 'e', 's', 's', ' ', 'g', 'r', 'a', 'n', 't', 'e', 'd'),
	  "[CHAP Success id=0x1 \"Access granted\"]" },
	{ "chap failure escapes", PPP_PROTO_CHAP, PKT(4, 0x2, 0, 9, 'a', '"', '\\', '\n', 1),
	  "[CHAP Failure id=0x2 \"a\\\"\\\\\\n\\001\"]" },
	{ "chap challenge value past the end", PPP_PROTO_CHAP, PKT(1, 0x1, 0, 6, 9, 1),
	  "[CHAP Challenge id=0x1 <malformed> 09 01]" },
	{ "ipcp confreq addr dns", PPP_PROTO_IPCP,
	  PKT(1, 0x1, 0, 22, 3, 6, 0, 0, 0, 0, 129, 6, 0, 0, 0, 0, 131, 6, 0, 0, 0, 0),
	  "[IPCP ConfReq id=0x1 <addr 0.0.0.0> <ms-dns1 0.0.0.0> <ms-dns2 0.0.0.0>]" },
	{ "ipcp confnak addr", PPP_PROTO_IPCP,
	  PKT(3, 0x1, 0, 16, 3, 6, 100, 64, 1, 2, 129, 6, 198, 51, 100, 53),
	  "[IPCP ConfNak id=0x1 <addr 100.64.1.2> <ms-dns1 198.51.100.53>]" },
	{ "ipcp confrej compress vj", PPP_PROTO_IPCP, PKT(4, 0x1, 0, 10, 2, 6, 0, 0x2d, 0x0f, 0x01),
	  "[IPCP ConfRej id=0x1 <compress VJ 0f 01>]" },
	{ "ipcp wins", PPP_PROTO_IPCP, PKT(1, 0x1, 0, 10, 130, 6, 10, 0, 0, 1),
	  "[IPCP ConfReq id=0x1 <ms-wins1 10.0.0.1>]" },
	{ "ipcp code above codereject", PPP_PROTO_IPCP, PKT(9, 0x1, 0, 4),
	  "[IPCP code=0x9 id=0x1]" },
	{ "ipv6cp confreq ifid", PPP_PROTO_IPV6CP,
	  PKT(1, 0x1, 0, 14, 1, 10, 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55),
	  "[IPV6CP ConfReq id=0x1 <addr fe80::0211:22ff:fe33:4455>]" },
	{ "option length past the packet", PPP_PROTO_LCP, PKT(1, 0x1, 0, 8, 1, 4, 5, 0xd4, 5, 6),
	  "[LCP ConfReq id=0x1 <mru 1492>]" },
	{ "option length beyond the ppp length", PPP_PROTO_LCP,
	  PKT(1, 0x1, 0, 10, 1, 4, 5, 0xd4, 5, 6),
	  "[LCP ConfReq id=0x1 <mru 1492> <malformed> 05 06]" },
	{ "option length below two", PPP_PROTO_LCP, PKT(1, 0x1, 0, 7, 1, 0, 9),
	  "[LCP ConfReq id=0x1 <malformed> 01 00 09]" },
	{ "ppp length beyond the data", PPP_PROTO_LCP, PKT(1, 0x1, 0, 20, 1, 4),
	  "[LCP <malformed> 01 01 00 14 01 04]" },
	{ "shorter than a header", PPP_PROTO_IPCP, PKT(1, 0x1), "[IPCP <malformed> 01 01]" },
	{ "unknown protocol", 0x8281, PKT(1, 2, 3), "[proto=0x8281 01 02 03]" },
};

TEST(table)
{
	char out[PPP_DECODE_MAX];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct decode_case *c = &cases[i];

		CHECK_EQ(ppp_decode(c->proto, c->data, c->len, out, sizeof(out)), 0);
		if (strcmp(out, c->text)) {
			printf("  case '%s':\n    got  %s\n    want %s\n", c->name, out, c->text);
			CHECK(!"decoded text differs");
		}
	}
}

/*
 * Discovery frames as pppd's rp-pppoe plugin prints them with debug (pppoe_printpkt), on
 * one line; text tags quoted, the AC-Cookie by its length only, PPP-Max-Payload its value.
 */
struct disc_case {
	const char *name;
	uint8_t frame[112];
	size_t len;
	const char *text;
};

#define BCAST	  0xff, 0xff, 0xff, 0xff, 0xff, 0xff
#define HOST	  0x02, 0, 0, 0, 0, 0x01
#define AC	  0x02, 0, 0, 0, 0, 0x02
#define DISC(...) PKT(__VA_ARGS__)
#define MACS_HOST " dst ff:ff:ff:ff:ff:ff src 02:00:00:00:00:01"
#define MACS_AC	  " dst 02:00:00:00:00:01 src 02:00:00:00:00:02"

static const struct disc_case disc_cases[] = {
	{ "padi any service, host-uniq",
	  DISC(BCAST, HOST, 0x88, 0x63, 0x11, 0x09, 0, 0, 0, 12, 0x01, 0x01, 0, 0, 0x01, 0x03, 0, 4,
	       0xde, 0xad, 0xbe, 0xef),
	  "PPPOE Discovery V1T1 PADI session 0x0 length 12" MACS_HOST
	  " [service-name] [host-uniq de ad be ef]" },
	{ "pado ac-name, cookie by length, max payload",
	  DISC(HOST, AC, 0x88, 0x63, 0x11, 0x07, 0, 0, 0, 26, 0x01, 0x02, 0, 4, 'i', 's', 'p', '1',
	       0x01, 0x01, 0, 0, 0x01, 0x04, 0, 4, 1, 2, 3, 4, 0x01, 0x20, 0, 2, 0x05, 0xdc),
	  "PPPOE Discovery V1T1 PADO session 0x0 length 26" MACS_AC
	  " [AC-name \"isp1\"] [service-name] [AC-cookie length 4] [PPP-max-payload 1500]" },
	{ "padr service-name",
	  DISC(AC, HOST, 0x88, 0x63, 0x11, 0x19, 0, 0, 0, 7, 0x01, 0x01, 0, 3, 'i', 'p', 't'),
	  "PPPOE Discovery V1T1 PADR session 0x0 length 7 dst 02:00:00:00:00:02 src "
	  "02:00:00:00:00:01 [service-name \"ipt\"]" },
	{ "pads session id",
	  DISC(HOST, AC, 0x88, 0x63, 0x11, 0x65, 0xca, 0xfe, 0, 4, 0x01, 0x01, 0, 0),
	  "PPPOE Discovery V1T1 PADS session 0xcafe length 4" MACS_AC " [service-name]" },
	{ "pads service-name-error, escaped",
	  DISC(HOST, AC, 0x88, 0x63, 0x11, 0x65, 0, 0, 0, 7, 0x02, 0x01, 0, 3, 'n', '"', 0x07),
	  "PPPOE Discovery V1T1 PADS session 0x0 length 7" MACS_AC
	  " [service-name-error \"n\\\"\\007\"]" },
	{ "padt generic-error",
	  DISC(HOST, AC, 0x88, 0x63, 0x11, 0xa7, 0x12, 0x34, 0, 6, 0x02, 0x03, 0, 2, 'b', 'y'),
	  "PPPOE Discovery V1T1 PADT session 0x1234 length 6" MACS_AC " [generic-error \"by\"]" },
	{ "ac-system-error, relay id, vendor tag, unknown tag",
	  DISC(HOST, AC, 0x88, 0x63, 0x11, 0x65, 0, 0, 0, 25, 0x02, 0x02, 0, 1, 'x', 0x01, 0x10, 0,
	       2, 0xab, 0xcd, 0x01, 0x05, 0, 2, 0, 1, 0x0f, 0x0f, 0, 0, 0x00, 0x00, 0, 0),
	  "PPPOE Discovery V1T1 PADS session 0x0 length 25" MACS_AC
	  " [AC-system-error \"x\"] [relay-session-id ab cd] [vendor-specific 00 01]"
	  " [unknown tag 0xf0f] [end-of-list]" },
	{ "unknown code, other version", DISC(HOST, AC, 0x88, 0x63, 0x21, 0x42, 0, 0, 0, 0),
	  "PPPOE Discovery V2T1 unknown code 0x42 session 0x0 length 0" MACS_AC },
	{ "max payload of the wrong size in hex",
	  DISC(HOST, AC, 0x88, 0x63, 0x11, 0x07, 0, 0, 0, 5, 0x01, 0x20, 0, 1, 0x05),
	  "PPPOE Discovery V1T1 PADO session 0x0 length 5" MACS_AC " [PPP-max-payload 05]" },
	{ "padding past the length is not shown",
	  DISC(HOST, AC, 0x88, 0x63, 0x11, 0xa7, 0, 1, 0, 0, 0xee, 0xee, 0xee, 0xee),
	  "PPPOE Discovery V1T1 PADT session 0x1 length 0" MACS_AC },
	{ "tag overruns the pppoe length",
	  DISC(HOST, AC, 0x88, 0x63, 0x11, 0x07, 0, 0, 0, 6, 0x01, 0x02, 0, 9, 'a', 'b'),
	  "PPPOE Discovery V1T1 PADO session 0x0 length 6" MACS_AC
	  " <malformed> 01 02 00 09 61 62" },
	{ "pppoe length beyond the frame",
	  DISC(HOST, AC, 0x88, 0x63, 0x11, 0x07, 0, 0, 0, 40, 0x01, 0x01, 0, 0),
	  "PPPOE Discovery V1T1 PADO session 0x0 length 40" MACS_AC
	  " <malformed: length 40, 4 bytes> [service-name]" },
	{ "not a discovery frame", DISC(HOST, AC, 0x08, 0x00, 0x45, 0),
	  "PPPOE Discovery <malformed> 02 00 00 00 00 01 02 00 00 00 00 02 08 00 45 00" },
	{ "shorter than the headers", DISC(HOST, AC, 0x88, 0x63, 0x11),
	  "PPPOE Discovery <malformed> 02 00 00 00 00 01 02 00 00 00 00 02 88 63 11" },
};

TEST(disc_table)
{
	char out[PPP_DECODE_MAX];
	size_t i;

	for (i = 0; i < sizeof(disc_cases) / sizeof(disc_cases[0]); i++) {
		const struct disc_case *c = &disc_cases[i];

		CHECK_EQ(pppoe_disc_decode(c->frame, c->len, out, sizeof(out)), 0);
		if (strcmp(out, c->text)) {
			printf("  case '%s':\n    got  %s\n    want %s\n", c->name, out, c->text);
			CHECK(!"decoded text differs");
		}
	}
}

/* A long host-uniq stops after 32 bytes, with its length; a cut line stays in the buffer. */
TEST(disc_long_and_cut)
{
	uint8_t f[20 + 4 + 40] = { BCAST, HOST, 0x88, 0x63, 0x11, 0x09, 0,
				   0,	  0,	44,   0x01, 0x03, 0,	40 };
	char out[PPP_DECODE_MAX + 4];

	CHECK_EQ(pppoe_disc_decode(f, sizeof(f), out, PPP_DECODE_MAX), 0);
	CHECK(strstr(out, " 00 ... (length 40)]") != NULL);
	memset(out, 'x', sizeof(out));
	CHECK_EQ(pppoe_disc_decode(f, sizeof(f), out, 40), 0);
	CHECK_EQ(strlen(out), 39);
	CHECK_EQ(out[40], 'x');
	CHECK_EQ(pppoe_disc_decode(f, sizeof(f), out, 7), -EINVAL);
}

/* A line that does not fit ends in "...]" inside the buffer, never past it. */
TEST(cut_to_the_buffer)
{
	static const uint8_t lcp[] = {
		1, 1, 0, 14, 1, 4, 0x05, 0xd4, 5, 6, 0x5e, 0x3d, 0x1c, 0x2a
	};
	char out[24];

	memset(out, 'x', sizeof(out));
	CHECK_EQ(ppp_decode(PPP_PROTO_LCP, lcp, sizeof(lcp), out, 20), 0);
	CHECK_EQ(strlen(out), 19);
	CHECK(!strcmp(out + 15, "...]"));
	CHECK_EQ(out[20], 'x');
	CHECK_EQ(ppp_decode(PPP_PROTO_LCP, lcp, sizeof(lcp), out, 7), -EINVAL);
}

/* Long hex rests stop after 32 bytes, as pppd's do. */
TEST(long_rest)
{
	uint8_t pkt[4 + 40] = { 9, 1, 0, sizeof(pkt) };
	char out[PPP_DECODE_MAX];

	CHECK_EQ(ppp_decode(PPP_PROTO_LCP, pkt, sizeof(pkt), out, sizeof(out)), 0);
	CHECK(strstr(out, " 00 ...]") != NULL);
	CHECK(!strncmp(out, "[LCP EchoReq id=0x1 magic=0x0 00", 32));
}

int main(void)
{
	check_prefix = "ppp_decode";
	RUN(table);
	RUN(cut_to_the_buffer);
	RUN(long_rest);
	RUN(disc_table);
	RUN(disc_long_and_cut);
	return check_summary();
}
