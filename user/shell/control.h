/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control socket of a running daemon: a unix stream socket RUN_DIR/IFACE.ctl (see
 * pxp_run_dir()), root only. A client sends one command line ("status", "status-json", "stats",
 * "down"; "help", which this module answers from the daemon's table for every daemon), reads
 * the reply until the daemon closes the connection. The daemon answers synchronously from its
 * loop, with socket timeouts so a stuck client cannot stall it.
 *
 * Concurrency: the server side runs in the daemon's single thread.
 */
#ifndef PXP_CONTROL_H
#define PXP_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/un.h>

#include "event_loop.h"

#define CONTROL_COMMAND_MAX 64

/*
 * One command the daemon answers: run writes the reply (may be empty). A daemon's commands
 * are a table ending with a { NULL } entry (see session_shell.c); "help" lists it; anything
 * else gets "error: unknown command".
 */
struct control_command {
	const char *name;
	void (*run)(void *ctx, FILE *reply);
	const char *help;
};

struct control_server {
	struct ev_handler handler;
	struct ev_loop *loop;
	int fd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	const struct control_command *commands;
	void *ctx;
	uint64_t rejected; /* connections dropped: bad or late commands */
};

/*
 * Creates the run directory (0700) and listens on IFACE.ctl. -EADDRINUSE if another daemon
 * answers there (a stale socket of a dead one is replaced).
 */
int control_server_open(struct control_server *c, struct ev_loop *loop, const char *iface,
			const struct control_command *commands, void *ctx);
/* Stops listening and removes the socket file. */
void control_server_close(struct control_server *c);

/* Sends command to the daemon on iface and copies its reply to out. 0 or -errno
 * (-ENOENT / -ECONNREFUSED: no daemon runs there). */
int control_request(const char *iface, const char *command, FILE *out);
/* Whether a daemon answers on iface's control socket. */
bool control_daemon_running(const char *iface);
/* Removes iface's control socket if no daemon answers there (a dead daemon's). */
void control_remove_stale(const char *iface);
/* Calls fn for the interface name of every control socket in the run directory. */
int control_for_each(void (*fn)(void *ctx, const char *iface), void *ctx);

#endif
