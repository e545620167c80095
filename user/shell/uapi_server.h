/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The WireGuard userspace API socket /var/run/wireguard/IFNAME.sock (mode 0600, the
 * directory 0700) that wg(8) drives: connections accepted on the loop, each one's bytes
 * buffered (up to 1 MB) until a whole get=1 or set=1 (to its empty line) is there, parsed
 * by wg-bridge's uapi.c and handed to the device, answered whole (errno=N). Knows nothing of
 * the device but its two operations.
 *
 * Concurrency: the device's single thread.
 */
#ifndef PXP_UAPI_SERVER_H
#define PXP_UAPI_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/un.h>

#include "event_loop.h"
#include "uapi.h"

struct uapi_server_ops {
	/* get=1: the answer in *out (malloc'd, wiped and freed after writing), or -errno. */
	int (*get)(void *ctx, char **out, size_t *out_len);
	/* set=1: apply the parsed change; 0 or -errno (the answer's errno). */
	int (*set)(void *ctx, const struct uapi_set *cfg);
};

struct uapi_client;

struct uapi_server {
	struct ev_handler h;
	struct ev_loop *loop;
	int fd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	const char *ifname; /* for the log */
	const struct uapi_server_ops *ops;
	void *ctx;
	struct uapi_client *clients;
};

/* Another process answering on path? */
bool uapi_server_alive(const char *path);

/* Listens on path (a dead instance's socket there is replaced). 0 or -errno. */
int uapi_server_open(struct uapi_server *srv, struct ev_loop *loop, const char *path,
		     const char *ifname, const struct uapi_server_ops *ops, void *ctx);

/* Closes the clients and the socket, and removes it; a server never opened too (fd -1). */
void uapi_server_close(struct uapi_server *srv);

#endif
