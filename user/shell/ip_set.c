// SPDX-License-Identifier: GPL-2.0
#include "ip_set.h"

#include <errno.h>
#include <stdlib.h>

static unsigned int slot_of(const struct ip_set *s, uint32_t ip)
{
	/* Pool addresses differ in their last bytes: multiply so those reach every bit. */
	return (unsigned int)((ip * 0x9e3779b1u) >> 7) & s->mask;
}

int ip_set_init(struct ip_set *s, unsigned int max)
{
	unsigned int n = 8;

	while (n < 2 * (max + 1))
		n *= 2;
	s->slots = calloc(n, sizeof(*s->slots));
	if (!s->slots)
		return -ENOMEM;
	s->mask = n - 1;
	s->count = 0;
	s->max = max;
	return 0;
}

void ip_set_free(struct ip_set *s)
{
	free(s->slots);
	s->slots = NULL;
	s->count = s->max = 0;
}

bool ip_set_has(const struct ip_set *s, uint32_t ip)
{
	unsigned int i;

	if (!ip || !s->slots)
		return false;
	for (i = slot_of(s, ip); s->slots[i]; i = (i + 1) & s->mask)
		if (s->slots[i] == ip)
			return true;
	return false;
}

int ip_set_add(struct ip_set *s, uint32_t ip)
{
	unsigned int i;

	if (!ip)
		return -EINVAL;
	for (i = slot_of(s, ip); s->slots[i]; i = (i + 1) & s->mask)
		if (s->slots[i] == ip)
			return 0;
	if (s->count == s->max)
		return -ENOSPC;
	s->slots[i] = ip;
	s->count++;
	return 0;
}

/* Backward-shift deletion: the entries after a hole that belong before it move into it. */
void ip_set_del(struct ip_set *s, uint32_t ip)
{
	unsigned int i, j, home;

	if (!ip || !s->slots)
		return;
	for (i = slot_of(s, ip); s->slots[i] != ip; i = (i + 1) & s->mask)
		if (!s->slots[i])
			return;
	s->slots[i] = 0;
	s->count--;
	for (j = (i + 1) & s->mask; s->slots[j]; j = (j + 1) & s->mask) {
		home = slot_of(s, s->slots[j]);
		/* Move it unless its home lies cyclically in (i, j]. */
		if (((j - home) & s->mask) >= ((j - i) & s->mask)) {
			s->slots[i] = s->slots[j];
			s->slots[j] = 0;
			i = j;
		}
	}
}
