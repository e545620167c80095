// SPDX-License-Identifier: GPL-2.0
/*
 * The control socket: a daemon's commands are one table (name, handler, help), anything
 * else is refused; a daemon runs only if it answers, not if its socket merely accepts.
 * The asking side runs in a child, as the CLI would, while this process serves.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "control.h"
#include "event_loop.h"
#include "run_dir.h"

#define IFACE "ctl0"

static int pings;

static void cmd_ping(void *ctx, FILE *reply)
{
	(void)ctx;
	pings++;
	fputs("pong\n", reply);
}

static const struct control_command commands[] = {
	{ "ping", cmd_ping, "answers pong" },
	{ NULL },
};

static struct ev_loop loop;
static struct ev_timer wake; /* a bound on each wait */
static struct control_server server;

/* One wait of the loop, at most 2 s. */
static int run_once_2s(void)
{
	ev_timer_set(&loop, &wake, ev_now_ms() + 2000);
	return ev_loop_run_once(&loop);
}

/* A child sends command; this process serves one connection; reply gets what came back. */
static int ask(const char *command, char *reply, size_t cap)
{
	size_t len = 0;
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		FILE *out = fdopen(fds[1], "w");

		close(fds[0]);
		close(server.fd);
		_exit(out && !control_request(IFACE, command, out) && !fclose(out) ? 0 : 1);
	}
	close(fds[1]);
	if (run_once_2s())
		return -1;
	while (len + 1 < cap && (n = read(fds[0], reply + len, cap - 1 - len)) > 0)
		len += (size_t)n;
	reply[len] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* control_daemon_running() in a child; serve = answer it, or close the socket meanwhile. */
static int child_sees_daemon(bool serve)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		close(server.fd); /* the daemon's socket is the parent's alone */
		_exit(control_daemon_running(IFACE) ? 0 : 1);
	}
	if (serve) {
		run_once_2s();
	} else {
		usleep(100 * 1000); /* connected and waiting: now the "daemon" dies */
		control_server_close(&server);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* What a command gets back, and whether its handler ran. */
static const struct {
	const char *command, *reply;
	int pings;
} cases[] = {
	{ "ping", "pong\n", 1 },
	{ "pin", "error: unknown command\n", 0 }, /* not a prefix match */
	{ "ping extra", "error: unknown command\n", 0 },
	/* every daemon's, from its table */
	{ "help", "ping         answers pong\nhelp         this list\n", 0 },
};

TEST(commands_from_the_table)
{
	char reply[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pings = 0;
		CHECK_EQ(ask(cases[i].command, reply, sizeof(reply)), 0);
		CHECK(!strcmp(reply, cases[i].reply));
		CHECK_EQ(pings, cases[i].pings);
	}
}

TEST(running_daemon_answers)
{
	CHECK(child_sees_daemon(true));
}

/* Last: it closes the server, as a daemon's death does, while the child waits. */
TEST(dying_daemon_is_not_running)
{
	CHECK(!child_sees_daemon(false));
}

int main(void)
{
	char dir[] = "/tmp/pxp-control-XXXXXX";
	int err;

	check_prefix = "control";
	if (!mkdtemp(dir) || setenv(PXP_RUN_DIR_ENV, dir, 1)) {
		printf("FAIL control/setup: no temporary run directory\n");
		return 1;
	}
	err = ev_loop_init(&loop);
	if (!err)
		err = ev_timer_attach(&loop, &wake, NULL);
	if (!err)
		err = control_server_open(&server, &loop, IFACE, commands, NULL);
	if (err) {
		printf("FAIL control/setup: %s\n", strerror(-err));
		return 1;
	}
	RUN(commands_from_the_table);
	RUN(running_daemon_answers);
	RUN(dying_daemon_is_not_running);
	control_server_close(&server);
	ev_loop_close(&loop);
	rmdir(dir);
	return check_summary();
}
