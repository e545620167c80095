// SPDX-License-Identifier: GPL-2.0
/*
 * What the WireGuard device reports: its drop counters by reason (RUN_DIR/IFNAME.wg and one
 * log line at the end), and on the control socket status and status-json (what `wg show`
 * shows) and stats (a snapshot for `pppoe-xp stats`).
 */
#define _GNU_SOURCE /* struct mmsghdr in wg_device_internal.h */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "allowed_ips.h"
#include "event_loop.h"
#include "log.h"
#include "noise.h"
#include "stats_report.h"
#include "status.h"
#include "uapi.h"
#include "wg_device_internal.h"

static const char *const dev_drop_names[] = {
#define DEV_DROP_NAME(name, why) #name,
	WG_DEV_DROPS(DEV_DROP_NAME)
#undef DEV_DROP_NAME
};

/* "WG_DROP_MAC1": the file and the log say "mac1". */
#define CORE_DROP_PREFIX_LEN (sizeof("WG_DROP_") - 1)
static const char *const core_drop_names[] = {
#define CORE_DROP_NAME(name, text) #name,
	WG_DROP_REASONS(CORE_DROP_NAME)
#undef CORE_DROP_NAME
};

/* Every drop reason, the core's (but WG_OK) and then the shell's, numbered 0..N_DROPS-1. */
#define N_DROPS (WG_DROP_COUNT - 1 + DEV_DROP_COUNT)

static uint64_t drop_count(const struct wg_device *d, unsigned int i)
{
	return i < WG_DROP_COUNT - 1 ? d->core_drops[i + 1] : d->dev_drops[i - (WG_DROP_COUNT - 1)];
}

/* Reason i as a word: WG_DROP_MAC1 is "mac1", a shell reason its name. */
static const char *drop_name(unsigned int i, char word[32])
{
	const char *enum_name;
	size_t k;

	if (i >= WG_DROP_COUNT - 1)
		return dev_drop_names[i - (WG_DROP_COUNT - 1)];
	enum_name = core_drop_names[i + 1] + CORE_DROP_PREFIX_LEN;
	for (k = 0; enum_name[k] && k < 31; k++)
		word[k] = (char)tolower((unsigned char)enum_name[k]);
	word[k] = '\0';
	return word;
}

static uint64_t drops_total(const struct wg_device *d)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < N_DROPS; i++)
		n += drop_count(d, i);
	return n;
}

/* ---- drop counters ------------------------------------------------------------- */

/* RUN_DIR/IFNAME.wg: the drop counters by reason, rewritten when they change. */
void wgd_write_drops(struct wg_device *d)
{
	char word[32];
	char tmp[sizeof(d->stats_path) + 4];
	uint64_t total = drops_total(d);
	FILE *f;

	if (d->drops_file && total == d->drops_written)
		return;
	snprintf(tmp, sizeof(tmp), "%s.new", d->stats_path);
	f = fopen(tmp, "w");
	if (!f)
		return;
	for (unsigned int i = 0; i < N_DROPS; i++)
		fprintf(f, "%s%s %llu\n", STATS_DROP_PREFIX, drop_name(i, word),
			(unsigned long long)drop_count(d, i));
	if (fclose(f) == 0 && rename(tmp, d->stats_path) == 0) {
		d->drops_written = total;
		d->drops_file = true;
	}
}

/* The non-zero drop counters in one line, once, at the end. */
void wgd_log_drops(const struct wg_device *d)
{
	char line[512], word[32];
	int off = 0;

	for (unsigned int i = 0; i < N_DROPS && off < (int)sizeof(line); i++)
		if (drop_count(d, i))
			off += snprintf(line + off, sizeof(line) - (size_t)off, " %s=%llu",
					drop_name(i, word), (unsigned long long)drop_count(d, i));
	if (off)
		pxp_info("%s: drops:%s", d->s->ifname, line);
}

/* ---- status and stats on the control socket (pppoe-xp status|stats IFNAME) ------- */

/*
 * The device's counters by name: X(name, value). Its traffic, the inner packets and bytes
 * both ways (stats has them as the TUN's netdev row), then UDP datagrams and bytes both
 * ways; TSO superpackets read and their segments; superpackets written and the segments
 * joined into them; UDP GRO reads and GSO sends and their datagrams.
 */
#define DEV_TRAFFIC(X)                                 \
	X(tun_packets_read, d->tun_read_packets)       \
	X(tun_bytes_read, d->tun_read_bytes)           \
	X(tun_packets_written, d->tun_written_packets) \
	X(tun_bytes_written, d->tun_written_bytes)
#define DEV_COUNTERS(X)                                  \
	X(udp_datagrams_received, d->udp_rx_datagrams)   \
	X(udp_bytes_received, d->udp_rx_bytes)           \
	X(udp_datagrams_sent, d->udp_tx_datagrams)       \
	X(udp_bytes_sent, d->udp_tx_bytes)               \
	X(tun_superpackets_read, d->tun_superpackets)    \
	X(tun_segments_read, d->tun_segments)            \
	X(tun_superpackets_written, d->gro.superpackets) \
	X(tun_segments_written, d->gro.coalesced)        \
	X(udp_gro_reads, d->gro_reads)                   \
	X(udp_gro_datagrams, d->gro_datagrams)           \
	X(udp_gso_sends, d->gso_sends)                   \
	X(udp_gso_datagrams, d->gso_datagrams)

#define DEV_COUNTER_ONE(name, value) +1
_Static_assert(0 DEV_COUNTERS(DEV_COUNTER_ONE) + N_DROPS <= STATS_MAX_COUNTERS,
	       "a stats snapshot holds every counter and drop reason");
#undef DEV_COUNTER_ONE

static const char *device_state(const struct wg_device *d)
{
	return d->has_key ? "up" : "no private key";
}

/* A key as wg(8) shows it: standard base64, 44 characters. */
static void key_base64(const uint8_t key[WG_KEY_LEN], char out[45])
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i, o = 0;

	for (i = 0; i + 2 < WG_KEY_LEN; i += 3) {
		uint32_t v = (uint32_t)key[i] << 16 | (uint32_t)key[i + 1] << 8 | key[i + 2];

		out[o++] = b64[v >> 18];
		out[o++] = b64[(v >> 12) & 63];
		out[o++] = b64[(v >> 6) & 63];
		out[o++] = b64[v & 63];
	}
	/* 32 = 30 + 2: the last two bytes and one '='. */
	uint32_t v = (uint32_t)key[i] << 16 | (uint32_t)key[i + 1] << 8;

	out[o++] = b64[v >> 18];
	out[o++] = b64[(v >> 12) & 63];
	out[o++] = b64[(v >> 6) & 63];
	out[o++] = '=';
	out[o] = '\0';
}

static int status_aip(const struct aip_prefix *p, void *ctx)
{
	char addr[INET6_ADDRSTRLEN], s[INET6_ADDRSTRLEN + 4];

	inet_ntop(p->family, p->addr, addr, sizeof(addr));
	snprintf(s, sizeof(s), "%s/%u", addr, p->cidr);
	status_str(ctx, NULL, s);
	return 0;
}

/* What `wg show` shows of the device and each peer, never a private or preshared key. */
static void write_status(struct wg_device *d, FILE *out, bool json)
{
	struct status_writer w;
	struct timespec wall;
	char key[45], word[32];

	clock_gettime(CLOCK_REALTIME, &wall);
	status_begin(&w, out, json);
	status_str(&w, "iface", d->s->ifname);
	status_str(&w, "role", "wireguard");
	status_u64(&w, "pid", (uint64_t)getpid());
	status_str(&w, "state", device_state(d));
	if (d->has_key)
		key_base64(d->local.key.pub, key);
	status_str(&w, "public_key", d->has_key ? key : NULL);
	status_u64(&w, "listen_port", d->listen_port);
	status_u64(&w, "fwmark", d->fwmark);
	status_str(&w, "socket", d->udp_family == AF_INET ? "ipv4" : "dual-stack");
	status_u64(&w, "mtu", d->mtu);
	status_str(&w, "tun_offload", d->tun_offload ? "on" : "off");
	status_str(&w, "udp_gso", d->udp_gso ? "on" : "off");
	status_str(&w, "udp_gro", d->udp_gro ? "on" : "off");
	status_u64(&w, "crypto_threads", d->threads);
	status_u64(&w, "receiver_indices", d->by_index.count);
#define STATUS_COUNTER(name, value) status_u64(&w, #name, value);
	DEV_TRAFFIC(STATUS_COUNTER)
	DEV_COUNTERS(STATUS_COUNTER)
#undef STATUS_COUNTER
	status_array_begin(&w, "peers");
	for (struct peer *p = d->peers; p; p = p->next) {
		struct uapi_endpoint e;
		char ep[INET6_ADDRSTRLEN + 8];
		bool hs = p->last_handshake.tv_sec || p->last_handshake.tv_nsec;

		status_object_begin(&w, NULL);
		key_base64(p->noise.pub, key);
		status_str(&w, "public_key", key);
		if (p->has_endpoint) {
			wgd_endpoint_to_uapi(&p->endpoint, &e);
			uapi_format_endpoint(&e, ep, sizeof(ep));
		}
		status_str(&w, "endpoint", p->has_endpoint ? ep : NULL);
		status_array_begin(&w, "allowed_ips");
		allowed_ips_walk(&d->aips, p, status_aip, &w);
		status_array_end(&w);
		/* wg show dump's latest-handshake (Unix seconds, 0: never) and its age. */
		status_u64(&w, "latest_handshake", (uint64_t)p->last_handshake.tv_sec);
		if (hs && wall.tv_sec >= p->last_handshake.tv_sec)
			status_u64(&w, "handshake_age_s",
				   (uint64_t)(wall.tv_sec - p->last_handshake.tv_sec));
		else
			status_str(&w, "handshake_age_s", NULL);
		status_u64(&w, "rx_bytes", p->rx_bytes);
		status_u64(&w, "tx_bytes", p->tx_bytes);
		status_u64(&w, "persistent_keepalive", p->st.persistent_keepalive_s);
		status_object_end(&w);
	}
	status_array_end(&w);
	status_object_begin(&w, "drops");
	for (unsigned int i = 0; i < N_DROPS; i++)
		if (drop_count(d, i))
			status_u64(&w, drop_name(i, word), drop_count(d, i));
	status_object_end(&w);
	status_end(&w);
}

void wgd_ctl_status(void *ctx, FILE *reply)
{
	write_status(ctx, reply, false);
}

void wgd_ctl_status_json(void *ctx, FILE *reply)
{
	write_status(ctx, reply, true);
}

/*
 * One snapshot for `pppoe-xp stats`: the TUN as the netdev row (rx: written to it, from
 * the peers; tx: read from it), the counters and every drop reason by name.
 */
void wgd_ctl_stats(void *ctx, FILE *reply)
{
	struct wg_device *d = ctx;
	struct stats_snapshot *st = calloc(1, sizeof(*st));
	struct stats_netdev *n;
	char name[STATS_COUNTER_NAME], word[32];

	if (!st) {
		fputs("error: out of memory\n", reply);
		return;
	}
	snprintf(st->iface, sizeof(st->iface), "%s", d->s->ifname);
	snprintf(st->role, sizeof(st->role), "wireguard");
	/* one word: "no private key" is "no-private-key" */
	snprintf(st->state, sizeof(st->state), "%s", device_state(d));
	for (char *c = st->state; *c; c++)
		if (*c == ' ')
			*c = '-';
	snprintf(st->mode, sizeof(st->mode), "%s", d->tun_offload ? "tun-offload" : "tun-plain");
	st->time_ms = ev_now_ms();
	n = &st->netdev[st->nr_netdevs++];
	snprintf(n->ifname, sizeof(n->ifname), "%s", d->s->ifname);
	n->rx_packets = d->tun_written_packets;
	n->rx_bytes = d->tun_written_bytes;
	n->tx_packets = d->tun_read_packets;
	n->tx_bytes = d->tun_read_bytes;
#define STATS_COUNTER(name, value) stats_counter_add(st, #name, value);
	DEV_COUNTERS(STATS_COUNTER)
#undef STATS_COUNTER
	for (unsigned int i = 0; i < N_DROPS; i++) {
		snprintf(name, sizeof(name), "%s%s", STATS_DROP_PREFIX, drop_name(i, word));
		stats_counter_add(st, name, drop_count(d, i));
	}
	stats_snapshot_write(st, reply);
	free(st);
}
