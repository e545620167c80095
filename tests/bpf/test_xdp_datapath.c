// SPDX-License-Identifier: GPL-2.0
/*
 * Table-driven BPF_PROG_TEST_RUN cases for the programs of the express data path: the XDP
 * pair (bpf/xdp_wan.bpf.c, bpf/xdp_session.bpf.c) and the same table again through their tc
 * counterparts of mode tc (bpf/tc_wan.bpf.c, bpf/tc_session.bpf.c, as "bpf/tc/<case>"): each
 * case (xdp_cases.h) gives an input frame, the expected verdict, the expected output frame
 * (bytes), the redirect target where it applies and the counter that must move.
 *
 *   test_xdp_datapath           run the table: one PASS/FAIL line per case
 *   test_xdp_datapath --bench   also print ns/packet of each program path (to stderr)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <unistd.h>

#include "dp_load.h"
#include "pppoe_wire.h"
#include "pxp_maps.h"
#include "tc_session.skel.h"
#include "tc_wan.skel.h"
#include "xdp_session.skel.h"
#include "xdp_wan.skel.h"

#include "xdp_cases.h"

/* ---- running ------------------------------------------------------------------------- */

static struct pxp_dp_progs progs;
/* "" for the load of mode afxdp (with the XSKMAP), "noxsk/" for every other mode's. */
static const char *load_name = "";

static int set_state(const struct xdp_case *c)
{
	struct pxp_config cfg = {
		.vlan_tci = c->vlan_tci,
		.wan_xsk_base = WAN_XSK_BASE,
		.peer_xsk_base = PEER_XSK_BASE,
		.flags = (c->afxdp ? PXP_CFG_F_AFXDP : 0) |
			 (c->nr_cpus ? PXP_CFG_F_CPU_SPREAD : 0) |
			 (c->xdp_pass ? PXP_CFG_F_XDP_PASS : 0),
		.nr_cpus = c->nr_cpus,
	};
	struct bpf_cpumap_val cpu_val = { .qsize = 64, .bpf_prog.fd = pxp_dp_fd_prog_cpu(&progs) };
	struct pxp_session s = case_session(c);
	struct pxp_session_key key = { .session_id = htons(TEST_SID) };
	uint32_t zero = 0, ifindex = EGRESS_TEST_IFINDEX;

	memcpy(key.peer_mac, PEER_MAC, 6);
	if (c->no_cpu_entry)
		bpf_map_delete_elem(pxp_dp_fd_cpus(&progs), &zero);
	else if (bpf_map_update_elem(pxp_dp_fd_cpus(&progs), &zero, &cpu_val, BPF_ANY))
		return -errno;
	if (bpf_map_update_elem(pxp_dp_fd_config(&progs), &zero, &cfg, BPF_ANY) ||
	    bpf_map_update_elem(pxp_dp_fd_sessions(&progs), &key, &s, BPF_ANY))
		return -errno;
	if (c->no_egress_record) {
		bpf_map_delete_elem(pxp_dp_fd_egress(&progs), &ifindex);
		return 0;
	}
	return bpf_map_update_elem(pxp_dp_fd_egress(&progs), &ifindex, &s, BPF_ANY) ? -errno : 0;
}

static int counter_sum(enum pxp_counter which, uint64_t *out)
{
	int ncpu = libbpf_num_possible_cpus();
	struct pxp_counters *per_cpu;
	uint32_t q = 0;

	if (ncpu <= 0)
		return -EINVAL;
	per_cpu = calloc((size_t)ncpu, sizeof(*per_cpu));
	if (!per_cpu)
		return -ENOMEM;
	if (bpf_map_lookup_elem(pxp_dp_fd_counters(&progs), &q, per_cpu)) {
		free(per_cpu);
		return -errno;
	}
	*out = 0;
	for (int i = 0; i < ncpu; i++)
		*out += per_cpu[i].c[which];
	free(per_cpu);
	return 0;
}

/* Which program family runs the table: the XDP programs or their tc (skb) counterparts. */
enum family { FAM_XDP, FAM_TC };

static int prog_fd(enum family fam, enum prog prog)
{
	if (fam == FAM_TC)
		return prog == PROG_WAN ? pxp_dp_fd_prog_tc_wan(&progs)
					: pxp_dp_fd_prog_tc_session(&progs);
	return prog == PROG_WAN ? pxp_dp_fd_prog_wan(&progs) : pxp_dp_fd_prog_session(&progs);
}

/* A case's XDP verdict as the tc programs return it. */
static int tc_verdict(int xdp_verdict)
{
	switch (xdp_verdict) {
	case XDP_PASS:
		return TC_ACT_OK;
	case XDP_REDIRECT:
		return TC_ACT_REDIRECT;
	default:
		return TC_ACT_SHOT;
	}
}

static int run_prog(enum family fam, const struct xdp_case *c, const struct frame *in,
		    struct frame *out, uint32_t *retval, uint32_t repeat, uint32_t *duration)
{
	struct xdp_md ctx = { .ingress_ifindex = EGRESS_TEST_IFINDEX };
	/* skb programs run on loopback (EGRESS_TEST_IFINDEX) unless told otherwise. */
	struct __sk_buff skb_ctx = { .gso_size = c->gso_size, .gso_segs = c->gso_size ? 2 : 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = in->b, .data_size_in = (uint32_t)in->len,
		    .data_out = out->b, .data_size_out = sizeof(out->b), .repeat = repeat);
	int fd = prog_fd(fam, c->prog);

	if (fam == FAM_TC) {
		opts.ctx_in = &skb_ctx;
		opts.ctx_size_in = sizeof(skb_ctx);
	} else if (c->prog == PROG_SESSION) {
		ctx.data_end = (uint32_t)in->len;
		opts.ctx_in = &ctx;
		opts.ctx_size_in = sizeof(ctx);
	}
	if (bpf_prog_test_run_opts(fd, &opts))
		return -errno;
	out->len = opts.data_size_out;
	*retval = opts.retval;
	if (duration)
		*duration = opts.duration;
	return 0;
}

static uint32_t *last_redirect(enum family fam, enum prog prog)
{
	if (fam == FAM_TC)
		return prog == PROG_SESSION ? &progs.tc_session->bss->pxp_last_redirect
					    : &progs.tc_wan->bss->pxp_last_redirect;
	return prog == PROG_SESSION ? &progs.session->bss->pxp_last_redirect
				    : &progs.wan->bss->pxp_last_redirect;
}

static const char *verdict_name(enum family fam, uint32_t v)
{
	static const char *const xdp[] = { "ABORTED", "DROP", "PASS", "TX", "REDIRECT" };
	static const char *const tc[] = { "OK",	    "RECLASSIFY", "SHOT",   "PIPE",
					  "STOLEN", "QUEUED",	  "REPEAT", "REDIRECT" };

	if (fam == FAM_TC)
		return v < 8 ? tc[v] : "?";
	return v < 5 ? xdp[v] : "?";
}

static void hexdiff(char *buf, size_t n, const struct frame *got, const struct frame *want)
{
	size_t i;

	for (i = 0; i < got->len && i < want->len && got->b[i] == want->b[i]; i++)
		;
	snprintf(buf, n, "output differs at byte %zu (len %zu, want %zu): got %02x want %02x", i,
		 got->len, want->len, i < got->len ? got->b[i] : 0, i < want->len ? want->b[i] : 0);
}

static bool run_case(enum family fam, const struct xdp_case *c)
{
	int verdict = fam == FAM_TC ? tc_verdict(c->verdict) : c->verdict;
	uint32_t redirect = c->redirect;
	char prefix[16];
	struct frame out = { 0 };
	uint64_t before, after;
	uint32_t retval = 0;
	char why[160];
	int err;

	if ((fam == FAM_TC && c->xdp_not_tc) || (fam == FAM_XDP && c->tc_only))
		return true; /* listed by list_one_family() */
	if (c->afxdp && !progs.xsks)
		return true; /* steering to a socket: checked by afxdp_flag_ignored_without_xsks */
	snprintf(prefix, sizeof(prefix), "%s%s", load_name, fam == FAM_TC ? "tc/" : "");
	if ((c->xdp_pass || c->nr_cpus) && !progs.xdp_meta) {
		/* The data path refuses both then (user/datapath/datapath.c). */
		printf("SKIP bpf/%s%s: this kernel refuses bpf_xdp_adjust_meta to XDP programs\n",
		       prefix, c->name);
		return true;
	}
	err = set_state(c);
	err = err ?: counter_sum(c->counter, &before);
	*last_redirect(fam, c->prog) = 0;
	err = err ?: run_prog(fam, c, &c->in, &out, &retval, 1, NULL);
	err = err ?: counter_sum(c->counter, &after);
	if (err) {
		printf("FAIL bpf/%s%s: setup or test run: %s\n", prefix, c->name, strerror(-err));
		return false;
	}
	if ((int)retval != verdict) {
		printf("FAIL bpf/%s%s: verdict %s, want %s\n", prefix, c->name,
		       verdict_name(fam, retval), verdict_name(fam, (uint32_t)verdict));
		return false;
	}
	if (redirect && *last_redirect(fam, c->prog) != redirect) {
		printf("FAIL bpf/%s%s: redirected to %#x, want %#x\n", prefix, c->name,
		       *last_redirect(fam, c->prog), redirect);
		return false;
	}
	if (c->verdict != XDP_DROP) {
		const struct frame *want = c->out.len ? &c->out : &c->in;

		if (out.len != want->len || memcmp(out.b, want->b, out.len)) {
			hexdiff(why, sizeof(why), &out, want);
			printf("FAIL bpf/%s%s: %s\n", prefix, c->name, why);
			return false;
		}
	}
	if (after != before + 1) {
		printf("FAIL bpf/%s%s: counter %d moved by %llu, want 1\n", prefix, c->name,
		       c->counter, (unsigned long long)(after - before));
		return false;
	}
	printf("PASS bpf/%s%s\n", prefix, c->name);
	return true;
}

/*
 * ns/packet of each program's main paths, to stderr (informational, not a test case).
 * BPF_PROG_TEST_RUN's repeat re-runs the program on its own output (the frame is changed in
 * place, even in live-frames mode), so each frame gets its own call, and the time is the
 * kernel's own per-program accounting (BPF_ENABLE_STATS: run_time_ns / run_cnt), which
 * covers the program alone, not the syscall.
 */
#define BENCH_CALLS 100000

static int prog_stats(int fd, uint64_t *ns, uint64_t *cnt)
{
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	*ns = info.run_time_ns;
	*cnt = info.run_cnt;
	return 0;
}

static int time_case(enum family fam, const struct xdp_case *c, double *ns_per_packet)
{
	int verdict = fam == FAM_TC ? tc_verdict(c->verdict) : c->verdict;
	int fd = prog_fd(fam, c->prog);
	uint64_t ns0 = 0, cnt0 = 0, ns1 = 0, cnt1 = 0;
	struct frame out;
	uint32_t retval;
	int err;

	err = set_state(c);
	err = err ?: prog_stats(fd, &ns0, &cnt0);
	for (uint32_t i = 0; i < BENCH_CALLS && !err; i++) {
		err = run_prog(fam, c, &c->in, &out, &retval, 1, NULL);
		if (!err && (int)retval != verdict)
			err = -EPROTO; /* not the path we mean to time */
	}
	err = err ?: prog_stats(fd, &ns1, &cnt1);
	if (!err && cnt1 == cnt0)
		err = -ENODATA;
	if (!err)
		*ns_per_packet = (double)(ns1 - ns0) / (double)(cnt1 - cnt0);
	return err;
}

static void bench(void)
{
	static const char *const names[] = {
		"wan_ipv4_decap",	    "wan_ipv6_decap",
		"wan_mss_clamp_v4_syn",	    "wan_ethernet_padding_trimmed",
		"wan_vlan_decap",	    "wan_wrong_session_passed",
		"wan_discovery_passed",	    "wan_truncated_pppoe_dropped",
		"session_ipv4_encap",	    "session_ipv6_encap",
		"session_mss_clamp_v4_syn", "session_vlan_encap_with_pcp",
		"session_not_ip_dropped"
	};
	int stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	double ns;

	if (stats_fd < 0) {
		fprintf(stderr, "bench: BPF_ENABLE_STATS: %s\n", strerror(errno));
		return;
	}
	static const char *const prog_names[2][2] = {
		[FAM_XDP] = { [PROG_WAN] = "pxp_xdp_wan", [PROG_SESSION] = "pxp_xdp_session" },
		[FAM_TC] = { [PROG_WAN] = "pxp_tc_wan", [PROG_SESSION] = "pxp_tc_session" },
	};

	for (int fam = FAM_XDP; fam <= FAM_TC; fam++) {
		for (size_t n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
			for (size_t i = 0; i < nr_cases; i++) {
				const struct xdp_case *c = &cases[i];
				int err;

				if (strcmp(c->name, names[n]))
					continue;
				err = time_case((enum family)fam, c, &ns);
				if (err)
					fprintf(stderr, "bench %s: %s\n", c->name, strerror(-err));
				else
					fprintf(stderr, "bench %-16s %-30s %5.1f ns/packet\n",
						prog_names[fam][c->prog], c->name, ns);
			}
		}
	}
	close(stats_fd);
}

/* The cases of one family only: one "# " line each, since they are no test of the other. */
static void list_one_family(void)
{
	printf("# bpf: cases for XDP only, not run on the tc programs:");
	for (size_t i = 0; i < nr_cases; i++)
		if (cases[i].xdp_not_tc)
			printf(" %s (%s)", cases[i].name, cases[i].xdp_not_tc);
	printf("\n# bpf: cases for tc only:");
	for (size_t i = 0; i < nr_cases; i++)
		if (cases[i].tc_only)
			printf(" %s (%s)", cases[i].name, cases[i].tc_only);
	printf("\n");
}

/* How many of the maps prog_fd uses are of this type: >= 0, or -errno. */
static int maps_of_type(int prog_fd, uint32_t type)
{
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info), ids[16];
	int n = 0;

	info.nr_map_ids = sizeof(ids) / sizeof(ids[0]);
	info.map_ids = (uint64_t)(unsigned long)ids;
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return -errno;
	for (uint32_t i = 0; i < info.nr_map_ids && i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct bpf_map_info minfo = { 0 };
		uint32_t mlen = sizeof(minfo);
		int fd = bpf_map_get_fd_by_id(ids[i]);

		if (fd < 0)
			return -errno;
		if (bpf_obj_get_info_by_fd(fd, &minfo, &mlen)) {
			close(fd);
			return -errno;
		}
		close(fd);
		n += minfo.type == type;
	}
	return n;
}

/*
 * The XSKMAP exactly where the load asked for it: the two XDP programs use it with
 * PXP_DP_LOAD_XSKS (mode afxdp), and no program has one without (a stock OpenWrt kernel has
 * none: the objects must load there, so neither the map nor a reference to it may exist).
 */
static bool check_xskmap_refs(void)
{
	static const struct {
		const char *name;
		int (*fd)(const struct pxp_dp_progs *);
		bool xdp; /* uses the XSKMAP in mode afxdp */
	} ps[] = {
		{ PXP_PROG_NAME_WAN, pxp_dp_fd_prog_wan, true },
		{ "pxp_xdp_cpu", pxp_dp_fd_prog_cpu, false },
		{ PXP_PROG_NAME_SESSION, pxp_dp_fd_prog_session, true },
		{ PXP_PROG_NAME_TC_WAN, pxp_dp_fd_prog_tc_wan, false },
		{ PXP_PROG_NAME_TC_PASS, pxp_dp_fd_prog_tc_wan_pass, false },
		{ PXP_PROG_NAME_TC_SESS, pxp_dp_fd_prog_tc_session, false },
	};
	const char *name = progs.xsks ? "bpf/xskmap_only_in_xdp_programs" : "bpf/noxsk/no_xskmap";

	if (!progs.xsks && pxp_dp_fd_xsks(&progs) != -ENOENT) {
		printf("FAIL %s: an XSKMAP fd (%d) without PXP_DP_LOAD_XSKS\n", name,
		       pxp_dp_fd_xsks(&progs));
		return false;
	}
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		int n = maps_of_type(ps[i].fd(&progs), BPF_MAP_TYPE_XSKMAP);
		int want = progs.xsks && ps[i].xdp;

		if (n != want) {
			printf("FAIL %s: %s uses %d XSKMAPs, want %d%s%s\n", name, ps[i].name, n,
			       want, n < 0 ? ": " : "", n < 0 ? strerror(-n) : "");
			return false;
		}
	}
	printf("PASS %s\n", name);
	return true;
}

/*
 * Without the XSKMAP a config asking for AF_XDP steering (as a stale config might) steers
 * nothing: the verifier removed that branch, and the frame takes mode xdp's way (the WAN
 * program decapsulates, the session program encapsulates).
 */
static bool afxdp_flag_ignored_without_xsks(void)
{
	const char *name = "bpf/noxsk/afxdp_flag_ignored";
	int checked = 0;

	for (size_t i = 0; i < nr_cases; i++) {
		const struct xdp_case *c = &cases[i];
		enum pxp_counter way = c->prog == PROG_WAN ? PXP_CNT_DECAP : PXP_CNT_ENCAP;
		uint64_t to_xsk0, to_xsk1, way0, way1;
		uint32_t retval = 0, *redirect = last_redirect(FAM_XDP, c->prog);
		struct frame out;
		int err;

		if (!c->afxdp)
			continue;
		err = set_state(c);
		err = err ?: counter_sum(PXP_CNT_TO_XSK, &to_xsk0);
		err = err ?: counter_sum(way, &way0);
		*redirect = 0;
		err = err ?: run_prog(FAM_XDP, c, &c->in, &out, &retval, 1, NULL);
		err = err ?: counter_sum(PXP_CNT_TO_XSK, &to_xsk1);
		err = err ?: counter_sum(way, &way1);
		if (err) {
			printf("FAIL %s: %s: setup or test run: %s\n", name, c->name,
			       strerror(-err));
			return false;
		}
		if (retval != XDP_REDIRECT || to_xsk1 != to_xsk0 || way1 != way0 + 1 ||
		    (*redirect & XSK_REDIRECT_FLAG)) {
			printf("FAIL %s: %s: verdict %s, to_xsk +%llu, %s +%llu, redirect %#x\n",
			       name, c->name, verdict_name(FAM_XDP, retval),
			       (unsigned long long)(to_xsk1 - to_xsk0), pxp_counter_name(way),
			       (unsigned long long)(way1 - way0), *redirect);
			return false;
		}
		checked++;
	}
	if (checked < 2) {
		printf("FAIL %s: %d afxdp cases in the table, want one per program\n", name,
		       checked);
		return false;
	}
	printf("PASS %s\n", name);
	return true;
}

/* The whole table on one load of the programs (flags: PXP_DP_LOAD_*); failures counted. */
static int run_table(unsigned int flags)
{
	int failed = 0, err;

	load_name = flags & PXP_DP_LOAD_XSKS ? "" : "noxsk/";
	err = pxp_dp_progs_load(&progs, PXP_DP_LOAD_RECORD_REDIRECTS | flags);
	if (err) {
		printf("FAIL bpf/%sxdp_programs_load: %s\n", load_name, strerror(-err));
		return 1;
	}
	printf("PASS bpf/%sxdp_programs_load\n", load_name);
	failed += !check_xskmap_refs();
	if (!progs.xsks) {
		failed += !afxdp_flag_ignored_without_xsks();
		printf("# bpf: noxsk/ (every mode's load but afxdp's) leaves out the cases that "
		       "steer to a socket:");
		for (size_t i = 0; i < nr_cases; i++)
			if (cases[i].afxdp)
				printf(" %s", cases[i].name);
		printf("\n");
	}
	for (int fam = FAM_XDP; fam <= FAM_TC; fam++)
		for (size_t i = 0; i < nr_cases; i++)
			failed += !run_case((enum family)fam, &cases[i]);
	return failed;
}

int main(int argc, char **argv)
{
	bool do_bench = argc > 1 && !strcmp(argv[1], "--bench");
	int failed = 0;

	build_table();
	list_one_family();
	/* Every mode but afxdp loads without the XSKMAP: the table runs on both loads. */
	failed += run_table(0);
	pxp_dp_progs_destroy(&progs);
	failed += run_table(PXP_DP_LOAD_XSKS);
	if (do_bench)
		bench();
	pxp_dp_progs_destroy(&progs);
	return failed ? 1 : 0;
}
