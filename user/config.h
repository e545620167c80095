/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line options of the daemon's subcommands, parsed and validated into one options
 * struct per subcommand. Every rejection names the option and the bad value, e.g.
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

#include "datapath.h"
#include "discovery.h"
#include "log.h"
#include "ppp_types.h"

/* Where control sockets, session records and resolv files live. PPPOE_XP_RUN_DIR in the
 * environment overrides it (tests run several daemons on equally named ports). */
#define PXP_RUN_DIR			 "/run/pppoe-xp"
#define PXP_RUN_DIR_ENV			 "PPPOE_XP_RUN_DIR"
#define PXP_DEFAULT_SESSION_IFNAME	 "pxp0"
#define PXP_DEFAULT_KEEPALIVE_INTERVAL_S 10
#define PXP_DEFAULT_KEEPALIVE_FAILURES	 3
#define PXP_DEFAULT_MAXFAIL		 10
#define PXP_DEFAULT_HOLDOFF_S		 5
#define PXP_MIN_MTU			 576
#define PXP_MAX_DNS			 2

/* What up and server share: one parser, so both spell and check these alike. */
struct daemon_options {
	char service[DISC_NAME_MAX + 1];   /* up: "" = any service; server: the one offered */
	uint16_t vlan_id;		   /* 0 = untagged */
	unsigned int keepalive_interval_s; /* 0 = no LCP echo */
	unsigned int keepalive_failures;
	bool ipv6;
	bool foreground;
	enum pxp_dp_mode mode;
	unsigned int nr_cpus; /* spread decapsulation over CPUs 0..nr_cpus-1; 0 = off */
	enum pxp_log_level log_level;
};

/* pppoe-xp up IFACE ... */
struct up_options {
	char iface[IF_NAMESIZE];
	struct daemon_options common;
	char user[PPP_NAME_MAX + 1];
	uint8_t password[PPP_SECRET_MAX]; /* wiped by up_options_wipe() */
	size_t password_len;
	char ac_name[DISC_NAME_MAX + 1]; /* "" = any AC */
	bool match_ac_mac;
	uint8_t ac_mac[PXP_ETH_ALEN];
	uint8_t host_uniq[DISC_HOST_UNIQ_MAX];
	size_t host_uniq_len;	      /* 0 = random */
	unsigned int mtu;	      /* 0 = as negotiated (1492, or more with RFC 4638) */
	unsigned int padi_attempts;   /* 0 = DISC_DEFAULT_ATTEMPTS */
	unsigned int padi_timeout_ms; /* first PADI timeout, doubling; 0 = the default */
	char ifname[IF_NAMESIZE];
	bool keepalive_adaptive; /* no Echo-Request while the session receives data */
	bool persist;
	unsigned int maxfail; /* 0 = retry for ever */
	unsigned int holdoff_s;
	bool defaultroute;
	bool usepeerdns;
	char resolv_file[PATH_MAX];
	uint8_t vlan_pcp;
};

/* pppoe-xp server IFACE ... */
struct server_options {
	char iface[IF_NAMESIZE];
	struct daemon_options common;
	uint32_t local_ip;   /* network order */
	uint32_t pool_first; /* host order: first and last address handed out */
	uint32_t pool_last;
	char pool_text[32];
	char ac_name[DISC_NAME_MAX + 1];
	enum ppp_auth_proto auth;
	char secrets_file[PATH_MAX];
	unsigned int max_sessions;
	uint32_t dns[PXP_MAX_DNS]; /* network order, 0 = unused */
};

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

/* Each returns 0 or -EINVAL after logging what was wrong; argv[0] is the subcommand. */
int config_parse_up(int argc, char **argv, struct up_options *o);
int config_parse_server(int argc, char **argv, struct server_options *o);
int config_parse_down(int argc, char **argv, struct down_options *o);
int config_parse_status(int argc, char **argv, struct status_options *o);
int config_parse_discover(int argc, char **argv, struct discover_options *o);
int config_parse_stats(int argc, char **argv, struct stats_options *o);
/* Seconds with up to three decimals ("0.5", "2") into ms within [min_ms, max_ms]. */
int config_parse_seconds(const char *s, unsigned int min_ms, unsigned int max_ms, unsigned int *ms);

void up_options_wipe(struct up_options *o);
/* PXP_RUN_DIR or its override; created (0700) by pxp_run_dir_create(). */
const char *pxp_run_dir(void);
int pxp_run_dir_create(void);

/* Small validated parsers, exported for unit tests. 0 or -EINVAL. */
int config_parse_uint(const char *s, unsigned int min, unsigned int max, unsigned int *out);
int config_parse_mac(const char *s, uint8_t mac[PXP_ETH_ALEN]);
int config_parse_hex(const char *s, uint8_t *out, size_t cap, size_t *len);
int config_parse_cidr(const char *s, uint32_t *net_host_order, unsigned int *prefix);
int config_parse_ifname(const char *s, char out[IF_NAMESIZE]);

#endif
