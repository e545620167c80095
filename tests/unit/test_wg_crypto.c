// SPDX-License-Identifier: GPL-2.0
/*
 * WireGuard's primitives (wg-bridge/wg_crypto.c) against the published vectors (RFC 7693,
 * the BLAKE2 reference KAT, wireguard-go's KDF cases, RFC 7748, RFC 8439,
 * draft-irtf-cfrg-xchacha) and against a second library on pseudo-random inputs: libb2 for
 * BLAKE2s, libsodium for X25519, ChaCha20-Poly1305, HChaCha20 and XChaCha20-Poly1305.
 */
#include <blake2.h>
#include <errno.h>
#include <sodium.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "wg_crypto.h"

/* Hex to bytes; the vector tables are written as the sources print them. */
static size_t unhex(uint8_t *out, size_t cap, const char *hex)
{
	size_t n = 0;

	for (; hex[0] && hex[1] && n < cap; hex += 2) {
		unsigned int b;

		if (sscanf(hex, "%2x", &b) != 1)
			abort();
		out[n++] = (uint8_t)b;
	}
	return n;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static void fill_random(uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		rng_state ^= rng_state << 13;
		rng_state ^= rng_state >> 7;
		rng_state ^= rng_state << 17;
		p[i] = (uint8_t)(rng_state >> 24);
	}
}

static uint32_t random_below(uint32_t n)
{
	uint8_t b[4];

	fill_random(b, sizeof(b));
	return (uint32_t)(b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24) % n;
}

static const char sunscreen[] = "Ladies and Gentlemen of the class of '99: If I could offer you "
				"only one tip for the future, sunscreen would be it.";

/* RFC 7693 Appendix B: BLAKE2s-256("abc"). */
TEST(blake2s_rfc7693_abc)
{
	uint8_t out[32], want[32];

	unhex(want, sizeof(want),
	      "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982");
	CHECK_EQ(wg_blake2s(out, 32, "abc", 3, NULL, 0), 0);
	CHECK_MEM(out, want, 32);
}

static void selftest_seq(uint8_t *out, size_t len, uint32_t seed)
{
	uint32_t t, a = 0xdead4bad * seed, b = 1;
	size_t i;

	for (i = 0; i < len; i++) {
		t = a + b;
		a = b;
		b = t;
		out[i] = (uint8_t)(t >> 24);
	}
}

/* RFC 7693 Appendix E: the hash of 48 keyed and unkeyed hashes of outputs 16..32 bytes. */
TEST(blake2s_rfc7693_selftest)
{
	static const size_t md_len[4] = { 16, 20, 28, 32 }, in_len[6] = { 0, 3, 64, 65, 255, 1024 };
	uint8_t in[1024], md[32], key[32], out[32], want[32];
	struct wg_blake2s ctx;
	size_t i, j;

	unhex(want, sizeof(want),
	      "6a411f08ce25adcdfb02aba641451cec53c598b24f4fc787fbdc88797f4c1dfe");
	CHECK_EQ(wg_blake2s_init(&ctx, 32, NULL, 0), 0);
	for (i = 0; i < 4; i++) {
		for (j = 0; j < 6; j++) {
			selftest_seq(in, in_len[j], (uint32_t)in_len[j]);
			wg_blake2s(md, md_len[i], in, in_len[j], NULL, 0);
			wg_blake2s_update(&ctx, md, md_len[i]);
			selftest_seq(key, md_len[i], (uint32_t)md_len[i]);
			wg_blake2s(md, md_len[i], in, in_len[j], key, md_len[i]);
			wg_blake2s_update(&ctx, md, md_len[i]);
		}
	}
	wg_blake2s_final(&ctx, out);
	CHECK_MEM(out, want, 32);
}

/* The reference blake2s-kat.txt: key 00..1f, input 00..(n-1). */
TEST(blake2s_keyed_kat)
{
	static const struct {
		size_t n;
		const char *hash;
	} kat[] = {
		{ 0, "48a8997da407876b3d79c0d92325ad3b89cbb754d86ab71aee047ad345fd2c49" },
		{ 1, "40d15fee7c328830166ac3f918650f807e7e01e177258cdc0a39b11f598066f1" },
		{ 2, "6bb71300644cd3991b26ccd4d274acd1adeab8b1d7914546c1198bbe9fc9d803" },
		{ 63, "c65382513f07460da39833cb666c5ed82e61b9e998f4b0c4287cee56c3cc9bcd" },
		{ 64, "8975b0577fd35566d750b362b0897a26c399136df07bababbde6203ff2954ed4" },
		{ 65, "21fe0ceb0052be7fb0f004187cacd7de67fa6eb0938d927677f2398c132317a8" },
		{ 191, "91a25ec0ec0d9a567f89c4bfe1a65a0e432d07064b4190e27dfb81901fd3139b" },
	};
	uint8_t key[32], in[256], out[32], want[32];
	size_t i;

	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)i;
	memcpy(key, in, sizeof(key));
	for (i = 0; i < sizeof(kat) / sizeof(kat[0]); i++) {
		unhex(want, sizeof(want), kat[i].hash);
		CHECK_EQ(wg_blake2s(out, 32, in, kat[i].n, key, 32), 0);
		CHECK_MEM(out, want, 32);
	}
}

/* Out-of-range sizes are refused, not truncated. */
TEST(blake2s_bad_sizes)
{
	uint8_t out[33], key[33] = { 0 };

	CHECK_EQ(wg_blake2s(out, 0, "", 0, NULL, 0), -EINVAL);
	CHECK_EQ(wg_blake2s(out, 33, "", 0, NULL, 0), -EINVAL);
	CHECK_EQ(wg_blake2s(out, 32, "", 0, key, 33), -EINVAL);
}

/* Against libb2: random lengths, keys and output sizes (16 = MAC1/MAC2), split updates. */
TEST(blake2s_vs_libb2)
{
	uint8_t in[1100], key[32], ours[32], theirs[32];
	int round;

	for (round = 0; round < 2000; round++) {
		size_t inlen = random_below(sizeof(in)), keylen = random_below(33);
		size_t outlen = round % 3 == 0 ? 16 : 1 + random_below(32);
		size_t split = inlen ? random_below((uint32_t)inlen + 1) : 0;
		struct wg_blake2s s;

		fill_random(in, inlen);
		fill_random(key, keylen);
		CHECK_EQ(blake2s(theirs, in, keylen ? key : NULL, outlen, inlen, keylen), 0);
		CHECK_EQ(wg_blake2s_init(&s, outlen, key, keylen), 0);
		wg_blake2s_update(&s, in, split);
		wg_blake2s_update(&s, in + split, inlen - split);
		wg_blake2s_final(&s, ours);
		CHECK_MEM(ours, theirs, outlen);
	}
}

/* HMAC-BLAKE2s composed from libb2 (RFC 2104), keys up to past the block size. */
TEST(hmac_blake2s_vs_libb2)
{
	uint8_t key[100], in[300], k[64], ipad[64 + 300], opad[64 + 32], ours[32], theirs[32];
	int round, i;

	for (round = 0; round < 500; round++) {
		size_t keylen = random_below(sizeof(key) + 1), inlen = random_below(sizeof(in));

		fill_random(key, keylen);
		fill_random(in, inlen);
		memset(k, 0, sizeof(k));
		if (keylen > 64)
			blake2s(k, key, NULL, 32, keylen, 0);
		else
			memcpy(k, key, keylen);
		for (i = 0; i < 64; i++) {
			ipad[i] = k[i] ^ 0x36;
			opad[i] = k[i] ^ 0x5c;
		}
		memcpy(ipad + 64, in, inlen);
		blake2s(opad + 64, ipad, NULL, 32, 64 + inlen, 0);
		blake2s(theirs, opad, NULL, 32, sizeof(opad), 0);
		wg_hmac_blake2s(ours, key, keylen, in, inlen);
		CHECK_MEM(ours, theirs, 32);
	}
}

/* wireguard-go's device/kdf_test.go: KDF1, KDF2 and KDF3 agree on the same outputs. */
TEST(kdf_wireguard_go)
{
	static const struct {
		const char *key, *input, *t[3];
	} v[] = {
		{ "746573742d6b6579",
		  "746573742d696e707574",
		  { "6f0e5ad38daba1bea8a0d213688736f19763239305e0f58aba697f9ffc41c633",
		    "df1194df20802a4fe594cde27e92991c8cae66c366e8106aaa937a55fa371e8a",
		    "fac6e2745a325f5dc5d11a5b165aad08b0ada28e7b4e666b7c077934a4d76c24" } },
		{ "776972656775617264",
		  "776972656775617264",
		  { "491d43bbfdaa8750aaf535e334ecbfe5129967cd64635101c566d4caefda96e8",
		    "1e71a379baefd8a79aa4662212fcafe19a23e2b609a3db7d6bcba8f560e3d25f",
		    "31e1ae48bddfbe5de38f295e5452b1909a1b4e38e183926af3780b0c1e1f0160" } },
		{ "",
		  "",
		  { "8387b46bf43eccfcf349552a095d8315c4055beb90208fb1be23b894bc2ed5d0",
		    "58a0e5f6faefccf4807bff1f05fa8a9217945762040bcec2f4b4a62bdfe0e86e",
		    "0ce6ea98ec548f8e281e93e32db65621c45eb18dc6f0a7ad94178610a2f7338e" } },
	};
	uint8_t key[32], in[32], want[3][32], t[3][32];
	size_t i, j, klen, ilen;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		klen = unhex(key, sizeof(key), v[i].key);
		ilen = unhex(in, sizeof(in), v[i].input);
		for (j = 0; j < 3; j++)
			unhex(want[j], 32, v[i].t[j]);
		wg_kdf(t[0], t[1], t[2], key, klen, in, ilen);
		CHECK_MEM(t, want, sizeof(want));
		memset(t, 0, sizeof(t));
		wg_kdf(t[0], t[1], NULL, key, klen, in, ilen);
		CHECK_MEM(t, want, 64);
		wg_kdf(t[0], NULL, NULL, key, klen, in, ilen);
		CHECK_MEM(t, want, 32);
	}
}

/* The output may be the chaining key itself, as the handshake uses it. */
TEST(kdf_output_aliases_key)
{
	uint8_t ck[32], copy[32], t1[32], t2[32];

	fill_random(ck, sizeof(ck));
	memcpy(copy, ck, sizeof(ck));
	wg_kdf(t1, t2, NULL, copy, 32, "in", 2);
	wg_kdf(ck, t2, NULL, ck, 32, "in", 2);
	CHECK_MEM(ck, t1, 32);
}

TEST(tai64n_layout)
{
	uint8_t t[12], want[12];

	/* 2^62 + 10 + 1700000000 s; 123456789 ns rounded down to 2^24 ns: 117440512. */
	wg_tai64n(t, 1700000000, 123456789);
	unhex(want, sizeof(want), "400000006553f10a07000000");
	CHECK_MEM(t, want, 12);
}

TEST(tai64n_keeps_increasing)
{
	uint8_t last[12], next[12], later[12];

	wg_tai64n(last, 1700000000, 500000000);
	/* The clock went back (a router without an RTC booted): last + 1 ns. */
	wg_tai64n_next(next, last, 10, 0);
	CHECK(wg_tai64n_cmp(next, last) > 0);
	CHECK_MEM(next, last, 11);
	CHECK_EQ(next[11], last[11] + 1);
	/* A clock ahead of the last stamp wins. */
	wg_tai64n_next(later, next, 1700000001, 0);
	wg_tai64n(last, 1700000001, 0);
	CHECK_MEM(later, last, 12);
	/* 999999999 ns carries into the seconds. */
	unhex(last, sizeof(last), "40000000000000ff3b9ac9ff");
	wg_tai64n_next(next, last, 0, 0);
	unhex(later, sizeof(later), "400000000000010000000000");
	CHECK_MEM(next, later, 12);
}

/* RFC 7748 section 6.1 (Alice and Bob) and section 5.2's first vector. */
TEST(x25519_rfc7748)
{
	uint8_t a[32], b[32], apub[32], bpub[32], shared[32], want[32], out[32], u[32];
	struct wg_x25519_key ka, kb;

	unhex(a, 32, "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
	unhex(b, 32, "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
	unhex(apub, 32, "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
	unhex(bpub, 32, "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f");
	unhex(shared, 32, "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
	CHECK_EQ(wg_x25519_key_set(&ka, a), 0);
	CHECK_EQ(wg_x25519_key_set(&kb, b), 0);
	CHECK_MEM(ka.pub, apub, 32);
	CHECK_MEM(kb.pub, bpub, 32);
	CHECK_EQ(wg_x25519(out, &ka, bpub), 0);
	CHECK_MEM(out, shared, 32);
	CHECK_EQ(wg_x25519(out, &kb, apub), 0);
	CHECK_MEM(out, shared, 32);
	wg_x25519_key_free(&ka);
	wg_x25519_key_free(&kb);

	unhex(a, 32, "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4");
	unhex(u, 32, "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c");
	unhex(want, 32, "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552");
	CHECK_EQ(wg_x25519_key_set(&ka, a), 0);
	CHECK_EQ(wg_x25519(out, &ka, u), 0);
	CHECK_MEM(out, want, 32);
	wg_x25519_key_free(&ka);
}

/* Points of small order give an all-zero secret: refused, the output wiped. */
TEST(x25519_refuses_zero_secret)
{
	static const uint8_t zero[32];
	uint8_t priv[32], out[32], one[32] = { 1 };
	struct wg_x25519_key k;

	fill_random(priv, sizeof(priv));
	CHECK_EQ(wg_x25519_key_set(&k, priv), 0);
	memset(out, 0xaa, sizeof(out));
	CHECK_EQ(wg_x25519(out, &k, zero), -EINVAL);
	CHECK_MEM(out, zero, 32);
	CHECK_EQ(wg_x25519(out, &k, one), -EINVAL);
	wg_x25519_key_free(&k);
}

TEST(x25519_vs_libsodium)
{
	uint8_t a[32], b[32], ours[32], theirs[32], bpub[32];
	struct wg_x25519_key k, kb;
	int round;

	for (round = 0; round < 200; round++) {
		fill_random(a, 32);
		fill_random(b, 32);
		CHECK_EQ(crypto_scalarmult_base(bpub, b), 0);
		CHECK_EQ(wg_x25519_key_set(&kb, b), 0);
		CHECK_MEM(kb.pub, bpub, 32);
		wg_x25519_key_free(&kb);
		CHECK_EQ(crypto_scalarmult(theirs, a, bpub), 0);
		CHECK_EQ(wg_x25519_key_set(&k, a), 0);
		CHECK_EQ(wg_x25519(ours, &k, bpub), 0);
		wg_x25519_key_free(&k);
		CHECK_MEM(ours, theirs, 32);
	}
}

/* RFC 8439 section 2.8.2, and its decryption; a flipped bit anywhere fails. */
TEST(aead_rfc8439)
{
	uint8_t key[32], nonce[12], ad[12], want[114 + 16], out[114 + 16], back[114];
	size_t len = sizeof(sunscreen) - 1, i;

	unhex(key, 32, "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f");
	unhex(nonce, 12, "070000004041424344454647");
	unhex(ad, 12, "50515253c0c1c2c3c4c5c6c7");
	unhex(want, sizeof(want),
	      "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
	      "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
	      "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
	      "3ff4def08e4b7a9de576d26586cec64b6116"
	      "1ae10b594f09e26a7e902ecbd0600691");
	CHECK_EQ(len, 114);
	CHECK_EQ(wg_aead_encrypt_nonce(out, (const uint8_t *)sunscreen, len, ad, 12, nonce, key),
		 0);
	CHECK_MEM(out, want, sizeof(want));
	CHECK_EQ(wg_aead_decrypt_nonce(back, out, sizeof(out), ad, 12, nonce, key), 0);
	CHECK_MEM(back, sunscreen, len);
	for (i = 0; i < sizeof(out); i += 7) {
		out[i] ^= 0x10;
		CHECK_EQ(wg_aead_decrypt_nonce(back, out, sizeof(out), ad, 12, nonce, key),
			 -EBADMSG);
		out[i] ^= 0x10;
	}
	CHECK_EQ(wg_aead_decrypt_nonce(back, out, 15, ad, 12, nonce, key), -EBADMSG);
}

/* WireGuard's nonce: 4 zero bytes and the counter little-endian; in place; vs libsodium. */
TEST(aead_counter_nonce_vs_libsodium)
{
	uint8_t key[32], ad[64], msg[1500 + 16], theirs[1500 + 16], nonce[12] = { 0 };
	unsigned long long clen;
	int round, i;

	for (round = 0; round < 300; round++) {
		size_t len = random_below(1501), adlen = random_below(65);
		uint64_t counter;

		fill_random(key, 32);
		fill_random(ad, adlen);
		fill_random(msg, len);
		fill_random((uint8_t *)&counter, sizeof(counter));
		for (i = 0; i < 8; i++)
			nonce[4 + i] = (uint8_t)(counter >> (8 * i));
		crypto_aead_chacha20poly1305_ietf_encrypt(theirs, &clen, msg, len, ad, adlen, NULL,
							  nonce, key);
		CHECK_EQ(clen, len + 16);
		CHECK_EQ(wg_aead_encrypt(msg, msg, len, ad, adlen, counter, key), 0);
		CHECK_MEM(msg, theirs, len + 16);
		CHECK_EQ(wg_aead_decrypt(msg, msg, len + 16, ad, adlen, counter, key), 0);
		CHECK_EQ(wg_aead_decrypt(theirs, theirs, len + 16, ad, adlen, counter + 1, key),
			 -EBADMSG);
	}
}

/*
 * A key set up once (wg_aead_key) seals and opens as libsodium does, packet after packet
 * under new counters, and a failed open (wrong counter, a flipped bit) leaves the context
 * fit for the next packet.
 */
TEST(aead_key_reused_vs_libsodium)
{
	uint8_t key[32], msg[1500 + 16], theirs[1500 + 16], nonce[12] = { 0 };
	struct wg_aead_key seal, open;
	unsigned long long clen;
	int round, i;

	fill_random(key, 32);
	CHECK_EQ(wg_aead_key_init(&seal, key, true), 0);
	CHECK_EQ(wg_aead_key_init(&open, key, false), 0);
	for (round = 0; round < 300; round++) {
		size_t len = random_below(1501);
		uint64_t counter = (uint64_t)round * 7919;

		fill_random(msg, len);
		for (i = 0; i < 8; i++)
			nonce[4 + i] = (uint8_t)(counter >> (8 * i));
		crypto_aead_chacha20poly1305_ietf_encrypt(theirs, &clen, msg, len, NULL, 0, NULL,
							  nonce, key);
		CHECK_EQ(wg_aead_key_run(&seal, msg, msg, len, counter), 0);
		CHECK_MEM(msg, theirs, len + 16);
		CHECK_EQ(wg_aead_key_run(&open, theirs, theirs, len + 16, counter + 1), -EBADMSG);
		msg[round % (len + 16)] ^= 1;
		CHECK_EQ(wg_aead_key_run(&open, theirs, msg, len + 16, counter), -EBADMSG);
		msg[round % (len + 16)] ^= 1;
		CHECK_EQ(wg_aead_key_run(&open, msg, msg, len + 16, counter), 0);
	}
	wg_aead_key_free(&seal);
	wg_aead_key_free(&open);
}

/* draft-irtf-cfrg-xchacha section 2.2.1. */
TEST(hchacha20_draft)
{
	uint8_t key[32], nonce[16], out[32], want[32], theirs[32];

	unhex(key, 32, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
	unhex(nonce, 16, "000000090000004a0000000031415927");
	unhex(want, 32, "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc");
	wg_hchacha20(out, key, nonce);
	CHECK_MEM(out, want, 32);
	crypto_core_hchacha20(theirs, nonce, key, NULL);
	CHECK_MEM(theirs, want, 32);
}

/* draft-irtf-cfrg-xchacha appendix A.3.1. */
TEST(xaead_draft)
{
	uint8_t key[32], nonce[24], ad[12], want[114 + 16], out[114 + 16], back[114];

	unhex(key, 32, "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f");
	unhex(nonce, 24, "404142434445464748494a4b4c4d4e4f5051525354555657");
	unhex(ad, 12, "50515253c0c1c2c3c4c5c6c7");
	unhex(want, sizeof(want),
	      "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb"
	      "731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b452"
	      "2f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9"
	      "21f9664c97637da9768812f615c68b13b52e"
	      "c0875924c1c7987947deafd8780acf49");
	CHECK_EQ(wg_xaead_encrypt(out, (const uint8_t *)sunscreen, 114, ad, 12, nonce, key), 0);
	CHECK_MEM(out, want, sizeof(want));
	CHECK_EQ(wg_xaead_decrypt(back, out, sizeof(out), ad, 12, nonce, key), 0);
	CHECK_MEM(back, sunscreen, 114);
	nonce[23] ^= 1;
	CHECK_EQ(wg_xaead_decrypt(back, out, sizeof(out), ad, 12, nonce, key), -EBADMSG);
}

/* The cookie reply's shape (16-byte cookie, 16-byte MAC1 as AD) on random keys. */
TEST(xaead_vs_libsodium)
{
	uint8_t key[32], nonce[24], ad[16], msg[200], ours[216], theirs[216];
	unsigned long long clen;
	int round;

	for (round = 0; round < 300; round++) {
		size_t len = round % 2 ? 16 : random_below(sizeof(msg) + 1);

		fill_random(key, 32);
		fill_random(nonce, 24);
		fill_random(ad, 16);
		fill_random(msg, len);
		crypto_aead_xchacha20poly1305_ietf_encrypt(theirs, &clen, msg, len, ad, 16, NULL,
							   nonce, key);
		CHECK_EQ(wg_xaead_encrypt(ours, msg, len, ad, 16, nonce, key), 0);
		CHECK_MEM(ours, theirs, len + 16);
	}
}

int main(void)
{
	check_prefix = "wg_crypto";
	if (sodium_init() < 0) {
		printf("FAIL wg_crypto/sodium_init: libsodium did not start\n");
		return 1;
	}
	RUN(blake2s_rfc7693_abc);
	RUN(blake2s_rfc7693_selftest);
	RUN(blake2s_keyed_kat);
	RUN(blake2s_bad_sizes);
	RUN(blake2s_vs_libb2);
	RUN(hmac_blake2s_vs_libb2);
	RUN(kdf_wireguard_go);
	RUN(kdf_output_aliases_key);
	RUN(tai64n_layout);
	RUN(tai64n_keeps_increasing);
	RUN(x25519_rfc7748);
	RUN(x25519_refuses_zero_secret);
	RUN(x25519_vs_libsodium);
	RUN(aead_rfc8439);
	RUN(aead_counter_nonce_vs_libsodium);
	RUN(aead_key_reused_vs_libsodium);
	RUN(hchacha20_draft);
	RUN(xaead_draft);
	RUN(xaead_vs_libsodium);
	return check_summary();
}
