// SPDX-License-Identifier: GPL-2.0
/*
 * Allowed-IPs: wireguard-go's TestTrieIPv4/TestTrieIPv6 (ported there from the Linux
 * driver's selftest/allowedips.c), prefixes moving between peers, canonical prefixes,
 * the walk get=1 uses (in the order set, as the driver's selftest lists them), and random tables
 * against a brute-force longest-prefix match.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "allowed_ips.h"
#include "check.h"

static struct allowed_ips t;
static int a, b, c, d, e, f, g, h; /* peers: only their addresses matter */

static struct aip_prefix v4(uint8_t a0, uint8_t a1, uint8_t a2, uint8_t a3, uint8_t cidr)
{
	return (struct aip_prefix){ .family = AF_INET, .addr = { a0, a1, a2, a3 }, .cidr = cidr };
}

static struct aip_prefix v6(uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3, uint8_t cidr)
{
	struct aip_prefix p = { .family = AF_INET6, .cidr = cidr };
	uint32_t w[4] = { w0, w1, w2, w3 };

	for (int i = 0; i < 16; i++)
		p.addr[i] = (uint8_t)(w[i / 4] >> (24 - 8 * (i % 4)));
	return p;
}

static int ins(const void *peer, struct aip_prefix p)
{
	return allowed_ips_insert(&t, &p, peer);
}

static const void *look(struct aip_prefix p)
{
	return allowed_ips_lookup(&t, p.family, p.addr);
}

TEST(wireguard_go_trie_ipv4)
{
	allowed_ips_init(&t);
	CHECK_EQ(ins(&a, v4(192, 168, 4, 0, 24)), 0);
	CHECK_EQ(ins(&b, v4(192, 168, 4, 4, 32)), 0);
	CHECK_EQ(ins(&c, v4(192, 168, 0, 0, 16)), 0);
	CHECK_EQ(ins(&d, v4(192, 95, 5, 64, 27)), 0);
	CHECK_EQ(ins(&c, v4(192, 95, 5, 65, 27)), 0); /* same /27: moves it from d to c */
	CHECK_EQ(ins(&e, v4(0, 0, 0, 0, 0)), 0);
	CHECK_EQ(ins(&g, v4(64, 15, 112, 0, 20)), 0);
	CHECK_EQ(ins(&h, v4(64, 15, 123, 211, 25)), 0);
	CHECK_EQ(ins(&a, v4(10, 0, 0, 0, 25)), 0);
	CHECK_EQ(ins(&b, v4(10, 0, 0, 128, 25)), 0);
	CHECK_EQ(ins(&a, v4(10, 1, 0, 0, 30)), 0);
	CHECK_EQ(ins(&b, v4(10, 1, 0, 4, 30)), 0);
	CHECK_EQ(ins(&c, v4(10, 1, 0, 8, 29)), 0);
	CHECK_EQ(ins(&d, v4(10, 1, 0, 16, 29)), 0);

	CHECK(look(v4(192, 168, 4, 20, 32)) == &a);
	CHECK(look(v4(192, 168, 4, 0, 32)) == &a);
	CHECK(look(v4(192, 168, 4, 4, 32)) == &b);
	CHECK(look(v4(192, 168, 200, 182, 32)) == &c);
	CHECK(look(v4(192, 95, 5, 68, 32)) == &c);
	CHECK(look(v4(192, 95, 5, 96, 32)) == &e);
	CHECK(look(v4(64, 15, 116, 26, 32)) == &g);
	CHECK(look(v4(64, 15, 127, 3, 32)) == &g);

	CHECK_EQ(ins(&a, v4(1, 0, 0, 0, 32)), 0);
	CHECK_EQ(ins(&a, v4(64, 0, 0, 0, 32)), 0);
	CHECK_EQ(ins(&a, v4(128, 0, 0, 0, 32)), 0);
	CHECK_EQ(ins(&a, v4(192, 0, 0, 0, 32)), 0);
	CHECK_EQ(ins(&a, v4(255, 0, 0, 0, 32)), 0);
	CHECK(look(v4(1, 0, 0, 0, 32)) == &a);
	CHECK(look(v4(64, 0, 0, 0, 32)) == &a);
	CHECK(look(v4(128, 0, 0, 0, 32)) == &a);
	CHECK(look(v4(192, 0, 0, 0, 32)) == &a);
	CHECK(look(v4(255, 0, 0, 0, 32)) == &a);

	allowed_ips_remove_peer(&t, &a);
	CHECK(look(v4(1, 0, 0, 0, 32)) != &a);
	CHECK(look(v4(64, 0, 0, 0, 32)) != &a);
	CHECK(look(v4(128, 0, 0, 0, 32)) != &a);
	CHECK(look(v4(192, 0, 0, 0, 32)) != &a);
	CHECK(look(v4(255, 0, 0, 0, 32)) != &a);

	allowed_ips_remove_peer(&t, &a);
	allowed_ips_remove_peer(&t, &b);
	allowed_ips_remove_peer(&t, &c);
	allowed_ips_remove_peer(&t, &d);
	allowed_ips_remove_peer(&t, &e);
	allowed_ips_remove_peer(&t, &g);
	allowed_ips_remove_peer(&t, &h);
	CHECK(t.root4 == NULL && t.root6 == NULL && t.head == NULL && t.tail == NULL);

	CHECK_EQ(ins(&a, v4(192, 168, 0, 0, 16)), 0);
	CHECK_EQ(ins(&a, v4(192, 168, 0, 0, 24)), 0);
	allowed_ips_remove_peer(&t, &a);
	CHECK(t.root4 == NULL && t.root6 == NULL);
}

TEST(wireguard_go_trie_ipv6)
{
	allowed_ips_init(&t);
	CHECK_EQ(ins(&d, v6(0x26075300, 0x60006b00, 0, 0xc05f0543, 128)), 0);
	CHECK_EQ(ins(&c, v6(0x26075300, 0x60006b00, 0, 0, 64)), 0);
	CHECK_EQ(ins(&e, v6(0, 0, 0, 0, 0)), 0);
	CHECK_EQ(ins(&f, v6(0, 0, 0, 0, 0)), 0);
	CHECK_EQ(ins(&g, v6(0x24046800, 0, 0, 0, 32)), 0);
	CHECK_EQ(ins(&h, v6(0x24046800, 0x40040800, 0xdeadbeef, 0xdeadbeef, 64)), 0);
	CHECK_EQ(ins(&a, v6(0x24046800, 0x40040800, 0xdeadbeef, 0xdeadbeef, 128)), 0);
	CHECK_EQ(ins(&c, v6(0x24446800, 0x40e40800, 0xdeaebeef, 0xdefbeef, 128)), 0);
	CHECK_EQ(ins(&b, v6(0x24446800, 0xf0e40800, 0xeeaebeef, 0, 98)), 0);

	CHECK(look(v6(0x26075300, 0x60006b00, 0, 0xc05f0543, 128)) == &d);
	CHECK(look(v6(0x26075300, 0x60006b00, 0, 0xc02e01ee, 128)) == &c);
	CHECK(look(v6(0x26075300, 0x60006b01, 0, 0, 128)) == &f);
	CHECK(look(v6(0x24046800, 0x40040806, 0, 0x1006, 128)) == &g);
	CHECK(look(v6(0x24046800, 0x40040806, 0x1234, 0x5678, 128)) == &g);
	CHECK(look(v6(0x240467ff, 0x40040806, 0x1234, 0x5678, 128)) == &f);
	CHECK(look(v6(0x24046801, 0x40040806, 0x1234, 0x5678, 128)) == &f);
	CHECK(look(v6(0x24046800, 0x40040800, 0x1234, 0x5678, 128)) == &h);
	CHECK(look(v6(0x24046800, 0x40040800, 0, 0, 128)) == &h);
	CHECK(look(v6(0x24046800, 0x40040800, 0x10101010, 0x10101010, 128)) == &h);
	CHECK(look(v6(0x24046800, 0x40040800, 0xdeadbeef, 0xdeadbeef, 128)) == &a);
	/* The families are apart: IPv6's ::/0 says nothing about IPv4. */
	CHECK(look(v4(1, 2, 3, 4, 32)) == NULL);
	allowed_ips_free(&t);
	CHECK(t.root6 == NULL);
}

static bool same_prefix(const struct aip_prefix *a, const struct aip_prefix *b)
{
	return a->family == b->family && a->cidr == b->cidr && !memcmp(a->addr, b->addr, 16);
}

static int collect(const struct aip_prefix *p, void *ctx)
{
	struct aip_prefix **out = ctx;

	*(*out)++ = *p;
	return 0;
}

TEST(canonical_move_remove_walk)
{
	struct aip_prefix got[8], *end = got, p;

	allowed_ips_init(&t);
	/* Host bits are cleared: 10.1.2.3/8 is 10.0.0.0/8. */
	CHECK_EQ(ins(&a, v4(10, 1, 2, 3, 8)), 0);
	CHECK_EQ(ins(&a, v6(0x20010db8, 0, 0, 1, 64)), 0);
	CHECK_EQ(ins(&a, v4(192, 0, 2, 1, 32)), 0);
	CHECK_EQ(allowed_ips_walk(&t, &a, collect, &end), 0);
	/* In the order given, as wireguard-go's get=1 lists them. */
	CHECK_EQ(end - got, 3);
	p = v4(10, 0, 0, 0, 8);
	CHECK(same_prefix(&got[0], &p));
	p = v6(0x20010db8, 0, 0, 0, 64);
	CHECK(same_prefix(&got[1], &p));
	p = v4(192, 0, 2, 1, 32);
	CHECK(same_prefix(&got[2], &p));
	/* Setting one again moves it to the end. */
	CHECK_EQ(ins(&a, v4(10, 0, 0, 0, 8)), 0);
	end = got;
	CHECK_EQ(allowed_ips_walk(&t, &a, collect, &end), 0);
	CHECK_EQ(end - got, 3);
	p = v4(10, 0, 0, 0, 8);
	CHECK(same_prefix(&got[2], &p));

	/* Inserting for b moves the prefix; a no longer owns it, so cannot remove it. */
	CHECK_EQ(ins(&b, v4(10, 9, 9, 9, 8)), 0);
	CHECK(allowed_ips_check(&t, AF_INET, v4(10, 7, 7, 7, 32).addr, &b));
	CHECK(!allowed_ips_check(&t, AF_INET, v4(10, 7, 7, 7, 32).addr, &a));
	p = v4(10, 0, 0, 0, 8);
	CHECK_EQ(allowed_ips_remove(&t, &p, &a), -ENOENT);
	CHECK_EQ(allowed_ips_remove(&t, &p, &b), 0);
	CHECK(look(v4(10, 7, 7, 7, 32)) == NULL);
	end = got;
	CHECK_EQ(allowed_ips_walk(&t, &b, collect, &end), 0);
	CHECK_EQ(end - got, 0);
	CHECK(!allowed_ips_check(&t, AF_INET, v4(10, 7, 7, 7, 32).addr, NULL));

	/* Bad prefixes are refused. */
	p = v4(10, 0, 0, 0, 33);
	CHECK_EQ(allowed_ips_insert(&t, &p, &a), -EINVAL);
	p = v6(0, 0, 0, 0, 129);
	CHECK_EQ(allowed_ips_insert(&t, &p, &a), -EINVAL);
	p.family = 12345;
	p.cidr = 0;
	CHECK_EQ(allowed_ips_insert(&t, &p, &a), -EINVAL);
	CHECK(allowed_ips_lookup(&t, 12345, p.addr) == NULL);
	allowed_ips_free(&t);
}

/* The Linux driver's selftest: a peer's list holds its prefixes canonical, none else. */
TEST(kernel_selftest_list)
{
	struct aip_prefix got[8], *end = got, want[5];

	allowed_ips_init(&t);
	CHECK_EQ(ins(&a, v4(192, 95, 5, 93, 27)), 0);
	CHECK_EQ(ins(&a, v6(0x26075300, 0x60006b00, 0, 0xc05f0543, 128)), 0);
	CHECK_EQ(ins(&a, v4(10, 1, 0, 20, 29)), 0);
	CHECK_EQ(ins(&a, v6(0x26075300, 0x6d8a6bf8, 0xdab1f1df, 0xc05f1523, 83)), 0);
	CHECK_EQ(ins(&a, v6(0x26075300, 0x6d8a6bf8, 0xdab1f1df, 0xc05f1523, 21)), 0);
	CHECK_EQ(ins(&b, v4(10, 0, 0, 0, 8)), 0);
	CHECK_EQ(allowed_ips_walk(&t, &a, collect, &end), 0);
	want[0] = v4(192, 95, 5, 64, 27);
	want[1] = v6(0x26075300, 0x60006b00, 0, 0xc05f0543, 128);
	want[2] = v4(10, 1, 0, 16, 29);
	want[3] = v6(0x26075300, 0x6d8a6bf8, 0xdab1e000, 0, 83);
	want[4] = v6(0x26075000, 0, 0, 0, 21);
	CHECK_EQ(end - got, 5);
	for (int i = 0; i < 5; i++)
		CHECK(same_prefix(&got[i], &want[i]));
	allowed_ips_free(&t);
	CHECK(t.head == NULL && t.root4 == NULL);
}

/* The selftest's deep tries: /128s along every depth, then all freed. */
TEST(kernel_selftest_deep)
{
	struct aip_prefix p = { .family = AF_INET6, .cidr = 128 };

	allowed_ips_init(&t);
	for (int i = 0; i < 64; ++i) {
		uint64_t part = ~0ULL << i;

		memset(p.addr, 0xff, 8);
		for (int j = 0; j < 8; j++)
			p.addr[8 + j] = (uint8_t)(part >> (56 - 8 * j));
		CHECK_EQ(allowed_ips_insert(&t, &p, &a), 0);
		memcpy(p.addr, p.addr + 8, 8);
		memset(p.addr + 8, 0, 8);
		CHECK_EQ(allowed_ips_insert(&t, &p, &a), 0);
		CHECK(allowed_ips_lookup(&t, AF_INET6, p.addr) == &a);
	}
	memset(p.addr, 0, 16);
	CHECK_EQ(allowed_ips_insert(&t, &p, &a), 0);
	allowed_ips_remove_peer(&t, &a);
	CHECK(t.root6 == NULL && t.head == NULL);
	/* The newer selftest's variant: all ones but one bit, in either half. */
	for (int i = 0; i < 128; ++i) {
		uint64_t part = ~(1ULL << (i % 64));

		memset(p.addr, 0xff, 16);
		for (int j = 0; j < 8; j++)
			p.addr[(i < 64) * 8 + j] = (uint8_t)(part >> (56 - 8 * j));
		CHECK_EQ(allowed_ips_insert(&t, &p, &a), 0);
	}
	allowed_ips_free(&t);
	CHECK(t.root6 == NULL && t.head == NULL);
}

/* Random prefixes for 8 peers against a linear scan for the longest match. */
#define REF_MAX 400
static struct {
	struct aip_prefix p;
	const void *peer;
} ref[REF_MAX];
static size_t ref_n;
static int peers[8];

static bool covers(const struct aip_prefix *p, const uint8_t *addr)
{
	for (int i = 0; i < p->cidr; i++)
		if (((p->addr[i / 8] ^ addr[i / 8]) >> (7 - i % 8)) & 1)
			return false;
	return true;
}

static const void *ref_lookup(int family, const uint8_t *addr)
{
	const void *best = NULL;
	int best_cidr = -1;

	for (size_t i = 0; i < ref_n; i++)
		if (ref[i].peer && ref[i].p.family == family && ref[i].p.cidr > best_cidr &&
		    covers(&ref[i].p, addr)) {
			best = ref[i].peer;
			best_cidr = ref[i].p.cidr;
		}
	return best;
}

/* Kept in the order last set, as the walk must give them. */
static void ref_insert(struct aip_prefix p, const void *peer)
{
	aip_prefix_canonicalise(&p);
	for (size_t i = 0; i < ref_n; i++)
		if (same_prefix(&ref[i].p, &p)) {
			memmove(&ref[i], &ref[i + 1], (ref_n - i - 1) * sizeof(ref[0]));
			ref_n--;
			break;
		}
	ref[ref_n].p = p;
	ref[ref_n++].peer = peer;
}

struct walk_check {
	const void *peer;
	size_t at; /* index in ref to look from */
	bool bad;
};

static int walk_matches_ref(const struct aip_prefix *p, void *ctx)
{
	struct walk_check *w = ctx;

	while (w->at < ref_n && ref[w->at].peer != w->peer)
		w->at++;
	if (w->at == ref_n || !same_prefix(&ref[w->at].p, p))
		w->bad = true;
	w->at++;
	return 0;
}

static void random_addr(int family, uint8_t *addr)
{
	/* Few distinct leading bytes, so prefixes overlap often. */
	memset(addr, 0, 16);
	for (int i = 0; i < (family == AF_INET ? 4 : 16); i++)
		addr[i] = (uint8_t)(i < 2 ? rand() % 4 : rand());
}

TEST(random_against_brute_force)
{
	uint8_t addr[16];

	srand(15);
	for (int round = 0; round < 20; round++) {
		allowed_ips_init(&t);
		ref_n = 0;
		for (int i = 0; i < REF_MAX / 2; i++) {
			int family = rand() % 2 ? AF_INET : AF_INET6;
			struct aip_prefix p = { .family = family };

			random_addr(family, p.addr);
			p.cidr = (uint8_t)(rand() % ((family == AF_INET ? 32 : 128) + 1));
			const void *peer = &peers[rand() % 8];

			CHECK_EQ(allowed_ips_insert(&t, &p, peer), 0);
			ref_insert(p, peer);
		}
		/* Drop one peer entirely, as remove=true does. */
		allowed_ips_remove_peer(&t, &peers[round % 8]);
		for (size_t i = 0; i < ref_n; i++)
			if (ref[i].peer == &peers[round % 8])
				ref[i].peer = NULL;
		for (int i = 0; i < 8; i++) {
			struct walk_check w = { .peer = &peers[i] };

			CHECK_EQ(allowed_ips_walk(&t, &peers[i], walk_matches_ref, &w), 0);
			while (w.at < ref_n && ref[w.at].peer != w.peer)
				w.at++;
			CHECK(!w.bad && w.at >= ref_n);
		}
		for (int i = 0; i < 2000; i++) {
			int family = rand() % 2 ? AF_INET : AF_INET6;

			random_addr(family, addr);
			CHECK(allowed_ips_lookup(&t, family, addr) == ref_lookup(family, addr));
		}
		allowed_ips_free(&t);
	}
}

int main(void)
{
	check_prefix = "wg_allowed_ips";
	RUN(wireguard_go_trie_ipv4);
	RUN(wireguard_go_trie_ipv6);
	RUN(canonical_move_remove_walk);
	RUN(kernel_selftest_list);
	RUN(kernel_selftest_deep);
	RUN(random_against_brute_force);
	return check_summary();
}
