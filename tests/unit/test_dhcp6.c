// SPDX-License-Identifier: GPL-2.0
/* The AC's DHCPv6 server core and its router advertisements (pppoe/dhcp6.c, pppoe/ra.c). */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "dhcp6.h"
#include "pxp_bytes.h"
#include "ra.h"

static const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static const uint8_t client_duid[] = { 0, 3, 0, 1, 0x02, 0, 0, 0, 0, 0x02 };

/* Appends option code with len bytes of v at *at; returns the new end. */
static size_t opt(uint8_t *buf, size_t at, uint16_t code, const void *v, uint16_t len)
{
	put_be16(buf + at, code);
	put_be16(buf + at + 2, len);
	if (len)
		memcpy(buf + at + 4, v, len);
	return at + 4 + len;
}

/* A client message of type with our Client ID, an IA_PD (IAID 7) and an ORO for DNS. */
static size_t client_msg(uint8_t *buf, uint8_t type, const uint8_t *server_id,
			 uint16_t server_id_len, bool rapid)
{
	const uint8_t ia[12] = { 0, 0, 0, 7 };
	const uint8_t oro[2] = { 0, DHCP6_OPT_DNS_SERVERS };
	size_t n = 4;

	buf[0] = type;
	buf[1] = 0x12, buf[2] = 0x34, buf[3] = 0x56;
	n = opt(buf, n, DHCP6_OPT_CLIENTID, client_duid, sizeof(client_duid));
	if (server_id)
		n = opt(buf, n, DHCP6_OPT_SERVERID, server_id, server_id_len);
	n = opt(buf, n, DHCP6_OPT_ELAPSED_TIME, "\0\0", 2);
	n = opt(buf, n, DHCP6_OPT_IA_PD, ia, sizeof(ia));
	n = opt(buf, n, DHCP6_OPT_ORO, oro, sizeof(oro));
	if (rapid)
		n = opt(buf, n, DHCP6_OPT_RAPID_COMMIT, NULL, 0);
	return n;
}

static void config(struct dhcp6_server_config *cfg, struct dhcp6_binding *b)
{
	static const uint8_t pd[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x01, 0x00, 0x01, 0x00 };

	memset(cfg, 0, sizeof(*cfg));
	cfg->duid_len = dhcp6_duid_ll(cfg->duid, mac);
	cfg->dns[0][0] = 0x20, cfg->dns[0][15] = 0x53;
	cfg->dns_count = 1;
	cfg->preferred_s = 3600;
	cfg->valid_s = 7200;
	memcpy(b->prefix, pd, 16);
	b->prefix_len = 56;
}

/* The option code in the top-level options of a server message, or NULL. */
static const uint8_t *find(const uint8_t *msg, size_t len, uint16_t code, uint16_t *olen)
{
	size_t off = 4;

	while (off + 4 <= len) {
		uint16_t c = get_be16(msg + off), l = get_be16(msg + off + 2);

		if (off + 4 + l > len)
			return NULL;
		if (c == code) {
			*olen = l;
			return msg + off + 4;
		}
		off += 4 + (size_t)l;
	}
	return NULL;
}

TEST(duid_ll)
{
	uint8_t duid[DHCP6_DUID_MAX];
	const uint8_t want[] = { 0, 3, 0, 1, 0x02, 0, 0, 0, 0, 0x01 };

	CHECK_EQ(dhcp6_duid_ll(duid, mac), 10);
	CHECK_MEM(duid, want, 10);
}

TEST(solicit_advertise)
{
	struct dhcp6_server_config cfg;
	struct dhcp6_binding b;
	struct dhcp6_msg m;
	enum dhcp6_drop_reason reason;
	enum dhcp6_outcome outcome;
	uint8_t in[256], out[512];
	const uint8_t *v, *pfx;
	uint16_t l;
	int n;

	config(&cfg, &b);
	CHECK_EQ(dhcp6_parse(in, client_msg(in, DHCP6_SOLICIT, NULL, 0, false), &m, &reason), 0);
	CHECK_EQ(m.type, DHCP6_SOLICIT);
	CHECK_EQ(m.xid, 0x123456);
	CHECK(m.has_ia_pd && m.ia_pd_iaid == 7 && m.wants_dns && !m.rapid_commit);
	n = dhcp6_answer(&cfg, &b, &m, out, sizeof(out), &outcome, &reason);
	CHECK(n > 0);
	CHECK_EQ(out[0], DHCP6_ADVERTISE);
	CHECK_EQ(out[3], 0x56);
	CHECK_EQ(outcome, DHCP6_NO_CHANGE); /* an Advertise binds nothing */
	v = find(out, (size_t)n, DHCP6_OPT_SERVERID, &l);
	CHECK(v && l == cfg.duid_len && !memcmp(v, cfg.duid, l));
	v = find(out, (size_t)n, DHCP6_OPT_CLIENTID, &l);
	CHECK(v && l == sizeof(client_duid) && !memcmp(v, client_duid, l));
	v = find(out, (size_t)n, DHCP6_OPT_IA_PD, &l);
	CHECK(v && l == 12 + 4 + 25);
	CHECK_EQ(get_be32(v), 7);
	CHECK_EQ(get_be32(v + 4), 1800); /* T1 */
	CHECK_EQ(get_be32(v + 8), 2880); /* T2 */
	pfx = v + 12;
	CHECK_EQ(get_be16(pfx), DHCP6_OPT_IAPREFIX);
	CHECK_EQ(get_be16(pfx + 2), 25);
	CHECK_EQ(get_be32(pfx + 4), 3600);
	CHECK_EQ(get_be32(pfx + 8), 7200);
	CHECK_EQ(pfx[12], 56);
	CHECK_MEM(pfx + 13, b.prefix, 16);
	v = find(out, (size_t)n, DHCP6_OPT_DNS_SERVERS, &l);
	CHECK(v && l == 16 && v[15] == 0x53);
	/* The Advertise parses as a DHCPv6 message too. */
	CHECK_EQ(dhcp6_parse(out, (size_t)n, &m, &reason), 0);
	CHECK(m.has_ia_pd && m.server_id_len == cfg.duid_len);
}

TEST(rapid_commit_binds)
{
	struct dhcp6_server_config cfg;
	struct dhcp6_binding b;
	struct dhcp6_msg m;
	enum dhcp6_drop_reason reason;
	enum dhcp6_outcome outcome;
	uint8_t in[256], out[512];
	uint16_t l;
	int n;

	config(&cfg, &b);
	CHECK_EQ(dhcp6_parse(in, client_msg(in, DHCP6_SOLICIT, NULL, 0, true), &m, &reason), 0);
	n = dhcp6_answer(&cfg, &b, &m, out, sizeof(out), &outcome, &reason);
	CHECK(n > 0);
	CHECK_EQ(out[0], DHCP6_REPLY);
	CHECK(find(out, (size_t)n, DHCP6_OPT_RAPID_COMMIT, &l) && l == 0);
	CHECK_EQ(outcome, DHCP6_BOUND);
}

TEST(request_renew_rebind_release)
{
	struct dhcp6_server_config cfg;
	struct dhcp6_binding b;
	struct dhcp6_msg m;
	enum dhcp6_drop_reason reason;
	enum dhcp6_outcome outcome;
	uint8_t in[256], out[512], other[10];
	const uint8_t *v;
	uint16_t l;
	int n;

	config(&cfg, &b);
	n = (int)client_msg(in, DHCP6_REQUEST, cfg.duid, cfg.duid_len, false);
	CHECK_EQ(dhcp6_parse(in, (size_t)n, &m, &reason), 0);
	n = dhcp6_answer(&cfg, &b, &m, out, sizeof(out), &outcome, &reason);
	CHECK(n > 0 && out[0] == DHCP6_REPLY && outcome == DHCP6_BOUND);

	n = (int)client_msg(in, DHCP6_RENEW, cfg.duid, cfg.duid_len, false);
	CHECK_EQ(dhcp6_parse(in, (size_t)n, &m, &reason), 0);
	n = dhcp6_answer(&cfg, &b, &m, out, sizeof(out), &outcome, &reason);
	CHECK(n > 0 && out[0] == DHCP6_REPLY && outcome == DHCP6_BOUND);

	/* Another server's Request or Renew is not ours to answer. */
	memcpy(other, cfg.duid, sizeof(other));
	other[9] ^= 1;
	n = (int)client_msg(in, DHCP6_RENEW, other, sizeof(other), false);
	CHECK_EQ(dhcp6_parse(in, (size_t)n, &m, &reason), 0);
	CHECK_EQ(dhcp6_answer(&cfg, &b, &m, out, sizeof(out), &outcome, &reason), 0);
	CHECK_EQ(reason, DHCP6_DROP_SERVER_ID);

	n = (int)client_msg(in, DHCP6_REBIND, NULL, 0, false);
	CHECK_EQ(dhcp6_parse(in, (size_t)n, &m, &reason), 0);
	n = dhcp6_answer(&cfg, &b, &m, out, sizeof(out), &outcome, &reason);
	CHECK(n > 0 && out[0] == DHCP6_REPLY && outcome == DHCP6_BOUND);

	n = (int)client_msg(in, DHCP6_RELEASE, cfg.duid, cfg.duid_len, false);
	CHECK_EQ(dhcp6_parse(in, (size_t)n, &m, &reason), 0);
	n = dhcp6_answer(&cfg, &b, &m, out, sizeof(out), &outcome, &reason);
	CHECK(n > 0 && out[0] == DHCP6_REPLY && outcome == DHCP6_RELEASED);
	v = find(out, (size_t)n, DHCP6_OPT_STATUS_CODE, &l);
	CHECK(v && l >= 2 && get_be16(v) == DHCP6_STATUS_SUCCESS);
	CHECK(!find(out, (size_t)n, DHCP6_OPT_IA_PD, &l));
}

TEST(ia_na_and_empty_pool)
{
	struct dhcp6_server_config cfg;
	struct dhcp6_binding b;
	struct dhcp6_msg m;
	enum dhcp6_drop_reason reason;
	enum dhcp6_outcome outcome;
	const uint8_t ia[12] = { 0, 0, 0, 9 };
	uint8_t in[256], out[512];
	const uint8_t *v;
	uint16_t l;
	size_t n;
	int k;

	/* IA_NA besides IA_PD: NoAddrsAvail inside the IA_NA, the prefix committed. */
	config(&cfg, &b);
	n = client_msg(in, DHCP6_SOLICIT, NULL, 0, true);
	n = opt(in, n, DHCP6_OPT_IA_NA, ia, sizeof(ia));
	CHECK_EQ(dhcp6_parse(in, n, &m, &reason), 0);
	CHECK(m.has_ia_na && m.ia_na_iaid == 9);
	k = dhcp6_answer(&cfg, &b, &m, out, sizeof(out), &outcome, &reason);
	CHECK(k > 0 && out[0] == DHCP6_REPLY && outcome == DHCP6_BOUND);
	v = find(out, (size_t)k, DHCP6_OPT_IA_NA, &l);
	CHECK(v && l == 12 + 4 + 2 + strlen("addresses by SLAAC"));
	CHECK_EQ(get_be16(v + 12), DHCP6_OPT_STATUS_CODE);
	CHECK_EQ(get_be16(v + 16), DHCP6_STATUS_NO_ADDRS_AVAIL);
	CHECK(find(out, (size_t)k, DHCP6_OPT_IA_PD, &l));

	/* The pool exhausted: a Solicit, even with Rapid Commit, is advertised a top-level
	 * NoPrefixAvail and no IA (RFC 8415 18.3.9). */
	b.prefix_len = 0;
	k = dhcp6_answer(&cfg, &b, &m, out, sizeof(out), &outcome, &reason);
	CHECK(k > 0 && out[0] == DHCP6_ADVERTISE && outcome == DHCP6_NO_CHANGE);
	CHECK(!find(out, (size_t)k, DHCP6_OPT_RAPID_COMMIT, &l));
	CHECK(!find(out, (size_t)k, DHCP6_OPT_IA_PD, &l) &&
	      !find(out, (size_t)k, DHCP6_OPT_IA_NA, &l));
	v = find(out, (size_t)k, DHCP6_OPT_STATUS_CODE, &l);
	CHECK(v && get_be16(v) == DHCP6_STATUS_NO_PREFIX_AVAIL);

	/* A Request then gets the IA_PD with NoPrefixAvail inside. */
	n = client_msg(in, DHCP6_REQUEST, cfg.duid, cfg.duid_len, false);
	CHECK_EQ(dhcp6_parse(in, n, &m, &reason), 0);
	k = dhcp6_answer(&cfg, &b, &m, out, sizeof(out), &outcome, &reason);
	CHECK(k > 0 && out[0] == DHCP6_REPLY && outcome == DHCP6_NO_CHANGE);
	v = find(out, (size_t)k, DHCP6_OPT_IA_PD, &l);
	CHECK(v && get_be16(v + 12) == DHCP6_OPT_STATUS_CODE);
	CHECK_EQ(get_be16(v + 16), DHCP6_STATUS_NO_PREFIX_AVAIL);
}

/* A Rebind for a prefix of an earlier life: that one with lifetimes 0, then the link's. */
TEST(rebind_foreign_prefix)
{
	struct dhcp6_server_config cfg;
	struct dhcp6_binding b;
	struct dhcp6_msg m;
	enum dhcp6_drop_reason reason;
	enum dhcp6_outcome outcome;
	uint8_t ia[12 + 29] = { 0, 0, 0, 7 }, in[256], out[512];
	const uint8_t *v;
	uint16_t l;
	size_t n;
	int k;

	config(&cfg, &b);
	put_be16(ia + 12, DHCP6_OPT_IAPREFIX);
	put_be16(ia + 14, 25);
	ia[12 + 4 + 8] = 56;
	memcpy(ia + 12 + 4 + 9, b.prefix, 16);
	ia[12 + 4 + 9 + 6] = 0x42; /* 2001:db8:100:4200::/56 */
	in[0] = DHCP6_REBIND, in[1] = in[2] = in[3] = 1;
	n = opt(in, 4, DHCP6_OPT_CLIENTID, client_duid, sizeof(client_duid));
	n = opt(in, n, DHCP6_OPT_IA_PD, ia, sizeof(ia));
	CHECK_EQ(dhcp6_parse(in, n, &m, &reason), 0);
	CHECK(m.pd_hint_len == 56 && m.pd_hint[6] == 0x42);
	k = dhcp6_answer(&cfg, &b, &m, out, sizeof(out), &outcome, &reason);
	CHECK(k > 0 && outcome == DHCP6_BOUND);
	v = find(out, (size_t)k, DHCP6_OPT_IA_PD, &l);
	CHECK(v && l == 12 + 2 * 29);
	CHECK(get_be32(v + 12 + 4) == 0 && get_be32(v + 12 + 8) == 0 && v[12 + 4 + 9 + 6] == 0x42);
	CHECK(get_be32(v + 41 + 4) == 3600 && !memcmp(v + 41 + 4 + 9, b.prefix, 16));
	/* The link's own prefix is answered once. */
	memcpy(ia + 12 + 4 + 9, b.prefix, 16);
	n = opt(in, 4, DHCP6_OPT_CLIENTID, client_duid, sizeof(client_duid));
	n = opt(in, n, DHCP6_OPT_IA_PD, ia, sizeof(ia));
	CHECK_EQ(dhcp6_parse(in, n, &m, &reason), 0);
	k = dhcp6_answer(&cfg, &b, &m, out, sizeof(out), &outcome, &reason);
	v = find(out, (size_t)k, DHCP6_OPT_IA_PD, &l);
	CHECK(v && l == 12 + 29);
	/* An IA Prefix cut short, or longer than /128. */
	put_be16(ia + 14, 24);
	n = opt(in, 4, DHCP6_OPT_IA_PD, ia, 12 + 28);
	CHECK_EQ(dhcp6_parse(in, n, &m, &reason), -EBADMSG);
	CHECK_EQ(reason, DHCP6_DROP_BAD_FIELD);
	put_be16(ia + 14, 25);
	ia[12 + 4 + 8] = 129;
	n = opt(in, 4, DHCP6_OPT_IA_PD, ia, sizeof(ia));
	CHECK_EQ(dhcp6_parse(in, n, &m, &reason), -EBADMSG);
	CHECK_EQ(reason, DHCP6_DROP_BAD_FIELD);
}

TEST(information_request)
{
	struct dhcp6_server_config cfg;
	struct dhcp6_binding b;
	struct dhcp6_msg m;
	enum dhcp6_drop_reason reason;
	enum dhcp6_outcome outcome;
	const uint8_t oro[2] = { 0, DHCP6_OPT_DNS_SERVERS };
	uint8_t in[64] = { DHCP6_INFORMATION_REQUEST, 1, 2, 3 }, out[256];
	uint16_t l;
	size_t n;
	int k;

	config(&cfg, &b);
	n = opt(in, 4, DHCP6_OPT_ORO, oro, sizeof(oro));
	CHECK_EQ(dhcp6_parse(in, n, &m, &reason), 0);
	k = dhcp6_answer(&cfg, &b, &m, out, sizeof(out), &outcome, &reason);
	CHECK(k > 0 && out[0] == DHCP6_REPLY && outcome == DHCP6_NO_CHANGE);
	CHECK(find(out, (size_t)k, DHCP6_OPT_DNS_SERVERS, &l) && l == 16);
	CHECK(!find(out, (size_t)k, DHCP6_OPT_IA_PD, &l));
}

TEST(not_answered)
{
	struct dhcp6_server_config cfg;
	struct dhcp6_binding b;
	struct dhcp6_msg m;
	enum dhcp6_drop_reason reason;
	enum dhcp6_outcome outcome;
	uint8_t in[256], out[512];
	size_t n;

	config(&cfg, &b);
	/* A Solicit naming a server, an Advertise (a server's message), no Client ID. */
	n = client_msg(in, DHCP6_SOLICIT, cfg.duid, cfg.duid_len, false);
	CHECK_EQ(dhcp6_parse(in, n, &m, &reason), 0);
	CHECK_EQ(dhcp6_answer(&cfg, &b, &m, out, sizeof(out), &outcome, &reason), 0);
	CHECK_EQ(reason, DHCP6_DROP_SERVER_ID);
	n = client_msg(in, DHCP6_ADVERTISE, NULL, 0, false);
	CHECK_EQ(dhcp6_parse(in, n, &m, &reason), 0);
	CHECK_EQ(dhcp6_answer(&cfg, &b, &m, out, sizeof(out), &outcome, &reason), 0);
	CHECK_EQ(reason, DHCP6_DROP_TYPE);
	in[0] = DHCP6_SOLICIT;
	CHECK_EQ(dhcp6_parse(in, 4, &m, &reason), 0);
	CHECK_EQ(dhcp6_answer(&cfg, &b, &m, out, sizeof(out), &outcome, &reason), 0);
	CHECK_EQ(reason, DHCP6_DROP_NO_CLIENT_ID);
	/* Too small a buffer is an error, never a cut message. */
	n = client_msg(in, DHCP6_SOLICIT, NULL, 0, false);
	CHECK_EQ(dhcp6_parse(in, n, &m, &reason), 0);
	CHECK_EQ(dhcp6_answer(&cfg, &b, &m, out, 40, &outcome, &reason), -EMSGSIZE);
}

static enum dhcp6_drop_reason parse_reason(const uint8_t *buf, size_t len)
{
	enum dhcp6_drop_reason reason = DHCP6_DROP_REASON_COUNT;
	struct dhcp6_msg m;

	if (!dhcp6_parse(buf, len, &m, &reason))
		return DHCP6_DROP_REASON_COUNT;
	return reason;
}

TEST(malformed)
{
	uint8_t in[256];
	size_t n;

	CHECK_EQ(parse_reason(in, 3), DHCP6_DROP_SHORT);
	n = client_msg(in, DHCP6_SOLICIT, NULL, 0, false);
	CHECK_EQ(parse_reason(in, n), DHCP6_DROP_REASON_COUNT);
	/* The last option cut short, or its length past the end. */
	CHECK_EQ(parse_reason(in, n - 1), DHCP6_DROP_OPTION);
	CHECK_EQ(parse_reason(in, 6), DHCP6_DROP_OPTION);
	put_be16(in + 6, 200);
	CHECK_EQ(parse_reason(in, n), DHCP6_DROP_OPTION);
	/* A Client ID of 0 or 129 bytes. */
	n = opt(in, 4, DHCP6_OPT_CLIENTID, NULL, 0);
	CHECK_EQ(parse_reason(in, n), DHCP6_DROP_BAD_FIELD);
	memset(in + 8, 1, 129);
	n = opt(in, 4, DHCP6_OPT_CLIENTID, in + 8, 129);
	CHECK_EQ(parse_reason(in, n), DHCP6_DROP_BAD_FIELD);
	/* Two Client IDs. */
	n = opt(in, 4, DHCP6_OPT_CLIENTID, client_duid, sizeof(client_duid));
	n = opt(in, n, DHCP6_OPT_CLIENTID, client_duid, sizeof(client_duid));
	CHECK_EQ(parse_reason(in, n), DHCP6_DROP_DUPLICATE);
	/* An IA_PD of 11 bytes; one whose inner option runs past it. */
	n = opt(in, 4, DHCP6_OPT_IA_PD, "12345678901", 11);
	CHECK_EQ(parse_reason(in, n), DHCP6_DROP_BAD_FIELD);
	n = opt(in, 4, DHCP6_OPT_IA_PD, "123456789012\0\x1a\0\x20", 16);
	CHECK_EQ(parse_reason(in, n), DHCP6_DROP_OPTION);
	/* An odd ORO, a Rapid Commit with data. */
	n = opt(in, 4, DHCP6_OPT_ORO, "\0\x17\0", 3);
	CHECK_EQ(parse_reason(in, n), DHCP6_DROP_BAD_FIELD);
	n = opt(in, 4, DHCP6_OPT_RAPID_COMMIT, "x", 1);
	CHECK_EQ(parse_reason(in, n), DHCP6_DROP_BAD_FIELD);
	CHECK(strcmp(dhcp6_drop_reason_name(DHCP6_DROP_OPTION), "option_length") == 0);
}

TEST(prefix_nth)
{
	const uint8_t pool[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x01, 0x00 };
	uint8_t out[16];

	CHECK_EQ(dhcp6_prefix_nth(pool, 40, 56, 0, out), 0);
	CHECK_MEM(out, pool, 16);
	CHECK_EQ(dhcp6_prefix_nth(pool, 40, 56, 0x1ff, out), 0);
	CHECK(out[4] == 0x01 && out[5] == 0x01 && out[6] == 0xff && out[7] == 0);
	CHECK_EQ(dhcp6_prefix_nth(pool, 40, 56, 0x10000, out), -ERANGE);
	CHECK_EQ(dhcp6_prefix_nth(pool, 48, 64, 3, out), 0);
	CHECK(out[6] == 0 && out[7] == 3);
	CHECK_EQ(dhcp6_prefix_nth(pool, 64, 64, 0, out), 0);
	CHECK_EQ(dhcp6_prefix_nth(pool, 64, 64, 1, out), -ERANGE);
	CHECK_EQ(dhcp6_prefix_nth(pool, 56, 48, 0, out), -ERANGE);
}

TEST(ra_build_bytes)
{
	struct ra_config cfg = {
		.cur_hop_limit = 64,
		.other = true,
		.router_lifetime_s = 1800,
		.mtu = 1492,
		.prefix = { 0x20, 0x01, 0x0d, 0xb8, 0, 1 },
		.prefix_len = 64,
		.valid_s = 7200,
		.preferred_s = 3600,
		.dns = { { 0x20, 0x01, [15] = 0x53 } },
		.dns_count = 1,
		.dns_lifetime_s = 900,
	};
	uint8_t out[128];
	int n = ra_build(&cfg, out, sizeof(out));

	CHECK_EQ(n, 16 + 8 + 32 + 24);
	CHECK_EQ(out[0], ICMP6_ROUTER_ADVERT);
	CHECK_EQ(out[4], 64);
	CHECK_EQ(out[5], 0x40); /* O, not M */
	CHECK_EQ(get_be16(out + 6), 1800);
	CHECK(out[16] == 5 && out[17] == 1 && get_be32(out + 20) == 1492);
	CHECK(out[24] == 3 && out[25] == 4 && out[26] == 64 && out[27] == 0xc0);
	CHECK(get_be32(out + 28) == 7200 && get_be32(out + 32) == 3600);
	CHECK_MEM(out + 40, cfg.prefix, 16);
	CHECK(out[56] == 25 && out[57] == 3 && get_be32(out + 60) == 900);
	CHECK_MEM(out + 64, cfg.dns[0], 16);
	CHECK_EQ(ra_build(&cfg, out, 60), -EMSGSIZE);
}

TEST(ra_solicit)
{
	uint8_t rs[16] = { ICMP6_ROUTER_SOLICIT, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 0, 0, 0, 0, 1 };

	CHECK_EQ(ra_parse_rs(rs, 8, 255), 0);
	CHECK_EQ(ra_parse_rs(rs, 16, 255), 0);
	CHECK_EQ(ra_parse_rs(rs, 16, 254), -EBADMSG); /* not from the link */
	CHECK_EQ(ra_parse_rs(rs, 7, 255), -EBADMSG);
	CHECK_EQ(ra_parse_rs(rs, 15, 255), -EBADMSG); /* option past the end */
	rs[9] = 0;
	CHECK_EQ(ra_parse_rs(rs, 16, 255), -EBADMSG); /* option of length 0 */
	rs[9] = 1;
	rs[1] = 1;
	CHECK_EQ(ra_parse_rs(rs, 16, 255), -EBADMSG);
	rs[1] = 0;
	rs[0] = ICMP6_ROUTER_ADVERT;
	CHECK_EQ(ra_parse_rs(rs, 16, 255), -EBADMSG);
}

int main(void)
{
	check_prefix = "unit/dhcp6";
	RUN(duid_ll);
	RUN(solicit_advertise);
	RUN(rapid_commit_binds);
	RUN(request_renew_rebind_release);
	RUN(ia_na_and_empty_pool);
	RUN(rebind_foreign_prefix);
	RUN(information_request);
	RUN(not_answered);
	RUN(malformed);
	RUN(prefix_nth);
	RUN(ra_build_bytes);
	RUN(ra_solicit);
	return check_summary();
}
