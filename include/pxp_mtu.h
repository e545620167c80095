/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The session MTU's limits, once: the largest IP packet a PPPoE session carries, as the
 * user may ask for it (--mtu) and as the data path takes it (the peer's MRU may be lower).
 */
#ifndef PXP_MTU_H
#define PXP_MTU_H

#include <stdbool.h>

#include "pppoe_wire.h"

/* --mtu: 576 every IPv4 host must take (RFC 791), up to jumbo frames. */
#define PXP_MTU_MIN    576
#define PXP_MTU_MAX    9000
/* The data path goes down to IPv4's own floor: it follows what LCP negotiated. */
#define PXP_MTU_MIN_IP 68

/* Whether a session MTU is at least min and fits a WAN of wan_mtu with the PPPoE header. */
static inline bool pxp_mtu_fits(unsigned int mtu, unsigned int min, unsigned int wan_mtu)
{
	return mtu >= min && mtu + PPPOE_SESSION_OVERHEAD <= wan_mtu;
}

#endif
