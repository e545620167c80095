/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A peer's timers and key slots, as the whitepaper (section 6) and the Linux driver
 * (timers.c, send.c, receive.c, noise.c's keypair slots) have them. Pure: the current time
 * (now_ms, monotonic) and a random value for jitter come in with each event; the actions to
 * take come out as a bit set, and wg_peer_next_deadline() says when to call
 * wg_peer_tick() next. No sockets, no clock, no allocation.
 *
 * Key slots: previous, current and next. An initiator's new keys become current at once
 * (the response confirms them); a responder's wait in next until the first data packet
 * under them arrives, then slide into current (current into previous). Only current
 * encrypts; any slot decrypts while young enough and not worn out.
 *
 * Concurrency: one struct per peer; the caller serialises calls on it.
 */
#ifndef PXP_WG_TIMERS_H
#define PXP_WG_TIMERS_H

#include <stdbool.h>
#include <stdint.h>

#include "replay.h"
#include "wg_crypto.h" /* WG_KEY_LEN */

/* The whitepaper's constants (section 6.1), in milliseconds. */
#define WG_REKEY_AFTER_MESSAGES	       (1ULL << 60)
#define WG_REKEY_AFTER_TIME_MS	       120000
#define WG_REJECT_AFTER_TIME_MS	       180000
#define WG_REKEY_ATTEMPT_TIME_MS       90000
#define WG_REKEY_TIMEOUT_MS	       5000
#define WG_KEEPALIVE_TIMEOUT_MS	       10000
/* Retransmits and the new-handshake timer add up to this much (the driver's HZ / 3). */
#define WG_REKEY_TIMEOUT_JITTER_MAX_MS 333
#define WG_MAX_TIMER_HANDSHAKES	       (WG_REKEY_ATTEMPT_TIME_MS / WG_REKEY_TIMEOUT_MS)
/* A responder consumes at most one initiation per peer this often (50 a second). */
#define WG_INITIATION_RATE_MS	       20
/* The initiator's rekey on receive: late enough to be rare, early enough to beat reject. */
#define WG_REKEY_ON_RECEIVE_MS \
	(WG_REJECT_AFTER_TIME_MS - WG_KEEPALIVE_TIMEOUT_MS - WG_REKEY_TIMEOUT_MS)
#define WG_ZERO_KEYS_AFTER_MS (3 * WG_REJECT_AFTER_TIME_MS)

/* What the caller must do; several may come at once. */
enum wg_action {
	WG_ACT_SEND_INITIATION = 1 << 0, /* create and send a handshake initiation now */
	WG_ACT_SEND_KEEPALIVE = 1 << 1,	 /* send an empty data packet (wg_peer_encrypt_slot) */
	/*
	 * A handshake just completed (record the wall-clock time get=1 reports): send the
	 * staged packets, or a keepalive if none are staged (the initiator's confirmation).
	 */
	WG_ACT_SEND_STAGED = 1 << 2,
	WG_ACT_DROP_STAGED = 1 << 3,	    /* handshakes gave up: drop the staged packets */
	WG_ACT_ZERO_KEYS = 1 << 4,	    /* slots wiped here; wipe the handshake state too */
	WG_ACT_CLEAR_ENDPOINT_SRC = 1 << 5, /* forget the local address we send from */
};

enum wg_slot { WG_SLOT_PREVIOUS, WG_SLOT_CURRENT, WG_SLOT_NEXT, WG_SLOTS };

struct wg_keypair {
	bool send_valid; /* may encrypt (cleared once too old or worn out) */
	bool recv_valid; /* may decrypt; false: the slot is empty */
	bool initiator;	 /* we sent the initiation these keys came from */
	uint64_t birth_ms;
	uint32_t local_index;  /* the receiver index the peer puts on data to us */
	uint32_t remote_index; /* the one we put on data to the peer */
	uint64_t send_counter; /* the next nonce */
	uint8_t send_key[WG_KEY_LEN];
	uint8_t recv_key[WG_KEY_LEN];
	struct replay_window replay;
};

enum wg_timer {
	WG_TIMER_RETRANSMIT,
	WG_TIMER_SEND_KEEPALIVE,
	WG_TIMER_NEW_HANDSHAKE,
	WG_TIMER_ZERO_KEYS,
	WG_TIMER_PERSISTENT_KEEPALIVE,
	WG_TIMERS
};

struct wg_peer_state {
	struct wg_keypair slot[WG_SLOTS];
	uint64_t deadline[WG_TIMERS]; /* 0: not armed */
	unsigned int handshake_attempts;
	bool need_another_keepalive;
	bool sent_lastminute_handshake;
	bool sent_handshake;
	uint64_t last_sent_handshake_ms;
	bool consumed_initiation;
	uint64_t last_initiation_consumed_ms;
	uint16_t persistent_keepalive_s; /* 0: off */
	/*
	 * Set whenever a timer is armed or disarmed (and by wg_peer_init): the caller that files
	 * peers by wg_peer_next_deadline() (a timer heap) re-files this one and clears it.
	 */
	bool deadlines_changed;
};

/* A new peer: no keys, nothing armed (deadlines_changed set). */
void wg_peer_init(struct wg_peer_state *p, uint16_t persistent_keepalive_s);

/* Changes the persistent keepalive interval (seconds, 0 off), as set=1 does. */
void wg_peer_set_persistent_keepalive(struct wg_peer_state *p, uint16_t seconds);

/* The earliest armed deadline, UINT64_MAX when none is. */
uint64_t wg_peer_next_deadline(const struct wg_peer_state *p);

/* Runs every timer due at now_ms. rnd: any random value (for jitter). */
unsigned int wg_peer_tick(struct wg_peer_state *p, uint64_t now_ms, uint32_t rnd);

/*
 * The keys to encrypt the next packet with, and its nonce in *counter; NULL when current
 * is missing, too old or worn out: then stage the packet (the actions in *actions
 * include a handshake unless one went out less than REKEY_TIMEOUT ago). Also asks for a
 * rekey when current is due for one. Call wg_peer_sent() after sending.
 */
const struct wg_keypair *wg_peer_encrypt_slot(struct wg_peer_state *p, uint64_t now_ms,
					      uint64_t *counter, unsigned int *actions);

/* What was sent: an authenticated packet of this kind went out to the peer. */
enum wg_sent { WG_SENT_DATA, WG_SENT_KEEPALIVE, WG_SENT_INITIATION, WG_SENT_RESPONSE };
unsigned int wg_peer_sent(struct wg_peer_state *p, enum wg_sent what, uint64_t now_ms,
			  uint32_t rnd);

/*
 * The slot whose keys decrypt data addressed to local_index, or -1 if none may (unknown
 * index, older than REJECT_AFTER_TIME, or its counter worn out).
 */
int wg_peer_decrypt_slot(struct wg_peer_state *p, uint32_t local_index, uint64_t now_ms);

/*
 * A data packet (keepalive: empty) decrypted under slot s, its counter already accepted by
 * the slot's replay window. Confirms a responder's next keys.
 */
unsigned int wg_peer_data_received(struct wg_peer_state *p, enum wg_slot s, bool keepalive,
				   uint64_t now_ms, uint32_t rnd);

/* May an initiation from this peer be consumed now (false: a flood, drop it)? */
bool wg_peer_initiation_allowed(const struct wg_peer_state *p, uint64_t now_ms);

/* A valid initiation from the peer was consumed (we are about to respond). */
unsigned int wg_peer_initiation_received(struct wg_peer_state *p, uint64_t now_ms);

/*
 * New keys from a completed handshake: as initiator (a response was consumed; the keys
 * become current and the actions say to confirm them) or as responder (before sending
 * the response; they wait in next). kp's keys, indices and initiator flag are copied.
 */
unsigned int wg_peer_install_keys(struct wg_peer_state *p, const struct wg_keypair *kp,
				  uint64_t now_ms);

#endif
