/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PPP link above one PPPoE session: LCP, authentication, IPCP and IPv6CP, driven as a
 * pure core (see the protocol core convention: time passed in, frames and events out
 * through callbacks, no sockets). The daemon feeds it the PPP packets of its session and
 * sends what it emits inside PPPoE session frames.
 *
 * Concurrency: single-threaded; every function must be called from the daemon's loop.
 */
#ifndef PXP_PPP_H
#define PXP_PPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ppp_types.h"

enum ppp_role {
	PPP_ROLE_CLIENT, /* authenticates to the peer; takes addresses from it */
	PPP_ROLE_SERVER, /* requires authentication; hands out addresses */
};

enum ppp_event {
	PPP_EV_AUTH_OK,	  /* authentication finished successfully (either role) */
	PPP_EV_IPV4_UP,	  /* IPCP opened: ppp_get_status() has addresses and DNS */
	PPP_EV_IPV4_DOWN, /* IPCP left Opened */
	PPP_EV_IPV6_UP,	  /* IPv6CP opened: interface identifiers known */
	PPP_EV_IPV6_DOWN,
	PPP_EV_LINK_DOWN, /* LCP finished: end the PPPoE session; reason says why */
};

enum ppp_down_reason {
	PPP_DOWN_NONE,
	PPP_DOWN_ADMIN,		 /* ppp_close() */
	PPP_DOWN_LOWER,		 /* ppp_lower_down(): PADT or lost carrier */
	PPP_DOWN_PEER_TERMINATE, /* peer sent LCP Terminate-Request */
	PPP_DOWN_ECHO_TIMEOUT,	 /* keepalive: too many unanswered Echo-Requests */
	PPP_DOWN_AUTH_FAILED,	 /* we failed, or the peer failed, authentication */
	PPP_DOWN_NEGOTIATION,	 /* LCP did not converge (Max-Configure/Max-Failure) */
	PPP_DOWN_LOOPBACK,	 /* Magic-Number shows a looped-back link */
	PPP_DOWN_NO_NETWORK,	 /* no network protocol (IPCP/IPv6CP) could open */
};

/* The reason in words, for logs, status and a PADT; the same for either role. */
const char *ppp_down_reason_text(enum ppp_down_reason reason);

struct ppp_callbacks {
	void *ctx;
	/* Send one PPP packet: protocol number and information field (no PPPoE header). */
	void (*send)(void *ctx, uint16_t proto, const uint8_t *data, size_t len);
	/* A state change the daemon acts on; reason is an enum ppp_down_reason or 0. */
	void (*event)(void *ctx, enum ppp_event ev, int reason);
	void (*random)(void *ctx, void *buf, size_t len);
	/*
	 * Server only: copy the secret for (user) into secret[cap]; returns its length or
	 * -ENOENT. The caller wipes it after use.
	 */
	int (*get_secret)(void *ctx, const char *user, uint8_t *secret, size_t cap);
};

struct ppp_config {
	enum ppp_role role;
	/* The MRU we ask for (0 = 1492); more with RFC 4638 PPP-Max-Payload; at least 128. */
	uint16_t mru;

	/* Client: credentials; copied by ppp_init(). */
	char user[PPP_NAME_MAX + 1];
	uint8_t password[PPP_SECRET_MAX];
	size_t password_len;

	/* Server: what the peer must do and what it gets (addresses in network order). */
	enum ppp_auth_proto require_auth;
	char server_name[PPP_NAME_MAX + 1]; /* our CHAP name */
	uint32_t local_ip;
	uint32_t peer_ip;
	uint32_t dns[2]; /* 0 = none */

	bool ipv6; /* run IPv6CP too */

	/* Keepalive: 0 interval disables it; adaptive = no Echo while data flows. */
	uint32_t echo_interval_ms;
	uint32_t echo_max_failures;
	bool echo_adaptive;

	/* RFC 1661 restart timer and counters; 0 picks the RFC default (3 s, 10, 2, 5). */
	uint32_t restart_ms;
	uint32_t max_configure;
	uint32_t max_terminate;
	uint32_t max_failure;
};

#define PPP_AUTH_MESSAGE_MAX 160

struct ppp_status {
	const char *phase;     /* RFC 1661 phase: "Dead", "Establish", ... "Terminate" */
	const char *lcp_state; /* RFC 1661 state names: "Initial" ... "Opened" */
	const char *ipcp_state;
	const char *ipv6cp_state;
	uint16_t local_mru; /* what the peer agreed to send us */
	uint16_t peer_mru;  /* the most we may send: the session MTU */
	enum ppp_auth_proto auth;
	char peer_name[PPP_NAME_MAX + 1];	 /* authenticated user (server role) */
	char auth_message[PPP_AUTH_MESSAGE_MAX]; /* the auth core's result in words, or "" */
	uint32_t local_ip, peer_ip, dns[2];	 /* network order, 0 = unknown */
	uint8_t local_ifid[8], peer_ifid[8];
	uint32_t echo_sent, echo_replies, echo_missed;
	uint64_t rx_malformed;	  /* dropped: lengths or fields out of bounds */
	uint64_t rx_proto_reject; /* unknown protocols answered with Protocol-Reject */
	uint64_t rx_ignored;	  /* well-formed but not for the current state */
};

/* The struct definitions need the types above; they belong to the core. */
#include "ppp_internal.h" /* struct ppp: owned by the PPP core, opaque to the daemon */

/* 0, or -EINVAL for a missing callback or a bad value (MRU below 128, no get_secret). */
int ppp_init(struct ppp *p, const struct ppp_config *cfg, const struct ppp_callbacks *cb);
/* Wipe secrets held by the link. */
void ppp_destroy(struct ppp *p);
/*
 * The PPPoE session is established: LCP starts negotiating. After PPP_EV_LINK_DOWN the
 * same struct may start a new session with another ppp_lower_up().
 */
void ppp_lower_up(struct ppp *p, uint64_t now_ms);
/* The PPPoE session is gone (PADT): no Terminate is sent; LINK_DOWN (LOWER) if it was up. */
void ppp_lower_down(struct ppp *p, uint64_t now_ms);
/*
 * Administrative close: LCP Terminate-Request; PPP_EV_LINK_DOWN (ADMIN) follows. A no-op
 * once LINK_DOWN was reported (or before ppp_lower_up()).
 */
void ppp_close(struct ppp *p, uint64_t now_ms);
/*
 * LCP is ending the link (our Terminate-Request is out, or the peer's was acknowledged):
 * PPP_EV_LINK_DOWN follows, whoever began it (ppp_close(), an echo timeout, failed
 * authentication, the peer).
 */
bool ppp_terminating(const struct ppp *p);
/* One PPP packet of the session (protocol field removed); anything is safe to pass. */
void ppp_input(struct ppp *p, uint64_t now_ms, uint16_t proto, const uint8_t *data, size_t len);
/*
 * Data frames arrived from the peer: adaptive keepalive skips the next Echo. Call it for
 * received traffic only; what we send proves nothing about the peer.
 */
void ppp_data_seen(struct ppp *p, uint64_t now_ms);
void ppp_timer(struct ppp *p, uint64_t now_ms);
uint64_t ppp_deadline(const struct ppp *p);
void ppp_get_status(const struct ppp *p, struct ppp_status *st);
/*
 * Server role: the address IPCP offers the peer (network order), chosen once the peer's
 * name is known. Call it from PPP_EV_AUTH_OK, before IPCP starts.
 */
void ppp_set_peer_ip(struct ppp *p, uint32_t peer_ip);

#endif
