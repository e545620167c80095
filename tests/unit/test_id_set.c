// SPDX-License-Identifier: GPL-2.0
/*
 * The lowest-free sets (user/shell/id_set.h): random adds and deletes against a plain
 * array, whose lowest free number a scan finds, at sizes around the words' and levels'
 * edges; filling up and emptying; a /8 pool's size.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "check.h"
#include "id_set.h"

static uint32_t scan_lowest_free(const bool *in, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n && in[i]; i++)
		;
	return i;
}

static void random_ops(uint32_t n, unsigned int ops)
{
	bool *in = calloc(n, sizeof(*in));
	struct id_set s;

	CHECK(in != NULL);
	CHECK_EQ(id_set_init(&s, n), 0);
	srandom(n);
	for (unsigned int op = 0; op < ops; op++) {
		/* Mostly adds of the lowest free, as the AC does, so that the set fills up. */
		uint32_t i = random() % 3 ? id_set_lowest_free(&s) : (uint32_t)random() % n;

		if (i == n)
			i = (uint32_t)random() % n;
		if (random() % 4) {
			id_set_add(&s, i);
			in[i] = true;
		} else {
			id_set_del(&s, i);
			in[i] = false;
		}
		CHECK_EQ(id_set_has(&s, i), in[i]);
		CHECK_EQ(id_set_lowest_free(&s), scan_lowest_free(in, n));
	}
	for (uint32_t i = 0; i < n; i++)
		CHECK_EQ(id_set_has(&s, i), in[i]);
	id_set_free(&s);
	free(in);
}

TEST(random_ops_match_an_array)
{
	static const uint32_t sizes[] = { 1, 2, 63, 64, 65, 127, 4095, 4096, 4097, 262145 };

	for (unsigned int k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		random_ops(sizes[k], sizes[k] < 5000 ? 20000 : 2000);
}

/* Every number once in order, then out again from the middle: the lowest follows. */
TEST(fill_and_empty)
{
	const uint32_t n = 70000;
	struct id_set s;

	CHECK_EQ(id_set_init(&s, n), 0);
	for (uint32_t i = 0; i < n; i++) {
		CHECK_EQ(id_set_lowest_free(&s), i);
		id_set_add(&s, i);
	}
	CHECK_EQ(id_set_lowest_free(&s), n);
	id_set_add(&s, 5);
	id_set_add(&s, n); /* out of range: ignored */
	CHECK_EQ(id_set_lowest_free(&s), n);
	for (uint32_t i = n; i-- > n / 2;) {
		id_set_del(&s, i);
		CHECK_EQ(id_set_lowest_free(&s), i);
	}
	id_set_del(&s, 4096);
	CHECK_EQ(id_set_lowest_free(&s), 4096u);
	id_set_del(&s, 4096);
	id_set_add(&s, 4096);
	CHECK_EQ(id_set_lowest_free(&s), n / 2);
	id_set_free(&s);
}

/* A /8 pool: four levels; the last number and the one past it. */
TEST(pool_of_a_slash_8)
{
	const uint32_t n = (1u << 24) - 2;
	struct id_set s;

	CHECK_EQ(id_set_init(&s, n), 0);
	CHECK_EQ(s.levels, 4u);
	CHECK(!id_set_has(&s, n - 1));
	CHECK(!id_set_has(&s, n));
	id_set_add(&s, 0);
	CHECK_EQ(id_set_lowest_free(&s), 1u);
	id_set_del(&s, 0);
	CHECK_EQ(id_set_lowest_free(&s), 0u);
	id_set_free(&s);
	CHECK_EQ(id_set_init(&s, 0), -EINVAL);
}

int main(void)
{
	check_prefix = "id_set";
	RUN(random_ops_match_an_array);
	RUN(fill_and_empty);
	RUN(pool_of_a_slash_8);
	return check_summary();
}
