/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two struct ppp wired to each other in memory through packet queues, with a virtual
 * clock: what the daemon does with real PPPoE frames and timers. Shared by the PPP
 * link, LCP, IPCP and IPv6CP tests.
 */
#ifndef PXP_TEST_PPP_HARNESS_H
#define PXP_TEST_PPP_HARNESS_H

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "ppp.h"
#include "pppoe_wire.h"

#define H_QUEUE	 256
#define H_EVENTS 32

struct h_pkt {
	uint16_t proto;
	size_t len;
	uint8_t data[FSM_MAX_PACKET];
};

struct h_side {
	struct ppp ppp;
	struct h_side *peer; /* NULL: frames vanish (a cut wire) */
	struct h_pkt q[H_QUEUE];
	unsigned int head, tail;
	uint64_t rng;
	int events[H_EVENTS], reasons[H_EVENTS];
	int nevents;
	/* Everything sent, by protocol and code (first byte), for assertions. */
	unsigned int sent[8][256];
	const char *secret;   /* server: the secret of user "alice" */
	struct h_pkt log[16]; /* the last packets sent, for scripted peers */
	unsigned int nlog;
	unsigned int bad_sends; /* control packets shorter than a header or too long */
};

static uint64_t h_now;

static inline unsigned int h_proto_slot(uint16_t proto)
{
	switch (proto) {
	case PPP_PROTO_LCP:
		return 0;
	case PPP_PROTO_IPCP:
		return 1;
	case PPP_PROTO_IPV6CP:
		return 2;
	case PPP_PROTO_PAP:
		return 3;
	case PPP_PROTO_CHAP:
		return 4;
	default:
		return 5;
	}
}

static inline void h_send(void *ctx, uint16_t proto, const uint8_t *data, size_t len)
{
	struct h_side *s = ctx;
	struct h_pkt *pkt;

	if (len)
		s->sent[h_proto_slot(proto)][data[0]]++;
	if (len < 4 || len > FSM_MAX_PACKET || (size_t)(data[2] << 8 | data[3]) != len)
		s->bad_sends++;
	if (len <= FSM_MAX_PACKET) {
		pkt = &s->log[s->nlog++ % 16];
		pkt->proto = proto;
		pkt->len = len;
		memcpy(pkt->data, data, len);
	}
	if (!s->peer || s->tail - s->head >= H_QUEUE || len > FSM_MAX_PACKET)
		return;
	pkt = &s->q[s->tail++ % H_QUEUE];
	pkt->proto = proto;
	pkt->len = len;
	memcpy(pkt->data, data, len);
}

static inline void h_event(void *ctx, enum ppp_event ev, int reason)
{
	struct h_side *s = ctx;

	if (s->nevents < H_EVENTS) {
		s->events[s->nevents] = ev;
		s->reasons[s->nevents] = reason;
		s->nevents++;
	}
}

static inline void h_random(void *ctx, void *buf, size_t len)
{
	struct h_side *s = ctx;
	uint8_t *b = buf;

	for (size_t i = 0; i < len; i++) {
		s->rng ^= s->rng << 13;
		s->rng ^= s->rng >> 7;
		s->rng ^= s->rng << 17;
		b[i] = (uint8_t)s->rng;
	}
}

static inline int h_get_secret(void *ctx, const char *user, uint8_t *secret, size_t cap)
{
	struct h_side *s = ctx;
	size_t len = strlen(s->secret);

	if (strcmp(user, "alice") != 0 || len > cap)
		return -ENOENT;
	memcpy(secret, s->secret, len);
	return (int)len;
}

static const struct ppp_callbacks h_callbacks = {
	.send = h_send,
	.event = h_event,
	.random = h_random,
	.get_secret = h_get_secret,
};

static inline void h_client_config(struct ppp_config *c, const char *password)
{
	memset(c, 0, sizeof(*c));
	c->role = PPP_ROLE_CLIENT;
	strcpy(c->user, "alice");
	c->password_len = strlen(password);
	memcpy(c->password, password, c->password_len);
	c->ipv6 = true;
}

static inline void h_server_config(struct ppp_config *c, enum ppp_auth_proto auth)
{
	memset(c, 0, sizeof(*c));
	c->role = PPP_ROLE_SERVER;
	c->require_auth = auth;
	strcpy(c->server_name, "pxl-ac");
	c->local_ip = htonl(0x0a000001);
	c->peer_ip = htonl(0x0a000002);
	c->dns[0] = htonl(0x08080808);
	c->dns[1] = htonl(0x01010101);
	c->ipv6 = true;
}

static inline int h_init(struct h_side *s, const struct ppp_config *cfg, uint64_t seed)
{
	struct ppp_callbacks cb = h_callbacks;

	memset(s, 0, sizeof(*s));
	s->rng = seed;
	s->secret = "s3cret";
	cb.ctx = s;
	return ppp_init(&s->ppp, cfg, &cb);
}

static inline void h_wire(struct h_side *a, struct h_side *b)
{
	a->peer = b;
	b->peer = a;
}

/* Delivers one queued packet of s to its peer; returns false if none was queued. */
static inline bool h_deliver_one(struct h_side *s)
{
	struct h_pkt pkt;

	if (s->head == s->tail)
		return false;
	pkt = s->q[s->head++ % H_QUEUE];
	if (s->peer)
		ppp_input(&s->peer->ppp, h_now, pkt.proto, pkt.data, pkt.len);
	return true;
}

static inline uint64_t h_min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Runs both sides (b may be NULL) until the clock reaches until_ms. */
static inline void h_run(struct h_side *a, struct h_side *b, uint64_t until_ms)
{
	for (int guard = 0; guard < 200000; guard++) {
		bool moved = h_deliver_one(a);
		uint64_t next;

		if (b)
			moved |= h_deliver_one(b);
		if (moved)
			continue;
		next = ppp_deadline(&a->ppp);
		if (b)
			next = h_min(next, ppp_deadline(&b->ppp));
		if (next > until_ms) {
			h_now = until_ms;
			return;
		}
		if (next > h_now)
			h_now = next;
		ppp_timer(&a->ppp, h_now);
		if (b)
			ppp_timer(&b->ppp, h_now);
	}
}

static inline int h_count(const struct h_side *s, enum ppp_event ev)
{
	int n = 0;

	for (int i = 0; i < s->nevents; i++)
		n += s->events[i] == (int)ev;
	return n;
}

/* The reason of the first LINK_DOWN, or -1. */
static inline int h_down_reason(const struct h_side *s)
{
	for (int i = 0; i < s->nevents; i++)
		if (s->events[i] == PPP_EV_LINK_DOWN)
			return s->reasons[i];
	return -1;
}

/* Brings a and b up from a standing start. */
static inline void h_start(struct h_side *a, struct h_side *b)
{
	h_now = 1000;
	h_wire(a, b);
	ppp_lower_up(&a->ppp, h_now);
	ppp_lower_up(&b->ppp, h_now);
	h_run(a, b, h_now + 1000);
}

/* Injects a raw packet into s. */
static inline void h_inject(struct h_side *s, uint16_t proto, const void *data, size_t len)
{
	ppp_input(&s->ppp, h_now, proto, data, len);
}

/* The last packet s sent with this protocol and code (0 = any code), or NULL. */
static inline const struct h_pkt *h_last(const struct h_side *s, uint16_t proto, uint8_t code)
{
	for (unsigned int i = 0; i < 16 && i < s->nlog; i++) {
		const struct h_pkt *pkt = &s->log[(s->nlog - 1 - i) % 16];

		if (pkt->proto == proto && pkt->len >= 4 && (!code || pkt->data[0] == code))
			return pkt;
	}
	return NULL;
}

/* Injects a control packet: code, id, length, then data. */
static inline void h_packet(struct h_side *s, uint16_t proto, uint8_t code, uint8_t id,
			    const uint8_t *data, size_t len)
{
	uint8_t pkt[FSM_MAX_PACKET];

	pkt[0] = code;
	pkt[1] = id;
	pkt[2] = (uint8_t)((len + 4) >> 8);
	pkt[3] = (uint8_t)(len + 4);
	if (len)
		memcpy(pkt + 4, data, len);
	h_inject(s, proto, pkt, len + 4);
}

/* Acks the last Configure-Request s sent for proto, as a peer would. */
static inline void h_ack_last_request(struct h_side *s, uint16_t proto)
{
	const struct h_pkt *req = h_last(s, proto, FSM_CONF_REQ);
	struct h_pkt copy;

	if (!req)
		return;
	copy = *req;
	h_packet(s, proto, FSM_CONF_ACK, copy.data[1], copy.data + 4, copy.len - 4);
}

/* A scripted peer opens LCP with s: its request holds peer_opts. */
static inline void h_lcp_open(struct h_side *s, const uint8_t *peer_opts, size_t len)
{
	h_now = 1000;
	ppp_lower_up(&s->ppp, h_now);
	h_packet(s, PPP_PROTO_LCP, FSM_CONF_REQ, 0x50, peer_opts, len);
	h_ack_last_request(s, PPP_PROTO_LCP);
}

/* The options of the last Configure-Request s sent for proto. */
static inline const uint8_t *h_last_request(const struct h_side *s, uint16_t proto, size_t *len)
{
	const struct h_pkt *req = h_last(s, proto, FSM_CONF_REQ);

	if (!req)
		return NULL;
	*len = req->len - 4;
	return req->data + 4;
}

#endif
