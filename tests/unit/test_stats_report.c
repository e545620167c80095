// SPDX-License-Identifier: GPL-2.0
/* `pppoe-xp stats`: the snapshot format between daemon and CLI, and the rates. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dp_load.h"
#include "pxp_maps.h"
#include "stats_report.h"
#include "status.h"

static struct stats_snapshot a, b;

static void sample(struct stats_snapshot *s, uint64_t t, uint64_t k)
{
	memset(s, 0, sizeof(*s));
	strcpy(s->iface, "wan0");
	strcpy(s->role, "client");
	strcpy(s->state, "up");
	strcpy(s->mode, "xdp");
	s->time_ms = t;
	s->dp.nr_queues = 2;
	s->dp.queue[0] = (struct pxp_dp_queue_stats){
		.rx = 100 * k, .tx = 50 * k, .decap = 90 * k, .encap = 50 * k, .drop_too_big = k
	};
	s->dp.queue[1] = (struct pxp_dp_queue_stats){ .rx = 10 * k, .drop_ring_full = 2 * k };
	s->nr_netdevs = 1;
	s->netdev[0] = (struct stats_netdev){ .ifname = "pxp0",
					      .rx_packets = 90 * k,
					      .rx_bytes = 125000 * k,
					      .tx_packets = 50 * k,
					      .tx_bytes = 1000 * k };
}

/* Writes s and parses it back into out; the text stays in *text for further mangling. */
static int roundtrip(const struct stats_snapshot *s, struct stats_snapshot *out, char **text,
		     size_t *len)
{
	FILE *f = open_memstream(text, len);

	if (!f)
		return -ENOMEM;
	stats_snapshot_write(s, f);
	fclose(f);
	return stats_snapshot_parse(out, *text, *len);
}

TEST(roundtrip_keeps_every_counter)
{
	char *text = NULL;
	size_t len = 0;
	int err;

	sample(&a, 5000, 7);
	err = roundtrip(&a, &b, &text, &len);
	free(text);
	CHECK_EQ(err, 0);
	CHECK(!strcmp(b.iface, "wan0") && !strcmp(b.role, "client") && !strcmp(b.mode, "xdp"));
	CHECK_EQ(b.time_ms, 5000);
	CHECK_EQ(b.dp.nr_queues, 2);
	CHECK_MEM(&b.dp.queue[0], &a.dp.queue[0], sizeof(a.dp.queue[0]));
	CHECK_MEM(&b.dp.queue[1], &a.dp.queue[1], sizeof(a.dp.queue[1]));
	CHECK_EQ(b.nr_netdevs, 1);
	CHECK(!strcmp(b.netdev[0].ifname, "pxp0"));
	CHECK_EQ(b.netdev[0].rx_bytes, 875000);
}

static int parse_str(const char *text)
{
	return stats_snapshot_parse(&b, text, strlen(text));
}

#define HEAD "pxp-stats 1\niface wan0\nrole client\nstate up\nmode xdp\ntime_ms 1\n"

TEST(malformed_is_refused)
{
	CHECK_EQ(parse_str(HEAD "end\n"), 0);
	CHECK_EQ(parse_str(HEAD), -EBADMSG); /* truncated: no end */
	CHECK_EQ(parse_str("pxp-stats 2\n" HEAD "end\n"), -EBADMSG);
	CHECK_EQ(parse_str(HEAD "queue 1 1 1 1 1 1 1 1 1 1\nend\n"), -EBADMSG); /* gap */
	CHECK_EQ(parse_str(HEAD "queue 0 1 1 1 1 1 1 1 1\nend\n"), -EBADMSG);	/* short */
	CHECK_EQ(parse_str(HEAD "queue 0 1 1 1 1 1 1 1 1 -1\nend\n"), -EBADMSG);
	CHECK_EQ(parse_str(HEAD "queue 0 1 1 1 1 1 1 1 1 99999999999999999999\nend\n"), -EBADMSG);
	CHECK_EQ(parse_str(HEAD "netdev averyveryverylongname 1 2 3 4\nend\n"), -EBADMSG);
	CHECK_EQ(parse_str(HEAD "bogus 1\nend\n"), -EBADMSG);
	CHECK_EQ(parse_str(HEAD "mode afxdp\nend\n"), -EBADMSG); /* twice */
	CHECK_EQ(parse_str(HEAD "netdev pxp\033 1 2 3 4\nend\n"), -EBADMSG);
	CHECK_EQ(parse_str(HEAD "end\nqueue 0 1 1 1 1 1 1 1 1 1\n"), -EBADMSG);
	CHECK_EQ(parse_str("pxp-stats 1\nrole client\nstate up\nmode xdp\nend\n"), -EBADMSG);
	CHECK_EQ(stats_snapshot_parse(&b, HEAD "end\n\0", sizeof(HEAD "end\n")), -EBADMSG);
}

TEST(too_many_queues_or_netdevs_refused)
{
	char *text = malloc(64 * 1024), *p;
	int i;

	CHECK(text);
	p = text + sprintf(text, HEAD);
	for (i = 0; i <= PXP_DP_MAX_QUEUES; i++)
		p += sprintf(p, "queue %d 0 0 0 0 0 0 0 0 0\n", i);
	strcpy(p, "end\n");
	i = parse_str(text);
	p = text + sprintf(text, HEAD);
	for (int j = 0; j <= STATS_MAX_NETDEVS; j++)
		p += sprintf(p, "netdev pxs%d 0 0 0 0\n", j);
	strcpy(p, "end\n");
	CHECK_EQ(i, -EBADMSG);
	CHECK_EQ(parse_str(text), -EBADMSG);
	free(text);
}

TEST(rates_per_second)
{
	struct stats_queue_rates r;
	struct stats_netdev_rates n;

	sample(&a, 10000, 1);
	sample(&b, 12000, 3); /* 2 s later, every counter tripled */
	stats_queue_rates(&a, &b, 0, &r);
	CHECK_EQ(r.pps.rx, 100);
	CHECK_EQ(r.pps.tx, 50);
	CHECK_EQ(r.pps.decap, 90);
	CHECK_EQ(r.pps.encap, 50);
	CHECK_EQ(r.drops, 1);
	stats_queue_rates(&a, &b, 1, &r);
	CHECK_EQ(r.pps.rx, 10);
	CHECK_EQ(r.drops, 2);
	stats_netdev_rates(&a, &b, 0, &n);
	CHECK_EQ(n.rx_pps, 90);
	CHECK_EQ(n.rx_bps, 1000000); /* 125000 bytes/s */
	CHECK_EQ(n.tx_bps, 8000);
	/* A new session: counters went back, no huge bogus rate. */
	stats_queue_rates(&b, &a, 0, &r);
	CHECK_EQ(r.pps.rx, 0);
	/* A netdev that is new counts from zero. */
	strcpy(a.netdev[0].ifname, "pxs9");
	stats_netdev_rates(&a, &b, 0, &n);
	CHECK_EQ(n.rx_pps, 135);
}

TEST(views_carry_the_rows)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(f);
	sample(&a, 1000, 1);
	sample(&b, 2000, 2);
	stats_print_counters(&b, f, false);
	stats_print_rates(&a, &b, f, false);
	stats_print_rates(&a, &b, f, true);
	fclose(f);
	CHECK(strstr(text, "total "));
	CHECK(strstr(text, "\n1 "));
	CHECK(strstr(text, "pxp0"));
	CHECK(strstr(text, "1.00M")); /* 125000 bytes/s = 1 Mbit/s */
	CHECK(strstr(text, "{\"iface\":\"wan0\""));
	CHECK(strstr(text, "\"rx_bps\":1000000"));
	free(text);
}

/* Occurrences of needle in hay. */
static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The WireGuard device's shape: no queues, one netdev, counters by name and drops. */
static void sample_named(struct stats_snapshot *s, uint64_t t, uint64_t k)
{
	memset(s, 0, sizeof(*s));
	strcpy(s->iface, "wg0");
	strcpy(s->role, "wireguard");
	strcpy(s->state, "up");
	strcpy(s->mode, "tun-offload");
	s->time_ms = t;
	s->nr_netdevs = 1;
	s->netdev[0] = (struct stats_netdev){ .ifname = "wg0", .rx_packets = 10 * k };
	CHECK_EQ(stats_counter_add(s, "udp_gso_sends", 300 * k), 0);
	CHECK_EQ(stats_counter_add(s, "drop_replay", 4 * k), 0);
	CHECK_EQ(stats_counter_add(s, "drop_mac1", 0), 0);
}

TEST(named_counters)
{
	char *text = NULL, name[STATS_COUNTER_NAME + 1];
	size_t len = 0;
	FILE *f;
	int err;

	sample_named(&a, 1000, 1);
	err = roundtrip(&a, &b, &text, &len);
	free(text);
	CHECK_EQ(err, 0);
	CHECK(!strcmp(b.role, "wireguard"));
	CHECK_EQ(b.nr_counters, 3);
	CHECK(!strcmp(b.counter[1].name, "drop_replay") && b.counter[1].value == 4);
	CHECK(stats_counter_is_drop("drop_replay") && !stats_counter_is_drop("udp_gso_sends"));
	/* refused: too long, empty, one too many */
	memset(name, 'x', STATS_COUNTER_NAME);
	name[STATS_COUNTER_NAME] = '\0';
	CHECK_EQ(stats_counter_add(&a, name, 1), -EINVAL);
	CHECK_EQ(stats_counter_add(&a, "", 1), -EINVAL);
	while (a.nr_counters < STATS_MAX_COUNTERS)
		CHECK_EQ(stats_counter_add(&a, "c", 1), 0);
	CHECK_EQ(stats_counter_add(&a, "c", 1), -ENOSPC);
	CHECK_EQ(parse_str(HEAD "counter udp_gso_sends 1\nend\n"), 0);
	CHECK_EQ(parse_str(HEAD "counter a 1\ncounter a 2\nend\n"), -EBADMSG); /* twice */
	CHECK_EQ(parse_str(HEAD "counter a\nend\n"), -EBADMSG);
	CHECK_EQ(parse_str(HEAD "counter a 1 2\nend\n"), -EBADMSG);
	CHECK_EQ(parse_str(HEAD "counter a -1\nend\n"), -EBADMSG);
	/* rates by name: a counter new in cur counts from 0, one that went back as 0 */
	sample_named(&a, 1000, 1);
	sample_named(&b, 3000, 3);
	CHECK_EQ(stats_counter_rate(&a, &b, 0), 300);
	CHECK_EQ(stats_counter_rate(&a, &b, 1), 4);
	strcpy(a.counter[0].name, "other");
	CHECK_EQ(stats_counter_rate(&a, &b, 0), 450);
	CHECK_EQ(stats_counter_rate(&b, &a, 1), 0);
	CHECK_EQ(stats_counter_rate(&a, &b, 3), 0); /* out of range */
	/* views: no queue table, the drops summed, a zero drop not listed */
	sample_named(&a, 1000, 1);
	text = NULL;
	f = open_memstream(&text, &len);
	CHECK(f);
	stats_print_counters(&b, f, false);
	stats_print_rates(&a, &b, f, false);
	stats_print_counters(&b, f, true);
	stats_print_rates(&a, &b, f, true);
	fclose(f);
	CHECK(!strstr(text, "total "));
	CHECK(!strstr(text, "queue "));
	CHECK(strstr(text, "wg0: wireguard, up, data path tun-offload\n"));
	CHECK(strstr(text, "\ndrops                                    12\n"));
	CHECK_EQ(count_of(text, "  drop_replay "), 1); /* counters only: a rate view sums */
	CHECK(!strstr(text, "  drop_mac1 "));
	CHECK(strstr(text, "\ndrops                                 4\n")); /* per s */
	CHECK(strstr(text,
		     "\"counters\":{\"udp_gso_sends\":900,\"drop_replay\":12,\"drop_mac1\":0}"));
	CHECK(strstr(text,
		     "\"counters\":{\"udp_gso_sends\":300,\"drop_replay\":4,\"drop_mac1\":0}"));
	free(text);
}

/* include/pxp_counters.h: every counter has its own key and a report field or none. */
TEST(every_counter_has_a_key_and_a_field)
{
	for (unsigned int i = 0; i < PXP_CNT__MAX; i++) {
		const char *key = pxp_counter_name(i);

		CHECK(key[0] && strcmp(key, "?"));
		for (unsigned int j = 0; j < i; j++)
			CHECK(strcmp(key, pxp_counter_name(j)));
		CHECK(pxp_dp_counter_field(i) <= PXP_DP_F_none);
	}
	CHECK(!strcmp(pxp_counter_name(PXP_CNT__MAX), "?"));
	CHECK_EQ(pxp_dp_counter_field(PXP_CNT_DROP_NOT_IP), PXP_DP_F_drop_malformed);
	CHECK_EQ(pxp_dp_counter_field(PXP_CNT_PASS), PXP_DP_F_none);
}

/* The daemon's status and the stats JSON carry every report field once, with its value. */
TEST(every_field_once_in_the_json)
{
	struct status_writer w;
	char *text = NULL, key[64];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(f);
	memset(&a, 0, sizeof(a));
	a.dp.nr_queues = 1;
	for (unsigned int i = 0; i < PXP_DP_F__MAX; i++)
		a.dp.queue[0].field[i] = 1000 + i;
	status_begin(&w, f, true);
	stats_dp_status(&w, &a.dp);
	status_end(&w);
	fclose(f);
	CHECK_EQ(count_of(text, "\":"), PXP_DP_F__MAX + 1);
	CHECK(strstr(text, "\"queues\":1"));
	for (unsigned int i = 0; i < PXP_DP_F__MAX; i++) {
		snprintf(key, sizeof(key), "\"%s\":", pxp_dp_field_name(i));
		CHECK_EQ(count_of(text, key), 1);
		snprintf(key, sizeof(key), "\"%s\":%u", pxp_dp_field_name(i), 1000 + i);
		CHECK(strstr(text, key));
	}
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	CHECK(f);
	strcpy(a.iface, "wan0");
	stats_print_counters(&a, f, true);
	fclose(f);
	for (unsigned int i = 0; i < PXP_DP_F__MAX; i++) {
		snprintf(key, sizeof(key), "\"%s\":", pxp_dp_field_name(i));
		CHECK_EQ(count_of(text, key), 2); /* queue 0 and the total */
	}
	free(text);
}

int main(void)
{
	check_prefix = "stats_report";
	RUN(roundtrip_keeps_every_counter);
	RUN(malformed_is_refused);
	RUN(too_many_queues_or_netdevs_refused);
	RUN(rates_per_second);
	RUN(views_carry_the_rows);
	RUN(named_counters);
	RUN(every_counter_has_a_key_and_a_field);
	RUN(every_field_once_in_the_json);
	return check_summary();
}
