/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The data path's counters as the daemon reports them: written by the data path and the
 * engine, read by status and `pppoe-xp stats`.
 */
#ifndef PXP_DP_STATS_H
#define PXP_DP_STATS_H

#include <stdint.h>

/*
 * Per RX queue, in every mode: rx = frames the WAN program saw (control frames too),
 * tx = frames the stack sent out of the session netdevs, decap/encap = frames moved each
 * way (by the engine in mode afxdp). Drops are the programs' plus, in mode afxdp, the
 * engine's. drop_malformed: truncated headers, lying lengths, non-IP on pxp0.
 */
struct pxp_dp_queue_stats {
	uint64_t rx, tx, decap, encap;
	uint64_t drop_malformed, drop_no_session, drop_too_big, drop_ring_full, drop_other;
};

#define PXP_DP_MAX_QUEUES 64

struct pxp_dp_stats {
	unsigned int nr_queues;
	struct pxp_dp_queue_stats queue[PXP_DP_MAX_QUEUES];
};

#endif
