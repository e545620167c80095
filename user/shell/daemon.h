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

enum pxp_exit {
	PXP_EXIT_OK = 0,
	PXP_EXIT_FATAL = 1,	   /* internal error, or another daemon runs on IFACE */
	PXP_EXIT_OPTION = 2,	   /* bad command line */
	PXP_EXIT_DATAPATH = 4,	   /* the data path could not attach (pppd: no kernel support) */
	PXP_EXIT_SIGNAL = 5,	   /* ended by SIGINT/SIGTERM or `pppoe-xp down` */
	PXP_EXIT_NO_PADO = 8,	   /* discovery failed: no AC answered, or no PADS */
	PXP_EXIT_NEGOTIATION = 10, /* LCP did not converge, or IPCP was rejected */
	PXP_EXIT_PEER_AUTH = 11,   /* server: the peer failed to authenticate */
	PXP_EXIT_ECHO = 15,	   /* keepalive: the AC stopped answering LCP Echo */
	PXP_EXIT_HANGUP = 16,	   /* the AC ended the session (PADT or LCP Terminate) */
	PXP_EXIT_LOOPBACK = 17,	   /* the link is looped back */
	PXP_EXIT_AUTH_FAILED = 19, /* we failed to authenticate (wrong user or password) */
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

const char *pxp_exit_name(int code);

/*
 * RUN_DIR/IFACE.pid holding this process's pid, for scripts and init systems (pppd's
 * /run/ppp0.pid, keyed here by the WAN port as the control socket is). 0 or -errno.
 */
int daemon_write_pid_file(const char *iface);
/* Removes it if it still holds this process's pid (never another run's). */
void daemon_remove_pid_file(const char *iface);

#endif
