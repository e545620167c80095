// SPDX-License-Identifier: GPL-2.0
/*
 * The text follows pppd's printers (lcp_printpkt, upap_printpkt, chap_print_pkt,
 * ipcp_printpkt, ipv6cp_printpkt and print_string): option names, "id=0x1", strings in
 * quotes with \" \\ \n \r \t and octal escapes, unknown options as "< 0d 03 06>". And
 * discovery frames as pppd's rp-pppoe plugin prints them (pppoe_printpkt).
 */
#include "ppp_decode.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fsm.h"
#include "ppp_numbers.h"
#include "pppoe_wire.h"

/* pppd shows at most this many bytes of an undecoded rest, then " ...". */
#define HEX_SHOWN 32

struct text {
	char *buf;
	size_t cap, len;
	bool cut; /* something did not fit */
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->cut)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= t->cap - t->len) {
		t->cut = true;
		t->len = t->cap - 1;
		return;
	}
	t->len += (size_t)n;
}

static void put_string(struct text *t, const uint8_t *s, size_t len)
{
	size_t i;

	put(t, "\"");
	for (i = 0; i < len; i++) {
		uint8_t c = s[i];

		if (c == '\\' || c == '"')
			put(t, "\\%c", c);
		else if (c >= ' ' && c <= '~')
			put(t, "%c", c);
		else if (c == '\n')
			put(t, "\\n");
		else if (c == '\r')
			put(t, "\\r");
		else if (c == '\t')
			put(t, "\\t");
		else
			put(t, "\\%03o", c);
	}
	put(t, "\"");
}

static void put_hex(struct text *t, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len && i < HEX_SHOWN; i++)
		put(t, " %02x", p[i]);
	if (i < len)
		put(t, " ...");
}

static void put_malformed(struct text *t, const uint8_t *p, size_t len)
{
	put(t, " <malformed>");
	put_hex(t, p, len);
}

static void put_ipv4(struct text *t, const uint8_t *p)
{
	put(t, "%u.%u.%u.%u", p[0], p[1], p[2], p[3]);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/*
 * Each option printer sees one whole option (type, length, value; len >= 2) and returns
 * how many of its bytes it showed; the rest are shown in hex, as pppd does.
 */
typedef size_t (*option_printer)(struct text *t, const uint8_t *o, size_t len);

static size_t lcp_option(struct text *t, const uint8_t *o, size_t len)
{
	uint16_t proto;

	switch (o[0]) {
	case LCP_OPT_MRU:
		if (len != 4)
			return 0;
		put(t, "mru %u", get16(o + 2));
		return 4;
	case LCP_OPT_ACCM:
		if (len != 6)
			return 0;
		put(t, "asyncmap 0x%x", get32(o + 2));
		return 6;
	case LCP_OPT_AUTH:
		if (len < 4)
			return 0;
		proto = get16(o + 2);
		put(t, "auth ");
		if (proto == PPP_PROTO_PAP) {
			put(t, "pap");
		} else if (proto == PPP_PROTO_CHAP) {
			put(t, "chap");
			if (len < 5)
				return 4;
			if (o[4] == CHAP_ALG_MD5)
				put(t, " MD5");
			else if (o[4] == CHAP_ALG_MSCHAP)
				put(t, " MS");
			else if (o[4] == CHAP_ALG_MSCHAPV2)
				put(t, " MS-v2");
			else
				return 4;
			return 5;
		} else if (proto == PPP_PROTO_EAP) {
			put(t, "eap");
		} else {
			put(t, "0x%x", proto);
		}
		return 4;
	case LCP_OPT_QUALITY:
		if (len < 4)
			return 0;
		proto = get16(o + 2);
		if (proto == PPP_PROTO_LQR)
			put(t, "quality lqr");
		else
			put(t, "quality 0x%x", proto);
		return 4;
	case LCP_OPT_MAGIC:
		if (len != 6)
			return 0;
		put(t, "magic 0x%x", get32(o + 2));
		return 6;
	case LCP_OPT_PFC:
		if (len != 2)
			return 0;
		put(t, "pcomp");
		return 2;
	case LCP_OPT_ACFC:
		if (len != 2)
			return 0;
		put(t, "accomp");
		return 2;
	case LCP_OPT_CALLBACK:
		if (len < 3)
			return 0;
		if (o[2] == LCP_CALLBACK_CBCP)
			put(t, "callback CBCP");
		else
			put(t, "callback 0x%x", o[2]);
		return 3;
	case LCP_OPT_MRRU:
		if (len != 4)
			return 0;
		put(t, "mrru %u", get16(o + 2));
		return 4;
	case LCP_OPT_SSNHF:
		if (len != 2)
			return 0;
		put(t, "ssnhf");
		return 2;
	}
	return 0;
}

static size_t ipcp_option(struct text *t, const uint8_t *o, size_t len)
{
	uint16_t proto;

	switch (o[0]) {
	case IPCP_OPT_ADDRESSES:
		if (len != 10)
			return 0;
		put(t, "addrs ");
		put_ipv4(t, o + 2);
		put(t, " ");
		put_ipv4(t, o + 6);
		return 10;
	case IPCP_OPT_COMPRESSION:
		if (len < 4)
			return 0;
		proto = get16(o + 2);
		if (proto == IPCP_VJ)
			put(t, "compress VJ");
		else if (proto == IPCP_VJ_OLD)
			put(t, "compress old-VJ");
		else
			put(t, "compress 0x%x", proto);
		return 4;
	case IPCP_OPT_ADDRESS:
		if (len != 6)
			return 0;
		put(t, "addr ");
		put_ipv4(t, o + 2);
		return 6;
	case IPCP_OPT_DNS1:
	case IPCP_OPT_DNS2:
		if (len != 6)
			return 0;
		put(t, "ms-dns%d ", o[0] == IPCP_OPT_DNS1 ? 1 : 2);
		put_ipv4(t, o + 2);
		return 6;
	case IPCP_OPT_WINS1:
	case IPCP_OPT_WINS2:
		if (len != 6)
			return 0;
		put(t, "ms-wins%d ", o[0] == IPCP_OPT_WINS1 ? 1 : 2);
		put_ipv4(t, o + 2);
		return 6;
	}
	return 0;
}

static size_t ipv6cp_option(struct text *t, const uint8_t *o, size_t len)
{
	switch (o[0]) {
	case IPV6CP_OPT_IFID:
		if (len != 10)
			return 0;
		put(t, "addr fe80::%02x%02x:%02x%02x:%02x%02x:%02x%02x", o[2], o[3], o[4], o[5],
		    o[6], o[7], o[8], o[9]);
		return 10;
	case IPV6CP_OPT_COMPRESSION:
		if (len < 4)
			return 0;
		put(t, "compress 0x%x", get16(o + 2));
		return 4;
	}
	return 0;
}

static void put_options(struct text *t, option_printer print, const uint8_t *p, size_t len)
{
	while (len >= 2) {
		size_t olen = p[1], shown;

		if (olen < 2 || olen > len)
			break;
		put(t, " <");
		shown = print(t, p, olen);
		put_hex(t, p + shown, olen - shown);
		put(t, ">");
		p += olen;
		len -= olen;
	}
	if (len)
		put_malformed(t, p, len);
}

/* The codes RFC 1661's automaton shares: Configure-* carry options, Terminate-* a text. */
static bool put_fsm_body(struct text *t, option_printer print, uint8_t code, const uint8_t *p,
			 size_t len)
{
	switch (code) {
	case FSM_CONF_REQ:
	case FSM_CONF_ACK:
	case FSM_CONF_NAK:
	case FSM_CONF_REJ:
		put_options(t, print, p, len);
		return true;
	case FSM_TERM_REQ:
	case FSM_TERM_ACK:
		if (len && p[0] >= ' ' && p[0] < 0x7f) {
			put(t, " ");
			put_string(t, p, len);
		} else {
			put_hex(t, p, len);
		}
		return true;
	}
	return false;
}

static void lcp_body(struct text *t, uint8_t code, const uint8_t *p, size_t len)
{
	if (put_fsm_body(t, lcp_option, code, p, len))
		return;
	/* Echo-Request, Echo-Reply, Discard-Request, Identification, Time-Remaining. */
	if (code >= LCP_ECHO_REQ && code <= LCP_TIME_REMAINING && len >= 4) {
		put(t, " magic=0x%x", get32(p));
		p += 4;
		len -= 4;
		if (code == LCP_TIME_REMAINING) {
			if (len < 4)
				goto rest;
			put(t, " seconds=%u", get32(p));
			p += 4;
			len -= 4;
		}
		if (code >= LCP_IDENTIFICATION && len) {
			put(t, " ");
			put_string(t, p, len);
			return;
		}
	}
rest:
	put_hex(t, p, len);
}

static void ipcp_body(struct text *t, uint8_t code, const uint8_t *p, size_t len)
{
	if (!put_fsm_body(t, ipcp_option, code, p, len))
		put_hex(t, p, len);
}

static void ipv6cp_body(struct text *t, uint8_t code, const uint8_t *p, size_t len)
{
	if (!put_fsm_body(t, ipv6cp_option, code, p, len))
		put_hex(t, p, len);
}

/* A length-prefixed field at p[0]; false if it runs past len. */
static bool counted(const uint8_t *p, size_t len, size_t *n)
{
	if (len < 1 || (size_t)p[0] + 1 > len)
		return false;
	*n = p[0];
	return true;
}

/* The password is never shown, not even in hex when the request is malformed. */
static void pap_body(struct text *t, uint8_t code, const uint8_t *p, size_t len)
{
	size_t ulen, wlen;

	if (code == PAP_AUTH_REQ) {
		if (!counted(p, len, &ulen) || !counted(p + 1 + ulen, len - 1 - ulen, &wlen)) {
			put(t, " <malformed>");
			return;
		}
		put(t, " user=");
		put_string(t, p + 1, ulen);
		put(t, " password=<hidden>");
		return;
	}
	if ((code == PAP_AUTH_ACK || code == PAP_AUTH_NAK) && counted(p, len, &ulen)) {
		put(t, " ");
		put_string(t, p + 1, ulen);
		return;
	}
	put_hex(t, p, len);
}

static void chap_body(struct text *t, uint8_t code, const uint8_t *p, size_t len)
{
	size_t clen, i;

	switch (code) {
	case CHAP_CHALLENGE:
	case CHAP_RESPONSE:
		if (!counted(p, len, &clen)) {
			put_malformed(t, p, len);
			return;
		}
		put(t, " <");
		for (i = 0; i < clen; i++)
			put(t, "%02x", p[1 + i]);
		put(t, ">, name = ");
		put_string(t, p + 1 + clen, len - 1 - clen);
		return;
	case CHAP_SUCCESS:
	case CHAP_FAILURE:
		put(t, " ");
		put_string(t, p, len);
		return;
	}
	put_hex(t, p, len);
}

struct ppp_printer {
	uint16_t proto;
	const char *name; /* as pppd names the protocol */
	const char *const *codes;
	unsigned int nr_codes;
	void (*body)(struct text *t, uint8_t code, const uint8_t *p, size_t len);
	bool secret; /* may carry a secret: never shown in hex */
};

/* As pppd names the codes; IPCP and IPv6CP use the first FSM_CODE_REJ of LCP's. */
static const char *const fsm_codes[LCP_TIME_REMAINING] = {
	"ConfReq", "ConfAck", "ConfNak", "ConfRej", "TermReq", "TermAck", "CodeRej",
	"ProtRej", "EchoReq", "EchoRep", "DiscReq", "Ident",   "TimeRem",
};
static const char *const pap_codes[PAP_AUTH_NAK] = { "AuthReq", "AuthAck", "AuthNak" };
static const char *const chap_codes[CHAP_FAILURE] = { "Challenge", "Response", "Success",
						      "Failure" };

static const struct ppp_printer printers[] = {
	{ PPP_PROTO_LCP, "LCP", fsm_codes, LCP_TIME_REMAINING, lcp_body, false },
	{ PPP_PROTO_PAP, "PAP", pap_codes, PAP_AUTH_NAK, pap_body, true },
	{ PPP_PROTO_CHAP, "CHAP", chap_codes, CHAP_FAILURE, chap_body, false },
	{ PPP_PROTO_IPCP, "IPCP", fsm_codes, FSM_CODE_REJ, ipcp_body, false },
	{ PPP_PROTO_IPV6CP, "IPV6CP", fsm_codes, FSM_CODE_REJ, ipv6cp_body, false },
};

static void decode(struct text *t, uint16_t proto, const uint8_t *data, size_t len)
{
	const struct ppp_printer *pr = NULL;
	size_t i, plen;

	for (i = 0; i < sizeof(printers) / sizeof(printers[0]); i++)
		if (printers[i].proto == proto)
			pr = &printers[i];
	if (!pr) {
		put(t, "[proto=0x%x", proto);
		put_hex(t, data, len);
		put(t, "]");
		return;
	}
	put(t, "[%s", pr->name);
	plen = len >= 4 ? get16(data + 2) : 0;
	if (len < 4 || plen < 4 || plen > len) {
		if (pr->secret)
			put(t, " <malformed>");
		else
			put_malformed(t, data, len);
		put(t, "]");
		return;
	}
	if (data[0] >= 1 && data[0] <= pr->nr_codes)
		put(t, " %s", pr->codes[data[0] - 1]);
	else
		put(t, " code=0x%x", data[0]);
	put(t, " id=0x%x", data[1]);
	/* Bytes past the PPP length (Ethernet padding) are not part of the packet. */
	pr->body(t, data[0], data + 4, plen - 4);
	put(t, "]");
}

int ppp_decode(uint16_t proto, const uint8_t *data, size_t len, char *out, size_t cap)
{
	struct text t = { .buf = out, .cap = cap };

	if (cap < 8)
		return -EINVAL;
	out[0] = '\0';
	decode(&t, proto, data, len);
	if (t.cut)
		memcpy(out + cap - 5, "...]", 5);
	return 0;
}

/* ------------------------------------------------------------ PPPoE discovery */

static const char *disc_code_name(uint8_t code)
{
	switch (code) {
	case PPPOE_CODE_PADI:
		return "PADI";
	case PPPOE_CODE_PADO:
		return "PADO";
	case PPPOE_CODE_PADR:
		return "PADR";
	case PPPOE_CODE_PADS:
		return "PADS";
	case PPPOE_CODE_PADT:
		return "PADT";
	}
	return NULL;
}

enum tag_show { TAG_HEX, TAG_TEXT, TAG_LENGTH, TAG_NUMBER };

/* As pppoe_printpkt names the tags; an AC-Cookie is the AC's secret-keyed hash: length only. */
static const struct {
	uint16_t type;
	const char *name;
	enum tag_show show;
} disc_tags[] = {
	{ PPPOE_TAG_END_OF_LIST, "end-of-list", TAG_HEX },
	{ PPPOE_TAG_SERVICE_NAME, "service-name", TAG_TEXT },
	{ PPPOE_TAG_AC_NAME, "AC-name", TAG_TEXT },
	{ PPPOE_TAG_HOST_UNIQ, "host-uniq", TAG_HEX },
	{ PPPOE_TAG_AC_COOKIE, "AC-cookie", TAG_LENGTH },
	{ PPPOE_TAG_VENDOR_SPECIFIC, "vendor-specific", TAG_HEX },
	{ PPPOE_TAG_RELAY_SESSION_ID, "relay-session-id", TAG_HEX },
	{ PPPOE_TAG_PPP_MAX_PAYLOAD, "PPP-max-payload", TAG_NUMBER },
	{ PPPOE_TAG_SERVICE_NAME_ERROR, "service-name-error", TAG_TEXT },
	{ PPPOE_TAG_AC_SYSTEM_ERROR, "AC-system-error", TAG_TEXT },
	{ PPPOE_TAG_GENERIC_ERROR, "generic-error", TAG_TEXT },
};

static void put_mac(struct text *t, const char *what, const uint8_t *m)
{
	put(t, " %s %02x:%02x:%02x:%02x:%02x:%02x", what, m[0], m[1], m[2], m[3], m[4], m[5]);
}

static void put_tag(struct text *t, uint16_t type, const uint8_t *v, size_t len)
{
	enum tag_show show = TAG_HEX;
	size_t i;

	put(t, " [");
	for (i = 0; i < sizeof(disc_tags) / sizeof(disc_tags[0]); i++)
		if (disc_tags[i].type == type)
			break;
	if (i < sizeof(disc_tags) / sizeof(disc_tags[0])) {
		put(t, "%s", disc_tags[i].name);
		show = disc_tags[i].show;
	} else {
		put(t, "unknown tag 0x%x", type);
	}
	if (!len || (show == TAG_NUMBER && len != 2))
		show = TAG_HEX; /* "[service-name]": any service; a number of the wrong size */
	switch (show) {
	case TAG_TEXT:
		put(t, " ");
		put_string(t, v, len);
		break;
	case TAG_LENGTH:
		put(t, " length %zu", len);
		break;
	case TAG_NUMBER:
		put(t, " %u", get16(v));
		break;
	case TAG_HEX:
		put_hex(t, v, len);
		if (len > HEX_SHOWN)
			put(t, " (length %zu)", len);
		break;
	}
	put(t, "]");
}

static void disc_decode(struct text *t, const uint8_t *f, size_t len)
{
	const size_t hdr = PXP_ETH_HLEN + 6;
	const char *name;
	size_t plen, i;

	if (len < hdr || get16(f + 12) != PXP_ETH_P_PPP_DISC) {
		put(t, "PPPOE Discovery <malformed>");
		put_hex(t, f, len);
		return;
	}
	f += PXP_ETH_HLEN;
	put(t, "PPPOE Discovery V%uT%u ", f[0] >> 4, f[0] & 0xf);
	name = disc_code_name(f[1]);
	if (name)
		put(t, "%s", name);
	else
		put(t, "unknown code 0x%x", f[1]);
	plen = get16(f + 4);
	put(t, " session 0x%x length %zu", get16(f + 2), plen);
	put_mac(t, "dst", f - PXP_ETH_HLEN);
	put_mac(t, "src", f - PXP_ETH_HLEN + PXP_ETH_ALEN);
	f += 6;
	if (plen > len - hdr) {
		put(t, " <malformed: length %zu, %zu bytes>", plen, len - hdr);
		plen = len - hdr;
	}
	for (i = 0; i + 4 <= plen;) {
		uint16_t type = get16(f + i), tlen = get16(f + i + 2);

		if (tlen > plen - i - 4)
			break;
		put_tag(t, type, f + i + 4, tlen);
		i += 4 + (size_t)tlen;
	}
	if (i < plen)
		put_malformed(t, f + i, plen - i);
}

int pppoe_disc_decode(const uint8_t *frame, size_t len, char *out, size_t cap)
{
	struct text t = { .buf = out, .cap = cap };

	if (cap < 8)
		return -EINVAL;
	out[0] = '\0';
	disc_decode(&t, frame, len);
	if (t.cut)
		memcpy(out + cap - 5, "...]", 5);
	return 0;
}
