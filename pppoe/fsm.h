/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RFC 1661 option-negotiation automaton (section 4), written once and shared by LCP,
 * IPCP and IPv6CP. A protocol plugs in through struct fsm_ops: it builds our
 * Configure-Request, judges the peer's options one by one, and learns from Nak and Reject.
 * The automaton owns identifiers, the restart timer and counters, packet framing and the
 * state table; it validates every packet before a protocol sees it.
 *
 * Core convention: no sockets, clocks, logging or allocation; time comes in as now_ms.
 * Concurrency: single-threaded. Callbacks run inside fsm_*() and must not re-enter the
 * same automaton (the PPP link defers such work until the call returns).
 */
#ifndef PXP_FSM_H
#define PXP_FSM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Packet codes (RFC 1661 section 5); 8-11 exist in LCP only. */
#define FSM_CONF_REQ	1
#define FSM_CONF_ACK	2
#define FSM_CONF_NAK	3
#define FSM_CONF_REJ	4
#define FSM_TERM_REQ	5
#define FSM_TERM_ACK	6
#define FSM_CODE_REJ	7
#define LCP_PROTO_REJ	8
#define LCP_ECHO_REQ	9
#define LCP_ECHO_REPLY	10
#define LCP_DISCARD_REQ 11

#define FSM_HDR_LEN	   4
/*
 * Largest control packet we build or accept: the PPPoE payload of a 1500-byte MTU link.
 * (The negotiated MRU may be larger with RFC 4638; it bounds data, not control packets.)
 */
#define FSM_MAX_PACKET	   1500
/* Our own Configure-Request options are a handful of fixed-size options. */
#define FSM_MAX_REQUEST	   64
/*
 * How long the peer's first Configure-Request gives it to answer ours before we send ours
 * again (see answer_due): a loaded AC answers within a few ms; pppd never does.
 */
#define FSM_PEER_ANSWER_MS 20

enum fsm_state {
	FSM_INITIAL,
	FSM_STARTING,
	FSM_CLOSED,
	FSM_STOPPED,
	FSM_CLOSING,
	FSM_STOPPING,
	FSM_REQ_SENT,
	FSM_ACK_RCVD,
	FSM_ACK_SENT,
	FSM_OPENED,
	FSM_STATE_COUNT,
};

/* Why the automaton reached this-layer-finished on its own (not by Close or Down). */
enum fsm_cause {
	FSM_CAUSE_NONE,
	FSM_CAUSE_TIMEOUT,	  /* Max-Configure or Max-Terminate exhausted */
	FSM_CAUSE_PEER_TERMINATE, /* Terminate-Request received */
	FSM_CAUSE_REJECTED,	  /* catastrophic Code-Reject or Protocol-Reject (RXJ-) */
	FSM_CAUSE_NOT_CONVERGING, /* Nak/Reject loop bound hit, or a needed option refused */
};

/* A protocol's verdict on one option of the peer's Configure-Request. */
enum fsm_verdict {
	FSM_ACK,
	FSM_NAK, /* the protocol wrote the value it wants instead */
	FSM_REJ,
};

/* Input dropped (or only answered with a Code-Reject), by reason. */
enum fsm_drop {
	/* Malformed: */
	FSM_DROP_HEADER,	 /* shorter than the header, or Length out of range */
	FSM_DROP_OPTIONS,	 /* an option overruns the list or is shorter than 2 */
	FSM_DROP_FIELD,		 /* a code's fixed field is missing (Magic, protocol, code) */
	FSM_DROP_ACK_MISMATCH,	 /* Configure-Ack that does not repeat our request */
	FSM_DROP_REJECT_FOREIGN, /* Configure-Reject of options we did not send */
	/* Well-formed but not for us now: */
	FSM_DROP_STALE_ID,     /* a reply to a request other than our last */
	FSM_DROP_STATE,	       /* not valid in this state (or an illegal event) */
	FSM_DROP_UNKNOWN_CODE, /* answered with Code-Reject */
	FSM_DROP_COUNT,
};

#define FSM_DROP_LAST_MALFORMED FSM_DROP_REJECT_FOREIGN

struct fsm;

struct fsm_ops {
	/* A new negotiation begins: forget what was agreed or refused before. */
	void (*reset)(struct fsm *f);
	/* Write the options of our Configure-Request into buf; returns their length. */
	size_t (*build_request)(struct fsm *f, uint8_t *buf, size_t cap);
	/* Called before the options of one peer Configure-Request are judged. */
	void (*request_begin)(struct fsm *f);
	/*
	 * Judge one option (val/len is its value, without type and length). For FSM_NAK,
	 * write the wanted value into nak (at most 253 bytes) and its length into *nak_len.
	 */
	enum fsm_verdict (*request_option)(struct fsm *f, uint8_t type, const uint8_t *val,
					   size_t len, uint8_t *nak, size_t *nak_len);
	/*
	 * After all options: ask for options the peer must send but did not, through
	 * fsm_nak_missing(). May be NULL.
	 */
	void (*request_end)(struct fsm *f);
	/* The peer Nak'd or suggested an option: 0, or -EPROTO when we cannot go on. */
	int (*nak_option)(struct fsm *f, uint8_t type, const uint8_t *val, size_t len);
	/* The peer rejected one of our options: 0, or -EPROTO when we need it. */
	int (*reject_option)(struct fsm *f, uint8_t type);
	void (*up)(struct fsm *f);	 /* this-layer-up */
	void (*down)(struct fsm *f);	 /* this-layer-down (state is still the old one) */
	void (*started)(struct fsm *f);	 /* this-layer-started */
	void (*finished)(struct fsm *f); /* this-layer-finished */
	/* LCP only (NULL otherwise): Echo-Request, Echo-Reply, Discard-Request in Opened. */
	void (*rx_echo)(struct fsm *f, uint8_t code, uint8_t id, const uint8_t *data, size_t len);
	/* LCP only: a Protocol-Reject in Opened; returns true when it is catastrophic. */
	bool (*rx_protocol_reject)(struct fsm *f, uint16_t proto);
};

struct fsm_config {
	uint16_t proto;
	const char *name;
	const struct fsm_ops *ops;
	void *ctx; /* the protocol's owner, for the callbacks */
	void (*send)(void *ctx, uint16_t proto, const uint8_t *data, size_t len);
	uint32_t restart_ms;	/* 0 = 3000 */
	uint32_t max_configure; /* 0 = 10 */
	uint32_t max_terminate; /* 0 = 2 */
	uint32_t max_failure;	/* 0 = 5 */
};

struct fsm {
	uint16_t proto;
	const char *name;
	const struct fsm_ops *ops;
	void *ctx;
	void (*send)(void *ctx, uint16_t proto, const uint8_t *data, size_t len);
	uint32_t restart_ms, max_configure, max_terminate, max_failure;

	enum fsm_state state;
	enum fsm_cause cause;
	uint32_t restart_count;
	uint64_t deadline; /* restart timer; UINT64_MAX when stopped */
	uint64_t now_ms;   /* time of the event being handled */
	uint8_t next_id;
	uint8_t req_id; /* identifier of our last Configure-Request */
	uint8_t req[FSM_MAX_REQUEST];
	size_t req_len;
	uint32_t naks_sent;	/* Configure-Naks sent since our last Configure-Ack */
	uint32_t naks_received; /* Configure-Nak/Reject received since the last Ack */
	uint16_t peer_mru;	/* bounds what we echo back in rejects */
	const char *term_text;	/* carried by our Terminate-Requests, for the peer's log */
	/*
	 * Nothing received from the peer since this negotiation began. On PPPoE our first
	 * Configure-Request often goes out before the peer (pppd's kernel channel) listens.
	 * The peer's own first request tells us it listens now, not whether it heard ours:
	 * the restart timer is cut to FSM_PEER_ANSWER_MS (answer_due). A peer that heard ours
	 * answers it well within that (our AC, BNG Blaster: under a millisecond) and nothing
	 * goes out twice; pppd, which did not, gets ours again then instead of after the
	 * restart timer (3 s, measured).
	 */
	bool peer_silent;
	bool answer_due;

	/* Reply being built for the peer's Configure-Request. */
	uint8_t *nak_buf;
	size_t nak_len;
	bool nak_overflow;

	uint64_t drops[FSM_DROP_COUNT];
};

int fsm_init(struct fsm *f, const struct fsm_config *cfg);
/* Back to Initial without actions (a fresh session). */
void fsm_reset(struct fsm *f);
void fsm_up(struct fsm *f, uint64_t now_ms);
void fsm_down(struct fsm *f, uint64_t now_ms);
void fsm_open(struct fsm *f, uint64_t now_ms);
void fsm_close(struct fsm *f, uint64_t now_ms);
/* Receive Code-Reject/Protocol-Reject of this protocol: catastrophic = RXJ-. */
void fsm_rxj(struct fsm *f, uint64_t now_ms, bool catastrophic);
/* One packet of this protocol (code, id, length, data). */
void fsm_input(struct fsm *f, uint64_t now_ms, const uint8_t *data, size_t len);
void fsm_timer(struct fsm *f, uint64_t now_ms);
uint64_t fsm_deadline(const struct fsm *f);
/* Send a packet of this protocol with a fresh identifier (LCP Echo); returns the id. */
uint8_t fsm_send_packet(struct fsm *f, uint8_t code, const uint8_t *data, size_t len);
/* Send a packet answering identifier id (Echo-Reply, Protocol-Reject). */
void fsm_send_reply(struct fsm *f, uint8_t code, uint8_t id, const uint8_t *data, size_t len);
/* From request_end: Nak an option the peer did not send (RFC 1332 IP-Address). */
void fsm_nak_missing(struct fsm *f, uint8_t type, const uint8_t *val, size_t len);
const char *fsm_state_name(enum fsm_state s);
const char *fsm_drop_name(enum fsm_drop d);
/* Sums of drops[]: malformed input, and well-formed input we could not use. */
uint64_t fsm_malformed(const struct fsm *f);
uint64_t fsm_ignored(const struct fsm *f);

#endif
