/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal unit-test harness. Each test binary defines test functions with TEST(),
 * lists them in main() with RUN(), and returns check_summary(). Output follows the
 * project's result protocol: one "PASS name" or "FAIL name: reason" line per test.
 */
#ifndef PXP_CHECK_H
#define PXP_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failed_total;
static int check_failed_current;
static const char *check_prefix = "unit";

#define TEST(name) static void name(void)

/* Records the first failure of the running test and returns from it. */
#define CHECK(cond)                                                                         \
	do {                                                                                \
		if (!(cond)) {                                                              \
			printf("FAIL %s/%s: %s:%d: %s\n", check_prefix, check_current_name, \
			       __FILE__, __LINE__, #cond);                                  \
			check_failed_current = 1;                                           \
			return;                                                             \
		}                                                                           \
	} while (0)

#define CHECK_EQ(a, b)                                                                       \
	do {                                                                                 \
		long long check_a_ = (long long)(a), check_b_ = (long long)(b);              \
		if (check_a_ != check_b_) {                                                  \
			printf("FAIL %s/%s: %s:%d: %s == %s (%lld != %lld)\n", check_prefix, \
			       check_current_name, __FILE__, __LINE__, #a, #b, check_a_,     \
			       check_b_);                                                    \
			check_failed_current = 1;                                            \
			return;                                                              \
		}                                                                            \
	} while (0)

#define CHECK_MEM(a, b, len)                                                         \
	do {                                                                         \
		if (memcmp((a), (b), (len)) != 0) {                                  \
			printf("FAIL %s/%s: %s:%d: memory %s != %s\n", check_prefix, \
			       check_current_name, __FILE__, __LINE__, #a, #b);      \
			check_failed_current = 1;                                    \
			return;                                                      \
		}                                                                    \
	} while (0)

static const char *check_current_name;

#define RUN(name)                                                       \
	do {                                                            \
		check_current_name = #name;                             \
		check_failed_current = 0;                               \
		name();                                                 \
		if (check_failed_current)                               \
			check_failed_total++;                           \
		else                                                    \
			printf("PASS %s/%s\n", check_prefix, #name);    \
		fflush(stdout); /* a program killed later keeps this */ \
	} while (0)

static inline int check_summary(void)
{
	return check_failed_total ? 1 : 0;
}

#endif
