/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one logging module of the daemon and the CLI. Messages go to stderr while a
 * terminal is attached and to syslog once the daemon runs in the background (stderr
 * again where no syslog socket exists), and to --logfile as well where one is given. libbpf's own
 * messages are routed through it (pxp_log_hook_libbpf). Never pass secrets or per-packet wire data
 * to these functions: the protocol cores count malformed input instead of logging it. The one
 * exception is
 * --debug, which logs each PPP control packet and discovery frame as pppoe/ppp_decode.c
 * prints it (wire strings escaped, PAP passwords hidden, AC-Cookies by length only).
 *
 * Concurrency: called from the daemon's single thread.
 */
#ifndef PXP_LOG_H
#define PXP_LOG_H

#include <stdbool.h>

enum pxp_log_level {
	PXP_LOG_ERROR,
	PXP_LOG_WARN,
	PXP_LOG_INFO,
	PXP_LOG_DEBUG,
};

/* Messages above level are discarded. */
void pxp_log_set_level(enum pxp_log_level level);
/* Whether a message at level would be shown: lets callers skip costly formatting. */
bool pxp_log_enabled(enum pxp_log_level level);
/*
 * Switch to syslog (ident "pppoe-xp") for a detached daemon; false goes back to stderr.
 * Without a syslog socket (/dev/log) the messages stay on stderr.
 */
void pxp_log_use_syslog(bool on);
/*
 * Also append every line shown to path (pppd's logfile), with a time stamp: opened
 * O_APPEND | O_CLOEXEC (scripts the daemon runs do not inherit it), created mode 0600.
 * Kept across the daemon's fork. 0 or -errno.
 */
int pxp_log_open_file(const char *path);
bool pxp_log_syslog_available(void);
/*
 * Route libbpf's warnings through this module (at WARN); its info and debug messages, the
 * loader's noise, are dropped so that --debug shows the protocol, as pppd's debug does.
 */
void pxp_log_hook_libbpf(void);

/* The text of the last error logged ("" if none): a detached daemon hands it to the
 * waiting command so the user sees the cause, not just an exit code. */
const char *pxp_log_last_error(void);

void pxp_log(enum pxp_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define pxp_err(...)   pxp_log(PXP_LOG_ERROR, __VA_ARGS__)
#define pxp_warn(...)  pxp_log(PXP_LOG_WARN, __VA_ARGS__)
#define pxp_info(...)  pxp_log(PXP_LOG_INFO, __VA_ARGS__)
#define pxp_debug(...) pxp_log(PXP_LOG_DEBUG, __VA_ARGS__)

#endif
