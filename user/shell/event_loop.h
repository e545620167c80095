/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The daemon's event loop: epoll over file descriptors, one timerfd armed at the next
 * protocol deadline, and a signalfd for SIGINT/SIGTERM/SIGHUP. The protocol cores never
 * see it; session_shell.c turns fd readiness into X_input() calls, client.c and server.c
 * turn the timer into X_timer() calls.
 *
 * Concurrency: single-threaded; handlers run inside ev_loop_run_once() and may add or
 * remove fds (removing the fd being dispatched is allowed).
 */
#ifndef PXP_EVENT_LOOP_H
#define PXP_EVENT_LOOP_H

#include <stdbool.h>
#include <stdint.h>

struct ev_handler {
	/* events is the epoll mask that fired. */
	void (*ready)(struct ev_handler *h, uint32_t events);
};

struct ev_loop {
	int epoll_fd;
	int timer_fd;
	int signal_fd;
	uint64_t armed_ms; /* deadline the timerfd holds, UINT64_MAX = disarmed */
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
 * Waits until an fd is ready, deadline_ms (monotonic, UINT64_MAX = none) passes or a
 * signal arrives, and dispatches ready handlers. Signals are recorded in pending_signal.
 * Returns 0 or -errno (not -EINTR).
 */
int ev_loop_run_once(struct ev_loop *l, uint64_t deadline_ms);

#endif
