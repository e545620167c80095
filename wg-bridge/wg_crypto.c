// SPDX-License-Identifier: GPL-2.0
/*
 * WireGuard's primitives (see wg_crypto.h). BLAKE2s follows RFC 7693 section 3; HChaCha20
 * follows draft-irtf-cfrg-xchacha-03 section 2.2. Each is checked in make check against the
 * published vectors and against libb2 / libsodium (tests/unit/test_wg_crypto.c).
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include <openssl/evp.h>

#include "wg_crypto.h"

static inline uint32_t rotr32(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

static inline uint32_t rotl32(uint32_t x, unsigned int n)
{
	return (x << n) | (x >> (32 - n));
}

static inline uint32_t load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void store_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* ---- BLAKE2s (RFC 7693) ---- */

static const uint32_t blake2s_iv[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static const uint8_t blake2s_sigma[10][16] = {
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	{ 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
	{ 11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4 },
	{ 7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8 },
	{ 9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13 },
	{ 2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9 },
	{ 12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11 },
	{ 13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10 },
	{ 6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5 },
	{ 10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0 },
};

#define B2S_G(a, b, c, d, x, y)                 \
	do {                                    \
		v[a] = v[a] + v[b] + (x);       \
		v[d] = rotr32(v[d] ^ v[a], 16); \
		v[c] = v[c] + v[d];             \
		v[b] = rotr32(v[b] ^ v[c], 12); \
		v[a] = v[a] + v[b] + (y);       \
		v[d] = rotr32(v[d] ^ v[a], 8);  \
		v[c] = v[c] + v[d];             \
		v[b] = rotr32(v[b] ^ v[c], 7);  \
	} while (0)

static void blake2s_compress(struct wg_blake2s *s, const uint8_t block[WG_BLAKE2S_BLOCK], bool last)
{
	uint32_t m[16], v[16];
	int i;

	for (i = 0; i < 16; i++)
		m[i] = load_le32(block + 4 * i);
	for (i = 0; i < 8; i++) {
		v[i] = s->h[i];
		v[i + 8] = blake2s_iv[i];
	}
	v[12] ^= s->t[0];
	v[13] ^= s->t[1];
	if (last)
		v[14] = ~v[14];
	for (i = 0; i < 10; i++) {
		const uint8_t *z = blake2s_sigma[i];

		B2S_G(0, 4, 8, 12, m[z[0]], m[z[1]]);
		B2S_G(1, 5, 9, 13, m[z[2]], m[z[3]]);
		B2S_G(2, 6, 10, 14, m[z[4]], m[z[5]]);
		B2S_G(3, 7, 11, 15, m[z[6]], m[z[7]]);
		B2S_G(0, 5, 10, 15, m[z[8]], m[z[9]]);
		B2S_G(1, 6, 11, 12, m[z[10]], m[z[11]]);
		B2S_G(2, 7, 8, 13, m[z[12]], m[z[13]]);
		B2S_G(3, 4, 9, 14, m[z[14]], m[z[15]]);
	}
	for (i = 0; i < 8; i++)
		s->h[i] ^= v[i] ^ v[i + 8];
	explicit_bzero(m, sizeof(m));
	explicit_bzero(v, sizeof(v));
}

static void blake2s_count(struct wg_blake2s *s, uint32_t n)
{
	s->t[0] += n;
	if (s->t[0] < n)
		s->t[1]++;
}

int wg_blake2s_init(struct wg_blake2s *s, size_t outlen, const uint8_t *key, size_t keylen)
{
	if (outlen < 1 || outlen > WG_BLAKE2S_MAX_OUT || keylen > WG_BLAKE2S_MAX_KEY ||
	    (keylen && !key))
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	memcpy(s->h, blake2s_iv, sizeof(s->h));
	s->h[0] ^= 0x01010000 ^ (uint32_t)(keylen << 8) ^ (uint32_t)outlen;
	s->outlen = outlen;
	if (keylen) {
		/* The key, zero-padded, is the first block. */
		memcpy(s->buf, key, keylen);
		s->buflen = WG_BLAKE2S_BLOCK;
	}
	return 0;
}

void wg_blake2s_update(struct wg_blake2s *s, const void *in, size_t len)
{
	const uint8_t *p = in;

	while (len) {
		size_t take;

		/* The last block is compressed by final (with its flag), so a full buffer
		 * waits until more input shows it is not the last. */
		if (s->buflen == WG_BLAKE2S_BLOCK) {
			blake2s_count(s, WG_BLAKE2S_BLOCK);
			blake2s_compress(s, s->buf, false);
			s->buflen = 0;
		}
		take = WG_BLAKE2S_BLOCK - s->buflen;
		if (take > len)
			take = len;
		memcpy(s->buf + s->buflen, p, take);
		s->buflen += take;
		p += take;
		len -= take;
	}
}

void wg_blake2s_final(struct wg_blake2s *s, uint8_t *out)
{
	uint8_t full[WG_BLAKE2S_MAX_OUT];
	int i;

	blake2s_count(s, (uint32_t)s->buflen);
	memset(s->buf + s->buflen, 0, WG_BLAKE2S_BLOCK - s->buflen);
	blake2s_compress(s, s->buf, true);
	for (i = 0; i < 8; i++)
		store_le32(full + 4 * i, s->h[i]);
	memcpy(out, full, s->outlen);
	explicit_bzero(full, sizeof(full));
	explicit_bzero(s, sizeof(*s));
}

int wg_blake2s(uint8_t *out, size_t outlen, const void *in, size_t inlen, const uint8_t *key,
	       size_t keylen)
{
	struct wg_blake2s s;
	int err = wg_blake2s_init(&s, outlen, key, keylen);

	if (err)
		return err;
	wg_blake2s_update(&s, in, inlen);
	wg_blake2s_final(&s, out);
	return 0;
}

void wg_hash2(uint8_t out[static WG_HASH_LEN], const void *a, size_t alen, const void *b,
	      size_t blen)
{
	struct wg_blake2s s;

	wg_blake2s_init(&s, WG_HASH_LEN, NULL, 0);
	wg_blake2s_update(&s, a, alen);
	wg_blake2s_update(&s, b, blen);
	wg_blake2s_final(&s, out);
}

void wg_mac(uint8_t out[static WG_MAC_LEN], const uint8_t *key, size_t keylen, const void *in,
	    size_t inlen)
{
	wg_blake2s(out, WG_MAC_LEN, in, inlen, key, keylen);
}

void wg_hmac_blake2s(uint8_t out[static WG_HASH_LEN], const uint8_t *key, size_t keylen,
		     const void *in, size_t inlen)
{
	uint8_t k[WG_BLAKE2S_BLOCK] = { 0 }, inner[WG_HASH_LEN];
	struct wg_blake2s s;
	int i;

	if (keylen > WG_BLAKE2S_BLOCK)
		wg_blake2s(k, WG_HASH_LEN, key, keylen, NULL, 0);
	else
		memcpy(k, key, keylen);
	for (i = 0; i < WG_BLAKE2S_BLOCK; i++)
		k[i] ^= 0x36;
	wg_blake2s_init(&s, WG_HASH_LEN, NULL, 0);
	wg_blake2s_update(&s, k, sizeof(k));
	wg_blake2s_update(&s, in, inlen);
	wg_blake2s_final(&s, inner);
	for (i = 0; i < WG_BLAKE2S_BLOCK; i++)
		k[i] ^= 0x36 ^ 0x5c;
	wg_blake2s_init(&s, WG_HASH_LEN, NULL, 0);
	wg_blake2s_update(&s, k, sizeof(k));
	wg_blake2s_update(&s, inner, sizeof(inner));
	wg_blake2s_final(&s, out);
	explicit_bzero(k, sizeof(k));
	explicit_bzero(inner, sizeof(inner));
}

void wg_kdf(uint8_t *t1, uint8_t *t2, uint8_t *t3, const uint8_t *ck, size_t cklen, const void *in,
	    size_t inlen)
{
	uint8_t prk[WG_HASH_LEN], t[WG_HASH_LEN + 1], next[WG_HASH_LEN];
	uint8_t *outs[3] = { t1, t2, t3 };
	int i;

	/* ck is read before any output is written, so an output may alias it. */
	wg_hmac_blake2s(prk, ck, cklen, in, inlen);
	t[0] = 1;
	wg_hmac_blake2s(next, prk, sizeof(prk), t, 1);
	for (i = 0; i < 3 && outs[i]; i++) {
		memcpy(t, next, WG_HASH_LEN);
		memcpy(outs[i], t, WG_HASH_LEN);
		if (i < 2 && outs[i + 1]) {
			t[WG_HASH_LEN] = (uint8_t)(i + 2);
			wg_hmac_blake2s(next, prk, sizeof(prk), t, sizeof(t));
		}
	}
	explicit_bzero(prk, sizeof(prk));
	explicit_bzero(t, sizeof(t));
	explicit_bzero(next, sizeof(next));
}

/* ---- TAI64N ---- */

#define TAI64_EPOCH	   0x400000000000000aULL
/* Linux's and wireguard-go's whitening: nanoseconds rounded down to 2^24 ns (~16.8 ms). */
#define TAI64N_WHITEN_MASK (~(uint32_t)0xffffff)

void wg_tai64n(uint8_t out[static WG_TAI64N_LEN], uint64_t unix_sec, uint32_t nsec)
{
	uint64_t s = TAI64_EPOCH + unix_sec;

	store_be32(out, (uint32_t)(s >> 32));
	store_be32(out + 4, (uint32_t)s);
	store_be32(out + 8, nsec & TAI64N_WHITEN_MASK);
}

int wg_tai64n_cmp(const uint8_t a[static WG_TAI64N_LEN], const uint8_t b[static WG_TAI64N_LEN])
{
	return memcmp(a, b, WG_TAI64N_LEN);
}

void wg_tai64n_next(uint8_t out[static WG_TAI64N_LEN], const uint8_t last[static WG_TAI64N_LEN],
		    uint64_t unix_sec, uint32_t nsec)
{
	uint8_t now[WG_TAI64N_LEN];
	int i;

	wg_tai64n(now, unix_sec, nsec);
	if (wg_tai64n_cmp(now, last) > 0) {
		memcpy(out, now, WG_TAI64N_LEN);
		return;
	}
	/* last + 1 ns, carrying into the seconds past 999999999 ns. */
	memcpy(out, last, WG_TAI64N_LEN);
	if ((uint32_t)(out[8] << 24 | out[9] << 16 | out[10] << 8 | out[11]) >= 999999999) {
		store_be32(out + 8, 0);
		for (i = 7; i >= 0 && ++out[i] == 0; i--)
			;
		return;
	}
	for (i = 11; i >= 8 && ++out[i] == 0; i--)
		;
}

/* ---- X25519 (OpenSSL) ---- */

int wg_x25519_key_set(struct wg_x25519_key *k, const uint8_t priv[static WG_KEY_LEN])
{
	size_t len = WG_KEY_LEN;

	k->pkey = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, priv, WG_KEY_LEN);
	if (!k->pkey)
		return -ENOMEM;
	if (EVP_PKEY_get_raw_public_key(k->pkey, k->pub, &len) != 1 || len != WG_KEY_LEN) {
		wg_x25519_key_free(k);
		return -EINVAL;
	}
	return 0;
}

void wg_x25519_key_free(struct wg_x25519_key *k)
{
	EVP_PKEY_free(k->pkey);
	k->pkey = NULL;
}

int wg_x25519(uint8_t out[static WG_KEY_LEN], const struct wg_x25519_key *k,
	      const uint8_t peer_pub[static WG_KEY_LEN])
{
	static const uint8_t zero[WG_KEY_LEN];
	EVP_PKEY *peer;
	EVP_PKEY_CTX *ctx = NULL;
	size_t len = WG_KEY_LEN;
	int err = -EINVAL;

	peer = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, peer_pub, WG_KEY_LEN);
	if (!peer)
		return -EINVAL;
	ctx = EVP_PKEY_CTX_new(k->pkey, NULL);
	if (!ctx) {
		err = -ENOMEM;
		goto free_peer;
	}
	if (EVP_PKEY_derive_init(ctx) != 1 || EVP_PKEY_derive_set_peer(ctx, peer) != 1 ||
	    EVP_PKEY_derive(ctx, out, &len) != 1 || len != WG_KEY_LEN)
		goto zero_out;
	/* A low-order point gives all zeros (OpenSSL refuses it too; say so here). */
	if (wg_equal(out, zero, WG_KEY_LEN))
		goto zero_out;
	err = 0;
	goto free_ctx;
zero_out:
	explicit_bzero(out, WG_KEY_LEN);
free_ctx:
	EVP_PKEY_CTX_free(ctx);
free_peer:
	EVP_PKEY_free(peer);
	return err;
}

/* ---- ChaCha20-Poly1305 (OpenSSL) ---- */

/*
 * One seal or open on ctx, which holds the cipher and the key already (key NULL) or gets
 * both here; the nonce is always set, which also resets Poly1305 for a reused context.
 */
static int aead_run(EVP_CIPHER_CTX *ctx, bool enc, uint8_t *dst, const uint8_t *src, size_t len,
		    const uint8_t *ad, size_t adlen, const uint8_t nonce[static 12],
		    const uint8_t *key)
{
	uint8_t tag[WG_AEAD_TAG_LEN], rest[WG_AEAD_TAG_LEN];
	int outl;

	if (!enc) {
		if (len < WG_AEAD_TAG_LEN)
			return -EBADMSG;
		len -= WG_AEAD_TAG_LEN;
		memcpy(tag, src + len, WG_AEAD_TAG_LEN);
	}
	if (len > INT_MAX || adlen > INT_MAX)
		return -EMSGSIZE;
	if (EVP_CipherInit_ex(ctx, key ? EVP_chacha20_poly1305() : NULL, NULL, key, nonce, enc) !=
	    1)
		return -EINVAL;
	if (adlen && EVP_CipherUpdate(ctx, NULL, &outl, ad, (int)adlen) != 1)
		return -EINVAL;
	if (len && EVP_CipherUpdate(ctx, dst, &outl, src, (int)len) != 1)
		return -EINVAL;
	if (enc) {
		/* A stream cipher's final writes nothing; rest keeps a NULL dst (no plaintext)
		 * out of it. */
		if (EVP_CipherFinal_ex(ctx, rest, &outl) != 1 ||
		    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, WG_AEAD_TAG_LEN, dst + len) !=
			    1)
			return -EINVAL;
	} else if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, WG_AEAD_TAG_LEN, tag) != 1 ||
		   EVP_CipherFinal_ex(ctx, rest, &outl) != 1) {
		if (len)
			explicit_bzero(dst, len);
		return -EBADMSG;
	}
	return 0;
}

static int aead(bool enc, uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad,
		size_t adlen, const uint8_t nonce[static 12], const uint8_t key[static WG_KEY_LEN])
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int err;

	if (!ctx)
		return -ENOMEM;
	err = aead_run(ctx, enc, dst, src, len, ad, adlen, nonce, key);
	EVP_CIPHER_CTX_free(ctx);
	return err;
}

int wg_aead_encrypt_nonce(uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad,
			  size_t adlen, const uint8_t nonce[static 12],
			  const uint8_t key[static WG_KEY_LEN])
{
	return aead(true, dst, src, len, ad, adlen, nonce, key);
}

int wg_aead_decrypt_nonce(uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad,
			  size_t adlen, const uint8_t nonce[static 12],
			  const uint8_t key[static WG_KEY_LEN])
{
	return aead(false, dst, src, len, ad, adlen, nonce, key);
}

static void counter_nonce(uint8_t nonce[12], uint64_t counter)
{
	memset(nonce, 0, 4);
	store_le32(nonce + 4, (uint32_t)counter);
	store_le32(nonce + 8, (uint32_t)(counter >> 32));
}

int wg_aead_encrypt(uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad, size_t adlen,
		    uint64_t counter, const uint8_t key[static WG_KEY_LEN])
{
	uint8_t nonce[12];

	counter_nonce(nonce, counter);
	return aead(true, dst, src, len, ad, adlen, nonce, key);
}

int wg_aead_decrypt(uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad, size_t adlen,
		    uint64_t counter, const uint8_t key[static WG_KEY_LEN])
{
	uint8_t nonce[12];

	counter_nonce(nonce, counter);
	return aead(false, dst, src, len, ad, adlen, nonce, key);
}

int wg_aead_key_init(struct wg_aead_key *k, const uint8_t key[static WG_KEY_LEN], bool enc)
{
	static const uint8_t zero_nonce[12];

	k->enc = enc;
	k->ctx = EVP_CIPHER_CTX_new();
	if (!k->ctx)
		return -ENOMEM;
	if (EVP_CipherInit_ex(k->ctx, EVP_chacha20_poly1305(), NULL, key, zero_nonce, enc) != 1) {
		wg_aead_key_free(k);
		return -EINVAL;
	}
	return 0;
}

void wg_aead_key_free(struct wg_aead_key *k)
{
	EVP_CIPHER_CTX_free(k->ctx); /* cleans the key schedule too */
	k->ctx = NULL;
}

int wg_aead_key_run(const struct wg_aead_key *k, uint8_t *dst, const uint8_t *src, size_t len,
		    uint64_t counter)
{
	uint8_t nonce[12];

	counter_nonce(nonce, counter);
	return aead_run(k->ctx, k->enc, dst, src, len, NULL, 0, nonce, NULL);
}

/* ---- HChaCha20 and XChaCha20-Poly1305 ---- */

#define QR(a, b, c, d)                 \
	do {                           \
		a += b;                \
		d = rotl32(d ^ a, 16); \
		c += d;                \
		b = rotl32(b ^ c, 12); \
		a += b;                \
		d = rotl32(d ^ a, 8);  \
		c += d;                \
		b = rotl32(b ^ c, 7);  \
	} while (0)

void wg_hchacha20(uint8_t out[static WG_KEY_LEN], const uint8_t key[static WG_KEY_LEN],
		  const uint8_t nonce[static 16])
{
	uint32_t x[16] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };
	int i;

	for (i = 0; i < 8; i++)
		x[4 + i] = load_le32(key + 4 * i);
	for (i = 0; i < 4; i++)
		x[12 + i] = load_le32(nonce + 4 * i);
	for (i = 0; i < 10; i++) {
		QR(x[0], x[4], x[8], x[12]);
		QR(x[1], x[5], x[9], x[13]);
		QR(x[2], x[6], x[10], x[14]);
		QR(x[3], x[7], x[11], x[15]);
		QR(x[0], x[5], x[10], x[15]);
		QR(x[1], x[6], x[11], x[12]);
		QR(x[2], x[7], x[8], x[13]);
		QR(x[3], x[4], x[9], x[14]);
	}
	/* No feed-forward: the first and last rows are the subkey. */
	for (i = 0; i < 4; i++) {
		store_le32(out + 4 * i, x[i]);
		store_le32(out + 16 + 4 * i, x[12 + i]);
	}
	explicit_bzero(x, sizeof(x));
}

static int xaead(bool enc, uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad,
		 size_t adlen, const uint8_t nonce[static WG_XNONCE_LEN],
		 const uint8_t key[static WG_KEY_LEN])
{
	uint8_t subkey[WG_KEY_LEN], n12[12] = { 0 };
	int err;

	wg_hchacha20(subkey, key, nonce);
	memcpy(n12 + 4, nonce + 16, 8);
	err = aead(enc, dst, src, len, ad, adlen, n12, subkey);
	explicit_bzero(subkey, sizeof(subkey));
	return err;
}

int wg_xaead_encrypt(uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad, size_t adlen,
		     const uint8_t nonce[static WG_XNONCE_LEN],
		     const uint8_t key[static WG_KEY_LEN])
{
	return xaead(true, dst, src, len, ad, adlen, nonce, key);
}

int wg_xaead_decrypt(uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad, size_t adlen,
		     const uint8_t nonce[static WG_XNONCE_LEN],
		     const uint8_t key[static WG_KEY_LEN])
{
	return xaead(false, dst, src, len, ad, adlen, nonce, key);
}

bool wg_equal(const void *a, const void *b, size_t len)
{
	const volatile uint8_t *x = a, *y = b;
	uint8_t d = 0;
	size_t i;

	for (i = 0; i < len; i++)
		d |= x[i] ^ y[i];
	return d == 0;
}
