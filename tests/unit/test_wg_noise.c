// SPDX-License-Identifier: GPL-2.0
/*
 * WireGuard's handshake (wg-bridge/noise.c) between two of our instances: both directions,
 * with and without a preshared key, the transport keys agreeing and carrying data; cookies
 * under load; and the refusals: bad MAC1 before any DH (counted), reserved bytes, sizes, an
 * unknown or wrong static key, a replayed or older timestamp, forged responses and cookie
 * replies, tampered data.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "noise.h"

#define NS 1000000000ULL

/* Deterministic "randomness": BLAKE2s of a seed and a counter. */
struct test_rng {
	uint8_t seed;
	uint32_t n;
	bool fail;
};

static int test_rng(void *ctx, uint8_t *buf, size_t len)
{
	struct test_rng *r = ctx;
	uint8_t in[5];

	if (r->fail)
		return -EIO;
	while (len) {
		uint8_t block[32];
		size_t take = len < 32 ? len : 32;

		in[0] = r->seed;
		memcpy(in + 1, &r->n, 4);
		r->n++;
		wg_blake2s(block, 32, in, sizeof(in), NULL, 0);
		memcpy(buf, block, take);
		buf += take;
		len -= take;
	}
	return 0;
}

/* One side: its identity, what it knows of the other, its handshake and keys. */
struct side {
	struct wg_noise_local local;
	struct wg_noise_peer peer;
	struct wg_handshake hs;
	struct wg_transport_keys keys;
	struct wg_aead_key seal, open; /* keys.send and keys.recv, set up as the device does */
	struct test_rng rng;
	uint8_t last_stamp[WG_TAI64N_LEN];
	uint64_t unix_sec;
};

static struct wg_noise_peer *lookup(void *ctx, const uint8_t pub[WG_KEY_LEN])
{
	struct side *s = ctx;

	return memcmp(pub, s->peer.pub, WG_KEY_LEN) ? NULL : &s->peer;
}

static void priv_of(uint8_t priv[32], uint8_t who)
{
	struct test_rng r = { .seed = (uint8_t)(0x80 | who) };

	test_rng(&r, priv, 32);
}

/* a and b know each other, with psk (or none). */
static int pair_init(struct side *a, struct side *b, const uint8_t *psk)
{
	uint8_t pa[32], pb[32];

	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	priv_of(pa, 1);
	priv_of(pb, 2);
	if (wg_noise_local_init(&a->local, pa) || wg_noise_local_init(&b->local, pb))
		return -1;
	wg_noise_peer_init(&a->peer, b->local.key.pub, psk);
	wg_noise_peer_init(&b->peer, a->local.key.pub, psk);
	a->rng.seed = 1;
	b->rng.seed = 2;
	a->unix_sec = b->unix_sec = 1700000000;
	return 0;
}

static void side_keys_free(struct side *s)
{
	wg_aead_key_free(&s->seal);
	wg_aead_key_free(&s->open);
}

static void side_free(struct side *s)
{
	side_keys_free(s);
	wg_handshake_clear(&s->hs);
	wg_noise_local_free(&s->local);
}

/* The transport keys of a finished handshake, and their ciphers; 0 or -errno. */
static int side_keys(struct side *s)
{
	int r = wg_transport_keys_derive(&s->keys, &s->hs);

	if (r)
		return r;
	side_keys_free(s);
	if (wg_aead_key_init(&s->seal, s->keys.send, true) ||
	    wg_aead_key_init(&s->open, s->keys.recv, false))
		return -ENOMEM;
	return 0;
}

static int initiation(struct side *s, struct wg_msg_initiation *m, uint32_t index, uint64_t now_ns)
{
	uint8_t stamp[WG_TAI64N_LEN];

	wg_tai64n_next(stamp, s->last_stamp, s->unix_sec++, 0);
	memcpy(s->last_stamp, stamp, sizeof(stamp));
	return wg_initiation_create(m, &s->hs, &s->local, &s->peer, stamp, index, test_rng, &s->rng,
				    now_ns);
}

/* A full handshake, i initiating to r; 0 or the step that failed. */
static int handshake(struct side *i, struct side *r)
{
	struct wg_msg_initiation init;
	struct wg_msg_response resp;

	if (initiation(i, &init, 0x11111111, 0))
		return 1;
	if (wg_initiation_consume(&r->hs, &r->local, &init, sizeof(init), lookup, r, NULL))
		return 2;
	if (wg_response_create(&resp, &r->hs, &r->local, 0x22222222, test_rng, &r->rng, 0))
		return 3;
	if (wg_response_consume(&i->hs, &i->local, &resp, sizeof(resp), NULL))
		return 4;
	if (side_keys(i) || side_keys(r))
		return 5;
	return 0;
}

/* Data from one side to the other: padded to 16, decrypted back. */
static int data_roundtrip(struct side *from, struct side *to, size_t len, uint64_t counter)
{
	uint8_t payload[1500], msg[1600], out[1600];
	size_t out_len;
	enum wg_message_type type;
	uint32_t receiver;
	uint64_t c;
	int n;

	memset(payload, (int)len, sizeof(payload));
	n = wg_data_seal(msg, sizeof(msg), payload, len, 1420, from->keys.remote_index, &from->seal,
			 counter);
	if (n != (int)(32 + (len + 15) / 16 * 16))
		return 1;
	if (wg_message_check(msg, (size_t)n, &type) || type != WG_MSG_DATA)
		return 2;
	wg_data_header(msg, &receiver, &c);
	if (receiver != to->keys.local_index || c != counter)
		return 3;
	if (wg_data_open(out, &out_len, msg, (size_t)n, &to->open))
		return 4;
	if (out_len < len || memcmp(out, payload, len))
		return 5;
	return 0;
}

static void keys_agree_check(struct side *i, struct side *r, int *bad)
{
	*bad = memcmp(i->keys.send, r->keys.recv, 32) || memcmp(i->keys.recv, r->keys.send, 32) ||
	       !memcmp(i->keys.send, i->keys.recv, 32) || !i->keys.initiator || r->keys.initiator ||
	       i->keys.local_index != r->keys.remote_index ||
	       i->keys.remote_index != r->keys.local_index;
}

TEST(handshake_both_directions)
{
	struct side a, b;
	int bad;

	CHECK_EQ(pair_init(&a, &b, NULL), 0);
	CHECK_EQ(handshake(&a, &b), 0);
	keys_agree_check(&a, &b, &bad);
	CHECK(!bad);
	CHECK_EQ(a.keys.local_index, 0x11111111);
	CHECK_EQ(a.keys.remote_index, 0x22222222);
	CHECK_EQ(data_roundtrip(&a, &b, 0, 0), 0); /* keepalive */
	CHECK_EQ(data_roundtrip(&a, &b, 1, 1), 0);
	CHECK_EQ(data_roundtrip(&b, &a, 1400, 0), 0);
	/* And the other way round. */
	CHECK_EQ(handshake(&b, &a), 0);
	keys_agree_check(&b, &a, &bad);
	CHECK(!bad);
	CHECK_EQ(data_roundtrip(&b, &a, 100, 7), 0);
	CHECK_EQ(data_roundtrip(&a, &b, 64, 1ULL << 40), 0);
	side_free(&a);
	side_free(&b);
}

TEST(handshake_with_psk)
{
	uint8_t psk[32], send_without[32];
	struct side a, b;
	int bad;

	memset(psk, 0x5a, sizeof(psk));
	CHECK_EQ(pair_init(&a, &b, NULL), 0);
	CHECK_EQ(handshake(&a, &b), 0);
	memcpy(send_without, a.keys.send, 32);
	side_free(&a);
	side_free(&b);

	CHECK_EQ(pair_init(&a, &b, psk), 0);
	CHECK_EQ(handshake(&a, &b), 0);
	keys_agree_check(&a, &b, &bad);
	CHECK(!bad);
	/* Same keys and randomness, only the PSK differs: other transport keys. */
	CHECK(memcmp(a.keys.send, send_without, 32));
	CHECK_EQ(data_roundtrip(&b, &a, 33, 2), 0);
	side_free(&a);
	side_free(&b);
}

/* The responder has a PSK the initiator lacks: the response does not authenticate. */
TEST(psk_mismatch_rejected)
{
	uint8_t psk[32];
	struct side a, b;

	memset(psk, 0x33, sizeof(psk));
	CHECK_EQ(pair_init(&a, &b, NULL), 0);
	memcpy(b.peer.psk, psk, 32);
	CHECK_EQ(handshake(&a, &b), 4);
	side_free(&a);
	side_free(&b);
}

/* Recomputes MAC1 after a change, as an attacker who knows the responder's public key can. */
static void remac(void *msg, size_t len, const struct wg_noise_local *to)
{
	struct wg_msg_macs *m = (struct wg_msg_macs *)((uint8_t *)msg + len - sizeof(*m));

	wg_mac(m->mac1, to->mac1_key, WG_HASH_LEN, msg, (size_t)(m->mac1 - (uint8_t *)msg));
}

TEST(bad_mac1_rejected_before_dh)
{
	struct wg_msg_initiation m;
	struct side a, b;
	uint64_t dh;

	CHECK_EQ(pair_init(&a, &b, NULL), 0);
	CHECK_EQ(initiation(&a, &m, 1, 0), 0);
	dh = b.local.dh_count;
	m.macs.mac1[3] ^= 1;
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &m, sizeof(m), lookup, &b, NULL),
		 WG_DROP_MAC1);
	m.macs.mac1[3] ^= 1;
	m.ephemeral[0] ^= 1; /* MAC1 covers the message */
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &m, sizeof(m), lookup, &b, NULL),
		 WG_DROP_MAC1);
	CHECK_EQ(b.local.dh_count, dh);
	CHECK_EQ(b.hs.state, WG_HS_NONE);
	m.ephemeral[0] ^= 1;
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &m, sizeof(m), lookup, &b, NULL), WG_OK);
	CHECK(b.local.dh_count > dh);
	side_free(&a);
	side_free(&b);
}

TEST(header_checks)
{
	uint8_t buf[200] = { 0 };
	struct wg_msg_initiation m;
	enum wg_message_type type;
	struct side a, b;
	uint64_t dh;

	CHECK_EQ(pair_init(&a, &b, NULL), 0);
	CHECK_EQ(initiation(&a, &m, 1, 0), 0);
	dh = b.local.dh_count;
	memcpy(buf, &m, sizeof(m));
	buf[1] = 1; /* reserved */
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, buf, sizeof(m), lookup, &b, NULL),
		 WG_DROP_RESERVED);
	buf[1] = 0;
	buf[3] = 0x80;
	remac(buf, sizeof(m), &b.local);
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, buf, sizeof(m), lookup, &b, NULL),
		 WG_DROP_RESERVED);
	buf[3] = 0;
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, buf, sizeof(m) - 1, lookup, &b, NULL),
		 WG_DROP_SIZE);
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, buf, sizeof(m) + 1, lookup, &b, NULL),
		 WG_DROP_SIZE);
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, buf, 3, lookup, &b, NULL), WG_DROP_SIZE);
	CHECK_EQ(b.local.dh_count, dh);
	buf[0] = 0;
	CHECK_EQ(wg_message_check(buf, 148, &type), WG_DROP_TYPE);
	buf[0] = 5;
	CHECK_EQ(wg_message_check(buf, 148, &type), WG_DROP_TYPE);
	buf[0] = WG_MSG_RESPONSE;
	CHECK_EQ(wg_message_check(buf, 92, &type), WG_OK);
	CHECK_EQ(type, WG_MSG_RESPONSE);
	CHECK_EQ(wg_message_check(buf, 148, &type), WG_DROP_SIZE);
	buf[0] = WG_MSG_COOKIE_REPLY;
	CHECK_EQ(wg_message_check(buf, 64, &type), WG_OK);
	CHECK_EQ(wg_message_check(buf, 65, &type), WG_DROP_SIZE);
	buf[0] = WG_MSG_DATA;
	CHECK_EQ(wg_message_check(buf, 31, &type), WG_DROP_SIZE);
	CHECK_EQ(wg_message_check(buf, 32, &type), WG_OK);
	CHECK_EQ(wg_message_check(buf, 200, &type), WG_OK);
	/* A response handed to the initiation consumer is not an initiation. */
	buf[0] = WG_MSG_RESPONSE;
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, buf, 92, lookup, &b, NULL), WG_DROP_TYPE);
	CHECK(strcmp(wg_drop_name(WG_DROP_RESERVED), "reserved bytes not zero") == 0);
	CHECK(strcmp(wg_drop_name(WG_DROP_COUNT), "unknown") == 0);
	side_free(&a);
	side_free(&b);
}

/* An initiator whose static key the responder does not know, and one aiming at another key. */
TEST(wrong_static_key)
{
	struct wg_msg_initiation m;
	struct side a, b, c, d;
	uint8_t priv[32];

	CHECK_EQ(pair_init(&a, &b, NULL), 0);
	/* c: an identity b does not know, configured with b as its peer; d: a third key. */
	memset(&c, 0, sizeof(c));
	memset(&d, 0, sizeof(d));
	c.rng.seed = 3;
	c.unix_sec = 1700000000;
	priv_of(priv, 3);
	CHECK_EQ(wg_noise_local_init(&c.local, priv), 0);
	priv_of(priv, 4);
	CHECK_EQ(wg_noise_local_init(&d.local, priv), 0);
	wg_noise_peer_init(&c.peer, b.local.key.pub, NULL);
	CHECK_EQ(initiation(&c, &m, 1, 0), 0);
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &m, sizeof(m), lookup, &b, NULL),
		 WG_DROP_UNKNOWN_PEER);
	CHECK_EQ(b.hs.state, WG_HS_NONE);
	/* a sending to d's key: b's MAC1 key differs. */
	wg_noise_peer_init(&a.peer, d.local.key.pub, NULL);
	CHECK_EQ(initiation(&a, &m, 1, 0), 0);
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &m, sizeof(m), lookup, &b, NULL),
		 WG_DROP_MAC1);
	/* ... and with MAC1 forged for b, the sealed static does not open. */
	remac(&m, sizeof(m), &b.local);
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &m, sizeof(m), lookup, &b, NULL),
		 WG_DROP_DECRYPT);
	side_free(&a);
	side_free(&b);
	side_free(&c);
	side_free(&d);
}

/* An all-zero ephemeral key gives an all-zero DH: refused. */
TEST(zero_ephemeral_refused)
{
	struct wg_msg_initiation m;
	struct side a, b;

	CHECK_EQ(pair_init(&a, &b, NULL), 0);
	CHECK_EQ(initiation(&a, &m, 1, 0), 0);
	memset(m.ephemeral, 0, sizeof(m.ephemeral));
	remac(&m, sizeof(m), &b.local);
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &m, sizeof(m), lookup, &b, NULL),
		 WG_DROP_KEY);
	side_free(&a);
	side_free(&b);
}

TEST(replayed_initiation_rejected)
{
	struct wg_msg_initiation first, second;
	struct side a, b;

	CHECK_EQ(pair_init(&a, &b, NULL), 0);
	CHECK_EQ(initiation(&a, &first, 1, 0), 0);
	CHECK_EQ(initiation(&a, &second, 2, 0), 0);
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &second, sizeof(second), lookup, &b, NULL),
		 WG_OK);
	/* The same again, and an older one: both not newer. */
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &second, sizeof(second), lookup, &b, NULL),
		 WG_DROP_TIMESTAMP);
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &first, sizeof(first), lookup, &b, NULL),
		 WG_DROP_TIMESTAMP);
	/* The rejected ones left the accepted handshake alone. */
	CHECK_EQ(b.hs.state, WG_HS_INITIATION_CONSUMED);
	CHECK_EQ(b.hs.remote_index, 2);
	/* An initiator whose clock went back still sends a greater stamp. */
	a.unix_sec = 5;
	CHECK_EQ(initiation(&a, &first, 3, 0), 0);
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &first, sizeof(first), lookup, &b, NULL),
		 WG_OK);
	side_free(&a);
	side_free(&b);
}

TEST(response_checks)
{
	struct wg_msg_initiation init;
	struct wg_msg_response resp, forged;
	struct side a, b;
	uint64_t dh;

	CHECK_EQ(pair_init(&a, &b, NULL), 0);
	CHECK_EQ(initiation(&a, &init, 7, 0), 0);
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &init, sizeof(init), lookup, &b, NULL),
		 WG_OK);
	CHECK_EQ(wg_response_create(&resp, &b.hs, &b.local, 9, test_rng, &b.rng, 0), 0);
	/* A second response from the same handshake is refused by the responder itself. */
	CHECK_EQ(wg_response_create(&forged, &b.hs, &b.local, 9, test_rng, &b.rng, 0), -EINVAL);

	dh = a.local.dh_count;
	forged = resp;
	forged.macs.mac1[0] ^= 1;
	CHECK_EQ(wg_response_consume(&a.hs, &a.local, &forged, sizeof(forged), NULL), WG_DROP_MAC1);
	CHECK_EQ(a.local.dh_count, dh);
	forged = resp;
	forged.receiver_le ^= 1;
	remac(&forged, sizeof(forged), &a.local);
	CHECK_EQ(wg_response_consume(&a.hs, &a.local, &forged, sizeof(forged), NULL),
		 WG_DROP_STATE);
	forged = resp;
	forged.encrypted_nothing[5] ^= 1;
	remac(&forged, sizeof(forged), &a.local);
	CHECK_EQ(wg_response_consume(&a.hs, &a.local, &forged, sizeof(forged), NULL),
		 WG_DROP_DECRYPT);
	CHECK_EQ(wg_response_consume(&a.hs, &a.local, &resp, sizeof(resp) - 1, NULL), WG_DROP_SIZE);
	/* The forgeries left the handshake as it was: the real response completes it. */
	CHECK_EQ(wg_transport_keys_derive(&a.keys, &a.hs), -EINVAL);
	CHECK_EQ(wg_response_consume(&a.hs, &a.local, &resp, sizeof(resp), NULL), WG_OK);
	CHECK_EQ(wg_response_consume(&a.hs, &a.local, &resp, sizeof(resp), NULL), WG_DROP_STATE);
	CHECK_EQ(side_keys(&a), 0);
	CHECK_EQ(side_keys(&b), 0);
	CHECK_EQ(data_roundtrip(&a, &b, 20, 0), 0);
	side_free(&a);
	side_free(&b);
}

/* Under load: no MAC2, a cookie reply, MAC2 from then on; expiry and the secret's renewal. */
TEST(cookie_under_load)
{
	const uint8_t src[] = { 192, 0, 2, 1, 0xca, 0x6c }; /* address then port */
	const uint8_t other_src[] = { 192, 0, 2, 2, 0xca, 0x6c };
	struct wg_cookie_checker checker = { 0 };
	struct wg_cookie_ctx ctx = { &checker, src, sizeof(src), 10 * NS, test_rng, NULL };
	struct wg_msg_initiation m;
	struct wg_msg_cookie_reply reply, forged;
	struct side a, b;
	uint64_t dh;

	CHECK_EQ(pair_init(&a, &b, NULL), 0);
	ctx.rng_ctx = &b.rng;
	CHECK_EQ(initiation(&a, &m, 0x1234, 10 * NS), 0);
	dh = b.local.dh_count;
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &m, sizeof(m), lookup, &b, &ctx),
		 WG_DROP_COOKIE_NEEDED);
	CHECK_EQ(b.local.dh_count, dh);
	CHECK_EQ(wg_cookie_reply_create(&reply, &b.local, &m, sizeof(m), &ctx), 0);
	CHECK_EQ(wg_message_receiver(&reply, WG_MSG_COOKIE_REPLY), 0x1234);

	forged = reply;
	forged.encrypted_cookie[0] ^= 1;
	CHECK_EQ(wg_cookie_reply_consume(&a.peer, &forged, sizeof(forged), 11 * NS),
		 WG_DROP_DECRYPT);
	CHECK(!a.peer.have_cookie);
	CHECK_EQ(wg_cookie_reply_consume(&a.peer, &reply, sizeof(reply), 11 * NS), WG_OK);
	CHECK(a.peer.have_cookie);
	/* The same reply again: it answered a MAC1 already answered. */
	CHECK_EQ(wg_cookie_reply_consume(&a.peer, &reply, sizeof(reply), 11 * NS), WG_DROP_STATE);

	/* With MAC2 the initiation passes under load, from that source only. */
	CHECK_EQ(initiation(&a, &m, 0x1235, 12 * NS), 0);
	ctx.now_ns = 12 * NS;
	ctx.src = other_src;
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &m, sizeof(m), lookup, &b, &ctx),
		 WG_DROP_COOKIE_NEEDED);
	ctx.src = src;
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &m, sizeof(m), lookup, &b, &ctx), WG_OK);

	/* The initiator stops using a cookie 115 s old. */
	CHECK_EQ(initiation(&a, &m, 0x1236, 127 * NS), 0);
	ctx.now_ns = 127 * NS;
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &m, sizeof(m), lookup, &b, &ctx),
		 WG_DROP_COOKIE_NEEDED);
	/* A cookie made from a secret renewed after 120 s does not match the old one. */
	CHECK_EQ(initiation(&a, &m, 0x1237, 100 * NS), 0); /* cookie still in use here */
	ctx.now_ns = 131 * NS;
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &m, sizeof(m), lookup, &b, &ctx),
		 WG_DROP_COOKIE_NEEDED);
	CHECK_EQ(checker.birth_ns, 131 * NS);
	/* Not under load, MAC2 is not looked at. */
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &m, sizeof(m), lookup, &b, NULL), WG_OK);
	/* No randomness for a new secret: refused, not answered with a stale cookie. */
	ctx.now_ns = 400 * NS;
	b.rng.fail = true;
	CHECK_EQ(initiation(&a, &m, 0x1238, 130 * NS), 0);
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &m, sizeof(m), lookup, &b, &ctx),
		 WG_DROP_INTERNAL);
	side_free(&a);
	side_free(&b);
}

/* A cookie reply to a response (the initiator under load) reaches the responder. */
TEST(cookie_reply_to_response)
{
	const uint8_t src[] = { 198, 51, 100, 7, 0x14, 0xe9 };
	struct wg_cookie_checker checker = { 0 };
	struct wg_cookie_ctx ctx = { &checker, src, sizeof(src), 0, test_rng, NULL };
	struct wg_msg_initiation init;
	struct wg_msg_response resp;
	struct wg_msg_cookie_reply reply;
	struct side a, b;

	CHECK_EQ(pair_init(&a, &b, NULL), 0);
	ctx.rng_ctx = &a.rng;
	CHECK_EQ(initiation(&a, &init, 1, 0), 0);
	CHECK_EQ(wg_initiation_consume(&b.hs, &b.local, &init, sizeof(init), lookup, &b, NULL),
		 WG_OK);
	CHECK_EQ(wg_response_create(&resp, &b.hs, &b.local, 2, test_rng, &b.rng, 0), 0);
	CHECK_EQ(wg_response_consume(&a.hs, &a.local, &resp, sizeof(resp), &ctx),
		 WG_DROP_COOKIE_NEEDED);
	CHECK_EQ(wg_cookie_reply_create(&reply, &a.local, &resp, sizeof(resp), &ctx), 0);
	CHECK_EQ(wg_message_receiver(&reply, WG_MSG_COOKIE_REPLY), 2);
	CHECK_EQ(wg_cookie_reply_consume(&b.peer, &reply, sizeof(reply), 0), WG_OK);
	side_free(&a);
	side_free(&b);
}

TEST(data_checks)
{
	uint8_t buf[1600], out[1600];
	struct side a, b;
	size_t out_len;
	int n;

	CHECK_EQ(pair_init(&a, &b, NULL), 0);
	CHECK_EQ(handshake(&a, &b), 0);
	/* In place: the packet already after the 16-byte header. */
	memset(buf + 16, 0xab, 1419);
	n = wg_data_seal(buf, sizeof(buf), buf + 16, 1419, 1420, a.keys.remote_index, &a.seal, 5);
	CHECK_EQ(n, 32 + 1420); /* padded to the MTU, not to 1424 */
	CHECK_EQ(wg_data_open(buf + 16, &out_len, buf, (size_t)n, &b.open), WG_OK);
	CHECK_EQ(out_len, 1420);
	CHECK_EQ(buf[16 + 1418], 0xab);
	CHECK_EQ(buf[16 + 1419], 0); /* padding is zeros */
	/* Larger than the MTU: sent unpadded (the caller decides about MTUs). */
	n = wg_data_seal(buf, sizeof(buf), out, 1430, 1420, a.keys.remote_index, &a.seal, 6);
	CHECK_EQ(n, 32 + 1430);
	CHECK_EQ(wg_data_seal(buf, 100, out, 69, 1420, a.keys.remote_index, &a.seal, 6), -EMSGSIZE);

	n = wg_data_seal(buf, sizeof(buf), out, 10, 1420, a.keys.remote_index, &a.seal, 8);
	CHECK_EQ(n, 48);
	buf[9] ^= 1; /* the counter: another nonce */
	CHECK_EQ(wg_data_open(out, &out_len, buf, (size_t)n, &b.open), WG_DROP_DECRYPT);
	buf[9] ^= 1;
	buf[40] ^= 1;
	CHECK_EQ(wg_data_open(out, &out_len, buf, (size_t)n, &b.open), WG_DROP_DECRYPT);
	buf[40] ^= 1;
	CHECK_EQ(wg_data_open(out, &out_len, buf, 31, &b.open), WG_DROP_SIZE);
	/* Our own direction's key does not open it. */
	CHECK_EQ(wg_data_open(out, &out_len, buf, (size_t)n, &a.open), WG_DROP_DECRYPT);
	CHECK_EQ(wg_data_open(out, &out_len, buf, (size_t)n, &b.open), WG_OK);
	side_free(&a);
	side_free(&b);
}

/*
 * A data message is its header, then the packet padded with zeros to 16 and sealed with
 * wg_aead_encrypt under the counter (the cipher test_wg_crypto checks against libsodium).
 */
TEST(data_bytes_are_the_aead)
{
	uint8_t msg[1600], want[1600], pkt[1500];
	struct side a, b;
	size_t out_len;
	int n;

	CHECK_EQ(pair_init(&a, &b, NULL), 0);
	CHECK_EQ(handshake(&a, &b), 0);
	for (uint64_t c = 0; c < 40; c++) {
		size_t len = (size_t)(c * 37 % 1421);
		size_t padded = (len + 15) / 16 * 16;

		if (padded > 1420) /* padded to the MTU at most */
			padded = 1420;
		memset(pkt, (int)c, len);
		n = wg_data_seal(msg, sizeof(msg), pkt, len, 1420, a.keys.remote_index, &a.seal, c);
		CHECK_EQ(n, (int)(32 + padded));
		memset(want, 0, sizeof(want));
		memcpy(want + 16, pkt, len);
		CHECK_EQ(wg_aead_encrypt(want + 16, want + 16, padded, NULL, 0, c, a.keys.send), 0);
		CHECK_MEM(msg + 16, want + 16, padded + 16);
		CHECK_EQ(wg_data_open(msg + 16, &out_len, msg, (size_t)n, &b.open), WG_OK);
		CHECK_EQ(out_len, padded);
		CHECK_MEM(msg + 16, pkt, len);
		want[20] ^= 1;
		memcpy(msg + 16, want + 16, padded + 16);
		CHECK_EQ(wg_data_open(pkt, &out_len, msg, (size_t)n, &b.open), WG_DROP_DECRYPT);
	}
	/* A keepalive: no payload at all (the device passes NULL). */
	CHECK_EQ(wg_data_seal(msg, sizeof(msg), NULL, 0, 1420, 1, &a.seal, 99), 32);
	CHECK_EQ(wg_data_open(pkt, &out_len, msg, 32, &b.open), WG_OK);
	CHECK_EQ(out_len, 0);
	/* A key of the wrong direction refuses to work. */
	CHECK_EQ(wg_data_seal(msg, sizeof(msg), pkt, 10, 1420, 1, &b.open, 0), -EIO);
	CHECK_EQ(wg_data_open(pkt, &out_len, msg, 32, &a.seal), WG_DROP_DECRYPT);
	side_free(&a);
	side_free(&b);
}

/*
 * wg_data_frame then wg_data_frame_seal (the device's batch: framed at once, sealed at the
 * flush) make the very bytes wg_data_seal makes; the frame alone is the plaintext.
 */
TEST(data_frame_then_seal)
{
	uint8_t one[1600], two[1600], pkt[1500];
	struct side a, b;
	size_t out_len;
	int n;

	CHECK_EQ(pair_init(&a, &b, NULL), 0);
	CHECK_EQ(handshake(&a, &b), 0);
	for (uint64_t c = 0; c < 30; c++) {
		size_t len = (size_t)(c * 53 % 1440);

		memset(pkt, (int)(c + 1), len);
		n = wg_data_seal(one, sizeof(one), pkt, len, 1420, a.keys.remote_index, &a.seal, c);
		CHECK(n > 0);
		CHECK_EQ(wg_data_frame(two, sizeof(two), pkt, len, 1420, a.keys.remote_index, c),
			 n);
		CHECK_MEM(two + 16, pkt, len);
		CHECK_EQ(wg_data_frame_seal(two, (size_t)n, &a.seal), 0);
		CHECK_MEM(one, two, (size_t)n);
		CHECK_EQ(wg_data_open(two + 16, &out_len, two, (size_t)n, &b.open), WG_OK);
	}
	CHECK_EQ(wg_data_frame(two, 100, pkt, 69, 1420, 1, 0), -EMSGSIZE);
	CHECK_EQ(wg_data_frame_seal(two, 31, &a.seal), -EIO);
	CHECK_EQ(wg_data_frame_seal(two, 48, &b.open), -EIO);
	side_free(&a);
	side_free(&b);
}

/* Randomness failing: the initiation is not made and nothing is left behind. */
TEST(rng_failure)
{
	struct wg_msg_initiation m;
	struct side a, b;

	CHECK_EQ(pair_init(&a, &b, NULL), 0);
	a.rng.fail = true;
	CHECK_EQ(initiation(&a, &m, 1, 0), -EIO);
	CHECK_EQ(a.hs.state, WG_HS_NONE);
	CHECK(a.hs.ephemeral.pkey == NULL);
	side_free(&a);
	side_free(&b);
}

int main(void)
{
	check_prefix = "wg_noise";
	RUN(handshake_both_directions);
	RUN(handshake_with_psk);
	RUN(psk_mismatch_rejected);
	RUN(bad_mac1_rejected_before_dh);
	RUN(header_checks);
	RUN(wrong_static_key);
	RUN(zero_ephemeral_refused);
	RUN(replayed_initiation_rejected);
	RUN(response_checks);
	RUN(cookie_under_load);
	RUN(cookie_reply_to_response);
	RUN(data_checks);
	RUN(data_bytes_are_the_aead);
	RUN(data_frame_then_seal);
	RUN(rng_failure);
	return check_summary();
}
