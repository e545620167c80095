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

/* The table for max keys: a power of two at least twice max + 1, so one slot is always empty. */
static unsigned int slots_for(unsigned int max)
{
	unsigned int n = 8;

	while (n < 2 * (max + 1))
		n *= 2;
	return n;
}

int u32_map_init(struct u32_map *m, unsigned int max)
{
	unsigned int n = slots_for(max);

	m->slots = calloc(n, sizeof(*m->slots));
	if (!m->slots)
		return -ENOMEM;
	m->mask = n - 1;
	m->count = 0;
	m->max = max;
	return 0;
}

/* Where key is, or the empty slot where it would go. */
static unsigned int find(const struct u32_map *m, uint32_t key)
{
	unsigned int i;

	for (i = slot_of(m, key); m->slots[i].key && m->slots[i].key != key; i = (i + 1) & m->mask)
		;
	return i;
}

int u32_map_resize(struct u32_map *m, unsigned int max)
{
	struct u32_map bigger;

	if (max < m->count)
		max = m->count;
	if (u32_map_init(&bigger, max))
		return -ENOMEM;
	for (unsigned int i = 0; i <= m->mask; i++)
		if (m->slots[i].key)
			bigger.slots[find(&bigger, m->slots[i].key)] = m->slots[i];
	bigger.count = m->count;
	free(m->slots);
	*m = bigger;
	return 0;
}

void u32_map_free(struct u32_map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->count = m->max = 0;
}

bool u32_map_get(const struct u32_map *m, uint32_t key, uintptr_t *value)
{
	unsigned int i;

	if (!key || !m->slots)
		return false;
	i = find(m, key);
	if (!m->slots[i].key)
		return false;
	if (value)
		*value = m->slots[i].value;
	return true;
}

int u32_map_put(struct u32_map *m, uint32_t key, uintptr_t value)
{
	unsigned int i;

	if (!key)
		return -EINVAL;
	i = find(m, key);
	if (!m->slots[i].key) {
		if (m->count == m->max)
			return -ENOSPC;
		m->slots[i].key = key;
		m->count++;
	}
	m->slots[i].value = value;
	return 0;
}

/* Backward-shift deletion: the entries after the hole at i that belong before it move in. */
static void del_at(struct u32_map *m, unsigned int i)
{
	unsigned int j, home;

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

void u32_map_del(struct u32_map *m, uint32_t key)
{
	unsigned int i;

	if (!key || !m->slots)
		return;
	i = find(m, key);
	if (m->slots[i].key)
		del_at(m, i);
}

/*
 * One pass in slot order. A deletion moves entries only backwards into its hole, from
 * further along the same run: into slot i (looked at again at once) or, where the run
 * wraps past the table's end, between slots already passed from slots already passed. So
 * every entry is looked at, some twice (gone must give the same answer).
 */
void u32_map_del_if(struct u32_map *m, bool (*gone)(uint32_t key, uintptr_t value, void *ctx),
		    void *ctx)
{
	if (!m->slots)
		return;
	for (unsigned int i = 0; i <= m->mask; i++)
		while (m->slots[i].key && gone(m->slots[i].key, m->slots[i].value, ctx))
			del_at(m, i);
}
