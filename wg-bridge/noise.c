// SPDX-License-Identifier: GPL-2.0
/*
 * Noise_IKpsk2 as WireGuard uses it (see noise.h). The steps and their names follow the
 * whitepaper's section 5.4; a step that can fail works on copies of the transcript, so a
 * forged message leaves the handshake it aimed at as it was.
 */
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "noise.h"

static const char construction[] = "Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s";
static const char identifier[] = "WireGuard v1 zx2c4 Jason@zx2c4.com";
static const char label_mac1[] = "mac1----";
static const char label_cookie[] = "cookie--";

#define WG_DROP_NAME(name, text) [name] = text,
static const char *const drop_names[WG_DROP_COUNT] = { WG_DROP_REASONS(WG_DROP_NAME) };
#undef WG_DROP_NAME

const char *wg_drop_name(enum wg_drop reason)
{
	return (unsigned int)reason < WG_DROP_COUNT ? drop_names[reason] : "unknown";
}

/* HASH(label || public): the MAC1 and cookie keys of the holder of public. */
static void label_key(uint8_t out[WG_HASH_LEN], const char *label, const uint8_t *pub)
{
	wg_hash2(out, label, 8, pub, WG_KEY_LEN);
}

int wg_noise_local_init(struct wg_noise_local *l, const uint8_t priv[static WG_KEY_LEN])
{
	int err;

	memset(l, 0, sizeof(*l));
	err = wg_x25519_key_set(&l->key, priv);
	if (err)
		return err;
	label_key(l->mac1_key, label_mac1, l->key.pub);
	label_key(l->cookie_key, label_cookie, l->key.pub);
	return 0;
}

void wg_noise_local_free(struct wg_noise_local *l)
{
	wg_x25519_key_free(&l->key);
	explicit_bzero(l, sizeof(*l));
}

void wg_noise_peer_init(struct wg_noise_peer *p, const uint8_t pub[static WG_KEY_LEN],
			const uint8_t *psk)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->pub, pub, WG_KEY_LEN);
	if (psk)
		memcpy(p->psk, psk, WG_KEY_LEN);
	label_key(p->mac1_key, label_mac1, pub);
	label_key(p->cookie_key, label_cookie, pub);
}

void wg_handshake_clear(struct wg_handshake *hs)
{
	wg_x25519_key_free(&hs->ephemeral);
	explicit_bzero(hs, sizeof(*hs));
}

/* Every X25519 of the core, counted. */
static int dh(struct wg_noise_local *l, uint8_t out[WG_KEY_LEN], const struct wg_x25519_key *k,
	      const uint8_t pub[WG_KEY_LEN])
{
	l->dh_count++;
	return wg_x25519(out, k, pub);
}

/* The transcript so far of any handshake with the responder whose static key is pub. */
static void transcript_start(uint8_t ck[WG_HASH_LEN], uint8_t hash[WG_HASH_LEN],
			     const uint8_t responder_pub[WG_KEY_LEN])
{
	wg_blake2s(ck, WG_HASH_LEN, construction, sizeof(construction) - 1, NULL, 0);
	wg_hash2(hash, ck, WG_HASH_LEN, identifier, sizeof(identifier) - 1);
	wg_hash2(hash, hash, WG_HASH_LEN, responder_pub, WG_KEY_LEN);
}

static void mix_hash(uint8_t hash[WG_HASH_LEN], const void *in, size_t len)
{
	wg_hash2(hash, hash, WG_HASH_LEN, in, len);
}

/* ck = KDF1(ck, DH(k, pub)), or with key: (ck, key) = KDF2(ck, DH(k, pub)). */
static int mix_dh(struct wg_noise_local *l, uint8_t ck[WG_HASH_LEN], uint8_t *key,
		  const struct wg_x25519_key *k, const uint8_t pub[WG_KEY_LEN])
{
	uint8_t shared[WG_KEY_LEN];
	int err = dh(l, shared, k, pub);

	if (!err)
		wg_kdf(ck, key, NULL, ck, WG_HASH_LEN, shared, sizeof(shared));
	explicit_bzero(shared, sizeof(shared));
	return err;
}

/* ---- messages on the wire ---- */

static const size_t message_size[] = {
	[WG_MSG_INITIATION] = sizeof(struct wg_msg_initiation),
	[WG_MSG_RESPONSE] = sizeof(struct wg_msg_response),
	[WG_MSG_COOKIE_REPLY] = sizeof(struct wg_msg_cookie_reply),
	[WG_MSG_DATA] = WG_DATA_MIN_LEN,
};

enum wg_drop wg_message_check(const void *msg, size_t len, enum wg_message_type *type)
{
	const uint8_t *p = msg;

	if (len < sizeof(struct wg_msg_header))
		return WG_DROP_SIZE;
	if (p[0] < WG_MSG_INITIATION || p[0] > WG_MSG_DATA)
		return WG_DROP_TYPE;
	if (p[1] || p[2] || p[3])
		return WG_DROP_RESERVED;
	if (p[0] == WG_MSG_DATA ? len < message_size[p[0]] : len != message_size[p[0]])
		return WG_DROP_SIZE;
	*type = p[0];
	return WG_OK;
}

static uint32_t get_le32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

uint32_t wg_message_receiver(const void *msg, enum wg_message_type type)
{
	const uint8_t *p = msg;

	switch (type) {
	case WG_MSG_RESPONSE:
		return get_le32(p + offsetof(struct wg_msg_response, receiver_le));
	case WG_MSG_COOKIE_REPLY:
		return get_le32(p + offsetof(struct wg_msg_cookie_reply, receiver_le));
	case WG_MSG_DATA:
		return get_le32(p + offsetof(struct wg_msg_data, receiver_le));
	default:
		return 0;
	}
}

/* ---- MAC1, MAC2 and cookies ---- */

/* MAC1 and MAC2 of a handshake message of len bytes ending with struct wg_msg_macs. */
static void macs_add(uint8_t *msg, size_t len, struct wg_noise_peer *peer, uint64_t now_ns)
{
	struct wg_msg_macs *m = (struct wg_msg_macs *)(msg + len - sizeof(*m));
	const uint64_t cookie_life_ns =
		(uint64_t)(WG_COOKIE_SECRET_MAX_AGE_S - WG_COOKIE_SECRET_LATENCY_S) * 1000000000;

	wg_mac(m->mac1, peer->mac1_key, WG_HASH_LEN, msg, (size_t)(m->mac1 - msg));
	memcpy(peer->last_mac1, m->mac1, WG_MAC_LEN);
	peer->have_last_mac1 = true;
	if (peer->have_cookie && now_ns - peer->cookie_birth_ns < cookie_life_ns)
		wg_mac(m->mac2, peer->cookie, WG_MAC_LEN, msg, (size_t)(m->mac2 - msg));
	else
		memset(m->mac2, 0, WG_MAC_LEN);
}

/* The cookie for a source: MAC(secret, address), the secret renewed when 2 min old. */
static int cookie_make(uint8_t out[WG_MAC_LEN], const struct wg_cookie_ctx *c)
{
	struct wg_cookie_checker *k = c->checker;

	if (!k->have ||
	    c->now_ns - k->birth_ns >= (uint64_t)WG_COOKIE_SECRET_MAX_AGE_S * 1000000000) {
		if (c->rng(c->rng_ctx, k->secret, sizeof(k->secret)))
			return -EIO;
		k->birth_ns = c->now_ns;
		k->have = true;
	}
	wg_mac(out, k->secret, sizeof(k->secret), c->src, c->src_len);
	return 0;
}

/* MAC1 always; MAC2 when cookie asks for it. Before any DH. */
static enum wg_drop macs_check(const struct wg_noise_local *l, const uint8_t *msg, size_t len,
			       const struct wg_cookie_ctx *cookie)
{
	const struct wg_msg_macs *m = (const struct wg_msg_macs *)(msg + len - sizeof(*m));
	uint8_t want[WG_MAC_LEN];

	wg_mac(want, l->mac1_key, WG_HASH_LEN, msg, (size_t)(m->mac1 - msg));
	if (!wg_equal(want, m->mac1, WG_MAC_LEN))
		return WG_DROP_MAC1;
	if (!cookie)
		return WG_OK;
	if (cookie_make(want, cookie))
		return WG_DROP_INTERNAL;
	wg_mac(want, want, WG_MAC_LEN, msg, (size_t)(m->mac2 - msg));
	return wg_equal(want, m->mac2, WG_MAC_LEN) ? WG_OK : WG_DROP_COOKIE_NEEDED;
}

int wg_cookie_reply_create(struct wg_msg_cookie_reply *reply, struct wg_noise_local *l,
			   const void *msg, size_t len, const struct wg_cookie_ctx *cookie)
{
	const uint8_t *p = msg;
	const struct wg_msg_macs *m = (const struct wg_msg_macs *)(p + len - sizeof(*m));
	uint8_t value[WG_MAC_LEN];
	int err;

	if (len < sizeof(struct wg_msg_header) + 4 + sizeof(*m))
		return -EINVAL;
	memset(reply, 0, sizeof(*reply));
	reply->header.type_le = htole32(WG_MSG_COOKIE_REPLY);
	/* Initiation and response alike carry their sender index right after the type. */
	memcpy(&reply->receiver_le, p + sizeof(struct wg_msg_header), 4);
	err = cookie_make(value, cookie);
	if (!err && cookie->rng(cookie->rng_ctx, reply->nonce, sizeof(reply->nonce)))
		err = -EIO;
	if (!err)
		err = wg_xaead_encrypt(reply->encrypted_cookie, value, sizeof(value), m->mac1,
				       WG_MAC_LEN, reply->nonce, l->cookie_key);
	explicit_bzero(value, sizeof(value));
	return err;
}

enum wg_drop wg_cookie_reply_consume(struct wg_noise_peer *peer, const void *msg, size_t len,
				     uint64_t now_ns)
{
	const struct wg_msg_cookie_reply *r = msg;
	enum wg_message_type type;
	enum wg_drop drop = wg_message_check(msg, len, &type);
	uint8_t value[WG_MAC_LEN];

	if (drop)
		return drop;
	if (type != WG_MSG_COOKIE_REPLY)
		return WG_DROP_TYPE;
	if (!peer->have_last_mac1)
		return WG_DROP_STATE;
	if (wg_xaead_decrypt(value, r->encrypted_cookie, sizeof(r->encrypted_cookie),
			     peer->last_mac1, WG_MAC_LEN, r->nonce, peer->cookie_key))
		return WG_DROP_DECRYPT;
	memcpy(peer->cookie, value, WG_MAC_LEN);
	peer->have_cookie = true;
	peer->cookie_birth_ns = now_ns;
	/* One cookie reply per message sent: a second one for the same MAC1 is a replay. */
	peer->have_last_mac1 = false;
	explicit_bzero(value, sizeof(value));
	return WG_OK;
}

/* A fresh ephemeral key from the caller's randomness. */
static int ephemeral_new(struct wg_x25519_key *k, wg_rng_fn rng, void *rng_ctx)
{
	uint8_t priv[WG_KEY_LEN];
	int err = rng(rng_ctx, priv, sizeof(priv)) ? -EIO : wg_x25519_key_set(k, priv);

	explicit_bzero(priv, sizeof(priv));
	return err;
}

/* ---- the handshake ---- */

int wg_initiation_create(struct wg_msg_initiation *msg, struct wg_handshake *hs,
			 struct wg_noise_local *l, struct wg_noise_peer *peer,
			 const uint8_t tai64n[static WG_TAI64N_LEN], uint32_t sender_index,
			 wg_rng_fn rng, void *rng_ctx, uint64_t now_ns)
{
	uint8_t key[WG_KEY_LEN];
	int err;

	wg_handshake_clear(hs);
	memset(msg, 0, sizeof(*msg));
	msg->header.type_le = htole32(WG_MSG_INITIATION);
	msg->sender_le = htole32(sender_index);
	transcript_start(hs->chaining_key, hs->hash, peer->pub);

	err = ephemeral_new(&hs->ephemeral, rng, rng_ctx);
	if (err)
		goto clear;
	memcpy(msg->ephemeral, hs->ephemeral.pub, WG_KEY_LEN);
	wg_kdf(hs->chaining_key, NULL, NULL, hs->chaining_key, WG_HASH_LEN, msg->ephemeral,
	       WG_KEY_LEN);
	mix_hash(hs->hash, msg->ephemeral, WG_KEY_LEN);

	/* es: the initiator's static key, sealed. */
	err = mix_dh(l, hs->chaining_key, key, &hs->ephemeral, peer->pub);
	if (err)
		goto clear;
	err = wg_aead_encrypt(msg->encrypted_static, l->key.pub, WG_KEY_LEN, hs->hash, WG_HASH_LEN,
			      0, key);
	if (err)
		goto clear;
	mix_hash(hs->hash, msg->encrypted_static, sizeof(msg->encrypted_static));

	/* ss: the timestamp, sealed. */
	err = mix_dh(l, hs->chaining_key, key, &l->key, peer->pub);
	if (err)
		goto clear;
	err = wg_aead_encrypt(msg->encrypted_timestamp, tai64n, WG_TAI64N_LEN, hs->hash,
			      WG_HASH_LEN, 0, key);
	if (err)
		goto clear;
	mix_hash(hs->hash, msg->encrypted_timestamp, sizeof(msg->encrypted_timestamp));

	macs_add((uint8_t *)msg, sizeof(*msg), peer, now_ns);
	hs->peer = peer;
	hs->local_index = sender_index;
	hs->state = WG_HS_INITIATION_CREATED;
	explicit_bzero(key, sizeof(key));
	return 0;
clear:
	explicit_bzero(key, sizeof(key));
	wg_handshake_clear(hs);
	return err;
}

enum wg_drop wg_initiation_consume(struct wg_handshake *hs, struct wg_noise_local *l,
				   const void *msg, size_t len, wg_peer_lookup_fn lookup,
				   void *lookup_ctx, const struct wg_cookie_ctx *cookie)
{
	const struct wg_msg_initiation *m = msg;
	uint8_t ck[WG_HASH_LEN], hash[WG_HASH_LEN], key[WG_KEY_LEN];
	uint8_t s[WG_KEY_LEN], t[WG_TAI64N_LEN];
	struct wg_noise_peer *peer;
	enum wg_message_type type;
	enum wg_drop drop;

	drop = wg_message_check(msg, len, &type);
	if (drop)
		return drop;
	if (type != WG_MSG_INITIATION)
		return WG_DROP_TYPE;
	drop = macs_check(l, msg, len, cookie);
	if (drop)
		return drop;

	transcript_start(ck, hash, l->key.pub);
	wg_kdf(ck, NULL, NULL, ck, WG_HASH_LEN, m->ephemeral, WG_KEY_LEN);
	mix_hash(hash, m->ephemeral, WG_KEY_LEN);

	drop = WG_DROP_KEY;
	if (mix_dh(l, ck, key, &l->key, m->ephemeral))
		goto out;
	drop = WG_DROP_DECRYPT;
	if (wg_aead_decrypt(s, m->encrypted_static, sizeof(m->encrypted_static), hash, WG_HASH_LEN,
			    0, key))
		goto out;
	mix_hash(hash, m->encrypted_static, sizeof(m->encrypted_static));

	drop = WG_DROP_UNKNOWN_PEER;
	peer = lookup(lookup_ctx, s);
	if (!peer)
		goto out;
	drop = WG_DROP_KEY;
	if (mix_dh(l, ck, key, &l->key, peer->pub))
		goto out;
	drop = WG_DROP_DECRYPT;
	if (wg_aead_decrypt(t, m->encrypted_timestamp, sizeof(m->encrypted_timestamp), hash,
			    WG_HASH_LEN, 0, key))
		goto out;
	mix_hash(hash, m->encrypted_timestamp, sizeof(m->encrypted_timestamp));

	/* A replayed initiation carries an old stamp. */
	drop = WG_DROP_TIMESTAMP;
	if (wg_tai64n_cmp(t, peer->latest_timestamp) <= 0)
		goto out;
	memcpy(peer->latest_timestamp, t, WG_TAI64N_LEN);

	wg_handshake_clear(hs);
	hs->peer = peer;
	memcpy(hs->chaining_key, ck, WG_HASH_LEN);
	memcpy(hs->hash, hash, WG_HASH_LEN);
	memcpy(hs->remote_ephemeral, m->ephemeral, WG_KEY_LEN);
	hs->remote_index = le32toh(m->sender_le);
	hs->state = WG_HS_INITIATION_CONSUMED;
	drop = WG_OK;
out:
	explicit_bzero(ck, sizeof(ck));
	explicit_bzero(hash, sizeof(hash));
	explicit_bzero(key, sizeof(key));
	explicit_bzero(s, sizeof(s));
	return drop;
}

/* The response's part after "e": ee, se, psk and the empty payload's key (both sides). */
static int response_mix(struct wg_noise_local *l, uint8_t ck[WG_HASH_LEN],
			uint8_t hash[WG_HASH_LEN], uint8_t key[WG_KEY_LEN],
			const struct wg_x25519_key *k1, const uint8_t *pub1,
			const struct wg_x25519_key *k2, const uint8_t *pub2, const uint8_t *psk)
{
	uint8_t tau[WG_HASH_LEN];

	if (mix_dh(l, ck, NULL, k1, pub1) || mix_dh(l, ck, NULL, k2, pub2))
		return -EINVAL;
	wg_kdf(ck, tau, key, ck, WG_HASH_LEN, psk, WG_KEY_LEN);
	mix_hash(hash, tau, sizeof(tau));
	explicit_bzero(tau, sizeof(tau));
	return 0;
}

int wg_response_create(struct wg_msg_response *msg, struct wg_handshake *hs,
		       struct wg_noise_local *l, uint32_t sender_index, wg_rng_fn rng,
		       void *rng_ctx, uint64_t now_ns)
{
	struct wg_x25519_key e = { 0 };
	uint8_t key[WG_KEY_LEN];
	int err;

	if (hs->state != WG_HS_INITIATION_CONSUMED)
		return -EINVAL;
	memset(msg, 0, sizeof(*msg));
	msg->header.type_le = htole32(WG_MSG_RESPONSE);
	msg->sender_le = htole32(sender_index);
	msg->receiver_le = htole32(hs->remote_index);

	err = ephemeral_new(&e, rng, rng_ctx);
	if (err)
		goto clear;
	memcpy(msg->ephemeral, e.pub, WG_KEY_LEN);
	wg_kdf(hs->chaining_key, NULL, NULL, hs->chaining_key, WG_HASH_LEN, msg->ephemeral,
	       WG_KEY_LEN);
	mix_hash(hs->hash, msg->ephemeral, WG_KEY_LEN);
	/* ee with the initiator's ephemeral, se with its static key. */
	err = response_mix(l, hs->chaining_key, hs->hash, key, &e, hs->remote_ephemeral, &e,
			   hs->peer->pub, hs->peer->psk);
	if (err)
		goto clear;
	err = wg_aead_encrypt(msg->encrypted_nothing, NULL, 0, hs->hash, WG_HASH_LEN, 0, key);
	if (err)
		goto clear;
	mix_hash(hs->hash, msg->encrypted_nothing, sizeof(msg->encrypted_nothing));

	macs_add((uint8_t *)msg, sizeof(*msg), hs->peer, now_ns);
	hs->local_index = sender_index;
	hs->state = WG_HS_RESPONSE_CREATED;
	goto out;
clear:
	wg_handshake_clear(hs);
out:
	wg_x25519_key_free(&e);
	explicit_bzero(key, sizeof(key));
	return err;
}

enum wg_drop wg_response_consume(struct wg_handshake *hs, struct wg_noise_local *l, const void *msg,
				 size_t len, const struct wg_cookie_ctx *cookie)
{
	const struct wg_msg_response *m = msg;
	uint8_t ck[WG_HASH_LEN], hash[WG_HASH_LEN], key[WG_KEY_LEN];
	enum wg_message_type type;
	enum wg_drop drop;

	drop = wg_message_check(msg, len, &type);
	if (drop)
		return drop;
	if (type != WG_MSG_RESPONSE)
		return WG_DROP_TYPE;
	drop = macs_check(l, msg, len, cookie);
	if (drop)
		return drop;
	if (hs->state != WG_HS_INITIATION_CREATED || le32toh(m->receiver_le) != hs->local_index)
		return WG_DROP_STATE;

	memcpy(ck, hs->chaining_key, WG_HASH_LEN);
	memcpy(hash, hs->hash, WG_HASH_LEN);
	wg_kdf(ck, NULL, NULL, ck, WG_HASH_LEN, m->ephemeral, WG_KEY_LEN);
	mix_hash(hash, m->ephemeral, WG_KEY_LEN);
	/* ee with our ephemeral, se with our static key. */
	drop = WG_DROP_KEY;
	if (response_mix(l, ck, hash, key, &hs->ephemeral, m->ephemeral, &l->key, m->ephemeral,
			 hs->peer->psk))
		goto out;
	drop = WG_DROP_DECRYPT;
	if (wg_aead_decrypt(NULL, m->encrypted_nothing, sizeof(m->encrypted_nothing), hash,
			    WG_HASH_LEN, 0, key))
		goto out;
	mix_hash(hash, m->encrypted_nothing, sizeof(m->encrypted_nothing));

	memcpy(hs->chaining_key, ck, WG_HASH_LEN);
	memcpy(hs->hash, hash, WG_HASH_LEN);
	memcpy(hs->remote_ephemeral, m->ephemeral, WG_KEY_LEN);
	hs->remote_index = le32toh(m->sender_le);
	wg_x25519_key_free(&hs->ephemeral);
	hs->state = WG_HS_RESPONSE_CONSUMED;
	drop = WG_OK;
out:
	explicit_bzero(ck, sizeof(ck));
	explicit_bzero(hash, sizeof(hash));
	explicit_bzero(key, sizeof(key));
	return drop;
}

int wg_transport_keys_derive(struct wg_transport_keys *k, struct wg_handshake *hs)
{
	bool initiator = hs->state == WG_HS_RESPONSE_CONSUMED;

	if (!initiator && hs->state != WG_HS_RESPONSE_CREATED)
		return -EINVAL;
	if (initiator)
		wg_kdf(k->send, k->recv, NULL, hs->chaining_key, WG_HASH_LEN, NULL, 0);
	else
		wg_kdf(k->recv, k->send, NULL, hs->chaining_key, WG_HASH_LEN, NULL, 0);
	k->initiator = initiator;
	k->local_index = hs->local_index;
	k->remote_index = hs->remote_index;
	wg_handshake_clear(hs);
	return 0;
}

/* ---- data ---- */

int wg_data_frame(uint8_t *out, size_t cap, const uint8_t *payload, size_t len, size_t mtu,
		  uint32_t remote_index, uint64_t counter)
{
	struct wg_msg_data *d = (struct wg_msg_data *)out;
	size_t padded = (len + WG_DATA_PAD - 1) / WG_DATA_PAD * WG_DATA_PAD;

	if (padded > mtu)
		padded = len > mtu ? len : mtu;
	if (cap < sizeof(*d) + WG_AEAD_TAG_LEN || padded > cap - sizeof(*d) - WG_AEAD_TAG_LEN)
		return -EMSGSIZE;
	if (len && payload != d->encrypted) /* a keepalive may pass NULL */
		memmove(d->encrypted, payload, len);
	memset(d->encrypted + len, 0, padded - len);
	d->header.type_le = htole32(WG_MSG_DATA);
	d->receiver_le = htole32(remote_index);
	d->counter_le = htole64(counter);
	return (int)(sizeof(*d) + padded + WG_AEAD_TAG_LEN);
}

int wg_data_frame_seal(uint8_t *msg, size_t len, const struct wg_aead_key *key)
{
	struct wg_msg_data *d = (struct wg_msg_data *)msg;

	if (len < WG_DATA_MIN_LEN || !key->enc ||
	    wg_aead_key_run(key, d->encrypted, d->encrypted, len - WG_DATA_MIN_LEN,
			    le64toh(d->counter_le)))
		return -EIO;
	return 0;
}

int wg_data_seal(uint8_t *out, size_t cap, const uint8_t *payload, size_t len, size_t mtu,
		 uint32_t remote_index, const struct wg_aead_key *key, uint64_t counter)
{
	int n = wg_data_frame(out, cap, payload, len, mtu, remote_index, counter);

	if (n < 0)
		return n;
	return wg_data_frame_seal(out, (size_t)n, key) ?: n;
}

void wg_data_header(const void *msg, uint32_t *receiver, uint64_t *counter)
{
	const struct wg_msg_data *d = msg;

	*receiver = le32toh(d->receiver_le);
	*counter = le64toh(d->counter_le);
}

enum wg_drop wg_data_open(uint8_t *out, size_t *out_len, const void *msg, size_t len,
			  const struct wg_aead_key *key)
{
	const struct wg_msg_data *d = msg;
	size_t n;

	if (len < WG_DATA_MIN_LEN)
		return WG_DROP_SIZE;
	n = len - sizeof(*d);
	if (key->enc || wg_aead_key_run(key, out, d->encrypted, n, le64toh(d->counter_le)))
		return WG_DROP_DECRYPT;
	*out_len = n - WG_AEAD_TAG_LEN;
	return WG_OK;
}
