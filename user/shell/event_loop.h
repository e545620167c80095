/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The daemon's event loop: epoll over file descriptors, its timers in a min-heap
 * (timer_heap.h) with one timerfd armed at the earliest, and a signalfd for
 * SIGINT/SIGTERM/SIGHUP. The protocol cores never see it: they give deadlines, and whoever
 * calls into a core re-arms that core's ev_timer at its X_deadline() (session_shell.c for
 * the PPP links, ipv6_ac.c for the advertisements, client.c and server.c for their own),
 * so that a pass costs O(log n) in the timers, never a scan of the sessions.
 *
 * Concurrency: single-threaded; handlers run inside ev_loop_run_once() and may add or
 * remove fds (removing the fd being dispatched is allowed).
 */
#ifndef PXP_EVENT_LOOP_H
#define PXP_EVENT_LOOP_H

#include <stdbool.h>
#include <stdint.h>

#include "timer_heap.h"

struct ev_handler {
	/* events is the epoll mask that fired. */
	void (*ready)(struct ev_handler *h, uint32_t events);
};

/* A deadline of its owner's, embedded in it. */
struct ev_timer {
	struct pxp_timer t;
	/* Runs from ev_timers_run() once the deadline passed (the timer is then disarmed);
	 * NULL for a timer that only wakes the loop for an owner that looks itself. */
	void (*fire)(struct ev_timer *t, uint64_t now_ms);
};

struct ev_loop {
	int epoll_fd;
	int timer_fd;
	int signal_fd;
	uint64_t armed_ms; /* deadline the timerfd holds, UINT64_MAX = disarmed */
	struct timer_heap timers;
	/* Last signal received through the signalfd (0 = none since it was cleared). */
	int pending_signal;
};

/* Monotonic clock in milliseconds, the now_ms of every protocol core. */
uint64_t ev_now_ms(void);

/* Blocks SIGINT, SIGTERM, SIGHUP and SIGPIPE and opens the descriptors. 0 or -errno. */
int ev_loop_init(struct ev_loop *l);
void ev_loop_close(struct ev_loop *l);
int ev_loop_add(struct ev_loop *l, int fd, uint32_t events, struct ev_handler *h);
void ev_loop_del(struct ev_loop *l, int fd);
/*
 * Waits until an fd is ready, the earliest timer's deadline passes or a signal arrives,
 * and dispatches ready handlers (not timers: ev_timers_run()). Signals are recorded in
 * pending_signal. Returns 0 or -errno (not -EINTR).
 */
int ev_loop_run_once(struct ev_loop *l);

/* t joins l, disarmed, with its fire callback; 0 or -ENOMEM (the one failure: arming never
 * fails). t must be zeroed before its first attach (a timer on the stack: `= { 0 }`): attach
 * of an attached timer is a no-op, so garbage that reads as attached would queue a timer no
 * room was made for. */
int ev_timer_attach(struct ev_loop *l, struct ev_timer *t,
		    void (*fire)(struct ev_timer *t, uint64_t now_ms));
/* t leaves l (disarmed first); a no-op when not attached. */
void ev_timer_detach(struct ev_loop *l, struct ev_timer *t);
/* Arms t at deadline_ms (monotonic), moves it there, or disarms it (UINT64_MAX). */
void ev_timer_set(struct ev_loop *l, struct ev_timer *t, uint64_t deadline_ms);
/*
 * Fires the timers whose deadline is <= now_ms, earliest first; a callback may arm,
 * disarm or detach any timer. At most as many callbacks as timers were armed on entry, so
 * that a timer re-armed in the past waits for the next pass instead of spinning here.
 */
void ev_timers_run(struct ev_loop *l, uint64_t now_ms);

#endif
