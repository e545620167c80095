/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running in the background: `up` and `server` fork a daemon and wait until it reports
 * the outcome of its start (session up, or the cause it failed), so the command's exit
 * status and message tell what happened. Also the exit codes of the daemon and the CLI,
 * which follow pppd's where one fits (OpenWrt's netifd maps those to error names).
 */
#ifndef PXP_DAEMON_H
#define PXP_DAEMON_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The exit codes, once: X(name, code, pppd's name, short name, what leads to it). pppd's
 * numbers and meanings (pppd.h EXIT_*), so that scripts and netifd read ours as pppd's;
 * pppd's codes that have no cause here (9, 12-14, 18) are left out. pxp_exit_name(),
 * `help` and the man page's EXIT STATUS are made from this table.
 */
#define PXP_EXIT_TABLE(X)                                                                       \
	X(OK, 0, "EXIT_OK", "ok", "session up (up), or a clean stop (server, down)")            \
	X(FATAL, 1, "EXIT_FATAL_ERROR", "fatal error",                                          \
	  "an internal error, a netdev named --ifname that pppoe-xp did not create, no daemon " \
	  "to talk to (and none left a record)")                                                \
	X(OPTION, 2, "EXIT_OPTION_ERROR", "bad option", "a bad command line or value")          \
	X(NOT_ROOT, 3, "EXIT_NOT_ROOT", "not root", "the command must run as root")             \
	X(DATAPATH, 4, "EXIT_NO_KERNEL_SUPPORT", "data path unavailable",                       \
	  "the data path could not attach to IFACE")                                            \
	X(SIGNAL, 5, "EXIT_USER_REQUEST", "terminated",                                         \
	  "stopped by SIGINT/SIGTERM or pppoe-xp down")                                         \
	X(LOCK, 6, "EXIT_LOCK_FAILED", "already running",                                       \
	  "another pppoe-xp runs on IFACE, or another instance claims the session netdev "      \
	  "name (--ifname)")                                                                    \
	X(OPEN, 7, "EXIT_OPEN_FAILED", "cannot open IFACE",                                     \
	  "no such interface, or its PPPoE sockets could not be opened")                        \
	X(NO_PADO, 8, "EXIT_CONNECT_FAILED", "discovery failed",                                \
	  "the link is down (without --persist), no PADO, no PADS, or a PADS error")            \
	X(NEGOTIATION, 10, "EXIT_NEGOTIATION_FAILED", "negotiation failed",                     \
	  "LCP did not converge, or IPCP was rejected or never opened")                         \
	X(PEER_AUTH, 11, "EXIT_PEER_AUTH_FAILED", "peer failed to authenticate",                \
	  "the server's peer failed to authenticate")                                           \
	X(ECHO, 15, "EXIT_PEER_DEAD", "link dead (no LCP echo replies)",                        \
	  "no reply to the --keepalive LCP Echo-Requests")                                      \
	X(HANGUP, 16, "EXIT_HANGUP", "session ended by the AC",                                 \
	  "the AC sent a PADT or an LCP Terminate-Request")                                     \
	X(LOOPBACK, 17, "EXIT_LOOPBACK", "loopback detected", "the link is looped back")        \
	X(AUTH_FAILED, 19, "EXIT_AUTH_TOPEER_FAILED", "authentication failed",                  \
	  "we failed to authenticate (wrong user or password)")

enum pxp_exit {
#define PXP_EXIT_ENUM(name, code, pppd, brief, text) PXP_EXIT_##name = code,
	PXP_EXIT_TABLE(PXP_EXIT_ENUM)
#undef PXP_EXIT_ENUM
};

#define DAEMON_MESSAGE_MAX 240

struct daemon_report {
	int code;    /* enum pxp_exit */
	bool ending; /* the daemon exits after this report: the parent waits for that */
	char message[DAEMON_MESSAGE_MAX];
};

/*
 * Forks. In the child (returns 0): a new session, stdio on /dev/null, cwd /, logging to
 * syslog, *notify_fd set for daemon_notify(). In the parent (returns 1): waits for the
 * child's report and fills *report (a child that dies silently reports PXP_EXIT_FATAL);
 * after a report of an ending daemon, also for the child's exit, so that a retry at once
 * finds neither its control socket nor its data path. -errno if the fork failed.
 */
int daemon_fork(int *notify_fd, struct daemon_report *report);
/*
 * Tells the waiting parent the outcome once; *notify_fd becomes -1. No-op if already -1.
 * PXP_EXIT_OK: the daemon runs on; any other code: the daemon is ending, and the parent
 * returns once it has exited.
 */
void daemon_notify(int *notify_fd, int code, const char *message);
/* A failure after which the daemon goes on in the background (--persist): no waiting. */
void daemon_notify_retrying(int *notify_fd, int code, const char *message);

/* The table's short name of code ("unknown" for a code not in it), its causes, pppd's name. */
const char *pxp_exit_name(int code);
const char *pxp_exit_causes(int code);
const char *pxp_exit_pppd_name(int code);

/*
 * RUN_DIR/IFACE.pid holding this process's pid, for scripts and init systems (pppd's
 * /run/ppp0.pid, keyed here by the WAN port as the control socket is). 0 or -errno.
 */
int daemon_write_pid_file(const char *iface);
/*
 * Removes it if it still holds pid (never another run's). Call while this run's instance
 * record still holds the port: a new run writes its pid file only after claiming the record,
 * so the file read cannot be replaced before the unlink.
 */
void daemon_remove_pid_file(const char *iface, long pid);

#endif
