/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What --mode auto runs on a WAN port: one table from the port's driver to the mode and the
 * programs of each half, with the reason status prints; the session netdev's kind follows
 * from the halves (pxp_dp_auto_netkit). Pure (no syscalls): the data path asks the driver's
 * name, and whether the port has native XDP and the kernel netkit only where the table
 * needs to know.
 */
#ifndef PXP_DP_AUTO_H
#define PXP_DP_AUTO_H

#include <stdbool.h>

#include "datapath.h"

/* The driver column's two classes, after the named drivers. */
#define PXP_AUTO_NATIVE_XDP "(native XDP)" /* any driver whose native XDP attach works */
#define PXP_AUTO_ANY	    "(any)"	   /* every other driver */

struct pxp_dp_auto {
	const char *driver;    /* ethtool's driver name, or one of the classes above */
	enum pxp_dp_mode mode; /* what status calls it: xdp or tc */
	enum pxp_dp_half rx, tx;
	bool netkit;	 /* the row is for kernels with netkit (and --netdev not veth) */
	const char *why; /* for status, after the driver's name: why it gets these */
};

/*
 * The first row that fits driver, native_xdp (does the port run XDP natively?) and netkit (may
 * the session netdevs be netkits: the kernel has them and --netdev does not say veth), each 0
 * or 1, or -1 when not probed: NULL if the answer depends on one not probed.
 */
const struct pxp_dp_auto *pxp_dp_auto_pick(const char *driver, int native_xdp, int netkit);
/* The table itself, for tests and docs: rows in match order, *n gets how many. */
const struct pxp_dp_auto *pxp_dp_auto_table(unsigned int *n);
/*
 * --netdev auto: are the session netdevs netkits (where the kernel has netkit) for these
 * resolved halves, or veths?
 */
bool pxp_dp_auto_netkit(enum pxp_dp_mode mode, enum pxp_dp_half rx, enum pxp_dp_half tx);

#endif
