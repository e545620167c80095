// SPDX-License-Identifier: GPL-2.0
/*
 * The WireGuard UAPI socket (uapi_server.h): accept, buffer, parse, hand to the device,
 * answer. Moved out of wg_device.c, whose data path it had nothing to do with.
 */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "container_of.h"
#include "log.h"
#include "uapi_server.h"
#include "wg_device.h"
#include "write_all.h"

/* A request larger than this closes its connection. */
#define UAPI_REQ_MAX (1 << 20)

struct uapi_client {
	struct ev_handler h;
	struct uapi_server *srv;
	int fd;
	char *buf;
	size_t len, cap;
	struct uapi_client *next;
};

static void client_close(struct uapi_client *c)
{
	struct uapi_server *d = c->srv;

	for (struct uapi_client **pp = &d->clients; *pp; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	ev_loop_del(d->loop, c->fd);
	close(c->fd);
	if (c->buf)
		explicit_bzero(c->buf, c->cap);
	free(c->buf);
	free(c);
}

/* The end of a set=1's lines (just past the empty line), or 0 while it has not come. */
static size_t set_end(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		const char *nl = memchr(s + i, '\n', len - i);

		if (!nl)
			return 0;
		if (nl == s + i)
			return i + 1;
		i = (size_t)(nl - s) + 1;
	}
	return 0;
}

/* Answers every whole request in c's buffer; false when the connection must close. */
static bool client_serve(struct uapi_client *c)
{
	struct uapi_server *d = c->srv;

	while (c->len) {
		char reply[32], err[256];
		struct uapi_set cfg;
		enum uapi_op op;
		size_t end, used;
		int n = uapi_parse_op(c->buf, c->len, &op), ret;

		if (n == 0)
			return true;
		if (n == -EINVAL) {
			n = uapi_format_errno(-EINVAL, reply, sizeof(reply));
			pxp_write_all(c->fd, reply, (size_t)n);
			return false;
		}
		if (n < 0)
			return false;
		if (op == UAPI_GET) {
			char *out;
			size_t out_len;

			used = (size_t)n;
			ret = d->ops->get(d->ctx, &out, &out_len);
			if (ret) {
				n = uapi_format_errno(ret, reply, sizeof(reply));
				pxp_write_all(c->fd, reply, (size_t)n);
				return false;
			}
			ret = pxp_write_all(c->fd, out, out_len);
			explicit_bzero(out, out_len);
			free(out);
			if (ret)
				return false;
		} else {
			end = set_end(c->buf + n, c->len - (size_t)n);
			if (!end)
				return true;
			used = (size_t)n + end;
			ret = uapi_parse_set(&cfg, c->buf + n, end, err, sizeof(err));
			if (ret == 0) {
				ret = d->ops->set(d->ctx, &cfg);
				uapi_set_free(&cfg);
				if (ret)
					pxp_warn("%s: set=1: %s", d->ifname, strerror(-ret));
			} else {
				pxp_warn("%s: set=1: %s", d->ifname, err);
			}
			n = uapi_format_errno(ret, reply, sizeof(reply));
			if (pxp_write_all(c->fd, reply, (size_t)n))
				return false;
		}
		explicit_bzero(c->buf, used);
		memmove(c->buf, c->buf + used, c->len - used);
		c->len -= used;
	}
	return true;
}

static void client_ready(struct ev_handler *h, uint32_t events)
{
	struct uapi_client *c = container_of(h, struct uapi_client, h);
	ssize_t n;

	(void)events;
	if (c->len == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 4096;
		char *b;

		if (cap > UAPI_REQ_MAX) {
			client_close(c);
			return;
		}
		b = malloc(cap);
		if (!b) {
			client_close(c);
			return;
		}
		if (c->buf) {
			memcpy(b, c->buf, c->len);
			explicit_bzero(c->buf, c->cap);
			free(c->buf);
		}
		c->buf = b;
		c->cap = cap;
	}
	n = read(c->fd, c->buf + c->len, c->cap - c->len);
	if (n <= 0) {
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		client_close(c);
		return;
	}
	c->len += (size_t)n;
	if (!client_serve(c))
		client_close(c);
}

static void uapi_accept(struct ev_handler *h, uint32_t events)
{
	struct uapi_server *d = container_of(h, struct uapi_server, h);
	struct timeval tv = { .tv_sec = 2 };
	struct uapi_client *c;
	int fd;

	(void)events;
	fd = accept4(d->fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return;
	/* Answers are written whole: a client that stops reading is given up on. */
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	c = calloc(1, sizeof(*c));
	if (!c || ev_loop_add(d->loop, fd, EPOLLIN, &c->h)) {
		free(c);
		close(fd);
		return;
	}
	c->h.ready = client_ready;
	c->srv = d;
	c->fd = fd;
	c->next = d->clients;
	d->clients = c;
}

bool uapi_server_alive(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool alive;

	if (fd < 0)
		return false;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	alive = connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	close(fd);
	return alive;
}

int uapi_server_open(struct uapi_server *d, struct ev_loop *loop, const char *path,
		     const char *ifname, const struct uapi_server_ops *ops, void *ctx)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	mode_t old;
	int fd, err;

	*d = (struct uapi_server){ .h.ready = uapi_accept,
				   .loop = loop,
				   .fd = -1,
				   .ifname = ifname,
				   .ops = ops,
				   .ctx = ctx };
	snprintf(d->path, sizeof(d->path), "%s", path);

	if (mkdir(WG_UAPI_DIR, 0700) && errno != EEXIST)
		return -errno;
	chmod(WG_UAPI_DIR, 0700);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", d->path);
	unlink(d->path); /* a dead instance's; a live one was refused before */
	old = umask(0077);
	err = bind(fd, (struct sockaddr *)&a, sizeof(a));
	umask(old);
	if (err || listen(fd, 16)) {
		err = -errno;
		close(fd);
		return err;
	}
	d->fd = fd;
	return ev_loop_add(loop, fd, EPOLLIN, &d->h);
}

void uapi_server_close(struct uapi_server *d)
{
	while (d->clients)
		client_close(d->clients);
	if (d->fd >= 0) {
		close(d->fd);
		unlink(d->path);
		d->fd = -1;
	}
}
