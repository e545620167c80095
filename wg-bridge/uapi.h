/* SPDX-License-Identifier: GPL-2.0 */
/*
 * WireGuard's cross-platform userspace API (wireguard.com/xplatform), the protocol `wg`
 * speaks over /var/run/wireguard/IF.sock: "get=1\n\n" is answered with key=value lines,
 * "set=1\n" and key=value lines up to an empty line change the configuration; each answer
 * ends with "errno=N\n\n". Keys, their order and the errno values are wireguard-go's
 * (device/uapi.go): bad values -EINVAL, a line without '=' -EPROTO, sent negative.
 *
 * Pure: text in, a config-change structure or text out. Keys are hex (64 digits) on the
 * wire; the secret ones never appear in an error message.
 */
#ifndef PXP_WG_UAPI_H
#define PXP_WG_UAPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "allowed_ips.h"
#include "wg_crypto.h" /* WG_KEY_LEN */

/* An endpoint: family AF_INET (4 bytes of addr) or AF_INET6 (16); port in host order. */
struct uapi_endpoint {
	int family;
	uint8_t addr[16];
	uint16_t port;
};

/*
 * An allowed_ip line: a prefix to add, or with a leading '-' (wireguard-tools since
 * kernel 6.16's WGALLOWEDIP_F_REMOVE_ME: `wg set ... allowed-ips -10.0.0.0/8`) to remove.
 */
struct uapi_allowed_ip {
	struct aip_prefix prefix;
	bool remove;
};

/* One peer's part of a set=1: what the lines after its public_key asked for. */
struct uapi_peer_set {
	uint8_t public_key[WG_KEY_LEN];
	bool update_only; /* only change it if it exists */
	bool remove;
	bool replace_allowed_ips; /* drop its allowed-IPs before adding these */
	bool has_preshared_key;
	uint8_t preshared_key[WG_KEY_LEN]; /* all zero: none */
	bool has_endpoint;
	struct uapi_endpoint endpoint;
	bool has_persistent_keepalive;
	uint16_t persistent_keepalive;	     /* seconds, 0 off */
	struct uapi_allowed_ip *allowed_ips; /* in the order given */
	size_t n_allowed_ips;
};

struct uapi_set {
	bool has_private_key;
	uint8_t private_key[WG_KEY_LEN]; /* all zero: remove it */
	bool has_listen_port;
	uint16_t listen_port;
	bool has_fwmark;
	uint32_t fwmark; /* 0: off */
	bool replace_peers;
	struct uapi_peer_set *peers; /* in the order given */
	size_t n_peers;
};

enum uapi_op { UAPI_GET, UAPI_SET };

/*
 * The operation line a request starts with, as wireguard-go reads it. Returns the bytes it
 * takes ("get=1\n\n", or "set=1\n" before the lines for uapi_parse_set()), 0 while buf
 * may still become one, -EINVAL for get=1 followed by anything but the empty line (answer
 * errno=-22), -EPROTO for any other operation (close without an answer, as wireguard-go).
 */
int uapi_parse_op(const char *buf, size_t len, enum uapi_op *op);

/*
 * Parses the lines of a set=1 (after the "set=1\n" line) from text[0..len), up to an empty
 * line or the end. On error returns -EINVAL, -EPROTO or -ENOMEM, leaves cfg empty and
 * writes what is wrong into err (may be NULL), naming the key and, unless it is a secret,
 * the value.
 */
int uapi_parse_set(struct uapi_set *cfg, const char *text, size_t len, char *err, size_t err_cap);

/* Frees what uapi_parse_set() allocated and wipes the keys. */
void uapi_set_free(struct uapi_set *cfg);

/* The state a get=1 reports. */
struct uapi_peer_status {
	uint8_t public_key[WG_KEY_LEN];
	uint8_t preshared_key[WG_KEY_LEN];
	bool has_endpoint;
	struct uapi_endpoint endpoint;
	int64_t last_handshake_sec; /* wall clock; 0 and 0: never */
	int64_t last_handshake_nsec;
	uint64_t tx_bytes;
	uint64_t rx_bytes;
	uint16_t persistent_keepalive;
	const struct aip_prefix *allowed_ips;
	size_t n_allowed_ips;
};

struct uapi_device_status {
	uint8_t private_key[WG_KEY_LEN]; /* all zero: none, not printed */
	uint16_t listen_port;		 /* 0: not printed */
	uint32_t fwmark;		 /* 0: not printed */
	const struct uapi_peer_status *peers;
	size_t n_peers;
};

/*
 * Writes the answer to get=1 into buf (NUL-terminated), in wireguard-go's order, ending
 * with "errno=0\n\n". Returns its length or -ENOSPC.
 */
int uapi_format_get(const struct uapi_device_status *d, char *buf, size_t cap);

/*
 * "errno=N\n\n" for a set=1's result (0 or -errno, printed as it is: "errno=-22", as
 * wireguard-go answers and wg(8) reads it) into buf; returns its length or -ENOSPC.
 */
int uapi_format_errno(int ret, char *buf, size_t cap);

/* ADDR:PORT or [ADDR]:PORT, as wireguard-go prints and parses them (-EINVAL if bad). */
int uapi_parse_endpoint(const char *s, size_t len, struct uapi_endpoint *ep);
int uapi_format_endpoint(const struct uapi_endpoint *ep, char *buf, size_t cap);

#endif
