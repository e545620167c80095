/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line options of the daemon's subcommands, declared once per subcommand in a
 * table (options.h: getopt, --help and the man page come from it), parsed and validated into
 * one options struct per subcommand. Every rejection names the option and the bad value, e.g.
 * "--mtu 1600: must be between 576 and 1500". Option names follow pppd and OpenWrt.
 *
 * Concurrency: called once at start-up.
 */
#ifndef PXP_CONFIG_H
#define PXP_CONFIG_H

#include <limits.h>
#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "log.h"
#include "options.h"
#include "settings.h"
#include "wg_device.h"

/* Defaults the parser fills in. */
#define PXP_DEFAULT_SESSION_IFNAME	 "pxp0"
#define PXP_DEFAULT_KEEPALIVE_INTERVAL_S 10
#define PXP_DEFAULT_KEEPALIVE_FAILURES	 3
/* --keepalive FAILURES alone: OpenWrt's interval. */
#define PXP_KEEPALIVE_INTERVAL_ALONE_S	 5
#define PXP_DEFAULT_MAXFAIL		 10
#define PXP_DEFAULT_HOLDOFF_S		 5
/* --metric: the kernel keeps a route's priority in 32 bits. */
#define PXP_ROUTE_METRIC_MAX		 4294967295
#define PXP_DEFAULT_MAX_SESSIONS	 64
#define PXP_DISCOVER_DEFAULT_TIMEOUT_MS	 3000
/* The AC's router advertisements: seconds between unsolicited ones (RFC 4861's default). */
#define PXP_DEFAULT_RA_INTERVAL_S	 600
/* The server's --secrets by its --auth, as pppd's. */
#define PXP_PAP_SECRETS			 "/etc/ppp/pap-secrets"
#define PXP_CHAP_SECRETS		 "/etc/ppp/chap-secrets"

struct down_options {
	char iface[IF_NAMESIZE];
};

struct status_options {
	char iface[IF_NAMESIZE]; /* "" = every running instance */
	bool json;
};

/* pppoe-xp stats [IFACE] [--watch] [--interval SECONDS] [--json] */
struct stats_options {
	char iface[IF_NAMESIZE]; /* "" = every running instance (not with --watch) */
	bool watch;
	unsigned int interval_ms; /* between views with --watch */
	bool json;
};

#define PXP_STATS_DEFAULT_INTERVAL_MS 1000

struct discover_options {
	char iface[IF_NAMESIZE];
	unsigned int timeout_ms;
	uint16_t vlan_id;
};

/* Each subcommand's options, for its --help and the man page. */
extern const struct cli_options config_up_options, config_server_options, config_down_options,
	config_status_options, config_stats_options, config_discover_options, config_wg_options;

/* Each returns 0 or -EINVAL after logging what was wrong; argv[0] is the subcommand. */
int config_parse_up(int argc, char **argv, struct client_settings *o);
int config_parse_server(int argc, char **argv, struct server_settings *o);
int config_parse_down(int argc, char **argv, struct down_options *o);
int config_parse_status(int argc, char **argv, struct status_options *o);
int config_parse_discover(int argc, char **argv, struct discover_options *o);
int config_parse_stats(int argc, char **argv, struct stats_options *o);
int config_parse_wg(int argc, char **argv, struct wg_device_settings *o);
/* Seconds with up to three decimals ("0.5", "2") into ms within [min_ms, max_ms]. */
int config_parse_seconds(const char *s, unsigned int min_ms, unsigned int max_ms, unsigned int *ms);

/* Small validated parsers, exported for unit tests. 0 or -EINVAL. */
int config_parse_uint(const char *s, unsigned int min, unsigned int max, unsigned int *out);
int config_parse_hex(const char *s, uint8_t *out, size_t cap, size_t *len);
int config_parse_cidr(const char *s, uint32_t *net_host_order, unsigned int *prefix);
/* An IPv6 prefix "2001:db8::/48" with no host bits set; its length from 1 to max_len. */
int config_parse_cidr6(const char *s, unsigned int max_len, uint8_t prefix[16], unsigned int *len);
int config_parse_ifname(const char *s, char out[IF_NAMESIZE]);

#endif
