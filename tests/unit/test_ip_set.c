// SPDX-License-Identifier: GPL-2.0
/*
 * The AC's address sets (user/shell/ip_set.h): random adds and deletes against a plain
 * array, so that deletion's backward shift never loses an entry; bounds and 0.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "check.h"
#include "ip_set.h"

#define MAX 300

static bool in_array(const uint32_t *a, unsigned int n, uint32_t ip)
{
	for (unsigned int i = 0; i < n; i++)
		if (a[i] == ip)
			return true;
	return false;
}

TEST(random_ops_match_an_array)
{
	uint32_t have[MAX];
	unsigned int n = 0, op;
	struct ip_set s;

	srandom(17);
	CHECK_EQ(ip_set_init(&s, MAX), 0);
	for (op = 0; op < 200000; op++) {
		/* Few distinct addresses in a pool-like range: many collisions and deletes. */
		uint32_t ip = htonl(0x64400000u + (uint32_t)(random() % 400) + 1);

		if (random() % 2) {
			bool had = in_array(have, n, ip);
			int err = ip_set_add(&s, ip);

			if (had || n < MAX) {
				CHECK_EQ(err, 0);
				if (!had)
					have[n++] = ip;
			} else {
				CHECK_EQ(err, -ENOSPC);
			}
		} else {
			ip_set_del(&s, ip);
			for (unsigned int i = 0; i < n; i++)
				if (have[i] == ip)
					have[i] = have[--n];
		}
		CHECK_EQ(s.count, n);
		if (op % 997 == 0)
			for (unsigned int i = 0; i < 400; i++) {
				uint32_t q = htonl(0x64400000u + i + 1);

				CHECK_EQ(ip_set_has(&s, q), in_array(have, n, q));
			}
	}
	ip_set_free(&s);
}

TEST(zero_and_empty)
{
	struct ip_set s;

	CHECK_EQ(ip_set_init(&s, 0), 0);
	CHECK_EQ(ip_set_add(&s, 0), -EINVAL);
	CHECK_EQ(ip_set_add(&s, 1), -ENOSPC);
	CHECK(!ip_set_has(&s, 0));
	CHECK(!ip_set_has(&s, 1));
	ip_set_del(&s, 1);
	ip_set_free(&s);
	CHECK(!ip_set_has(&s, 1));
}

int main(void)
{
	check_prefix = "ip_set";
	RUN(random_ops_match_an_array);
	RUN(zero_and_empty);
	return check_summary();
}
