/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The built-in access concentrator: PPPoE discovery through the AC core, one PPP link per
 * session (server role: authentication against pppd-style secrets, addresses from the
 * pool) and one session netdev per session (pxs<session id>) through the data path.
 *
 * Concurrency: runs the calling thread's event loop until the daemon ends.
 */
#ifndef PXP_SERVER_H
#define PXP_SERVER_H

#include "settings.h"

/* Runs the server; returns an enum pxp_exit code. notify_fd as for client_run(). */
int server_run(struct server_settings *o, int notify_fd);

#endif
