/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pppd's scripts: ip-up, ip-down, ipv6-up and ipv6-down in PPP_DIR (/etc/ppp, or
 * $PPPOE_XP_PPP_DIR), run with pppd's arguments
 *     interface-name tty-device speed local-address remote-address ipparam
 * (link-local addresses for the ipv6 ones) and a cleared environment holding pppd's
 * variables (IFNAME, IPLOCAL, ..., CONNECT_TIME, BYTES_SENT, BYTES_RCVD), so that scripts
 * written for pppd run unchanged. When PPP_DIR/NAME is missing, the executables of
 * PPP_DIR/NAME.d run instead, one after the other in run-parts order, with the PPP_*
 * variables Debian's /etc/ppp/ip-up exports for them. A script named by an option
 * (--ip-up-script, as pppd's ip-up-script) replaces both.
 *
 * hook_build() is pure (unit tested); hooks_run() forks one runner per hook and never
 * waits: the runner's exit (a pidfd) and its output (a pipe, logged line by line) come
 * back through the event loop. The hooks of one family (IPv4, IPv6) run in order: a down
 * hook waits for its up hook to finish, as pppd's do.
 *
 * Concurrency: the daemon's single thread.
 */
#ifndef PXP_HOOKS_H
#define PXP_HOOKS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "event_loop.h"

#define PXP_PPP_DIR	  "/etc/ppp"
#define PXP_PPP_DIR_ENV	  "PPPOE_XP_PPP_DIR"
/* How long the daemon waits for its scripts when it exits (pppd's child-timeout). */
#define HOOK_EXIT_WAIT_MS 5000
#define HOOK_ARGS_MAX	  8
#define HOOK_ENV_MAX	  32
#define HOOK_TEXT_MAX	  2048
#define HOOK_SCRIPTS_MAX  32
#define HOOK_LINE_MAX	  256
#define HOOK_QUEUE_MAX	  4

enum hook_kind { HOOK_IP_UP, HOOK_IP_DOWN, HOOK_IPV6_UP, HOOK_IPV6_DOWN, HOOK_KIND_COUNT };

/* What a script is told about the session. */
struct hook_session {
	const char *ifname;	    /* $1, IFNAME */
	const char *device;	    /* $2, DEVICE: the WAN port, as pppd's rp-pppoe plugin */
	const char *ipparam;	    /* $6, "" when not set */
	uint32_t local_ip, peer_ip; /* network order */
	uint32_t dns[2];	    /* network order, 0 = none; only with usepeerdns */
	bool usepeerdns;
	uint8_t local_ifid[8], peer_ifid[8];
	long pid; /* PPPD_PID */
	/* ip-down and ipv6-down only. */
	uint64_t connect_time_s, bytes_sent, bytes_rcvd;
};

/* argv and envp for execve(); the strings live in text. */
struct hook_cmd {
	char *argv[HOOK_ARGS_MAX];
	char *envp[HOOK_ENV_MAX];
	char text[HOOK_TEXT_MAX];
	size_t used;
};

/* "ip-up", ... */
const char *hook_name(enum hook_kind kind);
/* PXP_PPP_DIR or its override (only an absolute path is taken). */
const char *hook_dir(void);
/*
 * Fills cmd as pppd would run the script; argv[0] is left NULL for the script's path.
 * 0, or -ENOSPC when the strings do not fit.
 */
int hook_build(enum hook_kind kind, const struct hook_session *s, struct hook_cmd *cmd);

/* One running hook (a runner process and the pipe of its output). */
struct hook_child {
	struct hooks *owner;
	enum hook_kind kind;
	pid_t pid; /* 0 = none */
	int pidfd, out_fd;
	struct ev_handler exit_h, out_h;
	char line[HOOK_LINE_MAX];
	size_t line_len;
	/*
	 * Hooks of this family asked for while one runs (FIFO), with the session as it was
	 * then; its strings are the daemon's settings, which outlive the queue.
	 */
	unsigned int queued;
	struct hook_session queue[HOOK_QUEUE_MAX];
	enum hook_kind queue_kind[HOOK_QUEUE_MAX];
};

struct hooks {
	struct ev_loop *loop;
	struct hook_child family[2]; /* IPv4, IPv6 */
	/* pppd's ip-up-script and friends: this one file instead of PPP_DIR's; NULL or "". */
	const char *script[HOOK_KIND_COUNT];
};

/*
 * script[kind], when set, names the one file run for kind (pppd's ip-up-script,
 * ip-down-script, ipv6-up-script, ipv6-down-script); NULL or "" = PPP_DIR/NAME or its .d.
 * The strings must outlive h.
 */
void hooks_init(struct hooks *h, struct ev_loop *loop, const char *const script[HOOK_KIND_COUNT]);
/*
 * Runs the hook kind for session s, or queues it behind the running hook of its family.
 * No script for it: nothing happens (0). Otherwise 0 or -errno (logged).
 */
int hooks_run(struct hooks *h, enum hook_kind kind, const struct hook_session *s);
/*
 * At exit: waits up to timeout_ms for the running and queued hooks, logging their output,
 * then ends what still runs (SIGTERM to its process group) and closes everything. Polls
 * by itself: the event loop may already be closed.
 */
void hooks_finish(struct hooks *h, unsigned int timeout_ms);

#endif
