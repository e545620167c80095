/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Noise_IKpsk2 as WireGuard uses it (whitepaper section 5), pure: messages and the current
 * time in, messages and transport keys out; no sockets, no clock, randomness from a callback.
 * Timers, key slots, the replay window and the handshake queue are the caller's (the state
 * half of wg-bridge). Not thread-safe: one caller at a time per local identity.
 *
 * Initiator                              Responder
 *   wg_initiation_create  --type 1-->      wg_initiation_consume (peer found by its static)
 *   wg_response_consume   <--type 2--      wg_response_create
 *   wg_transport_keys_derive               wg_transport_keys_derive
 * Under load the responder answers a message whose MAC2 is wrong with wg_cookie_reply_create
 * (type 3); the initiator takes it with wg_cookie_reply_consume and sends MAC2 from then on.
 */
#ifndef PXP_WG_NOISE_H
#define PXP_WG_NOISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wg_crypto.h"
#include "wg_messages.h"

/* Why a message was refused: one counter each, never a log line per packet. */
#define WG_DROP_REASONS(X)                                                       \
	X(WG_OK, "accepted")                                                     \
	X(WG_DROP_SIZE, "wrong size for its type")                               \
	X(WG_DROP_TYPE, "unknown or unexpected message type")                    \
	X(WG_DROP_RESERVED, "reserved bytes not zero")                           \
	X(WG_DROP_MAC1, "bad MAC1")                                              \
	X(WG_DROP_COOKIE_NEEDED, "under load and MAC2 missing or stale")         \
	X(WG_DROP_DECRYPT, "does not authenticate")                              \
	X(WG_DROP_UNKNOWN_PEER, "static key of no configured peer")              \
	X(WG_DROP_TIMESTAMP, "initiation timestamp not newer than the last one") \
	X(WG_DROP_KEY, "bad public key or all-zero shared secret")               \
	X(WG_DROP_STATE, "no handshake waiting for it")                          \
	X(WG_DROP_INTERNAL, "out of memory or no randomness")

#define WG_DROP_ENUM(name, text) name,
enum wg_drop { WG_DROP_REASONS(WG_DROP_ENUM) WG_DROP_COUNT };
#undef WG_DROP_ENUM

const char *wg_drop_name(enum wg_drop reason);

/* Fills buf with len random bytes; 0 or -errno. Tests pass a deterministic one. */
typedef int (*wg_rng_fn)(void *ctx, uint8_t *buf, size_t len);

/* Seconds a cookie (or the secret it is made from) lives (whitepaper 5.4.7). */
#define WG_COOKIE_SECRET_MAX_AGE_S 120
/* A received cookie is used for 5 s less, so it never arrives stale (Linux's latency). */
#define WG_COOKIE_SECRET_LATENCY_S 5

/* Our own identity. */
struct wg_noise_local {
	struct wg_x25519_key key;
	uint8_t mac1_key[WG_HASH_LEN];	 /* HASH("mac1----" || our public): MAC1 sent to us */
	uint8_t cookie_key[WG_HASH_LEN]; /* HASH("cookie--" || our public): our cookie replies */
	uint64_t dh_count;		 /* X25519 operations done (tests: MAC1 comes first) */
};

int wg_noise_local_init(struct wg_noise_local *l, const uint8_t priv[static WG_KEY_LEN]);
void wg_noise_local_free(struct wg_noise_local *l);

/* What the core keeps of one peer. */
struct wg_noise_peer {
	uint8_t pub[WG_KEY_LEN];
	uint8_t psk[WG_KEY_LEN];		 /* zeros without a preshared key */
	uint8_t mac1_key[WG_HASH_LEN];		 /* HASH("mac1----" || peer's public) */
	uint8_t cookie_key[WG_HASH_LEN];	 /* HASH("cookie--" || peer's public) */
	uint8_t latest_timestamp[WG_TAI64N_LEN]; /* greatest TAI64N accepted from it */
	uint8_t last_mac1[WG_MAC_LEN]; /* of our last handshake message: a cookie reply's AD */
	bool have_last_mac1;
	uint8_t cookie[WG_MAC_LEN]; /* the peer's cookie for us, for our MAC2 */
	bool have_cookie;
	uint64_t cookie_birth_ns;
};

/* psk NULL: none. */
void wg_noise_peer_init(struct wg_noise_peer *p, const uint8_t pub[static WG_KEY_LEN],
			const uint8_t *psk);

/* The responder's cookie secret, renewed when older than 2 min by the caller's clock. */
struct wg_cookie_checker {
	uint8_t secret[WG_HASH_LEN];
	uint64_t birth_ns;
	bool have;
};

/*
 * What a consumer needs to require MAC2 (the responder under load): the checker, the source
 * address bytes as the caller forms them (IP then port), the time and randomness for a secret
 * renewal. NULL when not under load: MAC2 is then not looked at.
 */
struct wg_cookie_ctx {
	struct wg_cookie_checker *checker;
	const uint8_t *src;
	size_t src_len;
	uint64_t now_ns;
	wg_rng_fn rng;
	void *rng_ctx;
};

enum wg_handshake_state {
	WG_HS_NONE,
	WG_HS_INITIATION_CREATED,
	WG_HS_INITIATION_CONSUMED,
	WG_HS_RESPONSE_CREATED,
	WG_HS_RESPONSE_CONSUMED,
};

/* One handshake in flight. Zero it (or wg_handshake_clear) before first use. */
struct wg_handshake {
	enum wg_handshake_state state;
	struct wg_noise_peer *peer;
	uint8_t hash[WG_HASH_LEN];
	uint8_t chaining_key[WG_HASH_LEN];
	struct wg_x25519_key ephemeral; /* the initiator's, until the response */
	uint8_t remote_ephemeral[WG_KEY_LEN];
	uint32_t local_index;
	uint32_t remote_index;
};

/* Wipes the handshake and frees its ephemeral key. */
void wg_handshake_clear(struct wg_handshake *hs);

struct wg_transport_keys {
	uint8_t send[WG_KEY_LEN];
	uint8_t recv[WG_KEY_LEN];
	uint32_t local_index;  /* the receiver index the peer puts on data to us */
	uint32_t remote_index; /* the one we put on data to it */
	bool initiator;
};

/*
 * The type of a message, after checking the 4-byte type field (reserved bytes zero) and that
 * the size is that of the type (handshake messages exactly, data at least a keepalive).
 */
enum wg_drop wg_message_check(const void *msg, size_t len, enum wg_message_type *type);

/*
 * Initiator. tai64n is the stamp to send (wg_tai64n_next); sender_index ours for this
 * handshake; the ephemeral key comes from rng. MAC2 is added while the peer's cookie is fresh
 * (now_ns). 0 or -errno.
 */
int wg_initiation_create(struct wg_msg_initiation *msg, struct wg_handshake *hs,
			 struct wg_noise_local *l, struct wg_noise_peer *peer,
			 const uint8_t tai64n[static WG_TAI64N_LEN], uint32_t sender_index,
			 wg_rng_fn rng, void *rng_ctx, uint64_t now_ns);

/* Finds the peer whose static public key is pub, or NULL. */
typedef struct wg_noise_peer *(*wg_peer_lookup_fn)(void *ctx, const uint8_t pub[WG_KEY_LEN]);

/*
 * Responder: checks MAC1 (and MAC2 when cookie is not NULL) before any DH, decrypts the
 * initiator's static key, finds its peer, and accepts the timestamp only when newer than the
 * peer's latest (which it then becomes). hs is written only on WG_OK.
 */
enum wg_drop wg_initiation_consume(struct wg_handshake *hs, struct wg_noise_local *l,
				   const void *msg, size_t len, wg_peer_lookup_fn lookup,
				   void *lookup_ctx, const struct wg_cookie_ctx *cookie);

/* Responder: the response to the initiation hs holds. 0 or -errno. */
int wg_response_create(struct wg_msg_response *msg, struct wg_handshake *hs,
		       struct wg_noise_local *l, uint32_t sender_index, wg_rng_fn rng,
		       void *rng_ctx, uint64_t now_ns);

/*
 * Initiator: the response to the initiation hs holds (the receiver index must be
 * hs->local_index). hs changes only on WG_OK.
 */
enum wg_drop wg_response_consume(struct wg_handshake *hs, struct wg_noise_local *l, const void *msg,
				 size_t len, const struct wg_cookie_ctx *cookie);

/*
 * Both sides, once the response is created or consumed: (T1, T2) = KDF2(ck, empty); the
 * initiator sends with T1, the responder with T2. Wipes hs. 0, or -EINVAL in another state.
 */
int wg_transport_keys_derive(struct wg_transport_keys *k, struct wg_handshake *hs);

/*
 * Responder under load: a cookie reply to the handshake message msg (initiation or
 * response, already checked with wg_message_check and MAC1) from cookie->src.
 * 0 or -errno.
 */
int wg_cookie_reply_create(struct wg_msg_cookie_reply *reply, struct wg_noise_local *l,
			   const void *msg, size_t len, const struct wg_cookie_ctx *cookie);

/* The peer that we last sent a handshake message to answered with a cookie reply. */
enum wg_drop wg_cookie_reply_consume(struct wg_noise_peer *peer, const void *msg, size_t len,
				     uint64_t now_ns);

/* The receiver index of a cookie reply, response or data message (the caller's lookup). */
uint32_t wg_message_receiver(const void *msg, enum wg_message_type type);

/*
 * A data message into out (cap bytes): header, payload padded with zeros to 16 (never past
 * mtu), tag, sealed with the session's send key set up once (wg_aead_key_init, enc true).
 * payload may already sit at out + 16 (in place). The length, -EMSGSIZE, or -EIO (a key of
 * the wrong direction). Counter limits and key ages are the caller's.
 */
int wg_data_seal(uint8_t *out, size_t cap, const uint8_t *payload, size_t len, size_t mtu,
		 uint32_t remote_index, const struct wg_aead_key *key, uint64_t counter);

/*
 * wg_data_seal in two steps, for a caller that seals a batch later and elsewhere (on other
 * threads): wg_data_frame writes the header, the payload and its padding (the length, or
 * -EMSGSIZE; the tag's room is left), wg_data_frame_seal encrypts that message of len bytes
 * in place under its header's counter (0, or -EIO).
 */
int wg_data_frame(uint8_t *out, size_t cap, const uint8_t *payload, size_t len, size_t mtu,
		  uint32_t remote_index, uint64_t counter);
int wg_data_frame_seal(uint8_t *msg, size_t len, const struct wg_aead_key *key);

/* A data message's header: receiver index and counter (after wg_message_check). */
void wg_data_header(const void *msg, uint32_t *receiver, uint64_t *counter);

/*
 * Opens the data message msg (len bytes, checked) with the session's receive key set up once
 * (wg_aead_key_init, enc false) into out, which may be the message's own encrypted bytes
 * (msg + 16, in place); *out_len is the padded packet's length. Replay is the caller's (it
 * checks the counter after this succeeds).
 */
enum wg_drop wg_data_open(uint8_t *out, size_t *out_len, const void *msg, size_t len,
			  const struct wg_aead_key *key);

#endif
