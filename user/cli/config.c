// SPDX-License-Identifier: GPL-2.0
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mac.h"
#include "pxp_maps.h"
#include "pxp_mtu.h"

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

/* Reads the first line of F; the file should be readable by root only. */
static int read_password_file(const char *path, struct client_settings *o)
{
	char line[PPP_SECRET_MAX + 2];
	size_t n;
	FILE *f;
	int err = 0;

	f = fopen(path, "re");
	if (!f) {
		pxp_err("--password-file '%s': %s", path, strerror(errno));
		return -EINVAL;
	}
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
	OPT_USEPEERDNS,
	OPT_RESOLV_FILE,
	OPT_VLAN_PCP,
	OPT_IPPARAM,
	OPT_MODE,
	OPT_IPV6,
	OPT_LOCAL,
	OPT_POOL,
	OPT_AUTH,
	OPT_SECRETS,
	OPT_MAX_SESSIONS,
	OPT_DNS,
	OPT_AC_NAME,
	OPT_DEBUG,
	OPT_TIMEOUT,
	OPT_PADI_ATTEMPTS,
	OPT_PADI_TIMEOUT,
	OPT_KEEPALIVE_ADAPTIVE,
	OPT_WATCH,
	OPT_INTERVAL,
	OPT_CPUS,
	OPT_RX,
	OPT_TX,
};

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
	{ "ipv6", OPT_IPV6, NULL, "run IPv6CP as well", NULL },
	{ "vlan", 'v', "ID", "802.1Q tag on IFACE, 1 to " CLI_STR(MAX_VLAN_ID), "untagged" },
	{ "mode", OPT_MODE, "M",
	  "data path: auto, xdp (native XDP), afxdp (AF_XDP engine), generic (skb-mode XDP) or "
	  "tc (tc programs on the skb, no XDP)",
	  "auto" },
	{ "rx", OPT_RX, "H",
	  "the receive half's programs, for measuring every combination: xdp (decapsulate in "
	  "XDP), tc (in tc ingress) or xdp-pass (in XDP, then the WAN port's GRO, then tc)",
	  "the mode's" },
	{ "tx", OPT_TX, "H",
	  "the transmit half's programs: xdp (encapsulate in XDP on pxp0's hidden peer) or tc "
	  "(in tc egress on pxp0)",
	  "the mode's" },
	{ "cpus", OPT_CPUS, "N",
	  "software RSS: decapsulate on CPUs 0..N-1 by the inner flow hash (modes xdp and "
	  "generic)",
	  "off" },
	{ "foreground", 'f', NULL, "stay attached and log to stderr", "detach, log to syslog" },
	{ "debug", OPT_DEBUG, NULL, "debug logging", NULL },
	{ NULL },
};

static const struct cli_option up_options[] = {
	{ "user", 'u', "U", "PAP/CHAP/MS-CHAPv2 user name", "empty" },
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
	{ "defaultroute", OPT_DEFAULTROUTE, NULL, "IPv4 default route via the session netdev",
	  NULL },
	{ "usepeerdns", OPT_USEPEERDNS, NULL, "write the AC's DNS servers to the resolv file",
	  NULL },
	{ "resolv-file", OPT_RESOLV_FILE, "F",
	  "a shared resolv.conf (absolute path) --usepeerdns adds its marked lines to and takes "
	  "only those out of",
	  "RUN_DIR/IFACE.resolv.conf" },
	{ "vlan-pcp", OPT_VLAN_PCP, "N", "priority of the --vlan tag, 0 to 7", "0" },
	{ "ipparam", OPT_IPPARAM, "TEXT",
	  "pppd's ipparam: the 6th argument of ip-up and the other scripts", "empty" },
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
	{ "dns", OPT_DNS, "IP", "a DNS server offered in IPCP (up to " CLI_STR(PXP_MAX_DNS) ")",
	  "none" },
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
	d->log_level = PXP_LOG_INFO;
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
	case OPT_RX:
		return parse_half("--rx", true, arg, &d->rx_half);
	case OPT_TX:
		return parse_half("--tx", false, arg, &d->tx_half);
	case 'f':
		d->foreground = true;
		return 0;
	case OPT_DEBUG:
		d->log_level = PXP_LOG_DEBUG;
		return 0;
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

int config_parse_up(int argc, char **argv, struct client_settings *o)
{
	struct cli_getopt g;
	bool have_password = false, have_pcp = false;
	unsigned int v;
	int c, err;

	memset(o, 0, sizeof(*o));
	daemon_defaults(&o->common);
	strcpy(o->ifname, PXP_DEFAULT_SESSION_IFNAME);
	o->maxfail = PXP_DEFAULT_MAXFAIL;
	o->holdoff_s = PXP_DEFAULT_HOLDOFF_S;
	cli_getopt_init(&g, &config_up_options);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		err = parse_daemon_option(c, optarg, &o->common);
		if (err <= 0) {
			if (err)
				return err;
			continue;
		}
		switch (c) {
		case 'u':
			if (copy_name("--user", optarg, o->user, sizeof(o->user)))
				return -EINVAL;
			break;
		case 'p':
			if (have_password)
				return bad("--password", "...", "password given twice");
			if (strlen(optarg) > PPP_SECRET_MAX)
				return bad("--password", "...", "longer than 255 bytes");
			o->password_len = strlen(optarg);
			memcpy(o->password, optarg, o->password_len);
			/* Keep the secret out of ps(1) and /proc/PID/cmdline. */
			explicit_bzero(optarg, o->password_len);
			have_password = true;
			break;
		case OPT_PASSWORD_FILE:
			if (have_password)
				return bad("--password-file", optarg, "password given twice");
			err = read_password_file(optarg, o);
			if (err)
				return err;
			have_password = true;
			break;
		case 'a':
			if (copy_name("--ac", optarg, o->ac_name, sizeof(o->ac_name)))
				return -EINVAL;
			break;
		case OPT_AC_MAC:
			if (pxp_mac_parse(optarg, o->ac_mac))
				return bad("--ac-mac", optarg,
					   "expected a MAC like 02:00:00:00:00:01");
			o->match_ac_mac = true;
			break;
		case OPT_HOST_UNIQ:
			if (config_parse_hex(optarg, o->host_uniq, sizeof(o->host_uniq),
					     &o->host_uniq_len))
				return bad("--host-uniq", optarg,
					   "expected 1..64 bytes in hex, e.g. 0a1b2c3d");
			break;
		case 'm':
			if (config_parse_uint(optarg, PXP_MTU_MIN, PXP_MTU_MAX, &o->mtu)) {
				pxp_err("--mtu '%s': must be a number from %u to %u", optarg,
					PXP_MTU_MIN, PXP_MTU_MAX);
				return -EINVAL;
			}
			break;
		case OPT_PADI_ATTEMPTS:
			if (config_parse_uint(optarg, 1, 100, &o->padi_attempts))
				return bad("--padi-attempts", optarg, "must be 1 to 100");
			break;
		case OPT_PADI_TIMEOUT:
			if (config_parse_uint(optarg, 1, DISC_MAX_TIMEOUT_MS / 1000, &v))
				return bad("--padi-timeout", optarg, "must be 1 to 60 seconds");
			o->padi_timeout_ms = v * 1000;
			break;
		case OPT_IFNAME:
			if (config_parse_ifname(optarg, o->ifname))
				return bad("--ifname", optarg, "not a valid interface name");
			break;
		case OPT_KEEPALIVE_ADAPTIVE:
			o->keepalive_adaptive = true;
			break;
		case 'P':
			o->persist = true;
			break;
		case OPT_MAXFAIL:
			if (config_parse_uint(optarg, 0, 1000000, &o->maxfail))
				return bad("--maxfail", optarg, "must be a number (0 = no limit)");
			break;
		case OPT_HOLDOFF:
			if (config_parse_uint(optarg, 0, 86400, &o->holdoff_s))
				return bad("--holdoff", optarg, "must be 0..86400 seconds");
			break;
		case OPT_DEFAULTROUTE:
			o->defaultroute = true;
			break;
		case OPT_USEPEERDNS:
			o->usepeerdns = true;
			break;
		case OPT_RESOLV_FILE:
			/* The daemon runs in / (daemon_fork()): a relative path would move. */
			if (optarg[0] != '/')
				return bad("--resolv-file", optarg, "must be an absolute path");
			if (copy_name("--resolv-file", optarg, o->resolv_file,
				      sizeof(o->resolv_file)))
				return -EINVAL;
			break;
		case OPT_VLAN_PCP:
			if (config_parse_uint(optarg, 0, 7, &v))
				return bad("--vlan-pcp", optarg, "must be a priority from 0 to 7");
			o->vlan_pcp = (uint8_t)v;
			have_pcp = true;
			break;
		case OPT_IPPARAM:
			if (copy_name("--ipparam", optarg, o->ipparam, sizeof(o->ipparam)))
				return -EINVAL;
			break;
		default:
			return bad(argv[0], argv[optind - 1], "unknown option or missing value");
		}
	}
	err = finish_daemon_options(argc, argv, o->iface, &o->common);
	if (err)
		return err;
	if (have_pcp && !o->common.vlan_id)
		return bad("--vlan-pcp", "", "needs --vlan");
	if (!strcmp(o->ifname, o->iface))
		return bad("--ifname", o->ifname, "must differ from the WAN interface");
	if (o->user[0] && !have_password)
		pxp_warn("--user '%s' without --password or --password-file: "
			 "authenticating with an empty password",
			 o->user);
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

int config_parse_server(int argc, char **argv, struct server_settings *o)
{
	struct cli_getopt g;
	unsigned int dns_count = 0;
	bool have_pool = false;
	uint32_t local_host;
	int c, err;

	memset(o, 0, sizeof(*o));
	daemon_defaults(&o->common);
	o->auth = PPP_AUTH_PAP;
	o->max_sessions = PXP_DEFAULT_MAX_SESSIONS;
	cli_getopt_init(&g, &config_server_options);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		err = parse_daemon_option(c, optarg, &o->common);
		if (err <= 0) {
			if (err)
				return err;
			continue;
		}
		switch (c) {
		case OPT_LOCAL:
			err = parse_ipv4("--local", optarg, &o->local_ip);
			if (err)
				return err;
			break;
		case OPT_POOL:
			err = parse_pool(optarg, o);
			if (err)
				return err;
			have_pool = true;
			break;
		case OPT_AC_NAME:
			if (copy_name("--ac-name", optarg, o->ac_name, sizeof(o->ac_name)))
				return -EINVAL;
			break;
		case OPT_AUTH:
			err = parse_auth(optarg, &o->auth);
			if (err)
				return err;
			break;
		case OPT_SECRETS:
			if (copy_name("--secrets", optarg, o->secrets_file,
				      sizeof(o->secrets_file)))
				return -EINVAL;
			break;
		case OPT_MAX_SESSIONS:
			if (config_parse_uint(optarg, 1, DISC_AC_MAX_SESSIONS, &o->max_sessions))
				return bad("--max-sessions", optarg, "must be 1 to 1024");
			break;
		case OPT_DNS:
			if (dns_count == PXP_MAX_DNS)
				return bad("--dns", optarg, "at most two DNS servers");
			err = parse_ipv4("--dns", optarg, &o->dns[dns_count]);
			if (err)
				return err;
			dns_count++;
			break;
		default:
			return bad(argv[0], argv[optind - 1], "unknown option or missing value");
		}
	}
	err = finish_daemon_options(argc, argv, o->iface, &o->common);
	if (err)
		return err;
	if (!o->local_ip) {
		pxp_err("server: --local IP is required");
		return -EINVAL;
	}
	if (!have_pool) {
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

int config_parse_down(int argc, char **argv, struct down_options *o)
{
	struct cli_getopt g;

	memset(o, 0, sizeof(*o));
	cli_getopt_init(&g, &config_down_options);
	optind = 0;
	opterr = 0;
	if (getopt_long(argc, argv, g.shortopts, g.longopts, NULL) != -1)
		return bad(argv[0], argv[optind - 1], "unknown option");
	return take_iface(argc, argv, o->iface, false);
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

int config_parse_status(int argc, char **argv, struct status_options *o)
{
	struct cli_getopt g;
	int c;

	memset(o, 0, sizeof(*o));
	cli_getopt_init(&g, &config_status_options);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (c != 'j')
			return bad(argv[0], argv[optind - 1], "unknown option");
		o->json = true;
	}
	return take_iface(argc, argv, o->iface, true);
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

int config_parse_stats(int argc, char **argv, struct stats_options *o)
{
	struct cli_getopt g;
	int c, err;

	memset(o, 0, sizeof(*o));
	o->interval_ms = PXP_STATS_DEFAULT_INTERVAL_MS;
	cli_getopt_init(&g, &config_stats_options);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			o->json = true;
			break;
		case OPT_WATCH:
			o->watch = true;
			break;
		case OPT_INTERVAL:
			if (config_parse_seconds(optarg, 100, 3600 * 1000, &o->interval_ms))
				return bad("--interval", optarg,
					   "must be seconds from 0.1 to 3600, e.g. 0.5");
			break;
		default:
			return bad(argv[0], argv[optind - 1], "unknown option");
		}
	}
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

int config_parse_discover(int argc, char **argv, struct discover_options *o)
{
	struct cli_getopt g;
	unsigned int v;
	int c;

	memset(o, 0, sizeof(*o));
	o->timeout_ms = PXP_DISCOVER_DEFAULT_TIMEOUT_MS;
	cli_getopt_init(&g, &config_discover_options);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		switch (c) {
		case OPT_TIMEOUT:
			if (config_parse_uint(optarg, 1, 60, &v))
				return bad("--timeout", optarg, "must be 1 to 60 seconds");
			o->timeout_ms = v * 1000;
			break;
		case 'v':
			if (config_parse_uint(optarg, 1, MAX_VLAN_ID, &v))
				return bad("--vlan", optarg, "must be a VLAN id from 1 to 4094");
			o->vlan_id = (uint16_t)v;
			break;
		default:
			return bad(argv[0], argv[optind - 1], "unknown option or missing value");
		}
	}
	return take_iface(argc, argv, o->iface, false);
}
