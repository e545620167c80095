/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `pppoe-xp discover IFACE`: one PADI, then every AC that answers within the window,
 * with its services, printed like rp-pppoe's `pppoe -A`.
 */
#ifndef PXP_DISCOVER_H
#define PXP_DISCOVER_H

#include <stdio.h>

#include "config.h"

/* Writes the ACs found to out. Returns 0 if at least one answered, -ENOENT if none,
 * or -errno. */
int discover_run(const struct discover_options *o, FILE *out);

#endif
