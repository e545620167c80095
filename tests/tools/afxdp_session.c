// SPDX-License-Identifier: GPL-2.0
/*
 * Test tool: one end of a static PPPoE session through the express data path, without a
 * control plane. Loads the data path's XDP programs (user/datapath/dp_load.h), writes the session
 * record, attaches the programs to the WAN port and to the hidden peer of an existing veth
 * pair (the test creates pxp0 and its peer), and in mode afxdp runs the AF_XDP engine.
 * Runs until SIGTERM/SIGINT, then detaches everything and prints the counters:
 *   engine q<N> rx=.. tx=.. decap=.. encap=.. drop_malformed=.. ... (mode afxdp)
 *   bpf rx=.. tx=.. decap=.. encap=.. pass=.. to_xsk=.. ...          (summed over CPUs, queues)
 *
 * usage: afxdp_session --wan IF --netdev IF --peer IF --session-id N --peer-mac MAC
 *                      [--mtu N] [--mode afxdp|xdp] [--queues N] [--zerocopy] [--no-mss-clamp]
 *                      [--ready FILE] [--cpu N]   (--cpu: every worker on CPU N; -1 = unpinned)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <linux/if_link.h>
#include <net/if.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "datapath.h"
#include "dp_load.h"
#include "engine.h"
#include "log.h"
#include "pxp_maps.h"

struct opts {
	const char *wan, *netdev, *peer, *ready;
	uint16_t session_id, mtu;
	uint8_t peer_mac[6];
	bool have_sid, have_mac, afxdp, zerocopy, mss_clamp, have_cpu;
	unsigned int queues;
	int cpu;
};

static int parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++) {
		if (b[i] > 0xff)
			return -EINVAL;
		mac[i] = (uint8_t)b[i];
	}
	return 0;
}

static int if_mac(const char *ifname, uint8_t mac[6])
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
		err = -errno;
	else
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	close(fd);
	return err;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "wan", required_argument, NULL, 'w' },
		{ "netdev", required_argument, NULL, 'n' },
		{ "peer", required_argument, NULL, 'p' },
		{ "session-id", required_argument, NULL, 's' },
		{ "peer-mac", required_argument, NULL, 'm' },
		{ "mtu", required_argument, NULL, 'u' },
		{ "mode", required_argument, NULL, 'M' },
		{ "queues", required_argument, NULL, 'q' },
		{ "zerocopy", no_argument, NULL, 'z' },
		{ "no-mss-clamp", no_argument, NULL, 'c' },
		{ "ready", required_argument, NULL, 'r' },
		{ "cpu", required_argument, NULL, 'C' },
		{ 0 },
	};
	enum pxp_dp_mode mode;
	int c;

	*o = (struct opts){ .mtu = 1492, .afxdp = true, .mss_clamp = true, .queues = 1 };
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			o->wan = optarg;
			break;
		case 'n':
			o->netdev = optarg;
			break;
		case 'p':
			o->peer = optarg;
			break;
		case 's':
			o->session_id = (uint16_t)strtoul(optarg, NULL, 0);
			o->have_sid = true;
			break;
		case 'm':
			if (parse_mac(optarg, o->peer_mac)) {
				fprintf(stderr, "bad --peer-mac '%s'\n", optarg);
				return -EINVAL;
			}
			o->have_mac = true;
			break;
		case 'u':
			o->mtu = (uint16_t)strtoul(optarg, NULL, 0);
			break;
		case 'M':
			if (pxp_dp_mode_parse(optarg, &mode) ||
			    (mode != PXP_DP_AFXDP && mode != PXP_DP_XDP)) {
				fprintf(stderr, "bad --mode '%s' (afxdp or xdp)\n", optarg);
				return -EINVAL;
			}
			o->afxdp = mode == PXP_DP_AFXDP;
			break;
		case 'q':
			o->queues = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'z':
			o->zerocopy = true;
			break;
		case 'c':
			o->mss_clamp = false;
			break;
		case 'r':
			o->ready = optarg;
			break;
		case 'C':
			o->cpu = (int)strtol(optarg, NULL, 0);
			o->have_cpu = true;
			break;
		default:
			return -EINVAL;
		}
	}
	if (!o->wan || !o->netdev || !o->peer || !o->have_sid || !o->have_mac) {
		fprintf(stderr,
			"usage: afxdp_session --wan IF --netdev IF --peer IF --session-id N "
			"--peer-mac MAC [--mtu N] [--mode afxdp|xdp] [--queues N] "
			"[--zerocopy] [--no-mss-clamp] [--ready FILE] [--cpu N]\n");
		return -EINVAL;
	}
	return 0;
}

static int build_session(const struct opts *o, struct pxp_session *s)
{
	int err;

	memset(s, 0, sizeof(*s));
	memcpy(s->peer_mac, o->peer_mac, 6);
	err = if_mac(o->wan, s->wan_mac);
	err = err ?: if_mac(o->netdev, s->netdev_mac);
	err = err ?: if_mac(o->peer, s->peer_netdev_mac);
	if (err)
		return err;
	s->session_id = htons(o->session_id);
	s->mtu = o->mtu;
	s->wan_ifindex = if_nametoindex(o->wan);
	s->peer_ifindex = if_nametoindex(o->peer);
	s->flags = o->mss_clamp ? PXP_SESSION_F_MSS_CLAMP : 0;
	return s->wan_ifindex && s->peer_ifindex ? 0 : -ENODEV;
}

static int write_maps(const struct pxp_dp_progs *p, const struct pxp_session *s, bool afxdp)
{
	struct pxp_session_key key = { .session_id = s->session_id };
	struct pxp_config cfg = {
		.flags = afxdp ? PXP_CFG_F_AFXDP : 0,
		.wan_xsk_base = 0,
		.peer_xsk_base = PXP_MAX_RX_QUEUES,
	};
	uint32_t zero = 0, peer = s->peer_ifindex;

	memcpy(key.peer_mac, s->peer_mac, 6);
	if (bpf_map_update_elem(pxp_dp_fd_sessions(p), &key, s, BPF_ANY) ||
	    bpf_map_update_elem(pxp_dp_fd_egress(p), &peer, s, BPF_ANY) ||
	    bpf_map_update_elem(pxp_dp_fd_config(p), &zero, &cfg, BPF_ANY))
		return -errno;
	return 0;
}

static void print_bpf_counters(const struct pxp_dp_progs *p)
{
	struct pxp_counters total = { 0 }, q;
	int i;

	for (uint32_t queue = 0; queue < PXP_MAX_RX_QUEUES; queue++) {
		if (pxp_dp_read_counters(pxp_dp_fd_counters(p), queue, &q))
			return;
		for (i = 0; i < PXP_CNT__MAX; i++)
			total.c[i] += q.c[i];
	}
	printf("bpf");
	for (i = 0; i < PXP_CNT__MAX; i++)
		printf(" %s=%llu", pxp_counter_name((unsigned int)i),
		       (unsigned long long)total.c[i]);
	printf("\n");
}

static void print_engine_stats(const struct engine *e)
{
	static struct pxp_dp_stats st;
	unsigned int i;

	engine_get_stats(e, &st);
	for (i = 0; i < st.nr_queues; i++) {
		printf("engine q%u", i);
		for (unsigned int f = 0; f < PXP_DP_F__MAX; f++)
			printf(" %s=%llu", pxp_dp_field_name(f),
			       (unsigned long long)st.queue[i].field[f]);
		printf("\n");
	}
	printf("engine mode=%s umem_bytes=%llu\n", engine_bind_mode(e),
	       (unsigned long long)engine_umem_bytes(e));
}

static int wait_for_signal(const char *ready)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if (ready) {
		FILE *f = fopen(ready, "w");

		if (!f)
			return -errno;
		fclose(f);
	}
	return sigwait(&set, &sig) ? -EINTR : 0;
}

int main(int argc, char **argv)
{
	const __u32 xdp_flags = XDP_FLAGS_DRV_MODE;
	struct pxp_dp_progs progs;
	struct engine *engine = NULL;
	struct pxp_session s;
	struct opts o;
	sigset_t set;
	int err;

	if (parse_args(argc, argv, &o))
		return 2;
	/* Block the signals before any thread exists so that only sigwait() receives them. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	pxp_log_hook_libbpf();

	err = build_session(&o, &s);
	if (err) {
		fprintf(stderr, "afxdp_session: interfaces: %s\n", strerror(-err));
		return 1;
	}
	err = pxp_dp_progs_load(&progs, o.afxdp ? PXP_DP_LOAD_XSKS : 0);
	if (err) {
		fprintf(stderr, "afxdp_session: loading the XDP programs: %s\n", strerror(-err));
		return 1;
	}
	err = write_maps(&progs, &s, o.afxdp);
	if (err) {
		fprintf(stderr, "afxdp_session: writing the maps: %s\n", strerror(-err));
		goto out_progs;
	}
	if (o.afxdp) {
		int cpus[ENGINE_MAX_QUEUES];
		struct engine_config cfg = {
			.wan_ifindex = (int)s.wan_ifindex,
			.nr_queues = o.queues,
			.peer_ifindex = (int)s.peer_ifindex,
			.wan_xskmap_fd = pxp_dp_fd_xsks(&progs),
			.peer_xskmap_fd = pxp_dp_fd_xsks(&progs),
			.wan_key_base = 0,
			.peer_key_base = PXP_MAX_RX_QUEUES,
			.zerocopy = o.zerocopy,
			.session = s,
		};

		if (o.have_cpu) {
			for (unsigned int i = 0; i < ENGINE_MAX_QUEUES; i++)
				cpus[i] = o.cpu;
			cfg.cpus = cpus;
		}

		err = engine_start(&engine, &cfg);
		if (err) {
			fprintf(stderr, "afxdp_session: engine: %s\n", strerror(-err));
			goto out_progs;
		}
	}
	err = bpf_xdp_attach((int)s.wan_ifindex, pxp_dp_fd_prog_wan(&progs), xdp_flags, NULL);
	if (err) {
		fprintf(stderr, "afxdp_session: attach to %s: %s\n", o.wan, strerror(-err));
		goto out_engine;
	}
	err = bpf_xdp_attach((int)s.peer_ifindex, pxp_dp_fd_prog_session(&progs), xdp_flags, NULL);
	if (err) {
		fprintf(stderr, "afxdp_session: attach to %s: %s\n", o.peer, strerror(-err));
		goto out_detach_wan;
	}

	err = wait_for_signal(o.ready);

	bpf_xdp_detach((int)s.peer_ifindex, xdp_flags, NULL);
out_detach_wan:
	bpf_xdp_detach((int)s.wan_ifindex, xdp_flags, NULL);
out_engine:
	if (engine) {
		print_engine_stats(engine);
		engine_stop(engine);
	}
	print_bpf_counters(&progs);
out_progs:
	pxp_dp_progs_destroy(&progs);
	fflush(stdout);
	return err ? 1 : 0;
}
