// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "stats_report.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

#define STATS_MAGIC "pxp-stats 1"
/* "queue <index>" and one number per field. */
#define QUEUE_WORDS (2 + PXP_DP_F__MAX)

/* How the tables show each field of struct pxp_dp_queue_stats. */
static const struct {
	const char *column;
	int width;
	const char *rate_column; /* NULL: a drop, in the rates' one drops column */
} columns[PXP_DP_F__MAX] = {
#define X(field, column, width, rate_column) { column, width, rate_column },
	PXP_DP_QUEUE_FIELDS(X)
#undef X
};

void stats_snapshot_write(const struct stats_snapshot *s, FILE *out)
{
	unsigned int i;

	fprintf(out, STATS_MAGIC "\niface %s\nrole %s\nstate %s\nmode %s\ntime_ms %" PRIu64 "\n",
		s->iface, s->role, s->state, s->mode, s->time_ms);
	for (i = 0; i < s->dp.nr_queues && i < PXP_DP_MAX_QUEUES; i++) {
		fprintf(out, "queue %u", i);
		for (unsigned int f = 0; f < PXP_DP_F__MAX; f++)
			fprintf(out, " %" PRIu64, s->dp.queue[i].field[f]);
		fputc('\n', out);
	}
	for (i = 0; i < s->nr_netdevs && i < STATS_MAX_NETDEVS; i++) {
		const struct stats_netdev *n = &s->netdev[i];

		fprintf(out, "netdev %s %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			n->ifname, n->rx_packets, n->rx_bytes, n->tx_packets, n->tx_bytes);
	}
	for (i = 0; i < s->nr_counters && i < STATS_MAX_COUNTERS; i++)
		fprintf(out, "counter %s %" PRIu64 "\n", s->counter[i].name, s->counter[i].value);
	fputs("end\n", out);
}

int stats_counter_add(struct stats_snapshot *s, const char *name, uint64_t value)
{
	struct stats_counter *c;
	size_t len = strlen(name);

	if (!len || len >= STATS_COUNTER_NAME)
		return -EINVAL;
	if (s->nr_counters >= STATS_MAX_COUNTERS)
		return -ENOSPC;
	c = &s->counter[s->nr_counters++];
	memcpy(c->name, name, len + 1);
	c->value = value;
	return 0;
}

bool stats_counter_is_drop(const char *name)
{
	return !strncmp(name, STATS_DROP_PREFIX, sizeof(STATS_DROP_PREFIX) - 1);
}

/* Splits line into at most max space-separated words; the count or -1 if there are more. */
static int split(char *line, char **word, int max)
{
	char *save = NULL, *w;
	int n = 0;

	for (w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (n == max)
			return -1;
		word[n++] = w;
	}
	return n;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EBADMSG;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -EBADMSG : 0;
}

/* Names are interface names and state words: printable, once each. */
static int copy_name(char *dst, size_t cap, const char *src)
{
	size_t len = strlen(src), i;

	if (dst[0] || !len || len >= cap)
		return -EBADMSG;
	for (i = 0; i < len; i++)
		if (!isgraph((unsigned char)src[i]))
			return -EBADMSG;
	memcpy(dst, src, len + 1);
	return 0;
}

static int parse_queue(struct stats_snapshot *s, char **w, int n)
{
	struct pxp_dp_queue_stats q;
	uint64_t idx;

	if (n != QUEUE_WORDS || parse_u64(w[1], &idx) || idx != s->dp.nr_queues ||
	    idx >= PXP_DP_MAX_QUEUES)
		return -EBADMSG;
	for (unsigned int f = 0; f < PXP_DP_F__MAX; f++)
		if (parse_u64(w[2 + f], &q.field[f]))
			return -EBADMSG;
	s->dp.queue[s->dp.nr_queues++] = q;
	return 0;
}

static int parse_netdev(struct stats_snapshot *s, char **w, int n)
{
	struct stats_netdev *d;

	if (n != 6 || s->nr_netdevs >= STATS_MAX_NETDEVS)
		return -EBADMSG;
	d = &s->netdev[s->nr_netdevs];
	if (copy_name(d->ifname, sizeof(d->ifname), w[1]) || parse_u64(w[2], &d->rx_packets) ||
	    parse_u64(w[3], &d->rx_bytes) || parse_u64(w[4], &d->tx_packets) ||
	    parse_u64(w[5], &d->tx_bytes))
		return -EBADMSG;
	s->nr_netdevs++;
	return 0;
}

/* "counter NAME VALUE", each name once. */
static int parse_counter(struct stats_snapshot *s, char **w, int n)
{
	struct stats_counter *c;

	if (n != 3 || s->nr_counters >= STATS_MAX_COUNTERS)
		return -EBADMSG;
	c = &s->counter[s->nr_counters];
	if (copy_name(c->name, sizeof(c->name), w[1]) || parse_u64(w[2], &c->value))
		return -EBADMSG;
	for (unsigned int i = 0; i < s->nr_counters; i++)
		if (!strcmp(s->counter[i].name, c->name))
			return -EBADMSG;
	s->nr_counters++;
	return 0;
}

static int parse_line(struct stats_snapshot *s, char *line)
{
	char *w[QUEUE_WORDS + 1];
	int n = split(line, w, QUEUE_WORDS + 1);

	if (n < 2)
		return -EBADMSG;
	if (!strcmp(w[0], "queue"))
		return parse_queue(s, w, n);
	if (!strcmp(w[0], "netdev"))
		return parse_netdev(s, w, n);
	if (!strcmp(w[0], "counter"))
		return parse_counter(s, w, n);
	if (n != 2)
		return -EBADMSG;
	if (!strcmp(w[0], "iface"))
		return copy_name(s->iface, sizeof(s->iface), w[1]);
	if (!strcmp(w[0], "role"))
		return copy_name(s->role, sizeof(s->role), w[1]);
	if (!strcmp(w[0], "state"))
		return copy_name(s->state, sizeof(s->state), w[1]);
	if (!strcmp(w[0], "mode"))
		return copy_name(s->mode, sizeof(s->mode), w[1]);
	if (!strcmp(w[0], "time_ms"))
		return s->time_ms ? -EBADMSG : parse_u64(w[1], &s->time_ms);
	return -EBADMSG;
}

int stats_snapshot_parse(struct stats_snapshot *s, const char *text, size_t len)
{
	char *copy, *line, *save = NULL;
	bool magic = false, end = false;
	int err = 0;

	memset(s, 0, sizeof(*s));
	if (memchr(text, '\0', len))
		return -EBADMSG;
	copy = strndup(text, len);
	if (!copy)
		return -ENOMEM;
	for (line = strtok_r(copy, "\n", &save); line && !err; line = strtok_r(NULL, "\n", &save)) {
		if (end)
			err = -EBADMSG; /* nothing may follow "end" */
		else if (!magic)
			err = strcmp(line, STATS_MAGIC) ? -EBADMSG : (magic = true, 0);
		else if (!strcmp(line, "end"))
			end = true;
		else
			err = parse_line(s, line);
	}
	free(copy);
	if (!err && (!end || !s->iface[0] || !s->role[0] || !s->state[0] || !s->mode[0]))
		err = -EBADMSG;
	if (err)
		memset(s, 0, sizeof(*s));
	return err;
}

/* ------------------------------------------------------------ counters */

static uint64_t queue_drops(const struct pxp_dp_queue_stats *q)
{
	uint64_t sum = 0;

	for (unsigned int f = 0; f < PXP_DP_F__MAX; f++)
		if (pxp_dp_field_is_drop(f))
			sum += q->field[f];
	return sum;
}

static void json_fields(struct status_writer *w, const struct pxp_dp_queue_stats *q)
{
	for (unsigned int f = 0; f < PXP_DP_F__MAX; f++)
		status_u64(w, pxp_dp_field_name(f), q->field[f]);
}

static void json_queue(struct status_writer *w, const char *label, unsigned int idx,
		       const struct pxp_dp_queue_stats *q)
{
	status_object_begin(w, label);
	if (!label)
		status_u64(w, "queue", idx);
	json_fields(w, q);
	status_object_end(w);
}

void stats_dp_status(struct status_writer *w, const struct pxp_dp_stats *st)
{
	struct pxp_dp_queue_stats total;

	pxp_dp_stats_total(st, &total);
	status_u64(w, "queues", st->nr_queues);
	json_fields(w, &total);
}

static void json_header(struct status_writer *w, const struct stats_snapshot *s)
{
	status_str(w, "iface", s->iface);
	status_str(w, "role", s->role);
	status_str(w, "state", s->state);
	status_str(w, "mode", s->mode);
}

static void text_queue_header(FILE *out)
{
	fprintf(out, "%-6s", "queue");
	for (unsigned int f = 0; f < PXP_DP_F__MAX; f++)
		fprintf(out, " %*s", columns[f].width, columns[f].column);
	fputc('\n', out);
}

static void text_queue_row(FILE *out, const char *label, const struct pxp_dp_queue_stats *q)
{
	fprintf(out, "%-6s", label);
	for (unsigned int f = 0; f < PXP_DP_F__MAX; f++)
		fprintf(out, " %*" PRIu64, columns[f].width, q->field[f]);
	fputc('\n', out);
}

/* The queue rows are the data path's; a snapshot of named counters alone has none. */
static bool has_queue_rows(const struct stats_snapshot *s)
{
	return s->dp.nr_queues || !s->nr_counters;
}

static void json_counters(struct status_writer *w, const struct stats_snapshot *s)
{
	status_object_begin(w, "counters");
	for (unsigned int i = 0; i < s->nr_counters; i++)
		status_u64(w, s->counter[i].name, s->counter[i].value);
	status_object_end(w);
}

/* The named counters but the drops, then the drops' sum and the non-zero drops. */
static void text_counters(FILE *out, const struct stats_snapshot *s)
{
	uint64_t drops = 0;
	unsigned int i;

	fprintf(out, "%-28s %14s\n", "counter", "value");
	for (i = 0; i < s->nr_counters; i++) {
		if (stats_counter_is_drop(s->counter[i].name))
			drops += s->counter[i].value;
		else
			fprintf(out, "%-28s %14" PRIu64 "\n", s->counter[i].name,
				s->counter[i].value);
	}
	fprintf(out, "%-28s %14" PRIu64 "\n", "drops", drops);
	for (i = 0; i < s->nr_counters; i++)
		if (stats_counter_is_drop(s->counter[i].name) && s->counter[i].value)
			fprintf(out, "  %-26s %14" PRIu64 "\n", s->counter[i].name,
				s->counter[i].value);
}

void stats_print_counters(const struct stats_snapshot *s, FILE *out, bool json)
{
	struct pxp_dp_queue_stats total;
	struct status_writer w;
	unsigned int i;
	char label[16];

	pxp_dp_stats_total(&s->dp, &total);
	if (json) {
		status_begin(&w, out, true);
		json_header(&w, s);
		status_array_begin(&w, "queues");
		for (i = 0; i < s->dp.nr_queues; i++)
			json_queue(&w, NULL, i, &s->dp.queue[i]);
		status_array_end(&w);
		json_queue(&w, "total", 0, &total);
		status_array_begin(&w, "netdevs");
		for (i = 0; i < s->nr_netdevs; i++) {
			status_object_begin(&w, NULL);
			status_str(&w, "ifname", s->netdev[i].ifname);
			status_u64(&w, "rx_packets", s->netdev[i].rx_packets);
			status_u64(&w, "rx_bytes", s->netdev[i].rx_bytes);
			status_u64(&w, "tx_packets", s->netdev[i].tx_packets);
			status_u64(&w, "tx_bytes", s->netdev[i].tx_bytes);
			status_object_end(&w);
		}
		status_array_end(&w);
		json_counters(&w, s);
		status_end(&w);
		return;
	}
	fprintf(out, "%s: %s, %s, data path %s\n", s->iface, s->role, s->state, s->mode);
	if (has_queue_rows(s)) {
		text_queue_header(out);
		for (i = 0; i < s->dp.nr_queues; i++) {
			snprintf(label, sizeof(label), "%u", i);
			text_queue_row(out, label, &s->dp.queue[i]);
		}
		text_queue_row(out, "total", &total);
	}
	if (s->nr_netdevs)
		fprintf(out, "%-15s %12s %14s %12s %14s\n", "netdev", "rx_packets", "rx_bytes",
			"tx_packets", "tx_bytes");
	for (i = 0; i < s->nr_netdevs; i++)
		fprintf(out, "%-15s %12" PRIu64 " %14" PRIu64 " %12" PRIu64 " %14" PRIu64 "\n",
			s->netdev[i].ifname, s->netdev[i].rx_packets, s->netdev[i].rx_bytes,
			s->netdev[i].tx_packets, s->netdev[i].tx_bytes);
	if (s->nr_counters)
		text_counters(out, s);
}

/* ------------------------------------------------------------ rates */

/* Per second over ms; a counter that went back (a new session, a restart) counts 0. */
static uint64_t rate(uint64_t before, uint64_t after, uint64_t ms)
{
	if (after < before || !ms)
		return 0;
	return (uint64_t)((double)(after - before) * 1000.0 / (double)ms + 0.5);
}

static uint64_t elapsed_ms(const struct stats_snapshot *prev, const struct stats_snapshot *cur)
{
	return cur->time_ms > prev->time_ms ? cur->time_ms - prev->time_ms : 0;
}

static void queue_rates_of(const struct pxp_dp_queue_stats *a, const struct pxp_dp_queue_stats *b,
			   uint64_t ms, struct stats_queue_rates *r)
{
	for (unsigned int f = 0; f < PXP_DP_F__MAX; f++)
		r->pps.field[f] = rate(a->field[f], b->field[f], ms);
	r->drops = rate(queue_drops(a), queue_drops(b), ms);
}

void stats_queue_rates(const struct stats_snapshot *prev, const struct stats_snapshot *cur,
		       unsigned int q, struct stats_queue_rates *r)
{
	static const struct pxp_dp_queue_stats none;
	const struct pxp_dp_queue_stats *a = q < prev->dp.nr_queues ? &prev->dp.queue[q] : &none;

	memset(r, 0, sizeof(*r));
	if (q < cur->dp.nr_queues && q < PXP_DP_MAX_QUEUES)
		queue_rates_of(a, &cur->dp.queue[q], elapsed_ms(prev, cur), r);
}

void stats_netdev_rates(const struct stats_snapshot *prev, const struct stats_snapshot *cur,
			unsigned int i, struct stats_netdev_rates *r)
{
	static const struct stats_netdev none;
	const struct stats_netdev *a = &none, *b;
	uint64_t ms = elapsed_ms(prev, cur);
	unsigned int j;

	memset(r, 0, sizeof(*r));
	if (i >= cur->nr_netdevs || i >= STATS_MAX_NETDEVS)
		return;
	b = &cur->netdev[i];
	for (j = 0; j < prev->nr_netdevs && j < STATS_MAX_NETDEVS; j++)
		if (!strcmp(prev->netdev[j].ifname, b->ifname))
			a = &prev->netdev[j];
	r->rx_pps = rate(a->rx_packets, b->rx_packets, ms);
	r->tx_pps = rate(a->tx_packets, b->tx_packets, ms);
	r->rx_bps = rate(a->rx_bytes, b->rx_bytes, ms) * 8;
	r->tx_bps = rate(a->tx_bytes, b->tx_bytes, ms) * 8;
}

uint64_t stats_counter_rate(const struct stats_snapshot *prev, const struct stats_snapshot *cur,
			    unsigned int i)
{
	uint64_t before = 0;

	if (i >= cur->nr_counters || i >= STATS_MAX_COUNTERS)
		return 0;
	for (unsigned int j = 0; j < prev->nr_counters && j < STATS_MAX_COUNTERS; j++)
		if (!strcmp(prev->counter[j].name, cur->counter[i].name))
			before = prev->counter[j].value;
	return rate(before, cur->counter[i].value, elapsed_ms(prev, cur));
}

/* 1234567 -> "1.23M": rates are read at a glance. */
static const char *si(uint64_t v, char *buf, size_t cap)
{
	static const char units[] = " kMGT";
	double d = (double)v;
	int u = 0;

	while (d >= 1000.0 && u < 4) {
		d /= 1000.0;
		u++;
	}
	if (u)
		snprintf(buf, cap, "%.2f%c", d, units[u]);
	else
		snprintf(buf, cap, "%" PRIu64, v);
	return buf;
}

static void text_rate_header(FILE *out)
{
	fprintf(out, "%-6s", "queue");
	for (unsigned int f = 0; f < PXP_DP_F__MAX; f++)
		if (columns[f].rate_column)
			fprintf(out, " %10s", columns[f].rate_column);
	fprintf(out, " %10s\n", "drops");
}

static void text_rate_row(FILE *out, const char *label, const struct stats_queue_rates *r)
{
	char buf[16];

	fprintf(out, "%-6s", label);
	for (unsigned int f = 0; f < PXP_DP_F__MAX; f++)
		if (columns[f].rate_column)
			fprintf(out, " %10s", si(r->pps.field[f], buf, sizeof(buf)));
	fprintf(out, " %10s\n", si(r->drops, buf, sizeof(buf)));
}

static void json_rates(struct status_writer *w, const char *label, unsigned int idx,
		       const struct stats_queue_rates *r)
{
	char key[32];

	status_object_begin(w, label);
	if (!label)
		status_u64(w, "queue", idx);
	for (unsigned int f = 0; f < PXP_DP_F__MAX; f++) {
		if (!columns[f].rate_column)
			continue;
		snprintf(key, sizeof(key), "%s_pps", pxp_dp_field_name(f));
		status_u64(w, key, r->pps.field[f]);
	}
	status_u64(w, "drop_pps", r->drops);
	status_object_end(w);
}

/* Each named counter per second but the drops, then the drops' sum. */
static void text_counter_rates(FILE *out, const struct stats_snapshot *prev,
			       const struct stats_snapshot *cur)
{
	uint64_t drops = 0, r;
	char buf[16];

	fprintf(out, "%-28s %10s\n", "counter", "per s");
	for (unsigned int i = 0; i < cur->nr_counters; i++) {
		r = stats_counter_rate(prev, cur, i);
		if (stats_counter_is_drop(cur->counter[i].name))
			drops += r;
		else
			fprintf(out, "%-28s %10s\n", cur->counter[i].name, si(r, buf, sizeof(buf)));
	}
	fprintf(out, "%-28s %10s\n", "drops", si(drops, buf, sizeof(buf)));
}

void stats_print_rates(const struct stats_snapshot *prev, const struct stats_snapshot *cur,
		       FILE *out, bool json)
{
	struct pxp_dp_queue_stats ta, tb;
	struct stats_queue_rates r, total;
	struct stats_netdev_rates nr;
	struct status_writer w;
	uint64_t ms = elapsed_ms(prev, cur);
	char label[16], a[16], b[16], c[16], d[16];
	unsigned int i;

	pxp_dp_stats_total(&prev->dp, &ta);
	pxp_dp_stats_total(&cur->dp, &tb);
	queue_rates_of(&ta, &tb, ms, &total);
	if (json) {
		status_begin(&w, out, true);
		json_header(&w, cur);
		status_u64(&w, "interval_ms", ms);
		status_array_begin(&w, "queues");
		for (i = 0; i < cur->dp.nr_queues; i++) {
			stats_queue_rates(prev, cur, i, &r);
			json_rates(&w, NULL, i, &r);
		}
		status_array_end(&w);
		json_rates(&w, "total", 0, &total);
		status_array_begin(&w, "netdevs");
		for (i = 0; i < cur->nr_netdevs; i++) {
			stats_netdev_rates(prev, cur, i, &nr);
			status_object_begin(&w, NULL);
			status_str(&w, "ifname", cur->netdev[i].ifname);
			status_u64(&w, "rx_pps", nr.rx_pps);
			status_u64(&w, "rx_bps", nr.rx_bps);
			status_u64(&w, "tx_pps", nr.tx_pps);
			status_u64(&w, "tx_bps", nr.tx_bps);
			status_object_end(&w);
		}
		status_array_end(&w);
		status_object_begin(&w, "counters");
		for (i = 0; i < cur->nr_counters; i++)
			status_u64(&w, cur->counter[i].name, stats_counter_rate(prev, cur, i));
		status_object_end(&w);
		status_end(&w);
		fflush(out);
		return;
	}
	fprintf(out, "%s: %s, %s, data path %s; per second over the last %.1f s\n", cur->iface,
		cur->role, cur->state, cur->mode, (double)ms / 1000.0);
	if (has_queue_rows(cur)) {
		text_rate_header(out);
		for (i = 0; i < cur->dp.nr_queues; i++) {
			stats_queue_rates(prev, cur, i, &r);
			snprintf(label, sizeof(label), "%u", i);
			text_rate_row(out, label, &r);
		}
		text_rate_row(out, "total", &total);
	}
	if (cur->nr_netdevs)
		fprintf(out, "%-15s %10s %10s %10s %10s\n", "netdev", "rx pkt", "rx bit", "tx pkt",
			"tx bit");
	for (i = 0; i < cur->nr_netdevs; i++) {
		stats_netdev_rates(prev, cur, i, &nr);
		fprintf(out, "%-15s %10s %10s %10s %10s\n", cur->netdev[i].ifname,
			si(nr.rx_pps, a, sizeof(a)), si(nr.rx_bps, b, sizeof(b)),
			si(nr.tx_pps, c, sizeof(c)), si(nr.tx_bps, d, sizeof(d)));
	}
	if (cur->nr_counters)
		text_counter_rates(out, prev, cur);
	fflush(out);
}
