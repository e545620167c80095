// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE /* asprintf, pipe2 */
#include "hooks.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "container_of.h"
#include "log.h"
#include "pidfd.h"

/* pppd clears the environment; its scripts set PATH themselves, but give them pppd's. */
#define HOOK_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

static const char *const hook_names[HOOK_KIND_COUNT] = {
	[HOOK_IP_UP] = "ip-up",
	[HOOK_IP_DOWN] = "ip-down",
	[HOOK_IPV6_UP] = "ipv6-up",
	[HOOK_IPV6_DOWN] = "ipv6-down",
};

const char *hook_name(enum hook_kind kind)
{
	return hook_names[kind];
}

const char *hook_dir(void)
{
	const char *dir = getenv(PXP_PPP_DIR_ENV);

	return dir && dir[0] == '/' ? dir : PXP_PPP_DIR;
}

static bool is_ipv6(enum hook_kind kind)
{
	return kind == HOOK_IPV6_UP || kind == HOOK_IPV6_DOWN;
}

static bool is_down(enum hook_kind kind)
{
	return kind == HOOK_IP_DOWN || kind == HOOK_IPV6_DOWN;
}

/* ------------------------------------------------------------ argv and env (pure) */

/* Appends one formatted string to cmd->text; NULL when it does not fit. */
static char *cmd_printf(struct hook_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static char *cmd_printf(struct hook_cmd *cmd, const char *fmt, ...)
{
	size_t room = sizeof(cmd->text) - cmd->used;
	char *out = cmd->text + cmd->used;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room)
		return NULL;
	cmd->used += (size_t)n + 1;
	return out;
}

static void ipv4_text(uint32_t addr, char out[INET_ADDRSTRLEN])
{
	inet_ntop(AF_INET, &addr, out, INET_ADDRSTRLEN);
}

/* pppd's llv6_ntoa(): fe80:: and the interface identifier in four zero-padded groups. */
static void link_local_text(const uint8_t id[8], char out[40])
{
	snprintf(out, 40, "fe80::%02x%02x:%02x%02x:%02x%02x:%02x%02x", id[0], id[1], id[2], id[3],
		 id[4], id[5], id[6], id[7]);
}

int hook_build(enum hook_kind kind, const struct hook_session *s, struct hook_cmd *cmd)
{
	char local[40], remote[40], dns[2][INET_ADDRSTRLEN];
	const char *ipparam = s->ipparam ? s->ipparam : "";
	unsigned int e = 0, i;
	int err = -ENOSPC;

#define ENV(...)                                                                               \
	do {                                                                                   \
		if (e + 1 >= HOOK_ENV_MAX || !(cmd->envp[e++] = cmd_printf(cmd, __VA_ARGS__))) \
			goto out;                                                              \
	} while (0)

	memset(cmd, 0, sizeof(*cmd));
	if (is_ipv6(kind)) {
		link_local_text(s->local_ifid, local);
		link_local_text(s->peer_ifid, remote);
	} else {
		ipv4_text(s->local_ip, local);
		ipv4_text(s->peer_ip, remote);
	}
	/* argv[0] is the script's path, set by the runner. */
	if (!(cmd->argv[1] = cmd_printf(cmd, "%s", s->ifname)) ||
	    !(cmd->argv[2] = cmd_printf(cmd, "%s", s->device)) ||
	    !(cmd->argv[3] = cmd_printf(cmd, "0")) ||
	    !(cmd->argv[4] = cmd_printf(cmd, "%s", local)) ||
	    !(cmd->argv[5] = cmd_printf(cmd, "%s", remote)) ||
	    !(cmd->argv[6] = cmd_printf(cmd, "%s", ipparam)))
		goto out;

	ENV("PATH=%s", HOOK_PATH);
	ENV("IFNAME=%s", s->ifname);
	ENV("DEVICE=%s", s->device);
	ENV("SPEED=0");
	ENV("PPPD_PID=%ld", s->pid);
	ENV("PPPLOGNAME=root");
	ENV("ORIG_UID=0");
	if (is_ipv6(kind)) {
		ENV("LLLOCAL=%s", local);
		ENV("LLREMOTE=%s", remote);
	} else {
		ENV("IPLOCAL=%s", local);
		ENV("IPREMOTE=%s", remote);
		if (s->usepeerdns) {
			for (i = 0; i < 2; i++) {
				if (!s->dns[i])
					continue;
				ipv4_text(s->dns[i], dns[i]);
				ENV("DNS%u=%s", i + 1, dns[i]);
			}
			ENV("USEPEERDNS=1");
		}
	}
	if (is_down(kind)) {
		ENV("CONNECT_TIME=%" PRIu64, s->connect_time_s);
		ENV("BYTES_SENT=%" PRIu64, s->bytes_sent);
		ENV("BYTES_RCVD=%" PRIu64, s->bytes_rcvd);
	}
	/* What Debian's /etc/ppp/ip-up exports to the scripts run-parts runs from ip-up.d. */
	ENV("PPP_IFACE=%s", s->ifname);
	ENV("PPP_TTY=%s", s->device);
	ENV("PPP_SPEED=0");
	ENV("PPP_LOCAL=%s", local);
	ENV("PPP_REMOTE=%s", remote);
	ENV("PPP_IPPARAM=%s", ipparam);
	err = 0;
out:
#undef ENV
	return err;
}

/* ------------------------------------------------------------ which scripts */

/* run-parts(8)'s rule: names of letters, digits, '_' and '-' only (no dpkg leftovers). */
static bool run_parts_name(const char *name)
{
	if (!*name)
		return false;
	for (; *name; name++)
		if (!(*name >= 'a' && *name <= 'z') && !(*name >= 'A' && *name <= 'Z') &&
		    !(*name >= '0' && *name <= '9') && *name != '_' && *name != '-')
			return false;
	return true;
}

static bool executable_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The script an option names; or PPP_DIR/NAME, or else the executables of PPP_DIR/NAME.d
 * in name order: malloc'd paths in paths[], their number returned (0 = nothing to run).
 */
static unsigned int find_scripts(const struct hooks *h, enum hook_kind kind,
				 char *paths[HOOK_SCRIPTS_MAX])
{
	char path[PATH_MAX];
	struct dirent *d;
	unsigned int n = 0;
	DIR *dir;

	if (h->script[kind]) {
		/* Skipped with a warning (pppd skips a missing one silently). */
		if (!executable_file(h->script[kind])) {
			pxp_warn("%s: %s is not an executable file", hook_name(kind),
				 h->script[kind]);
			return 0;
		}
		paths[0] = strdup(h->script[kind]);
		return paths[0] ? 1 : 0;
	}
	snprintf(path, sizeof(path), "%s/%s", hook_dir(), hook_name(kind));
	if (executable_file(path)) {
		paths[0] = strdup(path);
		return paths[0] ? 1 : 0;
	}
	snprintf(path, sizeof(path), "%s/%s.d", hook_dir(), hook_name(kind));
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)) && n < HOOK_SCRIPTS_MAX) {
		char *p;

		if (!run_parts_name(d->d_name) ||
		    asprintf(&p, "%s/%s.d/%s", hook_dir(), hook_name(kind), d->d_name) < 0)
			continue;
		if (executable_file(p))
			paths[n++] = p;
		else
			free(p);
	}
	closedir(dir);
	qsort(paths, n, sizeof(paths[0]), by_name);
	return n;
}

/* ------------------------------------------------------------ running them */

/*
 * The runner, in the forked child: only async-signal-safe calls (the engine's threads may
 * hold locks in the parent). Runs the scripts one after the other, in its own process
 * group so that the daemon can end them all; exits with the first failure's status.
 */
static void __attribute__((noreturn))
runner(struct hook_cmd *cmd, char *const paths[], unsigned int n, int out_fd, int null_fd)
{
	sigset_t none;
	int status = 0, first = 0;
	unsigned int i;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL); /* the daemon blocks TERM and friends */
	setpgid(0, 0);
	if (dup2(null_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
		_exit(127);
#ifdef SYS_close_range
	/* The scripts get stdio only: not the daemon's sockets that lack O_CLOEXEC. */
	syscall(SYS_close_range, 3, ~0U, 0);
#endif
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			cmd->argv[0] = paths[i];
			execve(paths[i], cmd->argv, cmd->envp);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0)
			status = 127 << 8;
		if (!first && status)
			first = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
	_exit(first);
}

static void flush_line(struct hook_child *c)
{
	if (!c->line_len)
		return;
	c->line[c->line_len] = '\0';
	pxp_info("%s: %s", hook_name(c->kind), c->line);
	c->line_len = 0;
}

/*
 * Logs what the scripts wrote, line by line: 1 when it read some, -EAGAIN when there is
 * nothing now (a process the script left behind may hold the pipe open), 0 at its end.
 */
static int read_output(struct hook_child *c)
{
	char buf[512];
	ssize_t n, i;

	n = read(c->out_fd, buf, sizeof(buf));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return -EAGAIN;
	if (n <= 0) {
		flush_line(c);
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (buf[i] == '\n' || c->line_len == sizeof(c->line) - 1)
			flush_line(c);
		if (buf[i] != '\n')
			c->line[c->line_len++] = buf[i];
	}
	return 1;
}

static void close_output(struct hook_child *c)
{
	if (c->out_fd < 0)
		return;
	if (c->owner->loop)
		ev_loop_del(c->owner->loop, c->out_fd);
	close(c->out_fd);
	c->out_fd = -1;
}

static int start(struct hook_child *c, enum hook_kind kind, const struct hook_session *s);

/* The runner exited: log it, drain its output, start the next queued hook. */
static void child_exited(struct hook_child *c)
{
	int status = 0;

	if (waitpid(c->pid, &status, 0) < 0)
		status = 0;
	/* What is in the pipe now; not what a process left behind writes later. */
	while (c->out_fd >= 0 && read_output(c) > 0)
		;
	flush_line(c);
	close_output(c);
	if (c->owner->loop)
		ev_loop_del(c->owner->loop, c->pidfd);
	close(c->pidfd);
	c->pidfd = -1;
	c->pid = 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		pxp_info("%s done", hook_name(c->kind));
	else if (WIFEXITED(status))
		pxp_warn("%s failed with exit status %d", hook_name(c->kind), WEXITSTATUS(status));
	else
		pxp_warn("%s ended by signal %d", hook_name(c->kind), WTERMSIG(status));
	while (c->queued) {
		struct hook_session s = c->queue[0];
		enum hook_kind kind = c->queue_kind[0];

		c->queued--;
		memmove(c->queue, c->queue + 1, c->queued * sizeof(c->queue[0]));
		memmove(c->queue_kind, c->queue_kind + 1, c->queued * sizeof(c->queue_kind[0]));
		if (!start(c, kind, &s) && c->pid)
			break;
	}
}

static void on_exit_ready(struct ev_handler *h, uint32_t events)
{
	(void)events;
	child_exited(container_of(h, struct hook_child, exit_h));
}

static void on_output_ready(struct ev_handler *h, uint32_t events)
{
	struct hook_child *c = container_of(h, struct hook_child, out_h);

	(void)events;
	if (read_output(c) == 0)
		close_output(c);
}

/* Starts the runner for kind; 0 with c->pid 0 when there is no script. */
static int start(struct hook_child *c, enum hook_kind kind, const struct hook_session *s)
{
	char *paths[HOOK_SCRIPTS_MAX];
	unsigned int n = find_scripts(c->owner, kind, paths), i;
	int pipe_fd[2] = { -1, -1 }, null_fd = -1, err = 0;
	struct hook_cmd cmd;
	pid_t pid;

	if (!n)
		return 0;
	err = hook_build(kind, s, &cmd);
	if (err)
		goto out;
	null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null_fd < 0 || pipe2(pipe_fd, O_CLOEXEC)) {
		err = -errno;
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		err = -errno;
		goto out;
	}
	if (pid == 0)
		runner(&cmd, paths, n, pipe_fd[1], null_fd);
	c->kind = kind;
	c->pid = pid;
	c->pidfd = pxp_pidfd_open(pid);
	c->out_fd = pipe_fd[0];
	pipe_fd[0] = -1;
	fcntl(c->out_fd, F_SETFL, O_NONBLOCK);
	c->line_len = 0;
	if (c->pidfd < 0) {
		/* No pidfd (kernel before 5.3): wait here rather than leak a zombie. */
		err = -errno;
		pxp_warn("%s: pidfd_open: %s; waiting for it", hook_name(kind), strerror(-err));
		c->pidfd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		child_exited(c);
		err = 0;
		goto out;
	}
	pxp_info("%s started (pid %d, %u script%s)", hook_name(kind), (int)pid, n,
		 n == 1 ? "" : "s");
	if (c->owner->loop) {
		ev_loop_add(c->owner->loop, c->pidfd, EPOLLIN, &c->exit_h);
		ev_loop_add(c->owner->loop, c->out_fd, EPOLLIN, &c->out_h);
	}
out:
	if (pipe_fd[0] >= 0)
		close(pipe_fd[0]);
	if (pipe_fd[1] >= 0)
		close(pipe_fd[1]);
	if (null_fd >= 0)
		close(null_fd);
	for (i = 0; i < n; i++)
		free(paths[i]);
	if (err)
		pxp_warn("cannot run %s: %s", hook_name(kind), strerror(-err));
	return err;
}

void hooks_init(struct hooks *h, struct ev_loop *loop, const char *const script[HOOK_KIND_COUNT])
{
	unsigned int i;

	memset(h, 0, sizeof(*h));
	h->loop = loop;
	for (i = 0; script && i < HOOK_KIND_COUNT; i++)
		h->script[i] = script[i] && script[i][0] ? script[i] : NULL;
	for (i = 0; i < 2; i++) {
		h->family[i].owner = h;
		h->family[i].pidfd = h->family[i].out_fd = -1;
		h->family[i].exit_h.ready = on_exit_ready;
		h->family[i].out_h.ready = on_output_ready;
	}
}

int hooks_run(struct hooks *h, enum hook_kind kind, const struct hook_session *s)
{
	struct hook_child *c = &h->family[is_ipv6(kind)];

	if (!c->pid)
		return start(c, kind, s);
	if (c->queued == HOOK_QUEUE_MAX) {
		pxp_warn("%s not run: %u hooks already wait for %s", hook_name(kind),
			 HOOK_QUEUE_MAX, hook_name(c->kind));
		return -EBUSY;
	}
	c->queue[c->queued] = *s;
	c->queue_kind[c->queued++] = kind;
	pxp_info("%s waits for %s to finish", hook_name(kind), hook_name(c->kind));
	return 0;
}

void hooks_finish(struct hooks *h, unsigned int timeout_ms)
{
	uint64_t deadline = ev_now_ms() + timeout_ms;
	unsigned int i;

	/* The loop is closed or about to be: poll here instead. */
	h->loop = NULL;
	for (;;) {
		struct pollfd p[4];
		struct hook_child *who[4];
		unsigned int n = 0, k;
		uint64_t now = ev_now_ms();

		for (i = 0; i < 2; i++) {
			struct hook_child *c = &h->family[i];

			if (!c->pid)
				continue;
			p[n] = (struct pollfd){ .fd = c->pidfd, .events = POLLIN };
			who[n++] = c;
			if (c->out_fd >= 0) {
				p[n] = (struct pollfd){ .fd = c->out_fd, .events = POLLIN };
				who[n++] = c;
			}
		}
		if (!n)
			return;
		if (now >= deadline)
			break;
		if (poll(p, n, (int)(deadline - now)) < 0 && errno != EINTR)
			break;
		for (k = 0; k < n; k++) {
			if (!p[k].revents || !who[k]->pid)
				continue;
			if (p[k].fd == who[k]->out_fd) {
				if (read_output(who[k]) == 0)
					close_output(who[k]);
			} else if (p[k].fd == who[k]->pidfd) {
				child_exited(who[k]);
			}
		}
	}
	for (i = 0; i < 2; i++) {
		struct hook_child *c = &h->family[i];

		if (!c->pid)
			continue;
		pxp_warn("%s still runs after %u ms: ending it", hook_name(c->kind), timeout_ms);
		c->queued = 0;
		kill(-c->pid, SIGTERM);
		kill(c->pid, SIGTERM);
		child_exited(c);
	}
}
