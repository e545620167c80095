// SPDX-License-Identifier: GPL-2.0
/*
 * The handshake rate limiter against the Linux driver's selftest/ratelimiter.c table
 * (burst of 5, then one per 50 ms), per-source independence, IPv6 by /64, the bounded
 * table and its expiry; and the sticky "under load" switch.
 */
#include <errno.h>
#include <sys/socket.h>

#include "check.h"
#include "ratelimit.h"

#define MS 1000000ULL

static const struct {
	bool result;
	unsigned int ms_before;
} expected[] = {
	{ true, 0 },  { true, 0 },
	{ true, 0 },  { true, 0 },
	{ true, 0 }, /* PACKETS_BURSTABLE */
	{ false, 0 }, { true, 1000 / RATELIMIT_PACKETS_PER_SECOND },
	{ false, 0 }, { true, 1000 / RATELIMIT_PACKETS_PER_SECOND * 2 },
	{ true, 0 },  { false, 0 },
};

static struct ratelimit rl;

/* Runs the table for one source; a second source beside it is never limited by it. */
static int run_table(int family, const uint8_t *addr, const uint8_t *other, uint64_t *now)
{
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		*now += expected[i].ms_before * MS;
		if (ratelimit_allowed(&rl, family, addr, *now) != expected[i].result)
			return (int)i + 1;
	}
	return ratelimit_allowed(&rl, family, other, *now) ? 0 : -1;
}

TEST(kernel_selftest_table)
{
	uint8_t a4[4] = { 192, 168, 1, 1 }, b4[4] = { 192, 168, 1, 2 };
	uint8_t a6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1 };
	uint8_t b6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 2 };
	uint64_t now = 5000 * MS;

	CHECK_EQ(ratelimit_init(&rl, 64, 0x1234), 0);
	CHECK_EQ(run_table(AF_INET, a4, b4, &now), 0);
	CHECK_EQ(run_table(AF_INET6, a6, b6, &now), 0);
	/* After a second of quiet a source has its full burst again (and left the table). */
	now += 2000 * MS;
	CHECK_EQ(run_table(AF_INET, a4, b4, &now), 0);
	ratelimit_free(&rl);
}

TEST(ipv6_by_64)
{
	uint8_t a[16] = { 0x20, 0x01, 0x0d, 0xb8, 1, 2, 3, 4, 0xaa };
	uint64_t now = 0;

	CHECK_EQ(ratelimit_init(&rl, 64, 1), 0);
	for (int i = 0; i < RATELIMIT_PACKETS_BURSTABLE; i++) {
		a[15] = (uint8_t)i; /* other hosts of the same /64 share its bucket */
		CHECK(ratelimit_allowed(&rl, AF_INET6, a, now));
	}
	a[8] = 0xbb;
	CHECK(!ratelimit_allowed(&rl, AF_INET6, a, now));
	a[7] = 5; /* another /64 */
	CHECK(ratelimit_allowed(&rl, AF_INET6, a, now));
	CHECK(!ratelimit_allowed(&rl, AF_UNIX, a, now));
	ratelimit_free(&rl);
}

TEST(bounded_table_and_expiry)
{
	uint8_t a[4] = { 10, 0, 0, 0 };
	uint64_t now = 0;

	CHECK_EQ(ratelimit_init(&rl, 100, 7), 0);
	for (int i = 0; i < 100; i++) {
		a[3] = (uint8_t)i;
		CHECK(ratelimit_allowed(&rl, AF_INET, a, now));
	}
	CHECK_EQ(rl.used, 100);
	/* Full: a new source is refused, known ones still counted. */
	a[3] = 200;
	CHECK(!ratelimit_allowed(&rl, AF_INET, a, now + 10 * MS));
	a[3] = 0;
	CHECK(ratelimit_allowed(&rl, AF_INET, a, now + 10 * MS));
	/* A second and more later the idle ones are gone and new sources fit. */
	now += 1100 * MS;
	a[3] = 200;
	CHECK(ratelimit_allowed(&rl, AF_INET, a, now));
	CHECK_EQ(rl.used, 1);
	CHECK_EQ(ratelimit_init(&rl, 0, 0), -EINVAL);
	ratelimit_free(&rl);
}

TEST(under_load_sticky_1s)
{
	struct wg_load l = { 0 };

	CHECK(!wg_under_load(&l, 0, 0));
	CHECK(!wg_under_load(&l, WG_UNDER_LOAD_QUEUE_LEN - 1, 1 * MS));
	CHECK(wg_under_load(&l, WG_UNDER_LOAD_QUEUE_LEN, 2 * MS));
	CHECK(wg_under_load(&l, 0, 2 * MS + 999 * MS));
	CHECK(!wg_under_load(&l, 0, 2 * MS + 1000 * MS));
	CHECK(!wg_under_load(&l, 0, 2 * MS + 1001 * MS));
	CHECK_EQ(WG_UNDER_LOAD_QUEUE_LEN, 512);
}

int main(void)
{
	check_prefix = "wg_ratelimit";
	RUN(kernel_selftest_table);
	RUN(ipv6_by_64);
	RUN(bounded_table_and_expiry);
	RUN(under_load_sticky_1s);
	return check_summary();
}
