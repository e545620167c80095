// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for PPPoE discovery: the frame parser, the client in each state
 * and the access concentrator (with one live session) get arbitrary frames.
 *
 * Input: byte 0 picks the target (see enum target); the rest is a sequence of
 * frames, each a 2-byte big-endian length and that many bytes (a short tail is one
 * last frame). The clock advances 700 ms per frame and due timers run, so retry and
 * timeout paths are reached too. The AC also takes each frame as a session frame of an
 * unknown session (its PADT path). Invariants are checked after every frame.
 * Fixed MACs, Host-Uniq and random bytes let seed frames match (see corpus/).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "discovery.h"

enum target {
	TARGET_PARSE,
	TARGET_CLIENT_PADI_SENT,
	TARGET_CLIENT_PADR_SENT,
	TARGET_CLIENT_SESSION,
	TARGET_CLIENT_DISCOVERING,
	TARGET_AC,
	TARGET_COUNT
};

static const uint8_t client_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t ac_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x0a, 0x01 };
static const uint8_t host_uniq[4] = { 0x01, 0x02, 0x03, 0x04 };
#define FUZZ_SESSION_ID 0x1234

static uint8_t fill_byte;
static uint8_t last_sent[PPPOE_DISC_FRAME_MAX];
static size_t last_sent_len;

static int fuzz_send(void *ctx, const void *frame, size_t len)
{
	struct pppoe_disc_frame f;

	(void)ctx;
	/* Everything a core sends must parse back. */
	if (len > PPPOE_DISC_FRAME_MAX || pppoe_disc_parse(frame, len, &f, NULL))
		__builtin_trap();
	memcpy(last_sent, frame, len);
	last_sent_len = len;
	return 0;
}

static void fuzz_random(void *ctx, void *buf, size_t len)
{
	(void)ctx;
	memset(buf, fill_byte++, len);
}

static void client_event(void *ctx, const struct disc_client_event *ev)
{
	(void)ctx;
	if (memchr(ev->message, '\0', sizeof(ev->message)) == NULL ||
	    memchr(ev->ac_name, '\0', sizeof(ev->ac_name)) == NULL)
		__builtin_trap();
}

static void ac_event(void *ctx, const struct disc_ac_event *ev)
{
	(void)ctx;
	if (!ev->session_id || ev->session_id == 0xffff)
		__builtin_trap();
}

static int feed_client_frame(struct disc_client *c, uint8_t code, uint16_t sid)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	struct pppoe_builder b;
	int len;

	pppoe_build_begin(&b, buf, sizeof(buf), client_mac, ac_mac, code, sid);
	pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, "", 0);
	pppoe_build_tag(&b, PPPOE_TAG_AC_NAME, "fuzz-ac", 7);
	pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, host_uniq, sizeof(host_uniq));
	pppoe_build_tag(&b, PPPOE_TAG_AC_COOKIE, "cookie", 6);
	pppoe_build_tag_u16(&b, PPPOE_TAG_PPP_MAX_PAYLOAD, 1500);
	len = pppoe_build_finish(&b);
	return disc_client_input(c, 0, buf, (size_t)len);
}

static int setup_client(struct disc_client *c, enum target t)
{
	struct disc_client_config cfg = {
		.host_uniq = host_uniq,
		.host_uniq_len = sizeof(host_uniq),
		.max_payload = 1500,
		.initial_timeout_ms = 1000,
		.discover_window_ms = 3000,
	};
	struct disc_client_ops ops = {
		.io = { .send = fuzz_send, .random = fuzz_random },
		.event = client_event,
	};

	memcpy(cfg.local_mac, client_mac, 6);
	if (disc_client_init(c, &cfg, &ops))
		return -1;
	if (t == TARGET_CLIENT_DISCOVERING)
		return disc_client_start_discover(c, 0);
	if (disc_client_start(c, 0))
		return -1;
	if (t >= TARGET_CLIENT_PADR_SENT && feed_client_frame(c, PPPOE_CODE_PADO, 0))
		return -1;
	if (t >= TARGET_CLIENT_SESSION && feed_client_frame(c, PPPOE_CODE_PADS, FUZZ_SESSION_ID))
		return -1;
	return 0;
}

static void check_client(const struct disc_client *c)
{
	enum disc_client_state s = disc_client_state(c);
	bool timed = s == DISC_CLIENT_PADI_SENT || s == DISC_CLIENT_PADR_SENT ||
		     s == DISC_CLIENT_DISCOVERING;

	if (timed != (disc_client_deadline(c) != UINT64_MAX))
		__builtin_trap();
	if (s == DISC_CLIENT_SESSION && !c->session_id)
		__builtin_trap();
	if (c->found_count > DISC_DISCOVER_MAX_ACS)
		__builtin_trap();
}

static int setup_ac(struct disc_ac *ac)
{
	struct disc_ac_config cfg = {
		.ac_name = "fuzz-ac",
		.max_sessions = 4,
		.max_payload = 1500,
	};
	struct disc_ac_ops ops = {
		.io = { .send = fuzz_send, .random = fuzz_random },
		.event = ac_event,
	};
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	struct pppoe_disc_frame pado;
	struct pppoe_builder b;
	int len;

	memcpy(cfg.local_mac, ac_mac, 6);
	if (disc_ac_init(ac, &cfg, &ops))
		return -1;
	/* One real session from client_mac, so PADT and PADR-retry paths have a target. */
	pppoe_build_begin(&b, buf, sizeof(buf), (const uint8_t *)"\xff\xff\xff\xff\xff\xff",
			  client_mac, PPPOE_CODE_PADI, 0);
	pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, "", 0);
	len = pppoe_build_finish(&b);
	if (disc_ac_input(ac, 0, buf, (size_t)len) ||
	    pppoe_disc_parse(last_sent, last_sent_len, &pado, NULL))
		return -1;
	pppoe_build_begin(&b, buf, sizeof(buf), ac_mac, client_mac, PPPOE_CODE_PADR, 0);
	pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, "", 0);
	pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, host_uniq, sizeof(host_uniq));
	pppoe_build_tag(&b, PPPOE_TAG_AC_COOKIE, pado.ac_cookie.data, pado.ac_cookie.len);
	len = pppoe_build_finish(&b);
	if (disc_ac_input(ac, 0, buf, (size_t)len) || ac->session_count != 1)
		return -1;
	return 0;
}

/* A per-MAC rate table stays bounded and its recency list whole. */
static void check_rate(const struct disc_rate_limit *l)
{
	unsigned int n = 0;

	for (uint16_t e = l->rate_oldest; e != DISC_AC_RATE_NONE; e = l->rate_macs[e].newer)
		if (++n > DISC_AC_RATE_MACS)
			__builtin_trap();
	if (n != l->rate_mac_count)
		__builtin_trap();
}

static void check_ac(const struct disc_ac *ac)
{
	unsigned int i, n = 0;

	for (i = 0; i < DISC_AC_MAX_SESSIONS; i++) {
		uint16_t id = ac->sessions[i].session_id;

		n += id != 0;
		/* The index by id finds every session at its slot. */
		if (id && ac->slot_by_id[id] != i + 1)
			__builtin_trap();
	}
	if (n != ac->session_count || n > ac->max_sessions)
		__builtin_trap();
	/* The chains by MAC hold every session once. */
	n = 0;
	for (i = 0; i < DISC_AC_RATE_MACS; i++)
		for (uint16_t s = ac->slot_by_mac[i]; s; s = ac->sessions[s - 1].mac_next)
			if (++n > DISC_AC_MAX_SESSIONS)
				__builtin_trap();
	if (n != ac->session_count)
		__builtin_trap();
	check_rate(&ac->rate);
	check_rate(&ac->padt_rate);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct disc_client client;
	static struct disc_ac ac;
	struct pppoe_disc_frame f;
	enum target t;
	uint64_t now = 0;

	if (size < 1)
		return 0;
	t = (enum target)(data[0] % TARGET_COUNT);
	data++;
	size--;
	fill_byte = 0x5a;
	if (t == TARGET_PARSE) {
		pppoe_disc_parse(data, size, &f, NULL);
		return 0;
	}
	if (t == TARGET_AC ? setup_ac(&ac) : setup_client(&client, t))
		__builtin_trap();

	while (size) {
		size_t len = size;

		if (size >= 2) {
			len = (size_t)(data[0] << 8 | data[1]);
			data += 2;
			size -= 2;
			if (len > size)
				len = size;
		}
		now += 700;
		if (t == TARGET_AC) {
			disc_ac_input(&ac, now, data, len);
			/* As a session frame of an unknown session (source MAC, session id). */
			if (len >= 18 && !disc_ac_find(&ac, (uint16_t)(data[16] << 8 | data[17])))
				disc_ac_unknown_session(&ac, now, data + 6,
							(uint16_t)(data[16] << 8 | data[17]));
			check_ac(&ac);
		} else {
			disc_client_input(&client, now, data, len);
			if (now >= disc_client_deadline(&client))
				disc_client_timer(&client, now);
			check_client(&client);
		}
		data += len;
		size -= len;
	}
	if (t == TARGET_AC) {
		/* Shutdown path: close every session, then wipe. */
		for (unsigned int i = 0; i < DISC_AC_MAX_SESSIONS; i++)
			if (ac.sessions[i].session_id)
				disc_ac_close_session(&ac, ac.sessions[i].session_id, "fuzz");
		check_ac(&ac);
		disc_ac_destroy(&ac);
	} else {
		disc_client_stop(&client, now);
	}
	return 0;
}
