/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record a daemon keeps of itself in RUN_DIR/IFACE.session (one per WAN port): who it
 * is (pid, process start time, network namespace, client or server), the session netdev
 * name a client claims, and what it created (the data path's objects by ifindex and program
 * id, the open PPPoE session, the resolv file, its default routes and the one it replaced).
 * A server's session netdevs come and go with its sessions: they are known by their name
 * (PXP_AC_NETDEV_PREFIX), one AC per network namespace. With it one instance never harms
 * another: a name that another instance's record claims, or a netdev that no record names,
 * is refused; and what a dead instance left is removed exactly, where it still is what it
 * created (by `up` after a crash, and by `down` of a dead daemon).
 *
 * Concurrency: the record of IFACE is written only by the daemon holding IFACE.ctl.
 */
#ifndef PXP_INSTANCE_H
#define PXP_INSTANCE_H

#include <limits.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "datapath.h"
#include "netlink.h"
#include "pppoe_wire.h"

/* The AC names its session netdevs pxs<session id>. */
#define PXP_AC_NETDEV_PREFIX "pxs"

struct instance_record {
	int pid;		       /* 0: a record of a version that kept no pid (dead) */
	char role[8];		       /* "client" or "server"; "" (an older record): client */
	unsigned long long start_time; /* /proc/PID/stat starttime: a reused pid is not us */
	unsigned long long netns;      /* inode of our network namespace: ifindexes are per netns */
	char ifname[IF_NAMESIZE];      /* the session netdev name this instance claims */
	uint16_t vlan_id;	       /* what the PADT for the session is tagged with */
	struct pxp_dp_owned dp;	       /* the netdev and the WAN program, by identity */
	uint16_t session_id;	       /* the open PPPoE session; 0 = none */
	uint8_t ac_mac[PXP_ETH_ALEN];  /* its AC */
	uint8_t local_mac[PXP_ETH_ALEN]; /* our WAN port's MAC */
	uint16_t resolv_written;	 /* 1: our nameserver lines are in a resolv file */
	char resolv_file[PATH_MAX];	 /* --resolv-file's shared file; "" = our own file */
	/* Our default routes through the netdev (PXP_RTPROT), when in place: their metrics. */
	uint8_t route4, route6;
	uint32_t route4_metric, route6_metric;
	uint8_t replaced;		 /* 1: --replacedefaultroute took replaced_route out */
	struct pxp_route replaced_route; /* IPv4: what to put back */
};

/* This process as a record (pid, start time, network namespace), the rest empty. */
int instance_record_init(struct instance_record *r);
/* Writes the record of iface atomically. 0 or -errno. */
int instance_record_write(const char *iface, const struct instance_record *r);
void instance_record_remove(const char *iface);
/* A record for iface whose process still runs (pid and start time match). */
bool instance_running(const char *iface);

/*
 * Removes what a dead instance on iface left: a PADT to the AC of its session, its session
 * netdev and WAN program where they are still the ones it created, its resolv file, its
 * default routes (it puts back the one it replaced), a dead server's session netdevs
 * (instance_remove_ac_netdevs()), its pid file and its record (its control socket is the
 * caller's: a starting daemon has bound its own there). *found tells whether there was a
 * dead instance. An instance that is still exiting is waited for. 0 or -errno: -EBUSY if it
 * still runs, -EXDEV if it ran in another network namespace (both logged).
 */
int instance_clean_stale(const char *iface, bool *found);
/*
 * May the instance on iface create the session netdev ifname? Not if another instance's
 * record claims it, nor if a netdev of that name exists that no record names (someone
 * else's). Logs the reason naming --ifname. 0, -EBUSY or -EEXIST.
 */
int instance_check_ifname(const char *iface, const char *ifname);
/*
 * One AC per network namespace (its session netdevs are named by session id): -EBUSY,
 * logged, if a live server runs here on another port than iface; else 0.
 */
int instance_check_one_ac(const char *iface);
/*
 * Deletes the AC session netdevs (PXP_AC_NETDEV_PREFIX + digits, veth pairs only) a dead
 * server left in this network namespace; never one that a client's record claims, and
 * nothing while a live server runs here.
 */
void instance_remove_ac_netdevs(void);
/*
 * `status` of a dead instance from its record: state "stale", stale "daemon dead" and what
 * it left. 0, -ENOENT if iface has no record, -EBUSY if its daemon is alive.
 */
int instance_write_stale_status(const char *iface, FILE *out, bool json);

#endif
