/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the daemon is told to do: plain settings structs, filled in by whoever starts it (the
 * CLI's option parser, a test, later netifd's handler) and validated there. The daemon reads
 * them and never parses options itself.
 */
#ifndef PXP_SETTINGS_H
#define PXP_SETTINGS_H

#include <limits.h>
#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "datapath.h"
#include "discovery.h"
#include "hooks.h"
#include "log.h"
#include "ppp_types.h"

#define PXP_MAX_DNS	2
/* pppd's ipparam: the 6th argument of the ip-up family of scripts (hooks.h). */
#define PXP_IPPARAM_MAX 255

/* What the client and the server share. */
struct daemon_settings {
	char service[DISC_NAME_MAX + 1];   /* up: "" = any service; server: the one offered */
	uint16_t vlan_id;		   /* 0 = untagged */
	unsigned int keepalive_interval_s; /* 0 = no LCP echo */
	unsigned int keepalive_failures;
	bool ipv6;
	bool foreground;
	enum pxp_dp_mode mode;
	enum pxp_dp_half rx_half, tx_half; /* the programs of each half; default: the mode's */
	enum pxp_dp_netdev netdev;	   /* the session netdevs' kind (--netdev) */
	unsigned int nr_cpus; /* spread decapsulation over CPUs 0..nr_cpus-1; 0 = off */
	struct pxp_dp_cpu_list afxdp_cpus; /* mode afxdp: the workers' CPUs; nr 0 = default */
	enum pxp_log_level log_level;
	char logfile[PATH_MAX]; /* "" = none; opened by the CLI (pxp_log_open_file) */
};

/* The client: one session on one WAN port (`pppoe-xp up IFACE ...`). */
struct client_settings {
	char iface[IF_NAMESIZE];
	struct daemon_settings common;
	char user[PPP_NAME_MAX + 1];
	uint8_t password[PPP_SECRET_MAX]; /* wiped once the PPP link holds its copy */
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
	bool defaultroute;	  /* IPv4, unless a default route exists (pppd's rule) */
	bool replacedefaultroute; /* with defaultroute: replace it, restore it at the end */
	bool defaultroute6;	  /* IPv6 (::/0), unless a default route exists */
	int64_t metric;		  /* of the default routes we add; -1 = none (pppd's default) */
	bool usepeerdns;
	char resolv_file[PATH_MAX]; /* a shared file: only our lines; "" = our own (resolv_file.h)
				     */
	uint8_t vlan_pcp;
	char ipparam[PXP_IPPARAM_MAX + 1]; /* "" = none */
	/* pppd's ip-up-script and friends, by enum hook_kind: "" = PPP_DIR's (hooks.h). */
	char hook_script[HOOK_KIND_COUNT][PATH_MAX];
};

/* The built-in access concentrator (`pppoe-xp server IFACE ...`). */
struct server_settings {
	char iface[IF_NAMESIZE];
	struct daemon_settings common;
	uint32_t local_ip;   /* network order */
	uint32_t pool_first; /* host order: first and last address handed out */
	uint32_t pool_last;
	char pool_text[32];
	char ac_name[DISC_NAME_MAX + 1];
	enum ppp_auth_proto auth;
	char secrets_file[PATH_MAX];
	unsigned int max_sessions;
	/* PADI+PADR frames a second, all and per MAC; DISC_AC_RATE_UNLIMITED = off. */
	uint32_t padi_rate, padi_rate_per_mac;
	uint32_t dns[PXP_MAX_DNS]; /* network order, 0 = unused */
	/* IPv6 (with common.ipv6); a prefix length of 0 = not configured. */
	uint8_t ipv6_pool[16]; /* one /64 of it per session, advertised for SLAAC */
	uint8_t ipv6_pool_len;
	uint8_t pd_pool[16]; /* one /pd_len of it per session, delegated by DHCPv6 */
	uint8_t pd_pool_len, pd_len;
	char ipv6_pool_text[64], pd_pool_text[64];
	uint8_t dns6[PXP_MAX_DNS][16]; /* in RAs (RDNSS) and DHCPv6 */
	unsigned int dns6_count;
	unsigned int ra_interval_s; /* between unsolicited router advertisements */
	bool ra_managed;	    /* the RA's M flag */
};

static inline void client_settings_wipe(struct client_settings *o)
{
	explicit_bzero(o->password, sizeof(o->password));
	o->password_len = 0;
}

#endif
