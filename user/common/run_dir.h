/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where control sockets, session records and resolv files live: the Makefile's RUN_DIR
 * (/run/pppoe-xp; given to run_dir.c alone as PXP_RUN_DIR), or PPPOE_XP_RUN_DIR from the
 * environment (tests run several daemons on equally named ports).
 */
#ifndef PXP_RUN_DIR_H
#define PXP_RUN_DIR_H

#define PXP_RUN_DIR_ENV	  "PPPOE_XP_RUN_DIR"
/*
 * What must outlive a reboot (the WireGuard handshake stamps): the Makefile's STATE_DIR
 * (/var/lib/pppoe-xp; OpenWrt: /etc/pppoe-xp, since its /var is a tmpfs), or this.
 */
#define PXP_STATE_DIR_ENV "PPPOE_XP_STATE_DIR"

/* RUN_DIR or its override (only an absolute path is taken). */
const char *pxp_run_dir(void);
/* STATE_DIR or its override (only an absolute path is taken). */
const char *pxp_state_dir(void);
/* Creates the run directory (0700) if it is missing. 0 or -errno. */
int pxp_run_dir_create(void);
/*
 * Calls fn with the interface name of every file IFACE<suffix> in the run directory (a
 * missing directory has none). 0 or -errno.
 */
int pxp_run_dir_for_each(const char *suffix, void (*fn)(void *ctx, const char *iface), void *ctx);

#endif
