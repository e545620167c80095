// SPDX-License-Identifier: GPL-2.0
/* PPPoE discovery frame codec: parser and builder. */
#include "pppoe_tags.h"
#include "pxp_bytes.h"

#include <errno.h>
#include <string.h>

static const char *const drop_reason_names[PPPOE_DROP_REASON_COUNT] = {
	[PPPOE_DROP_SHORT] = "short",
	[PPPOE_DROP_ETHERTYPE] = "ethertype",
	[PPPOE_DROP_VER_TYPE] = "ver-type",
	[PPPOE_DROP_LENGTH] = "length",
	[PPPOE_DROP_TAG_OVERRUN] = "tag-overrun",
	[PPPOE_DROP_DUP_TAG] = "dup-tag",
	[PPPOE_DROP_TAG_LEN] = "tag-len",
	[PPPOE_DROP_SRC_MAC] = "src-mac",
	[PPPOE_DROP_DST_MAC] = "dst-mac",
	[PPPOE_DROP_CODE] = "code",
	[PPPOE_DROP_SESSION_ID] = "session-id",
	[PPPOE_DROP_HOST_UNIQ] = "host-uniq",
	[PPPOE_DROP_SERVICE] = "service",
	[PPPOE_DROP_AC_NAME] = "ac-name",
	[PPPOE_DROP_AC_MAC] = "ac-mac",
	[PPPOE_DROP_ERROR_TAG] = "error-tag",
	[PPPOE_DROP_PADT_FOREIGN] = "padt-foreign",
	[PPPOE_DROP_COOKIE] = "cookie",
	[PPPOE_DROP_RATE_LIMIT] = "rate-limit",
	[PPPOE_DROP_NO_SESSION_SLOT] = "no-session-slot",
	[PPPOE_DROP_TOO_LONG] = "too-long",
	[PPPOE_DROP_DUP_AC] = "dup-ac",
};

const char *pppoe_drop_reason_name(enum pppoe_drop_reason reason)
{
	if ((unsigned int)reason >= PPPOE_DROP_REASON_COUNT)
		return "unknown";
	return drop_reason_names[reason];
}

/* Fills a view once; a second occurrence is a duplicate. */
static int set_unique(struct pppoe_tag_view *view, const uint8_t *data, uint16_t len)
{
	if (view->present)
		return -1;
	view->data = data;
	view->len = len;
	view->present = true;
	return 0;
}

static int fail(enum pppoe_drop_reason *reason, enum pppoe_drop_reason why)
{
	if (reason)
		*reason = why;
	return -EBADMSG;
}

int pppoe_disc_parse(const void *frame, size_t len, struct pppoe_disc_frame *out,
		     enum pppoe_drop_reason *reason)
{
	const uint8_t *p = frame;
	const uint8_t *tag, *end;
	uint16_t payload_len;

	memset(out, 0, sizeof(*out));
	if (len < (size_t)PPPOE_DISC_HDR_LEN)
		return fail(reason, PPPOE_DROP_SHORT);
	if (get_be16(p + 12) != PXP_ETH_P_PPP_DISC)
		return fail(reason, PPPOE_DROP_ETHERTYPE);
	memcpy(out->dst, p, PXP_ETH_ALEN);
	memcpy(out->src, p + PXP_ETH_ALEN, PXP_ETH_ALEN);
	p += PXP_ETH_HLEN;
	if (p[0] != PPPOE_VER_TYPE)
		return fail(reason, PPPOE_DROP_VER_TYPE);
	out->code = p[1];
	out->session_id = get_be16(p + 2);
	payload_len = get_be16(p + 4);
	/* Anything beyond the PPPoE length is Ethernet padding. */
	if (payload_len > len - PPPOE_DISC_HDR_LEN)
		return fail(reason, PPPOE_DROP_LENGTH);

	tag = p + sizeof(struct pppoe_hdr);
	end = tag + payload_len;
	while (end - tag >= (ptrdiff_t)sizeof(struct pppoe_tag_hdr)) {
		uint16_t type = get_be16(tag);
		uint16_t tlen = get_be16(tag + 2);
		const uint8_t *val = tag + sizeof(struct pppoe_tag_hdr);
		int dup = 0;

		if (tlen > end - val)
			return fail(reason, PPPOE_DROP_TAG_OVERRUN);
		switch (type) {
		case PPPOE_TAG_END_OF_LIST:
			return 0;
		case PPPOE_TAG_SERVICE_NAME:
			if (!out->service_name.present)
				set_unique(&out->service_name, val, tlen);
			if (out->service_count < PPPOE_MAX_SERVICES)
				set_unique(&out->services[out->service_count++], val, tlen);
			out->service_total++;
			break;
		case PPPOE_TAG_AC_NAME:
			dup = set_unique(&out->ac_name, val, tlen);
			break;
		case PPPOE_TAG_HOST_UNIQ:
			dup = set_unique(&out->host_uniq, val, tlen);
			break;
		case PPPOE_TAG_AC_COOKIE:
			dup = set_unique(&out->ac_cookie, val, tlen);
			break;
		case PPPOE_TAG_RELAY_SESSION_ID:
			dup = set_unique(&out->relay_session_id, val, tlen);
			break;
		case PPPOE_TAG_PPP_MAX_PAYLOAD:
			if (out->has_max_payload) {
				dup = -1;
				break;
			}
			if (tlen != 2)
				return fail(reason, PPPOE_DROP_TAG_LEN);
			out->has_max_payload = true;
			out->max_payload = get_be16(val);
			break;
		/* Error tags: keep the first of each; more do no harm. */
		case PPPOE_TAG_SERVICE_NAME_ERROR:
			if (!out->service_name_error.present)
				set_unique(&out->service_name_error, val, tlen);
			break;
		case PPPOE_TAG_AC_SYSTEM_ERROR:
			if (!out->ac_system_error.present)
				set_unique(&out->ac_system_error, val, tlen);
			break;
		case PPPOE_TAG_GENERIC_ERROR:
			if (!out->generic_error.present)
				set_unique(&out->generic_error, val, tlen);
			break;
		default:
			/* Vendor-Specific and unknown tags are ignored (RFC 2516 A). */
			break;
		}
		if (dup)
			return fail(reason, PPPOE_DROP_DUP_TAG);
		tag = val + tlen;
	}
	/* 1-3 stray bytes cannot hold a tag header. */
	if (tag != end)
		return fail(reason, PPPOE_DROP_TAG_OVERRUN);
	return 0;
}

void pppoe_build_begin(struct pppoe_builder *b, void *buf, size_t cap, const uint8_t *dst,
		       const uint8_t *src, uint8_t code, uint16_t session_id)
{
	b->buf = buf;
	b->cap = cap;
	b->len = 0;
	b->err = 0;
	if (cap < (size_t)PPPOE_DISC_HDR_LEN) {
		b->err = -EMSGSIZE;
		return;
	}
	memcpy(b->buf, dst, PXP_ETH_ALEN);
	memcpy(b->buf + PXP_ETH_ALEN, src, PXP_ETH_ALEN);
	put_be16(b->buf + 12, PXP_ETH_P_PPP_DISC);
	b->buf[14] = PPPOE_VER_TYPE;
	b->buf[15] = code;
	put_be16(b->buf + 16, session_id);
	put_be16(b->buf + 18, 0);
	b->len = PPPOE_DISC_HDR_LEN;
}

void pppoe_build_tag(struct pppoe_builder *b, uint16_t type, const void *value, size_t len)
{
	if (b->err)
		return;
	if (len > UINT16_MAX || (len && !value)) {
		b->err = -EINVAL;
		return;
	}
	/* The PPPoE payload must fit in a 1500-byte MTU as well as in the buffer. */
	if (b->len + sizeof(struct pppoe_tag_hdr) + len > b->cap ||
	    b->len + sizeof(struct pppoe_tag_hdr) + len > PPPOE_DISC_FRAME_MAX) {
		b->err = -EMSGSIZE;
		return;
	}
	put_be16(b->buf + b->len, type);
	put_be16(b->buf + b->len + 2, (uint16_t)len);
	if (len)
		memcpy(b->buf + b->len + sizeof(struct pppoe_tag_hdr), value, len);
	b->len += sizeof(struct pppoe_tag_hdr) + len;
}

void pppoe_build_tag_u16(struct pppoe_builder *b, uint16_t type, uint16_t value)
{
	uint8_t be[2];

	put_be16(be, value);
	pppoe_build_tag(b, type, be, sizeof(be));
}

int pppoe_build_finish(struct pppoe_builder *b)
{
	if (b->err)
		return b->err;
	put_be16(b->buf + 18, (uint16_t)(b->len - PPPOE_DISC_HDR_LEN));
	return (int)b->len;
}

uint16_t pppoe_max_payload_for_mtu(unsigned int wan_mtu)
{
	unsigned int payload;

	if (wan_mtu <= PPPOE_DEFAULT_MRU + PPPOE_SESSION_OVERHEAD)
		return 0;
	payload = wan_mtu - PPPOE_SESSION_OVERHEAD;
	return payload > UINT16_MAX ? UINT16_MAX : (uint16_t)payload;
}

const uint8_t pppoe_broadcast_mac[PXP_ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

bool pppoe_mac_is_unicast(const uint8_t *mac)
{
	static const uint8_t zero[PXP_ETH_ALEN];

	return !(mac[0] & 1) && memcmp(mac, zero, PXP_ETH_ALEN) != 0;
}

int pppoe_copy_name(char *dst, size_t size, const char *src)
{
	size_t n = src ? strlen(src) : 0;

	if (n >= size)
		return -ENAMETOOLONG;
	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
	return 0;
}

void pppoe_tag_to_string(const struct pppoe_tag_view *tag, char *out, size_t out_size)
{
	size_t i, n;

	if (!out_size)
		return;
	n = tag->present ? tag->len : 0;
	if (n > out_size - 1)
		n = out_size - 1;
	for (i = 0; i < n; i++) {
		uint8_t ch = tag->data[i];

		out[i] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
	}
	out[n] = '\0';
}
