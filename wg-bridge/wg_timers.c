// SPDX-License-Identifier: GPL-2.0
/*
 * A peer's timers and key slots: the Linux driver's timers.c hooks (data sent/received,
 * any authenticated packet sent/received/traversal, handshake initiated/complete, session
 * derived) and its five timers, with send.c's and receive.c's keep_key_fresh().
 */
#include <string.h>

#include "wg_timers.h"

static uint64_t jitter(uint32_t rnd)
{
	return rnd % (WG_REKEY_TIMEOUT_JITTER_MAX_MS + 1);
}

/* Deadlines are stored one up, so that 0 means unarmed even at time 0. */
static void arm(struct wg_peer_state *p, enum wg_timer t, uint64_t at)
{
	p->deadline[t] = at + 1;
	p->deadlines_changed = true;
}

static void disarm(struct wg_peer_state *p, enum wg_timer t)
{
	p->deadlines_changed |= p->deadline[t] != 0;
	p->deadline[t] = 0;
}

static bool armed(const struct wg_peer_state *p, enum wg_timer t)
{
	return p->deadline[t] != 0;
}

static bool expired(uint64_t birth_ms, uint64_t after_ms, uint64_t now_ms)
{
	return birth_ms + after_ms <= now_ms;
}

static void wipe(struct wg_keypair *kp)
{
	explicit_bzero(kp, sizeof(*kp));
}

void wg_peer_init(struct wg_peer_state *p, uint16_t persistent_keepalive_s)
{
	memset(p, 0, sizeof(*p));
	p->persistent_keepalive_s = persistent_keepalive_s;
	p->deadlines_changed = true;
}

void wg_peer_set_persistent_keepalive(struct wg_peer_state *p, uint16_t seconds)
{
	p->persistent_keepalive_s = seconds;
	if (!seconds)
		disarm(p, WG_TIMER_PERSISTENT_KEEPALIVE);
}

uint64_t wg_peer_next_deadline(const struct wg_peer_state *p)
{
	uint64_t next = UINT64_MAX;

	for (int t = 0; t < WG_TIMERS; t++)
		if (p->deadline[t] && p->deadline[t] - 1 < next)
			next = p->deadline[t] - 1;
	return next;
}

/*
 * send.c's wg_packet_send_queued_handshake_initiation(): a fresh attempt resets the
 * count; at most one initiation per REKEY_TIMEOUT goes out.
 */
static unsigned int want_initiation(struct wg_peer_state *p, uint64_t now_ms, bool is_retry)
{
	if (!is_retry)
		p->handshake_attempts = 0;
	if (p->sent_handshake && !expired(p->last_sent_handshake_ms, WG_REKEY_TIMEOUT_MS, now_ms))
		return 0;
	p->sent_handshake = true;
	p->last_sent_handshake_ms = now_ms;
	return WG_ACT_SEND_INITIATION;
}

static void traversal(struct wg_peer_state *p, uint64_t now_ms)
{
	if (p->persistent_keepalive_s)
		arm(p, WG_TIMER_PERSISTENT_KEEPALIVE,
		    now_ms + (uint64_t)p->persistent_keepalive_s * 1000);
}

static void handshake_complete(struct wg_peer_state *p)
{
	disarm(p, WG_TIMER_RETRANSMIT);
	p->handshake_attempts = 0;
	p->sent_lastminute_handshake = false;
}

static unsigned int zero_keys(struct wg_peer_state *p)
{
	for (int s = 0; s < WG_SLOTS; s++)
		wipe(&p->slot[s]);
	return WG_ACT_ZERO_KEYS;
}

static unsigned int fire(struct wg_peer_state *p, enum wg_timer t, uint64_t now_ms, uint32_t rnd)
{
	switch (t) {
	case WG_TIMER_RETRANSMIT:
		if (p->handshake_attempts > WG_MAX_TIMER_HANDSHAKES) {
			/* Gave up: what waits for keys is dropped, residue wiped later. */
			disarm(p, WG_TIMER_SEND_KEEPALIVE);
			if (!armed(p, WG_TIMER_ZERO_KEYS))
				arm(p, WG_TIMER_ZERO_KEYS, now_ms + WG_ZERO_KEYS_AFTER_MS);
			return WG_ACT_DROP_STAGED;
		}
		p->handshake_attempts++;
		return WG_ACT_CLEAR_ENDPOINT_SRC | want_initiation(p, now_ms, true);
	case WG_TIMER_SEND_KEEPALIVE:
		if (p->need_another_keepalive) {
			p->need_another_keepalive = false;
			arm(p, WG_TIMER_SEND_KEEPALIVE, now_ms + WG_KEEPALIVE_TIMEOUT_MS);
		}
		return WG_ACT_SEND_KEEPALIVE;
	case WG_TIMER_NEW_HANDSHAKE:
		/* Sent data got no answer: maybe our source address is the trouble. */
		return WG_ACT_CLEAR_ENDPOINT_SRC | want_initiation(p, now_ms, false);
	case WG_TIMER_ZERO_KEYS:
		return zero_keys(p);
	case WG_TIMER_PERSISTENT_KEEPALIVE:
		return p->persistent_keepalive_s ? WG_ACT_SEND_KEEPALIVE : 0;
	case WG_TIMERS:
		break;
	}
	(void)rnd;
	return 0;
}

unsigned int wg_peer_tick(struct wg_peer_state *p, uint64_t now_ms, uint32_t rnd)
{
	unsigned int actions = 0;

	for (int t = 0; t < WG_TIMERS; t++) {
		if (!armed(p, t) || p->deadline[t] - 1 > now_ms)
			continue;
		disarm(p, t);
		actions |= fire(p, t, now_ms, rnd);
	}
	return actions;
}

/* send.c's keep_key_fresh(): rekey after 2^60 messages, or after 120 s as initiator. */
static unsigned int keep_key_fresh_send(struct wg_peer_state *p, uint64_t now_ms)
{
	const struct wg_keypair *kp = &p->slot[WG_SLOT_CURRENT];

	if (kp->send_valid &&
	    (kp->send_counter > WG_REKEY_AFTER_MESSAGES ||
	     (kp->initiator && expired(kp->birth_ms, WG_REKEY_AFTER_TIME_MS, now_ms))))
		return want_initiation(p, now_ms, false);
	return 0;
}

const struct wg_keypair *wg_peer_encrypt_slot(struct wg_peer_state *p, uint64_t now_ms,
					      uint64_t *counter, unsigned int *actions)
{
	struct wg_keypair *kp = &p->slot[WG_SLOT_CURRENT];

	*actions = 0;
	if (!kp->send_valid)
		goto no_key;
	if (expired(kp->birth_ms, WG_REJECT_AFTER_TIME_MS, now_ms) ||
	    kp->send_counter >= WG_REJECT_AFTER_MESSAGES) {
		/* The driver marks such keys unusable for sending (but not receiving). */
		kp->send_valid = false;
		goto no_key;
	}
	*counter = kp->send_counter++;
	*actions = keep_key_fresh_send(p, now_ms);
	return kp;
no_key:
	*actions = want_initiation(p, now_ms, false);
	return NULL;
}

unsigned int wg_peer_sent(struct wg_peer_state *p, enum wg_sent what, uint64_t now_ms, uint32_t rnd)
{
	traversal(p, now_ms);
	/* Anything authenticated we send is as good as a keepalive. */
	disarm(p, WG_TIMER_SEND_KEEPALIVE);
	switch (what) {
	case WG_SENT_DATA:
		if (!armed(p, WG_TIMER_NEW_HANDSHAKE))
			arm(p, WG_TIMER_NEW_HANDSHAKE,
			    now_ms + WG_KEEPALIVE_TIMEOUT_MS + WG_REKEY_TIMEOUT_MS + jitter(rnd));
		break;
	case WG_SENT_INITIATION:
		arm(p, WG_TIMER_RETRANSMIT, now_ms + WG_REKEY_TIMEOUT_MS + jitter(rnd));
		break;
	case WG_SENT_KEEPALIVE:
	case WG_SENT_RESPONSE:
		break;
	}
	return 0;
}

/* A valid receiving slot: the keys exist, are younger than 180 s and not worn out. */
int wg_peer_decrypt_slot(struct wg_peer_state *p, uint32_t local_index, uint64_t now_ms)
{
	for (int s = 0; s < WG_SLOTS; s++) {
		struct wg_keypair *kp = &p->slot[s];

		if (!kp->recv_valid || kp->local_index != local_index)
			continue;
		if (expired(kp->birth_ms, WG_REJECT_AFTER_TIME_MS, now_ms) ||
		    kp->replay.counter >= WG_REJECT_AFTER_MESSAGES) {
			kp->recv_valid = false;
			return -1;
		}
		return s;
	}
	return -1;
}

static void authenticated_received(struct wg_peer_state *p, uint64_t now_ms)
{
	disarm(p, WG_TIMER_NEW_HANDSHAKE);
	traversal(p, now_ms);
}

unsigned int wg_peer_data_received(struct wg_peer_state *p, enum wg_slot s, bool keepalive,
				   uint64_t now_ms, uint32_t rnd)
{
	const struct wg_keypair *cur = &p->slot[WG_SLOT_CURRENT];
	unsigned int actions = 0;

	(void)rnd;
	if (s == WG_SLOT_NEXT) {
		/* The responder's keys are confirmed: next -> current -> previous. */
		wipe(&p->slot[WG_SLOT_PREVIOUS]);
		p->slot[WG_SLOT_PREVIOUS] = p->slot[WG_SLOT_CURRENT];
		p->slot[WG_SLOT_CURRENT] = p->slot[WG_SLOT_NEXT];
		wipe(&p->slot[WG_SLOT_NEXT]);
		handshake_complete(p);
		actions |= WG_ACT_SEND_STAGED;
	}
	/* receive.c's keep_key_fresh(): the initiator rekeys once, late, if still in use. */
	if (cur->send_valid && cur->initiator &&
	    expired(cur->birth_ms, WG_REKEY_ON_RECEIVE_MS, now_ms) &&
	    !p->sent_lastminute_handshake) {
		p->sent_lastminute_handshake = true;
		actions |= want_initiation(p, now_ms, false);
	}
	authenticated_received(p, now_ms);
	if (!keepalive) {
		/* Answer within KEEPALIVE_TIMEOUT; data arriving meanwhile earns one more. */
		if (!armed(p, WG_TIMER_SEND_KEEPALIVE))
			arm(p, WG_TIMER_SEND_KEEPALIVE, now_ms + WG_KEEPALIVE_TIMEOUT_MS);
		else
			p->need_another_keepalive = true;
	}
	return actions;
}

bool wg_peer_initiation_allowed(const struct wg_peer_state *p, uint64_t now_ms)
{
	return !p->consumed_initiation ||
	       expired(p->last_initiation_consumed_ms, WG_INITIATION_RATE_MS, now_ms);
}

unsigned int wg_peer_initiation_received(struct wg_peer_state *p, uint64_t now_ms)
{
	p->consumed_initiation = true;
	p->last_initiation_consumed_ms = now_ms;
	authenticated_received(p, now_ms);
	return 0;
}

unsigned int wg_peer_install_keys(struct wg_peer_state *p, const struct wg_keypair *kp,
				  uint64_t now_ms)
{
	struct wg_keypair *dst;
	unsigned int actions = 0;

	if (kp->initiator) {
		/* A pending next (a half-finished exchange as responder) becomes previous. */
		wipe(&p->slot[WG_SLOT_PREVIOUS]);
		if (p->slot[WG_SLOT_NEXT].recv_valid) {
			p->slot[WG_SLOT_PREVIOUS] = p->slot[WG_SLOT_NEXT];
			wipe(&p->slot[WG_SLOT_NEXT]);
			wipe(&p->slot[WG_SLOT_CURRENT]);
		} else {
			p->slot[WG_SLOT_PREVIOUS] = p->slot[WG_SLOT_CURRENT];
		}
		dst = &p->slot[WG_SLOT_CURRENT];
		handshake_complete(p);
		authenticated_received(p, now_ms);
		actions |= WG_ACT_SEND_STAGED;
	} else {
		/* Unusable until the initiator's first data packet confirms them. */
		wipe(&p->slot[WG_SLOT_NEXT]);
		wipe(&p->slot[WG_SLOT_PREVIOUS]);
		dst = &p->slot[WG_SLOT_NEXT];
	}
	*dst = *kp;
	dst->send_valid = dst->recv_valid = true;
	dst->birth_ms = now_ms;
	dst->send_counter = 0;
	replay_init(&dst->replay);
	/* The session derived: whatever is left of it goes in 540 s unless renewed. */
	arm(p, WG_TIMER_ZERO_KEYS, now_ms + WG_ZERO_KEYS_AFTER_MS);
	return actions;
}
