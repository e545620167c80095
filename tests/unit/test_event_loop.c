// SPDX-License-Identifier: GPL-2.0
/*
 * The event loop's timers (user/shell/event_loop.h) on a real epoll and timerfd: the wait
 * ends at the earliest armed timer, due timers fire earliest first, a callback that re-arms
 * itself in the past waits for the next pass, and one that detaches another due timer keeps
 * it from firing.
 */
#include <stdint.h>

#include "check.h"
#include "container_of.h"
#include "event_loop.h"

struct probe {
	struct ev_timer t;
	struct ev_loop *loop;
	unsigned int fired, order;
	struct probe *victim; /* detached by this probe's callback */
	bool rearm_now;	      /* re-armed at the time it fired */
};

static unsigned int fire_seq;

static void probe_fire(struct ev_timer *t, uint64_t now)
{
	struct probe *p = container_of(t, struct probe, t);

	p->fired++;
	p->order = ++fire_seq;
	if (p->victim)
		ev_timer_detach(p->loop, &p->victim->t);
	if (p->rearm_now)
		ev_timer_set(p->loop, &p->t, now);
}

static struct ev_loop loop;

TEST(wait_ends_at_the_earliest_timer)
{
	struct probe a = { .loop = &loop }, b = { .loop = &loop };
	uint64_t t0 = ev_now_ms();

	CHECK_EQ(ev_timer_attach(&loop, &a.t, probe_fire), 0);
	CHECK_EQ(ev_timer_attach(&loop, &b.t, probe_fire), 0);
	ev_timer_set(&loop, &b.t, t0 + 60000);
	ev_timer_set(&loop, &a.t, t0 + 50);
	/* Nothing else is ready: only the timerfd at a's deadline ends the wait. */
	CHECK_EQ(ev_loop_run_once(&loop), 0);
	CHECK(ev_now_ms() >= t0 + 50);
	ev_timers_run(&loop, ev_now_ms());
	CHECK_EQ(a.fired, 1);
	CHECK_EQ(b.fired, 0);
	ev_timer_detach(&loop, &a.t);
	ev_timer_detach(&loop, &b.t);
	CHECK_EQ(loop.timers.len, 0);
	CHECK_EQ(loop.timers.attached, 0);
}

TEST(due_timers_fire_earliest_first)
{
	struct probe p[3] = { { .loop = &loop }, { .loop = &loop }, { .loop = &loop } };

	for (int i = 0; i < 3; i++)
		CHECK_EQ(ev_timer_attach(&loop, &p[i].t, probe_fire), 0);
	ev_timer_set(&loop, &p[0].t, 30);
	ev_timer_set(&loop, &p[1].t, 10);
	ev_timer_set(&loop, &p[2].t, 20);
	ev_timers_run(&loop, 25);
	CHECK_EQ(p[1].fired, 1);
	CHECK_EQ(p[2].fired, 1);
	CHECK_EQ(p[0].fired, 0);
	CHECK(p[1].order < p[2].order);
	ev_timers_run(&loop, 30);
	CHECK_EQ(p[0].fired, 1);
	for (int i = 0; i < 3; i++)
		ev_timer_detach(&loop, &p[i].t);
}

TEST(rearmed_in_the_past_waits_for_the_next_pass)
{
	struct probe p = { .loop = &loop, .rearm_now = true };

	CHECK_EQ(ev_timer_attach(&loop, &p.t, probe_fire), 0);
	ev_timer_set(&loop, &p.t, 5);
	ev_timers_run(&loop, 5);
	CHECK_EQ(p.fired, 1);
	ev_timers_run(&loop, 5);
	CHECK_EQ(p.fired, 2);
	ev_timer_detach(&loop, &p.t);
}

TEST(detached_in_a_callback_does_not_fire)
{
	struct probe victim = { .loop = &loop }, killer = { .loop = &loop, .victim = &victim };

	CHECK_EQ(ev_timer_attach(&loop, &victim.t, probe_fire), 0);
	CHECK_EQ(ev_timer_attach(&loop, &killer.t, probe_fire), 0);
	ev_timer_set(&loop, &killer.t, 1);
	ev_timer_set(&loop, &victim.t, 2);
	ev_timers_run(&loop, 10);
	CHECK_EQ(killer.fired, 1);
	CHECK_EQ(victim.fired, 0);
	CHECK_EQ(loop.timers.attached, 1);
	ev_timer_detach(&loop, &killer.t);
}

int main(void)
{
	check_prefix = "event_loop";
	if (ev_loop_init(&loop)) {
		printf("FAIL event_loop/setup: no epoll or timerfd\n");
		return 1;
	}
	RUN(wait_ends_at_the_earliest_timer);
	RUN(due_timers_fire_earliest_first);
	RUN(rearmed_in_the_past_waits_for_the_next_pass);
	RUN(detached_in_a_callback_does_not_fire);
	ev_loop_close(&loop);
	return check_summary();
}
