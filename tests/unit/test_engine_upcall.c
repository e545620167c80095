// SPDX-License-Identifier: GPL-2.0
/*
 * The AF_XDP workers' upcall queues (user/datapath/engine/engine_upcall.h): empty, full,
 * the 32-bit indices wrapping, frames cut short, and one producer thread against one
 * consumer thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>

#include "check.h"
#include "engine_upcall.h"

static uint8_t frame[ENGINE_UPCALL_FRAME_MAX + 1];

TEST(init_rejects_non_power_of_two)
{
	struct engine_upcall_ring r;

	CHECK_EQ(engine_upcall_ring_init(&r, 0), -EINVAL);
	CHECK_EQ(engine_upcall_ring_init(&r, 6), -EINVAL);
}

TEST(empty_ring_has_nothing)
{
	struct engine_upcall_ring r;
	unsigned int port = 99;
	uint8_t buf[16];

	CHECK_EQ(engine_upcall_ring_init(&r, 4), 0);
	CHECK_EQ(engine_upcall_pop(&r, buf, sizeof(buf), &port), -EAGAIN);
	CHECK_EQ(port, 99);
	engine_upcall_ring_destroy(&r);
}

TEST(frames_come_out_in_order_with_their_port)
{
	struct engine_upcall_ring r;
	unsigned int port;
	uint8_t buf[16];

	CHECK_EQ(engine_upcall_ring_init(&r, 4), 0);
	CHECK_EQ(engine_upcall_push(&r, 1, "first", 5), 0);
	CHECK_EQ(engine_upcall_push(&r, 2, "second", 6), 0);
	CHECK_EQ(engine_upcall_pop(&r, buf, sizeof(buf), &port), 5);
	CHECK_MEM(buf, "first", 5);
	CHECK_EQ(port, 1);
	CHECK_EQ(engine_upcall_pop(&r, buf, sizeof(buf), &port), 6);
	CHECK_MEM(buf, "second", 6);
	CHECK_EQ(port, 2);
	CHECK_EQ(engine_upcall_pop(&r, buf, sizeof(buf), &port), -EAGAIN);
	engine_upcall_ring_destroy(&r);
}

TEST(full_ring_refuses_until_one_is_read)
{
	struct engine_upcall_ring r;
	unsigned int port;
	uint8_t buf[4];

	CHECK_EQ(engine_upcall_ring_init(&r, 4), 0);
	for (uint8_t i = 0; i < 4; i++)
		CHECK_EQ(engine_upcall_push(&r, 0, &i, 1), 0);
	CHECK_EQ(engine_upcall_push(&r, 0, "x", 1), -ENOSPC);
	CHECK_EQ(engine_upcall_pop(&r, buf, sizeof(buf), &port), 1);
	CHECK_EQ(buf[0], 0);
	CHECK_EQ(engine_upcall_push(&r, 0, "x", 1), 0);
	CHECK_EQ(engine_upcall_push(&r, 0, "y", 1), -ENOSPC);
	for (uint8_t i = 1; i < 4; i++) {
		CHECK_EQ(engine_upcall_pop(&r, buf, sizeof(buf), &port), 1);
		CHECK_EQ(buf[0], i);
	}
	CHECK_EQ(engine_upcall_pop(&r, buf, sizeof(buf), &port), 1);
	CHECK_EQ(buf[0], 'x');
	CHECK_EQ(engine_upcall_pop(&r, buf, sizeof(buf), &port), -EAGAIN);
	engine_upcall_ring_destroy(&r);
}

/* Indices run free: the count head - tail stays right when they wrap past 2^32. */
TEST(indices_wrap_around)
{
	struct engine_upcall_ring r;
	unsigned int port;
	uint32_t got;

	CHECK_EQ(engine_upcall_ring_init(&r, 4), 0);
	r.head = r.tail = UINT32_MAX - 1;
	for (uint32_t i = 0; i < 4; i++)
		CHECK_EQ(engine_upcall_push(&r, 0, &i, sizeof(i)), 0);
	CHECK(r.head < r.tail); /* wrapped */
	CHECK_EQ(engine_upcall_push(&r, 0, "x", 1), -ENOSPC);
	for (uint32_t i = 0; i < 4; i++) {
		CHECK_EQ(engine_upcall_pop(&r, &got, sizeof(got), &port), sizeof(got));
		CHECK_EQ(got, i);
	}
	CHECK_EQ(engine_upcall_pop(&r, &got, sizeof(got), &port), -EAGAIN);
	engine_upcall_ring_destroy(&r);
}

TEST(sizes_at_the_limits)
{
	struct engine_upcall_ring r;
	unsigned int port;
	uint8_t small[8];

	CHECK_EQ(engine_upcall_ring_init(&r, 2), 0);
	for (size_t i = 0; i < sizeof(frame); i++)
		frame[i] = (uint8_t)i;
	CHECK_EQ(engine_upcall_push(&r, 3, frame, ENGINE_UPCALL_FRAME_MAX + 1), -EMSGSIZE);
	CHECK_EQ(engine_upcall_push(&r, 3, frame, ENGINE_UPCALL_FRAME_MAX), 0);
	/* A short buffer gets the start of the frame and learns its real length. */
	CHECK_EQ(engine_upcall_pop(&r, small, sizeof(small), &port), ENGINE_UPCALL_FRAME_MAX);
	CHECK_MEM(small, frame, sizeof(small));
	CHECK_EQ(port, 3);
	engine_upcall_ring_destroy(&r);
}

#define THREADED_FRAMES 200000

/* Pushes 0..THREADED_FRAMES-1 in order, retrying what a full ring refuses. */
static void *produce(void *arg)
{
	struct engine_upcall_ring *r = arg;

	for (uint32_t i = 0; i < THREADED_FRAMES; i++) {
		while (engine_upcall_push(r, (uint8_t)i, &i, sizeof(i)) == -ENOSPC)
			;
	}
	return NULL;
}

/* Every frame arrives once, in order, intact, while both ends run at once. */
TEST(one_producer_one_consumer)
{
	struct engine_upcall_ring r;
	pthread_t thread;
	uint32_t next = 0, got;
	unsigned int port;
	bool ok = true;

	CHECK_EQ(engine_upcall_ring_init(&r, 8), 0);
	CHECK_EQ(pthread_create(&thread, NULL, produce, &r), 0);
	while (next < THREADED_FRAMES) {
		int len = engine_upcall_pop(&r, &got, sizeof(got), &port);

		if (len == -EAGAIN)
			continue;
		if (len != sizeof(got) || got != next || port != (uint8_t)next)
			ok = false;
		next++;
	}
	pthread_join(thread, NULL);
	CHECK(ok);
	CHECK_EQ(engine_upcall_pop(&r, &got, sizeof(got), &port), -EAGAIN);
	engine_upcall_ring_destroy(&r);
}

int main(void)
{
	check_prefix = "engine_upcall";
	RUN(init_rejects_non_power_of_two);
	RUN(empty_ring_has_nothing);
	RUN(frames_come_out_in_order_with_their_port);
	RUN(full_ring_refuses_until_one_is_read);
	RUN(indices_wrap_around);
	RUN(sizes_at_the_limits);
	RUN(one_producer_one_consumer);
	return check_summary();
}
