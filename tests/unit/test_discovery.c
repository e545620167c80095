// SPDX-License-Identifier: GPL-2.0
/*
 * PPPoE discovery: tag codec, client and access concentrator, driven in memory.
 * The client's frames are fed to the real AC core and back; nothing is mocked
 * except the wire, the clock (plain numbers) and the random source (seeded).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "discovery.h"

#define OUTBOX_CAP 256

static const uint8_t client_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t client2_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };
static const uint8_t ac_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x0a, 0x01 };
static const uint8_t ac2_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x0a, 0x02 };
static const uint8_t rogue_mac[6] = { 0x02, 0x66, 0x66, 0x66, 0x66, 0x66 };
static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

/* One endpoint: what it sent, what it reported, its random source. */
struct peer {
	unsigned int n;	    /* frames in the outbox */
	unsigned int total; /* frames ever sent */
	size_t len[OUTBOX_CAP];
	uint8_t frame[OUTBOX_CAP][PPPOE_DISC_FRAME_MAX];
	int send_error; /* returned by send when nonzero */
	uint64_t rng;
	/* When set, random() repeats these 16-bit values cyclically. */
	const uint16_t *fixed_ids;
	unsigned int fixed_count, fixed_pos;
	unsigned int client_events[DISC_EV_COUNT];
	struct disc_client_event last_client_ev;
	struct disc_client_event found[DISC_DISCOVER_MAX_ACS + 2];
	unsigned int ac_events[DISC_AC_EV_SESSION_CLOSED + 1];
	struct disc_ac_event last_ac_ev;
};

static int peer_send(void *ctx, const void *frame, size_t len)
{
	struct peer *p = ctx;

	if (p->send_error)
		return p->send_error;
	if (len > PPPOE_DISC_FRAME_MAX)
		abort();
	p->total++;
	if (p->n < OUTBOX_CAP) {
		memcpy(p->frame[p->n], frame, len);
		p->len[p->n++] = len;
	}
	return 0;
}

static void peer_random(void *ctx, void *buf, size_t len)
{
	struct peer *p = ctx;
	uint8_t *b = buf;
	size_t i;

	if (p->fixed_ids && len == 2) {
		uint16_t v = p->fixed_ids[p->fixed_pos++ % p->fixed_count];

		memcpy(buf, &v, 2);
		return;
	}
	for (i = 0; i < len; i++) {
		p->rng ^= p->rng << 13;
		p->rng ^= p->rng >> 7;
		p->rng ^= p->rng << 17;
		b[i] = (uint8_t)(p->rng >> 24);
	}
}

static void client_event(void *ctx, const struct disc_client_event *ev)
{
	struct peer *p = ctx;

	if (ev->type == DISC_EV_AC_FOUND && p->client_events[ev->type] < DISC_DISCOVER_MAX_ACS + 2)
		p->found[p->client_events[ev->type]] = *ev;
	p->client_events[ev->type]++;
	p->last_client_ev = *ev;
}

static void ac_event(void *ctx, const struct disc_ac_event *ev)
{
	struct peer *p = ctx;

	p->ac_events[ev->type]++;
	p->last_ac_ev = *ev;
}

static struct peer cp, cp2, ap, ap2;
static struct disc_client client, client2;
static struct disc_ac ac, ac2;

static void peer_reset(struct peer *p, uint64_t seed)
{
	memset(p, 0, sizeof(*p));
	p->rng = seed;
}

static struct disc_client_config client_cfg(void)
{
	struct disc_client_config cfg = { 0 };

	memcpy(cfg.local_mac, client_mac, 6);
	cfg.initial_timeout_ms = 1000;
	return cfg;
}

static struct disc_ac_config ac_cfg(void)
{
	struct disc_ac_config cfg = { 0 };

	memcpy(cfg.local_mac, ac_mac, 6);
	cfg.ac_name = "test-ac";
	return cfg;
}

static int setup_client(struct disc_client *c, struct peer *p, const struct disc_client_config *cfg,
			uint64_t seed)
{
	struct disc_client_ops ops = {
		.io = { .ctx = p, .send = peer_send, .random = peer_random },
		.event = client_event,
	};

	peer_reset(p, seed);
	return disc_client_init(c, cfg, &ops);
}

static int setup_ac(struct disc_ac *a, struct peer *p, const struct disc_ac_config *cfg,
		    uint64_t seed)
{
	struct disc_ac_ops ops = {
		.io = { .ctx = p, .send = peer_send, .random = peer_random },
		.event = ac_event,
	};

	peer_reset(p, seed);
	return disc_ac_init(a, cfg, &ops);
}

/* Moves every frame in a client's outbox to the AC and vice versa until quiet. */
static void pump(struct disc_client *c, struct peer *c_peer, struct disc_ac *a, struct peer *a_peer,
		 uint64_t now)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	unsigned int i, n;
	size_t len;
	int rounds;

	for (rounds = 0; rounds < 16 && (c_peer->n || a_peer->n); rounds++) {
		n = c_peer->n;
		c_peer->n = 0;
		for (i = 0; i < n; i++) {
			len = c_peer->len[i];
			memcpy(buf, c_peer->frame[i], len);
			disc_ac_input(a, now, buf, len);
		}
		n = a_peer->n;
		a_peer->n = 0;
		for (i = 0; i < n; i++) {
			len = a_peer->len[i];
			memcpy(buf, a_peer->frame[i], len);
			disc_client_input(c, now, buf, len);
		}
	}
}

static int parse_last(struct peer *p, struct pppoe_disc_frame *f)
{
	if (!p->n)
		return -ENOENT;
	return pppoe_disc_parse(p->frame[p->n - 1], p->len[p->n - 1], f, NULL);
}

/* Builds a frame as a peer on the wire would, for hand-made cases. */
static int make_frame(uint8_t *buf, const uint8_t *dst, const uint8_t *src, uint8_t code,
		      uint16_t sid, const uint8_t *host_uniq, size_t hu_len, uint16_t extra_tag,
		      const char *extra_value)
{
	struct pppoe_builder b;

	pppoe_build_begin(&b, buf, PPPOE_DISC_FRAME_MAX, dst, src, code, sid);
	pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, "", 0);
	if (host_uniq)
		pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, host_uniq, hu_len);
	if (extra_tag)
		pppoe_build_tag(&b, extra_tag, extra_value, strlen(extra_value));
	return pppoe_build_finish(&b);
}

/* ------------------------------------------------------------------ codec */

TEST(codec_roundtrip)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	struct pppoe_disc_frame f;
	struct pppoe_builder b;
	enum pppoe_drop_reason why;
	int len;

	pppoe_build_begin(&b, buf, sizeof(buf), bcast, client_mac, PPPOE_CODE_PADO, 0x1234);
	pppoe_build_tag(&b, PPPOE_TAG_AC_NAME, "acname", 6);
	pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, "svc1", 4);
	pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, "", 0);
	pppoe_build_tag(&b, PPPOE_TAG_VENDOR_SPECIFIC, "\0\0\0\x01xx", 6);
	pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, "\x01\x02\x03", 3);
	pppoe_build_tag(&b, PPPOE_TAG_AC_COOKIE, "cookie", 6);
	pppoe_build_tag(&b, PPPOE_TAG_RELAY_SESSION_ID, "relay", 5);
	pppoe_build_tag_u16(&b, PPPOE_TAG_PPP_MAX_PAYLOAD, 1500);
	pppoe_build_tag(&b, PPPOE_TAG_GENERIC_ERROR, "oops", 4);
	len = pppoe_build_finish(&b);
	CHECK(len > 0);
	CHECK_EQ(buf[12], 0x88);
	CHECK_EQ(buf[13], 0x63);
	CHECK_EQ(buf[14], 0x11);
	CHECK_EQ((buf[18] << 8 | buf[19]), len - 20);

	CHECK_EQ(pppoe_disc_parse(buf, (size_t)len, &f, &why), 0);
	CHECK_EQ(f.code, PPPOE_CODE_PADO);
	CHECK_EQ(f.session_id, 0x1234);
	CHECK_MEM(f.dst, bcast, 6);
	CHECK_MEM(f.src, client_mac, 6);
	CHECK(f.ac_name.present && f.ac_name.len == 6);
	CHECK_MEM(f.ac_name.data, "acname", 6);
	CHECK_EQ(f.service_count, 2);
	CHECK_EQ(f.service_total, 2);
	CHECK_MEM(f.service_name.data, "svc1", 4);
	CHECK(f.services[1].present && f.services[1].len == 0);
	CHECK_EQ(f.host_uniq.len, 3);
	CHECK_MEM(f.ac_cookie.data, "cookie", 6);
	CHECK_MEM(f.relay_session_id.data, "relay", 5);
	CHECK(f.has_max_payload);
	CHECK_EQ(f.max_payload, 1500);
	CHECK(f.generic_error.present);
	CHECK(!f.ac_system_error.present);
	CHECK(!f.service_name_error.present);
}

/* Builds a PADI with the given raw tag bytes after the headers. */
static size_t raw_frame(uint8_t *buf, const void *tags, uint16_t tags_len, uint16_t pppoe_len)
{
	memcpy(buf, bcast, 6);
	memcpy(buf + 6, client_mac, 6);
	buf[12] = 0x88;
	buf[13] = 0x63;
	buf[14] = 0x11;
	buf[15] = PPPOE_CODE_PADI;
	buf[16] = buf[17] = 0;
	buf[18] = pppoe_len >> 8;
	buf[19] = pppoe_len & 0xff;
	memcpy(buf + 20, tags, tags_len);
	return 20u + tags_len;
}

static int parse_reason(const uint8_t *buf, size_t len)
{
	struct pppoe_disc_frame f;
	enum pppoe_drop_reason why = PPPOE_DROP_REASON_COUNT;

	if (pppoe_disc_parse(buf, len, &f, &why) == 0)
		return -1;
	return why;
}

TEST(codec_rejects_malformed)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	size_t len;

	/* Too short for the headers. */
	len = raw_frame(buf, "", 0, 0);
	CHECK_EQ(parse_reason(buf, len - 1), PPPOE_DROP_SHORT);
	CHECK_EQ(parse_reason(buf, 0), PPPOE_DROP_SHORT);
	CHECK_EQ(parse_reason(buf, len), -1);
	/* Wrong ethertype (a session frame). */
	buf[13] = 0x64;
	CHECK_EQ(parse_reason(buf, len), PPPOE_DROP_ETHERTYPE);
	buf[13] = 0x63;
	/* Wrong version, wrong type. */
	buf[14] = 0x21;
	CHECK_EQ(parse_reason(buf, len), PPPOE_DROP_VER_TYPE);
	buf[14] = 0x12;
	CHECK_EQ(parse_reason(buf, len), PPPOE_DROP_VER_TYPE);
	/* PPPoE length beyond the frame. */
	len = raw_frame(buf, "\x01\x01\x00\x00", 4, 5);
	CHECK_EQ(parse_reason(buf, len), PPPOE_DROP_LENGTH);
	len = raw_frame(buf, "", 0, 0xffff);
	CHECK_EQ(parse_reason(buf, len), PPPOE_DROP_LENGTH);
	/* A tag value running past the PPPoE length (but inside the frame). */
	len = raw_frame(buf, "\x01\x03\x00\x08\x01\x02\x03\x04\x05\x06\x07\x08", 12, 8);
	CHECK_EQ(parse_reason(buf, len), PPPOE_DROP_TAG_OVERRUN);
	/* Stray bytes too short for a tag header. */
	len = raw_frame(buf, "\x01\x01\x00\x00\x01\x01", 6, 6);
	CHECK_EQ(parse_reason(buf, len), PPPOE_DROP_TAG_OVERRUN);
	/* Duplicates that matter. */
	len = raw_frame(buf, "\x01\x03\x00\x01\xaa\x01\x03\x00\x01\xbb", 10, 10);
	CHECK_EQ(parse_reason(buf, len), PPPOE_DROP_DUP_TAG);
	len = raw_frame(buf, "\x01\x04\x00\x00\x01\x04\x00\x00", 8, 8);
	CHECK_EQ(parse_reason(buf, len), PPPOE_DROP_DUP_TAG);
	len = raw_frame(buf, "\x01\x10\x00\x00\x01\x10\x00\x00", 8, 8);
	CHECK_EQ(parse_reason(buf, len), PPPOE_DROP_DUP_TAG);
	len = raw_frame(buf, "\x01\x02\x00\x00\x01\x02\x00\x00", 8, 8);
	CHECK_EQ(parse_reason(buf, len), PPPOE_DROP_DUP_TAG);
	len = raw_frame(buf, "\x01\x20\x00\x02\x05\xdc\x01\x20\x00\x02\x05\xdc", 12, 12);
	CHECK_EQ(parse_reason(buf, len), PPPOE_DROP_DUP_TAG);
	/* PPP-Max-Payload must be exactly 2 bytes. */
	len = raw_frame(buf, "\x01\x20\x00\x03\x05\xdc\x00", 7, 7);
	CHECK_EQ(parse_reason(buf, len), PPPOE_DROP_TAG_LEN);
	len = raw_frame(buf, "\x01\x20\x00\x00", 4, 4);
	CHECK_EQ(parse_reason(buf, len), PPPOE_DROP_TAG_LEN);
}

TEST(codec_padding_and_end_of_list)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	struct pppoe_disc_frame f;
	size_t len;

	/* A minimum-size Ethernet frame: zero padding after the 4-byte payload. */
	len = raw_frame(buf, "\x01\x01\x00\x00", 4, 4);
	memset(buf + len, 0, 60 - len);
	CHECK_EQ(pppoe_disc_parse(buf, 60, &f, NULL), 0);
	CHECK(f.service_name.present);
	CHECK_EQ(f.service_name.len, 0);
	/* Padding that is not zero is ignored just the same. */
	memset(buf + len, 0xee, 60 - len);
	CHECK_EQ(pppoe_disc_parse(buf, 60, &f, NULL), 0);
	/* End-Of-List: what follows is not parsed (here a duplicate Host-Uniq). */
	len = raw_frame(buf, "\x01\x03\x00\x01\xaa\x00\x00\x00\x00\x01\x03\x00\x01\xbb", 14, 14);
	CHECK_EQ(pppoe_disc_parse(buf, len, &f, NULL), 0);
	CHECK_EQ(f.host_uniq.data[0], 0xaa);
	/* Many Service-Name tags: the first PPPOE_MAX_SERVICES are kept, all counted. */
	{
		uint8_t tags[4 * 12];

		for (int i = 0; i < 12; i++)
			memcpy(tags + 4 * i, "\x01\x01\x00\x00", 4);
		len = raw_frame(buf, tags, sizeof(tags), sizeof(tags));
		CHECK_EQ(pppoe_disc_parse(buf, len, &f, NULL), 0);
		CHECK_EQ(f.service_count, PPPOE_MAX_SERVICES);
		CHECK_EQ(f.service_total, 12);
	}
}

TEST(codec_builder_bounds)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX + 100];
	static uint8_t big[1600];
	struct pppoe_builder b;

	/* Buffer too small for the headers. */
	pppoe_build_begin(&b, buf, 19, bcast, client_mac, PPPOE_CODE_PADI, 0);
	CHECK_EQ(pppoe_build_finish(&b), -EMSGSIZE);
	/* Tag does not fit the buffer; the error sticks. */
	pppoe_build_begin(&b, buf, 30, bcast, client_mac, PPPOE_CODE_PADI, 0);
	pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, big, 7);
	CHECK_EQ(b.err, -EMSGSIZE);
	pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, big, 1);
	CHECK_EQ(pppoe_build_finish(&b), -EMSGSIZE);
	/* Exactly fits. */
	pppoe_build_begin(&b, buf, 30, bcast, client_mac, PPPOE_CODE_PADI, 0);
	pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, big, 6);
	CHECK_EQ(pppoe_build_finish(&b), 30);
	/* Never beyond a 1500-byte payload, even in a bigger buffer. */
	pppoe_build_begin(&b, buf, sizeof(buf), bcast, client_mac, PPPOE_CODE_PADI, 0);
	pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, big, 1500 - 6 - 4 + 1);
	CHECK_EQ(pppoe_build_finish(&b), -EMSGSIZE);
	pppoe_build_begin(&b, buf, sizeof(buf), bcast, client_mac, PPPOE_CODE_PADI, 0);
	pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, big, 1500 - 6 - 4);
	CHECK_EQ(pppoe_build_finish(&b), PPPOE_DISC_FRAME_MAX);
	/* NULL value with a length. */
	pppoe_build_begin(&b, buf, sizeof(buf), bcast, client_mac, PPPOE_CODE_PADI, 0);
	pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, NULL, 3);
	CHECK_EQ(pppoe_build_finish(&b), -EINVAL);
}

TEST(codec_helpers)
{
	struct pppoe_tag_view v = { .data = (const uint8_t *)"ab\x01\x7f"
							     "cd",
				    .len = 6,
				    .present = true };
	char out[5];

	CHECK_EQ(pppoe_max_payload_for_mtu(1500), 0);
	CHECK_EQ(pppoe_max_payload_for_mtu(1499), 0);
	CHECK_EQ(pppoe_max_payload_for_mtu(1501), 1493);
	CHECK_EQ(pppoe_max_payload_for_mtu(1508), 1500);
	CHECK_EQ(pppoe_max_payload_for_mtu(9000), 8992);
	pppoe_tag_to_string(&v, out, sizeof(out));
	CHECK(strcmp(out, "ab??") == 0);
	v.present = false;
	pppoe_tag_to_string(&v, out, sizeof(out));
	CHECK(strcmp(out, "") == 0);
	CHECK(strcmp(pppoe_drop_reason_name(PPPOE_DROP_COOKIE), "cookie") == 0);
	CHECK(strcmp(pppoe_drop_reason_name(PPPOE_DROP_REASON_COUNT), "unknown") == 0);
	for (int i = 0; i < PPPOE_DROP_REASON_COUNT; i++)
		CHECK(pppoe_drop_reason_name(i) != NULL);
}

TEST(padt_builder)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	struct pppoe_disc_frame f;
	int len;

	len = disc_build_padt(buf, sizeof(buf), client_mac, ac_mac, 0x4242, "daemon restart");
	CHECK(len > 0);
	CHECK_EQ(pppoe_disc_parse(buf, (size_t)len, &f, NULL), 0);
	CHECK_EQ(f.code, PPPOE_CODE_PADT);
	CHECK_EQ(f.session_id, 0x4242);
	CHECK_MEM(f.src, client_mac, 6);
	CHECK_MEM(f.dst, ac_mac, 6);
	CHECK_EQ(f.generic_error.len, 14);
	len = disc_build_padt(buf, sizeof(buf), client_mac, ac_mac, 7, NULL);
	CHECK_EQ(len, 20);
	CHECK_EQ(disc_build_padt(buf, sizeof(buf), client_mac, ac_mac, 0, NULL), -EINVAL);
	CHECK_EQ(disc_build_padt(buf, 10, client_mac, ac_mac, 7, NULL), -EMSGSIZE);
}

/* ------------------------------------------------------------- init checks */

TEST(init_validation)
{
	struct disc_client_config cc = client_cfg();
	struct disc_ac_config acfg = ac_cfg();
	char long_name[DISC_NAME_MAX + 2];
	const char *services[] = { "a", NULL };

	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';

	CHECK_EQ(setup_client(&client, &cp, &cc, 1), 0);
	cc.service_name = long_name;
	CHECK_EQ(setup_client(&client, &cp, &cc, 1), -ENAMETOOLONG);
	cc = client_cfg();
	memcpy(cc.local_mac, bcast, 6);
	CHECK_EQ(setup_client(&client, &cp, &cc, 1), -EINVAL);
	cc = client_cfg();
	cc.max_payload = 1492;
	CHECK_EQ(setup_client(&client, &cp, &cc, 1), -EINVAL);
	cc = client_cfg();
	cc.host_uniq_len = DISC_HOST_UNIQ_MAX + 1;
	cc.host_uniq = (const uint8_t *)long_name;
	CHECK_EQ(setup_client(&client, &cp, &cc, 1), -EINVAL);

	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 2), 0);
	acfg.ac_name = NULL;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 2), -EINVAL);
	acfg = ac_cfg();
	acfg.max_sessions = DISC_AC_MAX_SESSIONS + 1;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 2), -EINVAL);
	acfg = ac_cfg();
	acfg.services = services;
	acfg.service_count = 2;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 2), -EINVAL);
	acfg.service_count = PPPOE_MAX_SERVICES + 1;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 2), -EINVAL);
}

TEST(client_generates_host_uniq)
{
	struct disc_client_config cc = client_cfg();
	struct pppoe_disc_frame f;
	uint8_t expect[DISC_DEFAULT_HOST_UNIQ_LEN];
	struct peer shadow;

	CHECK_EQ(setup_client(&client, &cp, &cc, 77), 0);
	peer_reset(&shadow, 77);
	peer_random(&shadow, expect, sizeof(expect));
	CHECK_EQ(client.host_uniq_len, DISC_DEFAULT_HOST_UNIQ_LEN);
	CHECK_MEM(client.host_uniq, expect, sizeof(expect));
	CHECK_EQ(disc_client_start(&client, 0), 0);
	CHECK_EQ(disc_client_start(&client, 0), -EBUSY);
	CHECK_EQ(parse_last(&cp, &f), 0);
	CHECK_EQ(f.code, PPPOE_CODE_PADI);
	CHECK_MEM(f.dst, bcast, 6);
	CHECK(f.service_name.present);
	CHECK_EQ(f.service_name.len, 0);
	CHECK_MEM(f.host_uniq.data, expect, sizeof(expect));
	CHECK(!f.has_max_payload);

	/* A configured Host-Uniq is used as given. */
	cc.host_uniq = (const uint8_t *)"\xde\xad";
	cc.host_uniq_len = 2;
	cc.service_name = "isp";
	CHECK_EQ(setup_client(&client, &cp, &cc, 77), 0);
	disc_client_start(&client, 0);
	CHECK_EQ(parse_last(&cp, &f), 0);
	CHECK_EQ(f.host_uniq.len, 2);
	CHECK_MEM(f.host_uniq.data, "\xde\xad", 2);
	CHECK_EQ(f.service_name.len, 3);
}

/* ---------------------------------------------------------- full exchange */

TEST(exchange_client_ac)
{
	struct disc_client_config cc = client_cfg();
	struct disc_ac_config acfg = ac_cfg();
	const struct disc_ac_session *s;
	struct pppoe_disc_frame f;
	uint16_t sid;

	CHECK_EQ(setup_client(&client, &cp, &cc, 1), 0);
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 2), 0);
	CHECK_EQ(disc_client_start(&client, 100), 0);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_PADI_SENT);
	CHECK_EQ(disc_client_deadline(&client), 1100);
	pump(&client, &cp, &ac, &ap, 150);

	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_SESSION);
	CHECK_EQ(disc_client_deadline(&client), UINT64_MAX);
	CHECK_EQ(cp.client_events[DISC_EV_SESSION_UP], 1);
	CHECK_EQ(ap.ac_events[DISC_AC_EV_SESSION_NEW], 1);
	sid = cp.last_client_ev.session_id;
	CHECK(sid != 0 && sid != 0xffff);
	CHECK_EQ(ap.last_ac_ev.session_id, sid);
	CHECK_MEM(cp.last_client_ev.ac_mac, ac_mac, 6);
	CHECK(strcmp(cp.last_client_ev.ac_name, "test-ac") == 0);
	CHECK_EQ(cp.last_client_ev.max_payload, PPPOE_DEFAULT_MRU);
	CHECK_MEM(ap.last_ac_ev.peer_mac, client_mac, 6);
	CHECK_EQ(ap.last_ac_ev.max_payload, PPPOE_DEFAULT_MRU);
	CHECK_EQ(ac.session_count, 1);
	s = disc_ac_find(&ac, sid);
	CHECK(s != NULL);
	CHECK_MEM(s->peer_mac, client_mac, 6);
	/* PADI, PADR from the client; PADO, PADS from the AC. */
	CHECK_EQ(cp.total, 2);
	CHECK_EQ(ap.total, 2);
	CHECK_EQ(client.tx_frames, 2);
	CHECK_EQ(ac.tx_frames, 2);

	/* Client hangs up: PADT to the AC, which reports and frees the session. */
	CHECK_EQ(disc_client_stop(&client, 200), 0);
	CHECK_EQ(parse_last(&cp, &f), 0);
	CHECK_EQ(f.code, PPPOE_CODE_PADT);
	CHECK_EQ(f.session_id, sid);
	CHECK_MEM(f.dst, ac_mac, 6);
	pump(&client, &cp, &ac, &ap, 200);
	CHECK_EQ(ap.ac_events[DISC_AC_EV_SESSION_CLOSED], 1);
	CHECK_EQ(ap.last_ac_ev.session_id, sid);
	CHECK(disc_ac_find(&ac, sid) == NULL);
	CHECK_EQ(ac.session_count, 0);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_IDLE);

	/* And the client can come up again. */
	CHECK_EQ(disc_client_start(&client, 300), 0);
	pump(&client, &cp, &ac, &ap, 300);
	CHECK_EQ(cp.client_events[DISC_EV_SESSION_UP], 2);
}

TEST(ac_closes_session)
{
	struct disc_client_config cc = client_cfg();
	struct disc_ac_config acfg = ac_cfg();
	uint16_t sid;

	CHECK_EQ(setup_client(&client, &cp, &cc, 3), 0);
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 4), 0);
	disc_client_start(&client, 0);
	pump(&client, &cp, &ac, &ap, 0);
	sid = client.session_id;
	CHECK(sid);
	CHECK_EQ(disc_ac_close_session(&ac, sid, "admin shutdown"), 0);
	CHECK_EQ(disc_ac_close_session(&ac, sid, NULL), -ENOENT);
	CHECK(disc_ac_find(&ac, sid) == NULL);
	pump(&client, &cp, &ac, &ap, 10);
	CHECK_EQ(cp.client_events[DISC_EV_SESSION_DOWN], 1);
	CHECK_EQ(cp.last_client_ev.session_id, sid);
	CHECK(strcmp(cp.last_client_ev.message, "PADT Generic-Error: admin shutdown") == 0);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_IDLE);
	/* disc_ac_release frees without a PADT. */
	disc_client_start(&client, 20);
	pump(&client, &cp, &ac, &ap, 20);
	sid = client.session_id;
	CHECK_EQ(disc_ac_release(&ac, sid), 0);
	CHECK_EQ(ap.n, 0);
	CHECK_EQ(disc_ac_release(&ac, sid), -ENOENT);
	CHECK_EQ(ac.session_count, 0);
}

/* ---------------------------------------------------- retries and failures */

TEST(padi_backoff_then_no_pado)
{
	struct disc_client_config cc = client_cfg();

	cc.initial_timeout_ms = 0; /* default 5 s */
	CHECK_EQ(setup_client(&client, &cp, &cc, 5), 0);
	disc_client_start(&client, 1000);
	CHECK_EQ(cp.total, 1);
	CHECK_EQ(disc_client_deadline(&client), 6000);
	disc_client_timer(&client, 5999); /* early: nothing */
	CHECK_EQ(cp.total, 1);
	disc_client_timer(&client, 6000);
	CHECK_EQ(cp.total, 2);
	CHECK_EQ(cp.client_events[DISC_EV_RETRY], 1);
	CHECK_EQ(cp.last_client_ev.retry_code, PPPOE_CODE_PADI);
	CHECK_EQ(cp.last_client_ev.attempt, 2);
	CHECK_EQ(cp.last_client_ev.attempts, 3);
	CHECK_EQ(cp.last_client_ev.waited_ms, 5000);
	CHECK(strcmp(cp.last_client_ev.message, "no PADO after 5 s, PADI 2 of 3") == 0);
	CHECK_EQ(disc_client_deadline(&client), 16000);
	disc_client_timer(&client, 16000);
	CHECK_EQ(cp.total, 3);
	CHECK_EQ(cp.client_events[DISC_EV_RETRY], 2);
	CHECK(strcmp(cp.last_client_ev.message, "no PADO after 10 s, PADI 3 of 3") == 0);
	CHECK_EQ(disc_client_deadline(&client), 36000);
	CHECK_EQ(cp.client_events[DISC_EV_FAILED], 0);
	disc_client_timer(&client, 36000);
	CHECK_EQ(cp.total, 3);
	CHECK_EQ(cp.client_events[DISC_EV_RETRY], 2); /* the last timeout is a failure */
	CHECK_EQ(cp.client_events[DISC_EV_FAILED], 1);
	CHECK_EQ(cp.last_client_ev.failure, DISC_FAIL_NO_PADO);
	CHECK(strcmp(cp.last_client_ev.message, "no PADO after 3 PADIs") == 0);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_IDLE);
	CHECK_EQ(disc_client_deadline(&client), UINT64_MAX);
}

TEST(backoff_is_capped)
{
	struct disc_client_config cc = client_cfg();
	uint64_t now = 0, prev;

	cc.padi_attempts = 10;
	cc.initial_timeout_ms = 20000;
	CHECK_EQ(setup_client(&client, &cp, &cc, 5), 0);
	disc_client_start(&client, now);
	for (int i = 0; i < 9; i++) {
		prev = now;
		now = disc_client_deadline(&client);
		CHECK(now - prev <= DISC_MAX_TIMEOUT_MS);
		disc_client_timer(&client, now);
	}
	CHECK_EQ(now - prev, DISC_MAX_TIMEOUT_MS);
	CHECK_EQ(cp.total, 10);
}

TEST(send_failure_is_retried)
{
	struct disc_client_config cc = client_cfg();
	struct disc_ac_config acfg = ac_cfg();

	CHECK_EQ(setup_client(&client, &cp, &cc, 5), 0);
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 6), 0);
	cp.send_error = -ENETDOWN;
	CHECK_EQ(disc_client_start(&client, 0), 0);
	CHECK_EQ(client.tx_errors, 1);
	CHECK_EQ(disc_client_start_discover(&client, 0), -EBUSY);
	cp.send_error = 0;
	disc_client_timer(&client, 1000);
	pump(&client, &cp, &ac, &ap, 1000);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_SESSION);
}

TEST(padr_retry_gets_same_pads)
{
	struct disc_client_config cc = client_cfg();
	struct disc_ac_config acfg = ac_cfg();
	struct pppoe_disc_frame f;
	uint16_t first_sid;

	CHECK_EQ(setup_client(&client, &cp, &cc, 7), 0);
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 8), 0);
	disc_client_start(&client, 0);
	/* PADI to the AC, PADO back. */
	disc_ac_input(&ac, 0, cp.frame[0], cp.len[0]);
	cp.n = 0;
	disc_client_input(&client, 0, ap.frame[0], ap.len[0]);
	ap.n = 0;
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_PADR_SENT);
	CHECK_EQ(disc_client_deadline(&client), 1000);
	/* PADR reaches the AC, its PADS is lost. */
	disc_ac_input(&ac, 0, cp.frame[0], cp.len[0]);
	cp.n = 0;
	CHECK_EQ(parse_last(&ap, &f), 0);
	first_sid = f.session_id;
	ap.n = 0;
	CHECK_EQ(ap.ac_events[DISC_AC_EV_SESSION_NEW], 1);
	/* The client retries after 1 s; the AC answers with the same session. */
	disc_client_timer(&client, 1000);
	CHECK_EQ(disc_client_deadline(&client), 3000);
	CHECK_EQ(cp.client_events[DISC_EV_RETRY], 1);
	CHECK(strcmp(cp.last_client_ev.message, "no PADS after 1 s, PADR 2 of 3") == 0);
	CHECK_EQ(parse_last(&cp, &f), 0);
	CHECK_EQ(f.code, PPPOE_CODE_PADR);
	CHECK_EQ(f.ac_cookie.len, DISC_AC_COOKIE_LEN);
	pump(&client, &cp, &ac, &ap, 1000);
	CHECK_EQ(client.session_id, first_sid);
	CHECK_EQ(ap.ac_events[DISC_AC_EV_SESSION_NEW], 1);
	CHECK_EQ(ac.session_count, 1);
	CHECK_EQ(cp.client_events[DISC_EV_SESSION_UP], 1);
}

TEST(no_pads_failure)
{
	struct disc_client_config cc = client_cfg();
	struct disc_ac_config acfg = ac_cfg();

	cc.padr_attempts = 2;
	CHECK_EQ(setup_client(&client, &cp, &cc, 9), 0);
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 10), 0);
	disc_client_start(&client, 0);
	disc_ac_input(&ac, 0, cp.frame[0], cp.len[0]);
	cp.n = 0;
	disc_client_input(&client, 0, ap.frame[0], ap.len[0]);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_PADR_SENT);
	disc_client_timer(&client, 1000);
	CHECK_EQ(cp.total, 3);
	disc_client_timer(&client, 3000);
	CHECK_EQ(cp.client_events[DISC_EV_FAILED], 1);
	CHECK_EQ(cp.last_client_ev.failure, DISC_FAIL_NO_PADS);
	CHECK(strcmp(cp.last_client_ev.message, "no PADS after 2 PADRs") == 0);
}

/* Drives the client to PADR_SENT against the real AC and returns the PADO frame. */
static int client_to_padr_sent(void)
{
	struct disc_client_config cc = client_cfg();
	struct disc_ac_config acfg = ac_cfg();

	if (setup_client(&client, &cp, &cc, 11) || setup_ac(&ac, &ap, &acfg, 12))
		return -1;
	disc_client_start(&client, 0);
	disc_ac_input(&ac, 0, cp.frame[0], cp.len[0]);
	cp.n = 0;
	disc_client_input(&client, 0, ap.frame[0], ap.len[0]);
	ap.n = 0;
	return disc_client_state(&client) == DISC_CLIENT_PADR_SENT ? 0 : -1;
}

TEST(pads_error_tags)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	int len;

	CHECK_EQ(client_to_padr_sent(), 0);
	/* A PADS with an error tag but another Host-Uniq is not ours. */
	len = make_frame(buf, client_mac, ac_mac, PPPOE_CODE_PADS, 0, (const uint8_t *)"zz", 2,
			 PPPOE_TAG_SERVICE_NAME_ERROR, "nope");
	CHECK_EQ(disc_client_input(&client, 0, buf, (size_t)len), -EINVAL);
	CHECK_EQ(client.drops[PPPOE_DROP_HOST_UNIQ], 1);
	/* From another MAC: not our AC. */
	len = make_frame(buf, client_mac, rogue_mac, PPPOE_CODE_PADS, 5, client.host_uniq,
			 client.host_uniq_len, 0, NULL);
	CHECK_EQ(disc_client_input(&client, 0, buf, (size_t)len), -EINVAL);
	CHECK_EQ(client.drops[PPPOE_DROP_AC_MAC], 1);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_PADR_SENT);

	len = make_frame(buf, client_mac, ac_mac, PPPOE_CODE_PADS, 0, client.host_uniq,
			 client.host_uniq_len, PPPOE_TAG_SERVICE_NAME_ERROR, "unknown service");
	CHECK_EQ(disc_client_input(&client, 0, buf, (size_t)len), 0);
	CHECK_EQ(cp.client_events[DISC_EV_FAILED], 1);
	CHECK_EQ(cp.last_client_ev.failure, DISC_FAIL_PADS_ERROR);
	CHECK(strcmp(cp.last_client_ev.message, "PADS Service-Name-Error: unknown service") == 0);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_IDLE);

	CHECK_EQ(client_to_padr_sent(), 0);
	len = make_frame(buf, client_mac, ac_mac, PPPOE_CODE_PADS, 0, client.host_uniq,
			 client.host_uniq_len, PPPOE_TAG_GENERIC_ERROR, "");
	CHECK_EQ(disc_client_input(&client, 0, buf, (size_t)len), 0);
	CHECK(strcmp(cp.last_client_ev.message, "PADS Generic-Error: (no text)") == 0);

	/* Session id 0 without an error tag is a failure too. */
	CHECK_EQ(client_to_padr_sent(), 0);
	len = make_frame(buf, client_mac, ac_mac, PPPOE_CODE_PADS, 0, client.host_uniq,
			 client.host_uniq_len, 0, NULL);
	CHECK_EQ(disc_client_input(&client, 0, buf, (size_t)len), 0);
	CHECK_EQ(cp.last_client_ev.failure, DISC_FAIL_PADS_SESSION_ZERO);

	/* An error tag wins even with a nonzero session id. */
	CHECK_EQ(client_to_padr_sent(), 0);
	len = make_frame(buf, client_mac, ac_mac, PPPOE_CODE_PADS, 9, client.host_uniq,
			 client.host_uniq_len, PPPOE_TAG_AC_SYSTEM_ERROR, "busy");
	CHECK_EQ(disc_client_input(&client, 0, buf, (size_t)len), 0);
	CHECK(strcmp(cp.last_client_ev.message, "PADS AC-System-Error: busy") == 0);
	CHECK_EQ(cp.client_events[DISC_EV_SESSION_UP], 0);
}

TEST(pado_error_tag_in_failure_text)
{
	struct disc_client_config cc = client_cfg();
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	int len;

	cc.padi_attempts = 1;
	CHECK_EQ(setup_client(&client, &cp, &cc, 13), 0);
	disc_client_start(&client, 0);
	len = make_frame(buf, client_mac, ac_mac, PPPOE_CODE_PADO, 0, client.host_uniq,
			 client.host_uniq_len, PPPOE_TAG_AC_SYSTEM_ERROR, "overloaded");
	CHECK_EQ(disc_client_input(&client, 0, buf, (size_t)len), -EINVAL);
	CHECK_EQ(client.drops[PPPOE_DROP_ERROR_TAG], 1);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_PADI_SENT);
	disc_client_timer(&client, 1000);
	CHECK_EQ(cp.last_client_ev.failure, DISC_FAIL_NO_PADO);
	CHECK(strcmp(cp.last_client_ev.message,
		     "no PADO after 1 PADIs (last PADO AC-System-Error: overloaded)") == 0);
}

/* -------------------------------------------------------- hostile frames */

TEST(rogue_pado_flood)
{
	struct disc_client_config cc = client_cfg();
	struct disc_ac_config acfg = ac_cfg();
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	struct pppoe_builder b;
	uint8_t mac[6];
	int len, i;

	cc.ac_name = "test-ac";
	CHECK_EQ(setup_client(&client, &cp, &cc, 14), 0);
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 15), 0);
	disc_client_start(&client, 0);
	cp.n = 0;
	for (i = 0; i < 3000; i++) {
		memcpy(mac, rogue_mac, 6);
		mac[4] = (uint8_t)(i >> 8);
		mac[5] = (uint8_t)i;
		pppoe_build_begin(&b, buf, sizeof(buf), client_mac, mac, PPPOE_CODE_PADO, 0);
		pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, "", 0);
		switch (i % 3) {
		case 0: /* wrong Host-Uniq */
			pppoe_build_tag(&b, PPPOE_TAG_AC_NAME, "test-ac", 7);
			pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, "rogue", 5);
			break;
		case 1: /* right Host-Uniq (sniffed), wrong AC name */
			pppoe_build_tag(&b, PPPOE_TAG_AC_NAME, "evil", 4);
			pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, client.host_uniq,
					client.host_uniq_len);
			break;
		case 2: /* no Host-Uniq at all */
			pppoe_build_tag(&b, PPPOE_TAG_AC_NAME, "test-ac", 7);
			break;
		}
		len = pppoe_build_finish(&b);
		CHECK_EQ(disc_client_input(&client, 10, buf, (size_t)len), -EINVAL);
	}
	CHECK_EQ(client.drops[PPPOE_DROP_HOST_UNIQ], 2000);
	CHECK_EQ(client.drops[PPPOE_DROP_AC_NAME], 1000);
	CHECK_EQ(cp.total, 1);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_PADI_SENT);
	/* The real AC still gets through: its PADI retransmission is answered. */
	disc_client_timer(&client, 1000);
	pump(&client, &cp, &ac, &ap, 1000);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_SESSION);
	CHECK_MEM(client.ac_mac, ac_mac, 6);
	/* Rogue PADOs and PADSes after the session is up are ignored too. */
	len = make_frame(buf, client_mac, rogue_mac, PPPOE_CODE_PADS, 77, client.host_uniq,
			 client.host_uniq_len, 0, NULL);
	CHECK_EQ(disc_client_input(&client, 2000, buf, (size_t)len), -EINVAL);
	CHECK_EQ(client.drops[PPPOE_DROP_CODE], 1);
}

TEST(pado_filters_pick_configured_ac)
{
	struct disc_client_config cc = client_cfg();
	struct disc_ac_config acfg = ac_cfg();
	const char *svc[] = { "internet", "voip" };
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	struct pppoe_disc_frame f;
	int len;

	/* AC MAC filter: a PADO from AC 2 is ignored, AC 1's is taken. */
	cc.match_ac_mac = true;
	memcpy(cc.ac_mac, ac_mac, 6);
	cc.service_name = "voip";
	CHECK_EQ(setup_client(&client, &cp, &cc, 16), 0);
	acfg.services = svc;
	acfg.service_count = 2;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 17), 0);
	acfg.local_mac[5] = ac2_mac[5];
	CHECK_EQ(setup_ac(&ac2, &ap2, &acfg, 18), 0);
	disc_client_start(&client, 0);
	disc_ac_input(&ac2, 0, cp.frame[0], cp.len[0]);
	disc_ac_input(&ac, 0, cp.frame[0], cp.len[0]);
	cp.n = 0;
	CHECK_EQ(disc_client_input(&client, 0, ap2.frame[0], ap2.len[0]), -EINVAL);
	CHECK_EQ(client.drops[PPPOE_DROP_AC_MAC], 1);
	CHECK_EQ(disc_client_input(&client, 0, ap.frame[0], ap.len[0]), 0);
	CHECK_EQ(parse_last(&cp, &f), 0);
	CHECK_EQ(f.code, PPPOE_CODE_PADR);
	CHECK_MEM(f.dst, ac_mac, 6);
	CHECK_EQ(f.service_name.len, 4);
	CHECK_MEM(f.service_name.data, "voip", 4);

	/* A PADO not offering the wanted service is ignored. */
	CHECK_EQ(setup_client(&client, &cp, &cc, 16), 0);
	disc_client_start(&client, 0);
	len = make_frame(buf, client_mac, ac_mac, PPPOE_CODE_PADO, 0, client.host_uniq,
			 client.host_uniq_len, 0, NULL);
	CHECK_EQ(disc_client_input(&client, 0, buf, (size_t)len), -EINVAL);
	CHECK_EQ(client.drops[PPPOE_DROP_SERVICE], 1);
	/* A PADO unicast to someone else, or with a session id, is ignored. */
	len = make_frame(buf, client2_mac, ac_mac, PPPOE_CODE_PADO, 0, client.host_uniq,
			 client.host_uniq_len, 0, NULL);
	CHECK_EQ(disc_client_input(&client, 0, buf, (size_t)len), -EINVAL);
	CHECK_EQ(client.drops[PPPOE_DROP_DST_MAC], 1);
	len = make_frame(buf, client_mac, ac_mac, PPPOE_CODE_PADO, 3, client.host_uniq,
			 client.host_uniq_len, 0, NULL);
	CHECK_EQ(disc_client_input(&client, 0, buf, (size_t)len), -EINVAL);
	CHECK_EQ(client.drops[PPPOE_DROP_SESSION_ID], 1);
	/* Multicast source MAC. */
	len = make_frame(buf, client_mac, bcast, PPPOE_CODE_PADO, 0, client.host_uniq,
			 client.host_uniq_len, 0, NULL);
	CHECK_EQ(disc_client_input(&client, 0, buf, (size_t)len), -EINVAL);
	CHECK_EQ(client.drops[PPPOE_DROP_SRC_MAC], 1);
	/* Malformed frame counted by the codec reason. */
	CHECK_EQ(disc_client_input(&client, 0, buf, 10), -EBADMSG);
	CHECK_EQ(client.drops[PPPOE_DROP_SHORT], 1);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_PADI_SENT);
}

TEST(foreign_padt_ignored)
{
	struct disc_client_config cc = client_cfg();
	struct disc_ac_config acfg = ac_cfg();
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	uint16_t sid;
	int len;

	CHECK_EQ(setup_client(&client, &cp, &cc, 19), 0);
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 20), 0);
	disc_client_start(&client, 0);
	pump(&client, &cp, &ac, &ap, 0);
	sid = client.session_id;
	CHECK(sid);

	len = disc_build_padt(buf, sizeof(buf), ac_mac, client_mac, (uint16_t)(sid + 1), NULL);
	CHECK_EQ(disc_client_input(&client, 1, buf, (size_t)len), -EINVAL);
	len = disc_build_padt(buf, sizeof(buf), rogue_mac, client_mac, sid, NULL);
	CHECK_EQ(disc_client_input(&client, 1, buf, (size_t)len), -EINVAL);
	CHECK_EQ(client.drops[PPPOE_DROP_PADT_FOREIGN], 2);
	len = disc_build_padt(buf, sizeof(buf), ac_mac, bcast, sid, NULL);
	CHECK_EQ(disc_client_input(&client, 1, buf, (size_t)len), -EINVAL);
	CHECK_EQ(client.drops[PPPOE_DROP_DST_MAC], 1);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_SESSION);
	CHECK_EQ(cp.client_events[DISC_EV_SESSION_DOWN], 0);

	/* The AC ignores a PADT for the session from another MAC, or for no session. */
	len = disc_build_padt(buf, sizeof(buf), rogue_mac, ac_mac, sid, NULL);
	CHECK_EQ(disc_ac_input(&ac, 1, buf, (size_t)len), -EINVAL);
	len = disc_build_padt(buf, sizeof(buf), client_mac, ac_mac, (uint16_t)(sid + 1), NULL);
	CHECK_EQ(disc_ac_input(&ac, 1, buf, (size_t)len), -EINVAL);
	CHECK_EQ(ac.drops[PPPOE_DROP_PADT_FOREIGN], 2);
	CHECK(disc_ac_find(&ac, sid) != NULL);

	/* The real PADT from our AC ends the session. */
	len = disc_build_padt(buf, sizeof(buf), ac_mac, client_mac, sid, NULL);
	CHECK_EQ(disc_client_input(&client, 2, buf, (size_t)len), 0);
	CHECK_EQ(cp.client_events[DISC_EV_SESSION_DOWN], 1);
	CHECK_EQ(cp.last_client_ev.message[0], '\0');
	/* A second copy arrives when there is no session any more. */
	CHECK_EQ(disc_client_input(&client, 2, buf, (size_t)len), -EINVAL);
	CHECK_EQ(client.drops[PPPOE_DROP_CODE], 1);
}

/* ------------------------------------------------------------------ cookie */

/* Runs PADI->PADO for client 1 and returns the cookie from the PADO. */
static int get_pado(struct pppoe_disc_frame *pado, uint8_t *pado_buf, uint64_t now)
{
	struct disc_client_config cc = client_cfg();
	struct disc_ac_config acfg = ac_cfg();

	if (setup_client(&client, &cp, &cc, 21) || setup_ac(&ac, &ap, &acfg, 22))
		return -1;
	disc_client_start(&client, now);
	disc_ac_input(&ac, now, cp.frame[0], cp.len[0]);
	if (ap.n != 1)
		return -1;
	memcpy(pado_buf, ap.frame[0], ap.len[0]);
	ap.n = 0;
	return pppoe_disc_parse(pado_buf, ap.len[0], pado, NULL);
}

static int send_padr(uint64_t now, const uint8_t *src, const uint8_t *cookie, size_t cookie_len)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	struct pppoe_builder b;
	int len;

	pppoe_build_begin(&b, buf, sizeof(buf), ac_mac, src, PPPOE_CODE_PADR, 0);
	pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, "", 0);
	pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, "hu", 2);
	if (cookie)
		pppoe_build_tag(&b, PPPOE_TAG_AC_COOKIE, cookie, cookie_len);
	len = pppoe_build_finish(&b);
	return disc_ac_input(&ac, now, buf, (size_t)len);
}

TEST(cookie_binds_mac_and_time)
{
	uint8_t pado_buf[PPPOE_DISC_FRAME_MAX];
	struct pppoe_disc_frame pado;
	uint8_t cookie[DISC_AC_COOKIE_LEN];

	CHECK_EQ(get_pado(&pado, pado_buf, 1000), 0);
	CHECK_EQ(pado.ac_cookie.len, DISC_AC_COOKIE_LEN);
	memcpy(cookie, pado.ac_cookie.data, sizeof(cookie));

	/* No cookie, wrong length, wrong MAC, tampered. */
	CHECK_EQ(send_padr(1000, client_mac, NULL, 0), -EINVAL);
	CHECK_EQ(send_padr(1000, client_mac, cookie, sizeof(cookie) - 1), -EINVAL);
	CHECK_EQ(send_padr(1000, client2_mac, cookie, sizeof(cookie)), -EINVAL);
	cookie[7] ^= 0x10;
	CHECK_EQ(send_padr(1000, client_mac, cookie, sizeof(cookie)), -EINVAL);
	cookie[7] ^= 0x10;
	CHECK_EQ(ac.drops[PPPOE_DROP_COOKIE], 4);
	CHECK_EQ(ac.session_count, 0);
	CHECK_EQ(ap.total, 1); /* only the PADO: no PADS for bad cookies */
	/* Expired: two epochs (default 60 s) later. */
	CHECK_EQ(send_padr(1000 + 2 * 60000, client_mac, cookie, sizeof(cookie)), -EINVAL);
	CHECK_EQ(ac.drops[PPPOE_DROP_COOKIE], 5);
	/* Still valid in the next epoch. */
	CHECK_EQ(send_padr(60000 + 59000, client_mac, cookie, sizeof(cookie)), 0);
	CHECK_EQ(ac.session_count, 1);
	CHECK_EQ(ap.ac_events[DISC_AC_EV_SESSION_NEW], 1);
}

TEST(cookie_secret_differs_per_ac)
{
	uint8_t pado_buf[PPPOE_DISC_FRAME_MAX];
	struct pppoe_disc_frame pado;
	struct disc_ac_config acfg = ac_cfg();
	uint8_t cookie[DISC_AC_COOKIE_LEN];

	CHECK_EQ(get_pado(&pado, pado_buf, 0), 0);
	memcpy(cookie, pado.ac_cookie.data, sizeof(cookie));
	/* An AC restarted with a new secret rejects the old cookie. */
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 999), 0);
	CHECK_EQ(send_padr(0, client_mac, cookie, sizeof(cookie)), -EINVAL);
	CHECK_EQ(ac.drops[PPPOE_DROP_COOKIE], 1);
	disc_ac_destroy(&ac);
	for (size_t i = 0; i < sizeof(ac.secret); i++)
		CHECK_EQ(ac.secret[i], 0);
}

/* ---------------------------------------------------------------- sessions */

/* Makes a PADR from mac with a valid cookie; returns disc_ac_input's result. */
static int padr_from(const uint8_t *mac, uint64_t now, const char *host_uniq)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	struct pppoe_disc_frame f;
	struct pppoe_builder b;
	int len;

	pppoe_build_begin(&b, buf, sizeof(buf), bcast, mac, PPPOE_CODE_PADI, 0);
	pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, "", 0);
	len = pppoe_build_finish(&b);
	ap.n = 0;
	if (disc_ac_input(&ac, now, buf, (size_t)len) || parse_last(&ap, &f))
		return -1000;
	pppoe_build_begin(&b, buf + 0, sizeof(buf), ac_mac, mac, PPPOE_CODE_PADR, 0);
	pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, "", 0);
	pppoe_build_tag(&b, PPPOE_TAG_AC_COOKIE, f.ac_cookie.data, f.ac_cookie.len);
	if (host_uniq)
		pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, host_uniq, strlen(host_uniq));
	len = pppoe_build_finish(&b);
	return disc_ac_input(&ac, now, buf, (size_t)len);
}

TEST(session_ids_unique_and_bounded)
{
	struct disc_ac_config acfg = ac_cfg();
	/* A random source that keeps repeating a few values, including 0 and 0xffff. */
	static const uint16_t ids[] = { 0, 0xffff, 7, 7, 9, 0, 7, 9, 0xffff, 9 };
	uint8_t mac[6];
	uint16_t seen[40];
	unsigned int i, j;

	acfg.max_sessions = 40;
	acfg.per_mac_rate = 1000;
	acfg.per_mac_burst = 1000;
	acfg.global_rate = 1000;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 23), 0);
	ap.fixed_ids = ids;
	ap.fixed_count = sizeof(ids) / sizeof(ids[0]);
	for (i = 0; i < 40; i++) {
		memcpy(mac, client_mac, 6);
		mac[4] = 0x10;
		mac[5] = (uint8_t)i;
		CHECK_EQ(padr_from(mac, 0, NULL), 0);
		seen[i] = ap.last_ac_ev.session_id;
		CHECK(seen[i] != 0 && seen[i] != 0xffff);
		for (j = 0; j < i; j++)
			CHECK(seen[j] != seen[i]);
	}
	CHECK_EQ(ac.session_count, 40);
	CHECK_EQ(ap.ac_events[DISC_AC_EV_SESSION_NEW], 40);

	/* Full: the 41st gets a PADS with AC-System-Error and session 0. */
	mac[4] = 0x20;
	CHECK_EQ(padr_from(mac, 0, NULL), -EINVAL);
	CHECK_EQ(ac.drops[PPPOE_DROP_NO_SESSION_SLOT], 1);
	{
		struct pppoe_disc_frame f;

		CHECK_EQ(parse_last(&ap, &f), 0);
		CHECK_EQ(f.code, PPPOE_CODE_PADS);
		CHECK_EQ(f.session_id, 0);
		CHECK(f.ac_system_error.present);
	}
	/* Releasing one makes room again. */
	CHECK_EQ(disc_ac_release(&ac, seen[3]), 0);
	CHECK_EQ(padr_from(mac, 0, NULL), 0);
	CHECK_EQ(ac.session_count, 40);
}

/* A full AC of sessions from few MACs (shared chains), ended in a scattered order: each
 * PADR retry still finds its own session, PADTs find theirs, and freed slots are reused. */
TEST(full_ac_lookups_by_id_and_mac)
{
	struct disc_ac_config acfg = ac_cfg();
	uint16_t ids[DISC_AC_MAX_SESSIONS];
	uint8_t mac[6];
	char hu[16];
	unsigned int i, round;

	acfg.per_mac_rate = acfg.global_rate = DISC_AC_RATE_UNLIMITED;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 39), 0);
	memcpy(mac, client_mac, 6);
	for (round = 0; round < 3; round++) {
		for (i = 0; i < DISC_AC_MAX_SESSIONS; i++) {
			if (round && i % 7 != round)
				continue; /* after round 0, only the ones ended are new */
			mac[5] = (uint8_t)(i % 4);
			snprintf(hu, sizeof(hu), "hu%u", i);
			CHECK_EQ(padr_from(mac, 0, hu), 0);
			ids[i] = ap.last_ac_ev.session_id;
		}
		CHECK_EQ(ac.session_count, DISC_AC_MAX_SESSIONS);
		/* Retries: the same session id back, no new session. */
		for (i = round; i < DISC_AC_MAX_SESSIONS; i += 97) {
			struct pppoe_disc_frame f;

			mac[5] = (uint8_t)(i % 4);
			snprintf(hu, sizeof(hu), "hu%u", i);
			CHECK_EQ(padr_from(mac, 0, hu), 0);
			CHECK_EQ(parse_last(&ap, &f), 0);
			CHECK_EQ(f.session_id, ids[i]);
		}
		CHECK_EQ(ac.session_count, DISC_AC_MAX_SESSIONS);
		/* Every seventh (a different set each round) ends. */
		for (i = 0; i < DISC_AC_MAX_SESSIONS; i++) {
			if (i % 7 != round + 1)
				continue;
			CHECK(disc_ac_find(&ac, ids[i]) != NULL);
			CHECK_EQ(disc_ac_release(&ac, ids[i]), 0);
			CHECK(disc_ac_find(&ac, ids[i]) == NULL);
		}
	}
}

TEST(random_session_ids_spread)
{
	struct disc_ac_config acfg = ac_cfg();
	uint8_t mac[6];
	unsigned int i, low = 0;

	acfg.per_mac_rate = 1000;
	acfg.per_mac_burst = 1000;
	acfg.global_rate = 1000;
	acfg.global_burst = 1000;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 24), 0);
	for (i = 0; i < 200; i++) {
		memcpy(mac, client_mac, 6);
		mac[4] = (uint8_t)(i >> 8);
		mac[5] = (uint8_t)i;
		CHECK_EQ(padr_from(mac, 0, "x"), 0);
		if (ap.last_ac_ev.session_id < 256)
			low++;
	}
	/* Sequential ids would all be small; random ones almost never are. */
	CHECK(low < 10);
	CHECK_EQ(ac.session_count, 200);
}

TEST(max_sessions_seen_by_client)
{
	struct disc_client_config cc = client_cfg();
	struct disc_ac_config acfg = ac_cfg();

	acfg.max_sessions = 1;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 25), 0);
	CHECK_EQ(setup_client(&client, &cp, &cc, 26), 0);
	memcpy(cc.local_mac, client2_mac, 6);
	CHECK_EQ(setup_client(&client2, &cp2, &cc, 27), 0);
	disc_client_start(&client, 0);
	pump(&client, &cp, &ac, &ap, 0);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_SESSION);
	disc_client_start(&client2, 0);
	pump(&client2, &cp2, &ac, &ap, 0);
	CHECK_EQ(cp2.client_events[DISC_EV_FAILED], 1);
	CHECK_EQ(cp2.last_client_ev.failure, DISC_FAIL_PADS_ERROR);
	CHECK(strcmp(cp2.last_client_ev.message, "PADS AC-System-Error: no free session") == 0);
}

TEST(service_name_negotiation)
{
	struct disc_client_config cc = client_cfg();
	struct disc_ac_config acfg = ac_cfg();
	const char *svc[] = { "internet", "iptv" };
	struct pppoe_disc_frame f;

	acfg.services = svc;
	acfg.service_count = 2;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 28), 0);
	/* Any service: the PADO lists all offered. */
	CHECK_EQ(setup_client(&client, &cp, &cc, 29), 0);
	disc_client_start(&client, 0);
	disc_ac_input(&ac, 0, cp.frame[0], cp.len[0]);
	CHECK_EQ(parse_last(&ap, &f), 0);
	CHECK_EQ(f.service_count, 2);
	CHECK_MEM(f.services[1].data, "iptv", 4);
	pump(&client, &cp, &ac, &ap, 0);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_SESSION);
	/* A service not offered: no PADO at all. */
	cc.service_name = "gaming";
	CHECK_EQ(setup_client(&client2, &cp2, &cc, 30), 0);
	disc_client_start(&client2, 0);
	ap.n = 0;
	CHECK_EQ(disc_ac_input(&ac, 0, cp2.frame[0], cp2.len[0]), -EINVAL);
	CHECK_EQ(ap.n, 0);
	CHECK_EQ(ac.drops[PPPOE_DROP_SERVICE], 1);
	/* An offered one: session with that service. */
	cc.service_name = "iptv";
	CHECK_EQ(setup_client(&client2, &cp2, &cc, 30), 0);
	memcpy(client2.local_mac, client2_mac, 6);
	disc_client_start(&client2, 0);
	pump(&client2, &cp2, &ac, &ap, 0);
	CHECK_EQ(disc_client_state(&client2), DISC_CLIENT_SESSION);
	CHECK(strcmp(ap.last_ac_ev.service_name, "iptv") == 0);
}

/* --------------------------------------------------------------- RFC 4638 */

static int negotiate(uint16_t client_wish, uint16_t ac_max, uint16_t *client_mp, uint16_t *ac_mp)
{
	struct disc_client_config cc = client_cfg();
	struct disc_ac_config acfg = ac_cfg();

	cc.max_payload = client_wish;
	acfg.max_payload = ac_max;
	if (setup_client(&client, &cp, &cc, 31) || setup_ac(&ac, &ap, &acfg, 32))
		return -1;
	disc_client_start(&client, 0);
	pump(&client, &cp, &ac, &ap, 0);
	if (disc_client_state(&client) != DISC_CLIENT_SESSION)
		return -1;
	*client_mp = cp.last_client_ev.max_payload;
	*ac_mp = ap.last_ac_ev.max_payload;
	return 0;
}

TEST(rfc4638_max_payload)
{
	uint16_t c_mp, a_mp;
	struct pppoe_disc_frame f;

	CHECK_EQ(negotiate(pppoe_max_payload_for_mtu(1508), 1500, &c_mp, &a_mp), 0);
	CHECK_EQ(c_mp, 1500);
	CHECK_EQ(a_mp, 1500);
	/* The PADI carried the tag. */
	CHECK_EQ(pppoe_disc_parse(cp.frame[0], cp.len[0], &f, NULL), 0);
	CHECK(f.has_max_payload);
	CHECK_EQ(f.max_payload, 1500);
	/* AC without RFC 4638: 1492 both sides. */
	CHECK_EQ(negotiate(1500, 0, &c_mp, &a_mp), 0);
	CHECK_EQ(c_mp, PPPOE_DEFAULT_MRU);
	CHECK_EQ(a_mp, PPPOE_DEFAULT_MRU);
	/* Client not asking: the AC grants nothing. */
	CHECK_EQ(negotiate(0, 1500, &c_mp, &a_mp), 0);
	CHECK_EQ(c_mp, PPPOE_DEFAULT_MRU);
	CHECK_EQ(a_mp, PPPOE_DEFAULT_MRU);
	/* Both sides: the smaller wins. */
	CHECK_EQ(negotiate(1500, 1496, &c_mp, &a_mp), 0);
	CHECK_EQ(c_mp, 1496);
	CHECK_EQ(a_mp, 1496);
	CHECK_EQ(negotiate(1496, 9000, &c_mp, &a_mp), 0);
	CHECK_EQ(c_mp, 1496);
	CHECK_EQ(a_mp, 1496);
}

TEST(rfc4638_ac_grants_more_than_asked_is_capped)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	struct pppoe_builder b;
	int len;

	CHECK_EQ(client_to_padr_sent(), 0);
	client.max_payload_wish = 1500;
	pppoe_build_begin(&b, buf, sizeof(buf), client_mac, ac_mac, PPPOE_CODE_PADS, 0x99);
	pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, client.host_uniq, client.host_uniq_len);
	pppoe_build_tag_u16(&b, PPPOE_TAG_PPP_MAX_PAYLOAD, 9000);
	len = pppoe_build_finish(&b);
	CHECK_EQ(disc_client_input(&client, 0, buf, (size_t)len), 0);
	CHECK_EQ(cp.last_client_ev.max_payload, 1500);

	/* The PADS decides: without the tag there, 1492. */
	CHECK_EQ(client_to_padr_sent(), 0);
	client.max_payload_wish = 1500;
	len = make_frame(buf, client_mac, ac_mac, PPPOE_CODE_PADS, 0x98, client.host_uniq,
			 client.host_uniq_len, 0, NULL);
	CHECK_EQ(disc_client_input(&client, 0, buf, (size_t)len), 0);
	CHECK_EQ(cp.last_client_ev.max_payload, PPPOE_DEFAULT_MRU);
}

TEST(client_stop_and_state_names)
{
	struct disc_client_config cc = client_cfg();

	CHECK_EQ(setup_client(&client, &cp, &cc, 42), 0);
	CHECK(strcmp(disc_client_state_name(disc_client_state(&client)), "idle") == 0);
	disc_client_start(&client, 0);
	CHECK(strcmp(disc_client_state_name(disc_client_state(&client)), "padi-sent") == 0);
	/* Stopping before a session sends nothing and cancels the timer. */
	CHECK_EQ(disc_client_stop(&client, 10), 0);
	CHECK_EQ(cp.total, 1);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_IDLE);
	CHECK_EQ(disc_client_deadline(&client), UINT64_MAX);
	disc_client_timer(&client, 100000);
	CHECK_EQ(cp.total, 1);
	CHECK_EQ(cp.client_events[DISC_EV_FAILED], 0);
	CHECK(strcmp(disc_client_state_name(DISC_CLIENT_SESSION), "session") == 0);
	CHECK(strcmp(disc_client_state_name(DISC_CLIENT_DISCOVERING), "discovering") == 0);
}

/* -------------------------------------------------------------- rate limit */

static int padi_from(const uint8_t *mac, uint64_t now)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	struct pppoe_builder b;
	int len;

	pppoe_build_begin(&b, buf, sizeof(buf), bcast, mac, PPPOE_CODE_PADI, 0);
	pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, "", 0);
	len = pppoe_build_finish(&b);
	return disc_ac_input(&ac, now, buf, (size_t)len);
}

TEST(padi_rate_limit_per_mac)
{
	struct disc_ac_config acfg = ac_cfg();
	unsigned int ok = 0, i;

	acfg.per_mac_rate = 2;
	acfg.per_mac_burst = 5;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 33), 0);
	for (i = 0; i < 50; i++)
		ok += padi_from(client_mac, 1000) == 0;
	CHECK_EQ(ok, 5);
	CHECK_EQ(ap.total, 5);
	CHECK_EQ(ac.drops[PPPOE_DROP_RATE_LIMIT], 45);
	/* 2 per second refill: 1 s later, two more. */
	ok = 0;
	for (i = 0; i < 10; i++)
		ok += padi_from(client_mac, 2000) == 0;
	CHECK_EQ(ok, 2);
	/* Long idle refills only up to the burst. */
	ok = 0;
	for (i = 0; i < 10; i++)
		ok += padi_from(client_mac, 1000000) == 0;
	CHECK_EQ(ok, 5);
}

/* One MAC over its limit is refused, again and again, while every other MAC is served. */
TEST(padi_rate_limit_one_mac_not_others)
{
	struct disc_ac_config acfg = ac_cfg();
	unsigned int i, round;

	acfg.per_mac_rate = 2;
	acfg.per_mac_burst = 5;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 35), 0);
	for (i = 0; i < 5; i++)
		CHECK_EQ(padi_from(client_mac, 1000), 0);
	for (round = 0; round < 4; round++) {
		CHECK_EQ(padi_from(client_mac, 1000), -EINVAL);
		for (i = 0; i < 300; i++) {
			uint8_t mac[6] = { 0x02,      0x33, 0, (uint8_t)round, (uint8_t)(i >> 8),
					   (uint8_t)i };

			CHECK_EQ(padi_from(mac, 1000), 0);
		}
	}
	CHECK_EQ(ac.drops[PPPOE_DROP_RATE_LIMIT], 4);
}

/* Many MACs, each under its limit: all are served (the old 64 shared slots refused some). */
TEST(padi_rate_limit_many_macs_served)
{
	struct disc_ac_config acfg = ac_cfg();
	unsigned int i, ok = 0;

	acfg.global_rate = DISC_AC_RATE_UNLIMITED;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 36), 0);
	/* Each of 1000 MACs sends its default burst (10) of PADIs: 10000 frames, all answered. */
	for (unsigned int n = 0; n < 10; n++)
		for (i = 0; i < 1000; i++) {
			uint8_t mac[6] = { 0x02, 0x34, 0, 0, (uint8_t)(i >> 8), (uint8_t)i };

			ok += padi_from(mac, 1000) == 0;
		}
	CHECK_EQ(ok, 10000);
	CHECK_EQ(ac.drops[PPPOE_DROP_RATE_LIMIT], 0);
	CHECK_EQ(ac.rate.rate_mac_count, 1000);
}

/* A full table takes the least recently seen MAC's entry, and never grows. */
TEST(padi_rate_limit_table_evicts_oldest)
{
	struct disc_ac_config acfg = ac_cfg();
	const uint8_t old_mac[6] = { 0x02, 0x35, 0xff, 0, 0, 1 };
	const uint8_t busy_mac[6] = { 0x02, 0x35, 0xff, 0, 0, 2 };
	unsigned int i;

	acfg.global_rate = DISC_AC_RATE_UNLIMITED;
	acfg.per_mac_rate = 1;
	acfg.per_mac_burst = 1;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 37), 0);
	/* Both use their one token. */
	CHECK_EQ(padi_from(old_mac, 1000), 0);
	CHECK_EQ(padi_from(busy_mac, 1000), 0);
	/* As many new MACs as the table holds, busy_mac seen (and refused) now and then. */
	for (i = 0; i < 3 * DISC_AC_RATE_MACS; i++) {
		uint8_t mac[6] = {
			0x02, 0x36, 0, (uint8_t)(i >> 16), (uint8_t)(i >> 8), (uint8_t)i
		};

		CHECK_EQ(padi_from(mac, 1000), 0);
		if (i % 512 == 0)
			CHECK_EQ(padi_from(busy_mac, 1000), -EINVAL);
		CHECK(ac.rate.rate_mac_count <= DISC_AC_RATE_MACS);
	}
	CHECK_EQ(ac.rate.rate_mac_count, DISC_AC_RATE_MACS);
	/* old_mac was evicted: it comes back with a full bucket. busy_mac stayed: refused. */
	CHECK_EQ(padi_from(old_mac, 1000), 0);
	CHECK_EQ(padi_from(busy_mac, 1000), -EINVAL);
}

/* Rates out of range are refused; 0 takes the default, UNLIMITED turns a limit off. */
TEST(padi_rate_limit_config)
{
	struct disc_ac_config acfg = ac_cfg();
	unsigned int i;

	acfg.global_rate = DISC_AC_RATE_MAX + 1;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 38), -EINVAL);
	acfg = ac_cfg();
	acfg.per_mac_rate = DISC_AC_RATE_MAX + 1;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 38), -EINVAL);
	acfg = ac_cfg();
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 38), 0);
	CHECK_EQ(ac.rate.global_rate, DISC_AC_DEFAULT_RATE);
	CHECK_EQ(ac.rate.per_mac_rate, DISC_AC_DEFAULT_RATE_PER_MAC);
	acfg.global_rate = acfg.per_mac_rate = DISC_AC_RATE_UNLIMITED;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 38), 0);
	for (i = 0; i < 5000; i++)
		CHECK_EQ(padi_from(client_mac, 1000), 0);
	CHECK_EQ(ac.rate.rate_mac_count, 0);
}

TEST(padi_rate_limit_global)
{
	struct disc_ac_config acfg = ac_cfg();
	unsigned int ok = 0, i;
	uint8_t mac[6];

	acfg.global_rate = 10;
	acfg.global_burst = 20;
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 34), 0);
	memcpy(mac, rogue_mac, 6);
	for (i = 0; i < 1000; i++) {
		mac[4] = (uint8_t)(i >> 8);
		mac[5] = (uint8_t)i;
		ok += padi_from(mac, 5000) == 0;
	}
	CHECK_EQ(ok, 20);
	CHECK_EQ(ac.drops[PPPOE_DROP_RATE_LIMIT], 980);
	/* Memory is bounded: the per-MAC table is fixed size. */
	CHECK_EQ(sizeof(ac.rate.rate_macs) / sizeof(ac.rate.rate_macs[0]), DISC_AC_RATE_MACS);
	/* 500 ms at 10/s: 5 tokens. */
	ok = 0;
	for (i = 0; i < 100; i++) {
		mac[4] = 0x40;
		mac[5] = (uint8_t)i;
		ok += padi_from(mac, 5500) == 0;
	}
	CHECK_EQ(ok, 5);
}

/*
 * The AC restarted: the client's frames name a session the new AC does not have. Its PADT
 * ends the client's session, saying why; limited per MAC and overall, on buckets of its own.
 */
TEST(ac_padt_for_unknown_session)
{
	struct disc_client_config cc = client_cfg();
	struct disc_ac_config acfg = ac_cfg();
	const uint8_t mcast[6] = { 0x03, 0, 0, 0, 0, 1 };
	struct pppoe_disc_frame f;
	unsigned int i, sent = 0;
	uint16_t sid;

	CHECK_EQ(setup_client(&client, &cp, &cc, 41), 0);
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 42), 0);
	disc_client_start(&client, 0);
	pump(&client, &cp, &ac, &ap, 0);
	sid = client.session_id;
	CHECK(sid);
	/* The restart: a new AC on the same MAC, no sessions. */
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 43), 0);
	CHECK_EQ(disc_ac_unknown_session(&ac, 1000, client_mac, sid), 0);
	CHECK_EQ(parse_last(&ap, &f), 0);
	CHECK_EQ(f.code, PPPOE_CODE_PADT);
	CHECK_EQ(f.session_id, sid);
	CHECK_MEM(f.dst, client_mac, 6);
	CHECK_MEM(f.src, ac_mac, 6);
	pump(&client, &cp, &ac, &ap, 1000);
	CHECK_EQ(cp.client_events[DISC_EV_SESSION_DOWN], 1);
	CHECK(strcmp(cp.last_client_ev.message,
		     "PADT Generic-Error: " DISC_AC_UNKNOWN_SESSION_TEXT) == 0);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_IDLE);

	/* Never to a group address, nor for ids no session has. */
	CHECK_EQ(disc_ac_unknown_session(&ac, 1000, mcast, sid), -EINVAL);
	CHECK_EQ(disc_ac_unknown_session(&ac, 1000, rogue_mac, 0), -EINVAL);
	CHECK_EQ(disc_ac_unknown_session(&ac, 1000, rogue_mac, 0xffff), -EINVAL);
	CHECK_EQ(ap.total, 1);

	/* A flood of random ids from one MAC: its burst, then one a second. */
	for (i = 0; i < 1000; i++)
		sent += disc_ac_unknown_session(&ac, 1000, rogue_mac, (uint16_t)(i + 1)) == 0;
	CHECK_EQ(sent, DISC_AC_PADT_RATE_PER_MAC * 5);
	CHECK_EQ(disc_ac_unknown_session(&ac, 2000, rogue_mac, 7), 0);
	CHECK_EQ(disc_ac_unknown_session(&ac, 2000, rogue_mac, 7), -EAGAIN);
	CHECK_EQ(ac.padt_unknown_session, 1 + sent + 1);
	CHECK_EQ(ac.padt_unknown_session_limited, 1000 - sent + 1);
	/* The PADI budget of that MAC is its own. */
	CHECK_EQ(padi_from(rogue_mac, 2000), 0);

	/* Random MACs: the global burst (2 s worth), then the rate. */
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 44), 0);
	sent = 0;
	for (i = 0; i < 3 * DISC_AC_PADT_RATE; i++) {
		uint8_t mac[6] = { 0x02, 0x44, 0, 0, (uint8_t)(i >> 8), (uint8_t)i };

		sent += disc_ac_unknown_session(&ac, 5000, mac, 1) == 0;
	}
	CHECK_EQ(sent, 2 * DISC_AC_PADT_RATE);
	CHECK_EQ(ac.padt_unknown_session_limited, DISC_AC_PADT_RATE);
	/* Discovery is still answered: the PADI limit did not pay for those. */
	CHECK_EQ(padi_from(client_mac, 5000), 0);
}

TEST(ac_rejects_unexpected)
{
	struct disc_ac_config acfg = ac_cfg();
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	int len;

	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 35), 0);
	/* PADO/PADS sent to an AC. */
	len = make_frame(buf, ac_mac, client_mac, PPPOE_CODE_PADO, 0, NULL, 0, 0, NULL);
	CHECK_EQ(disc_ac_input(&ac, 0, buf, (size_t)len), -EINVAL);
	len = make_frame(buf, ac_mac, client_mac, PPPOE_CODE_PADS, 1, NULL, 0, 0, NULL);
	CHECK_EQ(disc_ac_input(&ac, 0, buf, (size_t)len), -EINVAL);
	CHECK_EQ(ac.drops[PPPOE_DROP_CODE], 2);
	/* PADI with a session id, unicast to another AC, without Service-Name. */
	len = make_frame(buf, bcast, client_mac, PPPOE_CODE_PADI, 5, NULL, 0, 0, NULL);
	CHECK_EQ(disc_ac_input(&ac, 0, buf, (size_t)len), -EINVAL);
	CHECK_EQ(ac.drops[PPPOE_DROP_SESSION_ID], 1);
	len = make_frame(buf, ac2_mac, client_mac, PPPOE_CODE_PADI, 0, NULL, 0, 0, NULL);
	CHECK_EQ(disc_ac_input(&ac, 0, buf, (size_t)len), -EINVAL);
	CHECK_EQ(ac.drops[PPPOE_DROP_DST_MAC], 1);
	len = disc_build_padt(buf, sizeof(buf), client_mac, bcast, 1, NULL);
	buf[15] = PPPOE_CODE_PADI;
	buf[16] = buf[17] = 0;
	CHECK_EQ(disc_ac_input(&ac, 0, buf, (size_t)len), -EINVAL);
	CHECK_EQ(ac.drops[PPPOE_DROP_SERVICE], 1);
	/* Tags too long to echo in a reply that must fit 1500 bytes. */
	{
		static uint8_t big[1400];
		struct pppoe_builder b;

		pppoe_build_begin(&b, buf, sizeof(buf), bcast, client_mac, PPPOE_CODE_PADI, 0);
		pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, "", 0);
		pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, big, sizeof(big));
		len = pppoe_build_finish(&b);
		CHECK_EQ(disc_ac_input(&ac, 0, buf, (size_t)len), -EINVAL);
		pppoe_build_begin(&b, buf, sizeof(buf), bcast, client_mac, PPPOE_CODE_PADI, 0);
		pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, "", 0);
		pppoe_build_tag(&b, PPPOE_TAG_RELAY_SESSION_ID, big, DISC_RELAY_ID_MAX + 1);
		len = pppoe_build_finish(&b);
		CHECK_EQ(disc_ac_input(&ac, 0, buf, (size_t)len), -EINVAL);
		CHECK_EQ(ac.drops[PPPOE_DROP_TOO_LONG], 2);
	}
	/* A PADR must be unicast to us. */
	len = make_frame(buf, bcast, client_mac, PPPOE_CODE_PADR, 0, NULL, 0, 0, NULL);
	CHECK_EQ(disc_ac_input(&ac, 0, buf, (size_t)len), -EINVAL);
	CHECK_EQ(ac.drops[PPPOE_DROP_DST_MAC], 2);
	CHECK_EQ(ap.total, 0);
	/* The AC keeps no timers. */
	CHECK_EQ(disc_ac_deadline(&ac), UINT64_MAX);
}

TEST(ac_echoes_relay_session_id)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	struct disc_ac_config acfg = ac_cfg();
	struct pppoe_disc_frame f;
	struct pppoe_builder b;
	int len;

	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 36), 0);
	pppoe_build_begin(&b, buf, sizeof(buf), bcast, client_mac, PPPOE_CODE_PADI, 0);
	pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, "", 0);
	pppoe_build_tag(&b, PPPOE_TAG_RELAY_SESSION_ID, "relay-7", 7);
	len = pppoe_build_finish(&b);
	CHECK_EQ(disc_ac_input(&ac, 0, buf, (size_t)len), 0);
	CHECK_EQ(parse_last(&ap, &f), 0);
	CHECK_EQ(f.relay_session_id.len, 7);
	CHECK_MEM(f.relay_session_id.data, "relay-7", 7);

	/* The client echoes cookie and relay id in its PADR, and the relay id in its PADT. */
	CHECK_EQ(setup_client(&client, &cp,
			      &(struct disc_client_config){
				      .local_mac = { 0x02, 0, 0, 0, 0, 0x01 },
			      },
			      41),
		 0);
	disc_client_start(&client, 0);
	pppoe_build_begin(&b, buf, sizeof(buf), client_mac, ac_mac, PPPOE_CODE_PADO, 0);
	pppoe_build_tag(&b, PPPOE_TAG_AC_NAME, "x", 1);
	pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, client.host_uniq, client.host_uniq_len);
	pppoe_build_tag(&b, PPPOE_TAG_AC_COOKIE, "c00kie", 6);
	pppoe_build_tag(&b, PPPOE_TAG_RELAY_SESSION_ID, "relay-9", 7);
	len = pppoe_build_finish(&b);
	CHECK_EQ(disc_client_input(&client, 0, buf, (size_t)len), 0);
	CHECK_EQ(parse_last(&cp, &f), 0);
	CHECK_EQ(f.code, PPPOE_CODE_PADR);
	CHECK_EQ(f.ac_cookie.len, 6);
	CHECK_MEM(f.ac_cookie.data, "c00kie", 6);
	CHECK_EQ(f.relay_session_id.len, 7);
	CHECK_MEM(f.relay_session_id.data, "relay-9", 7);
	len = make_frame(buf, client_mac, ac_mac, PPPOE_CODE_PADS, 0x321, client.host_uniq,
			 client.host_uniq_len, 0, NULL);
	CHECK_EQ(disc_client_input(&client, 0, buf, (size_t)len), 0);
	CHECK_EQ(disc_client_stop(&client, 5), 0);
	CHECK_EQ(parse_last(&cp, &f), 0);
	CHECK_EQ(f.code, PPPOE_CODE_PADT);
	CHECK_EQ(f.session_id, 0x321);
	CHECK_MEM(f.relay_session_id.data, "relay-9", 7);
}

/* --------------------------------------------------------------- discover */

TEST(discover_mode_lists_acs)
{
	struct disc_client_config cc = client_cfg();
	struct disc_ac_config acfg = ac_cfg();
	const char *svc[] = { "internet", "voip" };
	unsigned int i;

	cc.discover_window_ms = 3000;
	CHECK_EQ(setup_client(&client, &cp, &cc, 37), 0);
	CHECK_EQ(setup_ac(&ac, &ap, &acfg, 38), 0);
	acfg.local_mac[5] = ac2_mac[5];
	acfg.ac_name = "second";
	acfg.services = svc;
	acfg.service_count = 2;
	acfg.max_payload = 1500;
	CHECK_EQ(setup_ac(&ac2, &ap2, &acfg, 39), 0);

	CHECK_EQ(disc_client_start_discover(&client, 0), 0);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_DISCOVERING);
	CHECK_EQ(disc_client_deadline(&client), 3000);
	/* Both ACs answer, AC 1 twice (a duplicate PADI reached it). */
	disc_ac_input(&ac, 0, cp.frame[0], cp.len[0]);
	disc_ac_input(&ac, 0, cp.frame[0], cp.len[0]);
	disc_ac_input(&ac2, 0, cp.frame[0], cp.len[0]);
	cp.n = 0;
	for (i = 0; i < ap.n; i++)
		disc_client_input(&client, 10, ap.frame[i], ap.len[i]);
	for (i = 0; i < ap2.n; i++)
		disc_client_input(&client, 10, ap2.frame[i], ap2.len[i]);
	CHECK_EQ(cp.client_events[DISC_EV_AC_FOUND], 2);
	CHECK_EQ(client.drops[PPPOE_DROP_DUP_AC], 1);
	CHECK(strcmp(cp.found[0].ac_name, "test-ac") == 0);
	CHECK_EQ(cp.found[0].service_count, 1);
	CHECK(cp.found[0].has_cookie);
	CHECK(!cp.found[0].has_max_payload);
	CHECK(strcmp(cp.found[1].ac_name, "second") == 0);
	CHECK_MEM(cp.found[1].ac_mac, ac2_mac, 6);
	CHECK_EQ(cp.found[1].service_count, 2);
	CHECK(strcmp(cp.found[1].services[1], "voip") == 0);
	/* No PADR is sent in discover mode. */
	CHECK_EQ(cp.total, 1);
	disc_client_timer(&client, 2999);
	CHECK_EQ(cp.client_events[DISC_EV_DISCOVER_DONE], 0);
	disc_client_timer(&client, 3000);
	CHECK_EQ(cp.client_events[DISC_EV_DISCOVER_DONE], 1);
	CHECK_EQ(cp.last_client_ev.ac_count, 2);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_IDLE);
}

TEST(discover_mode_bounded_under_flood)
{
	struct disc_client_config cc = client_cfg();
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	uint8_t mac[6];
	int len, i;

	CHECK_EQ(setup_client(&client, &cp, &cc, 40), 0);
	CHECK_EQ(disc_client_start_discover(&client, 0), 0);
	memcpy(mac, rogue_mac, 6);
	for (i = 0; i < 500; i++) {
		mac[5] = (uint8_t)i;
		mac[4] = (uint8_t)(i >> 8);
		len = make_frame(buf, client_mac, mac, PPPOE_CODE_PADO, 0, client.host_uniq,
				 client.host_uniq_len, 0, NULL);
		disc_client_input(&client, 1, buf, (size_t)len);
	}
	CHECK_EQ(cp.client_events[DISC_EV_AC_FOUND], DISC_DISCOVER_MAX_ACS);
	CHECK_EQ(client.drops[PPPOE_DROP_DUP_AC], 500 - DISC_DISCOVER_MAX_ACS);
	/* A failed send ends discover mode at once. */
	CHECK_EQ(setup_client(&client, &cp, &cc, 40), 0);
	cp.send_error = -ENETDOWN;
	CHECK_EQ(disc_client_start_discover(&client, 0), -ENETDOWN);
	CHECK_EQ(disc_client_state(&client), DISC_CLIENT_IDLE);
}

int main(void)
{
	check_prefix = "discovery";
	RUN(codec_roundtrip);
	RUN(codec_rejects_malformed);
	RUN(codec_padding_and_end_of_list);
	RUN(codec_builder_bounds);
	RUN(codec_helpers);
	RUN(padt_builder);
	RUN(init_validation);
	RUN(client_generates_host_uniq);
	RUN(exchange_client_ac);
	RUN(ac_closes_session);
	RUN(padi_backoff_then_no_pado);
	RUN(backoff_is_capped);
	RUN(send_failure_is_retried);
	RUN(padr_retry_gets_same_pads);
	RUN(no_pads_failure);
	RUN(pads_error_tags);
	RUN(pado_error_tag_in_failure_text);
	RUN(rogue_pado_flood);
	RUN(pado_filters_pick_configured_ac);
	RUN(foreign_padt_ignored);
	RUN(cookie_binds_mac_and_time);
	RUN(cookie_secret_differs_per_ac);
	RUN(session_ids_unique_and_bounded);
	RUN(full_ac_lookups_by_id_and_mac);
	RUN(random_session_ids_spread);
	RUN(max_sessions_seen_by_client);
	RUN(service_name_negotiation);
	RUN(rfc4638_max_payload);
	RUN(rfc4638_ac_grants_more_than_asked_is_capped);
	RUN(client_stop_and_state_names);
	RUN(padi_rate_limit_per_mac);
	RUN(padi_rate_limit_global);
	RUN(ac_padt_for_unknown_session);
	RUN(padi_rate_limit_one_mac_not_others);
	RUN(padi_rate_limit_many_macs_served);
	RUN(padi_rate_limit_table_evicts_oldest);
	RUN(padi_rate_limit_config);
	RUN(ac_rejects_unexpected);
	RUN(ac_echoes_relay_session_id);
	RUN(discover_mode_lists_acs);
	RUN(discover_mode_bounded_under_flood);
	return check_summary();
}
