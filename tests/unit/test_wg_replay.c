// SPDX-License-Identifier: GPL-2.0
/*
 * The replay window against the Linux driver's selftest (selftest/counter.c, every T(n, v)
 * line and loop in order) and wireguard-go's replay_test.go (the same table, and bulk
 * loops of its own).
 */
#include "check.h"
#include "replay.h"

static struct replay_window w;
static unsigned int test_num;

/* Stops the running test at the first line of the table that disagrees, naming it. */
#define T_INIT replay_init(&w)
#define T_LIM  (REPLAY_WINDOW_SIZE + 1)
#define T(n, v)                                                                           \
	do {                                                                              \
		test_num++;                                                               \
		if (replay_validate(&w, (n)) != (v)) {                                    \
			printf("FAIL wg_replay/%s: line %u: counter %llu should be %s\n", \
			       check_current_name, test_num, (unsigned long long)(n),     \
			       (v) ? "accepted" : "refused");                             \
			check_failed_current = 1;                                         \
			return;                                                           \
		}                                                                         \
	} while (0)

TEST(kernel_selftest_table)
{
	test_num = 0;
	T_INIT;
	/*  1 */ T(0, true);
	/*  2 */ T(1, true);
	/*  3 */ T(1, false);
	/*  4 */ T(9, true);
	/*  5 */ T(8, true);
	/*  6 */ T(7, true);
	/*  7 */ T(7, false);
	/*  8 */ T(T_LIM, true);
	/*  9 */ T(T_LIM - 1, true);
	/* 10 */ T(T_LIM - 1, false);
	/* 11 */ T(T_LIM - 2, true);
	/* 12 */ T(2, true);
	/* 13 */ T(2, false);
	/* 14 */ T(T_LIM + 16, true);
	/* 15 */ T(3, false);
	/* 16 */ T(T_LIM + 16, false);
	/* 17 */ T(T_LIM * 4, true);
	/* 18 */ T(T_LIM * 4 - (T_LIM - 1), true);
	/* 19 */ T(10, false);
	/* 20 */ T(T_LIM * 4 - T_LIM, false);
	/* 21 */ T(T_LIM * 4 - (T_LIM + 1), false);
	/* 22 */ T(T_LIM * 4 - (T_LIM - 2), true);
	/* 23 */ T(T_LIM * 4 + 1 - T_LIM, false);
	/* 24 */ T(0, false);
	/* 25 */ T(WG_REJECT_AFTER_MESSAGES, false);
	/* 26 */ T(WG_REJECT_AFTER_MESSAGES - 1, true);
	/* 27 */ T(WG_REJECT_AFTER_MESSAGES, false);
	/* 28 */ T(WG_REJECT_AFTER_MESSAGES - 1, false);
	/* 29 */ T(WG_REJECT_AFTER_MESSAGES - 2, true);
	/* 30 */ T(WG_REJECT_AFTER_MESSAGES + 1, false);
	/* 31 */ T(WG_REJECT_AFTER_MESSAGES + 2, false);
	/* 32 */ T(WG_REJECT_AFTER_MESSAGES - 2, false);
	/* 33 */ T(WG_REJECT_AFTER_MESSAGES - 3, true);
	/* 34 */ T(0, false);
}

TEST(kernel_selftest_bulk)
{
	uint64_t i;

	test_num = 0;
	T_INIT;
	for (i = 1; i <= REPLAY_WINDOW_SIZE; ++i)
		T(i, true);
	T(0, true);
	T(0, false);

	T_INIT;
	for (i = 2; i <= REPLAY_WINDOW_SIZE + 1; ++i)
		T(i, true);
	T(1, true);
	T(0, false);

	T_INIT;
	for (i = REPLAY_WINDOW_SIZE + 1; i-- > 0;)
		T(i, true);

	T_INIT;
	for (i = REPLAY_WINDOW_SIZE + 2; i-- > 1;)
		T(i, true);
	T(0, false);

	T_INIT;
	for (i = REPLAY_WINDOW_SIZE + 1; i-- > 1;)
		T(i, true);
	T(REPLAY_WINDOW_SIZE + 1, true);
	T(0, false);

	T_INIT;
	for (i = REPLAY_WINDOW_SIZE + 1; i-- > 1;)
		T(i, true);
	T(0, true);
	T(REPLAY_WINDOW_SIZE + 1, true);
}

/*
 * wireguard-go's replay_test.go runs the same table (against its own limit argument) and
 * bulk loops of its own where they differ from the driver's: these.
 */
TEST(wireguard_go_bulk)
{
	uint64_t i;

	test_num = 0;
	T_INIT;
	for (i = REPLAY_WINDOW_SIZE + 1; i > 0; i--)
		T(i, true);

	T_INIT;
	for (i = REPLAY_WINDOW_SIZE; i > 0; i--)
		T(i, true);
	T(REPLAY_WINDOW_SIZE + 1, true);
	T(0, false);

	T_INIT;
	for (i = REPLAY_WINDOW_SIZE; i > 0; i--)
		T(i, true);
	T(0, true);
	T(REPLAY_WINDOW_SIZE + 1, true);
}

/* The limit is the whitepaper's, and the window the size both implementations use. */
TEST(constants)
{
	CHECK(WG_REJECT_AFTER_MESSAGES == 0xffffffffffffffffULL - 8192);
	CHECK_EQ(REPLAY_WINDOW_SIZE, 8128);
}

/* A jump far ahead forgets the whole old window; old counters are then too far behind. */
TEST(far_jump_clears_ring)
{
	replay_init(&w);
	for (uint64_t i = 0; i < 200; i++)
		CHECK(replay_validate(&w, i));
	CHECK(replay_validate(&w, 1000000));
	CHECK(!replay_validate(&w, 199));
	CHECK(replay_validate(&w, 1000000 - REPLAY_WINDOW_SIZE));
	CHECK(!replay_validate(&w, 1000000 - REPLAY_WINDOW_SIZE - 1));
	/* The words it wrapped over were cleared: counters in them are new. */
	CHECK(replay_validate(&w, 1000000 - 64));
}

int main(void)
{
	check_prefix = "wg_replay";
	RUN(kernel_selftest_table);
	RUN(kernel_selftest_bulk);
	RUN(wireguard_go_bulk);
	RUN(constants);
	RUN(far_jump_clears_ring);
	return check_summary();
}
