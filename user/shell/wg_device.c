// SPDX-License-Identifier: GPL-2.0
/*
 * The WireGuard device: wg-bridge's pure core (noise, timers and key slots, replay,
 * allowed-IPs, rate limit, UAPI) joined to a TUN, a UDP socket and the UAPI socket, in the
 * shape of wireguard-go's device/ (receive.go, send.go, timers.go, uapi.go). One thread runs
 * the loop and every decision; only the data messages' ChaCha20-Poly1305 is spread, batch by
 * batch, over a pool of crypto threads (crypto_pool.h), joined before the batch goes on, so
 * order is kept by construction.
 *
 *   TUN read -> superpacket? segments (tun_offload.c) -> allowed-IPs by destination -> peer
 *            -> current keys? frame into the TX arena (UDP GSO runs); at the flush seal
 *               all over the pool, sendmmsg
 *               no keys: stage, start a handshake
 *   recvmmsg (UDP GRO: split) -> wg_message_check -> handshake: the run so far finished,
 *                                   then noise (+ cookie/rate limit)
 *                                -> data: keys by receiver index into the run; the run
 *                                   decrypted over the pool, then each in arrival order:
 *                                   replay, roaming, allowed-IPs by source, TCP
 *                                   coalescing, TUN write
 *
 * Why fork-join and not the kernel's per-device ring and per-peer ordered queue
 * (CONVENTIONS 16c): the loop already works in batches (recvmmsg, a TUN batch, sendmmsg),
 * and a batch joined before it goes on keeps its order with no queue, no per-packet state
 * and no lock; what it costs is the wait for a batch's slowest job.
 *
 * The UAPI's get=1 and set=1 are wg_device_config.c's, status, stats and the drop counters'
 * file wg_device_status.c's; the state they share is wg_device_internal.h.
 */
#define _GNU_SOURCE /* recvmmsg, sendmmsg */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/if_tun.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "allowed_ips.h"
#include "container_of.h"
#include "control.h"
#include "crypto_pool.h"
#include "daemon.h"
#include "event_loop.h"
#include "log.h"
#include "mono_clock.h"
#include "noise.h"
#include "ratelimit.h"
#include "run_dir.h"
#include "timer_heap.h"
#include "u32_map.h"
#include "uapi_server.h"
#include "wg_device.h"
#include "wg_device_internal.h"
#include "wg_stamp.h"
#include "wg_timers.h"

#define RATELIMIT_SIZE 8192
#define HOUSEKEEP_MS   1000
#define UDP_BUF_BYTES  (4 << 20)

/* A refusal of tun_offload.c as the device counts it. */
static const enum wg_dev_drop tun_drop_dev[TUN_DROP_COUNT] = {
#define TUN_DROP_DEV(name, why) [TUN_DROP_##name] = DEV_DROP_##name,
	TUN_OFFLOAD_DROPS(TUN_DROP_DEV)
#undef TUN_DROP_DEV
};

static int os_rng(void *ctx, uint8_t *buf, size_t len)
{
	(void)ctx;
	return getrandom(buf, len, 0) == (ssize_t)len ? 0 : -EIO;
}

/*
 * 32 random bits: the timers' jitter wants them at every packet, and a getrandom(2) each was
 * 15% of the device's CPU (perf), so the kernel's bytes are drawn 256 at a time.
 */
static uint32_t rnd32(void)
{
	static uint8_t pool[256];
	static size_t left;
	uint32_t v = 0;

	if (left < sizeof(v)) {
		if (os_rng(NULL, pool, sizeof(pool)))
			return v;
		left = sizeof(pool);
	}
	left -= sizeof(v);
	memcpy(&v, pool + left, sizeof(v));
	return v;
}

static void drop(struct wg_device *d, enum wg_dev_drop why)
{
	d->dev_drops[why]++;
}

/* ---- peers --------------------------------------------------------------------- */

struct peer *wgd_peer_by_pub(struct wg_device *d, const uint8_t pub[WG_KEY_LEN])
{
	for (struct peer *p = d->peers; p; p = p->next)
		if (!memcmp(p->noise.pub, pub, WG_KEY_LEN))
			return p;
	return NULL;
}

static struct wg_noise_peer *lookup_noise_peer(void *ctx, const uint8_t pub[WG_KEY_LEN])
{
	struct peer *p = wgd_peer_by_pub(ctx, pub);

	return p ? &p->noise : NULL;
}

/*
 * Receiver indices. d->by_index maps each index new_index() gave out to its peer, so that a
 * message addressed to one finds its peer in one lookup, however many peers there are
 * (wireguard-go's indextable). Nothing takes an entry out when the index retires (the key
 * slots, wg_timers.c, retire keys without telling us): a lookup checks that the peer still
 * holds the index, and a full map first sweeps out the entries whose peers no longer do,
 * then grows. A removed peer's entries go with it. The map's first room is a few peers'
 * worth: a peer holds a handshake's index and its three key slots', and its cached ciphers
 * answer to those or to slots just retired.
 */
#define INDICES_MIN 64

static bool peer_holds_index(const struct peer *p, uint32_t idx)
{
	if (p->hs.state != WG_HS_NONE && p->hs.local_index == idx)
		return true;
	for (int s = 0; s < WG_SLOTS; s++)
		if ((p->st.slot[s].recv_valid && p->st.slot[s].local_index == idx) ||
		    (p->aead[s].valid && p->aead[s].local_index == idx))
			return true;
	return false;
}

/* The peer an index was given to, or NULL (it may have retired it since). */
static struct peer *index_peer(const struct wg_device *d, uint32_t idx)
{
	uintptr_t p;

	return u32_map_get(&d->by_index, idx, &p) ? (struct peer *)p : NULL;
}

static bool index_retired(uint32_t idx, uintptr_t p, void *ctx)
{
	(void)ctx;
	return !peer_holds_index((const struct peer *)p, idx);
}

static bool index_of_peer(uint32_t idx, uintptr_t p, void *victim)
{
	(void)idx;
	return p == (uintptr_t)victim;
}

/*
 * A receiver index for p's new handshake, unique on the device and not one a cached cipher
 * still answers to (an index stays in the map until retired). false if the map is full
 * and cannot grow.
 */
static bool new_index(struct wg_device *d, struct peer *p, uint32_t *idx)
{
	struct u32_map *m = &d->by_index;

	if (m->count == m->max) {
		u32_map_del_if(m, index_retired, NULL);
		/* Half full of live indices: grow, so that sweeps stay rare. */
		if (m->count > m->max / 2)
			u32_map_resize(m, 2 * m->max);
		if (m->count == m->max)
			return false;
	}
	do
		*idx = rnd32();
	while (!*idx || u32_map_get(m, *idx, NULL));
	return u32_map_put(m, *idx, (uintptr_t)p) == 0;
}

static void staged_clear(struct peer *p)
{
	while (p->staged_n) {
		free(p->staged[p->staged_head]);
		p->staged[p->staged_head] = NULL;
		p->staged_head = (p->staged_head + 1) % STAGED_MAX;
		p->staged_n--;
	}
	p->staged_head = 0;
}

static void tx_seal(struct wg_device *d);

static void aead_keys_free(struct aead_cache *c, unsigned int n)
{
	for (unsigned int t = 0; t < n; t++) {
		wg_aead_key_free(&c->send[t]);
		wg_aead_key_free(&c->recv[t]);
	}
}

/*
 * A cache entry's ciphers freed. The TX batch's pending seals may use them: those run first,
 * so keys never change under a pending job. (A receive run's pending opens hold live entries
 * only; a run finishes before anything can drop one: rx_data_begin.)
 */
static void aead_drop(struct wg_device *d, struct aead_cache *c)
{
	if (!c->valid)
		return;
	tx_seal(d);
	aead_keys_free(c, d->threads);
	c->valid = false;
}

static void aead_drop_all(struct wg_device *d, struct peer *p)
{
	for (int i = 0; i < WG_SLOTS; i++)
		aead_drop(d, &p->aead[i]);
}

/* The ciphers of key slot kp if they are set up, else NULL. */
static struct aead_cache *aead_find(struct peer *p, const struct wg_keypair *kp)
{
	for (int i = 0; i < WG_SLOTS; i++)
		if (p->aead[i].valid && p->aead[i].local_index == kp->local_index)
			return &p->aead[i];
	return NULL;
}

/*
 * The ciphers of key slot kp, set up on first use (a context each per crypto thread). An
 * entry whose index no slot holds any more is reused: there are as many entries as slots.
 * NULL if OpenSSL cannot make them.
 */
static struct aead_cache *aead_for(struct wg_device *d, struct peer *p, const struct wg_keypair *kp)
{
	struct aead_cache *free_c = aead_find(p, kp);
	unsigned int t;

	if (free_c)
		return free_c;
	for (int i = 0; i < WG_SLOTS && !free_c; i++) {
		struct aead_cache *c = &p->aead[i];
		bool live = false;

		for (int s = 0; s < WG_SLOTS && c->valid; s++)
			live |= p->st.slot[s].recv_valid &&
				p->st.slot[s].local_index == c->local_index;
		if (!live)
			free_c = c;
	}
	if (!free_c)
		return NULL;
	aead_drop(d, free_c);
	for (t = 0; t < d->threads; t++) {
		if (wg_aead_key_init(&free_c->send[t], kp->send_key, true))
			break;
		if (wg_aead_key_init(&free_c->recv[t], kp->recv_key, false)) {
			wg_aead_key_free(&free_c->send[t]);
			break;
		}
	}
	if (t < d->threads) {
		aead_keys_free(free_c, t);
		return NULL;
	}
	free_c->local_index = kp->local_index;
	free_c->valid = true;
	return free_c;
}

static void peer_free(struct wg_device *d, struct peer *p)
{
	timer_heap_detach(&d->timers, &p->timer);
	aead_drop_all(d, p);
	staged_clear(p);
	wg_handshake_clear(&p->hs);
	explicit_bzero(p, sizeof(*p));
	free(p);
}

struct peer *wgd_peer_new(struct wg_device *d, const uint8_t pub[WG_KEY_LEN])
{
	struct peer *p = calloc(1, sizeof(*p)), **pp;

	if (!p)
		return NULL;
	if (timer_heap_attach(&d->timers, &p->timer)) {
		free(p);
		return NULL;
	}
	wg_noise_peer_init(&p->noise, pub, NULL);
	wg_peer_init(&p->st, 0);
	wgd_peer_timer_sync(d, p);
	for (pp = &d->peers; *pp; pp = &(*pp)->next)
		;
	*pp = p;
	d->n_peers++;
	return p;
}

void wgd_peer_remove(struct wg_device *d, struct peer *victim)
{
	wgd_tx_flush(d); /* the batch may hold messages to it, and counts their bytes on it */
	for (struct peer **pp = &d->peers; *pp; pp = &(*pp)->next) {
		if (*pp != victim)
			continue;
		*pp = victim->next;
		allowed_ips_remove_peer(&d->aips, victim);
		u32_map_del_if(&d->by_index, index_of_peer, victim);
		peer_free(d, victim);
		d->n_peers--;
		return;
	}
}

/* Keys and handshakes of every peer go (the private key changed). */
void wgd_peers_expire_sessions(struct wg_device *d)
{
	for (struct peer *p = d->peers; p; p = p->next) {
		uint16_t pk = p->st.persistent_keepalive_s;

		wg_handshake_clear(&p->hs);
		explicit_bzero(&p->st, sizeof(p->st));
		wg_peer_init(&p->st, pk);
		wgd_peer_timer_sync(d, p);
		aead_drop_all(d, p);
		staged_clear(p);
	}
}

static void set_endpoint(struct peer *p, const struct sockaddr_in6 *from)
{
	p->endpoint = *from;
	p->has_endpoint = true;
}

/* ---- sending ------------------------------------------------------------------- */

/*
 * One pending seal. On the pool's threads: writes only its own message and job. A failure
 * (OpenSSL's) wipes the message, so the datagram carries no plaintext and the peer drops it.
 */
static void seal_one(void *ctx, unsigned int job, unsigned int thread)
{
	struct seal_job *j = &((struct tx_batch *)ctx)->seal[job];

	j->failed = wg_data_frame_seal(j->msg, j->len, &j->keys[thread]) != 0;
	if (j->failed)
		explicit_bzero(j->msg, j->len);
}

/* The batch's framed data messages sealed, over the pool, in place. */
static void tx_seal(struct wg_device *d)
{
	struct tx_batch *t = &d->tx;

	if (!t->n_seal)
		return;
	crypto_pool_run(d->pool, t->n_seal, seal_one, t);
	for (unsigned int i = 0; i < t->n_seal; i++)
		d->core_drops[WG_DROP_INTERNAL] += t->seal[i].failed;
	t->n_seal = 0;
}

void wgd_tx_flush(struct wg_device *d)
{
	struct tx_batch *t = &d->tx;
	unsigned int done = 0;

	tx_seal(d);
	for (unsigned int i = 0; i < t->n; i++) {
		struct msghdr *m = &t->msg[i].msg_hdr;
		struct cmsghdr *cm;

		if (t->segs[i] < 2)
			continue;
		m->msg_control = t->ctl[i].buf;
		m->msg_controllen = sizeof(t->ctl[i].buf);
		cm = CMSG_FIRSTHDR(m);
		cm->cmsg_level = SOL_UDP;
		cm->cmsg_type = UDP_SEGMENT;
		cm->cmsg_len = CMSG_LEN(sizeof(uint16_t));
		memcpy(CMSG_DATA(cm), &t->seg[i], sizeof(uint16_t));
	}
	while (done < t->n) {
		int n = sendmmsg(d->udp_fd, t->msg + done, t->n - done, 0);

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			/* A device that cannot segment (EIO): single datagrams from now on. */
			if (n < 0 && (errno == EIO || errno == EINVAL) && t->segs[done] > 1 &&
			    d->udp_gso) {
				pxp_info("%s: UDP GSO refused (%s): sending datagram by datagram",
					 d->s->ifname, strerror(errno));
				d->udp_gso = false;
			}
			/* A full socket buffer or an unreachable peer: these are lost. */
			for (unsigned int k = 0; k < t->segs[done]; k++)
				drop(d, DEV_DROP_send);
			done++;
			continue;
		}
		for (int i = 0; i < n; i++) {
			t->peer[done + i]->tx_bytes += t->iov[done + i].iov_len;
			d->udp_tx_datagrams += t->segs[done + i];
			d->udp_tx_bytes += t->iov[done + i].iov_len;
			if (t->segs[done + i] > 1) {
				d->gso_sends++;
				d->gso_datagrams += t->segs[done + i];
			}
		}
		done += (unsigned int)n;
	}
	t->n = 0;
	t->used = 0;
}

/* Room in the TX batch for one message (flushing a full batch first). */
static uint8_t *tx_slot(struct wg_device *d)
{
	struct tx_batch *t = &d->tx;

	/* No alignment: the message structs are packed, and a GSO run is contiguous. */
	if (t->n == BATCH || t->used + PKT_BUF > sizeof(t->arena))
		wgd_tx_flush(d);
	return t->arena + t->used;
}

/*
 * to as the socket takes it, into out; its length, or 0 for an IPv6 destination on an
 * IPv4-only socket (counted).
 */
static socklen_t udp_addr_out(struct wg_device *d, const struct sockaddr_in6 *to,
			      union udp_addr *out)
{
	if (d->udp_family == AF_INET6) {
		out->v6 = *to;
		return sizeof(out->v6);
	}
	if (!IN6_IS_ADDR_V4MAPPED(&to->sin6_addr)) {
		drop(d, DEV_DROP_no_ipv6);
		return 0;
	}
	out->v4 = (struct sockaddr_in){ .sin_family = AF_INET, .sin_port = to->sin6_port };
	memcpy(&out->v4.sin_addr, to->sin6_addr.s6_addr + 12, 4);
	return sizeof(out->v4);
}

/* A source from an IPv4-only socket as everything else keeps it: v4-mapped. */
static void udp_addr_in(struct sockaddr_in6 *from)
{
	struct sockaddr_in v4;

	if (from->sin6_family != AF_INET)
		return;
	memcpy(&v4, from, sizeof(v4));
	*from = (struct sockaddr_in6){ .sin6_family = AF_INET6, .sin6_port = v4.sin_port };
	from->sin6_addr.s6_addr[10] = from->sin6_addr.s6_addr[11] = 0xff;
	memcpy(from->sin6_addr.s6_addr + 12, &v4.sin_addr, 4);
}

/*
 * The len bytes tx_slot gave, to p: the last run's next datagram where GSO allows. False if
 * the batch cannot take them (no address for the endpoint: counted).
 */
static bool tx_commit(struct wg_device *d, struct peer *p, size_t len)
{
	struct tx_batch *t = &d->tx;
	uint8_t *at = t->arena + t->used;
	unsigned int i = t->n;
	socklen_t alen;

	if (d->udp_gso && i) {
		unsigned int j = i - 1;

		if (t->peer[j] == p && !t->closed[j] && len <= t->seg[j] &&
		    t->segs[j] < GSO_SEGS_MAX && t->iov[j].iov_len + len <= GSO_BYTES_MAX &&
		    (uint8_t *)t->iov[j].iov_base + t->iov[j].iov_len == at) {
			t->iov[j].iov_len += len;
			t->segs[j]++;
			t->closed[j] = len < t->seg[j];
			t->used += len;
			return true;
		}
	}
	alen = udp_addr_out(d, &p->endpoint, &t->to[i]);
	if (!alen)
		return false; /* the room stays free */
	t->peer[i] = p;
	t->iov[i] = (struct iovec){ .iov_base = at, .iov_len = len };
	t->msg[i].msg_hdr = (struct msghdr){
		.msg_name = &t->to[i], .msg_namelen = alen, .msg_iov = &t->iov[i], .msg_iovlen = 1
	};
	t->seg[i] = (uint16_t)len;
	t->segs[i] = 1;
	t->closed[i] = false;
	t->used += len;
	t->n = i + 1;
	return true;
}

static void peer_actions(struct wg_device *d, struct peer *p, unsigned int actions);

/*
 * Encrypts pkt (len bytes; NULL and 0 for a keepalive) to p under its current keys. False
 * when there are none (the caller stages the packet); the handshake that needs is asked.
 */
bool wgd_send_data(struct wg_device *d, struct peer *p, const uint8_t *pkt, size_t len)
{
	const struct wg_keypair *kp;
	struct aead_cache *c;
	unsigned int actions;
	uint64_t counter, now = ev_now_ms();
	uint8_t *out;
	int n;

	if (!p->has_endpoint) {
		drop(d, DEV_DROP_no_endpoint);
		return true;
	}
	kp = wg_peer_encrypt_slot(&p->st, now, &counter, &actions);
	if (!kp) {
		peer_actions(d, p, actions);
		return false;
	}
	c = aead_for(d, p, kp);
	if (!c) {
		d->core_drops[WG_DROP_INTERNAL]++;
		peer_actions(d, p, actions);
		return true;
	}
	out = tx_slot(d);
	/* Framed now, sealed with the rest of the batch before it is sent (tx_seal). */
	n = wg_data_frame(out, PKT_BUF, pkt, len, d->mtu, kp->remote_index, counter);
	if (n < 0) {
		drop(d, DEV_DROP_inner);
	} else {
		if (tx_commit(d, p, (size_t)n))
			d->tx.seal[d->tx.n_seal++] = (struct seal_job){ .msg = out,
									.keys = c->send,
									.len = (uint16_t)n };
		actions |=
			wg_peer_sent(&p->st, len ? WG_SENT_DATA : WG_SENT_KEEPALIVE, now, rnd32());
	}
	peer_actions(d, p, actions);
	return true;
}

static void stage(struct wg_device *d, struct peer *p, const uint8_t *pkt, size_t len)
{
	struct staged *s = malloc(sizeof(*s) + len);
	unsigned int tail;

	if (!s) {
		drop(d, DEV_DROP_staged_full);
		return;
	}
	if (p->staged_n == STAGED_MAX) {
		free(p->staged[p->staged_head]);
		p->staged_head = (p->staged_head + 1) % STAGED_MAX;
		p->staged_n--;
		drop(d, DEV_DROP_staged_full);
	}
	s->len = (uint16_t)len;
	memcpy(s->data, pkt, len);
	tail = (p->staged_head + p->staged_n) % STAGED_MAX;
	p->staged[tail] = s;
	p->staged_n++;
}

/* The staged packets, in order, now that keys exist; false if they went away again. */
static bool send_staged(struct wg_device *d, struct peer *p)
{
	while (p->staged_n) {
		struct staged *s = p->staged[p->staged_head];

		if (!wgd_send_data(d, p, s->data, s->len))
			return false;
		free(s);
		p->staged[p->staged_head] = NULL;
		p->staged_head = (p->staged_head + 1) % STAGED_MAX;
		p->staged_n--;
	}
	return true;
}

/* ---- handshake stamps across restarts (wg_stamp.h) ------------------------------- */

/* The private key's stamp file read: its bound, or none (missing or unreadable). */
void wgd_stamp_load(struct wg_device *d)
{
	char name[WG_STAMP_NAME_LEN], text[WG_STAMP_TEXT_LEN + 1];
	uint8_t bound[WG_TAI64N_LEN];
	const char *why = NULL;
	ssize_t n;
	int fd;

	wg_stamp_file_name(name, d->local.key.pub);
	snprintf(d->stamp_path, sizeof(d->stamp_path), "%s/%s", d->s->state_dir, name);
	d->stamp_warned = false;
	wg_stamp_start(&d->stamp, NULL);
	fd = open(d->stamp_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		if (errno != ENOENT)
			pxp_warn("%s: cannot read %s: %s; handshake stamps start from the clock",
				 d->s->ifname, d->stamp_path, strerror(errno));
		return;
	}
	n = read(fd, text, sizeof(text));
	close(fd);
	if (n < 0)
		why = strerror(errno);
	else if (wg_stamp_parse(text, (size_t)n, bound, &why) == 0)
		wg_stamp_start(&d->stamp, bound);
	if (why)
		pxp_warn("%s: %s: %s; handshake stamps start from the clock", d->s->ifname,
			 d->stamp_path, why);
}

/* bound into the stamp file, atomically and on disk before the stamp past it is sent. */
static int stamp_save(struct wg_device *d, const uint8_t bound[WG_TAI64N_LEN])
{
	char tmp[sizeof(d->stamp_path) + 4], text[WG_STAMP_TEXT_LEN];
	int fd, dir, err = 0;
	ssize_t n;

	if (mkdir(d->s->state_dir, 0700) && errno != EEXIST)
		return -errno;
	snprintf(tmp, sizeof(tmp), "%s.new", d->stamp_path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	wg_stamp_format(text, bound);
	n = write(fd, text, sizeof(text));
	if (n != (ssize_t)sizeof(text))
		err = n < 0 ? -errno : -ENOSPC;
	else if (fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, d->stamp_path))
		err = -errno;
	if (err) {
		unlink(tmp);
		return err;
	}
	/* The rename itself on disk: a power cut must not bring the old bound back. */
	dir = open(d->s->state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir >= 0) {
		fsync(dir);
		close(dir);
	}
	return 0;
}

/* The stamp for an initiation: greater than every one this key sent, restarts included. */
static void stamp_take(struct wg_device *d, uint8_t out[WG_TAI64N_LEN])
{
	uint8_t want[WG_TAI64N_LEN];
	struct timespec wall;
	int err;

	clock_gettime(CLOCK_REALTIME, &wall);
	wg_stamp_next(&d->stamp, out, (uint64_t)wall.tv_sec, (uint32_t)wall.tv_nsec);
	if (!wg_stamp_bound_needed(&d->stamp, want))
		return;
	err = stamp_save(d, want);
	if (!err) {
		memcpy(d->stamp.bound, want, sizeof(want));
		d->stamp_warned = false;
	} else if (!d->stamp_warned) {
		/* Sent anyway: a handshake now matters more than one after a reboot. */
		pxp_warn("%s: cannot keep the handshake stamp in %s: %s; after a restart with the "
			 "clock behind, peers ignore this key until the clock passes it",
			 d->s->ifname, d->stamp_path, strerror(-err));
		d->stamp_warned = true;
	}
}

static void send_initiation(struct wg_device *d, struct peer *p)
{
	uint8_t stamp[WG_TAI64N_LEN];
	struct wg_msg_initiation *msg;
	uint32_t idx;

	if (!d->has_key) {
		drop(d, DEV_DROP_no_key);
		return;
	}
	if (!p->has_endpoint) {
		drop(d, DEV_DROP_no_endpoint);
		return;
	}
	stamp_take(d, stamp);
	wg_handshake_clear(&p->hs);
	msg = (struct wg_msg_initiation *)tx_slot(d);
	if (!new_index(d, p, &idx) || wg_initiation_create(msg, &p->hs, &d->local, &p->noise, stamp,
							   idx, os_rng, NULL, pxp_mono_ns())) {
		d->core_drops[WG_DROP_INTERNAL]++;
		return;
	}
	tx_commit(d, p, sizeof(*msg));
	peer_actions(d, p, wg_peer_sent(&p->st, WG_SENT_INITIATION, ev_now_ms(), rnd32()));
}

/* Does what the timers and key slots asked, until nothing more is asked. */
static void peer_actions(struct wg_device *d, struct peer *p, unsigned int actions)
{
	if (actions & WG_ACT_ZERO_KEYS) {
		wg_handshake_clear(&p->hs);
		aead_drop_all(d, p);
	}
	if (actions & WG_ACT_DROP_STAGED) {
		d->dev_drops[DEV_DROP_staged_given_up] += p->staged_n;
		staged_clear(p);
	}
	if (actions & WG_ACT_SEND_STAGED) {
		clock_gettime(CLOCK_REALTIME, &p->last_handshake);
		/* The initiator confirms its new keys with data, or a keepalive. */
		if (!p->staged_n && p->st.slot[WG_SLOT_CURRENT].initiator)
			wgd_send_data(d, p, NULL, 0);
		else
			send_staged(d, p);
	}
	if (actions & WG_ACT_SEND_INITIATION)
		send_initiation(d, p);
	if (actions & WG_ACT_SEND_KEEPALIVE)
		wgd_send_data(d, p, NULL, 0);
	/* WG_ACT_CLEAR_ENDPOINT_SRC: the kernel picks our source address each time anyway. */
	wgd_peer_timer_sync(d, p);
}

/* ---- TUN -> UDP ---------------------------------------------------------------- */

/* The inner packet's length by its IP header, or 0 if it is none or longer than len. */
static size_t inner_len(const uint8_t *pkt, size_t len)
{
	size_t n;

	if (len >= 20 && pkt[0] >> 4 == 4)
		n = (size_t)(pkt[2] << 8 | pkt[3]);
	else if (len >= 40 && pkt[0] >> 4 == 6)
		n = 40 + (size_t)(pkt[4] << 8 | pkt[5]);
	else
		return 0;
	return n <= len && n >= (pkt[0] >> 4 == 4 ? 20u : 40u) ? n : 0;
}

/* One IP packet read from the TUN (or a segment of a superpacket) to its peer. */
static void tun_packet(struct wg_device *d, const uint8_t *buf, size_t n)
{
	struct peer *p;
	int family;

	d->tun_read_packets++;
	d->tun_read_bytes += n;
	if (!inner_len(buf, n)) {
		drop(d, DEV_DROP_inner);
		return;
	}
	family = buf[0] >> 4 == 4 ? AF_INET : AF_INET6;
	p = (struct peer *)allowed_ips_lookup(&d->aips, family,
					      buf + (family == AF_INET ? 16 : 24));
	if (!p) {
		drop(d, DEV_DROP_no_peer);
		return;
	}
	/* Behind staged packets or without keys, wait for the handshake. */
	if (p->staged_n || !wgd_send_data(d, p, buf, n))
		stage(d, p, buf, n);
}

/* A read with its vnet header: a packet as it is, or a superpacket segment by segment. */
static void tun_superpacket(struct wg_device *d, uint8_t *buf, size_t n)
{
	struct virtio_net_hdr h;
	struct tun_gso g;
	enum tun_drop r;

	if (n < TUN_VNET_LEN) {
		drop(d, DEV_DROP_vnet_short);
		return;
	}
	memcpy(&h, buf, sizeof(h));
	r = tun_gso_parse(&g, &h, buf + TUN_VNET_LEN, n - TUN_VNET_LEN, d->mtu);
	if (r != TUN_OK) {
		drop(d, tun_drop_dev[r]);
		return;
	}
	if (g.type == VIRTIO_NET_HDR_GSO_NONE) {
		tun_packet(d, buf + TUN_VNET_LEN, n - TUN_VNET_LEN);
		return;
	}
	d->tun_superpackets++;
	d->tun_segments += g.segs;
	for (unsigned int i = 0; i < g.segs; i++)
		tun_packet(d, d->seg_buf, tun_gso_segment(&g, buf + TUN_VNET_LEN, i, d->seg_buf));
}

static void tun_ready(struct ev_handler *h, uint32_t events)
{
	struct wg_device *d = container_of(h, struct wg_device, tun_h);
	/* Without offloads a read is one packet, at most what a data message holds. */
	size_t cap = d->tun_offload ? sizeof(d->tun_buf)
				    : PKT_BUF - sizeof(struct wg_msg_data) - WG_AEAD_TAG_LEN;

	if (events & (EPOLLERR | EPOLLHUP)) {
		d->tun_gone = true;
		return;
	}
	for (int i = 0; i < BATCH; i++) {
		ssize_t n = read(d->tun_fd, d->tun_buf, cap);

		if (n < 0) {
			if (errno == EBADFD || errno == EIO || errno == ENXIO)
				d->tun_gone = true;
			break;
		}
		if (d->tun_offload)
			tun_superpacket(d, d->tun_buf, (size_t)n);
		else
			tun_packet(d, d->tun_buf, (size_t)n);
	}
	wgd_tx_flush(d);
}

/* ---- UDP -> TUN ---------------------------------------------------------------- */

static bool same_endpoint(const struct sockaddr_in6 *a, const struct sockaddr_in6 *b)
{
	return a->sin6_port == b->sin6_port && !memcmp(&a->sin6_addr, &b->sin6_addr, 16);
}

/* The source as the cookie MAC and the rate limiter see it: address then port. */
static size_t source_bytes(const struct sockaddr_in6 *from, uint8_t out[18], int *family,
			   const uint8_t **addr)
{
	bool v4 = IN6_IS_ADDR_V4MAPPED(&from->sin6_addr);
	size_t alen = v4 ? 4 : 16;

	*family = v4 ? AF_INET : AF_INET6;
	*addr = from->sin6_addr.s6_addr + (v4 ? 12 : 0);
	memcpy(out, *addr, alen);
	memcpy(out + alen, &from->sin6_port, 2);
	return alen + 2;
}

/*
 * Under load (wireguard-go's and the driver's long handshake queue; here: more handshake
 * messages in one second than the queue would hold) MAC2 is required and sources are
 * rate-limited. NULL when not under load.
 */
static const struct wg_cookie_ctx *load_check(struct wg_device *d, const struct sockaddr_in6 *from,
					      struct wg_cookie_ctx *c, uint8_t src[18],
					      bool *limited)
{
	uint64_t now = pxp_mono_ns();
	const uint8_t *addr;
	int family;

	*limited = false;
	if (now - d->hs_window_start_ns >= 1000000000ULL) {
		d->hs_window_start_ns = now;
		d->hs_in_window = 0;
	}
	d->hs_in_window++;
	if (!wg_under_load(&d->load, d->hs_in_window, now))
		return NULL;
	*c = (struct wg_cookie_ctx){ .checker = &d->checker, .now_ns = now, .rng = os_rng };
	c->src_len = source_bytes(from, src, &family, &addr);
	c->src = src;
	*limited = !ratelimit_allowed(&d->rl, family, addr, now);
	return c;
}

static void send_cookie_reply(struct wg_device *d, const void *msg, size_t len,
			      const struct sockaddr_in6 *to, const struct wg_cookie_ctx *c)
{
	struct wg_msg_cookie_reply r;
	union udp_addr a;
	socklen_t alen;

	if (wg_cookie_reply_create(&r, &d->local, msg, len, c))
		return;
	alen = udp_addr_out(d, to, &a);
	if (alen && sendto(d->udp_fd, &r, sizeof(r), MSG_DONTWAIT, (const struct sockaddr *)&a,
			   alen) == (ssize_t)sizeof(r)) {
		d->udp_tx_datagrams++;
		d->udp_tx_bytes += sizeof(r);
	}
}

/*
 * Consumes the handshake message msg of type (initiation or response) into hs under the load
 * rules: without a valid MAC2 under load it gets a cookie reply, a rate-limited source is
 * dropped, other refusals are counted. True when admitted.
 */
static bool handshake_admitted(struct wg_device *d, enum wg_message_type type,
			       struct wg_handshake *hs, const uint8_t *msg, size_t len,
			       const struct sockaddr_in6 *from)
{
	struct wg_cookie_ctx cctx;
	const struct wg_cookie_ctx *c;
	uint8_t src[18];
	bool limited;
	enum wg_drop r;

	c = load_check(d, from, &cctx, src, &limited);
	if (type == WG_MSG_INITIATION)
		r = wg_initiation_consume(hs, &d->local, msg, len, lookup_noise_peer, d, c);
	else
		r = wg_response_consume(hs, &d->local, msg, len, c);
	if (r == WG_DROP_COOKIE_NEEDED)
		send_cookie_reply(d, msg, len, from, c);
	if (r != WG_OK) {
		d->core_drops[r]++;
		return false;
	}
	if (limited) {
		drop(d, DEV_DROP_ratelimit);
		return false;
	}
	return true;
}

/* A finished handshake's keys into p's key slots (k wiped); the timer actions to take. */
static unsigned int install_keys(struct peer *p, struct wg_transport_keys *k, uint64_t now)
{
	struct wg_keypair kp = { 0 };
	unsigned int actions;

	memcpy(kp.send_key, k->send, WG_KEY_LEN);
	memcpy(kp.recv_key, k->recv, WG_KEY_LEN);
	kp.local_index = k->local_index;
	kp.remote_index = k->remote_index;
	kp.initiator = k->initiator;
	explicit_bzero(k, sizeof(*k));
	actions = wg_peer_install_keys(&p->st, &kp, now);
	explicit_bzero(&kp, sizeof(kp));
	return actions;
}

static void rx_initiation(struct wg_device *d, const uint8_t *msg, size_t len,
			  const struct sockaddr_in6 *from)
{
	struct wg_handshake hs = { 0 };
	struct wg_msg_response *resp;
	struct wg_transport_keys k;
	uint64_t now = ev_now_ms();
	struct peer *p;
	unsigned int actions;
	uint32_t idx;

	if (!d->has_key) {
		drop(d, DEV_DROP_no_key);
		return;
	}
	if (!handshake_admitted(d, WG_MSG_INITIATION, &hs, msg, len, from))
		goto out;
	p = container_of(hs.peer, struct peer, noise);
	if (!wg_peer_initiation_allowed(&p->st, now)) {
		drop(d, DEV_DROP_flood);
		goto out;
	}
	actions = wg_peer_initiation_received(&p->st, now);
	set_endpoint(p, from);
	p->rx_bytes += len;
	wg_handshake_clear(&p->hs);
	p->hs = hs;
	memset(&hs, 0, sizeof(hs)); /* p->hs owns its keys now */
	resp = (struct wg_msg_response *)tx_slot(d);
	if (!new_index(d, p, &idx) ||
	    wg_response_create(resp, &p->hs, &d->local, idx, os_rng, NULL, pxp_mono_ns()) ||
	    wg_transport_keys_derive(&k, &p->hs)) {
		d->core_drops[WG_DROP_INTERNAL]++;
		wg_handshake_clear(&p->hs);
		wgd_peer_timer_sync(d, p); /* the initiation's receipt moved them */
		goto out;
	}
	actions |= install_keys(p, &k, now);
	tx_commit(d, p, sizeof(*resp));
	actions |= wg_peer_sent(&p->st, WG_SENT_RESPONSE, now, rnd32());
	peer_actions(d, p, actions);
out:
	wg_handshake_clear(&hs);
}

/* The peer whose initiation the response answers, or NULL. */
static struct peer *peer_by_handshake(struct wg_device *d, uint32_t idx)
{
	struct peer *p = index_peer(d, idx);

	return p && p->hs.state == WG_HS_INITIATION_CREATED && p->hs.local_index == idx ? p : NULL;
}

static void rx_response(struct wg_device *d, const uint8_t *msg, size_t len,
			const struct sockaddr_in6 *from)
{
	struct peer *p = peer_by_handshake(d, wg_message_receiver(msg, WG_MSG_RESPONSE));
	struct wg_transport_keys k;
	uint64_t now = ev_now_ms();

	if (!p) {
		d->core_drops[WG_DROP_STATE]++;
		return;
	}
	if (!handshake_admitted(d, WG_MSG_RESPONSE, &p->hs, msg, len, from))
		return;
	if (wg_transport_keys_derive(&k, &p->hs)) {
		d->core_drops[WG_DROP_INTERNAL]++;
		return;
	}
	set_endpoint(p, from);
	p->rx_bytes += len;
	peer_actions(d, p, install_keys(p, &k, now));
}

static void rx_cookie_reply(struct wg_device *d, const uint8_t *msg, size_t len)
{
	uint32_t idx = wg_message_receiver(msg, WG_MSG_COOKIE_REPLY);
	struct peer *p;
	enum wg_drop r;

	/* The answer to our initiation or to our response; never a reason to roam. */
	p = index_peer(d, idx);
	if (!p || p->hs.state == WG_HS_NONE || p->hs.local_index != idx) {
		d->core_drops[WG_DROP_STATE]++;
		return;
	}
	r = wg_cookie_reply_consume(&p->noise, msg, len, pxp_mono_ns());
	if (r != WG_OK)
		d->core_drops[r]++;
}

/* The peer and key slot of a data message's receiver index, or NULL. */
static struct peer *peer_by_data_index(struct wg_device *d, uint32_t idx, int *slot)
{
	struct peer *p = index_peer(d, idx);

	if (!p)
		return NULL;
	*slot = wg_peer_decrypt_slot(&p->st, idx, ev_now_ms());
	return *slot >= 0 ? p : NULL;
}

static void tun_write(struct wg_device *d, const uint8_t *buf, size_t len)
{
	if (write(d->tun_fd, buf, len) != (ssize_t)len)
		drop(d, DEV_DROP_send);
}

/* The pending superpacket (or single segment) to the TUN. */
static void tun_gro_flush(struct wg_device *d)
{
	const uint8_t *out;
	size_t n = tun_gro_finish(&d->gro, &out);

	if (n)
		tun_write(d, out, n);
}

/*
 * A decrypted packet to the TUN: with offloads joined to the pending superpacket where it
 * can be, else behind a zero vnet header written into the message header before it.
 */
static void tun_deliver(struct wg_device *d, uint8_t *pkt, size_t n)
{
	enum tun_gro_verdict v;

	d->tun_written_packets++;
	d->tun_written_bytes += n;
	if (!d->tun_offload) {
		tun_write(d, pkt, n);
		return;
	}
	v = tun_gro_add(&d->gro, pkt, n);
	if (v == TUN_GRO_JOINED)
		return;
	tun_gro_flush(d);
	if (v == TUN_GRO_FLUSH && tun_gro_start(&d->gro))
		return;
	memset(pkt - TUN_VNET_LEN, 0, TUN_VNET_LEN);
	tun_write(d, pkt - TUN_VNET_LEN, n + TUN_VNET_LEN);
}

/*
 * A receive batch's data messages go in three steps, so that their decryption spreads over
 * the pool while everything else keeps arrival order (the fork-join the kernel's per-peer
 * ordered queue would give, without a queue: a batch is the unit): rx_data_begin finds the
 * peer and ciphers of each in arrival order, rx_run_finish opens them all over the pool and
 * then checks and delivers each in arrival order, with the checks the one-at-a-time path
 * had, in its order. A handshake message finishes the pending run first (so keys never
 * change under a pending job), and so does a message whose ciphers are not set up yet
 * (setting them up may reuse an entry a pending job holds).
 */
static void open_one(void *ctx, unsigned int job, unsigned int thread)
{
	struct open_job *j = &((struct wg_device *)ctx)->rx_open[job];

	j->r = wg_data_open(j->msg + sizeof(struct wg_msg_data), &j->plen, j->msg, j->len,
			    &j->c->recv[thread]);
}

/* An opened message checked and delivered, as it arrived. */
static void rx_data_finish(struct wg_device *d, struct open_job *j)
{
	uint8_t *pkt = j->msg + sizeof(struct wg_msg_data);
	struct peer *p = j->p;
	struct wg_keypair *kp;
	int slot, family;
	size_t n;

	/* The slot again: the messages before this one may have moved or retired it. */
	slot = wg_peer_decrypt_slot(&p->st, j->idx, ev_now_ms());
	if (slot < 0) {
		drop(d, DEV_DROP_unknown_index);
		return;
	}
	kp = &p->st.slot[slot];
	if (j->r != WG_OK) {
		d->core_drops[j->r]++;
		return;
	}
	if (!replay_validate(&kp->replay, j->counter)) {
		drop(d, DEV_DROP_replay);
		return;
	}
	/* Authenticated and new: the peer may have roamed. */
	if (!p->has_endpoint || !same_endpoint(&p->endpoint, j->from))
		set_endpoint(p, j->from);
	p->rx_bytes += j->len;
	peer_actions(d, p, wg_peer_data_received(&p->st, slot, j->plen == 0, ev_now_ms(), rnd32()));
	if (!j->plen)
		return;
	n = inner_len(pkt, j->plen);
	if (!n) {
		drop(d, DEV_DROP_inner);
		return;
	}
	family = pkt[0] >> 4 == 4 ? AF_INET : AF_INET6;
	if (!allowed_ips_check(&d->aips, family, pkt + (family == AF_INET ? 12 : 8), p)) {
		drop(d, DEV_DROP_source);
		return;
	}
	tun_deliver(d, pkt, n);
}

/* The pending run: opened over the pool, then each finished in arrival order. */
static void rx_run_finish(struct wg_device *d)
{
	unsigned int n = d->n_open;

	if (!n)
		return;
	crypto_pool_run(d->pool, n, open_one, d);
	d->n_open = 0;
	for (unsigned int i = 0; i < n; i++)
		rx_data_finish(d, &d->rx_open[i]);
}

/* A data message into the pending run (its peer and ciphers found), or counted. */
static void rx_data_begin(struct wg_device *d, uint8_t *msg, size_t len,
			  const struct sockaddr_in6 *from)
{
	struct aead_cache *c;
	uint64_t counter;
	uint32_t idx;
	struct peer *p;
	int slot;

	if (d->n_open == RX_OPENS_MAX)
		rx_run_finish(d);
	wg_data_header(msg, &idx, &counter);
	p = peer_by_data_index(d, idx, &slot);
	if (!p) {
		drop(d, DEV_DROP_unknown_index);
		return;
	}
	c = aead_find(p, &p->st.slot[slot]);
	if (!c && d->n_open) {
		/* New ciphers: after the run, and the lookup again in the state it leaves. */
		rx_run_finish(d);
		p = peer_by_data_index(d, idx, &slot);
		if (!p) {
			drop(d, DEV_DROP_unknown_index);
			return;
		}
	}
	if (!c)
		c = aead_for(d, p, &p->st.slot[slot]);
	if (!c) {
		d->core_drops[WG_DROP_INTERNAL]++;
		return;
	}
	d->rx_open[d->n_open++] = (struct open_job){
		.msg = msg, .len = len, .from = from, .p = p, .c = c, .idx = idx, .counter = counter
	};
}

static void rx_message(struct wg_device *d, uint8_t *msg, size_t len,
		       const struct sockaddr_in6 *from)
{
	enum wg_message_type type;
	enum wg_drop r = wg_message_check(msg, len, &type);

	d->udp_rx_datagrams++;
	d->udp_rx_bytes += len;
	if (r != WG_OK) {
		d->core_drops[r]++;
		return;
	}
	if (type == WG_MSG_DATA) {
		rx_data_begin(d, msg, len, from);
		return;
	}
	rx_run_finish(d);
	switch (type) {
	case WG_MSG_INITIATION:
		rx_initiation(d, msg, len, from);
		break;
	case WG_MSG_RESPONSE:
		rx_response(d, msg, len, from);
		break;
	case WG_MSG_COOKIE_REPLY:
		rx_cookie_reply(d, msg, len);
		break;
	case WG_MSG_DATA:
		break;
	}
}

/* The datagram size of a UDP GRO read (its cmsg), or 0 for one datagram. */
static size_t gro_size(struct msghdr *m)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
		int v;

		if (c->cmsg_level != SOL_UDP || c->cmsg_type != UDP_GRO ||
		    c->cmsg_len < CMSG_LEN(sizeof(v)))
			continue;
		memcpy(&v, CMSG_DATA(c), sizeof(v));
		return v > 0 ? (size_t)v : 0;
	}
	return 0;
}

static void udp_ready(struct ev_handler *h, uint32_t events)
{
	struct wg_device *d = container_of(h, struct wg_device, udp_h);
	int n;

	(void)events;
	for (int i = 0; i < BATCH; i++) {
		d->rx_iov[i] = (struct iovec){ .iov_base = d->rx_buf[i], .iov_len = RX_BUF };
		d->rx_msg[i].msg_hdr =
			(struct msghdr){ .msg_name = &d->rx_from[i],
					 .msg_namelen = sizeof(d->rx_from[i]),
					 .msg_iov = &d->rx_iov[i],
					 .msg_iovlen = 1,
					 .msg_control = d->rx_ctl[i].buf,
					 .msg_controllen = sizeof(d->rx_ctl[i].buf) };
	}
	n = recvmmsg(d->udp_fd, d->rx_msg, BATCH, MSG_DONTWAIT, NULL);
	for (int i = 0; i < n; i++) {
		size_t len = d->rx_msg[i].msg_len, seg = gro_size(&d->rx_msg[i].msg_hdr);

		udp_addr_in(&d->rx_from[i]);
		if (d->rx_msg[i].msg_hdr.msg_flags & MSG_TRUNC) {
			drop(d, DEV_DROP_truncated);
			continue;
		}
		if (!seg || seg >= len) {
			rx_message(d, d->rx_buf[i], len, &d->rx_from[i]);
			continue;
		}
		/* UDP GRO: datagrams of seg bytes back to back, the last maybe shorter. */
		d->gro_reads++;
		for (size_t off = 0; off < len; off += seg) {
			d->gro_datagrams++;
			rx_message(d, d->rx_buf[i] + off, len - off < seg ? len - off : seg,
				   &d->rx_from[i]);
		}
	}
	rx_run_finish(d);
	tun_gro_flush(d);
	wgd_tx_flush(d);
}

/* ---- sockets ------------------------------------------------------------------- */

/* Newer than some distributions' if_tun.h (Linux 6.2). */
#ifndef TUN_F_USO4
#define TUN_F_USO4 0x20
#define TUN_F_USO6 0x40
#endif

/*
 * The offloads asked of the TUN: checksums, TSO (wireguard-go's set) and USO where the kernel
 * has it. False if TUNSETOFFLOAD takes neither set.
 */
static bool tun_offloads(int fd)
{
	unsigned int tso = TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6;
	int hdr = (int)TUN_VNET_LEN;

	if (ioctl(fd, TUNSETVNETHDRSZ, &hdr) < 0)
		return false;
	return ioctl(fd, TUNSETOFFLOAD, tso | TUN_F_USO4 | TUN_F_USO6) == 0 ||
	       ioctl(fd, TUNSETOFFLOAD, tso) == 0;
}

/*
 * The TUN, with a vnet header and offloads if offload (and the kernel takes them: *on), a
 * plain one otherwise; the fd or -errno.
 */
static int tun_open(const char *name, unsigned int mtu, bool offload, bool *on)
{
	struct ifreq ifr = { .ifr_flags = IFF_TUN | IFF_NO_PI | (offload ? IFF_VNET_HDR : 0) };
	int fd, s, err;

	*on = false;
	fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(fd, TUNSETIFF, &ifr) < 0)
		goto fail;
	if (offload && !tun_offloads(fd)) {
		/* A vnet header without offloads buys nothing: the plain TUN again. */
		close(fd);
		return tun_open(name, mtu, false, on);
	}
	*on = offload;
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		goto fail;
	ifr.ifr_mtu = (int)mtu;
	err = ioctl(s, SIOCSIFMTU, &ifr);
	close(s);
	if (err < 0)
		goto fail;
	return fd;
fail:
	err = -errno;
	close(fd);
	return err;
}

/* The TUN's MTU now (wg-quick and ip(8) change it); the old value if it cannot be read. */
static void mtu_refresh(struct wg_device *d)
{
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", d->s->ifname);
	if (ioctl(d->ctl_fd, SIOCGIFMTU, &ifr) == 0 && ifr.ifr_mtu >= WG_DEVICE_MIN_MTU &&
	    ifr.ifr_mtu <= WG_DEVICE_MAX_MTU)
		d->mtu = (unsigned int)ifr.ifr_mtu;
}

/*
 * A UDP socket on port (0: the kernel picks) of family AF_INET6 (IPv4 and IPv6, V6ONLY off)
 * or AF_INET; the fd, or -errno.
 */
static int udp_open_family(int family, uint16_t port, uint32_t fwmark, uint16_t *bound, bool *gro)
{
	union udp_addr a = { 0 };
	socklen_t alen;
	int fd, off = 0, on = 1, bufsize = UDP_BUF_BYTES, err;

	if (family == AF_INET6) {
		a.v6 = (struct sockaddr_in6){ .sin6_family = AF_INET6, .sin6_port = htons(port) };
		alen = sizeof(a.v6);
	} else {
		a.v4 = (struct sockaddr_in){ .sin_family = AF_INET, .sin_port = htons(port) };
		alen = sizeof(a.v4);
	}
	fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	/* A burst the loop has not drained yet waits here, not in UdpRcvbufErrors. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bufsize, sizeof(bufsize)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bufsize, sizeof(bufsize));
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &bufsize, sizeof(bufsize)))
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bufsize, sizeof(bufsize));
	if ((family == AF_INET6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off))) ||
	    (fwmark && setsockopt(fd, SOL_SOCKET, SO_MARK, &fwmark, sizeof(fwmark))) ||
	    bind(fd, (struct sockaddr *)&a, alen) || getsockname(fd, (struct sockaddr *)&a, &alen))
		goto fail;
	/* Several datagrams of one size a read where the kernel has UDP GRO (4.18). */
	*gro = setsockopt(fd, SOL_UDP, UDP_GRO, &on, sizeof(on)) == 0;
	/* Both families keep the port at the same place. */
	*bound = ntohs(family == AF_INET6 ? a.v6.sin6_port : a.v4.sin_port);
	return fd;
fail:
	err = -errno;
	close(fd);
	return err;
}

/*
 * The dual-stack socket, or, on a host without IPv6 (ipv6.disable=1, a kernel built without
 * it: EAFNOSUPPORT), an IPv4 one, as wireguard-go does. *family says which.
 */
static int udp_open(uint16_t port, uint32_t fwmark, uint16_t *bound, int *family, bool *gro)
{
	int fd = udp_open_family(AF_INET6, port, fwmark, bound, gro);

	*family = AF_INET6;
	if (fd != -EAFNOSUPPORT)
		return fd;
	*family = AF_INET;
	return udp_open_family(AF_INET, port, fwmark, bound, gro);
}

int wgd_udp_rebind(struct wg_device *d, uint16_t port, uint32_t fwmark)
{
	uint16_t bound = 0;
	bool gro = false;
	int family, fd = udp_open(port, fwmark, &bound, &family, &gro);

	if (fd < 0)
		return fd;
	if (family == AF_INET && d->udp_family != AF_INET)
		pxp_info("%s: no IPv6 on this host (EAFNOSUPPORT): the UDP socket is IPv4 only",
			 d->s->ifname);
	d->udp_family = family;
	d->udp_gro = gro;
	/* UDP GSO (4.18) is tried on the first run of equal datagrams; EIO turns it off. */
	d->udp_gso = true;
	if (d->udp_fd >= 0) {
		ev_loop_del(&d->loop, d->udp_fd);
		close(d->udp_fd);
	}
	d->udp_fd = fd;
	d->listen_port = bound;
	d->fwmark = fwmark;
	return ev_loop_add(&d->loop, fd, EPOLLIN, &d->udp_h);
}

/* ---- the control socket (status and stats: wg_device_status.c) ----------------- */

static void ctl_down(void *ctx, FILE *reply)
{
	struct wg_device *d = ctx;

	d->stop = true;
	fputs("ok\n", reply);
}

static const struct control_command ctl_commands[] = {
	{ "status", wgd_ctl_status, "the interface and its peers, as wg show" },
	{ "status-json", wgd_ctl_status_json, "the same as one JSON object" },
	{ "stats", wgd_ctl_stats, "a snapshot of the counters, for pppoe-xp stats" },
	{ "down", ctl_down, "delete the interface and stop" },
	{ NULL },
};

/* ---- the loop ------------------------------------------------------------------ */

/*
 * The peers' timers are a heap (timer_heap.h) keyed by each peer's next deadline, so that a
 * pass of the loop looks at the due peers only, not at every peer (a hub of 1000 idle
 * peers cost 20% of a tunnel's download while each pass asked all of them). A peer is
 * re-filed whenever its deadlines changed: at the end of peer_actions(), which follows the
 * calls on its timers, and where one is not (set=1, a new private key); housekeeping
 * re-files any other, so a missed one is late by at most HOUSEKEEP_MS.
 */
void wgd_peer_timer_sync(struct wg_device *d, struct peer *p)
{
	if (!p->st.deadlines_changed)
		return;
	p->st.deadlines_changed = false;
	timer_heap_set(&d->timers, &p->timer, wg_peer_next_deadline(&p->st));
}

static void housekeep(struct wg_device *d, uint64_t now)
{
	if (now < d->next_housekeep_ms)
		return;
	d->next_housekeep_ms = now + HOUSEKEEP_MS;
	for (struct peer *p = d->peers; p; p = p->next)
		wgd_peer_timer_sync(d, p);
	mtu_refresh(d);
	ratelimit_gc(&d->rl, pxp_mono_ns());
	wgd_write_drops(d);
}

/* Runs the due peers' timers; the next deadline. At most one tick a peer a pass. */
static uint64_t run_timers(struct wg_device *d)
{
	uint64_t now = ev_now_ms(), next;
	struct pxp_timer *t;

	for (size_t n = d->n_peers; n && (t = timer_heap_pop_due(&d->timers, now)); n--) {
		struct peer *p = container_of(t, struct peer, timer);

		peer_actions(d, p, wg_peer_tick(&p->st, now, rnd32()));
		/* Popped: filed again even where the tick changed nothing. */
		p->st.deadlines_changed = true;
		wgd_peer_timer_sync(d, p);
	}
	wgd_tx_flush(d);
	next = timer_heap_next(&d->timers);
	return next < d->next_housekeep_ms ? next : d->next_housekeep_ms;
}

static int device_open(struct wg_device *d, const struct wg_device_settings *s)
{
	int err;

	memset(d, 0, sizeof(*d));
	d->s = s;
	d->mtu = s->mtu;
	d->tun_fd = d->udp_fd = d->uapi.fd = d->ctl_fd = -1;
	d->tun_h.ready = tun_ready;
	d->udp_h.ready = udp_ready;
	allowed_ips_init(&d->aips);
	timer_heap_init(&d->timers);
	err = u32_map_init(&d->by_index, INDICES_MIN);
	if (err) {
		pxp_err("%s: receiver index map: %s", s->ifname, strerror(-err));
		return err;
	}
	err = crypto_pool_create(&d->pool, s->crypto_threads ?: crypto_pool_default_threads());
	if (err) {
		pxp_err("%s: crypto threads: %s", s->ifname, strerror(-err));
		return err;
	}
	d->threads = crypto_pool_threads(d->pool);
	snprintf(d->sock_path, sizeof(d->sock_path), "%s/%s.sock", WG_UAPI_DIR, s->ifname);
	snprintf(d->stats_path, sizeof(d->stats_path), "%s/%s.wg", pxp_run_dir(), s->ifname);
	if (uapi_server_alive(d->sock_path)) {
		pxp_err("%s: another WireGuard instance answers on %s", s->ifname, d->sock_path);
		return -EEXIST;
	}
	err = ev_loop_init(&d->loop);
	if (!err)
		err = ev_timer_attach(&d->loop, &d->wake, NULL);
	if (err) {
		pxp_err("event loop: %s", strerror(-err));
		return err;
	}
	err = ratelimit_init(&d->rl, RATELIMIT_SIZE, ((uint64_t)rnd32() << 32) | rnd32());
	if (err) {
		pxp_err("rate limiter: %s", strerror(-err));
		return err;
	}
	d->ctl_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (d->ctl_fd < 0)
		return -errno;
	d->tun_fd = tun_open(s->ifname, s->mtu, !s->no_tun_offload, &d->tun_offload);
	if (d->tun_fd < 0) {
		err = d->tun_fd;
		pxp_err("%s: cannot create the TUN: %s%s", s->ifname, strerror(-err),
			err == -EBUSY ? " (another program holds it)" : "");
		return err == -EBUSY ? -EEXIST : err;
	}
	err = ev_loop_add(&d->loop, d->tun_fd, EPOLLIN, &d->tun_h);
	if (!err)
		err = wgd_udp_rebind(d, 0, 0);
	if (err) {
		pxp_err("%s: UDP socket: %s", s->ifname, strerror(-err));
		return err;
	}
	err = pxp_run_dir_create();
	if (!err)
		err = uapi_server_open(&d->uapi, &d->loop, d->sock_path, s->ifname, &wgd_uapi_ops,
				       d);
	if (err) {
		pxp_err("%s: UAPI socket %s: %s", s->ifname, d->sock_path, strerror(-err));
		return err;
	}
	/* Status is a convenience: the interface works without it (a session on a WAN port
	 * of the same name holds the socket). */
	err = control_server_open(&d->ctl, &d->loop, s->ifname, ctl_commands, d);
	if (err)
		pxp_warn("%s: no control socket in %s (pppoe-xp status will not list it): %s",
			 s->ifname, pxp_run_dir(), strerror(-err));
	d->has_ctl = !err;
	return 0;
}

static void device_close(struct wg_device *d)
{
	if (d->has_ctl)
		control_server_close(&d->ctl);
	uapi_server_close(&d->uapi);
	while (d->peers)
		wgd_peer_remove(d, d->peers);
	allowed_ips_free(&d->aips);
	u32_map_free(&d->by_index);
	timer_heap_free(&d->timers);
	crypto_pool_destroy(d->pool); /* after the peers: their last batch used it */
	ratelimit_free(&d->rl);
	if (d->has_key)
		wg_noise_local_free(&d->local);
	explicit_bzero(d->private_key, sizeof(d->private_key));
	explicit_bzero(&d->checker, sizeof(d->checker));
	unlink(d->stats_path);
	if (d->udp_fd >= 0)
		close(d->udp_fd);
	if (d->tun_fd >= 0)
		close(d->tun_fd);
	if (d->ctl_fd >= 0)
		close(d->ctl_fd);
	ev_loop_close(&d->loop);
}

int wg_device_run(const struct wg_device_settings *s, int notify_fd)
{
	struct wg_device *d = malloc(sizeof(*d));
	int err, code = PXP_EXIT_OK;
	char msg[DAEMON_MESSAGE_MAX];

	if (!d) {
		daemon_notify(&notify_fd, PXP_EXIT_FATAL, "out of memory");
		return PXP_EXIT_FATAL;
	}
	err = device_open(d, s);
	if (err) {
		code = err == -EEXIST ? PXP_EXIT_LOCK : PXP_EXIT_FATAL;
		daemon_notify(&notify_fd, code, pxp_log_last_error());
		goto out;
	}
	pxp_info("%s: WireGuard interface up, UDP port %u, UAPI %s, %u crypto thread%s", s->ifname,
		 d->listen_port, d->sock_path, d->threads, d->threads == 1 ? "" : "s");
	snprintf(msg, sizeof(msg), "%s: WireGuard interface created (UAPI %s)", s->ifname,
		 d->sock_path);
	daemon_notify(&notify_fd, PXP_EXIT_OK, msg);
	while (!d->tun_gone && !d->stop) {
		uint64_t next;

		housekeep(d, ev_now_ms());
		next = run_timers(d);
		ev_timer_set(&d->loop, &d->wake, next);
		err = ev_loop_run_once(&d->loop);
		if (err) {
			pxp_err("%s: event loop: %s", s->ifname, strerror(-err));
			code = PXP_EXIT_FATAL;
			break;
		}
		if (d->loop.pending_signal == SIGINT || d->loop.pending_signal == SIGTERM) {
			code = PXP_EXIT_SIGNAL;
			break;
		}
		d->loop.pending_signal = 0;
	}
	if (d->tun_gone)
		pxp_info("%s: the TUN was deleted; stopping", s->ifname);
	wgd_log_drops(d);
out:
	device_close(d);
	explicit_bzero(d, sizeof(*d));
	free(d);
	return code;
}
