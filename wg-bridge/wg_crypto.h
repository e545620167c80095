/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The primitives WireGuard is built from. X25519 and ChaCha20-Poly1305 come from OpenSSL's
 * libcrypto (EVP); BLAKE2s, HMAC-BLAKE2s, WireGuard's KDF, HChaCha20 (for
 * XChaCha20-Poly1305) and TAI64N are small compositions kept here, because stock OpenWrt
 * builds OpenSSL without BLAKE2. Pure: no clock (times are passed in), no randomness (the
 * caller supplies private keys and nonces).
 */
#ifndef PXP_WG_CRYPTO_H
#define PXP_WG_CRYPTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WG_KEY_LEN	   32
#define WG_HASH_LEN	   32
#define WG_MAC_LEN	   16 /* BLAKE2s-128: MAC1, MAC2 and the cookie */
#define WG_AEAD_TAG_LEN	   16
#define WG_XNONCE_LEN	   24
#define WG_TAI64N_LEN	   12
#define WG_BLAKE2S_BLOCK   64
#define WG_BLAKE2S_MAX_OUT 32
#define WG_BLAKE2S_MAX_KEY 32

struct wg_blake2s {
	uint32_t h[8];
	uint32_t t[2];
	uint8_t buf[WG_BLAKE2S_BLOCK];
	size_t buflen;
	size_t outlen;
};

/* RFC 7693 BLAKE2s with an output of 1..32 bytes and a key of 0..32 bytes; -EINVAL else. */
int wg_blake2s_init(struct wg_blake2s *s, size_t outlen, const uint8_t *key, size_t keylen);
void wg_blake2s_update(struct wg_blake2s *s, const void *in, size_t len);
void wg_blake2s_final(struct wg_blake2s *s, uint8_t *out);
int wg_blake2s(uint8_t *out, size_t outlen, const void *in, size_t inlen, const uint8_t *key,
	       size_t keylen);

/* HASH(a || b), the Noise transcript step. */
void wg_hash2(uint8_t out[static WG_HASH_LEN], const void *a, size_t alen, const void *b,
	      size_t blen);
/* MAC(key, in): keyed BLAKE2s-128. */
void wg_mac(uint8_t out[static WG_MAC_LEN], const uint8_t *key, size_t keylen, const void *in,
	    size_t inlen);
/* HMAC (RFC 2104) over BLAKE2s-256, block 64. */
void wg_hmac_blake2s(uint8_t out[static WG_HASH_LEN], const uint8_t *key, size_t keylen,
		     const void *in, size_t inlen);
/*
 * WireGuard's KDF1/2/3 (HKDF with HMAC-BLAKE2s): tau0 = HMAC(ck, in), t1 = HMAC(tau0, 0x1),
 * t2 = HMAC(tau0, t1 || 0x2), t3 = HMAC(tau0, t2 || 0x3). Outputs not wanted are NULL (t2
 * NULL means KDF1, t3 NULL KDF2); any output may alias ck. WireGuard's ck is 32 bytes.
 */
void wg_kdf(uint8_t *t1, uint8_t *t2, uint8_t *t3, const uint8_t *ck, size_t cklen, const void *in,
	    size_t inlen);

/*
 * TAI64N of a Unix time: 8 bytes big-endian 2^62 + 10 + seconds, 4 bytes big-endian
 * nanoseconds. The nanoseconds are rounded down to 2^24 ns, as Linux and wireguard-go do, so
 * the value does not leak a fine clock.
 */
void wg_tai64n(uint8_t out[static WG_TAI64N_LEN], uint64_t unix_sec, uint32_t nsec);
/* memcmp-like order of two TAI64N stamps (both are big-endian). */
int wg_tai64n_cmp(const uint8_t a[static WG_TAI64N_LEN], const uint8_t b[static WG_TAI64N_LEN]);
/*
 * The stamp for the next initiation: that of the time given, or, when the clock has not passed
 * the last stamp sent (no RTC, a clock set back), the last plus one nanosecond, so a peer never
 * sees a stamp that is not greater. Keeping `last` across restarts is the caller's job.
 */
void wg_tai64n_next(uint8_t out[static WG_TAI64N_LEN], const uint8_t last[static WG_TAI64N_LEN],
		    uint64_t unix_sec, uint32_t nsec);

struct evp_pkey_st;

/* An X25519 private key kept as an OpenSSL EVP_PKEY, with its public half. */
struct wg_x25519_key {
	struct evp_pkey_st *pkey;
	uint8_t pub[WG_KEY_LEN];
};

/* Loads a private key (clamped by X25519 itself); 0 or -ENOMEM/-EINVAL. */
int wg_x25519_key_set(struct wg_x25519_key *k, const uint8_t priv[static WG_KEY_LEN]);
void wg_x25519_key_free(struct wg_x25519_key *k);
/* X25519(k, peer): 0, or -EINVAL for a bad point or an all-zero shared secret. */
int wg_x25519(uint8_t out[static WG_KEY_LEN], const struct wg_x25519_key *k,
	      const uint8_t peer_pub[static WG_KEY_LEN]);

/*
 * RFC 8439 ChaCha20-Poly1305. dst receives len bytes plus the 16-byte tag; dst may equal src
 * (in place). Decrypt takes len including the tag and returns -EBADMSG when it does not verify
 * (dst then holds nothing of use). 0 or -errno.
 */
int wg_aead_encrypt_nonce(uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad,
			  size_t adlen, const uint8_t nonce[static 12],
			  const uint8_t key[static WG_KEY_LEN]);
int wg_aead_decrypt_nonce(uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad,
			  size_t adlen, const uint8_t nonce[static 12],
			  const uint8_t key[static WG_KEY_LEN]);
/* WireGuard's nonce: 32 bits of zeros, then the 64-bit counter little-endian. */
int wg_aead_encrypt(uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad, size_t adlen,
		    uint64_t counter, const uint8_t key[static WG_KEY_LEN]);
int wg_aead_decrypt(uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad, size_t adlen,
		    uint64_t counter, const uint8_t key[static WG_KEY_LEN]);

struct evp_cipher_ctx_st;

/*
 * ChaCha20-Poly1305 under one key in one direction, its OpenSSL context set up once: a
 * session's data key (a context per packet costs an allocation and a key set-up). Not
 * thread-safe: one caller at a time per key.
 */
struct wg_aead_key {
	struct evp_cipher_ctx_st *ctx;
	bool enc;
};

/* 0, -ENOMEM or -EINVAL. */
int wg_aead_key_init(struct wg_aead_key *k, const uint8_t key[static WG_KEY_LEN], bool enc);
void wg_aead_key_free(struct wg_aead_key *k);
/* wg_aead_encrypt or wg_aead_decrypt (by the key's direction) without AD. */
int wg_aead_key_run(const struct wg_aead_key *k, uint8_t *dst, const uint8_t *src, size_t len,
		    uint64_t counter);

/* HChaCha20 (draft-irtf-cfrg-xchacha section 2.2): a subkey from a key and 16 nonce bytes. */
void wg_hchacha20(uint8_t out[static WG_KEY_LEN], const uint8_t key[static WG_KEY_LEN],
		  const uint8_t nonce[static 16]);
/* XChaCha20-Poly1305: HChaCha20 subkey, then ChaCha20-Poly1305 with 0^4 || nonce[16..24]. */
int wg_xaead_encrypt(uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad, size_t adlen,
		     const uint8_t nonce[static WG_XNONCE_LEN],
		     const uint8_t key[static WG_KEY_LEN]);
int wg_xaead_decrypt(uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *ad, size_t adlen,
		     const uint8_t nonce[static WG_XNONCE_LEN],
		     const uint8_t key[static WG_KEY_LEN]);

/* Constant-time comparison; true when equal. */
bool wg_equal(const void *a, const void *b, size_t len);

#endif
