// SPDX-License-Identifier: GPL-2.0
/*
 * A peer's timers and key slots: scenarios as tables of (time, event, the actions expected,
 * the next deadline expected), after the whitepaper's section 6 and the Linux driver's
 * timers.c, each also checking that deadlines_changed is set whenever the next deadline
 * moves; then the key slots' rotation and expiry by age and by message count, and two
 * peers driving each other for ten minutes.
 */
#include "check.h"
#include "wg_timers.h"

enum op {
	TICK,	      /* wg_peer_tick() */
	ENCRYPT,      /* wg_peer_encrypt_slot(): arg 1 = keys expected, 0 = none */
	SENT_DATA,    /* wg_peer_sent(WG_SENT_DATA) with rnd = arg */
	SENT_INIT,    /* wg_peer_sent(WG_SENT_INITIATION) with rnd = arg */
	RECV_DATA,    /* wg_peer_data_received(current) */
	RECV_KA,      /* the same for a keepalive */
	AS_INITIATOR, /* wg_peer_install_keys(): a response consumed */
	AS_RESPONDER, /* wg_peer_install_keys() before our response */
	CONFIRM,      /* first data under the responder's next keys */
	END
};

#define ANY  UINT64_C(0xdeadbeef) /* do not check the deadline */
#define NONE UINT64_MAX

struct step {
	uint64_t t;
	enum op op;
	uint32_t arg;
	unsigned int actions;
	uint64_t deadline; /* after the step */
};

#define INIT   WG_ACT_SEND_INITIATION
#define KA     WG_ACT_SEND_KEEPALIVE
#define STAGED WG_ACT_SEND_STAGED
#define SRC    WG_ACT_CLEAR_ENDPOINT_SRC

static struct wg_peer_state p;

static unsigned int run_step(const struct step *s, bool *keys_ok)
{
	struct wg_keypair kp = { .local_index = 7, .remote_index = 9 };
	unsigned int actions = 0;
	uint64_t counter;

	*keys_ok = true;
	switch (s->op) {
	case TICK:
		return wg_peer_tick(&p, s->t, 0);
	case ENCRYPT:
		*keys_ok = (wg_peer_encrypt_slot(&p, s->t, &counter, &actions) != NULL) == !!s->arg;
		return actions;
	case SENT_DATA:
		return wg_peer_sent(&p, WG_SENT_DATA, s->t, s->arg);
	case SENT_INIT:
		return wg_peer_sent(&p, WG_SENT_INITIATION, s->t, s->arg);
	case RECV_DATA:
	case RECV_KA:
		return wg_peer_data_received(&p, WG_SLOT_CURRENT, s->op == RECV_KA, s->t, 0);
	case AS_INITIATOR:
	case AS_RESPONDER:
		kp.initiator = s->op == AS_INITIATOR;
		return wg_peer_install_keys(&p, &kp, s->t);
	case CONFIRM:
		return wg_peer_data_received(&p, WG_SLOT_NEXT, false, s->t, 0);
	case END:
		break;
	}
	return 0;
}

/* Runs a scenario from a fresh peer; reports the first step that disagrees. */
/*
 * Each step also files the peer as the device's timer heap does, at its next deadline only
 * when deadlines_changed says so: a deadline that moves without the flag is a failure.
 */
static int run(const char *name, uint16_t persistent_keepalive, const struct step *steps)
{
	uint64_t filed = 0;

	wg_peer_init(&p, persistent_keepalive);
	if (!p.deadlines_changed) {
		printf("FAIL wg_timers/%s: wg_peer_init did not set deadlines_changed\n", name);
		return 1;
	}
	for (int i = 0; steps[i].op != END; i++) {
		const struct step *s = &steps[i];
		bool keys_ok;
		unsigned int got = run_step(s, &keys_ok);
		uint64_t next = wg_peer_next_deadline(&p);

		if (p.deadlines_changed) {
			filed = next;
			p.deadlines_changed = false;
		}
		if (filed != next) {
			printf("FAIL wg_timers/%s: step %d at %llu ms: the deadline moved to %llu "
			       "without deadlines_changed (filed at %llu)\n",
			       name, i, (unsigned long long)s->t, (unsigned long long)next,
			       (unsigned long long)filed);
			return 1;
		}
		if (got != s->actions || !keys_ok || (s->deadline != ANY && next != s->deadline)) {
			printf("FAIL wg_timers/%s: step %d at %llu ms: actions %#x (want %#x), "
			       "keys %s, deadline %llu (want %llu)\n",
			       name, i, (unsigned long long)s->t, got, s->actions,
			       keys_ok ? "as expected" : "wrong", (unsigned long long)next,
			       (unsigned long long)s->deadline);
			return 1;
		}
	}
	printf("PASS wg_timers/%s\n", name);
	return 0;
}

/* Without keys or traffic nothing is armed, and nothing is ever sent. */
static const struct step idle_peer[] = {
	{ 0, TICK, 0, 0, NONE },
	{ 1000000, TICK, 0, 0, NONE },
	{ 0, END, 0, 0, 0 },
};

/* A completed handshake and then silence: only the 540 s wipe of the keys. */
static const struct step idle_after_handshake[] = {
	{ 1000, AS_INITIATOR, 0, STAGED, 1000 + WG_ZERO_KEYS_AFTER_MS },
	{ 540999, TICK, 0, 0, 541000 },
	{ 541000, TICK, 0, WG_ACT_ZERO_KEYS, NONE },
	{ 541000, ENCRYPT, 0, INIT, NONE },
	{ 0, END, 0, 0, 0 },
};

/* Data only comes in: a keepalive answers 10 s later; more data meanwhile earns another. */
static const struct step one_sided_keepalive[] = {
	{ 0, AS_INITIATOR, 0, STAGED, ANY },
	{ 2000, RECV_DATA, 0, 0, 12000 },
	{ 5000, RECV_DATA, 0, 0, 12000 },
	{ 11999, TICK, 0, 0, 12000 },
	{ 12000, TICK, 0, KA, 22000 },
	{ 22000, TICK, 0, KA, ANY },
	{ 30000, RECV_KA, 0, 0, ANY }, /* keepalives are not answered */
	{ 60000, TICK, 0, 0, ANY },
	/* Our own data in time makes the keepalive needless. */
	{ 61000, RECV_DATA, 0, 0, 71000 },
	{ 62000, SENT_DATA, 0, 0, 62000 + 15000 },
	{ 71000, TICK, 0, 0, ANY },
	{ 0, END, 0, 0, 0 },
};

/* Data goes out, nothing comes back: a new handshake 15 s (plus jitter) later. */
static const struct step no_reply_handshake[] = {
	{ 0, AS_INITIATOR, 0, STAGED, ANY },
	{ 1000, SENT_DATA, 333, 0, 16333 },
	{ 2000, SENT_DATA, 0, 0, 16333 }, /* armed once, not pushed back */
	{ 16332, TICK, 0, 0, 16333 },
	{ 16333, TICK, 0, SRC | INIT, ANY },
	/* Any authenticated packet back in time disarms it. */
	{ 20000, SENT_DATA, 0, 0, 35000 },
	{ 21000, RECV_KA, 0, 0, WG_ZERO_KEYS_AFTER_MS },
	{ 36000, TICK, 0, 0, ANY },
	{ 0, END, 0, 0, 0 },
};

/* The initiator rekeys once its keys are 120 s old, when it sends. */
static const struct step rekey_initiator[] = {
	{ 0, AS_INITIATOR, 0, STAGED, ANY },
	{ 119999, ENCRYPT, 1, 0, ANY },
	{ 120000, ENCRYPT, 1, INIT, ANY },
	{ 121000, ENCRYPT, 1, 0, ANY }, /* one per REKEY_TIMEOUT */
	{ 125000, ENCRYPT, 1, INIT, ANY },
	{ 179999, ENCRYPT, 1, INIT, ANY },
	{ 180000, ENCRYPT, 0, 0, ANY }, /* REJECT_AFTER_TIME; the last one is 1 ms old */
	{ 184999, ENCRYPT, 0, INIT, ANY },
	{ 0, END, 0, 0, 0 },
};

/* The responder never rekeys by time; its keys just stop at 180 s. */
static const struct step no_rekey_responder[] = {
	{ 0, AS_RESPONDER, 0, 0, ANY },	   { 1, CONFIRM, 0, STAGED, ANY },
	{ 150000, ENCRYPT, 1, 0, ANY },	   { 179999, ENCRYPT, 1, 0, ANY },
	{ 180000, ENCRYPT, 0, INIT, ANY }, { 0, END, 0, 0, 0 },
};

/* The initiator's rekey on receive at 165 s, once per session. */
static const struct step rekey_on_receive[] = {
	{ 0, AS_INITIATOR, 0, STAGED, ANY },
	{ 164999, RECV_KA, 0, 0, ANY },
	{ 165000, RECV_KA, 0, INIT, ANY },
	{ 171000, RECV_KA, 0, 0, ANY },
	{ 0, END, 0, 0, 0 },
};

static const struct step rekey_on_receive_responder[] = {
	{ 0, AS_RESPONDER, 0, 0, ANY },
	{ 1, CONFIRM, 0, STAGED, ANY },
	{ 170000, RECV_KA, 0, 0, ANY },
	{ 0, END, 0, 0, 0 },
};

/* Persistent keepalive: 25 s after the last authenticated packet either way. */
static const struct step persistent_keepalive[] = {
	{ 0, TICK, 0, 0, NONE },	   { 0, AS_INITIATOR, 0, STAGED, 25000 },
	{ 10000, RECV_KA, 0, 0, 35000 },   { 35000, TICK, 0, KA, WG_ZERO_KEYS_AFTER_MS },
	{ 35000, SENT_DATA, 0, 0, 50000 }, { 0, END, 0, 0, 0 },
};

TEST(scenarios)
{
	int failed = 0;

	failed |= run("idle_peer", 0, idle_peer);
	failed |= run("idle_after_handshake_zeroes_at_540s", 0, idle_after_handshake);
	failed |= run("one_sided_data_keepalive_at_10s", 0, one_sided_keepalive);
	failed |= run("no_reply_handshake_at_15s", 0, no_reply_handshake);
	failed |= run("rekey_at_120s_initiator", 0, rekey_initiator);
	failed |= run("no_rekey_by_time_responder", 0, no_rekey_responder);
	failed |= run("rekey_on_receive_at_165s", 0, rekey_on_receive);
	failed |= run("no_rekey_on_receive_responder", 0, rekey_on_receive_responder);
	failed |= run("persistent_keepalive_25s", 25, persistent_keepalive);
	CHECK(!failed);
}

/*
 * No answer to our initiations: retransmits every 5 s plus jitter, as the driver does
 * (attempts counted from 0, given up once past MAX_TIMER_HANDSHAKES = 90 / 5 = 18: the
 * first initiation and 19 retransmits, about 95 s), then the staged packets are dropped
 * and whatever is left is wiped 540 s later.
 */
TEST(handshake_gives_up)
{
	unsigned int actions, initiations = 0;
	uint64_t counter, now = 0, give_up = 0;

	wg_peer_init(&p, 0);
	CHECK(wg_peer_encrypt_slot(&p, now, &counter, &actions) == NULL);
	CHECK_EQ(actions, INIT);
	for (;;) {
		initiations++;
		wg_peer_sent(&p, WG_SENT_INITIATION, now, 333);
		CHECK_EQ(wg_peer_next_deadline(&p), now + 5333);
		now += 5333;
		actions = wg_peer_tick(&p, now, 0);
		if (actions & WG_ACT_DROP_STAGED)
			break;
		CHECK_EQ(actions, SRC | INIT);
		CHECK(initiations < 100);
	}
	CHECK_EQ(actions, WG_ACT_DROP_STAGED);
	CHECK_EQ(initiations, WG_MAX_TIMER_HANDSHAKES + 2);
	CHECK_EQ(WG_MAX_TIMER_HANDSHAKES, 18);
	give_up = now;
	CHECK_EQ(wg_peer_next_deadline(&p), give_up + WG_ZERO_KEYS_AFTER_MS);
	CHECK_EQ(wg_peer_tick(&p, give_up + WG_ZERO_KEYS_AFTER_MS, 0), WG_ACT_ZERO_KEYS);
	CHECK_EQ(wg_peer_next_deadline(&p), NONE);
	/* New data starts over, with a fresh count. */
	CHECK(wg_peer_encrypt_slot(&p, give_up + 600000, &counter, &actions) == NULL);
	CHECK_EQ(actions, INIT);
	CHECK_EQ(p.handshake_attempts, 0);
	/* A response ends the retransmits. */
	wg_peer_sent(&p, WG_SENT_INITIATION, give_up + 600000, 0);
	struct wg_keypair kp = { .initiator = true, .local_index = 1 };
	CHECK_EQ(wg_peer_install_keys(&p, &kp, give_up + 601000), STAGED);
	CHECK_EQ(wg_peer_next_deadline(&p), give_up + 601000 + WG_ZERO_KEYS_AFTER_MS);
}

TEST(initiation_rate_20ms)
{
	wg_peer_init(&p, 0);
	CHECK(wg_peer_initiation_allowed(&p, 0));
	wg_peer_initiation_received(&p, 1000);
	CHECK(!wg_peer_initiation_allowed(&p, 1000));
	CHECK(!wg_peer_initiation_allowed(&p, 1019));
	CHECK(wg_peer_initiation_allowed(&p, 1020));
}

static unsigned int install(bool initiator, uint32_t index, uint64_t now)
{
	struct wg_keypair kp = { .initiator = initiator, .local_index = index };

	kp.send_key[0] = (uint8_t)index;
	return wg_peer_install_keys(&p, &kp, now);
}

TEST(key_slots)
{
	const struct wg_keypair *kp;
	unsigned int actions;
	uint64_t counter;

	wg_peer_init(&p, 0);
	/* Responder: the new keys wait in next and encrypt nothing yet. */
	CHECK_EQ(install(false, 1, 0), 0);
	CHECK(wg_peer_encrypt_slot(&p, 0, &counter, &actions) == NULL);
	CHECK_EQ(wg_peer_decrypt_slot(&p, 1, 0), WG_SLOT_NEXT);
	CHECK_EQ(wg_peer_decrypt_slot(&p, 2, 0), -1);
	/* The first data under them promotes them. */
	CHECK_EQ(wg_peer_data_received(&p, WG_SLOT_NEXT, false, 10, 0), STAGED);
	CHECK_EQ(wg_peer_decrypt_slot(&p, 1, 10), WG_SLOT_CURRENT);
	kp = wg_peer_encrypt_slot(&p, 10, &counter, &actions);
	CHECK(kp && kp->send_key[0] == 1);
	CHECK_EQ(counter, 0);
	CHECK(wg_peer_encrypt_slot(&p, 10, &counter, &actions) == kp);
	CHECK_EQ(counter, 1);
	/* A second exchange as responder: current keeps encrypting until confirmed. */
	CHECK_EQ(install(false, 2, 1000), 0);
	kp = wg_peer_encrypt_slot(&p, 1000, &counter, &actions);
	CHECK(kp && kp->send_key[0] == 1);
	CHECK_EQ(wg_peer_data_received(&p, WG_SLOT_NEXT, true, 1001, 0), STAGED);
	CHECK_EQ(wg_peer_decrypt_slot(&p, 1, 1001), WG_SLOT_PREVIOUS);
	CHECK_EQ(wg_peer_decrypt_slot(&p, 2, 1001), WG_SLOT_CURRENT);
	/* As initiator the keys are current at once, the old current previous. */
	CHECK_EQ(install(true, 3, 2000), STAGED);
	CHECK_EQ(wg_peer_decrypt_slot(&p, 3, 2000), WG_SLOT_CURRENT);
	CHECK_EQ(wg_peer_decrypt_slot(&p, 2, 2000), WG_SLOT_PREVIOUS);
	CHECK_EQ(wg_peer_decrypt_slot(&p, 1, 2000), -1);
	/* A pending next when our own handshake completes becomes previous. */
	CHECK_EQ(install(false, 4, 3000), 0);
	CHECK_EQ(install(true, 5, 3001), STAGED);
	CHECK_EQ(wg_peer_decrypt_slot(&p, 4, 3001), WG_SLOT_PREVIOUS);
	CHECK_EQ(wg_peer_decrypt_slot(&p, 3, 3001), -1);
	/* Keys older than REJECT_AFTER_TIME decrypt nothing. */
	CHECK_EQ(wg_peer_decrypt_slot(&p, 5, 3001 + WG_REJECT_AFTER_TIME_MS - 1), WG_SLOT_CURRENT);
	CHECK_EQ(wg_peer_decrypt_slot(&p, 5, 3001 + WG_REJECT_AFTER_TIME_MS), -1);
}

TEST(expiry_by_message_count)
{
	uint64_t counter;
	unsigned int actions;

	wg_peer_init(&p, 0);
	CHECK_EQ(install(false, 1, 0), 0);
	CHECK_EQ(wg_peer_data_received(&p, WG_SLOT_NEXT, false, 0, 0), STAGED);
	/* Past REKEY_AFTER_MESSAGES either side asks for a handshake. */
	p.slot[WG_SLOT_CURRENT].send_counter = WG_REKEY_AFTER_MESSAGES;
	CHECK(wg_peer_encrypt_slot(&p, 1, &counter, &actions) != NULL);
	CHECK_EQ(actions, INIT);
	CHECK(counter == WG_REKEY_AFTER_MESSAGES);
	/* At REJECT_AFTER_MESSAGES the keys send nothing more. */
	p.slot[WG_SLOT_CURRENT].send_counter = WG_REJECT_AFTER_MESSAGES - 1;
	CHECK(wg_peer_encrypt_slot(&p, 2, &counter, &actions) != NULL);
	CHECK(wg_peer_encrypt_slot(&p, 2, &counter, &actions) == NULL);
	/* A receive window that saw the last counter refuses to decrypt more. */
	CHECK_EQ(wg_peer_decrypt_slot(&p, 1, 3), WG_SLOT_CURRENT);
	CHECK(replay_validate(&p.slot[WG_SLOT_CURRENT].replay, WG_REJECT_AFTER_MESSAGES - 1));
	CHECK_EQ(wg_peer_decrypt_slot(&p, 1, 3), -1);
}

/*
 * Two peers driven by each other's messages (no loss, no delay), both sending data every
 * second for 10 minutes: every packet finds keys and is accepted, the initiator rekeys
 * every 120 s or so, the responder never, and keys are never wiped while in use.
 */
struct side {
	struct wg_peer_state p;
	uint32_t index;		 /* our next receiver index */
	unsigned int handshakes; /* initiations we sent */
	unsigned int delivered, lost, zeroed;
};

static void handle(struct side *me, struct side *peer, unsigned int actions, uint64_t now);

/* One data packet (or keepalive) from me to peer. */
static bool send_packet(struct side *me, struct side *peer, bool keepalive, uint64_t now)
{
	const struct wg_keypair *kp;
	unsigned int actions;
	uint64_t counter;
	int slot;

	kp = wg_peer_encrypt_slot(&me->p, now, &counter, &actions);
	if (!kp) {
		handle(me, peer, actions, now);
		return false;
	}
	wg_peer_sent(&me->p, keepalive ? WG_SENT_KEEPALIVE : WG_SENT_DATA, now, counter & 0xff);
	slot = wg_peer_decrypt_slot(&peer->p, kp->remote_index, now);
	if (slot < 0 || !replay_validate(&peer->p.slot[slot].replay, counter)) {
		handle(me, peer, actions, now);
		return false;
	}
	handle(peer, me, wg_peer_data_received(&peer->p, slot, keepalive, now, 0), now);
	handle(me, peer, actions, now);
	return true;
}

/* A whole handshake from me: initiation, response, keys on both sides. */
static void handshake(struct side *me, struct side *peer, uint64_t now)
{
	struct wg_keypair ki = { .initiator = true }, kr = { .initiator = false };

	me->handshakes++;
	wg_peer_sent(&me->p, WG_SENT_INITIATION, now, me->handshakes);
	if (!wg_peer_initiation_allowed(&peer->p, now))
		return;
	wg_peer_initiation_received(&peer->p, now);
	ki.local_index = kr.remote_index = me->index++;
	kr.local_index = ki.remote_index = peer->index++;
	handle(peer, me, wg_peer_install_keys(&peer->p, &kr, now), now);
	wg_peer_sent(&peer->p, WG_SENT_RESPONSE, now, 0);
	handle(me, peer, wg_peer_install_keys(&me->p, &ki, now), now);
}

static void handle(struct side *me, struct side *peer, unsigned int actions, uint64_t now)
{
	if (actions & WG_ACT_ZERO_KEYS)
		me->zeroed++;
	if (actions & WG_ACT_SEND_INITIATION)
		handshake(me, peer, now);
	/* Nothing is staged here (lost packets are counted instead): confirm by keepalive. */
	if (actions & (WG_ACT_SEND_KEEPALIVE | WG_ACT_SEND_STAGED))
		send_packet(me, peer, true, now);
}

static void simulate(struct side *a, struct side *b, bool b_sends, uint64_t until)
{
	wg_peer_init(&a->p, 0);
	wg_peer_init(&b->p, 0);
	a->index = 100;
	b->index = 200;
	for (uint64_t now = 0; now <= until; now += 10) {
		if (now % 1000 == 0) {
			if (send_packet(a, b, false, now))
				a->delivered++;
			else if (now)
				a->lost++;
			if (b_sends && now >= 1000) {
				if (send_packet(b, a, false, now))
					b->delivered++;
				else
					b->lost++;
			}
		}
		if (wg_peer_next_deadline(&a->p) <= now)
			handle(a, b, wg_peer_tick(&a->p, now, (uint32_t)now), now);
		if (wg_peer_next_deadline(&b->p) <= now)
			handle(b, a, wg_peer_tick(&b->p, now, (uint32_t)now), now);
	}
}

TEST(two_peers_talking)
{
	struct side a = { 0 }, b = { 0 };

	simulate(&a, &b, true, 600000);
	/* The first packet starts the handshake; every later one gets through. */
	CHECK_EQ(a.lost, 0);
	CHECK_EQ(b.lost, 0);
	CHECK_EQ(a.delivered, 600);
	CHECK_EQ(b.delivered, 600);
	/* The first handshake, then one each REKEY_AFTER_TIME (at 120, 240, ... 600 s). */
	CHECK_EQ(a.handshakes, 1 + 600000 / WG_REKEY_AFTER_TIME_MS);
	CHECK_EQ(b.handshakes, 0);
	CHECK_EQ(a.zeroed + b.zeroed, 0);
}

/* Only one side has data: the other's keepalives keep the session, no extra handshakes. */
TEST(one_way_traffic)
{
	struct side a = { 0 }, b = { 0 };

	simulate(&a, &b, false, 600000);
	CHECK_EQ(a.lost, 0);
	CHECK_EQ(a.delivered, 600);
	CHECK_EQ(a.handshakes, 1 + 600000 / WG_REKEY_AFTER_TIME_MS);
	CHECK_EQ(b.handshakes, 0);
	CHECK_EQ(a.zeroed + b.zeroed, 0);
}

int main(void)
{
	check_prefix = "wg_timers";
	RUN(scenarios);
	RUN(handshake_gives_up);
	RUN(initiation_rate_20ms);
	RUN(key_slots);
	RUN(expiry_by_message_count);
	RUN(two_peers_talking);
	RUN(one_way_traffic);
	return check_summary();
}
