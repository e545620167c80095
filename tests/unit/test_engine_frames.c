// SPDX-License-Identifier: GPL-2.0
/* The AF_XDP engine's per-worker buffer cache (user/datapath/engine/xsk_frames.h). */
#include <errno.h>
#include <stdbool.h>

#include "check.h"
#include "xsk_frames.h"

TEST(init_rejects_non_power_of_two)
{
	struct xsk_frames fr;

	CHECK_EQ(xsk_frames_init(&fr, 3000, 2048), -EINVAL);
	CHECK_EQ(xsk_frames_init(&fr, 4096, 1500), -EINVAL);
	CHECK_EQ(xsk_frames_init(&fr, 0, 2048), -EINVAL);
}

TEST(init_holds_every_frame_once)
{
	struct xsk_frames fr;
	uint64_t out[64];
	bool seen[64] = { false };

	CHECK_EQ(xsk_frames_init(&fr, 64, 2048), 0);
	CHECK_EQ(fr.count, 64);
	CHECK_EQ(xsk_frames_pop(&fr, out, 100), 64);
	CHECK_EQ(fr.count, 0);
	for (int i = 0; i < 64; i++) {
		CHECK_EQ(out[i] % 2048, 0);
		CHECK(out[i] / 2048 < 64);
		CHECK(!seen[out[i] / 2048]);
		seen[out[i] / 2048] = true;
	}
	CHECK_EQ(out[0], 0);
	CHECK_EQ(xsk_frames_pop(&fr, out, 1), 0);
	xsk_frames_destroy(&fr);
}

TEST(push_strips_the_offset_inside_the_frame)
{
	struct xsk_frames fr;
	uint64_t out[4];

	CHECK_EQ(xsk_frames_init(&fr, 4, 2048), 0);
	CHECK_EQ(xsk_frames_pop(&fr, out, 4), 4);
	/* A descriptor points past the headroom; an encapsulated frame a few bytes before it. */
	CHECK_EQ(xsk_frames_push(&fr, 3 * 2048 + 256), 0);
	CHECK_EQ(xsk_frames_push(&fr, 2048 + 248), 0);
	CHECK_EQ(xsk_frames_pop_one(&fr), 2048);
	CHECK_EQ(xsk_frames_pop_one(&fr), 3 * 2048);
	xsk_frames_destroy(&fr);
}

TEST(push_beyond_capacity_is_refused)
{
	struct xsk_frames fr;

	CHECK_EQ(xsk_frames_init(&fr, 2, 4096), 0);
	CHECK_EQ(xsk_frames_push(&fr, 0), -ENOSPC);
	CHECK_EQ(fr.count, 2);
	xsk_frames_destroy(&fr);
}

TEST(lifo_reuses_the_last_freed_frame)
{
	struct xsk_frames fr;
	uint64_t a, b;

	CHECK_EQ(xsk_frames_init(&fr, 8, 2048), 0);
	a = xsk_frames_pop_one(&fr);
	b = xsk_frames_pop_one(&fr);
	CHECK(a != b);
	CHECK_EQ(xsk_frames_push(&fr, b), 0);
	CHECK_EQ(xsk_frames_push(&fr, a), 0);
	CHECK_EQ(xsk_frames_pop_one(&fr), a);
	CHECK_EQ(xsk_frames_pop_one(&fr), b);
	xsk_frames_destroy(&fr);
}

int main(void)
{
	check_prefix = "engine_frames";
	RUN(init_rejects_non_power_of_two);
	RUN(init_holds_every_frame_once);
	RUN(push_strips_the_offset_inside_the_frame);
	RUN(push_beyond_capacity_is_refused);
	RUN(lifo_reuses_the_last_freed_frame);
	return check_summary();
}
