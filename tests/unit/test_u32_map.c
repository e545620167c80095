// SPDX-License-Identifier: GPL-2.0
/*
 * The AC's maps (user/shell/u32_map.h): random puts and deletes against a plain array, so
 * that deletion's backward shift never loses an entry or mixes up values; bounds and 0.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "check.h"
#include "u32_map.h"

#define MAX 300

struct entry {
	uint32_t key, value;
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

static void random_ops(bool address)
{
	struct entry have[MAX];
	unsigned int n = 0, op;
	struct u32_map m;

	srandom(17);
	CHECK_EQ(u32_map_init(&m, MAX), 0);
	for (op = 0; op < 200000; op++) {
		uint32_t key = key_of(address, (unsigned int)(random() % 400)),
			 value = (uint32_t)random();
		int at = find(have, n, key);

		if (random() % 2) {
			int err = u32_map_put(&m, key, value);

			if (at >= 0) {
				CHECK_EQ(err, 0);
				have[at].value = value;
			} else if (n < MAX) {
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
		if (op % 997 == 0)
			for (unsigned int i = 0; i < 400; i++) {
				uint32_t q = key_of(address, i), got = 0;
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
	uint32_t v = 7;

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

int main(void)
{
	check_prefix = "u32_map";
	RUN(random_ops_on_addresses);
	RUN(random_ops_on_ifindexes);
	RUN(zero_and_empty);
	return check_summary();
}
