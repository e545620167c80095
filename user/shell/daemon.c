// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "daemon.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "run_dir.h"

/*
 * keep_stderr: the daemon's log stays on stderr (no syslog socket) if that is a file or a
 * terminal. A pipe is closed all the same: `$(pppoe-xp up ...)` would wait for the daemon.
 */
static void redirect_stdio(bool keep_stderr)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return;
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	if (!keep_stderr || fstat(STDERR_FILENO, &st) ||
	    !(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode)))
		dup2(fd, STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
}

static void read_report(int fd, struct daemon_report *report)
{
	size_t got = 0;

	while (got < sizeof(*report)) {
		ssize_t n = read(fd, (char *)report + got, sizeof(*report) - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (got != sizeof(*report)) {
		report->code = PXP_EXIT_FATAL;
		report->ending = true;
		strcpy(report->message, "the daemon exited before reporting (see syslog)");
	}
	report->message[sizeof(report->message) - 1] = '\0';
}

static void wait_for_exit(pid_t pid)
{
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

int daemon_fork(int *notify_fd, struct daemon_report *report)
{
	int fds[2];
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	if (pid > 0) {
		close(fds[1]);
		read_report(fds[0], report);
		close(fds[0]);
		if (report->ending)
			wait_for_exit(pid);
		return 1;
	}
	close(fds[0]);
	setsid();
	if (chdir("/"))
		pxp_warn("chdir /: %s", strerror(errno));
	redirect_stdio(!pxp_log_syslog_available());
	pxp_log_use_syslog(true);
	*notify_fd = fds[1];
	return 0;
}

static void notify(int *notify_fd, int code, bool ending, const char *message)
{
	struct daemon_report report = { .code = code, .ending = ending };
	ssize_t n;

	if (*notify_fd < 0)
		return;
	strncpy(report.message, message ? message : "", sizeof(report.message) - 1);
	do {
		n = write(*notify_fd, &report, sizeof(report));
	} while (n < 0 && errno == EINTR);
	close(*notify_fd);
	*notify_fd = -1;
}

void daemon_notify(int *notify_fd, int code, const char *message)
{
	notify(notify_fd, code, code != PXP_EXIT_OK, message);
}

void daemon_notify_retrying(int *notify_fd, int code, const char *message)
{
	notify(notify_fd, code, false, message);
}

/* One field of the exit code table, or dflt for a code not in it. */
#define PXP_EXIT_FIELD(fn, field, dflt)       \
	const char *fn(int code)              \
	{                                     \
		switch (code) {               \
			PXP_EXIT_TABLE(field) \
		}                             \
		return dflt;                  \
	}
#define PXP_EXIT_SHORT(name, value, pppd, brief, text) \
	case value:                                    \
		return brief;
#define PXP_EXIT_TEXT(name, value, pppd, brief, text) \
	case value:                                   \
		return text;
#define PXP_EXIT_PPPD(name, value, pppd, brief, text) \
	case value:                                   \
		return pppd;
PXP_EXIT_FIELD(pxp_exit_name, PXP_EXIT_SHORT, "unknown")
PXP_EXIT_FIELD(pxp_exit_causes, PXP_EXIT_TEXT, NULL)
PXP_EXIT_FIELD(pxp_exit_pppd_name, PXP_EXIT_PPPD, NULL)

static void pid_file_path(const char *iface, char *path, size_t cap)
{
	snprintf(path, cap, "%s/%s.pid", pxp_run_dir(), iface);
}

int daemon_write_pid_file(const char *iface)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f;
	int err;

	err = pxp_run_dir_create();
	if (err)
		return err;
	pid_file_path(iface, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	fprintf(f, "%ld\n", (long)getpid());
	if (fclose(f) || rename(tmp, path)) {
		err = -errno;
		unlink(tmp);
		return err;
	}
	return 0;
}

void daemon_remove_pid_file(const char *iface, long pid_of_run)
{
	char path[PATH_MAX];
	long pid = 0;
	FILE *f;

	pid_file_path(iface, path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return;
	if (fscanf(f, "%ld", &pid) != 1)
		pid = 0;
	fclose(f);
	if (pid == pid_of_run)
		unlink(path);
}
