/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AC's DHCPv6 server (RFC 8415) as a pure core: a client message in, the reply out.
 * One PPPoE session is one link with one client, so a session's binding is one delegated
 * prefix (IA_PD), chosen by the caller; IA_NA is answered with NoAddrsAvail (addresses
 * come from the RA's prefix by SLAAC). Solicit (with Rapid Commit), Request, Renew,
 * Rebind, Release and Information-Request are answered; everything else is ignored.
 * No sockets, no clock, no logging: malformed messages are reported by reason.
 */
#ifndef PXP_DHCP6_H
#define PXP_DHCP6_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DHCP6_CLIENT_PORT 546
#define DHCP6_SERVER_PORT 547
/* All_DHCP_Relay_Agents_and_Servers, ff02::1:2. */
extern const uint8_t dhcp6_all_servers[16];

enum dhcp6_type {
	DHCP6_SOLICIT = 1,
	DHCP6_ADVERTISE = 2,
	DHCP6_REQUEST = 3,
	DHCP6_CONFIRM = 4,
	DHCP6_RENEW = 5,
	DHCP6_REBIND = 6,
	DHCP6_REPLY = 7,
	DHCP6_RELEASE = 8,
	DHCP6_DECLINE = 9,
	DHCP6_INFORMATION_REQUEST = 11,
};

enum dhcp6_option {
	DHCP6_OPT_CLIENTID = 1,
	DHCP6_OPT_SERVERID = 2,
	DHCP6_OPT_IA_NA = 3,
	DHCP6_OPT_ORO = 6,
	DHCP6_OPT_ELAPSED_TIME = 8,
	DHCP6_OPT_STATUS_CODE = 13,
	DHCP6_OPT_RAPID_COMMIT = 14,
	DHCP6_OPT_DNS_SERVERS = 23,
	DHCP6_OPT_IA_PD = 25,
	DHCP6_OPT_IAPREFIX = 26,
};

enum dhcp6_status {
	DHCP6_STATUS_SUCCESS = 0,
	DHCP6_STATUS_NO_ADDRS_AVAIL = 2,
	DHCP6_STATUS_NO_BINDING = 3,
	DHCP6_STATUS_NO_PREFIX_AVAIL = 6,
};

/* RFC 8415 11.1: a DUID is at most 128 bytes. */
#define DHCP6_DUID_MAX 128
#define DHCP6_MAX_DNS  2

enum dhcp6_drop_reason {
	DHCP6_DROP_SHORT,	 /* shorter than the 4-byte header */
	DHCP6_DROP_OPTION,	 /* an option's length runs past its container */
	DHCP6_DROP_DUPLICATE,	 /* a second Client ID, Server ID, IA_NA or IA_PD */
	DHCP6_DROP_BAD_FIELD,	 /* a DUID of 0 or > 128 bytes, an IA shorter than 12, an
				    IA Prefix shorter than 25 or longer than /128 */
	DHCP6_DROP_NO_CLIENT_ID, /* a message that needs one has none */
	DHCP6_DROP_SERVER_ID,	 /* Server ID missing where required, present where not, or
				    not ours */
	DHCP6_DROP_TYPE,	 /* not a message a server answers */
	DHCP6_DROP_REASON_COUNT
};

/* A client message, pointing into the received buffer. */
struct dhcp6_msg {
	uint8_t type;
	uint32_t xid; /* 24 bits */
	const uint8_t *client_id, *server_id;
	uint16_t client_id_len, server_id_len; /* 0 = absent */
	bool rapid_commit;
	bool has_ia_na, has_ia_pd;
	uint32_t ia_na_iaid, ia_pd_iaid;
	/* The first IA Prefix inside the IA_PD: the prefix the client holds or would like. */
	uint8_t pd_hint[16];
	uint8_t pd_hint_len; /* 0 = none */
	bool wants_dns;	     /* ORO lists option 23 */
};

/* Returns 0, or -EBADMSG with *reason set. */
int dhcp6_parse(const uint8_t *buf, size_t len, struct dhcp6_msg *m,
		enum dhcp6_drop_reason *reason);

struct dhcp6_server_config {
	uint8_t duid[DHCP6_DUID_MAX]; /* our Server ID */
	uint16_t duid_len;
	uint8_t dns[DHCP6_MAX_DNS][16];
	unsigned int dns_count;
	uint32_t preferred_s, valid_s; /* the delegated prefix's lifetimes */
};

/* The one prefix this client's link is given; prefix_len 0 = none left in the pool. */
struct dhcp6_binding {
	uint8_t prefix[16];
	uint8_t prefix_len;
};

enum dhcp6_outcome {
	DHCP6_NO_CHANGE, /* the answer does not change the binding (Advertise, Info) */
	DHCP6_BOUND,	 /* the Reply gives the client the prefix: route it to the link */
	DHCP6_RELEASED,	 /* the client gave it back: remove the route */
};

/* DUID-LL (RFC 8415 11.4) of an Ethernet MAC: 10 bytes into duid. Returns the length. */
uint16_t dhcp6_duid_ll(uint8_t duid[DHCP6_DUID_MAX], const uint8_t mac[6]);

/*
 * The server's answer to m for a link holding binding b: its length in out, 0 for no
 * answer (with *reason why), or -EMSGSIZE. *outcome says what the answer does to the
 * binding. Checks the Server ID against cfg's. A Solicit that would get nothing (the pool
 * exhausted, or only IA_NA asked for) is advertised with a top-level status only (RFC 8415
 * 18.3.9); a Request, Renew or Rebind for a prefix other than the link's gets that prefix
 * back with lifetimes 0 besides the link's (18.3.4).
 */
int dhcp6_answer(const struct dhcp6_server_config *cfg, const struct dhcp6_binding *b,
		 const struct dhcp6_msg *m, uint8_t *out, size_t cap, enum dhcp6_outcome *outcome,
		 enum dhcp6_drop_reason *reason);

/*
 * The n-th prefix of length sub_len inside pool/pool_len (pool_len <= sub_len <= 64):
 * 0, or -ERANGE when the pool holds fewer than n + 1 of them.
 */
int dhcp6_prefix_nth(const uint8_t pool[16], unsigned int pool_len, unsigned int sub_len,
		     uint64_t n, uint8_t out[16]);

const char *dhcp6_drop_reason_name(enum dhcp6_drop_reason reason);
const char *dhcp6_type_name(uint8_t type);

#endif
