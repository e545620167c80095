/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device's allowed-IPs: which peer an inner address belongs to, by longest-prefix match,
 * for IPv4 and IPv6. Outgoing packets pick their peer by destination
 * (allowed_ips_lookup()); incoming ones are dropped unless their source maps back to the
 * peer they came from (allowed_ips_check()). A prefix belongs to one peer: inserting it
 * for another moves it. Prefixes are stored canonical (host bits cleared), as the Linux
 * driver and wireguard-go do, so 10.0.0.1/8 is 10.0.0.0/8.
 *
 * One binary trie per family, one level per prefix bit. Peers are opaque pointers.
 * Concurrency: the caller serialises changes; lookups may run beside other lookups.
 */
#ifndef PXP_WG_ALLOWED_IPS_H
#define PXP_WG_ALLOWED_IPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct aip_node;

/* An address: family is AF_INET (4 bytes used) or AF_INET6 (16). */
struct aip_prefix {
	int family;
	uint8_t addr[16];
	uint8_t cidr;
};

/* A prefix in the trie, on the list of all of them in the order they were last set. */
struct aip_entry {
	const void *peer;
	struct aip_prefix prefix;
	struct aip_entry *prev, *next;
};

struct allowed_ips {
	struct aip_node *root4;
	struct aip_node *root6;
	struct aip_entry *head, *tail;
};

void allowed_ips_init(struct allowed_ips *t);
void allowed_ips_free(struct allowed_ips *t);

/*
 * Maps p (canonicalised) to peer, replacing the prefix's previous owner. -EINVAL for an
 * unknown family, a cidr past 32/128 or a NULL peer; -ENOMEM.
 */
int allowed_ips_insert(struct allowed_ips *t, const struct aip_prefix *p, const void *peer);

/* Removes p if peer owns it (-ENOENT otherwise; -EINVAL as for insert). */
int allowed_ips_remove(struct allowed_ips *t, const struct aip_prefix *p, const void *peer);

/* Removes every prefix of peer. */
void allowed_ips_remove_peer(struct allowed_ips *t, const void *peer);

/* The peer of the longest prefix holding addr (AF_INET: 4 bytes, AF_INET6: 16), or NULL. */
const void *allowed_ips_lookup(const struct allowed_ips *t, int family, const uint8_t *addr);

/* May peer send from addr? */
bool allowed_ips_check(const struct allowed_ips *t, int family, const uint8_t *addr,
		       const void *peer);

/*
 * Calls fn for each prefix of peer in the order they were given to it (setting a prefix
 * again moves it to the end), as the Linux driver and wireguard-go list them for get=1;
 * stops at and returns fn's first non-zero return.
 */
int allowed_ips_walk(const struct allowed_ips *t, const void *peer,
		     int (*fn)(const struct aip_prefix *p, void *ctx), void *ctx);

/* Clears the host bits of p past its cidr. */
void aip_prefix_canonicalise(struct aip_prefix *p);

#endif
