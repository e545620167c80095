// SPDX-License-Identifier: GPL-2.0
#include "log.h"

#include <bpf/libbpf.h>
#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>

static enum pxp_log_level log_level = PXP_LOG_INFO;
static bool log_to_syslog;
static char last_error[240];

void pxp_log_set_level(enum pxp_log_level level)
{
	log_level = level;
}

void pxp_log_use_syslog(bool on)
{
	if (on && !log_to_syslog)
		openlog("pppoe-xp", LOG_PID, LOG_DAEMON);
	else if (!on && log_to_syslog)
		closelog();
	log_to_syslog = on;
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

/* libbpf terminates its messages with a newline; ours adds one, so strip it. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	enum pxp_log_level ours = level == LIBBPF_WARN ? PXP_LOG_WARN : PXP_LOG_DEBUG;
	char line[512];
	int n;

	if (ours > log_level)
		return 0;
	n = vsnprintf(line, sizeof(line), fmt, ap);
	if (n > 0 && (size_t)n < sizeof(line) && line[n - 1] == '\n')
		line[n - 1] = '\0';
	pxp_log(ours, "libbpf: %s", line);
	return 0;
}

void pxp_log_hook_libbpf(void)
{
	libbpf_set_print(libbpf_print);
}
