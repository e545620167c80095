/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PPPoE Discovery (RFC 2516, RFC 4638) as pure protocol cores: the client (PADI, PADR,
 * PADT handling, `pppoe -A`-style discover mode) and the access concentrator.
 *
 * Core convention: no sockets, clocks, logging or allocation. The caller feeds frames
 * with X_input(), calls X_timer() once now_ms >= X_deadline(), and receives frames and
 * events through the ops callbacks given at init. Frames passed to and from the cores
 * start at the Ethernet destination MAC (ethertype 0x8863, no VLAN tag).
 *
 * Concurrency: a core is owned by one thread; callbacks run synchronously inside
 * the core's functions and must not re-enter the same core.
 */
#ifndef PXP_DISCOVERY_H
#define PXP_DISCOVERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pppoe_tags.h"

/* Longest AC name / service name kept in configs and events (longer ones are truncated
 * in events; configured names longer than this are rejected with -ENAMETOOLONG). */
#define DISC_NAME_MAX	    64
#define DISC_HOST_UNIQ_MAX  64
#define DISC_COOKIE_MAX	    64
#define DISC_RELAY_ID_MAX   64
#define DISC_ERROR_TEXT_MAX 128

/* Client defaults, as rp-pppoe and pppd's rp-pppoe plugin: 3 PADIs, 5 s, doubling. */
#define DISC_DEFAULT_ATTEMPTS	   3
#define DISC_DEFAULT_TIMEOUT_MS	   5000
#define DISC_MAX_TIMEOUT_MS	   60000
#define DISC_DEFAULT_HOST_UNIQ_LEN 8
#define DISC_DISCOVER_MAX_ACS	   16

/* Outputs shared by both cores. send returns 0 or -errno (a failed send is counted;
 * retransmission timers still run). random must fill buf completely. */
struct disc_io {
	void *ctx;
	int (*send)(void *ctx, const void *frame, size_t len);
	void (*random)(void *ctx, void *buf, size_t len);
};

/* -------------------------------------------------------------------- client */

struct disc_client_config {
	uint8_t local_mac[PXP_ETH_ALEN];
	/* Service-Name to request; "" (or NULL) = any service. */
	const char *service_name;
	/* Accept only PADOs whose AC-Name equals this; NULL = any. */
	const char *ac_name;
	/* Accept only PADOs from this MAC when match_ac_mac is set. */
	bool match_ac_mac;
	uint8_t ac_mac[PXP_ETH_ALEN];
	/* Host-Uniq bytes; host_uniq_len 0 = generate DISC_DEFAULT_HOST_UNIQ_LEN random
	 * bytes at init. Always sent: it tells our PADO/PADS apart from other clients'. */
	const uint8_t *host_uniq;
	size_t host_uniq_len;
	/* RFC 4638 PPP-Max-Payload to ask for; 0 = do not ask (MRU 1492). See
	 * pppoe_max_payload_for_mtu(). */
	uint16_t max_payload;
	/* PADI and PADR attempts (0 = DISC_DEFAULT_ATTEMPTS) and the first timeout
	 * (0 = DISC_DEFAULT_TIMEOUT_MS); each retry doubles it, capped at
	 * DISC_MAX_TIMEOUT_MS. */
	unsigned int padi_attempts;
	unsigned int padr_attempts;
	uint32_t initial_timeout_ms;
	/* Discover mode: how long to collect PADOs (0 = initial_timeout_ms). */
	uint32_t discover_window_ms;
};

enum disc_client_state {
	DISC_CLIENT_IDLE,	 /* not started, stopped, failed or session down */
	DISC_CLIENT_PADI_SENT,	 /* waiting for a PADO */
	DISC_CLIENT_PADR_SENT,	 /* waiting for the PADS */
	DISC_CLIENT_SESSION,	 /* session up */
	DISC_CLIENT_DISCOVERING, /* discover mode: collecting PADOs */
};

enum disc_client_event_type {
	DISC_EV_SESSION_UP,    /* PADS accepted */
	DISC_EV_SESSION_DOWN,  /* PADT from our AC for our session */
	DISC_EV_FAILED,	       /* discovery gave up; see failure and message */
	DISC_EV_AC_FOUND,      /* discover mode: one AC answered */
	DISC_EV_DISCOVER_DONE, /* discover mode: the window closed */
	DISC_EV_RETRY,	       /* no answer within the timeout: the next PADI or PADR goes out */
};
#define DISC_EV_COUNT (DISC_EV_RETRY + 1)

enum disc_failure {
	DISC_FAIL_NONE,
	DISC_FAIL_NO_PADO,	     /* no acceptable PADO after all PADIs */
	DISC_FAIL_NO_PADS,	     /* no PADS after all PADRs */
	DISC_FAIL_PADS_ERROR,	     /* PADS carried an error tag */
	DISC_FAIL_PADS_SESSION_ZERO, /* PADS without error tag but session id 0 */
};

struct disc_client_event {
	enum disc_client_event_type type;
	uint16_t session_id;		 /* UP, DOWN */
	uint8_t ac_mac[PXP_ETH_ALEN];	 /* UP, DOWN, AC_FOUND */
	char ac_name[DISC_NAME_MAX + 1]; /* UP, AC_FOUND (printable) */
	uint16_t max_payload;		 /* UP: negotiated PPP MRU limit (1492 default) */
	enum disc_failure failure;	 /* FAILED */
	/* FAILED: in words, e.g. "no PADO after 3 PADIs" or "PADS Service-Name-Error:
	 * unknown service"; DOWN: the PADT's error text if any; RETRY: "no PADO after 5 s,
	 * PADI 2 of 3". Printable. */
	char message[DISC_ERROR_TEXT_MAX + 1];
	/* AC_FOUND: services offered (printable), cookie / RFC 4638 support. */
	unsigned int service_count;
	char services[PPPOE_MAX_SERVICES][DISC_NAME_MAX + 1];
	bool has_cookie;
	bool has_max_payload;
	unsigned int ac_count; /* DISCOVER_DONE: ACs reported */
	/* RETRY: the frame now sent (PPPOE_CODE_PADI or _PADR), its number (2 for the
	 * first retry) of how many, and how long the previous one went unanswered. */
	uint8_t retry_code;
	unsigned int attempt;
	unsigned int attempts;
	uint32_t waited_ms;
};

struct disc_client_ops {
	struct disc_io io;
	void (*event)(void *ctx, const struct disc_client_event *ev); /* ctx = io.ctx */
};

/* Client state. Fields are private except the counters, which `status` may read. */
struct disc_client {
	struct disc_client_ops ops;
	uint8_t local_mac[PXP_ETH_ALEN];
	char service_name[DISC_NAME_MAX + 1];
	char ac_name[DISC_NAME_MAX + 1];
	bool filter_ac_name;
	bool match_ac_mac;
	uint8_t filter_ac_mac[PXP_ETH_ALEN];
	uint8_t host_uniq[DISC_HOST_UNIQ_MAX];
	uint16_t host_uniq_len;
	uint16_t max_payload_wish;
	unsigned int padi_attempts;
	unsigned int padr_attempts;
	uint32_t initial_timeout_ms;
	uint32_t discover_window_ms;

	enum disc_client_state state;
	unsigned int attempt; /* frames sent in the current state */
	uint32_t timeout_ms;  /* current retransmission interval */
	uint64_t deadline_ms;

	/* The chosen AC (valid from PADR_SENT on). */
	uint8_t ac_mac[PXP_ETH_ALEN];
	char ac_name_seen[DISC_NAME_MAX + 1];
	uint8_t cookie[DISC_COOKIE_MAX];
	uint16_t cookie_len;
	bool has_cookie;
	uint8_t relay_id[DISC_RELAY_ID_MAX];
	uint16_t relay_id_len;
	bool has_relay_id;
	uint16_t session_id;
	uint16_t max_payload; /* negotiated, valid in SESSION */
	/* Last error tag seen in an ignored PADO, for the "no PADO" message. */
	char last_pado_error[DISC_ERROR_TEXT_MAX + 1];

	/* Discover mode: ACs already reported, so a flood yields bounded events. */
	uint8_t found_macs[DISC_DISCOVER_MAX_ACS][PXP_ETH_ALEN];
	unsigned int found_count;

	/* Counters. */
	uint64_t drops[PPPOE_DROP_REASON_COUNT];
	uint64_t rx_frames;
	uint64_t tx_frames;
	uint64_t tx_errors;
};

/* Validates and copies cfg (strings are copied). Returns 0 or -EINVAL/-ENAMETOOLONG. */
int disc_client_init(struct disc_client *c, const struct disc_client_config *cfg,
		     const struct disc_client_ops *ops);
/* Sends the first PADI (broadcast) and waits for PADOs. -EBUSY unless IDLE. */
int disc_client_start(struct disc_client *c, uint64_t now_ms);
/* Discover mode: one PADI, then every distinct AC that answers within the window is
 * reported with DISC_EV_AC_FOUND, and DISC_EV_DISCOVER_DONE at the end. */
int disc_client_start_discover(struct disc_client *c, uint64_t now_ms);
/* Feeds one received frame. Returns 0 if it was used, or -errno if it was dropped
 * (the reason is counted in c->drops). */
int disc_client_input(struct disc_client *c, uint64_t now_ms, const void *frame, size_t len);
void disc_client_timer(struct disc_client *c, uint64_t now_ms);
/* Next time disc_client_timer() must run, or UINT64_MAX. */
uint64_t disc_client_deadline(const struct disc_client *c);
/* Ends discovery or the session; sends a PADT if a session is up. No event. */
int disc_client_stop(struct disc_client *c, uint64_t now_ms);
enum disc_client_state disc_client_state(const struct disc_client *c);
const char *disc_client_state_name(enum disc_client_state state);

/*
 * Builds a PADT for session_id from src to dst (6-byte MACs), with a Generic-Error
 * tag carrying reason when reason is not NULL. Used on shutdown and to close the stale
 * session a crashed previous run left behind. Returns the frame length or -errno.
 */
int disc_build_padt(void *buf, size_t cap, const uint8_t *src, const uint8_t *dst,
		    uint16_t session_id, const char *reason);

/* ---------------------------------------------------------- access concentrator */

#define DISC_AC_MAX_SESSIONS	     1024
/* MACs the per-MAC rate limit remembers (a power of two); the least recently seen goes. */
#define DISC_AC_RATE_MACS	     2048
/* A rate limit of this value is off; rates above DISC_AC_RATE_MAX are refused. */
#define DISC_AC_RATE_UNLIMITED	     UINT32_MAX
#define DISC_AC_RATE_MAX	     1000000
/* Defaults: PADI+PADR frames a second, from all MACs and from one MAC. */
#define DISC_AC_DEFAULT_RATE	     1000
#define DISC_AC_DEFAULT_RATE_PER_MAC 2
/*
 * PADTs for frames of unknown sessions, a second (bursts as for PADI+PADR: 2 and 5 seconds'
 * worth): one MAC's stale session needs one, and its frames keep coming until it ends, so
 * a lost PADT is retried a second later; over all MACs, what a flood of random ids or MACs
 * can make us send, and still room for a restarted AC's clients all at once.
 */
#define DISC_AC_PADT_RATE	     100
#define DISC_AC_PADT_RATE_PER_MAC    1
/* The Generic-Error of those PADTs, which the client shows as why its session ended. */
#define DISC_AC_UNKNOWN_SESSION_TEXT "unknown session"
#define DISC_AC_COOKIE_LEN	     16
#define DISC_AC_SECRET_LEN	     32

struct disc_ac_config {
	uint8_t local_mac[PXP_ETH_ALEN];
	const char *ac_name; /* required */
	/* Services offered; service_count 0 = offer and accept any (one empty
	 * Service-Name in the PADO). A PADI/PADR for "" matches any offer. */
	const char *const *services;
	unsigned int service_count; /* <= PPPOE_MAX_SERVICES */
	unsigned int max_sessions;  /* 1..DISC_AC_MAX_SESSIONS; 0 = the maximum */
	/* RFC 4638: largest PPP-Max-Payload granted; 0 = never grant (MRU 1492). */
	uint16_t max_payload;
	/* Cookies are valid in the epoch they were issued and the next (0 = 60 s). */
	uint32_t cookie_epoch_ms;
	/* PADI+PADR rate limits in frames per second, 1..DISC_AC_RATE_MAX or
	 * DISC_AC_RATE_UNLIMITED, and their bursts (0 = defaults: DISC_AC_DEFAULT_RATE and
	 * DISC_AC_DEFAULT_RATE_PER_MAC; bursts 2 and 5 seconds' worth). */
	uint32_t global_rate;
	uint32_t global_burst;
	uint32_t per_mac_rate;
	uint32_t per_mac_burst;
};

enum disc_ac_event_type {
	DISC_AC_EV_SESSION_NEW,	   /* valid PADR, PADS sent */
	DISC_AC_EV_SESSION_CLOSED, /* PADT from the peer */
};

struct disc_ac_event {
	enum disc_ac_event_type type;
	uint16_t session_id;
	uint8_t peer_mac[PXP_ETH_ALEN];
	uint16_t max_payload;		      /* NEW: granted PPP MRU limit (1492 default) */
	char service_name[DISC_NAME_MAX + 1]; /* NEW: printable */
};

struct disc_ac_ops {
	struct disc_io io;
	void (*event)(void *ctx, const struct disc_ac_event *ev); /* ctx = io.ctx */
};

struct disc_ac_session {
	uint16_t session_id; /* 0 = free slot */
	uint8_t peer_mac[PXP_ETH_ALEN];
	uint16_t max_payload;
	uint8_t host_uniq[DISC_HOST_UNIQ_MAX];
	uint16_t host_uniq_len;
	bool has_host_uniq;
	char service_name[DISC_NAME_MAX + 1];
	uint16_t mac_next; /* the next session in its MAC's chain: slot + 1, 0 = end */
};

struct disc_token_bucket {
	uint64_t tokens_milli; /* tokens * 1000 */
	uint64_t last_ms;
};

#define DISC_AC_RATE_NONE UINT16_MAX

/*
 * Per-MAC limit: one bucket per MAC, in a table of DISC_AC_RATE_MACS entries found through
 * a keyed hash (chains) and kept in least-recently-seen order. A MAC never shares a bucket;
 * a new MAC in a full table takes the least recently seen one's entry. Evicting loses
 * nothing while that MAC was idle for its burst's refill time (its bucket was full again);
 * a flood of MACs can only make the global limit the one that bites.
 */
struct disc_ac_rate_mac {
	uint8_t mac[PXP_ETH_ALEN];
	uint16_t next;	       /* hash chain, DISC_AC_RATE_NONE at the end */
	uint16_t older, newer; /* the recency list */
	struct disc_token_bucket bucket;
};

/*
 * One rate limit: a global token bucket and one per MAC (see struct disc_ac_rate_mac). The
 * AC keeps two: PADI+PADR, and the PADTs it sends for frames of sessions it does not have.
 */
struct disc_rate_limit {
	uint32_t global_rate, global_burst, per_mac_rate, per_mac_burst;
	struct disc_token_bucket global_bucket;
	struct disc_ac_rate_mac rate_macs[DISC_AC_RATE_MACS];
	uint16_t rate_heads[DISC_AC_RATE_MACS]; /* chain heads by hash */
	uint16_t rate_oldest, rate_newest;
	unsigned int rate_mac_count; /* entries in use, <= DISC_AC_RATE_MACS */
};

/* AC state. Fields are private except the counters and sessions (read-only). */
struct disc_ac {
	struct disc_ac_ops ops;
	uint8_t local_mac[PXP_ETH_ALEN];
	char ac_name[DISC_NAME_MAX + 1];
	char services[PPPOE_MAX_SERVICES][DISC_NAME_MAX + 1];
	unsigned int service_count;
	unsigned int max_sessions;
	uint16_t max_payload;
	uint32_t cookie_epoch_ms;
	uint8_t secret[DISC_AC_SECRET_LEN];

	struct disc_rate_limit rate;	  /* PADI+PADR */
	struct disc_rate_limit padt_rate; /* PADTs for unknown sessions */

	unsigned int session_count;
	struct disc_ac_session sessions[DISC_AC_MAX_SESSIONS];
	/* Lookups in O(1): slot + 1 by session id, chains of slot + 1 by the MAC's keyed hash
	 * (a PADR retry is found by MAC and Host-Uniq); 0 = none. */
	uint16_t slot_by_id[UINT16_MAX + 1];
	uint16_t slot_by_mac[DISC_AC_RATE_MACS];
	unsigned int next_free; /* where the search for a free slot starts */

	/* Counters. */
	uint64_t drops[PPPOE_DROP_REASON_COUNT];
	uint64_t rx_frames;
	uint64_t tx_frames;
	uint64_t tx_errors;
	/* disc_ac_unknown_session(): PADTs sent, and frames left unanswered by padt_rate. */
	uint64_t padt_unknown_session, padt_unknown_session_limited;
};

/* Copies cfg and draws the cookie secret from ops->io.random. 0 or -EINVAL/-ENAMETOOLONG. */
int disc_ac_init(struct disc_ac *ac, const struct disc_ac_config *cfg,
		 const struct disc_ac_ops *ops);
/* Wipes the cookie secret and forgets all sessions (no PADTs). */
void disc_ac_destroy(struct disc_ac *ac);
/*
 * Feeds one received frame. 0 if used, -errno if dropped (counted in ac->drops).
 * A valid PADR from the MAC and Host-Uniq of a live session is taken as a retry and
 * answered with that session's PADS again (no new event); the daemon ends sessions
 * it finds dead (LCP echo) with disc_ac_close_session().
 */
int disc_ac_input(struct disc_ac *ac, uint64_t now_ms, const void *frame, size_t len);
/* The AC keeps no timers (token buckets refill lazily, cookies carry their epoch);
 * these exist for the common core interface. */
void disc_ac_timer(struct disc_ac *ac, uint64_t now_ms);
uint64_t disc_ac_deadline(const struct disc_ac *ac);
/* Sends a PADT (Generic-Error = reason if not NULL) and releases the session.
 * 0, -ENOENT or the send error (the session is released either way). */
int disc_ac_close_session(struct disc_ac *ac, uint16_t session_id, const char *reason);
/* Releases a session without sending anything. 0 or -ENOENT. */
int disc_ac_release(struct disc_ac *ac, uint16_t session_id);
/*
 * A session frame (0x8864) from peer_mac for a session_id the AC does not have, such as a
 * client's after the AC restarted: a PADT for that MAC and id (RFC 2516 allows one at any
 * time) ends the client's stale session now instead of at its echo timeout. Limited per
 * MAC and overall by padt_rate (DISC_AC_PADT_RATE, DISC_AC_PADT_RATE_PER_MAC). 0 if sent,
 * -EAGAIN if over the limit, -EINVAL for a multicast source or the ids 0 and 0xffff (never
 * a session's), else the send error. The caller checks that the session is not ours.
 */
int disc_ac_unknown_session(struct disc_ac *ac, uint64_t now_ms, const uint8_t *peer_mac,
			    uint16_t session_id);
/* The session with this id, or NULL. */
const struct disc_ac_session *disc_ac_find(const struct disc_ac *ac, uint16_t session_id);

#endif
