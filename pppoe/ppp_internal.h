/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct ppp and the interfaces between the link (ppp.c) and its protocols (lcp.c,
 * ipcp.c, ipv6cp.c). Included by ppp.h; the daemon treats struct ppp as opaque.
 */
#ifndef PXP_PPP_INTERNAL_H
#define PXP_PPP_INTERNAL_H

#include "auth.h"
#include "fsm.h"

/* RFC 1661 section 3.2 link phases. */
enum ppp_phase {
	PPP_PHASE_DEAD,
	PPP_PHASE_ESTABLISH,
	PPP_PHASE_AUTHENTICATE,
	PPP_PHASE_NETWORK,
	PPP_PHASE_TERMINATE,
};

/* Magic-Number collisions within one negotiation before we call the link looped back. */
#define LCP_LOOPBACK_LIMIT	  5
#define LCP_DEFAULT_ECHO_FAILURES 3
/* MRU a peer assumes when none was negotiated (RFC 1661 6.1). */
#define LCP_DEFAULT_MRU		  1500
/* Smallest MRU we accept from the peer (pppd's MINMRU). */
#define LCP_MIN_MRU		  128

struct lcp_options {
	/* Our request. */
	bool req_mru, req_magic, req_auth;
	uint16_t want_mru;
	uint32_t magic;	  /* in our last request; 0 = none: no loopback detection */
	bool renew_magic; /* pick a new one for the next request (RFC 1661 6.4) */
	enum ppp_auth_proto want_auth;
	/* The peer's last judged request (the Acked one by the time LCP opens). */
	uint16_t peer_req_mru;
	enum ppp_auth_proto peer_req_auth;
	/* Agreed when LCP opened. */
	uint16_t local_mru, peer_mru;
	enum ppp_auth_proto auth; /* the protocol the client proves itself with */
	uint32_t magic_collisions;
	/* Keepalive. */
	uint64_t echo_deadline; /* UINT64_MAX when not running */
	uint32_t echo_pending;	/* Echo-Requests sent since the last reply */
	bool data_seen;
	uint32_t echo_sent, echo_replies, echo_missed;
};

struct ipcp_options {
	bool req_addr, req_dns[2];
	uint32_t local_ip, dns[2]; /* ours, network order */
	uint32_t peer_req_ip;	   /* in the peer's last judged request */
	bool peer_sent_addr;
	uint32_t peer_ip; /* agreed */
};

struct ipv6cp_options {
	bool req_ifid;
	uint8_t local_ifid[8];
	uint8_t peer_req_ifid[8];
	uint8_t peer_ifid[8]; /* agreed; zero when the peer sent none */
};

struct ppp {
	struct ppp_config cfg;
	struct ppp_callbacks cb;
	enum ppp_phase phase;
	bool link_active; /* between ppp_lower_up() and PPP_EV_LINK_DOWN */

	struct fsm lcp, ipcp, ipv6cp;
	struct lcp_options lcp_opt;
	struct ipcp_options ipcp_opt;
	struct ipv6cp_options ipv6cp_opt;

	struct auth auth;
	bool auth_active;
	int auth_result; /* 0 pending, 1 ok, -1 failed: acted on after auth returns */
	enum ppp_auth_proto auth_proto;
	char peer_name[PPP_NAME_MAX + 1];
	char auth_message[PPP_AUTH_MESSAGE_MAX];

	/* Work deferred until the current callback chain unwinds (no re-entry). */
	enum ppp_down_reason close_pending;
	bool ncp_check_pending;
	bool ipcp_close_pending;	   /* IPCP opened without giving us an address */
	bool ipv4_reported, ipv6_reported; /* UP sent: DOWN follows only after UP */
	enum ppp_down_reason down_reason;  /* first reason wins */
	uint64_t now_ms;

	uint64_t rx_malformed, rx_proto_reject, rx_ignored;
};

extern const struct fsm_ops lcp_ops, ipcp_ops, ipv6cp_ops;

/* ppp.c, for the protocols. */
struct ppp *ppp_of(const struct fsm *f);
void ppp_request_close(struct ppp *p, enum ppp_down_reason reason);
void ppp_lcp_up(struct ppp *p);
void ppp_lcp_down(struct ppp *p);
void ppp_lcp_finished(struct ppp *p);
void ppp_ncp_up(struct ppp *p, struct fsm *f);
void ppp_ncp_down(struct ppp *p, struct fsm *f);
void ppp_ncp_finished(struct ppp *p, struct fsm *f);
/* RFC 1661: a Protocol-Reject named proto; returns true when LCP itself was rejected. */
bool ppp_protocol_rejected(struct ppp *p, uint16_t proto);
/* Fills buf with random bytes, never all zero. */
void ppp_random_nonzero(struct ppp *p, uint8_t *buf, size_t len);

/* lcp.c */
void lcp_echo_timer(struct ppp *p, uint64_t now_ms);
uint64_t lcp_echo_deadline(const struct ppp *p);
void lcp_send_protocol_reject(struct ppp *p, uint16_t proto, const uint8_t *data, size_t len);

#endif
