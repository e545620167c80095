// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "control.h"

#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "container_of.h"
#include "run_dir.h"
#include "write_all.h"

#define CONTROL_SUFFIX	      ".ctl"
#define CONTROL_IO_TIMEOUT_MS 1000

static int socket_path(const char *iface, char *path, size_t cap)
{
	int n = snprintf(path, cap, "%s/%s" CONTROL_SUFFIX, pxp_run_dir(), iface);

	return n < 0 || (size_t)n >= cap ? -ENAMETOOLONG : 0;
}

static void set_timeouts(int fd, unsigned int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static int connect_to(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd, err;

	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	set_timeouts(fd, 5 * CONTROL_IO_TIMEOUT_MS);
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun))) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/* Reads one command line; the connection is blocking with a short timeout. */
static int read_command(int fd, char *cmd, size_t cap)
{
	size_t len = 0;

	while (len + 1 < cap) {
		ssize_t n = read(fd, cmd + len, cap - 1 - len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (memchr(cmd, '\n', len))
			break;
	}
	cmd[len] = '\0';
	cmd[strcspn(cmd, "\r\n")] = '\0';
	return cmd[0] ? 0 : -EBADMSG;
}

#define HELP_COMMAND "help"

/* Every daemon's "help": its table, one line a command (the liveness probe asks it too). */
static void list_commands(const struct control_command *cmds, FILE *reply)
{
	for (const struct control_command *cmd = cmds; cmd->name; cmd++)
		fprintf(reply, "%-12s %s\n", cmd->name, cmd->help);
	fprintf(reply, "%-12s %s\n", HELP_COMMAND, "this list");
}

static void run_command(struct control_server *c, const char *name, FILE *reply)
{
	const struct control_command *cmd;

	for (cmd = c->commands; cmd->name; cmd++) {
		if (!strcmp(cmd->name, name)) {
			cmd->run(c->ctx, reply);
			return;
		}
	}
	if (!strcmp(name, HELP_COMMAND))
		list_commands(c->commands, reply);
	else
		fputs("error: unknown command\n", reply);
}

static void serve_one(struct control_server *c)
{
	char cmd[CONTROL_COMMAND_MAX];
	char *reply = NULL;
	size_t reply_len = 0;
	FILE *out;
	int fd;

	fd = accept4(c->fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return;
	set_timeouts(fd, CONTROL_IO_TIMEOUT_MS);
	if (read_command(fd, cmd, sizeof(cmd))) {
		c->rejected++;
		goto out;
	}
	out = open_memstream(&reply, &reply_len);
	if (!out)
		goto out;
	run_command(c, cmd, out);
	fclose(out);
	if (pxp_write_all(fd, reply, reply_len))
		c->rejected++;
	free(reply);
out:
	close(fd);
}

static void control_ready(struct ev_handler *h, uint32_t events)
{
	struct control_server *c = container_of(h, struct control_server, handler);

	(void)events;
	serve_one(c);
}

/*
 * A daemon runs if it answers, not merely if its socket accepts: a daemon killed with
 * SIGKILL keeps its socket listening while the kernel tears it down (its XDP programs and
 * netdevs), and a successor that took that for a live daemon would refuse to start. Any
 * answer to "help" proves it (an error line for an unknown command too); a dying daemon's
 * connection is reset once it is gone.
 */
bool control_daemon_running(const char *iface)
{
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	bool answered;
	char byte;
	int fd;

	if (socket_path(iface, path, sizeof(path)))
		return false;
	fd = connect_to(path);
	if (fd < 0)
		return false;
	answered = !pxp_write_all(fd, HELP_COMMAND "\n", sizeof(HELP_COMMAND "\n") - 1) &&
		   read(fd, &byte, 1) == 1;
	close(fd);
	return answered;
}

void control_remove_stale(const char *iface)
{
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];

	if (!socket_path(iface, path, sizeof(path)) && !control_daemon_running(iface))
		unlink(path);
}

int control_server_open(struct control_server *c, struct ev_loop *loop, const char *iface,
			const struct control_command *commands, void *ctx)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	mode_t old_umask;
	int err;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->handler.ready = control_ready;
	c->loop = loop;
	c->commands = commands;
	c->ctx = ctx;
	err = socket_path(iface, c->path, sizeof(c->path));
	if (err)
		return err;
	err = pxp_run_dir_create();
	if (err)
		return err;
	if (control_daemon_running(iface))
		return -EADDRINUSE;
	unlink(c->path); /* a dead daemon's socket */
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -errno;
	strcpy(sun.sun_path, c->path);
	old_umask = umask(0077);
	err = bind(c->fd, (struct sockaddr *)&sun, sizeof(sun)) ? -errno : 0;
	umask(old_umask);
	if (err)
		goto close_fd;
	if (listen(c->fd, 8)) {
		err = -errno;
		goto unlink_path;
	}
	err = ev_loop_add(loop, c->fd, EPOLLIN, &c->handler);
	if (err)
		goto unlink_path;
	return 0;
unlink_path:
	unlink(c->path);
close_fd:
	close(c->fd);
	c->fd = -1;
	return err;
}

void control_server_close(struct control_server *c)
{
	if (c->fd < 0)
		return;
	ev_loop_del(c->loop, c->fd);
	close(c->fd);
	unlink(c->path);
	c->fd = -1;
}

int control_request(const char *iface, const char *command, FILE *out)
{
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char buf[4096];
	ssize_t n;
	int fd, err;

	err = socket_path(iface, path, sizeof(path));
	if (err)
		return err;
	fd = connect_to(path);
	if (fd < 0)
		return fd;
	err = pxp_write_all(fd, command, strlen(command));
	if (!err)
		err = pxp_write_all(fd, "\n", 1);
	while (!err) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = -errno;
		if (n <= 0)
			break;
		fwrite(buf, 1, (size_t)n, out);
	}
	close(fd);
	return err;
}

int control_for_each(void (*fn)(void *ctx, const char *iface), void *ctx)
{
	return pxp_run_dir_for_each(CONTROL_SUFFIX, fn, ctx);
}
