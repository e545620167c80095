// SPDX-License-Identifier: GPL-2.0
/* Allowed-IPs: a binary trie per family, one level per bit. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "allowed_ips.h"

struct aip_node {
	struct aip_node *child[2];
	const void *peer; /* NULL: no prefix ends here */
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
}

static void free_tree(struct aip_node *n)
{
	if (!n)
		return;
	free_tree(n->child[0]);
	free_tree(n->child[1]);
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
	(*slot)->peer = peer;
	return 0;
}

/* Frees n if nothing hangs from it any more; returns whether it did. */
static bool prune(struct aip_node **slot)
{
	struct aip_node *n = *slot;

	if (n->peer || n->child[0] || n->child[1])
		return false;
	free(n);
	*slot = NULL;
	return true;
}

static int remove_at(struct aip_node **slot, const struct aip_prefix *p, unsigned int depth,
		     const void *peer)
{
	int ret;

	if (!*slot)
		return -ENOENT;
	if (depth == p->cidr) {
		if ((*slot)->peer != peer)
			return -ENOENT;
		(*slot)->peer = NULL;
		ret = 0;
	} else {
		ret = remove_at(&(*slot)->child[bit_at(p->addr, depth)], p, depth + 1, peer);
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
	return remove_at(root_of(t, p->family), &c, 0, peer);
}

static void remove_peer_at(struct aip_node **slot, const void *peer)
{
	if (!*slot)
		return;
	if ((*slot)->peer == peer)
		(*slot)->peer = NULL;
	remove_peer_at(&(*slot)->child[0], peer);
	remove_peer_at(&(*slot)->child[1], peer);
	prune(slot);
}

void allowed_ips_remove_peer(struct allowed_ips *t, const void *peer)
{
	remove_peer_at(&t->root4, peer);
	remove_peer_at(&t->root6, peer);
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
		if (n->peer)
			best = n->peer;
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

static int walk_at(const struct aip_node *n, struct aip_prefix *p, unsigned int depth,
		   const void *peer, int (*fn)(const struct aip_prefix *p, void *ctx), void *ctx)
{
	int ret;

	if (!n)
		return 0;
	if (n->peer == peer) {
		p->cidr = depth;
		ret = fn(p, ctx);
		if (ret)
			return ret;
	}
	for (int b = 0; b < 2; b++) {
		if (b)
			p->addr[depth / 8] |= 0x80 >> (depth % 8);
		ret = walk_at(n->child[b], p, depth + 1, peer, fn, ctx);
		p->addr[depth / 8] &= (uint8_t) ~(0x80 >> (depth % 8));
		if (ret)
			return ret;
	}
	return 0;
}

int allowed_ips_walk(const struct allowed_ips *t, const void *peer,
		     int (*fn)(const struct aip_prefix *p, void *ctx), void *ctx)
{
	struct aip_prefix p = { .family = AF_INET };
	int ret = walk_at(t->root4, &p, 0, peer, fn, ctx);

	if (ret)
		return ret;
	memset(&p, 0, sizeof(p));
	p.family = AF_INET6;
	return walk_at(t->root6, &p, 0, peer, fn, ctx);
}
