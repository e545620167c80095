// SPDX-License-Identifier: GPL-2.0
/* The daemon's command-line parsing: values, defaults and the rejections. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "conffile.h"
#include "hooks.h"
#include "config.h"
#include "mac.h"
#include "pxp_mtu.h"
#include "run_dir.h"
#include "wg_device.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

TEST(up_options_after_iface)
{
	char pw[] = "s3cret";
	char *argv[] = { "up",
			 "eth0",
			 "--user",
			 "alice",
			 "--password",
			 pw,
			 "--mtu",
			 "1480",
			 "--keepalive",
			 "4 5",
			 "--persist",
			 "--maxfail",
			 "0",
			 "--holdoff",
			 "2",
			 "--vlan",
			 "7",
			 "--vlan-pcp",
			 "3",
			 "--ac-mac",
			 "02:00:00:00:00:0a",
			 "--host-uniq",
			 "0xa1b2",
			 "--mode",
			 "generic",
			 "--defaultroute",
			 NULL };
	struct client_settings o;

	CHECK_EQ(config_parse_up(ARGC(argv), argv, &o), 0);
	CHECK(!strcmp(o.iface, "eth0"));
	CHECK(!strcmp(o.user, "alice"));
	CHECK_EQ(o.password_len, 6);
	CHECK_MEM(o.password, "s3cret", 6);
	/* The password no longer shows in the process's command line. */
	CHECK_EQ(pw[0], 0);
	CHECK_EQ(o.mtu, 1480);
	CHECK_EQ(o.common.keepalive_interval_s, 5);
	CHECK_EQ(o.common.keepalive_failures, 4);
	CHECK(o.persist && o.defaultroute && !o.usepeerdns);
	CHECK_EQ(o.maxfail, 0);
	CHECK_EQ(o.holdoff_s, 2);
	CHECK_EQ(o.common.vlan_id, 7);
	CHECK_EQ(o.vlan_pcp, 3);
	CHECK(o.match_ac_mac);
	CHECK_EQ(o.ac_mac[5], 0x0a);
	CHECK_EQ(o.host_uniq_len, 2);
	CHECK_EQ(o.host_uniq[1], 0xb2);
	CHECK_EQ(o.common.mode, PXP_DP_GENERIC);
	CHECK(!strcmp(o.ifname, "pxp0"));
	client_settings_wipe(&o);
	CHECK_EQ(o.password[0], 0);
}

TEST(up_defaults)
{
	char *argv[] = { "up", "wan", NULL };
	struct client_settings o;

	CHECK_EQ(config_parse_up(ARGC(argv), argv, &o), 0);
	CHECK_EQ(o.common.keepalive_interval_s, PXP_DEFAULT_KEEPALIVE_INTERVAL_S);
	CHECK_EQ(o.maxfail, PXP_DEFAULT_MAXFAIL);
	CHECK_EQ(o.mtu, 0);
	CHECK_EQ(o.common.vlan_id, 0);
	CHECK_EQ(o.resolv_file[0], '\0'); /* our own RUN_DIR/wan.resolv.conf */
}

static int parse_up(char **argv, int argc)
{
	struct client_settings o;

	return config_parse_up(argc, argv, &o);
}

/* include/pxp_mtu.h: --mtu takes its range's edges, the data path the WAN MTU minus 8. */
TEST(mtu_range_edges)
{
	char lo[8], hi[8];
	char *at_min[] = { "up", "eth0", "--mtu", lo, NULL };
	char *at_max[] = { "up", "eth0", "--mtu", hi, NULL };
	struct client_settings o;

	snprintf(lo, sizeof(lo), "%d", PXP_MTU_MIN - 1);
	snprintf(hi, sizeof(hi), "%d", PXP_MTU_MAX + 1);
	CHECK_EQ(config_parse_up(ARGC(at_min), at_min, &o), -EINVAL);
	CHECK_EQ(config_parse_up(ARGC(at_max), at_max, &o), -EINVAL);
	snprintf(lo, sizeof(lo), "%d", PXP_MTU_MIN);
	snprintf(hi, sizeof(hi), "%d", PXP_MTU_MAX);
	CHECK_EQ(config_parse_up(ARGC(at_min), at_min, &o), 0);
	CHECK_EQ(o.mtu, PXP_MTU_MIN);
	CHECK_EQ(config_parse_up(ARGC(at_max), at_max, &o), 0);
	CHECK_EQ(o.mtu, PXP_MTU_MAX);
	CHECK(pxp_mtu_fits(1492, PXP_MTU_MIN, 1500));
	CHECK(!pxp_mtu_fits(1493, PXP_MTU_MIN, 1500));
	CHECK(pxp_mtu_fits(PXP_MTU_MIN_IP, PXP_MTU_MIN_IP, 1500));
	CHECK(!pxp_mtu_fits(PXP_MTU_MIN_IP - 1, PXP_MTU_MIN_IP, 1500));
}

/* pppd's defaultroute family; --metric's range is the kernel's 32-bit priority. */
TEST(route_options)
{
	char *all[] = { "up",
			"eth0",
			"--defaultroute",
			"--replacedefaultroute",
			"--ipv6",
			"--defaultroute6",
			"--metric",
			"4294967295",
			NULL };
	char *none[] = { "up", "eth0", NULL };
	char *over[] = { "up", "eth0", "--defaultroute", "--metric", "4294967296", NULL };
	char *neg[] = { "up", "eth0", "--defaultroute", "--metric", "-1", NULL };
	char *v6_alone[] = { "up", "eth0", "--defaultroute6", NULL };
	struct client_settings o;

	CHECK_EQ(config_parse_up(ARGC(all), all, &o), 0);
	CHECK(o.defaultroute && o.replacedefaultroute && o.defaultroute6);
	CHECK_EQ(o.metric, 4294967295LL);
	CHECK_EQ(config_parse_up(ARGC(none), none, &o), 0);
	CHECK(!o.defaultroute && !o.replacedefaultroute && !o.defaultroute6);
	CHECK_EQ(o.metric, -1);
	CHECK_EQ(config_parse_up(ARGC(over), over, &o), -EINVAL);
	CHECK_EQ(config_parse_up(ARGC(neg), neg, &o), -EINVAL);
	CHECK_EQ(config_parse_up(ARGC(v6_alone), v6_alone, &o), -EINVAL);
}

TEST(up_rejections)
{
	char *no_iface[] = { "up", "--persist", NULL };
	char *two_ifaces[] = { "up", "eth0", "eth1", NULL };
	char *mtu[] = { "up", "eth0", "--mtu", "1600x", NULL };
	char *mtu_small[] = { "up", "eth0", "--mtu", "100", NULL };
	char *vlan[] = { "up", "eth0", "--vlan", "4095", NULL };
	char *pcp[] = { "up", "eth0", "--vlan-pcp", "2", NULL };
	char *mac[] = { "up", "eth0", "--ac-mac", "02:00:00:00:00", NULL };
	char *uniq[] = { "up", "eth0", "--host-uniq", "abc", NULL };
	char *keepalive[] = { "up", "eth0", "--keepalive", "5 x", NULL };
	char *mode[] = { "up", "eth0", "--mode", "turbo", NULL };
	char *same[] = { "up", "pxp0", NULL };
	char *unknown[] = { "up", "eth0", "--bogus", NULL };
	char *long_ifname[] = { "up", "eth0", "--ifname", "abcdefghijklmnopq", NULL };
	char *cpus_zero[] = { "up", "eth0", "--cpus", "0", NULL };
	char *cpus_many[] = { "up", "eth0", "--cpus", "65", NULL };
	char *cpus_afxdp[] = { "up", "eth0", "--cpus", "2", "--mode", "afxdp", NULL };
	char *resolv_relative[] = { "up", "eth0", "--resolv-file", "resolv.conf", NULL };
	char *tx_pass[] = { "up", "eth0", "--tx", "xdp-pass", NULL };
	char *rx_bogus[] = { "up", "eth0", "--rx", "default", NULL };
	char *halves_afxdp[] = { "up", "eth0", "--mode", "afxdp", "--tx", "tc", NULL };
	char *cpus_tc[] = { "up", "eth0", "--mode", "tc", "--cpus", "2", NULL };
	char *cpus_rx_tc[] = { "up", "eth0", "--rx", "tc", "--cpus", "2", NULL };
	char *netdev_bogus[] = { "up", "eth0", "--netdev", "tun", NULL };
	char *script_relative[] = { "up", "eth0", "--ipv6-down-script", "ppp-down", NULL };

	CHECK_EQ(parse_up(script_relative, ARGC(script_relative)), -EINVAL);
	CHECK_EQ(parse_up(tx_pass, ARGC(tx_pass)), -EINVAL);
	CHECK_EQ(parse_up(rx_bogus, ARGC(rx_bogus)), -EINVAL);
	CHECK_EQ(parse_up(halves_afxdp, ARGC(halves_afxdp)), -EINVAL);
	CHECK_EQ(parse_up(cpus_tc, ARGC(cpus_tc)), -EINVAL);
	CHECK_EQ(parse_up(cpus_rx_tc, ARGC(cpus_rx_tc)), -EINVAL);
	CHECK_EQ(parse_up(netdev_bogus, ARGC(netdev_bogus)), -EINVAL);
	CHECK_EQ(parse_up(no_iface, ARGC(no_iface)), -EINVAL);
	CHECK_EQ(parse_up(two_ifaces, ARGC(two_ifaces)), -EINVAL);
	CHECK_EQ(parse_up(mtu, ARGC(mtu)), -EINVAL);
	CHECK_EQ(parse_up(mtu_small, ARGC(mtu_small)), -EINVAL);
	CHECK_EQ(parse_up(vlan, ARGC(vlan)), -EINVAL);
	CHECK_EQ(parse_up(pcp, ARGC(pcp)), -EINVAL);
	CHECK_EQ(parse_up(mac, ARGC(mac)), -EINVAL);
	CHECK_EQ(parse_up(uniq, ARGC(uniq)), -EINVAL);
	CHECK_EQ(parse_up(keepalive, ARGC(keepalive)), -EINVAL);
	CHECK_EQ(parse_up(mode, ARGC(mode)), -EINVAL);
	CHECK_EQ(parse_up(same, ARGC(same)), -EINVAL);
	CHECK_EQ(parse_up(unknown, ARGC(unknown)), -EINVAL);
	CHECK_EQ(parse_up(long_ifname, ARGC(long_ifname)), -EINVAL);
	CHECK_EQ(parse_up(cpus_zero, ARGC(cpus_zero)), -EINVAL);
	CHECK_EQ(parse_up(cpus_many, ARGC(cpus_many)), -EINVAL);
	CHECK_EQ(parse_up(cpus_afxdp, ARGC(cpus_afxdp)), -EINVAL);
	CHECK_EQ(parse_up(resolv_relative, ARGC(resolv_relative)), -EINVAL);
}

/* pppd's ip-up-script and friends, each into its hook kind's slot; unset ones stay "". */
TEST(hook_script_options)
{
	char *argv[] = { "up",
			 "eth0",
			 "--ip-up-script",
			 "/lib/netifd/pppoe-xp-up",
			 "--ipv6-down-script",
			 "/lib/netifd/pppoe-xp-down",
			 NULL };
	struct client_settings o;

	CHECK_EQ(config_parse_up(ARGC(argv), argv, &o), 0);
	CHECK(!strcmp(o.hook_script[HOOK_IP_UP], "/lib/netifd/pppoe-xp-up"));
	CHECK(!strcmp(o.hook_script[HOOK_IPV6_DOWN], "/lib/netifd/pppoe-xp-down"));
	CHECK(!o.hook_script[HOOK_IP_DOWN][0] && !o.hook_script[HOOK_IPV6_UP][0]);
}

TEST(server_pool_skips_local_and_ends)
{
	char *argv[] = { "server",	  "isp0",     "--local", "100.64.1.1", "--pool",
			 "100.64.1.0/29", "--dns",    "9.9.9.9", "--dns",      "1.1.1.1",
			 "--auth",	  "mschapv2", NULL };
	struct server_settings o;

	CHECK_EQ(config_parse_server(ARGC(argv), argv, &o), 0);
	/* .0 is the network, .7 the broadcast, .1 our own address. */
	CHECK_EQ(o.pool_first, ntohl(inet_addr("100.64.1.2")));
	CHECK_EQ(o.pool_last, ntohl(inet_addr("100.64.1.6")));
	CHECK_EQ(o.auth, PPP_AUTH_MSCHAPV2);
	CHECK_EQ(o.dns[0], inet_addr("9.9.9.9"));
	CHECK_EQ(o.dns[1], inet_addr("1.1.1.1"));
	CHECK(!strcmp(o.secrets_file, "/etc/ppp/chap-secrets"));
}

TEST(server_rejections)
{
	char *no_local[] = { "server", "isp0", "--pool", "10.0.0.0/24", NULL };
	char *host_bits[] = {
		"server", "isp0", "--local", "10.0.0.1", "--pool", "10.0.0.1/24", NULL
	};
	char *tiny[] = { "server", "isp0", "--local", "10.0.0.1", "--pool", "10.0.0.0/31", NULL };
	char *dns3[] = { "server",	"isp0",	   "--local", "10.0.0.1", "--pool",
			 "10.0.0.0/24", "--dns",   "1.1.1.1", "--dns",	  "1.0.0.1",
			 "--dns",	"8.8.8.8", NULL };
	char *auth[] = { "server",	"isp0",	  "--local", "10.0.0.1", "--pool",
			 "10.0.0.0/24", "--auth", "eap",     NULL };
	struct server_settings o;

	CHECK_EQ(config_parse_server(ARGC(no_local), no_local, &o), -EINVAL);
	CHECK_EQ(config_parse_server(ARGC(host_bits), host_bits, &o), -EINVAL);
	CHECK_EQ(config_parse_server(ARGC(tiny), tiny, &o), -EINVAL);
	CHECK_EQ(config_parse_server(ARGC(dns3), dns3, &o), -EINVAL);
	CHECK_EQ(config_parse_server(ARGC(auth), auth, &o), -EINVAL);
}

/* The discovery rate limits: defaults, a value, 0 = unlimited, out of range refused. */
TEST(server_padi_rates)
{
	char *plain[] = { "server", "isp0", "--local", "10.0.0.1", "--pool", "10.0.0.0/24", NULL };
	char *set[] = { "server",      "isp0",	 "--local",
			"10.0.0.1",    "--pool", "10.0.0.0/24",
			"--padi-rate", "0",	 "--padi-rate-per-mac",
			"7",	       NULL };
	char *big[] = { "server",      "isp0",	      "--local", "10.0.0.1", "--pool",
			"10.0.0.0/24", "--padi-rate", "1000001", NULL };
	char *neg[] = { "server",
			"isp0",
			"--local",
			"10.0.0.1",
			"--pool",
			"10.0.0.0/24",
			"--padi-rate-per-mac",
			"-1",
			NULL };
	struct server_settings o;

	CHECK_EQ(config_parse_server(ARGC(plain), plain, &o), 0);
	CHECK_EQ(o.padi_rate, DISC_AC_DEFAULT_RATE);
	CHECK_EQ(o.padi_rate_per_mac, DISC_AC_DEFAULT_RATE_PER_MAC);
	CHECK_EQ(config_parse_server(ARGC(set), set, &o), 0);
	CHECK_EQ(o.padi_rate, DISC_AC_RATE_UNLIMITED);
	CHECK_EQ(o.padi_rate_per_mac, 7);
	CHECK_EQ(config_parse_server(ARGC(big), big, &o), -EINVAL);
	CHECK_EQ(config_parse_server(ARGC(neg), neg, &o), -EINVAL);
}

TEST(server_ipv6_options)
{
	char *argv[] = { "server",
			 "isp0",
			 "--local",
			 "10.0.0.1",
			 "--pool",
			 "10.0.0.0/24",
			 "--ipv6",
			 "--ipv6-pool",
			 "2001:db8:1::/48",
			 "--pd-pool",
			 "2001:db8:100::/40,56",
			 "--dns6",
			 "2001:db8::53",
			 "--ra-interval",
			 "200",
			 "--ra-managed",
			 NULL };
	char *no_ipv6[] = { "server",	   "isp0",	"--local",	    "10.0.0.1", "--pool",
			    "10.0.0.0/24", "--pd-pool", "2001:db8::/40,56", NULL };
	char *host_bits[] = { "server",	     "isp0",   "--local",     "10.0.0.1",	  "--pool",
			      "10.0.0.0/24", "--ipv6", "--ipv6-pool", "2001:db8:1::1/48", NULL };
	char *pd_short[] = { "server",	    "isp0",   "--local",   "10.0.0.1",	       "--pool",
			     "10.0.0.0/24", "--ipv6", "--pd-pool", "2001:db8::/48,40", NULL };
	char *pd_nolen[] = { "server",	    "isp0",   "--local",   "10.0.0.1",	    "--pool",
			     "10.0.0.0/24", "--ipv6", "--pd-pool", "2001:db8::/48", NULL };
	char *interval[] = { "server",	    "isp0",   "--local",       "10.0.0.1", "--pool",
			     "10.0.0.0/24", "--ipv6", "--ra-interval", "3",	   NULL };
	struct server_settings o;

	CHECK_EQ(config_parse_server(ARGC(argv), argv, &o), 0);
	CHECK_EQ(o.ipv6_pool_len, 48);
	CHECK(o.ipv6_pool[0] == 0x20 && o.ipv6_pool[5] == 1 && o.ipv6_pool[6] == 0);
	CHECK_EQ(o.pd_pool_len, 40);
	CHECK_EQ(o.pd_len, 56);
	CHECK_EQ(o.pd_pool[5], 0);
	CHECK_EQ(o.pd_pool[4], 1);
	CHECK_EQ(o.dns6_count, 1);
	CHECK_EQ(o.dns6[0][15], 0x53);
	CHECK_EQ(o.ra_interval_s, 200);
	CHECK(o.ra_managed);
	CHECK(!strcmp(o.pd_pool_text, "2001:db8:100::/40,56"));
	CHECK_EQ(config_parse_server(ARGC(no_ipv6), no_ipv6, &o), -EINVAL);
	CHECK_EQ(config_parse_server(ARGC(host_bits), host_bits, &o), -EINVAL);
	CHECK_EQ(config_parse_server(ARGC(pd_short), pd_short, &o), -EINVAL);
	CHECK_EQ(config_parse_server(ARGC(pd_nolen), pd_nolen, &o), -EINVAL);
	CHECK_EQ(config_parse_server(ARGC(interval), interval, &o), -EINVAL);
}

/* up and server read the shared daemon options with one parser: the same values, the same errors.
 */
TEST(daemon_options_shared)
{
	char *up[] = { "up",  "wan0",	   "--vlan", "7",      "--mode", "generic", "-k",
		       "4 5", "--service", "isp",    "--ipv6", "-f",	 "--debug", NULL };
	char *server[] = { "server",	"isp0", "--local", "10.0.0.1", "--pool",  "10.0.0.0/24",
			   "--vlan",	"7",	"--mode",  "generic",  "-k",	  "4,5",
			   "--service", "isp",	"--ipv6",  "-f",       "--debug", NULL };
	char *up_afxdp_cpus[] = { "up", "wan0", "--mode", "afxdp", "--cpus", "2", NULL };
	char *server_afxdp_cpus[] = { "server", "isp0",	       "--local", "10.0.0.1",
				      "--pool", "10.0.0.0/24", "--mode",  "afxdp",
				      "--cpus", "2",	       NULL };
	char *up_halves[] = { "up",   "wan0", "--mode",	  "tc",	    "--rx", "xdp-pass",
			      "--tx", "tc",   "--netdev", "netkit", NULL };
	char *server_halves[] = { "server",	 "isp0",   "--local",  "10.0.0.1", "--pool",
				  "10.0.0.0/24", "--mode", "tc",       "--rx",	   "xdp-pass",
				  "--tx",	 "tc",	   "--netdev", "netkit",   NULL };
	const struct daemon_settings *d[2];
	struct server_settings so;
	struct client_settings uo;

	CHECK_EQ(config_parse_up(ARGC(up), up, &uo), 0);
	CHECK_EQ(config_parse_server(ARGC(server), server, &so), 0);
	d[0] = &uo.common;
	d[1] = &so.common;
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(d[i]->vlan_id, 7);
		CHECK_EQ(d[i]->mode, PXP_DP_GENERIC);
		CHECK_EQ(d[i]->keepalive_interval_s, 5);
		CHECK_EQ(d[i]->keepalive_failures, 4);
		CHECK(!strcmp(d[i]->service, "isp"));
		CHECK(d[i]->ipv6 && d[i]->foreground);
		CHECK_EQ(d[i]->log_level, PXP_LOG_DEBUG);
		CHECK_EQ(d[i]->netdev, PXP_DP_NETDEV_AUTO);
	}
	client_settings_wipe(&uo);
	CHECK_EQ(config_parse_up(ARGC(up_halves), up_halves, &uo), 0);
	CHECK_EQ(config_parse_server(ARGC(server_halves), server_halves, &so), 0);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(d[i]->mode, PXP_DP_TC);
		CHECK_EQ(d[i]->rx_half, PXP_DP_HALF_XDP_PASS);
		CHECK_EQ(d[i]->tx_half, PXP_DP_HALF_TC);
		CHECK_EQ(d[i]->netdev, PXP_DP_NETDEV_NETKIT);
	}
	client_settings_wipe(&uo);
	CHECK_EQ(config_parse_up(ARGC(up_afxdp_cpus), up_afxdp_cpus, &uo), -EINVAL);
	CHECK_EQ(config_parse_server(ARGC(server_afxdp_cpus), server_afxdp_cpus, &so), -EINVAL);
}

/* --afxdp-cpus: a list in queue order or none; bad entries and other modes refused. */
TEST(afxdp_cpus)
{
	char *list[] = { "up", "wan0", "--mode", "afxdp", "--afxdp-cpus", "3,0,1023", NULL };
	char *none[] = { "server", "isp0",  "--local",	    "10.0.0.1", "--pool", "10.0.0.0/24",
			 "--mode", "afxdp", "--afxdp-cpus", "none",	NULL };
	const char *bad[] = { "", ",1", "1,", "1,,2", "x", "-1", "1024", "1 2", "none,1" };
	char *other_mode[] = { "up", "wan0", "--mode", "xdp", "--afxdp-cpus", "1", NULL };
	char *auto_mode[] = { "up", "wan0", "--afxdp-cpus", "1", NULL };
	char many[200] = "0";
	char *too_many[] = { "up", "wan0", "--mode", "afxdp", "--afxdp-cpus", many, NULL };
	char *one_bad[] = { "up", "wan0", "--mode", "afxdp", "--afxdp-cpus", NULL, NULL };
	struct client_settings uo;
	struct server_settings so;

	CHECK_EQ(config_parse_up(ARGC(list), list, &uo), 0);
	CHECK_EQ(uo.common.afxdp_cpus.nr, 3);
	CHECK_EQ(uo.common.afxdp_cpus.cpu[0], 3);
	CHECK_EQ(uo.common.afxdp_cpus.cpu[1], 0);
	CHECK_EQ(uo.common.afxdp_cpus.cpu[2], 1023);
	client_settings_wipe(&uo);
	CHECK_EQ(config_parse_server(ARGC(none), none, &so), 0);
	CHECK_EQ(so.common.afxdp_cpus.nr, 1);
	CHECK_EQ(so.common.afxdp_cpus.cpu[0], PXP_DP_CPU_ANY);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		one_bad[5] = (char *)bad[i];
		CHECK_EQ(config_parse_up(ARGC(one_bad), one_bad, &uo), -EINVAL);
		client_settings_wipe(&uo);
	}
	for (int i = 1; i < PXP_DP_MAX_QUEUES + 1; i++) /* one more than a WAN has queues */
		strcat(many, ",0");
	CHECK_EQ(config_parse_up(ARGC(too_many), too_many, &uo), -EINVAL);
	client_settings_wipe(&uo);
	CHECK_EQ(config_parse_up(ARGC(other_mode), other_mode, &uo), -EINVAL);
	client_settings_wipe(&uo);
	CHECK_EQ(config_parse_up(ARGC(auto_mode), auto_mode, &uo), -EINVAL);
	client_settings_wipe(&uo);
}

TEST(small_parsers)
{
	uint8_t mac[6], hex[4];
	unsigned int v, prefix;
	uint32_t net;
	size_t len;

	CHECK_EQ(config_parse_uint("42", 1, 100, &v), 0);
	CHECK_EQ(v, 42);
	CHECK_EQ(config_parse_uint("-1", 0, 100, &v), -EINVAL);
	CHECK_EQ(config_parse_uint("101", 0, 100, &v), -EINVAL);
	CHECK_EQ(config_parse_uint("99999999999999999999", 0, 100, &v), -EINVAL);
	CHECK_EQ(pxp_mac_parse("AA:bb:0c:00:00:01", mac), 0);
	CHECK_EQ(mac[0], 0xaa);
	CHECK_EQ(pxp_mac_parse("aa:bb:cc:dd:ee:ff:00", mac), -EINVAL);
	CHECK_EQ(config_parse_hex("deadbeef", hex, sizeof(hex), &len), 0);
	CHECK_EQ(len, 4);
	CHECK_EQ(config_parse_hex("deadbeef00", hex, sizeof(hex), &len), -EINVAL);
	CHECK_EQ(config_parse_hex("zz", hex, sizeof(hex), &len), -EINVAL);
	CHECK_EQ(config_parse_cidr("10.1.0.0/16", &net, &prefix), 0);
	CHECK_EQ(net, 0x0a010000);
	CHECK_EQ(prefix, 16);
	CHECK_EQ(config_parse_cidr("10.1.0.0", &net, &prefix), -EINVAL);
}

TEST(stats_options)
{
	char *plain[] = { "stats", NULL };
	char *watch[] = { "stats", "wan0", "--watch", "--interval", "0.25", "--json", NULL };
	char *watch_all[] = { "stats", "--watch", NULL };
	char *too_fast[] = { "stats", "wan0", "--watch", "--interval", "0.05", NULL };
	char *junk[] = { "stats", "wan0", "--interval", "1s", NULL };
	struct stats_options o;
	unsigned int ms;

	CHECK_EQ(config_parse_stats(ARGC(plain), plain, &o), 0);
	CHECK(!o.iface[0] && !o.watch && !o.json);
	CHECK_EQ(o.interval_ms, PXP_STATS_DEFAULT_INTERVAL_MS);
	CHECK_EQ(config_parse_stats(ARGC(watch), watch, &o), 0);
	CHECK(!strcmp(o.iface, "wan0") && o.watch && o.json);
	CHECK_EQ(o.interval_ms, 250);
	CHECK_EQ(config_parse_stats(ARGC(watch_all), watch_all, &o), -EINVAL);
	CHECK_EQ(config_parse_stats(ARGC(too_fast), too_fast, &o), -EINVAL);
	CHECK_EQ(config_parse_stats(ARGC(junk), junk, &o), -EINVAL);
	CHECK_EQ(config_parse_seconds("2", 100, 3600000, &ms), 0);
	CHECK_EQ(ms, 2000);
	CHECK_EQ(config_parse_seconds("1.5", 100, 3600000, &ms), 0);
	CHECK_EQ(ms, 1500);
	CHECK_EQ(config_parse_seconds("0.0001", 0, 3600000, &ms), -EINVAL);
	CHECK_EQ(config_parse_seconds(".5", 0, 3600000, &ms), -EINVAL);
	CHECK_EQ(config_parse_seconds("99999999999", 0, 3600000, &ms), -EINVAL);
}

/* OpenWrt's keepalive 'FAILURES INTERVAL', its comma form, a lone FAILURES, and 0 = off. */
TEST(keepalive_in_openwrt_order)
{
	static const struct {
		const char *text;
		int ret;
		unsigned int failures, interval;
	} cases[] = {
		{ "5 1", 0, 5, 1 },
		{ "5,1", 0, 5, 1 },
		{ "5, 1", 0, 5, 1 },
		{ "3", 0, 3, 5 },
		{ "0", 0, 0, 0 },
		{ "0 10", 0, 0, 0 },
		{ "5 0", -EINVAL, 0, 0 },
		{ "x 3", -EINVAL, 0, 0 },
		{ "5 1 2", -EINVAL, 0, 0 },
		{ "", -EINVAL, 0, 0 },
		{ "1001 1", -EINVAL, 0, 0 },
		{ "5 3601", -EINVAL, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[16];
		char *argv[] = { "up", "eth0", "--keepalive", text, NULL };
		struct client_settings o;
		int ret;

		snprintf(text, sizeof(text), "%s", cases[i].text);
		ret = config_parse_up(ARGC(argv), argv, &o);
		if (ret != cases[i].ret ||
		    (ret == 0 && (o.common.keepalive_failures != cases[i].failures ||
				  o.common.keepalive_interval_s != cases[i].interval))) {
			printf("# --keepalive \"%s\": ret %d, failures %u, interval %u\n",
			       cases[i].text, ret, o.common.keepalive_failures,
			       o.common.keepalive_interval_s);
			CHECK(0);
		}
	}
}

/* pppd's halves of --keepalive, each alone; pppd's "0 failures" is refused, not misread. */
TEST(lcp_echo_options)
{
	char *both[] = {
		"up", "eth0", "--lcp-echo-interval", "20", "--lcp-echo-failure", "4", NULL
	};
	char *off[] = { "up", "eth0", "--lcp-echo-interval", "0", NULL };
	char *zero[] = { "up", "eth0", "--lcp-echo-failure", "0", NULL };
	char *big[] = { "up", "eth0", "--lcp-echo-interval", "3601", NULL };
	struct client_settings o;

	CHECK_EQ(config_parse_up(ARGC(both), both, &o), 0);
	CHECK_EQ(o.common.keepalive_interval_s, 20);
	CHECK_EQ(o.common.keepalive_failures, 4);
	CHECK_EQ(config_parse_up(ARGC(off), off, &o), 0);
	CHECK_EQ(o.common.keepalive_interval_s, 0);
	CHECK_EQ(config_parse_up(ARGC(zero), zero, &o), -EINVAL);
	CHECK_EQ(config_parse_up(ARGC(big), big, &o), -EINVAL);
}

static const struct cli_options *const option_sets[] = {
	&config_up_options,	&config_server_options, &config_down_options,
	&config_status_options, &config_stats_options,	&config_discover_options,
};

#define N_SETS (sizeof(option_sets) / sizeof(option_sets[0]))

/* Every option of a set once: its own and then the shared table. */
static unsigned int collect(const struct cli_options *set, const struct cli_option **out,
			    unsigned int cap)
{
	const struct cli_option *tables[] = { set->own, set->shared };
	unsigned int n = 0;

	for (unsigned int t = 0; t < 2; t++)
		for (const struct cli_option *o = tables[t]; o && o->name; o++)
			if (n < cap)
				out[n++] = o;
	return n;
}

/* The tables drive getopt: a name or key given twice, or too many, would parse wrongly. */
TEST(option_tables_consistent)
{
	const struct cli_option *opts[2 * CLI_MAX_OPTIONS];

	for (unsigned int s = 0; s < N_SETS; s++) {
		unsigned int n = collect(option_sets[s], opts, 2 * CLI_MAX_OPTIONS);

		/* + 1: the --help every set gets */
		CHECK(n + 1 <= CLI_MAX_OPTIONS);
		for (unsigned int i = 0; i < n; i++) {
			CHECK(opts[i]->help && opts[i]->help[0]);
			CHECK(opts[i]->key != CLI_HELP_KEY && strcmp(opts[i]->name, "help"));
			for (unsigned int j = i + 1; j < n; j++) {
				CHECK(strcmp(opts[i]->name, opts[j]->name));
				CHECK(opts[i]->key != opts[j]->key);
			}
		}
	}
}

/* --mode's help names every data path mode the parser takes. */
TEST(mode_help_names_every_mode)
{
	const struct cli_option *opts[2 * CLI_MAX_OPTIONS], *mode = NULL;
	unsigned int n = collect(&config_up_options, opts, 2 * CLI_MAX_OPTIONS);

	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(opts[i]->name, "mode"))
			mode = opts[i];
	CHECK(mode != NULL);
	if (!mode)
		return;
	for (unsigned int m = 0; m < PXP_DP__MODES; m++)
		CHECK(strstr(mode->help, pxp_dp_mode_name(m)) != NULL);
}

/* --help anywhere among the options asks for help; as another option's value it does not. */
TEST(wants_help)
{
	char *first[] = { "up", "--help", NULL };
	char *after[] = { "up", "eth0", "--persist", "-h", NULL };
	char *value[] = { "up", "eth0", "--password", "-h", NULL };
	char *none[] = { "down", "eth0", NULL };
	char *down[] = { "down", "-h", NULL };

	CHECK(cli_wants_help(ARGC(first), first, &config_up_options));
	CHECK(cli_wants_help(ARGC(after), after, &config_up_options));
	CHECK(!cli_wants_help(ARGC(value), value, &config_up_options));
	CHECK(!cli_wants_help(ARGC(none), none, &config_down_options));
	CHECK(cli_wants_help(ARGC(down), down, &config_down_options));
}

/* wg's --crypto-threads: 1 to the pool's bound; without it 0 (the device's default). */
TEST(wg_crypto_threads)
{
	char *two[] = { "wg", "wg0", "--crypto-threads", "2", NULL };
	char *zero[] = { "wg", "wg0", "--crypto-threads", "0", NULL };
	char *many[] = { "wg", "wg0", "--crypto-threads", "9", NULL };
	char *none[] = { "wg", "wg0", NULL };
	struct wg_device_settings o;

	CHECK_EQ(config_parse_wg(ARGC(two), two, &o), 0);
	CHECK_EQ(o.crypto_threads, 2);
	CHECK_EQ(config_parse_wg(ARGC(zero), zero, &o), -EINVAL);
	CHECK_EQ(config_parse_wg(ARGC(many), many, &o), -EINVAL);
	CHECK_EQ(config_parse_wg(ARGC(none), none, &o), 0);
	CHECK_EQ(o.crypto_threads, 0);
}

/* wg's --state-dir: an absolute path; without it PPPOE_XP_STATE_DIR, then the build's. */
TEST(wg_state_dir)
{
	char *given[] = { "wg", "wg0", "--state-dir", "/tmp/s", NULL };
	char *relative[] = { "wg", "wg0", "--state-dir", "s", NULL };
	char *none[] = { "wg", "wg0", NULL };
	struct wg_device_settings o;

	CHECK_EQ(config_parse_wg(ARGC(given), given, &o), 0);
	CHECK(strcmp(o.state_dir, "/tmp/s") == 0);
	CHECK_EQ(config_parse_wg(ARGC(relative), relative, &o), -EINVAL);
	unsetenv(PXP_STATE_DIR_ENV);
	CHECK_EQ(config_parse_wg(ARGC(none), none, &o), 0);
	CHECK(strcmp(o.state_dir, PXP_STATE_DIR) == 0);
	setenv(PXP_STATE_DIR_ENV, "/var/tmp/pxp-state", 1);
	CHECK_EQ(config_parse_wg(ARGC(none), none, &o), 0);
	CHECK(strcmp(o.state_dir, "/var/tmp/pxp-state") == 0);
	/* Only an absolute path is taken from the environment. */
	setenv(PXP_STATE_DIR_ENV, "relative", 1);
	CHECK_EQ(config_parse_wg(ARGC(none), none, &o), 0);
	CHECK(strcmp(o.state_dir, PXP_STATE_DIR) == 0);
	unsetenv(PXP_STATE_DIR_ENV);
}

int main(void)
{
	check_prefix = "cli_config";
	/* The rejections log to stderr by design; keep the test output to result lines. */
	pxp_log_set_level(PXP_LOG_ERROR);
	if (!freopen("/dev/null", "w", stderr))
		return 1;
	/* No configuration file or secrets file of this machine's (test_conffile.c has those). */
	setenv(PXP_CONFIG_DIR_ENV, "/nonexistent-pxp-unit", 1);
	setenv(PXP_PPP_DIR_ENV, "/nonexistent-pxp-unit", 1);
	RUN(keepalive_in_openwrt_order);
	RUN(up_options_after_iface);
	RUN(up_defaults);
	RUN(mtu_range_edges);
	RUN(route_options);
	RUN(up_rejections);
	RUN(hook_script_options);
	RUN(server_pool_skips_local_and_ends);
	RUN(server_rejections);
	RUN(server_padi_rates);
	RUN(server_ipv6_options);
	RUN(daemon_options_shared);
	RUN(afxdp_cpus);
	RUN(small_parsers);
	RUN(stats_options);
	RUN(lcp_echo_options);
	RUN(option_tables_consistent);
	RUN(mode_help_names_every_mode);
	RUN(wants_help);
	RUN(wg_state_dir);
	RUN(wg_crypto_threads);
	return check_summary();
}
