// SPDX-License-Identifier: GPL-2.0
/*
 * The AC's and the WireGuard device's maps (user/shell/u32_map.h): random puts, deletes,
 * sweeps (del_if) and resizes against a plain array, so that deletion's backward shift
 * never loses an entry or mixes up values, a sweep takes exactly what it is told to,
 * wrapping runs included, and a resize keeps everything; bounds and 0.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

#include "check.h"
#include "u32_map.h"

#define MAX 300

struct entry {
	uint32_t key;
	uintptr_t value;
};

static int find(const struct entry *a, unsigned int n, uint32_t key)
{
	for (unsigned int i = 0; i < n; i++)
		if (a[i].key == key)
			return (int)i;
	return -1;
}

/*
 * Keys drawn from 400 values: many collisions and deletes. Addresses of a pool in network
 * order (they differ in their top byte), else small numbers counting up (ifindexes).
 */
static uint32_t key_of(bool address, unsigned int i)
{
	return address ? htonl(0x64400000u + i + 1) : i + 1;
}

/* A value as wide as a pointer: the WireGuard device keeps its peers' addresses. */
static uintptr_t random_value(void)
{
	return (uintptr_t)random() << (sizeof(uintptr_t) > 4 ? 31 : 0) ^ (uintptr_t)random();
}

/* del_if's predicate: the values with this remainder by 5 go. */
static bool value_gone(uint32_t key, uintptr_t value, void *ctx)
{
	(void)key;
	return value % 5 == *(uintptr_t *)ctx;
}

static void random_ops(bool address)
{
	struct entry have[MAX];
	unsigned int n = 0, op, max = MAX;
	struct u32_map m;

	srandom(17);
	CHECK_EQ(u32_map_init(&m, max), 0);
	for (op = 0; op < 200000; op++) {
		uint32_t key = key_of(address, (unsigned int)(random() % 400));
		uintptr_t value = random_value();
		int at = find(have, n, key);
		long what = random() % 1000;

		if (what < 2) {
			/* A sweep: every fifth value on average goes, nothing else. */
			uintptr_t rest = value % 5;

			u32_map_del_if(&m, value_gone, &rest);
			for (unsigned int i = 0; i < n;)
				if (have[i].value % 5 == rest)
					have[i] = have[--n];
				else
					i++;
		} else if (what < 4) {
			/* A resize, to any room from what is held to MAX (asking for less keeps
			 * all). */
			max = (unsigned int)(random() % (MAX + 1));
			CHECK_EQ(u32_map_resize(&m, max), 0);
			if (max < n)
				max = n;
			CHECK_EQ(m.max, max);
		} else if (what % 2) {
			int err = u32_map_put(&m, key, value);

			if (at >= 0) {
				CHECK_EQ(err, 0);
				have[at].value = value;
			} else if (n < max) {
				CHECK_EQ(err, 0);
				have[n++] = (struct entry){ key, value };
			} else {
				CHECK_EQ(err, -ENOSPC);
			}
		} else {
			u32_map_del(&m, key);
			if (at >= 0)
				have[at] = have[--n];
		}
		CHECK_EQ(m.count, n);
		if (op % 997 == 0 || what < 4)
			for (unsigned int i = 0; i < 400; i++) {
				uint32_t q = key_of(address, i);
				uintptr_t got = 0;
				int want = find(have, n, q);

				CHECK_EQ(u32_map_get(&m, q, &got), want >= 0);
				if (want >= 0)
					CHECK_EQ(got, have[want].value);
			}
	}
	u32_map_free(&m);
}

TEST(random_ops_on_addresses)
{
	random_ops(true);
}

TEST(random_ops_on_ifindexes)
{
	random_ops(false);
}

TEST(zero_and_empty)
{
	struct u32_map m;
	uintptr_t v = 7;

	CHECK_EQ(u32_map_init(&m, 0), 0);
	CHECK_EQ(u32_map_put(&m, 0, 1), -EINVAL);
	CHECK_EQ(u32_map_put(&m, 1, 1), -ENOSPC);
	CHECK(!u32_map_get(&m, 0, &v));
	CHECK(!u32_map_get(&m, 1, NULL));
	CHECK_EQ(v, 7u);
	u32_map_del(&m, 1);
	u32_map_free(&m);
	CHECK(!u32_map_get(&m, 1, NULL));
}

/* The slot key lands in when alone in an empty map of m's size: its home. */
static unsigned int home_of(struct u32_map *m, uint32_t key)
{
	unsigned int at = 0;

	if (u32_map_put(m, key, 1))
		return UINT_MAX;
	while (m->slots[at].key != key)
		at++;
	u32_map_del(m, key);
	return at;
}

static bool odd_value_gone(uint32_t key, uintptr_t value, void *ctx)
{
	(void)key;
	(void)ctx;
	return value % 2;
}

/*
 * A run that wraps past the table's end: three keys at home in the last slot fill it and
 * the first two. Sweeping the first two (the wrapped part moves back over the end) keeps
 * the third, and sweeping around a kept one keeps it too.
 */
TEST(del_if_across_the_end)
{
	struct u32_map m;
	uint32_t key[3], k = 1;
	uintptr_t v;

	CHECK_EQ(u32_map_init(&m, 3), 0);
	for (unsigned int n = 0; n < 3; k++)
		if (home_of(&m, k) == m.mask)
			key[n++] = k;
	for (unsigned int i = 0; i < 3; i++)
		CHECK_EQ(u32_map_put(&m, key[i], i == 2 ? 2 : 1), 0);
	CHECK_EQ(m.slots[0].key, key[1]);
	u32_map_del_if(&m, odd_value_gone, NULL);
	CHECK_EQ(m.count, 1u);
	CHECK(u32_map_get(&m, key[2], &v));
	CHECK_EQ(v, 2u);
	CHECK_EQ(m.slots[m.mask].key, key[2]);
	CHECK_EQ(u32_map_put(&m, key[0], 1), 0);
	CHECK_EQ(u32_map_put(&m, key[1], 3), 0);
	u32_map_del_if(&m, odd_value_gone, NULL);
	CHECK_EQ(m.count, 1u);
	CHECK(u32_map_get(&m, key[2], NULL));
	CHECK(!u32_map_get(&m, key[0], NULL) && !u32_map_get(&m, key[1], NULL));
	u32_map_free(&m);
}

int main(void)
{
	check_prefix = "u32_map";
	RUN(random_ops_on_addresses);
	RUN(random_ops_on_ifindexes);
	RUN(zero_and_empty);
	RUN(del_if_across_the_end);
	return check_summary();
}
