// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_ns: the per-packet cost of every XDP and tc program in the given BPF objects, measured with
 * BPF_PROG_TEST_RUN (the median of many single runs, minus the same median for an empty
 * program: the in-kernel timer's own cost), on a fixed set of frames (session data in both
 * directions, small and MTU-sized, a TCP SYN whose MSS is clamped, an LCP frame that is
 * passed). The session maps are filled with one session so that the data frames take the
 * full decap/encap path instead of the cheap "unknown session" exit.
 *
 * Prints one JSON object per (object, program, frame) to stdout; bench/run turns them into
 * rows of results.jsonl.
 *
 * usage: bpf_ns [-n SAMPLES] OBJECT.bpf.o...
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "pppoe_wire.h"
#include "pxp_maps.h"

/* The session every data frame belongs to. Ifindex 1 (lo) exists in every namespace, and
 * BPF_PROG_TEST_RUN accepts it as the ingress device of the test frame. */
#define BENCH_IFINDEX	 1
#define BENCH_SESSION_ID 0x1234
#define BENCH_MTU	 1492
static const __u8 peer_mac[6] = { 0x02, 0x00, 0x5e, 0x00, 0x00, 0x02 };
static const __u8 wan_mac[6] = { 0x02, 0x00, 0x5e, 0x00, 0x00, 0x01 };
static const __u8 netdev_mac[6] = { 0x02, 0x00, 0x5e, 0x00, 0x00, 0x03 };
static const __u8 netdev_peer_mac[6] = { 0x02, 0x00, 0x5e, 0x00, 0x00, 0x04 };

#define FRAME_MAX 1600

struct frame {
	const char *name;
	__u8 data[FRAME_MAX];
	unsigned int len;
};

static void put16(__u8 *p, unsigned int v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static unsigned int ip_checksum(const __u8 *p, unsigned int len)
{
	unsigned long sum = 0;

	for (unsigned int i = 0; i + 1 < len; i += 2)
		sum += (p[i] << 8) | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

/*
 * Writes an IPv4 packet of ip_len bytes at p: UDP, or TCP (a SYN with an MSS option of
 * 1460 when syn is set, else an ACK). Transport checksums are left zero: no program on
 * the measured paths verifies them, and the MSS clamp updates them incrementally.
 */
static void write_ipv4(__u8 *p, unsigned int ip_len, int proto, int syn)
{
	memset(p, 0, ip_len);
	p[0] = 0x45;
	put16(p + 2, ip_len);
	p[8] = 64;
	p[9] = proto;
	memcpy(p + 12, (__u8[]){ 192, 168, 100, 2 }, 4);
	memcpy(p + 16, (__u8[]){ 198, 51, 100, 2 }, 4);
	put16(p + 10, ip_checksum(p, 20));
	put16(p + 20, 40000);
	put16(p + 22, 5201);
	if (proto == IPPROTO_UDP) {
		put16(p + 24, ip_len - 20);
		return;
	}
	if (syn) {
		p[32] = 6 << 4; /* 24-byte header: one MSS option */
		p[33] = 0x02;	/* SYN */
		p[40] = 2;
		p[41] = 4;
		put16(p + 42, 1460);
	} else {
		p[32] = 5 << 4;
		p[33] = 0x10; /* ACK */
	}
	put16(p + 34, 65535);
}

/* A session frame from the peer towards our WAN port, carrying PPP protocol proto. */
static unsigned int write_pppoe(__u8 *f, unsigned int ppp_payload_len, unsigned int proto)
{
	memcpy(f, wan_mac, 6);
	memcpy(f + 6, peer_mac, 6);
	put16(f + 12, PXP_ETH_P_PPP_SES);
	f[14] = PPPOE_VER_TYPE;
	f[15] = PPPOE_CODE_SESSION;
	put16(f + 16, BENCH_SESSION_ID);
	put16(f + 18, ppp_payload_len + 2);
	put16(f + 20, proto);
	return PXP_ETH_HLEN + PPPOE_SESSION_OVERHEAD + ppp_payload_len;
}

/* What the stack sends out of the session netdev: plain Ethernet towards the hidden peer. */
static unsigned int write_plain(__u8 *f, unsigned int ip_len)
{
	memcpy(f, netdev_peer_mac, 6);
	memcpy(f + 6, netdev_mac, 6);
	put16(f + 12, PXP_ETH_P_IP);
	return PXP_ETH_HLEN + ip_len;
}

static unsigned int build_frames(struct frame *fr)
{
	unsigned int n = 0;
	const unsigned int off = PXP_ETH_HLEN + PPPOE_SESSION_OVERHEAD;

	fr[n].name = "pppoe-ipv4-udp-64";
	write_ipv4(fr[n].data + off, 64, IPPROTO_UDP, 0);
	fr[n].len = write_pppoe(fr[n].data, 64, PPP_PROTO_IPV4);
	n++;
	fr[n].name = "pppoe-ipv4-tcp-1492";
	write_ipv4(fr[n].data + off, BENCH_MTU, IPPROTO_TCP, 0);
	fr[n].len = write_pppoe(fr[n].data, BENCH_MTU, PPP_PROTO_IPV4);
	n++;
	fr[n].name = "pppoe-lcp-echo";
	fr[n].len = write_pppoe(fr[n].data, 8, PPP_PROTO_LCP);
	fr[n].data[off] = 9; /* Echo-Request, id 1, length 8, magic 0 */
	fr[n].data[off + 1] = 1;
	put16(fr[n].data + off + 2, 8);
	n++;
	fr[n].name = "ipv4-udp-64";
	write_ipv4(fr[n].data + PXP_ETH_HLEN, 64, IPPROTO_UDP, 0);
	fr[n].len = write_plain(fr[n].data, 64);
	n++;
	fr[n].name = "ipv4-tcp-1492";
	write_ipv4(fr[n].data + PXP_ETH_HLEN, BENCH_MTU, IPPROTO_TCP, 0);
	fr[n].len = write_plain(fr[n].data, BENCH_MTU);
	n++;
	fr[n].name = "ipv4-tcp-syn-mss";
	write_ipv4(fr[n].data + PXP_ETH_HLEN, 44, IPPROTO_TCP, 1);
	fr[n].len = write_plain(fr[n].data, 44);
	n++;
	return n;
}

static void json_status(const char *object, const char *program, const char *status,
			const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	printf("{\"object\":\"%s\",\"program\":\"%s\",\"status\":\"%s\",\"reason\":\"%s\"}\n",
	       object, program ? program : "", status, why);
}

/* Fills the maps the pxp programs look sessions up in, where the object has them. */
static int fill_maps(struct bpf_object *obj)
{
	struct pxp_session s = {
		.session_id = htons(BENCH_SESSION_ID),
		.mtu = BENCH_MTU,
		.wan_ifindex = BENCH_IFINDEX,
		.peer_ifindex = BENCH_IFINDEX,
		.flags = PXP_SESSION_F_MSS_CLAMP,
	};
	struct pxp_session_key key = { .session_id = htons(BENCH_SESSION_ID) };
	struct pxp_config cfg = { 0 };
	__u32 zero = 0, ifindex = BENCH_IFINDEX;
	struct bpf_map *m;

	memcpy(s.peer_mac, peer_mac, 6);
	memcpy(s.wan_mac, wan_mac, 6);
	memcpy(s.netdev_mac, netdev_mac, 6);
	memcpy(s.peer_netdev_mac, netdev_peer_mac, 6);
	memcpy(key.peer_mac, peer_mac, 6);

	m = bpf_object__find_map_by_name(obj, "pxp_sessions");
	if (m && bpf_map__update_elem(m, &key, sizeof(key), &s, sizeof(s), BPF_ANY))
		return -errno;
	m = bpf_object__find_map_by_name(obj, "pxp_egress");
	if (m && bpf_map__update_elem(m, &ifindex, sizeof(ifindex), &s, sizeof(s), BPF_ANY))
		return -errno;
	m = bpf_object__find_map_by_name(obj, "pxp_config");
	if (m && bpf_map__update_elem(m, &zero, sizeof(zero), &cfg, sizeof(cfg), BPF_ANY))
		return -errno;
	return 0;
}

/* The program types measured, and the verdicts of each in the same words. */
static bool is_tc(enum bpf_prog_type type)
{
	return type == BPF_PROG_TYPE_SCHED_CLS;
}

static const char *verdict_name(enum bpf_prog_type type, __u32 v)
{
	static const char *const xdp[] = { "aborted", "drop", "pass", "tx", "redirect" };
	static const char *const tc[] = { [0] = "pass", [2] = "drop", [7] = "redirect" };

	if (is_tc(type))
		return v < sizeof(tc) / sizeof(tc[0]) && tc[v] ? tc[v] : "unknown";
	return v < sizeof(xdp) / sizeof(xdp[0]) ? xdp[v] : "unknown";
}

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return (x > y) - (x < y);
}

/* tc programs run on loopback (BENCH_IFINDEX), BPF_PROG_TEST_RUN's default device. */
static int run_once(int prog_fd, bool tc, const struct frame *fr, __u32 *ns, __u32 *verdict,
		    __u32 *out_len)
{
	__u8 out[FRAME_MAX + 256];
	struct xdp_md ctx = {
		.data_end = fr->len,
		.ingress_ifindex = BENCH_IFINDEX,
	};
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = fr->data, .data_size_in = fr->len,
		    .data_out = out, .data_size_out = sizeof(out), .ctx_in = tc ? NULL : &ctx,
		    .ctx_size_in = tc ? 0 : sizeof(ctx), .repeat = 1);

	if (bpf_prog_test_run_opts(prog_fd, &opts))
		return -errno;
	*ns = opts.duration;
	*verdict = opts.retval;
	*out_len = opts.data_size_out;
	return 0;
}

/*
 * The median in-kernel time of one run of prog over frame, and of the empty program run
 * alternately with it (so that both see the same machine). Every run starts from the
 * original frame: with a repeat count the kernel runs the program again over the frame the
 * previous run rewrote, which for decap/encap measures a different (shorter) path.
 */
static int median_ns(int prog_fd, int empty_fd, bool tc, const struct frame *fr,
		     unsigned int samples, __u32 *ns, __u32 *empty_ns, __u32 *verdict,
		     __u32 *out_len)
{
	__u32 *t = calloc(2 * (size_t)samples, sizeof(*t)), *e = t + samples, v, len;
	int err = 0;

	if (!t)
		return -ENOMEM;
	for (unsigned int i = 0; i < samples && !err; i++) {
		err = run_once(empty_fd, tc, fr, &e[i], &v, &len);
		if (!err)
			err = run_once(prog_fd, tc, fr, &t[i], verdict, out_len);
	}
	if (!err) {
		qsort(t, samples, sizeof(*t), cmp_u32);
		qsort(e, samples, sizeof(*e), cmp_u32);
		*ns = t[samples / 2];
		*empty_ns = e[samples / 2];
	}
	free(t);
	return err;
}

/*
 * A program of this type that only passes (XDP_PASS, TC_ACT_OK): its run time is the
 * timer's own overhead.
 */
static int load_empty_prog(enum bpf_prog_type type)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K,
		  .dst_reg = BPF_REG_0,
		  .imm = is_tc(type) ? 0 : XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_prog_load(type, "pxb_empty", "GPL", insns, 2, NULL);
}

/* The empty programs, one per measured type. */
struct empty_progs {
	int xdp_fd, tc_fd;
};

static void measure(const char *object, struct bpf_program *prog, const struct frame *fr,
		    unsigned int samples, const struct empty_progs *empty)
{
	const char *name = bpf_program__name(prog);
	enum bpf_prog_type type = bpf_program__type(prog);
	__u32 ns, empty_ns, verdict, out_len;
	int err;

	err = median_ns(bpf_program__fd(prog), is_tc(type) ? empty->tc_fd : empty->xdp_fd,
			is_tc(type), fr, samples, &ns, &empty_ns, &verdict, &out_len);
	if (err) {
		json_status(object, name, "failed", "BPF_PROG_TEST_RUN on frame %s: %s", fr->name,
			    strerror(-err));
		return;
	}
	printf("{\"object\":\"%s\",\"program\":\"%s\",\"frame\":\"%s\",\"frame_bytes\":%u,"
	       "\"verdict\":\"%s\",\"out_bytes\":%u,\"samples\":%u,\"median_ns\":%u,"
	       "\"empty_prog_ns\":%u,\"ns_per_packet\":%d}\n",
	       object, name, fr->name, fr->len, verdict_name(type, verdict), out_len, samples, ns,
	       empty_ns, (int)ns - (int)empty_ns);
}

static void measure_object(const char *path, const struct frame *frames, unsigned int nframes,
			   unsigned int samples, const struct empty_progs *empty)
{
	const char *object = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct bpf_program *prog;
	struct bpf_object *obj;
	int err;

	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		json_status(object, NULL, "failed", "open: %s", strerror(errno));
		return;
	}
	err = bpf_object__load(obj);
	if (err) {
		json_status(object, NULL, "failed", "load: %s", strerror(-err));
		goto close_obj;
	}
	err = fill_maps(obj);
	if (err) {
		json_status(object, NULL, "failed", "filling the session maps: %s", strerror(-err));
		goto close_obj;
	}
	bpf_object__for_each_program(prog, obj)
	{
		enum bpf_attach_type at = bpf_program__expected_attach_type(prog);

		if (bpf_program__type(prog) != BPF_PROG_TYPE_XDP &&
		    !is_tc(bpf_program__type(prog))) {
			json_status(object, bpf_program__name(prog), "unavailable",
				    "neither an XDP nor a tc program: not measured");
			continue;
		}
		/* The kernel refuses BPF_PROG_TEST_RUN for these (EINVAL). */
		if (at == BPF_XDP_CPUMAP || at == BPF_XDP_DEVMAP) {
			json_status(object, bpf_program__name(prog), "unavailable",
				    "a cpumap/devmap program: the kernel has no test run for it");
			continue;
		}
		for (unsigned int i = 0; i < nframes; i++)
			measure(object, prog, &frames[i], samples, empty);
	}
close_obj:
	bpf_object__close(obj);
}

/* libbpf explains load failures at warning level; the bench log keeps them on stderr. */
static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return level == LIBBPF_DEBUG ? 0 : vfprintf(stderr, fmt, ap);
}

int main(int argc, char **argv)
{
	static struct frame frames[8];
	unsigned int samples = 20000, nframes;
	struct empty_progs empty;
	int opt;

	while ((opt = getopt(argc, argv, "n:h")) != -1) {
		switch (opt) {
		case 'n':
			samples = strtoul(optarg, NULL, 10);
			if (samples == 0) {
				fprintf(stderr, "bpf_ns: samples '%s' is not a positive number\n",
					optarg);
				return 2;
			}
			break;
		default:
			fprintf(stderr, "usage: bpf_ns [-n SAMPLES] OBJECT.bpf.o...\n");
			return 2;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "usage: bpf_ns [-n SAMPLES] OBJECT.bpf.o...\n");
		return 2;
	}
	libbpf_set_print(print_libbpf);
	nframes = build_frames(frames);

	empty.xdp_fd = load_empty_prog(BPF_PROG_TYPE_XDP);
	empty.tc_fd = load_empty_prog(BPF_PROG_TYPE_SCHED_CLS);
	if (empty.xdp_fd < 0 || empty.tc_fd < 0) {
		fprintf(stderr, "bpf_ns: loading an empty program: %s\n", strerror(errno));
		return 1;
	}
	for (int i = optind; i < argc; i++)
		measure_object(argv[i], frames, nframes, samples, &empty);
	close(empty.xdp_fd);
	close(empty.tc_fd);
	return 0;
}
