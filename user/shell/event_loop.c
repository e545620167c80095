// SPDX-License-Identifier: GPL-2.0
#include "event_loop.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "container_of.h"

#define EV_BATCH 16

/* The loop's own descriptors are told apart from handlers by these sentinels. */
static struct ev_handler timer_sentinel, signal_sentinel;

uint64_t ev_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int ev_loop_init(struct ev_loop *l)
{
	struct epoll_event ev = { .events = EPOLLIN };
	sigset_t mask;
	int err;

	memset(l, 0, sizeof(*l));
	l->timer_fd = -1;
	l->signal_fd = -1;
	l->armed_ms = UINT64_MAX;
	timer_heap_init(&l->timers);
	l->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (l->epoll_fd < 0)
		return -errno;
	l->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (l->timer_fd < 0)
		goto fail;
	ev.data.ptr = &timer_sentinel;
	if (epoll_ctl(l->epoll_fd, EPOLL_CTL_ADD, l->timer_fd, &ev))
		goto fail;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	/* A control client that hangs up must not kill the daemon mid-write. */
	sigaddset(&mask, SIGPIPE);
	if (sigprocmask(SIG_BLOCK, &mask, NULL))
		goto fail;
	sigdelset(&mask, SIGPIPE);
	l->signal_fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (l->signal_fd < 0)
		goto fail;
	ev.data.ptr = &signal_sentinel;
	if (epoll_ctl(l->epoll_fd, EPOLL_CTL_ADD, l->signal_fd, &ev))
		goto fail;
	return 0;
fail:
	err = -errno;
	ev_loop_close(l);
	return err;
}

void ev_loop_close(struct ev_loop *l)
{
	if (l->signal_fd >= 0)
		close(l->signal_fd);
	if (l->timer_fd >= 0)
		close(l->timer_fd);
	if (l->epoll_fd >= 0)
		close(l->epoll_fd);
	l->signal_fd = l->timer_fd = l->epoll_fd = -1;
	timer_heap_free(&l->timers);
}

int ev_loop_add(struct ev_loop *l, int fd, uint32_t events, struct ev_handler *h)
{
	struct epoll_event ev = { .events = events, .data.ptr = h };

	return epoll_ctl(l->epoll_fd, EPOLL_CTL_ADD, fd, &ev) ? -errno : 0;
}

void ev_loop_del(struct ev_loop *l, int fd)
{
	epoll_ctl(l->epoll_fd, EPOLL_CTL_DEL, fd, NULL);
}

static int arm_timer(struct ev_loop *l, uint64_t deadline_ms)
{
	struct itimerspec its = { 0 };

	if (deadline_ms == l->armed_ms)
		return 0;
	if (deadline_ms != UINT64_MAX) {
		/* 0 would disarm: a deadline already past fires at the earliest instant. */
		if (deadline_ms == 0)
			deadline_ms = 1;
		its.it_value.tv_sec = deadline_ms / 1000;
		its.it_value.tv_nsec = (deadline_ms % 1000) * 1000000;
	}
	if (timerfd_settime(l->timer_fd, TFD_TIMER_ABSTIME, &its, NULL))
		return -errno;
	l->armed_ms = deadline_ms;
	return 0;
}

static void drain_signals(struct ev_loop *l)
{
	struct signalfd_siginfo si;

	while (read(l->signal_fd, &si, sizeof(si)) == sizeof(si))
		l->pending_signal = (int)si.ssi_signo;
}

int ev_loop_run_once(struct ev_loop *l)
{
	struct epoll_event events[EV_BATCH];
	uint64_t expirations;
	int n, i, err;

	err = arm_timer(l, timer_heap_next(&l->timers));
	if (err)
		return err;
	n = epoll_wait(l->epoll_fd, events, EV_BATCH, -1);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	for (i = 0; i < n; i++) {
		struct ev_handler *h = events[i].data.ptr;

		if (h == &timer_sentinel) {
			if (read(l->timer_fd, &expirations, sizeof(expirations)) > 0)
				l->armed_ms = UINT64_MAX;
		} else if (h == &signal_sentinel) {
			drain_signals(l);
		} else {
			h->ready(h, events[i].events);
		}
	}
	return 0;
}

int ev_timer_attach(struct ev_loop *l, struct ev_timer *t,
		    void (*fire)(struct ev_timer *t, uint64_t now_ms))
{
	t->fire = fire;
	return timer_heap_attach(&l->timers, &t->t);
}

void ev_timer_detach(struct ev_loop *l, struct ev_timer *t)
{
	timer_heap_detach(&l->timers, &t->t);
}

void ev_timer_set(struct ev_loop *l, struct ev_timer *t, uint64_t deadline_ms)
{
	timer_heap_set(&l->timers, &t->t, deadline_ms);
}

void ev_timers_run(struct ev_loop *l, uint64_t now_ms)
{
	unsigned int budget = l->timers.len;
	struct pxp_timer *p;

	while (budget-- && (p = timer_heap_pop_due(&l->timers, now_ms))) {
		struct ev_timer *t = container_of(p, struct ev_timer, t);

		if (t->fire)
			t->fire(t, now_ms);
	}
}
