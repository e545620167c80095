/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A set of IPv4 addresses (network order, never 0) with O(1) lookups: the AC's addresses in
 * use and those the secrets file reserves, checked for every pool address it considers.
 * Open addressing with linear probing, at most half full, so a miss ends soon.
 *
 * Concurrency: used from the daemon's single thread.
 */
#ifndef PXP_IP_SET_H
#define PXP_IP_SET_H

#include <stdbool.h>
#include <stdint.h>

struct ip_set {
	uint32_t *slots;   /* 0 = empty */
	unsigned int mask; /* slots - 1 (a power of two minus one) */
	unsigned int count, max;
};

/* Room for max addresses. 0 or -ENOMEM. */
int ip_set_init(struct ip_set *s, unsigned int max);
void ip_set_free(struct ip_set *s);
bool ip_set_has(const struct ip_set *s, uint32_t ip);
/* 0 (also when present already), -EINVAL for 0, -ENOSPC past max. */
int ip_set_add(struct ip_set *s, uint32_t ip);
void ip_set_del(struct ip_set *s, uint32_t ip);

#endif
