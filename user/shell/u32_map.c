// SPDX-License-Identifier: GPL-2.0
#include "u32_map.h"

#include <errno.h>
#include <stdlib.h>

static unsigned int slot_of(const struct u32_map *m, uint32_t key)
{
	/* Pool addresses and ifindexes differ in their low bits: multiply so those reach every bit.
	 */
	return (unsigned int)((key * 0x9e3779b1u) >> 7) & m->mask;
}

int u32_map_init(struct u32_map *m, unsigned int max)
{
	unsigned int n = 8;

	while (n < 2 * (max + 1))
		n *= 2;
	m->slots = calloc(n, sizeof(*m->slots));
	if (!m->slots)
		return -ENOMEM;
	m->mask = n - 1;
	m->count = 0;
	m->max = max;
	return 0;
}

void u32_map_free(struct u32_map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->count = m->max = 0;
}

bool u32_map_get(const struct u32_map *m, uint32_t key, uint32_t *value)
{
	unsigned int i;

	if (!key || !m->slots)
		return false;
	for (i = slot_of(m, key); m->slots[i].key; i = (i + 1) & m->mask)
		if (m->slots[i].key == key) {
			if (value)
				*value = m->slots[i].value;
			return true;
		}
	return false;
}

int u32_map_put(struct u32_map *m, uint32_t key, uint32_t value)
{
	unsigned int i;

	if (!key)
		return -EINVAL;
	for (i = slot_of(m, key); m->slots[i].key; i = (i + 1) & m->mask)
		if (m->slots[i].key == key) {
			m->slots[i].value = value;
			return 0;
		}
	if (m->count == m->max)
		return -ENOSPC;
	m->slots[i].key = key;
	m->slots[i].value = value;
	m->count++;
	return 0;
}

/* Backward-shift deletion: the entries after a hole that belong before it move into it. */
void u32_map_del(struct u32_map *m, uint32_t key)
{
	unsigned int i, j, home;

	if (!key || !m->slots)
		return;
	for (i = slot_of(m, key); m->slots[i].key != key; i = (i + 1) & m->mask)
		if (!m->slots[i].key)
			return;
	m->slots[i].key = 0;
	m->count--;
	for (j = (i + 1) & m->mask; m->slots[j].key; j = (j + 1) & m->mask) {
		home = slot_of(m, m->slots[j].key);
		/* Move it unless its home lies cyclically in (i, j]. */
		if (((j - home) & m->mask) >= ((j - i) & m->mask)) {
			m->slots[i] = m->slots[j];
			m->slots[j].key = 0;
			i = j;
		}
	}
}
