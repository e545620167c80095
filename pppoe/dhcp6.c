// SPDX-License-Identifier: GPL-2.0
/* The AC's DHCPv6 server core (RFC 8415); see dhcp6.h. */
#include "dhcp6.h"

#include <errno.h>
#include <string.h>

#include "pxp_bytes.h"

const uint8_t dhcp6_all_servers[16] = { 0xff, 0x02, [13] = 0x01, [15] = 0x02 };

#define HDR_LEN	     4
#define OPT_HDR	     4
#define IA_FIXED     12 /* IAID, T1, T2 */
#define DUID_TYPE_LL 3
#define HWTYPE_ETHER 1

/* Every option inside [p, p + len) fits in it. */
static bool options_fit(const uint8_t *p, size_t len)
{
	while (len) {
		size_t olen;

		if (len < OPT_HDR)
			return false;
		olen = get_be16(p + 2);
		if (olen > len - OPT_HDR)
			return false;
		p += OPT_HDR + olen;
		len -= OPT_HDR + olen;
	}
	return true;
}

static int drop(enum dhcp6_drop_reason *reason, enum dhcp6_drop_reason why)
{
	*reason = why;
	return -EBADMSG;
}

/* An IA_NA or IA_PD: its IAID, and its own options must fit. */
static int parse_ia(const uint8_t *v, size_t len, bool *seen, uint32_t *iaid,
		    enum dhcp6_drop_reason *reason)
{
	if (*seen)
		return drop(reason, DHCP6_DROP_DUPLICATE);
	if (len < IA_FIXED)
		return drop(reason, DHCP6_DROP_BAD_FIELD);
	if (!options_fit(v + IA_FIXED, len - IA_FIXED))
		return drop(reason, DHCP6_DROP_OPTION);
	*seen = true;
	*iaid = get_be32(v);
	return 0;
}

/* The IA Prefix options of an IA_PD (whose options fit): well formed, the first one kept. */
static int parse_pd_prefixes(const uint8_t *v, size_t len, struct dhcp6_msg *m,
			     enum dhcp6_drop_reason *reason)
{
	const uint8_t *p = v + IA_FIXED;
	size_t left = len - IA_FIXED;

	while (left) {
		uint16_t code = get_be16(p), olen = get_be16(p + 2);

		if (code == DHCP6_OPT_IAPREFIX) {
			/* preferred, valid, length, prefix: 25 bytes */
			if (olen < 25 || p[OPT_HDR + 8] > 128)
				return drop(reason, DHCP6_DROP_BAD_FIELD);
			if (!m->pd_hint_len && p[OPT_HDR + 8]) {
				m->pd_hint_len = p[OPT_HDR + 8];
				memcpy(m->pd_hint, p + OPT_HDR + 9, 16);
			}
		}
		p += OPT_HDR + olen;
		left -= OPT_HDR + (size_t)olen;
	}
	return 0;
}

static int parse_duid(const uint8_t *v, size_t len, const uint8_t **at, uint16_t *at_len,
		      enum dhcp6_drop_reason *reason)
{
	if (*at_len)
		return drop(reason, DHCP6_DROP_DUPLICATE);
	if (!len || len > DHCP6_DUID_MAX)
		return drop(reason, DHCP6_DROP_BAD_FIELD);
	*at = v;
	*at_len = (uint16_t)len;
	return 0;
}

int dhcp6_parse(const uint8_t *buf, size_t len, struct dhcp6_msg *m, enum dhcp6_drop_reason *reason)
{
	const uint8_t *p = buf + HDR_LEN;
	size_t left;
	size_t i;
	int err = 0;

	memset(m, 0, sizeof(*m));
	if (len < HDR_LEN)
		return drop(reason, DHCP6_DROP_SHORT);
	m->type = buf[0];
	m->xid = (uint32_t)buf[1] << 16 | (uint32_t)buf[2] << 8 | buf[3];
	left = len - HDR_LEN;
	if (!options_fit(p, left))
		return drop(reason, DHCP6_DROP_OPTION);
	while (left && !err) {
		uint16_t code = get_be16(p), olen = get_be16(p + 2);
		const uint8_t *v = p + OPT_HDR;

		switch (code) {
		case DHCP6_OPT_CLIENTID:
			err = parse_duid(v, olen, &m->client_id, &m->client_id_len, reason);
			break;
		case DHCP6_OPT_SERVERID:
			err = parse_duid(v, olen, &m->server_id, &m->server_id_len, reason);
			break;
		case DHCP6_OPT_IA_NA:
			err = parse_ia(v, olen, &m->has_ia_na, &m->ia_na_iaid, reason);
			break;
		case DHCP6_OPT_IA_PD:
			err = parse_ia(v, olen, &m->has_ia_pd, &m->ia_pd_iaid, reason);
			err = err ?: parse_pd_prefixes(v, olen, m, reason);
			break;
		case DHCP6_OPT_RAPID_COMMIT:
			if (olen)
				err = drop(reason, DHCP6_DROP_BAD_FIELD);
			m->rapid_commit = true;
			break;
		case DHCP6_OPT_ORO:
			if (olen % 2)
				err = drop(reason, DHCP6_DROP_BAD_FIELD);
			for (i = 0; !err && i < olen; i += 2)
				if (get_be16(v + i) == DHCP6_OPT_DNS_SERVERS)
					m->wants_dns = true;
			break;
		default:
			break; /* elapsed time, vendor class, ...: not needed to answer */
		}
		p += OPT_HDR + olen;
		left -= OPT_HDR + (size_t)olen;
	}
	return err;
}

uint16_t dhcp6_duid_ll(uint8_t duid[DHCP6_DUID_MAX], const uint8_t mac[6])
{
	put_be16(duid, DUID_TYPE_LL);
	put_be16(duid + 2, HWTYPE_ETHER);
	memcpy(duid + 4, mac, 6);
	return 10;
}

/* ------------------------------------------------------------ building */

struct out {
	uint8_t *buf;
	size_t cap, len;
	bool overflow;
};

/* Reserves n bytes; NULL (and overflow set) when they do not fit. */
static uint8_t *reserve(struct out *o, size_t n)
{
	uint8_t *p;

	if (o->overflow || n > o->cap - o->len) {
		o->overflow = true;
		return NULL;
	}
	p = o->buf + o->len;
	o->len += n;
	return p;
}

/* Starts an option; returns its offset, for end_opt() to write the length. */
static size_t begin_opt(struct out *o, uint16_t code)
{
	size_t at = o->len;
	uint8_t *p = reserve(o, OPT_HDR);

	if (p)
		put_be16(p, code);
	return at;
}

static void end_opt(struct out *o, size_t at)
{
	if (!o->overflow)
		put_be16(o->buf + at + 2, (uint16_t)(o->len - at - OPT_HDR));
}

static void put_bytes(struct out *o, const void *v, size_t n)
{
	uint8_t *p = reserve(o, n);

	if (p && n)
		memcpy(p, v, n);
}

static void put_u32(struct out *o, uint32_t v)
{
	uint8_t *p = reserve(o, 4);

	if (p)
		put_be32(p, v);
}

static void put_opt(struct out *o, uint16_t code, const void *v, size_t n)
{
	size_t at = begin_opt(o, code);

	put_bytes(o, v, n);
	end_opt(o, at);
}

static void put_status(struct out *o, uint16_t status, const char *text)
{
	size_t at = begin_opt(o, DHCP6_OPT_STATUS_CODE);
	uint8_t *p = reserve(o, 2);

	if (p)
		put_be16(p, status);
	put_bytes(o, text, strlen(text));
	end_opt(o, at);
}

/* An IA_NA: we hand out no addresses on a PPPoE link (SLAAC from the RA does). */
static void put_ia_na(struct out *o, uint32_t iaid)
{
	size_t at = begin_opt(o, DHCP6_OPT_IA_NA);

	put_u32(o, iaid);
	put_u32(o, 0);
	put_u32(o, 0);
	put_status(o, DHCP6_STATUS_NO_ADDRS_AVAIL, "addresses by SLAAC");
	end_opt(o, at);
}

static void put_iaprefix(struct out *o, uint32_t preferred, uint32_t valid, uint8_t len,
			 const uint8_t prefix[16])
{
	size_t at = begin_opt(o, DHCP6_OPT_IAPREFIX);

	put_u32(o, preferred);
	put_u32(o, valid);
	put_bytes(o, &len, 1);
	put_bytes(o, prefix, 16);
	end_opt(o, at);
}

/* The client's prefix is not the link's: it must stop using it (lifetimes 0). */
static bool foreign_hint(const struct dhcp6_msg *m, const struct dhcp6_binding *b)
{
	return m->type != DHCP6_SOLICIT && m->pd_hint_len &&
	       (m->pd_hint_len != b->prefix_len || memcmp(m->pd_hint, b->prefix, 16));
}

static void put_ia_pd(struct out *o, const struct dhcp6_server_config *cfg,
		      const struct dhcp6_binding *b, const struct dhcp6_msg *m)
{
	size_t at = begin_opt(o, DHCP6_OPT_IA_PD);

	put_u32(o, m->ia_pd_iaid);
	if (!b->prefix_len) {
		put_u32(o, 0);
		put_u32(o, 0);
		put_status(o, DHCP6_STATUS_NO_PREFIX_AVAIL, "prefix pool exhausted");
		end_opt(o, at);
		return;
	}
	/* RFC 8415 21.21: T1 0.5 and T2 0.8 of the preferred lifetime. */
	put_u32(o, cfg->preferred_s / 2);
	put_u32(o, (uint32_t)((uint64_t)cfg->preferred_s * 4 / 5));
	if (foreign_hint(m, b))
		put_iaprefix(o, 0, 0, m->pd_hint_len, m->pd_hint);
	put_iaprefix(o, cfg->preferred_s, cfg->valid_s, b->prefix_len, b->prefix);
	end_opt(o, at);
}

/* Which Server ID a type needs (RFC 8415 16): 1 ours, 0 none, -1 ours if any. */
static int server_id_rule(uint8_t type)
{
	switch (type) {
	case DHCP6_SOLICIT:
	case DHCP6_REBIND:
		return 0;
	case DHCP6_REQUEST:
	case DHCP6_RENEW:
	case DHCP6_RELEASE:
		return 1;
	case DHCP6_INFORMATION_REQUEST:
		return -1;
	default:
		return -2;
	}
}

int dhcp6_answer(const struct dhcp6_server_config *cfg, const struct dhcp6_binding *b,
		 const struct dhcp6_msg *m, uint8_t *out, size_t cap, enum dhcp6_outcome *outcome,
		 enum dhcp6_drop_reason *reason)
{
	struct out o = { .buf = out, .cap = cap };
	int rule = server_id_rule(m->type);
	bool ours = m->server_id_len == cfg->duid_len &&
		    !memcmp(m->server_id, cfg->duid, cfg->duid_len);
	bool advertise = m->type == DHCP6_SOLICIT && !m->rapid_commit;
	/* A Solicit none of whose IAs would get anything (RFC 8415 18.3.9). */
	bool nothing = m->type == DHCP6_SOLICIT && (m->has_ia_na || m->has_ia_pd) &&
		       !(m->has_ia_pd && b->prefix_len);
	uint8_t *hdr;

	*outcome = DHCP6_NO_CHANGE;
	if (rule == -2) {
		*reason = DHCP6_DROP_TYPE;
		return 0;
	}
	if (!m->client_id_len && m->type != DHCP6_INFORMATION_REQUEST) {
		*reason = DHCP6_DROP_NO_CLIENT_ID;
		return 0;
	}
	if ((rule == 1 && !ours) || (rule == 0 && m->server_id_len) ||
	    (rule == -1 && m->server_id_len && !ours)) {
		*reason = DHCP6_DROP_SERVER_ID;
		return 0;
	}
	if (nothing)
		advertise = true; /* nothing to commit: no Rapid Commit Reply */
	hdr = reserve(&o, HDR_LEN);
	if (hdr) {
		hdr[0] = advertise ? DHCP6_ADVERTISE : DHCP6_REPLY;
		hdr[1] = (uint8_t)(m->xid >> 16);
		hdr[2] = (uint8_t)(m->xid >> 8);
		hdr[3] = (uint8_t)m->xid;
	}
	put_opt(&o, DHCP6_OPT_SERVERID, cfg->duid, cfg->duid_len);
	if (m->client_id_len)
		put_opt(&o, DHCP6_OPT_CLIENTID, m->client_id, m->client_id_len);
	if (!advertise && m->type == DHCP6_SOLICIT)
		put_opt(&o, DHCP6_OPT_RAPID_COMMIT, NULL, 0);
	if (nothing) {
		put_status(&o,
			   m->has_ia_pd ? DHCP6_STATUS_NO_PREFIX_AVAIL
					: DHCP6_STATUS_NO_ADDRS_AVAIL,
			   m->has_ia_pd ? "prefix pool exhausted" : "addresses by SLAAC");
	} else if (m->type == DHCP6_RELEASE) {
		put_status(&o, DHCP6_STATUS_SUCCESS, "released");
		if (m->has_ia_pd)
			*outcome = DHCP6_RELEASED;
	} else if (m->type != DHCP6_INFORMATION_REQUEST) {
		if (m->has_ia_na)
			put_ia_na(&o, m->ia_na_iaid);
		if (m->has_ia_pd) {
			put_ia_pd(&o, cfg, b, m);
			if (!advertise && b->prefix_len)
				*outcome = DHCP6_BOUND;
		}
	}
	if (m->type != DHCP6_RELEASE && cfg->dns_count && m->wants_dns)
		put_opt(&o, DHCP6_OPT_DNS_SERVERS, cfg->dns, 16 * (size_t)cfg->dns_count);
	if (o.overflow) {
		*outcome = DHCP6_NO_CHANGE;
		return -EMSGSIZE;
	}
	return (int)o.len;
}

int dhcp6_prefix_nth(const uint8_t pool[16], unsigned int pool_len, unsigned int sub_len,
		     uint64_t n, uint8_t out[16])
{
	uint64_t hi = 0;
	unsigned int bits, i;

	if (pool_len > sub_len || sub_len > 64 || sub_len == 0)
		return -ERANGE;
	bits = sub_len - pool_len;
	if (bits < 64 && n >> bits)
		return -ERANGE;
	for (i = 0; i < 8; i++)
		hi = hi << 8 | pool[i];
	/* The pool's host bits are ignored; n fills the bits between the two lengths. */
	if (pool_len < 64)
		hi &= pool_len ? ~0ULL << (64 - pool_len) : 0;
	hi |= n << (64 - sub_len);
	for (i = 0; i < 8; i++)
		out[i] = (uint8_t)(hi >> (56 - 8 * i));
	memset(out + 8, 0, 8);
	return 0;
}

const char *dhcp6_drop_reason_name(enum dhcp6_drop_reason reason)
{
	static const char *const names[DHCP6_DROP_REASON_COUNT] = {
		[DHCP6_DROP_SHORT] = "short",
		[DHCP6_DROP_OPTION] = "option_length",
		[DHCP6_DROP_DUPLICATE] = "duplicate_option",
		[DHCP6_DROP_BAD_FIELD] = "bad_field",
		[DHCP6_DROP_NO_CLIENT_ID] = "no_client_id",
		[DHCP6_DROP_SERVER_ID] = "server_id",
		[DHCP6_DROP_TYPE] = "type",
	};

	return reason < DHCP6_DROP_REASON_COUNT ? names[reason] : "?";
}

const char *dhcp6_type_name(uint8_t type)
{
	switch (type) {
	case DHCP6_SOLICIT:
		return "Solicit";
	case DHCP6_ADVERTISE:
		return "Advertise";
	case DHCP6_REQUEST:
		return "Request";
	case DHCP6_CONFIRM:
		return "Confirm";
	case DHCP6_RENEW:
		return "Renew";
	case DHCP6_REBIND:
		return "Rebind";
	case DHCP6_REPLY:
		return "Reply";
	case DHCP6_RELEASE:
		return "Release";
	case DHCP6_DECLINE:
		return "Decline";
	case DHCP6_INFORMATION_REQUEST:
		return "Information-Request";
	default:
		return "unknown";
	}
}
