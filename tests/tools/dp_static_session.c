// SPDX-License-Identifier: GPL-2.0
/*
 * Test tool: a static PPPoE session on the express data path, without any control plane.
 * Both ends of a test topology run it with mirrored MACs and the same session id.
 *
 *   dp_static_session up --wan IF --sid N --peer-mac MAC [--ifname NAME] [--mtu N]
 *                        [--mode auto|xdp|generic|afxdp|tc] [--rx xdp|tc] [--tx xdp|tc]
 *                        [--vlan VID] [--vlan-pcp 0..7] [--cpus N] [--mtu-on-usr1 N]
 *                        [--no-mss-clamp] [--tc-clsact]
 *       (--tc-clsact: tc programs as clsact filters where the kernel has tcx)
 *       attach, add the session, print "ready IFINDEX MODE HALVES", hold until SIGTERM/SIGINT,
 *       then detach everything; on SIGUSR1 set the session MTU to N (prints "mtu N: ok")
 *   dp_static_session stats --wan IF
 *       print the counters of the WAN program attached to IF (all queues summed)
 *   dp_static_session cleanup --wan IF [--ifname NAME]
 *       pxp_dp_cleanup_stale(): what a crashed holder left behind
 */
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datapath.h"
#include "dp_load.h"
#include "dp_tc.h"
#include "pxp_maps.h"

struct options {
	const char *wan;
	const char *ifname;
	const char *mode;
	const char *rx, *tx; /* the halves' programs; NULL = the mode's */
	long sid;
	unsigned char peer_mac[6];
	int have_mac;
	long mtu;
	long vlan;
	long vlan_pcp;
	long cpus;
	long mtu_after;
	int mss_clamp;
	int tc_clsact; /* the WAN's tc program as a clsact filter where the kernel has tcx */
};

static volatile sig_atomic_t stop, change_mtu;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		change_mtu = 1;
	else
		stop = 1;
}

static int parse(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "wan", required_argument, NULL, 'w' },
		{ "ifname", required_argument, NULL, 'i' },
		{ "sid", required_argument, NULL, 's' },
		{ "peer-mac", required_argument, NULL, 'p' },
		{ "mtu", required_argument, NULL, 'm' },
		{ "mode", required_argument, NULL, 'M' },
		{ "vlan", required_argument, NULL, 'v' },
		{ "no-mss-clamp", no_argument, NULL, 'n' },
		{ "vlan-pcp", required_argument, NULL, 'P' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "mtu-on-usr1", required_argument, NULL, 'u' },
		{ "rx", required_argument, NULL, 'R' },
		{ "tx", required_argument, NULL, 'T' },
		{ "tc-clsact", no_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct options){ .ifname = "pxp0", .mode = "auto", .mtu = 1492, .mss_clamp = 1 };
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			o->wan = optarg;
			break;
		case 'i':
			o->ifname = optarg;
			break;
		case 's':
			o->sid = strtol(optarg, NULL, 0);
			break;
		case 'p':
			o->have_mac =
				sscanf(optarg, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &o->peer_mac[0],
				       &o->peer_mac[1], &o->peer_mac[2], &o->peer_mac[3],
				       &o->peer_mac[4], &o->peer_mac[5]) == 6;
			break;
		case 'm':
			o->mtu = strtol(optarg, NULL, 0);
			break;
		case 'M':
			o->mode = optarg;
			break;
		case 'v':
			o->vlan = strtol(optarg, NULL, 0);
			break;
		case 'n':
			o->mss_clamp = 0;
			break;
		case 'P':
			o->vlan_pcp = strtol(optarg, NULL, 0);
			break;
		case 'c':
			o->cpus = strtol(optarg, NULL, 0);
			break;
		case 'u':
			o->mtu_after = strtol(optarg, NULL, 0);
			break;
		case 'R':
			o->rx = optarg;
			break;
		case 'T':
			o->tx = optarg;
			break;
		case 'C':
			o->tc_clsact = 1;
			break;
		default:
			return -EINVAL;
		}
	}
	if (!o->wan) {
		fprintf(stderr, "--wan is required\n");
		return -EINVAL;
	}
	return 0;
}

static int cmd_up(const struct options *o)
{
	struct pxp_dp_session s = { .mss_clamp = o->mss_clamp };
	enum pxp_dp_half rx = PXP_DP_HALF_DEFAULT, tx = PXP_DP_HALF_DEFAULT;
	enum pxp_dp_mode mode;
	char halves[64];
	struct pxp_dp *dp;
	int err, ifindex;

	if (!o->have_mac || o->sid <= 0 || o->sid > 0xfffe || o->mtu <= 0 || o->mtu > 0xffff ||
	    o->vlan < 0 || o->vlan > 4094 || o->vlan_pcp < 0 || o->vlan_pcp > 7 || o->cpus < 0 ||
	    o->cpus > 64 || o->mtu_after < 0 || o->mtu_after > 0xffff) {
		fprintf(stderr, "up needs --sid 1..65534, --peer-mac and a sane --mtu/--vlan\n");
		return -EINVAL;
	}
	if (pxp_dp_mode_parse(o->mode, &mode)) {
		fprintf(stderr, "unknown mode %s\n", o->mode);
		return -EINVAL;
	}
	if ((o->rx && pxp_dp_half_parse(o->rx, &rx)) || (o->tx && pxp_dp_half_parse(o->tx, &tx))) {
		fprintf(stderr, "--rx/--tx: xdp or tc\n");
		return -EINVAL;
	}
	snprintf(s.ifname, sizeof(s.ifname), "%s", o->ifname);
	s.session_id = (uint16_t)o->sid;
	s.mtu = (uint16_t)o->mtu;
	memcpy(s.peer_mac, o->peer_mac, 6);

	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGUSR1, on_signal);
	pxp_tc_force_clsact(o->tc_clsact);
	/* veth: this tool never calls pxp_dp_set_netdev() */
	err = pxp_dp_attach_halves(&dp, o->wan, mode, rx, tx, PXP_DP_NETDEV_VETH,
				   (uint16_t)o->vlan);
	if (err)
		return err;
	if (o->vlan_pcp)
		err = pxp_dp_set_vlan_pcp(dp, (uint8_t)o->vlan_pcp);
	if (o->cpus && !err)
		err = pxp_dp_set_cpu_spread(dp, (unsigned int)o->cpus);
	err = err ?: pxp_dp_session_add(dp, &s, &ifindex);
	if (err) {
		pxp_dp_detach(dp);
		return err;
	}
	pxp_dp_halves_text(dp, halves, sizeof(halves));
	printf("ready %d %s %s\n", ifindex, pxp_dp_mode_name(pxp_dp_mode(dp)), halves);
	fflush(stdout);
	while (!stop) {
		pause();
		if (change_mtu && o->mtu_after) {
			change_mtu = 0;
			err = pxp_dp_session_set_mtu(dp, s.session_id, (uint16_t)o->mtu_after);
			printf("mtu %ld: %s\n", o->mtu_after, err ? strerror(-err) : "ok");
			fflush(stdout);
		}
	}
	pxp_dp_detach(dp);
	return 0;
}

static int cmd_stats(const struct options *o)
{
	struct pxp_counters total = { 0 }, q;
	int ifindex = (int)if_nametoindex(o->wan), fd, err = 0;

	if (!ifindex)
		return -ENODEV;
	fd = pxp_dp_counters_fd_of_wan(ifindex);
	if (fd < 0)
		return fd;
	for (unsigned int i = 0; i < PXP_MAX_RX_QUEUES && !err; i++) {
		err = pxp_dp_read_counters(fd, i, &q);
		for (int c = 0; c < PXP_CNT__MAX && !err; c++)
			total.c[c] += q.c[c];
	}
	close(fd);
	if (err)
		return err;
	for (int c = 0; c < PXP_CNT__MAX; c++)
		printf("%s %llu\n", pxp_counter_name((unsigned int)c),
		       (unsigned long long)total.c[c]);
	return 0;
}

int main(int argc, char **argv)
{
	struct options o;
	int err;

	if (argc < 2) {
		fprintf(stderr, "usage: %s up|stats|cleanup --wan IF [options]\n", argv[0]);
		return 2;
	}
	optind = 2;
	if (parse(argc, argv, &o))
		return 2;
	if (!strcmp(argv[1], "up"))
		err = cmd_up(&o);
	else if (!strcmp(argv[1], "stats"))
		err = cmd_stats(&o);
	else if (!strcmp(argv[1], "cleanup"))
		err = pxp_dp_cleanup_stale(o.wan, o.ifname);
	else
		err = -EINVAL;
	if (err)
		fprintf(stderr, "%s %s: %s\n", argv[0], argv[1], strerror(-err));
	return err ? 1 : 0;
}
