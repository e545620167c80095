/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `pppoe-xp stats`: the data path counters of a running daemon, per queue, the byte counts
 * of its session netdevs, and counters by name (the WireGuard device's: it has no queues;
 * names starting "drop_" are drops). The daemon answers the control command "stats" with one
 * snapshot in a small line format (stats_snapshot_write()); the CLI parses it
 * (stats_snapshot_parse()) and renders counters, or rates between two snapshots, as a
 * table or as JSON. Rates use the daemon's own clock, so a slow CLI does not skew them.
 *
 * Concurrency: plain data; each snapshot belongs to one caller.
 */
#ifndef PXP_STATS_REPORT_H
#define PXP_STATS_REPORT_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dp_stats.h"

/* Session netdevs listed per snapshot (a server may hold more sessions: the first ones). */
#define STATS_MAX_NETDEVS  64
/* Counters by name per snapshot, and the longest name. */
#define STATS_MAX_COUNTERS 96
#define STATS_COUNTER_NAME 32
/* A named counter that starts so is a drop: the views add the drops up in one row. */
#define STATS_DROP_PREFIX  "drop_"

struct stats_netdev {
	char ifname[IF_NAMESIZE];
	uint64_t rx_packets, rx_bytes, tx_packets, tx_bytes;
};

struct stats_counter {
	char name[STATS_COUNTER_NAME];
	uint64_t value;
};

struct stats_snapshot {
	char iface[IF_NAMESIZE];
	char role[16];	  /* "client", "server" or "wireguard" */
	char state[16];	  /* as in status: "up", "negotiating", ... or "running" (one word) */
	char mode[16];	  /* data path mode, "-" when detached */
	uint64_t time_ms; /* the daemon's monotonic clock when the snapshot was taken */
	struct pxp_dp_stats dp;
	unsigned int nr_netdevs;
	struct stats_netdev netdev[STATS_MAX_NETDEVS];
	unsigned int nr_counters;
	struct stats_counter counter[STATS_MAX_COUNTERS];
};

/* Appends a named counter to s; -ENOSPC when full, -EINVAL for a name too long or empty. */
int stats_counter_add(struct stats_snapshot *s, const char *name, uint64_t value);
bool stats_counter_is_drop(const char *name);

/* The daemon's side: one snapshot in the control-socket format. */
void stats_snapshot_write(const struct stats_snapshot *s, FILE *out);
/*
 * The CLI's side: text[0..len) into s. -EBADMSG for anything malformed or truncated
 * (an unknown line, a number out of range, no "end" line).
 */
int stats_snapshot_parse(struct stats_snapshot *s, const char *text, size_t len);

/*
 * Counters as they stand: one row per queue and a total (left out of the text for a
 * snapshot without queues but with named counters), one row per netdev, the named
 * counters (text: the drops as their sum and the non-zero ones).
 */
void stats_print_counters(const struct stats_snapshot *s, FILE *out, bool json);

struct status_writer;
/* The daemon's status: the number of queues and each field summed over them. */
void stats_dp_status(struct status_writer *w, const struct pxp_dp_stats *st);

/* Per-second rates from prev to cur (packets/s; bits/s for the netdevs, whose bytes we know). */
struct stats_queue_rates {
	struct pxp_dp_queue_stats pps; /* every field, per second */
	uint64_t drops;		       /* all drop fields together */
};

struct stats_netdev_rates {
	uint64_t rx_pps, rx_bps, tx_pps, tx_bps;
};

/*
 * Rates of queue q (or of netdev i, or named counter i, matched by name in prev); counters
 * that went back count 0.
 */
void stats_queue_rates(const struct stats_snapshot *prev, const struct stats_snapshot *cur,
		       unsigned int q, struct stats_queue_rates *r);
void stats_netdev_rates(const struct stats_snapshot *prev, const struct stats_snapshot *cur,
			unsigned int i, struct stats_netdev_rates *r);
uint64_t stats_counter_rate(const struct stats_snapshot *prev, const struct stats_snapshot *cur,
			    unsigned int i);
/* One view of the rates; JSON is one object per line (a stream for --watch --json). */
void stats_print_rates(const struct stats_snapshot *prev, const struct stats_snapshot *cur,
		       FILE *out, bool json);

#endif
