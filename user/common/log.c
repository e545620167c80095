// SPDX-License-Identifier: GPL-2.0
#include "log.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

/* Where syslog(3) writes: a minimal image or a container may have none. */
#define SYSLOG_SOCKET "/dev/log"

static enum pxp_log_level log_level = PXP_LOG_INFO;
static bool log_to_syslog;
static int log_file_fd = -1;
static char last_error[240];

void pxp_log_set_level(enum pxp_log_level level)
{
	log_level = level;
}

bool pxp_log_enabled(enum pxp_log_level level)
{
	return level <= log_level;
}

bool pxp_log_syslog_available(void)
{
	struct stat st;

	return !stat(SYSLOG_SOCKET, &st) && S_ISSOCK(st.st_mode);
}

void pxp_log_use_syslog(bool on)
{
	/* Without a syslog socket the lines would be lost: keep them on stderr. */
	if (on && !pxp_log_syslog_available())
		on = false;
	if (on && !log_to_syslog)
		openlog("pppoe-xp", LOG_PID, LOG_DAEMON);
	else if (!on && log_to_syslog)
		closelog();
	log_to_syslog = on;
}

int pxp_log_open_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0600);

	if (fd < 0)
		return -errno;
	if (log_file_fd >= 0)
		close(log_file_fd);
	log_file_fd = fd;
	return 0;
}

/* One line, one write(2): with O_APPEND, lines of two processes never interleave. */
static void log_file_line(const char *prefix, const char *fmt, va_list ap)
{
	char line[1024];
	struct tm tm;
	time_t now = time(NULL);
	size_t n;
	int len;

	localtime_r(&now, &tm);
	n = strftime(line, sizeof(line), "%Y-%m-%d %H:%M:%S ", &tm);
	len = snprintf(line + n, sizeof(line) - n, "pppoe-xp[%ld]: %s", (long)getpid(), prefix);
	if (len < 0)
		return;
	n += (size_t)len;
	if (n < sizeof(line)) {
		len = vsnprintf(line + n, sizeof(line) - n, fmt, ap);
		n = len < 0 ? n : n + (size_t)len;
	}
	if (n > sizeof(line) - 2)
		n = sizeof(line) - 2; /* cut, but still one line */
	line[n++] = '\n';
	if (write(log_file_fd, line, n) < 0) {
		/* Nowhere better to say so: the line still reaches stderr or syslog. */
	}
}

static int syslog_priority(enum pxp_log_level level)
{
	switch (level) {
	case PXP_LOG_ERROR:
		return LOG_ERR;
	case PXP_LOG_WARN:
		return LOG_WARNING;
	case PXP_LOG_INFO:
		return LOG_INFO;
	default:
		return LOG_DEBUG;
	}
}

static void log_va(enum pxp_log_level level, const char *fmt, va_list ap)
{
	static const char *const prefix[] = {
		[PXP_LOG_ERROR] = "error: ",
		[PXP_LOG_WARN] = "warning: ",
		[PXP_LOG_INFO] = "",
		[PXP_LOG_DEBUG] = "debug: ",
	};

	if (level == PXP_LOG_ERROR) {
		va_list copy;

		va_copy(copy, ap);
		vsnprintf(last_error, sizeof(last_error), fmt, copy);
		va_end(copy);
	}
	if (level > log_level)
		return;
	if (log_file_fd >= 0) {
		va_list copy;

		va_copy(copy, ap);
		log_file_line(prefix[level], fmt, copy);
		va_end(copy);
	}
	if (log_to_syslog) {
		vsyslog(syslog_priority(level), fmt, ap);
		return;
	}
	fprintf(stderr, "pppoe-xp: %s", prefix[level]);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

const char *pxp_log_last_error(void)
{
	return last_error;
}

void pxp_log(enum pxp_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_va(level, fmt, ap);
	va_end(ap);
}

/*
 * Only libbpf's warnings: its info and debug levels narrate every map and relocation of
 * the loader. libbpf terminates its messages with a newline; ours adds one, so strip it.
 */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[512];
	int n;

	if (level != LIBBPF_WARN || !pxp_log_enabled(PXP_LOG_WARN))
		return 0;
	n = vsnprintf(line, sizeof(line), fmt, ap);
	if (n > 0 && (size_t)n < sizeof(line) && line[n - 1] == '\n')
		line[n - 1] = '\0';
	pxp_warn("%s", line); /* libbpf starts its lines with "libbpf: " */
	return 0;
}

void pxp_log_hook_libbpf(void)
{
	libbpf_set_print(libbpf_print);
}
