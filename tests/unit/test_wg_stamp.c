// SPDX-License-Identifier: GPL-2.0
/* wg-bridge/wg_stamp.c: handshake stamps that keep increasing across restarts. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "wg_stamp.h"

static uint64_t seconds_of(const uint8_t t[WG_TAI64N_LEN])
{
	uint64_t s = 0;

	for (int i = 0; i < 8; i++)
		s = s << 8 | t[i];
	return s - 0x400000000000000aULL;
}

TEST(first_stamp_is_the_clock_and_asks_for_a_bound)
{
	struct wg_stamp s;
	uint8_t t[WG_TAI64N_LEN], now[WG_TAI64N_LEN], want[WG_TAI64N_LEN];

	wg_stamp_start(&s, NULL);
	wg_stamp_next(&s, t, 1700000000, 0);
	wg_tai64n(now, 1700000000, 0);
	CHECK_MEM(t, now, WG_TAI64N_LEN);
	CHECK(wg_stamp_bound_needed(&s, want));
	CHECK_EQ(seconds_of(want), 1700000000 + WG_STAMP_RESERVE_S);
	memcpy(s.bound, want, sizeof(want));
	/* Within the reserve: no write. */
	wg_stamp_next(&s, t, 1700000000 + WG_STAMP_RESERVE_S - 1, 0);
	CHECK(!wg_stamp_bound_needed(&s, want));
	/* Past it: a new bound. */
	wg_stamp_next(&s, t, 1700000000 + WG_STAMP_RESERVE_S + 1, 0);
	CHECK(wg_stamp_bound_needed(&s, want));
	CHECK_EQ(seconds_of(want), 1700000000 + 2 * WG_STAMP_RESERVE_S + 1);
}

/* The router without an RTC: it boots a year behind, with the bound from its file. */
TEST(restart_with_the_clock_back)
{
	struct wg_stamp s;
	uint8_t before[WG_TAI64N_LEN], t[WG_TAI64N_LEN], want[WG_TAI64N_LEN];

	wg_stamp_start(&s, NULL);
	wg_stamp_next(&s, before, 1700000000, 0);
	CHECK(wg_stamp_bound_needed(&s, want));
	wg_stamp_start(&s, want);
	wg_stamp_next(&s, t, 1700000000 - 365 * 86400, 0);
	CHECK(wg_tai64n_cmp(t, before) > 0);
	CHECK(wg_tai64n_cmp(t, want) > 0);
	/* It went past the bound read: persisted again before it is sent. */
	CHECK(wg_stamp_bound_needed(&s, want));
}

static uint32_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return (uint32_t)*x;
}

/*
 * Random clocks (jumping back and forth) and restarts that keep only what was persisted:
 * every stamp sent is greater than every one before it.
 */
TEST(random_clocks_and_restarts_never_go_back)
{
	struct wg_stamp s;
	uint8_t max[WG_TAI64N_LEN] = { 0 }, t[WG_TAI64N_LEN], want[WG_TAI64N_LEN];
	uint8_t disk[WG_TAI64N_LEN];
	bool on_disk = false;
	uint64_t x = 88172645463325252ULL, clock = 1700000000;
	unsigned int writes = 0;

	wg_stamp_start(&s, NULL);
	for (int i = 0; i < 100000; i++) {
		uint32_t r = rnd(&x);

		if (r % 97 == 0)
			wg_stamp_start(&s, on_disk ? disk : NULL);
		if (r % 13 == 0)
			clock -= rnd(&x) % 100000;
		else
			clock += rnd(&x) % 7;
		wg_stamp_next(&s, t, clock, rnd(&x) % 1000000000);
		if (wg_stamp_bound_needed(&s, want)) {
			memcpy(disk, want, sizeof(disk));
			memcpy(s.bound, want, sizeof(want));
			on_disk = true;
			writes++;
		}
		CHECK(wg_tai64n_cmp(t, max) > 0);
		CHECK(wg_tai64n_cmp(t, s.bound) <= 0);
		memcpy(max, t, sizeof(max));
	}
	/* Far fewer writes than stamps (one per restart at most, plus the clock's advance). */
	CHECK(writes < 100000 / 10);
}

TEST(format_and_parse)
{
	uint8_t b[WG_TAI64N_LEN], back[WG_TAI64N_LEN];
	char text[WG_STAMP_TEXT_LEN];
	const char *why = NULL;

	wg_tai64n(b, 1700000000, 999999999);
	wg_stamp_format(text, b);
	CHECK(memcmp(text, "400000006553f10a3b000000\n", WG_STAMP_TEXT_LEN) == 0);
	CHECK_EQ(wg_stamp_parse(text, sizeof(text), back, &why), 0);
	CHECK_MEM(back, b, WG_TAI64N_LEN);
	/* Without the newline, and in upper case. */
	CHECK_EQ(wg_stamp_parse("400000006553F10A3B000000", 24, back, &why), 0);
	CHECK_MEM(back, b, WG_TAI64N_LEN);
}

TEST(parse_refuses)
{
	static const char *const bad[] = {
		"",
		"\n",
		"400000006553f10a3b00000",	/* 23 digits */
		"400000006553f10a3b0000000",	/* 25 */
		"400000006553f10a3b000000\n\n", /* two newlines */
		"400000006553f10a3b00000g",	/* not hex */
		"400000006553f10a3b00000 ",	/* a space */
		"3fffffffffffffff00000000",	/* below 2^62 */
		"800000000000000000000000",	/* 2^63 */
		"400000006553f10a3b9aca00",	/* 10^9 ns */
		"400000006553f10a\n3b000000\n", /* a newline inside */
	};
	uint8_t b[WG_TAI64N_LEN];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *why = NULL;

		CHECK_EQ(wg_stamp_parse(bad[i], strlen(bad[i]), b, &why), -EINVAL);
		CHECK(why != NULL);
	}
}

TEST(file_name_is_a_hash)
{
	uint8_t pub[WG_KEY_LEN], other[WG_KEY_LEN];
	char name[WG_STAMP_NAME_LEN], again[WG_STAMP_NAME_LEN];

	for (int i = 0; i < WG_KEY_LEN; i++)
		pub[i] = other[i] = (uint8_t)(0xa0 + i);
	other[31] ^= 1;
	wg_stamp_file_name(name, pub);
	wg_stamp_file_name(again, pub);
	CHECK_EQ(strlen(name), WG_STAMP_NAME_LEN - 1);
	CHECK(strncmp(name, "wg-", 3) == 0);
	CHECK(strcmp(name + WG_STAMP_NAME_LEN - 7, ".stamp") == 0);
	CHECK(strcmp(name, again) == 0);
	wg_stamp_file_name(again, other);
	CHECK(strcmp(name, again) != 0);
	/* The key's own hex is not in it (its first bytes would be a0a1a2). */
	CHECK(strstr(name, "a0a1a2") == NULL);
}

int main(void)
{
	check_prefix = "wg_stamp";
	RUN(first_stamp_is_the_clock_and_asks_for_a_bound);
	RUN(restart_with_the_clock_back);
	RUN(random_clocks_and_restarts_never_go_back);
	RUN(format_and_parse);
	RUN(parse_refuses);
	RUN(file_name_is_a_hash);
	return check_summary();
}
