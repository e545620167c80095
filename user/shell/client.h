/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PPPoE client daemon: one session on one WAN port, from discovery to IPCP and the
 * data path, kept up with --persist, ended by `down`, a signal, the AC or a dead link.
 *
 * Concurrency: runs the calling thread's event loop until the daemon ends.
 */
#ifndef PXP_CLIENT_H
#define PXP_CLIENT_H

#include "settings.h"

/*
 * Runs the client until it ends; returns an enum pxp_exit code. notify_fd, if >= 0, is
 * the readiness pipe of daemon_fork(): the outcome of the first attempt is reported there.
 * The password in o is wiped once the PPP link holds its copy.
 */
int client_run(struct client_settings *o, int notify_fd);

#endif
