// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE /* CPU_SETSIZE */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <linux/ipv6_route.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conffile.h"
#include "crypto_pool.h"
#include "hooks.h"
#include "mac.h"
#include "pxp_maps.h"
#include "pxp_mtu.h"
#include "ra.h"
#include "run_dir.h"
#include "secrets.h"

#define MAX_VLAN_ID 4094

int config_parse_uint(const char *s, unsigned int min, unsigned int max, unsigned int *out)
{
	unsigned long v;
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int config_parse_hex(const char *s, uint8_t *out, size_t cap, size_t *len)
{
	size_t n = strlen(s), i;

	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		n -= 2;
	}
	if (n == 0 || n % 2 || n / 2 > cap)
		return -EINVAL;
	for (i = 0; i < n / 2; i++) {
		int hi = hex_digit(s[2 * i]), lo = hex_digit(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	*len = n / 2;
	return 0;
}

int config_parse_cidr(const char *s, uint32_t *net_host_order, unsigned int *prefix)
{
	char addr[INET_ADDRSTRLEN];
	const char *slash = strchr(s, '/');
	struct in_addr in;

	if (!slash || (size_t)(slash - s) >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, s, (size_t)(slash - s));
	addr[slash - s] = '\0';
	if (inet_pton(AF_INET, addr, &in) != 1)
		return -EINVAL;
	if (config_parse_uint(slash + 1, 0, 32, prefix))
		return -EINVAL;
	*net_host_order = ntohl(in.s_addr);
	return 0;
}

int config_parse_cidr6(const char *s, unsigned int max_len, uint8_t prefix[16], unsigned int *len)
{
	char addr[INET6_ADDRSTRLEN];
	const char *slash = strchr(s, '/');
	unsigned int i;

	if (!slash || (size_t)(slash - s) >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, s, (size_t)(slash - s));
	addr[slash - s] = '\0';
	if (inet_pton(AF_INET6, addr, prefix) != 1 || config_parse_uint(slash + 1, 1, max_len, len))
		return -EINVAL;
	for (i = *len; i < 128; i++)
		if (prefix[i / 8] & (0x80 >> i % 8))
			return -EINVAL;
	return 0;
}

int config_parse_ifname(const char *s, char out[IF_NAMESIZE])
{
	size_t n = strlen(s), i;

	if (n == 0 || n >= IF_NAMESIZE)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (s[i] == '/' || isspace((unsigned char)s[i]) || !isprint((unsigned char)s[i]))
			return -EINVAL;
	memcpy(out, s, n + 1);
	return 0;
}

static int copy_name(const char *opt, const char *value, char *out, size_t cap)
{
	if (strlen(value) >= cap) {
		pxp_err("%s '%s': longer than %zu characters", opt, value, cap - 1);
		return -EINVAL;
	}
	strcpy(out, value);
	return 0;
}

static int bad(const char *opt, const char *value, const char *why)
{
	pxp_err("%s '%s': %s", opt, value, why);
	return -EINVAL;
}

/* The interface argument after the options; exactly one unless optional. */
static int take_iface(int argc, char **argv, char iface[IF_NAMESIZE], bool optional)
{
	if (optind >= argc) {
		if (optional) {
			iface[0] = '\0';
			return 0;
		}
		pxp_err("%s: missing the interface name (IFACE)", argv[0]);
		return -EINVAL;
	}
	if (optind + 1 < argc) {
		pxp_err("%s: unexpected argument '%s'", argv[0], argv[optind + 1]);
		return -EINVAL;
	}
	if (config_parse_ifname(argv[optind], iface))
		return bad("IFACE", argv[optind], "not a valid interface name");
	return 0;
}

/* One line, when a file holding a secret may be read by others than its owner. */
static void warn_if_readable(const char *path, mode_t mode)
{
	if (mode & (S_IRGRP | S_IROTH))
		pxp_warn("%s holds a password and is readable by group or others (mode %04o): "
			 "chmod 600 it",
			 path, (unsigned int)(mode & 07777));
}

/* Reads the first line of F; the file should be readable by root only. */
static int read_password_file(const char *path, struct client_settings *o)
{
	char line[PPP_SECRET_MAX + 2];
	struct stat st;
	size_t n;
	FILE *f;
	int err = 0;

	f = fopen(path, "re");
	if (!f) {
		pxp_err("--password-file '%s': %s", path, strerror(errno));
		return -EINVAL;
	}
	if (!fstat(fileno(f), &st))
		warn_if_readable(path, st.st_mode);
	if (!fgets(line, sizeof(line), f)) {
		err = bad("--password-file", path, "empty");
		goto out;
	}
	n = strcspn(line, "\r\n");
	if (n > PPP_SECRET_MAX) {
		err = bad("--password-file", path, "password longer than 255 bytes");
		goto out;
	}
	memcpy(o->password, line, n);
	o->password_len = n;
out:
	explicit_bzero(line, sizeof(line));
	fclose(f);
	return err;
}

/*
 * --keepalive "FAILURES INTERVAL", in OpenWrt's order (its keepalive option, "5 1" or
 * "5, 1"): the link is dead after FAILURES unanswered LCP Echo-Requests sent every INTERVAL
 * seconds. A lone number is FAILURES with OpenWrt's INTERVAL of 5; FAILURES 0 turns the
 * echoes off.
 */
static int parse_keepalive(const char *s, unsigned int *interval, unsigned int *failures)
{
	char words[64], failures_text[16], interval_text[16], tail, *c;
	int n;

	snprintf(words, sizeof(words), "%s", s);
	for (c = words; (c = strchr(c, ',')); c++)
		*c = ' ';
	n = sscanf(words, "%15s %15s %c", failures_text, interval_text, &tail);
	if (strlen(s) >= sizeof(words) || n < 1 || n > 2)
		return bad("--keepalive", s,
			   "expected \"FAILURES INTERVAL\" (or \"FAILURES,INTERVAL\") as "
			   "OpenWrt's keepalive, counts and seconds");
	if (config_parse_uint(failures_text, 0, 1000, failures))
		return bad("--keepalive", s, "failures must be 0..1000 (0 = no LCP echo)");
	if (n == 1)
		snprintf(interval_text, sizeof(interval_text), "%d",
			 PXP_KEEPALIVE_INTERVAL_ALONE_S);
	if (config_parse_uint(interval_text, 1, 3600, interval))
		return bad("--keepalive", s, "interval must be 1..3600 seconds");
	if (*failures == 0)
		*interval = 0;
	return 0;
}

/* What goes before item i of n in "a, b, c or d". */
static const char *list_separator(unsigned int i, unsigned int n)
{
	if (!i)
		return "";
	return i + 1 < n ? ", " : " or ";
}

static int parse_mode(const char *s, enum pxp_dp_mode *mode)
{
	char why[80] = "must be ";
	size_t len;

	if (!pxp_dp_mode_parse(s, mode))
		return 0;
	/* "must be auto, xdp, afxdp or generic", from the data path's own names */
	for (unsigned int i = 0; i < PXP_DP__MODES; i++) {
		len = strlen(why);
		snprintf(why + len, sizeof(why) - len, "%s%s", list_separator(i, PXP_DP__MODES),
			 pxp_dp_mode_name(i));
	}
	return bad("--mode", s, why);
}

static int parse_netdev(const char *s, enum pxp_dp_netdev *kind)
{
	char why[48] = "must be ";
	size_t len;

	if (!pxp_dp_netdev_parse(s, kind))
		return 0;
	for (unsigned int i = 0; i < PXP_DP__NETDEVS; i++) {
		len = strlen(why);
		snprintf(why + len, sizeof(why) - len, "%s%s", list_separator(i, PXP_DP__NETDEVS),
			 pxp_dp_netdev_name(i));
	}
	return bad("--netdev", s, why);
}

/* --rx takes every half but the default, --tx all but xdp-pass (a receive half). */
static int parse_half(const char *opt, bool rx, const char *s, enum pxp_dp_half *half)
{
	char why[64] = "must be ";
	size_t len;

	if (!pxp_dp_half_parse(s, half) && *half != PXP_DP_HALF_DEFAULT &&
	    (rx || *half != PXP_DP_HALF_XDP_PASS))
		return 0;
	for (unsigned int i = PXP_DP_HALF_XDP, n = rx ? PXP_DP__HALVES : PXP_DP_HALF_XDP_PASS;
	     i < n; i++) {
		len = strlen(why);
		snprintf(why + len, sizeof(why) - len, "%s%s",
			 list_separator(i - PXP_DP_HALF_XDP, n - PXP_DP_HALF_XDP),
			 pxp_dp_half_name(i));
	}
	return bad(opt, s, why);
}

static int parse_cpus(const char *s, unsigned int *nr_cpus)
{
	if (config_parse_uint(s, 1, PXP_MAX_CPUS, nr_cpus)) {
		pxp_err("--cpus '%s': must be a number of CPUs from 1 to %d", s, PXP_MAX_CPUS);
		return -EINVAL;
	}
	return 0;
}

/*
 * --afxdp-cpus LIST: the engine workers' CPUs in queue order ("0,2"), or "none" for none
 * pinned. The highest CPU number is the kernel's affinity mask's (CPU_SETSIZE).
 */
static int parse_afxdp_cpus(const char *s, struct pxp_dp_cpu_list *l)
{
	char buf[512], *tok, *save = NULL;
	unsigned int cpu;

	memset(l, 0, sizeof(*l));
	if (!strcmp(s, "none")) {
		l->cpu[l->nr++] = PXP_DP_CPU_ANY;
		return 0;
	}
	if (strlen(s) >= sizeof(buf) || !*s || *s == ',' || s[strlen(s) - 1] == ',' ||
	    strstr(s, ",,"))
		return bad("--afxdp-cpus", s, "must be CPU numbers separated by commas, or none");
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (l->nr == PXP_DP_MAX_QUEUES)
			return bad("--afxdp-cpus", s,
				   "at most " CLI_STR(PXP_DP_MAX_QUEUES) " CPUs (one a queue)");
		if (config_parse_uint(tok, 0, CPU_SETSIZE - 1, &cpu)) {
			pxp_err("--afxdp-cpus '%s': '%s' is not a CPU number from 0 to %d", s, tok,
				CPU_SETSIZE - 1);
			return -EINVAL;
		}
		l->cpu[l->nr++] = (int)cpu;
	}
	return 0;
}

/* The AF_XDP engine spreads by its own per-queue workers; the cpumap serves xdp and generic. */
static int check_mode_options(const struct daemon_settings *d)
{
	bool xdp_rx = d->rx_half == PXP_DP_HALF_XDP ||
		      (d->rx_half == PXP_DP_HALF_DEFAULT && d->mode != PXP_DP_TC);

	if (d->nr_cpus && (d->mode == PXP_DP_AFXDP || !xdp_rx)) {
		pxp_err("--cpus %u: for modes xdp and generic with XDP receiving (afxdp has its "
			"per-queue workers, tc has no cpumap)",
			d->nr_cpus);
		return -EINVAL;
	}
	if (d->afxdp_cpus.nr && d->mode != PXP_DP_AFXDP) {
		pxp_err("--afxdp-cpus: only with --mode afxdp (the other modes have no workers)");
		return -EINVAL;
	}
	if (d->mode == PXP_DP_AFXDP &&
	    (d->rx_half != PXP_DP_HALF_DEFAULT || d->tx_half != PXP_DP_HALF_DEFAULT)) {
		pxp_err("--rx/--tx: mode afxdp runs both halves in its engine");
		return -EINVAL;
	}
	return 0;
}

enum {
	OPT_PASSWORD_FILE = 256,
	OPT_AC_MAC,
	OPT_HOST_UNIQ,
	OPT_IFNAME,
	OPT_MAXFAIL,
	OPT_HOLDOFF,
	OPT_DEFAULTROUTE,
	OPT_REPLACEDEFAULTROUTE,
	OPT_DEFAULTROUTE6,
	OPT_METRIC,
	OPT_USEPEERDNS,
	OPT_RESOLV_FILE,
	OPT_VLAN_PCP,
	OPT_IPPARAM,
	OPT_IP_UP_SCRIPT,
	OPT_IP_DOWN_SCRIPT,
	OPT_IPV6_UP_SCRIPT,
	OPT_IPV6_DOWN_SCRIPT,
	OPT_MODE,
	OPT_IPV6,
	OPT_LOCAL,
	OPT_POOL,
	OPT_AUTH,
	OPT_SECRETS,
	OPT_MAX_SESSIONS,
	OPT_PADI_RATE,
	OPT_PADI_RATE_PER_MAC,
	OPT_DNS,
	OPT_AC_NAME,
	OPT_DEBUG,
	OPT_LOGFILE,
	OPT_TIMEOUT,
	OPT_PADI_ATTEMPTS,
	OPT_PADI_TIMEOUT,
	OPT_KEEPALIVE_ADAPTIVE,
	OPT_WATCH,
	OPT_INTERVAL,
	OPT_CPUS,
	OPT_AFXDP_CPUS,
	OPT_CONFIG,
	OPT_LCP_ECHO_INTERVAL,
	OPT_LCP_ECHO_FAILURE,
	OPT_IPV6_POOL,
	OPT_PD_POOL,
	OPT_DNS6,
	OPT_RA_INTERVAL,
	OPT_RA_MANAGED,
	OPT_RX,
	OPT_TX,
	OPT_NETDEV,
	OPT_WG_MTU,
	OPT_WG_STATE_DIR,
	OPT_WG_NO_OFFLOAD,
	OPT_WG_CRYPTO_THREADS,
};

/* The --*-script options are in enum hook_kind's order (up_option() maps one to the other). */
_Static_assert(OPT_IP_DOWN_SCRIPT - OPT_IP_UP_SCRIPT == HOOK_IP_DOWN - HOOK_IP_UP &&
		       OPT_IPV6_UP_SCRIPT - OPT_IP_UP_SCRIPT == HOOK_IPV6_UP - HOOK_IP_UP &&
		       OPT_IPV6_DOWN_SCRIPT - OPT_IP_UP_SCRIPT == HOOK_IPV6_DOWN - HOOK_IP_UP,
	       "the script options follow enum hook_kind");

/* Defaults help shows that are kept in milliseconds. */
_Static_assert(DISC_DEFAULT_TIMEOUT_MS == 5 * 1000, "--padi-timeout's default in up_options");
_Static_assert(PXP_DISCOVER_DEFAULT_TIMEOUT_MS == 3 * 1000, "--timeout's default");
_Static_assert(PXP_STATS_DEFAULT_INTERVAL_MS == 1 * 1000, "--interval's default");

/* The options of struct daemon_settings, shared by up and server. */
static const struct cli_option daemon_options[] = {
	{ "service", 's', "NAME", "up: the Service-Name to request; server: the one offered",
	  "any" },
	{ "keepalive", 'k', "\"F I\"",
	  "link dead after F unanswered LCP Echo-Requests sent every I seconds "
	  "(OpenWrt's order, also \"F,I\"; a lone F takes I " CLI_STR(
		  PXP_KEEPALIVE_INTERVAL_ALONE_S) "; \"0\" = no echoes)",
	  "\"" CLI_STR(PXP_DEFAULT_KEEPALIVE_FAILURES) " " CLI_STR(
		  PXP_DEFAULT_KEEPALIVE_INTERVAL_S) "\"" },
	{ "lcp-echo-interval", OPT_LCP_ECHO_INTERVAL, "S",
	  "pppd's: the --keepalive interval alone (0 = no echoes)",
	  CLI_STR(PXP_DEFAULT_KEEPALIVE_INTERVAL_S) },
	{ "lcp-echo-failure", OPT_LCP_ECHO_FAILURE, "N",
	  "pppd's: the --keepalive failures alone, 1 to 1000",
	  CLI_STR(PXP_DEFAULT_KEEPALIVE_FAILURES) },
	{ "ipv6", OPT_IPV6, NULL, "run IPv6CP as well", NULL },
	{ "vlan", 'v', "ID", "802.1Q tag on IFACE, 1 to " CLI_STR(MAX_VLAN_ID), "untagged" },
	{ "mode", OPT_MODE, "M",
	  "data path: auto (by the WAN port's driver and the kernel's netkit: one table, status "
	  "says why), xdp (native XDP), afxdp (AF_XDP engine), generic (skb-mode XDP) or tc (tc "
	  "programs on the skb, no XDP)",
	  "auto" },
	{ "rx", OPT_RX, "H",
	  "the receive half's programs, for measuring every combination: xdp (decapsulate in "
	  "XDP), tc (in tc ingress) or xdp-pass (in XDP, then the WAN port's GRO, then tc)",
	  "the mode's" },
	{ "tx", OPT_TX, "H",
	  "the transmit half's programs: xdp (encapsulate in XDP on pxp0's hidden peer) or tc "
	  "(in tc egress on pxp0)",
	  "the mode's" },
	{ "netdev", OPT_NETDEV, "K",
	  "the session netdev: veth (a pair whose hidden peer runs the XDP transmit half), netkit "
	  "(Linux 6.7+: the tc transmit half runs on its own transmit; needs --rx tc or xdp-pass "
	  "and --tx tc) or auto (netkit where the kernel has it and the halves are rx xdp-pass, "
	  "tx tc; else veth, whose GRO the tc receive half needs)",
	  "auto" },
	{ "cpus", OPT_CPUS, "N",
	  "software RSS: decapsulate on CPUs 0..N-1 by the inner flow hash (modes xdp and "
	  "generic)",
	  "off" },
	{ "afxdp-cpus", OPT_AFXDP_CPUS, "LIST",
	  "mode afxdp: the CPU of each engine worker (one a WAN RX queue) in queue order, "
	  "repeated when shorter (\"2,3\"), or none to leave them to the scheduler",
	  "queue q on CPU q modulo the CPUs online" },
	{ "foreground", 'f', NULL, "stay attached and log to stderr", "detach, log to syslog" },
	{ "debug", OPT_DEBUG, NULL, "debug logging", NULL },
	{ "logfile", OPT_LOGFILE, "FILE",
	  "also append the log lines to FILE (created mode 0600; pppd's logfile)", NULL },
	{ NULL },
};

static const struct cli_option up_options[] = {
	{ "config", OPT_CONFIG, "FILE",
	  "options in pppd's words (user, password, persist, mtu, ...); the command line "
	  "overrides them",
	  PXP_CONFIG_DIR "/IFACE.conf if it exists ($" PXP_CONFIG_DIR_ENV " for the directory)" },
	{ "user", 'u', "U",
	  "PAP/CHAP/MS-CHAPv2 user name; with no password given, its secret in "
	  "PPP_DIR/chap-secrets or pap-secrets",
	  "empty" },
	{ "password", 'p', "P", "the password (wiped from the command line; prefer a file)", NULL },
	{ "password-file", OPT_PASSWORD_FILE, "F",
	  "the password is the first line of F (keep F mode 0600)", NULL },
	{ "ac", 'a', "NAME", "accept only this AC-Name", "any AC" },
	{ "ac-mac", OPT_AC_MAC, "MAC", "accept only PADOs from this MAC", "any" },
	{ "host-uniq", OPT_HOST_UNIQ, "HEX", "Host-Uniq bytes in hex, 1 to 64",
	  CLI_STR(DISC_DEFAULT_HOST_UNIQ_LEN) " random bytes" },
	{ "mtu", 'm', "N",
	  "cap the session MTU, " CLI_STR(PXP_MTU_MIN) " to " CLI_STR(
		  PXP_MTU_MAX) "; above 1492 asks for RFC 4638 PPP-Max-Payload",
	  "negotiated, 1492" },
	{ "padi-attempts", OPT_PADI_ATTEMPTS, "N", "PADIs (and PADRs) before giving up",
	  CLI_STR(DISC_DEFAULT_ATTEMPTS) },
	{ "padi-timeout", OPT_PADI_TIMEOUT, "S",
	  "first PADI timeout in seconds, doubling on each retry", "5" },
	{ "ifname", OPT_IFNAME, "NAME", "name of the session netdev", PXP_DEFAULT_SESSION_IFNAME },
	{ "keepalive-adaptive", OPT_KEEPALIVE_ADAPTIVE, NULL,
	  "skip LCP Echo-Requests while session data arrives", NULL },
	{ "persist", 'P', NULL, "after a failure or a lost session, try again after --holdoff",
	  NULL },
	{ "maxfail", OPT_MAXFAIL, "N",
	  "with --persist: give up after N failed attempts in a row (0 = never)",
	  CLI_STR(PXP_DEFAULT_MAXFAIL) },
	{ "holdoff", OPT_HOLDOFF, "S", "seconds between attempts", CLI_STR(PXP_DEFAULT_HOLDOFF_S) },
	{ "defaultroute", OPT_DEFAULTROUTE, NULL,
	  "IPv4 default route via the session netdev, unless a default route (of --metric, if "
	  "given) exists",
	  NULL },
	{ "replacedefaultroute", OPT_REPLACEDEFAULTROUTE, NULL,
	  "with --defaultroute: replace an existing default route, restore it when the session "
	  "ends",
	  NULL },
	{ "defaultroute6", OPT_DEFAULTROUTE6, NULL,
	  "with --ipv6: IPv6 default route via the session netdev once IPv6CP is up, unless one "
	  "exists",
	  NULL },
	{ "metric", OPT_METRIC, "N",
	  "metric of the default routes we add (pppd's defaultroute-metric), 0 to " CLI_STR(
		  PXP_ROUTE_METRIC_MAX),
	  "0; IPv6 " CLI_STR(IP6_RT_PRIO_USER) },
	{ "usepeerdns", OPT_USEPEERDNS, NULL, "write the AC's DNS servers to the resolv file",
	  NULL },
	{ "resolv-file", OPT_RESOLV_FILE, "F",
	  "a shared resolv.conf (absolute path) --usepeerdns adds its marked lines to and takes "
	  "only those out of",
	  "RUN_DIR/IFACE.resolv.conf" },
	{ "vlan-pcp", OPT_VLAN_PCP, "N", "priority of the --vlan tag, 0 to 7", "0" },
	{ "ipparam", OPT_IPPARAM, "TEXT",
	  "pppd's ipparam: the 6th argument of ip-up and the other scripts", "empty" },
	{ "ip-up-script", OPT_IP_UP_SCRIPT, "F",
	  "run the file F (an absolute path) as ip-up (pppd's ip-up-script)",
	  "PPP_DIR/ip-up or ip-up.d" },
	{ "ip-down-script", OPT_IP_DOWN_SCRIPT, "F", "the same for ip-down",
	  "PPP_DIR/ip-down or ip-down.d" },
	{ "ipv6-up-script", OPT_IPV6_UP_SCRIPT, "F", "the same for ipv6-up",
	  "PPP_DIR/ipv6-up or ipv6-up.d" },
	{ "ipv6-down-script", OPT_IPV6_DOWN_SCRIPT, "F", "the same for ipv6-down",
	  "PPP_DIR/ipv6-down or ipv6-down.d" },
	{ NULL },
};

const struct cli_options config_up_options = {
	.command = "up",
	.operands = "IFACE",
	.own = up_options,
	.shared = daemon_options,
};

static const struct cli_option server_options[] = {
	{ "local", OPT_LOCAL, "IP", "our address on every session (required)", NULL },
	{ "pool", OPT_POOL, "CIDR", "the clients' addresses (required)", NULL },
	{ "ac-name", OPT_AC_NAME, "NAME", "AC-Name in PADOs", "the host name" },
	{ "auth", OPT_AUTH, "pap|chap|mschapv2|none", "authentication required from clients",
	  "pap" },
	{ "secrets", OPT_SECRETS, "FILE", "pppd-style secrets: client server secret [address]",
	  PXP_PAP_SECRETS " for pap, else " PXP_CHAP_SECRETS },
	{ "max-sessions", OPT_MAX_SESSIONS, "N",
	  "sessions at the most, 1 to " CLI_STR(DISC_AC_MAX_SESSIONS),
	  CLI_STR(PXP_DEFAULT_MAX_SESSIONS) },
	{ "padi-rate", OPT_PADI_RATE, "N",
	  "PADIs and PADRs answered a second from all clients, at most " CLI_STR(
		  DISC_AC_RATE_MAX) " (bursts of 2 s worth; 0 = unlimited)",
	  CLI_STR(DISC_AC_DEFAULT_RATE) },
	{ "padi-rate-per-mac", OPT_PADI_RATE_PER_MAC, "N",
	  "PADIs and PADRs answered a second from one MAC (bursts of 5 s worth; 0 = "
	  "unlimited)",
	  CLI_STR(DISC_AC_DEFAULT_RATE_PER_MAC) },
	{ "dns", OPT_DNS, "IP", "a DNS server offered in IPCP (up to " CLI_STR(PXP_MAX_DNS) ")",
	  "none" },
	{ "ipv6-pool", OPT_IPV6_POOL, "PREFIX/LEN",
	  "with --ipv6: a /64 of it per session, in router advertisements for SLAAC (LEN up to "
	  "64)",
	  "no prefix advertised" },
	{ "pd-pool", OPT_PD_POOL, "PREFIX/LEN,PDLEN",
	  "with --ipv6: a /PDLEN of it per session, delegated by DHCPv6 (PDLEN from LEN to 64)",
	  "no DHCPv6 server" },
	{ "dns6", OPT_DNS6, "IP6",
	  "an IPv6 DNS server in router advertisements and DHCPv6 (up to " CLI_STR(PXP_MAX_DNS) ")",
	  "none" },
	{ "ra-interval", OPT_RA_INTERVAL, "S",
	  "seconds between unsolicited router advertisements, " CLI_STR(
		  RA_INTERVAL_MIN_S) " to " CLI_STR(RA_INTERVAL_MAX_S),
	  CLI_STR(PXP_DEFAULT_RA_INTERVAL_S) },
	{ "ra-managed", OPT_RA_MANAGED, NULL,
	  "set the M flag in router advertisements (O is set when DHCPv6 runs)", NULL },
	{ NULL },
};

const struct cli_options config_server_options = {
	.command = "server",
	.operands = "IFACE",
	.own = server_options,
	.shared = daemon_options,
};

static void daemon_defaults(struct daemon_settings *d)
{
	d->keepalive_interval_s = PXP_DEFAULT_KEEPALIVE_INTERVAL_S;
	d->keepalive_failures = PXP_DEFAULT_KEEPALIVE_FAILURES;
	d->mode = PXP_DP_AUTO;
	d->netdev = PXP_DP_NETDEV_AUTO;
	d->log_level = PXP_LOG_INFO;
}

/*
 * The getopt loop every subcommand shares: each option goes to fn, which returns 0 when it
 * took it, -EINVAL after logging why not, 1 when it is no option of its command.
 */
typedef int cli_option_fn(int key, char *arg, void *ctx);

static int cli_parse(int argc, char **argv, const struct cli_options *set, cli_option_fn *fn,
		     void *ctx)
{
	struct cli_getopt g;
	int c, err;

	cli_getopt_init(&g, set);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		err = c == '?' || c == ':' ? 1 : fn(c, optarg, ctx);
		if (err < 0)
			return err;
		if (err)
			return bad(argv[0], argv[optind - 1], "unknown option or missing value");
	}
	return 0;
}

/* One getopt result c: 0 if it was a daemon option and is stored, 1 if it is not one. */
static int parse_daemon_option(int c, const char *arg, struct daemon_settings *d)
{
	unsigned int v;

	switch (c) {
	case 's':
		return copy_name("--service", arg, d->service, sizeof(d->service));
	case 'k':
		return parse_keepalive(arg, &d->keepalive_interval_s, &d->keepalive_failures);
	case OPT_LCP_ECHO_INTERVAL:
		if (config_parse_uint(arg, 0, 3600, &d->keepalive_interval_s))
			return bad("--lcp-echo-interval", arg,
				   "must be 0..3600 seconds (0 = no echoes)");
		return 0;
	case OPT_LCP_ECHO_FAILURE:
		/* pppd's 0 (echo, never give up) is not ours: --lcp-echo-interval 0 stops them. */
		if (config_parse_uint(arg, 1, 1000, &d->keepalive_failures))
			return bad("--lcp-echo-failure", arg, "must be 1..1000");
		return 0;
	case OPT_IPV6:
		d->ipv6 = true;
		return 0;
	case 'v':
		if (config_parse_uint(arg, 1, MAX_VLAN_ID, &v))
			return bad("--vlan", arg, "must be a VLAN id from 1 to 4094");
		d->vlan_id = (uint16_t)v;
		return 0;
	case OPT_MODE:
		return parse_mode(arg, &d->mode);
	case OPT_CPUS:
		return parse_cpus(arg, &d->nr_cpus);
	case OPT_AFXDP_CPUS:
		return parse_afxdp_cpus(arg, &d->afxdp_cpus);
	case OPT_RX:
		return parse_half("--rx", true, arg, &d->rx_half);
	case OPT_TX:
		return parse_half("--tx", false, arg, &d->tx_half);
	case OPT_NETDEV:
		return parse_netdev(arg, &d->netdev);
	case 'f':
		d->foreground = true;
		return 0;
	case OPT_DEBUG:
		d->log_level = PXP_LOG_DEBUG;
		return 0;
	case OPT_LOGFILE:
		return copy_name("--logfile", arg, d->logfile, sizeof(d->logfile));
	default:
		return 1;
	}
}

/* The interface and the checks across daemon options, once all options are read. */
static int finish_daemon_options(int argc, char **argv, char iface[IF_NAMESIZE],
				 const struct daemon_settings *d)
{
	int err = take_iface(argc, argv, iface, false);

	return err ?: check_mode_options(d);
}

/* What parsing up keeps across its options: per source, the file's then the command line's. */
struct up_parse {
	struct client_settings *o;
	bool have_password; /* from this source */
	bool any_password;  /* from any source, so no look-up in the secrets files */
	bool have_pcp;
};

static int take_password(struct up_parse *st, char *arg)
{
	struct client_settings *o = st->o;
	size_t len = strlen(arg);

	if (st->have_password)
		return bad("--password", "...", "password given twice");
	if (len > PPP_SECRET_MAX)
		return bad("--password", "...", "longer than 255 bytes");
	explicit_bzero(o->password, sizeof(o->password));
	o->password_len = len;
	memcpy(o->password, arg, len);
	/* Keep the secret out of ps(1) and /proc/PID/cmdline. */
	explicit_bzero(arg, len);
	st->have_password = st->any_password = true;
	return 0;
}

static int up_option(int c, char *arg, void *ctx)
{
	struct up_parse *st = ctx;
	struct client_settings *o = st->o;
	unsigned int v;
	int err;

	err = parse_daemon_option(c, arg, &o->common);
	if (err <= 0)
		return err;
	switch (c) {
	case OPT_CONFIG:
		return 0; /* read before the other options (config_parse_up()) */
	case 'u':
		return copy_name("--user", arg, o->user, sizeof(o->user));
	case 'p':
		return take_password(st, arg);
	case OPT_PASSWORD_FILE:
		if (st->have_password)
			return bad("--password-file", arg, "password given twice");
		explicit_bzero(o->password, sizeof(o->password));
		err = read_password_file(arg, o);
		st->have_password = st->any_password = !err;
		return err;
	case 'a':
		return copy_name("--ac", arg, o->ac_name, sizeof(o->ac_name));
	case OPT_AC_MAC:
		if (pxp_mac_parse(arg, o->ac_mac))
			return bad("--ac-mac", arg, "expected a MAC like 02:00:00:00:00:01");
		o->match_ac_mac = true;
		return 0;
	case OPT_HOST_UNIQ:
		if (config_parse_hex(arg, o->host_uniq, sizeof(o->host_uniq), &o->host_uniq_len))
			return bad("--host-uniq", arg,
				   "expected 1..64 bytes in hex, e.g. 0a1b2c3d");
		return 0;
	case 'm':
		if (config_parse_uint(arg, PXP_MTU_MIN, PXP_MTU_MAX, &o->mtu)) {
			pxp_err("--mtu '%s': must be a number from %u to %u", arg, PXP_MTU_MIN,
				PXP_MTU_MAX);
			return -EINVAL;
		}
		return 0;
	case OPT_PADI_ATTEMPTS:
		if (config_parse_uint(arg, 1, 100, &o->padi_attempts))
			return bad("--padi-attempts", arg, "must be 1 to 100");
		return 0;
	case OPT_PADI_TIMEOUT:
		if (config_parse_uint(arg, 1, DISC_MAX_TIMEOUT_MS / 1000, &v))
			return bad("--padi-timeout", arg, "must be 1 to 60 seconds");
		o->padi_timeout_ms = v * 1000;
		return 0;
	case OPT_IFNAME:
		if (config_parse_ifname(arg, o->ifname))
			return bad("--ifname", arg, "not a valid interface name");
		return 0;
	case OPT_KEEPALIVE_ADAPTIVE:
		o->keepalive_adaptive = true;
		return 0;
	case 'P':
		o->persist = true;
		return 0;
	case OPT_MAXFAIL:
		if (config_parse_uint(arg, 0, 1000000, &o->maxfail))
			return bad("--maxfail", arg, "must be a number (0 = no limit)");
		return 0;
	case OPT_HOLDOFF:
		if (config_parse_uint(arg, 0, 86400, &o->holdoff_s))
			return bad("--holdoff", arg, "must be 0..86400 seconds");
		return 0;
	case OPT_DEFAULTROUTE:
		o->defaultroute = true;
		return 0;
	case OPT_REPLACEDEFAULTROUTE:
		o->replacedefaultroute = true;
		return 0;
	case OPT_DEFAULTROUTE6:
		o->defaultroute6 = true;
		return 0;
	case OPT_METRIC:
		if (config_parse_uint(arg, 0, PXP_ROUTE_METRIC_MAX, &v))
			return bad("--metric", arg,
				   "must be a number from 0 to " CLI_STR(PXP_ROUTE_METRIC_MAX));
		o->metric = v;
		return 0;
	case OPT_USEPEERDNS:
		o->usepeerdns = true;
		return 0;
	case OPT_RESOLV_FILE:
		/* The daemon runs in / (daemon_fork()): a relative path would move. */
		if (arg[0] != '/')
			return bad("--resolv-file", arg, "must be an absolute path");
		return copy_name("--resolv-file", arg, o->resolv_file, sizeof(o->resolv_file));
	case OPT_VLAN_PCP:
		if (config_parse_uint(arg, 0, 7, &v))
			return bad("--vlan-pcp", arg, "must be a priority from 0 to 7");
		o->vlan_pcp = (uint8_t)v;
		st->have_pcp = true;
		return 0;
	case OPT_IPPARAM:
		return copy_name("--ipparam", arg, o->ipparam, sizeof(o->ipparam));
	case OPT_IP_UP_SCRIPT:
	case OPT_IP_DOWN_SCRIPT:
	case OPT_IPV6_UP_SCRIPT:
	case OPT_IPV6_DOWN_SCRIPT: {
		enum hook_kind kind = (enum hook_kind)(c - OPT_IP_UP_SCRIPT + HOOK_IP_UP);
		char opt[32];

		snprintf(opt, sizeof(opt), "--%s-script", hook_name(kind));
		/* The daemon runs in / (daemon_fork()): a relative path would move. */
		if (arg[0] != '/')
			return bad(opt, arg, "must be an absolute path");
		return copy_name(opt, arg, o->hook_script[kind], sizeof(o->hook_script[kind]));
	}
	default:
		return 1;
	}
}

/* --config and whether IFACE stands alone at the end; the real parse reports errors. */
static bool scan_command_line(int argc, char **argv, char path[PATH_MAX])
{
	struct cli_getopt g;
	bool ok = true;
	int c;

	path[0] = '\0';
	cli_getopt_init(&g, &config_up_options);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (c == '?' || c == ':')
			ok = false;
		else if (c == OPT_CONFIG)
			snprintf(path, PATH_MAX, "%s", optarg);
	}
	return ok && optind + 1 == argc;
}

/*
 * The configuration file: --config FILE (which must exist) or CONFIG_DIR/IFACE.conf (which
 * may not). 0 with cf empty when there is none; -EINVAL after logging.
 */
static int load_config(int argc, char **argv, struct conffile *cf, char path[PATH_MAX])
{
	const char *dir = getenv(PXP_CONFIG_DIR_ENV);
	char err[PATH_MAX + 128], iface[IF_NAMESIZE];
	bool explicit;
	int ret;

	memset(cf, 0, sizeof(*cf));
	if (!scan_command_line(argc, argv, path))
		return 0;
	explicit = path[0];
	if (!explicit) {
		if (config_parse_ifname(argv[optind], iface))
			return 0;
		snprintf(path, PATH_MAX, "%s/%s.conf", dir && dir[0] == '/' ? dir : PXP_CONFIG_DIR,
			 iface);
	}
	ret = conffile_load(cf, path, err, sizeof(err));
	if (ret == -ENOENT && !explicit)
		return 0;
	if (ret) {
		pxp_err("%s%s", explicit ? "--config: " : "", err);
		return -EINVAL;
	}
	if (cf->has_password)
		warn_if_readable(path, cf->mode);
	return 0;
}

/* The file's options; a rejected value also gets the file and the line it is on. */
static int parse_config(struct conffile *cf, const char *path, struct up_parse *st)
{
	int err, at;

	if (!cf->argc)
		return 0;
	err = cli_parse(cf->argc, cf->argv, &config_up_options, up_option, st);
	at = optind - 1;
	if (err && at >= 1 && at < cf->argc)
		pxp_err("%s:%u: in '%s'", path, cf->line[at], cf->word[at]);
	return err;
}

/*
 * The password of o->user as pppd's client finds it: the user's line in chap-secrets, else
 * pap-secrets (PPP_DIR), whose server is '*' or the AC named by --ac. -ENOENT if none.
 */
static int password_from_secrets(struct client_settings *o)
{
	static const char *const files[] = { "chap-secrets", "pap-secrets" };
	char path[PATH_MAX], err[PATH_MAX + 128];
	struct secrets s;
	struct stat st;
	int n;

	for (unsigned int i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", hook_dir(), files[i]);
		if (stat(path, &st))
			continue;
		if (secrets_load(&s, path, err, sizeof(err))) {
			pxp_warn("%s (looking for the password of '%s')", err, o->user);
			continue;
		}
		n = secrets_lookup(&s, o->user, o->ac_name[0] ? o->ac_name : "*", o->password,
				   sizeof(o->password), NULL);
		secrets_free(&s);
		if (n >= 0) {
			o->password_len = (size_t)n;
			warn_if_readable(path, st.st_mode);
			return 0;
		}
	}
	return -ENOENT;
}

int config_parse_up(int argc, char **argv, struct client_settings *o)
{
	struct up_parse st = { .o = o };
	char path[PATH_MAX];
	struct conffile cf;
	int err;

	memset(o, 0, sizeof(*o));
	daemon_defaults(&o->common);
	strcpy(o->ifname, PXP_DEFAULT_SESSION_IFNAME);
	o->maxfail = PXP_DEFAULT_MAXFAIL;
	o->holdoff_s = PXP_DEFAULT_HOLDOFF_S;
	o->metric = -1;
	/* The file first, then the command line over it (its password too). */
	err = load_config(argc, argv, &cf, path);
	err = err ?: parse_config(&cf, path, &st);
	conffile_free(&cf);
	if (err)
		return err;
	st.have_password = false;
	err = cli_parse(argc, argv, &config_up_options, up_option, &st);
	err = err ?: finish_daemon_options(argc, argv, o->iface, &o->common);
	if (err)
		return err;
	if (st.have_pcp && !o->common.vlan_id)
		return bad("--vlan-pcp", "", "needs --vlan");
	if (!strcmp(o->ifname, o->iface))
		return bad("--ifname", o->ifname, "must differ from the WAN interface");
	if (o->defaultroute6 && !o->common.ipv6)
		return bad("--defaultroute6", "", "needs --ipv6");
	if (o->replacedefaultroute && !o->defaultroute)
		pxp_warn("--replacedefaultroute without --defaultroute: no default route is added");
	if (o->metric >= 0 && !o->defaultroute && !o->defaultroute6)
		pxp_warn("--metric %" PRId64 " without --defaultroute or --defaultroute6: no route "
			 "takes it",
			 o->metric);
	if (o->user[0] && !st.any_password && password_from_secrets(o))
		pxp_warn("--user '%s' without a password (none given, none in %s/chap-secrets or "
			 "pap-secrets): authenticating with an empty password",
			 o->user, hook_dir());
	return 0;
}

static int parse_auth(const char *s, enum ppp_auth_proto *auth)
{
	if (!strcmp(s, "pap"))
		*auth = PPP_AUTH_PAP;
	else if (!strcmp(s, "chap"))
		*auth = PPP_AUTH_CHAP_MD5;
	else if (!strcmp(s, "mschapv2"))
		*auth = PPP_AUTH_MSCHAPV2;
	else if (!strcmp(s, "none"))
		*auth = PPP_AUTH_NONE;
	else
		return bad("--auth", s, "must be pap, chap, mschapv2 or none");
	return 0;
}

static int parse_ipv4(const char *opt, const char *s, uint32_t *out)
{
	struct in_addr in;

	if (inet_pton(AF_INET, s, &in) != 1 || in.s_addr == 0)
		return bad(opt, s, "not an IPv4 address");
	*out = in.s_addr;
	return 0;
}

static int parse_pool(const char *s, struct server_settings *o)
{
	unsigned int prefix;
	uint32_t net, mask, first, last;

	if (config_parse_cidr(s, &net, &prefix))
		return bad("--pool", s, "expected an IPv4 CIDR like 100.64.1.0/24");
	if (prefix > 30 || prefix < 8)
		return bad("--pool", s, "prefix must be /8 to /30");
	mask = prefix ? ~0u << (32 - prefix) : 0;
	if (net & ~mask)
		return bad("--pool", s, "host bits set; give the network address");
	/* Skip the network and broadcast addresses, as a LAN pool would. */
	first = net + 1;
	last = (net | ~mask) - 1;
	o->pool_first = first;
	o->pool_last = last;
	snprintf(o->pool_text, sizeof(o->pool_text), "%s", s);
	return 0;
}

static int parse_ipv6_pool(const char *s, struct server_settings *o)
{
	unsigned int len;

	if (config_parse_cidr6(s, 64, o->ipv6_pool, &len))
		return bad("--ipv6-pool", s,
			   "expected an IPv6 prefix of /1 to /64 with no host bits, like "
			   "2001:db8:1::/48");
	o->ipv6_pool_len = (uint8_t)len;
	snprintf(o->ipv6_pool_text, sizeof(o->ipv6_pool_text), "%s", s);
	return 0;
}

static int parse_pd_pool(const char *s, struct server_settings *o)
{
	char prefix[sizeof(o->pd_pool_text)];
	const char *comma = strrchr(s, ',');
	unsigned int len, pd_len;

	if (!comma || (size_t)(comma - s) >= sizeof(prefix))
		return bad("--pd-pool", s, "expected PREFIX/LEN,PDLEN like 2001:db8:100::/40,56");
	memcpy(prefix, s, (size_t)(comma - s));
	prefix[comma - s] = '\0';
	if (config_parse_cidr6(prefix, 64, o->pd_pool, &len))
		return bad("--pd-pool", s,
			   "the pool must be an IPv6 prefix of /1 to /64 with no host bits");
	if (config_parse_uint(comma + 1, len, 64, &pd_len))
		return bad("--pd-pool", s,
			   "the delegated length must be from the pool's length to 64");
	o->pd_pool_len = (uint8_t)len;
	o->pd_len = (uint8_t)pd_len;
	snprintf(o->pd_pool_text, sizeof(o->pd_pool_text), "%s", s);
	return 0;
}

/* What only --ipv6 gives a meaning to. */
static int check_server_ipv6(const struct server_settings *o)
{
	const char *needs = o->ipv6_pool_len ? "--ipv6-pool"
			    : o->pd_pool_len ? "--pd-pool"
			    : o->dns6_count  ? "--dns6"
			    : o->ra_managed  ? "--ra-managed"
					     : NULL;

	if (needs && !o->common.ipv6) {
		pxp_err("server: %s needs --ipv6", needs);
		return -EINVAL;
	}
	return 0;
}

struct server_parse {
	struct server_settings *o;
	unsigned int dns_count;
	bool have_pool;
};

/* A discovery rate limit: 0 = unlimited, else 1..DISC_AC_RATE_MAX frames a second. */
static int parse_rate(const char *opt, const char *arg, uint32_t *rate)
{
	unsigned int n;

	if (config_parse_uint(arg, 0, DISC_AC_RATE_MAX, &n))
		return bad(opt, arg, "must be 0 (unlimited) to " CLI_STR(DISC_AC_RATE_MAX));
	*rate = n ? n : DISC_AC_RATE_UNLIMITED;
	return 0;
}

static int server_option(int c, char *arg, void *ctx)
{
	struct server_parse *st = ctx;
	struct server_settings *o = st->o;
	int err;

	err = parse_daemon_option(c, arg, &o->common);
	if (err <= 0)
		return err;
	switch (c) {
	case OPT_LOCAL:
		return parse_ipv4("--local", arg, &o->local_ip);
	case OPT_POOL:
		err = parse_pool(arg, o);
		st->have_pool = st->have_pool || !err;
		return err;
	case OPT_AC_NAME:
		return copy_name("--ac-name", arg, o->ac_name, sizeof(o->ac_name));
	case OPT_AUTH:
		return parse_auth(arg, &o->auth);
	case OPT_SECRETS:
		return copy_name("--secrets", arg, o->secrets_file, sizeof(o->secrets_file));
	case OPT_MAX_SESSIONS:
		if (config_parse_uint(arg, 1, DISC_AC_MAX_SESSIONS, &o->max_sessions))
			return bad("--max-sessions", arg, "must be 1 to 1024");
		return 0;
	case OPT_PADI_RATE:
		return parse_rate("--padi-rate", arg, &o->padi_rate);
	case OPT_PADI_RATE_PER_MAC:
		return parse_rate("--padi-rate-per-mac", arg, &o->padi_rate_per_mac);
	case OPT_DNS:
		if (st->dns_count == PXP_MAX_DNS)
			return bad("--dns", arg, "at most two DNS servers");
		err = parse_ipv4("--dns", arg, &o->dns[st->dns_count]);
		st->dns_count += !err;
		return err;
	case OPT_IPV6_POOL:
		return parse_ipv6_pool(arg, o);
	case OPT_PD_POOL:
		return parse_pd_pool(arg, o);
	case OPT_DNS6:
		if (o->dns6_count == PXP_MAX_DNS)
			return bad("--dns6", arg, "at most two DNS servers");
		if (inet_pton(AF_INET6, arg, o->dns6[o->dns6_count]) != 1)
			return bad("--dns6", arg, "not an IPv6 address");
		o->dns6_count++;
		return 0;
	case OPT_RA_INTERVAL:
		if (config_parse_uint(arg, RA_INTERVAL_MIN_S, RA_INTERVAL_MAX_S, &o->ra_interval_s))
			return bad("--ra-interval", arg,
				   "must be " CLI_STR(RA_INTERVAL_MIN_S) " to " CLI_STR(
					   RA_INTERVAL_MAX_S) " seconds");
		return 0;
	case OPT_RA_MANAGED:
		o->ra_managed = true;
		return 0;
	default:
		return 1;
	}
}

int config_parse_server(int argc, char **argv, struct server_settings *o)
{
	struct server_parse st = { .o = o };
	uint32_t local_host;
	int err;

	memset(o, 0, sizeof(*o));
	daemon_defaults(&o->common);
	o->auth = PPP_AUTH_PAP;
	o->max_sessions = PXP_DEFAULT_MAX_SESSIONS;
	o->padi_rate = DISC_AC_DEFAULT_RATE;
	o->padi_rate_per_mac = DISC_AC_DEFAULT_RATE_PER_MAC;
	o->ra_interval_s = PXP_DEFAULT_RA_INTERVAL_S;
	err = cli_parse(argc, argv, &config_server_options, server_option, &st);
	if (err)
		return err;
	err = finish_daemon_options(argc, argv, o->iface, &o->common);
	err = err ?: check_server_ipv6(o);
	if (err)
		return err;
	if (!o->local_ip) {
		pxp_err("server: --local IP is required");
		return -EINVAL;
	}
	if (!st.have_pool) {
		pxp_err("server: --pool CIDR is required");
		return -EINVAL;
	}
	local_host = ntohl(o->local_ip);
	/* The local address is never handed out: shrink the pool around it if at an end. */
	if (local_host == o->pool_first)
		o->pool_first++;
	else if (local_host == o->pool_last)
		o->pool_last--;
	if (o->pool_first > o->pool_last)
		return bad("--pool", o->pool_text, "no address left for clients");
	if (!o->ac_name[0] && gethostname(o->ac_name, sizeof(o->ac_name) - 1))
		strcpy(o->ac_name, "pppoe-xp");
	if (!o->secrets_file[0])
		strcpy(o->secrets_file,
		       o->auth == PPP_AUTH_PAP ? PXP_PAP_SECRETS : PXP_CHAP_SECRETS);
	return 0;
}

static const struct cli_option no_options[] = {
	{ NULL },
};

const struct cli_options config_down_options = {
	.command = "down",
	.operands = "IFACE",
	.own = no_options,
};

/* The options of a command that has none but --help, which main.c answers. */
static int no_option(int c, char *arg, void *ctx)
{
	(void)c;
	(void)arg;
	(void)ctx;
	return 1;
}

int config_parse_down(int argc, char **argv, struct down_options *o)
{
	memset(o, 0, sizeof(*o));
	return cli_parse(argc, argv, &config_down_options, no_option, NULL)
		       ?: take_iface(argc, argv, o->iface, false);
}

static const struct cli_option status_options[] = {
	{ "json", 'j', NULL, "the JSON form (without IFACE: an array)", NULL },
	{ NULL },
};

const struct cli_options config_status_options = {
	.command = "status",
	.operands = "[IFACE]",
	.own = status_options,
};

static int status_option(int c, char *arg, void *ctx)
{
	struct status_options *o = ctx;

	(void)arg;
	if (c != 'j')
		return 1;
	o->json = true;
	return 0;
}

int config_parse_status(int argc, char **argv, struct status_options *o)
{
	memset(o, 0, sizeof(*o));
	return cli_parse(argc, argv, &config_status_options, status_option, o)
		       ?: take_iface(argc, argv, o->iface, true);
}

int config_parse_seconds(const char *s, unsigned int min_ms, unsigned int max_ms, unsigned int *ms)
{
	unsigned long whole = 0, frac = 0, scale = 1000;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		whole = whole * 10 + (unsigned long)(*p - '0');
		if (whole > max_ms / 1000 + 1)
			return -EINVAL;
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (scale == 1)
				return -EINVAL; /* finer than a millisecond */
			scale /= 10;
			frac += (unsigned long)(*p - '0') * scale;
		}
	}
	if (*p)
		return -EINVAL;
	whole = whole * 1000 + frac;
	if (whole < min_ms || whole > max_ms)
		return -EINVAL;
	*ms = (unsigned int)whole;
	return 0;
}

static const struct cli_option stats_options[] = {
	{ "json", 'j', NULL, "the JSON form (without IFACE: an array; --watch: a line a view)",
	  NULL },
	{ "watch", OPT_WATCH, NULL, "redraw the rates every --interval (needs IFACE)", NULL },
	{ "interval", OPT_INTERVAL, "S", "seconds between views of --watch, at least 0.1", "1" },
	{ NULL },
};

const struct cli_options config_stats_options = {
	.command = "stats",
	.operands = "[IFACE]",
	.own = stats_options,
};

static int stats_option(int c, char *arg, void *ctx)
{
	struct stats_options *o = ctx;

	switch (c) {
	case 'j':
		o->json = true;
		return 0;
	case OPT_WATCH:
		o->watch = true;
		return 0;
	case OPT_INTERVAL:
		if (config_parse_seconds(arg, 100, 3600 * 1000, &o->interval_ms))
			return bad("--interval", arg, "must be seconds from 0.1 to 3600, e.g. 0.5");
		return 0;
	default:
		return 1;
	}
}

int config_parse_stats(int argc, char **argv, struct stats_options *o)
{
	int err;

	memset(o, 0, sizeof(*o));
	o->interval_ms = PXP_STATS_DEFAULT_INTERVAL_MS;
	err = cli_parse(argc, argv, &config_stats_options, stats_option, o);
	if (err)
		return err;
	err = take_iface(argc, argv, o->iface, true);
	if (err)
		return err;
	if (o->watch && !o->iface[0]) {
		pxp_err("%s --watch: name the interface to watch (IFACE)", argv[0]);
		return -EINVAL;
	}
	return 0;
}

static const struct cli_option discover_options[] = {
	{ "timeout", OPT_TIMEOUT, "S", "seconds to wait for PADOs, 1 to 60", "3" },
	{ "vlan", 'v', "ID", "802.1Q tag, 1 to " CLI_STR(MAX_VLAN_ID), "untagged" },
	{ NULL },
};

const struct cli_options config_discover_options = {
	.command = "discover",
	.operands = "IFACE",
	.own = discover_options,
};

static int discover_option(int c, char *arg, void *ctx)
{
	struct discover_options *o = ctx;
	unsigned int v;

	switch (c) {
	case OPT_TIMEOUT:
		if (config_parse_uint(arg, 1, 60, &v))
			return bad("--timeout", arg, "must be 1 to 60 seconds");
		o->timeout_ms = v * 1000;
		return 0;
	case 'v':
		if (config_parse_uint(arg, 1, MAX_VLAN_ID, &v))
			return bad("--vlan", arg, "must be a VLAN id from 1 to 4094");
		o->vlan_id = (uint16_t)v;
		return 0;
	default:
		return 1;
	}
}

int config_parse_discover(int argc, char **argv, struct discover_options *o)
{
	memset(o, 0, sizeof(*o));
	o->timeout_ms = PXP_DISCOVER_DEFAULT_TIMEOUT_MS;
	return cli_parse(argc, argv, &config_discover_options, discover_option, o)
		       ?: take_iface(argc, argv, o->iface, false);
}

static const struct cli_option wg_options[] = {
	{ "foreground", 'f', NULL,
	  "stay attached and log to stderr (also with WG_PROCESS_FOREGROUND=1, as wireguard-go)",
	  "detach, log to syslog" },
	{ "mtu", OPT_WG_MTU, "N",
	  "the TUN's MTU, " CLI_STR(WG_DEVICE_MIN_MTU) " to " CLI_STR(WG_DEVICE_MAX_MTU),
	  CLI_STR(WG_DEVICE_DEFAULT_MTU) },
	{ "state-dir", OPT_WG_STATE_DIR, "DIR",
	  "where the last handshake stamp of each private key is kept across restarts (a router "
	  "without an RTC; also PPPOE_XP_STATE_DIR)",
	  PXP_STATE_DIR },
	{ "no-tun-offload", OPT_WG_NO_OFFLOAD, NULL,
	  "one packet a TUN read and write (no TSO from the TUN, no coalescing into it)",
	  "TSO/USO superpackets read and segmented, TCP coalesced on the way in, where the "
	  "kernel takes TUNSETOFFLOAD" },
	{ "crypto-threads", OPT_WG_CRYPTO_THREADS, "N",
	  "threads that encrypt and decrypt a batch's data messages, 1 to " CLI_STR(
		  CRYPTO_POOL_MAX_THREADS) " (1: the loop's thread alone; order is kept either "
					   "way)",
	  "the CPUs the process may run on, at most " CLI_STR(CRYPTO_POOL_DEFAULT_MAX) },
	{ "debug", OPT_DEBUG, NULL, "debug logging", NULL },
	{ NULL },
};

const struct cli_options config_wg_options = {
	.command = "wg",
	.operands = "IFNAME",
	.own = wg_options,
};

static int wg_option(int c, char *arg, void *ctx)
{
	struct wg_device_settings *o = ctx;

	switch (c) {
	case 'f':
		o->foreground = true;
		return 0;
	case OPT_WG_MTU:
		if (config_parse_uint(arg, WG_DEVICE_MIN_MTU, WG_DEVICE_MAX_MTU, &o->mtu))
			return bad("--mtu", arg,
				   "must be " CLI_STR(WG_DEVICE_MIN_MTU) " to " CLI_STR(
					   WG_DEVICE_MAX_MTU));
		return 0;
	case OPT_WG_STATE_DIR:
		if (arg[0] != '/')
			return bad("--state-dir", arg, "must be an absolute path");
		o->state_dir = arg;
		return 0;
	case OPT_WG_NO_OFFLOAD:
		o->no_tun_offload = true;
		return 0;
	case OPT_WG_CRYPTO_THREADS:
		if (config_parse_uint(arg, 1, CRYPTO_POOL_MAX_THREADS, &o->crypto_threads))
			return bad("--crypto-threads", arg,
				   "must be 1 to " CLI_STR(CRYPTO_POOL_MAX_THREADS));
		return 0;
	case OPT_DEBUG:
		o->log_level = PXP_LOG_DEBUG;
		return 0;
	default:
		return 1;
	}
}

int config_parse_wg(int argc, char **argv, struct wg_device_settings *o)
{
	const char *fg = getenv("WG_PROCESS_FOREGROUND");

	memset(o, 0, sizeof(*o));
	o->mtu = WG_DEVICE_DEFAULT_MTU;
	o->log_level = PXP_LOG_INFO;
	o->state_dir = pxp_state_dir();
	o->foreground = fg && !strcmp(fg, "1");
	return cli_parse(argc, argv, &config_wg_options, wg_option, o)
		       ?: take_iface(argc, argv, o->ifname, false);
}
