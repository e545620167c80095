/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The data path's counters as the daemon reports them: written by the data path and the
 * engine, read by status and `pppoe-xp stats`.
 */
#ifndef PXP_DP_STATS_H
#define PXP_DP_STATS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The fields of the per-queue report, in order (the order of the snapshot line and of the
 * table's columns). Every renderer is generated from this list.
 *
 * X(field, column, width, rate_column):
 *   field        the struct member and its JSON key
 *   column       its heading in the `pppoe-xp stats` table, width characters wide
 *   rate_column  its heading in the rates table; NULL for a drop: the rates add up the drops
 *                in one column, and the engine's drops add to the programs'
 *
 * Per RX queue, in every mode: rx = frames the WAN program saw (control frames too),
 * tx = frames the stack sent out of the session netdevs, decap/encap = frames moved each
 * way (by the engine in mode afxdp). Drops are the programs' plus, in mode afxdp, the
 * engine's. drop_malformed: truncated headers, lying lengths, non-IP on pxp0.
 */
#define PXP_DP_QUEUE_FIELDS(X)                     \
	X(rx, "rx", 12, "rx pkt")                  \
	X(tx, "tx", 12, "tx pkt")                  \
	X(decap, "decap", 12, "decap")             \
	X(encap, "encap", 12, "encap")             \
	X(drop_malformed, "malformed", 9, NULL)    \
	X(drop_no_session, "no_session", 10, NULL) \
	X(drop_too_big, "too_big", 7, NULL)        \
	X(drop_ring_full, "ring_full", 9, NULL)    \
	X(drop_other, "other", 7, NULL)

enum pxp_dp_field {
#define X(field, column, width, rate_column) PXP_DP_F_##field,
	PXP_DP_QUEUE_FIELDS(X)
#undef X
		PXP_DP_F__MAX,
	PXP_DP_F_none = PXP_DP_F__MAX, /* a data path counter the report does not carry */
};

struct pxp_dp_queue_stats {
	union {
		struct {
#define X(field, column, width, rate_column) uint64_t field;
			PXP_DP_QUEUE_FIELDS(X)
#undef X
		};
		uint64_t field[PXP_DP_F__MAX]; /* the same, indexed by enum pxp_dp_field */
	};
};

#define PXP_DP_MAX_QUEUES 64

struct pxp_dp_stats {
	unsigned int nr_queues;
	struct pxp_dp_queue_stats queue[PXP_DP_MAX_QUEUES];
};

/* A field's name, which is also its JSON key; "?" out of range. */
const char *pxp_dp_field_name(unsigned int field);
bool pxp_dp_field_is_drop(unsigned int field);
/* The field a data path counter (enum pxp_counter) adds into, or PXP_DP_F_none. */
enum pxp_dp_field pxp_dp_counter_field(unsigned int counter);
/* The sum of st's queues. */
void pxp_dp_stats_total(const struct pxp_dp_stats *st, struct pxp_dp_queue_stats *total);

#endif
