// SPDX-License-Identifier: GPL-2.0
/*
 * Allowed-IPs: a binary trie per family, one level per bit; the prefixes set are also on
 * one list, in the order they were set, for get=1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "allowed_ips.h"

struct aip_node {
	struct aip_node *child[2];
	struct aip_entry *entry; /* NULL: no prefix ends here */
};

static int family_bits(int family)
{
	return family == AF_INET ? 32 : family == AF_INET6 ? 128 : -1;
}

static int bit_at(const uint8_t *addr, unsigned int i)
{
	return (addr[i / 8] >> (7 - i % 8)) & 1;
}

static struct aip_node **root_of(struct allowed_ips *t, int family)
{
	return family == AF_INET ? &t->root4 : &t->root6;
}

void allowed_ips_init(struct allowed_ips *t)
{
	t->root4 = t->root6 = NULL;
	t->head = t->tail = NULL;
}

static void unlink_entry(struct allowed_ips *t, struct aip_entry *e)
{
	*(e->prev ? &e->prev->next : &t->head) = e->next;
	*(e->next ? &e->next->prev : &t->tail) = e->prev;
	e->prev = e->next = NULL;
}

static void append_entry(struct allowed_ips *t, struct aip_entry *e)
{
	e->prev = t->tail;
	e->next = NULL;
	*(t->tail ? &t->tail->next : &t->head) = e;
	t->tail = e;
}

static void free_tree(struct aip_node *n)
{
	if (!n)
		return;
	free_tree(n->child[0]);
	free_tree(n->child[1]);
	free(n->entry);
	free(n);
}

void allowed_ips_free(struct allowed_ips *t)
{
	free_tree(t->root4);
	free_tree(t->root6);
	allowed_ips_init(t);
}

void aip_prefix_canonicalise(struct aip_prefix *p)
{
	int bits = family_bits(p->family);

	if (bits < 0)
		return;
	for (int i = p->cidr; i < 128; i++)
		p->addr[i / 8] &= (uint8_t) ~(0x80 >> (i % 8));
}

static int check_prefix(const struct aip_prefix *p)
{
	int bits = family_bits(p->family);

	return bits < 0 || p->cidr > bits ? -EINVAL : 0;
}

int allowed_ips_insert(struct allowed_ips *t, const struct aip_prefix *p, const void *peer)
{
	struct aip_node **slot = root_of(t, p->family);
	struct aip_prefix c = *p;

	if (check_prefix(p) || !peer)
		return -EINVAL;
	aip_prefix_canonicalise(&c);
	for (unsigned int i = 0;; i++) {
		if (!*slot) {
			*slot = calloc(1, sizeof(**slot));
			if (!*slot)
				return -ENOMEM;
		}
		if (i == c.cidr)
			break;
		slot = &(*slot)->child[bit_at(c.addr, i)];
	}
	if (!(*slot)->entry) {
		(*slot)->entry = calloc(1, sizeof(*(*slot)->entry));
		if (!(*slot)->entry)
			return -ENOMEM; /* the empty nodes left are pruned by later removals */
		(*slot)->entry->prefix = c;
	} else {
		unlink_entry(t, (*slot)->entry);
	}
	(*slot)->entry->peer = peer;
	append_entry(t, (*slot)->entry);
	return 0;
}

static void drop_entry(struct allowed_ips *t, struct aip_node *n)
{
	unlink_entry(t, n->entry);
	free(n->entry);
	n->entry = NULL;
}

/* Frees n if nothing hangs from it any more; returns whether it did. */
static bool prune(struct aip_node **slot)
{
	struct aip_node *n = *slot;

	if (n->entry || n->child[0] || n->child[1])
		return false;
	free(n);
	*slot = NULL;
	return true;
}

static int remove_at(struct allowed_ips *t, struct aip_node **slot, const struct aip_prefix *p,
		     unsigned int depth, const void *peer)
{
	int ret;

	if (!*slot)
		return -ENOENT;
	if (depth == p->cidr) {
		if (!(*slot)->entry || (*slot)->entry->peer != peer)
			return -ENOENT;
		drop_entry(t, *slot);
		ret = 0;
	} else {
		ret = remove_at(t, &(*slot)->child[bit_at(p->addr, depth)], p, depth + 1, peer);
	}
	if (!ret)
		prune(slot);
	return ret;
}

int allowed_ips_remove(struct allowed_ips *t, const struct aip_prefix *p, const void *peer)
{
	struct aip_prefix c = *p;

	if (check_prefix(p) || !peer)
		return -EINVAL;
	aip_prefix_canonicalise(&c);
	return remove_at(t, root_of(t, p->family), &c, 0, peer);
}

static void remove_peer_at(struct allowed_ips *t, struct aip_node **slot, const void *peer)
{
	if (!*slot)
		return;
	if ((*slot)->entry && (*slot)->entry->peer == peer)
		drop_entry(t, *slot);
	remove_peer_at(t, &(*slot)->child[0], peer);
	remove_peer_at(t, &(*slot)->child[1], peer);
	prune(slot);
}

void allowed_ips_remove_peer(struct allowed_ips *t, const void *peer)
{
	remove_peer_at(t, &t->root4, peer);
	remove_peer_at(t, &t->root6, peer);
}

const void *allowed_ips_lookup(const struct allowed_ips *t, int family, const uint8_t *addr)
{
	int bits = family_bits(family);
	const struct aip_node *n;
	const void *best = NULL;

	if (bits < 0)
		return NULL;
	n = family == AF_INET ? t->root4 : t->root6;
	for (int i = 0; n; i++) {
		if (n->entry)
			best = n->entry->peer;
		if (i == bits)
			break;
		n = n->child[bit_at(addr, i)];
	}
	return best;
}

bool allowed_ips_check(const struct allowed_ips *t, int family, const uint8_t *addr,
		       const void *peer)
{
	return peer && allowed_ips_lookup(t, family, addr) == peer;
}

int allowed_ips_walk(const struct allowed_ips *t, const void *peer,
		     int (*fn)(const struct aip_prefix *p, void *ctx), void *ctx)
{
	int ret;

	for (const struct aip_entry *e = t->head; e; e = e->next)
		if (e->peer == peer && (ret = fn(&e->prefix, ctx)))
			return ret;
	return 0;
}
