// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the UAPI's request parsers: arbitrary bytes as a request's first
 * line and as the lines after "set=1". A set that parses must give peers whose prefixes
 * fit their family and go into the allowed-IPs trie, and get=1's answer built from them
 * must parse back to the same peers; a failure must leave nothing allocated and an errno
 * wireguard-go could answer.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "allowed_ips.h"
#include "uapi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Keeps the lines of a get=1 answer that set=1 takes too (not the counters, not errno). */
static size_t settable_lines(char *buf, size_t len)
{
	static const char *const drop[] = { "last_handshake_time_sec=", "last_handshake_time_nsec=",
					    "tx_bytes=", "rx_bytes=", "errno=" };
	size_t in = 0, out = 0;

	while (in < len) {
		char *nl = memchr(buf + in, '\n', len - in);
		size_t n = nl ? (size_t)(nl - (buf + in)) + 1 : len - in;
		bool keep = n > 1;

		for (size_t i = 0; i < sizeof(drop) / sizeof(drop[0]); i++)
			if (!strncmp(buf + in, drop[i], strlen(drop[i])))
				keep = false;
		if (keep) {
			memmove(buf + out, buf + in, n);
			out += n;
		}
		in += n;
	}
	return out;
}

/* get=1's answer for the peers a set=1 gave must parse back to the same peers. */
static void check_round_trip(const struct uapi_set *cfg)
{
	struct uapi_peer_status *peers = calloc(cfg->n_peers + 1, sizeof(*peers));
	struct uapi_device_status d = { .peers = peers, .n_peers = cfg->n_peers };
	struct aip_prefix **aips = calloc(cfg->n_peers + 1, sizeof(*aips));
	size_t cap = 256 + cfg->n_peers * 1024;
	struct uapi_set again;
	char *buf;
	int len;

	for (size_t i = 0; i < cfg->n_peers; i++) {
		memcpy(peers[i].public_key, cfg->peers[i].public_key, WG_KEY_LEN);
		memcpy(peers[i].preshared_key, cfg->peers[i].preshared_key, WG_KEY_LEN);
		peers[i].has_endpoint = cfg->peers[i].has_endpoint;
		peers[i].endpoint = cfg->peers[i].endpoint;
		/* get=1 lists the prefixes a peer has: the added ones here. */
		aips[i] = calloc(cfg->peers[i].n_allowed_ips + 1, sizeof(*aips[i]));
		for (size_t j = 0; j < cfg->peers[i].n_allowed_ips; j++)
			if (!cfg->peers[i].allowed_ips[j].remove)
				aips[i][peers[i].n_allowed_ips++] =
					cfg->peers[i].allowed_ips[j].prefix;
		peers[i].allowed_ips = aips[i];
		cap += cfg->peers[i].n_allowed_ips * 64;
	}
	buf = malloc(cap);
	len = uapi_format_get(&d, buf, cap);
	if (len < 0)
		__builtin_trap();
	if (uapi_parse_set(&again, buf, settable_lines(buf, (size_t)len), NULL, 0) ||
	    again.n_peers != cfg->n_peers)
		__builtin_trap();
	for (size_t i = 0; i < cfg->n_peers; i++) {
		const struct uapi_peer_set *a = &cfg->peers[i], *b = &again.peers[i];

		if (memcmp(a->public_key, b->public_key, WG_KEY_LEN) ||
		    memcmp(a->preshared_key, b->preshared_key, WG_KEY_LEN) ||
		    a->has_endpoint != b->has_endpoint ||
		    memcmp(&a->endpoint, &b->endpoint, sizeof(a->endpoint)) ||
		    peers[i].n_allowed_ips != b->n_allowed_ips)
			__builtin_trap();
		for (size_t j = 0; j < b->n_allowed_ips; j++)
			if (b->allowed_ips[j].remove ||
			    aips[i][j].family != b->allowed_ips[j].prefix.family ||
			    aips[i][j].cidr != b->allowed_ips[j].prefix.cidr ||
			    memcmp(aips[i][j].addr, b->allowed_ips[j].prefix.addr, 16))
				__builtin_trap();
		free(aips[i]);
	}
	free(aips);
	uapi_set_free(&again);
	free(buf);
	free(peers);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct allowed_ips t;
	struct uapi_set cfg;
	enum uapi_op op;
	char err[256];
	int ret;

	/* The operation line: whole lines of the input or a refusal, never past its end. */
	ret = uapi_parse_op((const char *)data, size, &op);
	if (ret > (int)size || (ret > 0 && data[ret - 1] != '\n') ||
	    (ret < 0 && ret != -EINVAL && ret != -EPROTO))
		__builtin_trap();
	ret = uapi_parse_set(&cfg, (const char *)data, size, err, sizeof(err));
	if (ret) {
		if ((ret != -EINVAL && ret != -EPROTO && ret != -ENOMEM) || cfg.n_peers ||
		    cfg.peers || !err[0])
			__builtin_trap();
		return 0;
	}
	allowed_ips_init(&t);
	for (size_t i = 0; i < cfg.n_peers; i++) {
		const struct uapi_peer_set *p = &cfg.peers[i];

		for (size_t j = 0; j < p->n_allowed_ips; j++) {
			const struct aip_prefix *a = &p->allowed_ips[j].prefix;

			if ((a->family != AF_INET && a->family != AF_INET6) ||
			    a->cidr > (a->family == AF_INET ? 32 : 128))
				__builtin_trap();
			if (p->allowed_ips[j].remove) {
				int r = allowed_ips_remove(&t, a, p);

				/* Gone once removed: a second removal finds nothing. */
				if ((r && r != -ENOENT) || allowed_ips_remove(&t, a, p) != -ENOENT)
					__builtin_trap();
			} else if (allowed_ips_insert(&t, a, p) ||
				   !allowed_ips_lookup(&t, a->family, a->addr)) {
				__builtin_trap();
			}
		}
		if (p->has_endpoint && p->endpoint.family != AF_INET &&
		    p->endpoint.family != AF_INET6)
			__builtin_trap();
	}
	check_round_trip(&cfg);
	allowed_ips_free(&t);
	uapi_set_free(&cfg);
	return 0;
}
