/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The WireGuard device's own state, shared by its three files: wg_device.c (the TUN, the UDP
 * socket, handshakes, timers and the loop), wg_device_config.c (the UAPI socket's get=1 and
 * set=1) and wg_device_status.c (status, stats and the drop counters' file). Nothing else
 * includes it: to the daemon the device is wg_device_run() (wg_device.h).
 *
 * Concurrency: the device's loop thread, as all of the device; only struct tx_batch's seal
 * jobs and struct open_job are touched by the crypto pool's threads, between a
 * crypto_pool_run() and its return.
 *
 * Needs _GNU_SOURCE before the first system header (struct mmsghdr).
 */
#ifndef PXP_WG_DEVICE_INTERNAL_H
#define PXP_WG_DEVICE_INTERNAL_H

#include <limits.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>

#include "allowed_ips.h"
#include "control.h"
#include "crypto_pool.h"
#include "event_loop.h"
#include "noise.h"
#include "ratelimit.h"
#include "timer_heap.h"
#include "u32_map.h"
#include "uapi_server.h"
#include "wg_device.h"
#include "wg_stamp.h"
#include "wg_timers.h"

#define BATCH	      32
#define PKT_BUF	      (WG_DEVICE_MAX_MTU + 64)
/* A receive slot: a UDP GRO read is up to 64 KB of datagrams of one size. */
#define RX_BUF	      65536
/* The TX batch's bytes, and what one UDP GSO send may hold (UDP_MAX_SEGMENTS of kernels
 * before 6.11 is 64; the datagram's 64 KB). */
#define TX_ARENA      (256 << 10)
#define GSO_SEGS_MAX  64
#define GSO_BYTES_MAX 65000
/* A TX batch's datagrams at most: each of its BATCH messages a GSO run at most. */
#define TX_SEALS_MAX  (BATCH * GSO_SEGS_MAX)
/* Data messages opened in one pool round; a longer receive batch takes several. */
#define RX_OPENS_MAX  512
/* wireguard-go's QueueStagedSize: packets kept per peer while a handshake is on the way. */
#define STAGED_MAX    128

enum wg_dev_drop {
#define DEV_DROP_ENUM(name, why) DEV_DROP_##name,
	WG_DEV_DROPS(DEV_DROP_ENUM)
#undef DEV_DROP_ENUM
		DEV_DROP_COUNT
};

struct staged {
	uint16_t len;
	uint8_t data[];
};

/*
 * A key slot's ciphers set up once, found by the slot's receiver index: one context per
 * crypto thread and direction (an OpenSSL context is one caller's at a time).
 */
struct aead_cache {
	bool valid;
	uint32_t local_index;
	struct wg_aead_key send[CRYPTO_POOL_MAX_THREADS], recv[CRYPTO_POOL_MAX_THREADS];
};

struct peer {
	struct wg_noise_peer noise;
	struct wg_peer_state st;
	struct aead_cache aead[WG_SLOTS];
	struct wg_handshake hs; /* ours (initiation created) or theirs (response created) */
	bool has_endpoint;
	struct sockaddr_in6 endpoint; /* IPv4 peers as v4-mapped */
	uint64_t rx_bytes, tx_bytes;
	struct timespec last_handshake; /* wall clock; 0: never */
	struct staged *staged[STAGED_MAX];
	unsigned int staged_head, staged_n;
	struct pxp_timer timer; /* in d->timers at wg_peer_next_deadline(&st) */
	struct peer *next;
};

/* A destination as the socket takes it: IPv6 (v4-mapped too), or IPv4 on an IPv4-only host. */
union udp_addr {
	struct sockaddr_in6 v6;
	struct sockaddr_in v4;
};

/*
 * What the next sendmmsg sends: messages back to back in the arena, and with UDP GSO a
 * message is a run of datagrams to one peer, all of one size but a shorter last one, sent
 * as one (UDP_SEGMENT).
 */
struct tx_batch {
	struct mmsghdr msg[BATCH];
	struct iovec iov[BATCH];
	union udp_addr to[BATCH];
	struct peer *peer[BATCH];
	union {
		char buf[CMSG_SPACE(sizeof(uint16_t))];
		struct cmsghdr align;
	} ctl[BATCH];
	uint16_t seg[BATCH]; /* the run's datagram size */
	uint8_t segs[BATCH];
	bool closed[BATCH]; /* a shorter datagram ended the run */
	unsigned int n;
	size_t used;
	/* Data messages framed in the arena, sealed over the pool before the send. */
	struct seal_job {
		uint8_t *msg;
		const struct wg_aead_key *keys; /* the slot's send contexts, one a thread */
		uint16_t len;
		bool failed; /* the message's bytes were wiped instead */
	} seal[TX_SEALS_MAX];
	unsigned int n_seal;
	uint8_t arena[TX_ARENA];
};

/*
 * A data message of a receive batch: found (peer, ciphers) in arrival order, opened over the
 * pool, then checked and delivered in arrival order again (rx_run_finish).
 */
struct open_job {
	uint8_t *msg;
	size_t len, plen;
	const struct sockaddr_in6 *from;
	struct peer *p;
	const struct aead_cache *c;
	uint32_t idx;
	uint64_t counter;
	enum wg_drop r;
};

struct wg_device {
	const struct wg_device_settings *s;
	struct ev_loop loop;
	struct crypto_pool *pool; /* seals and opens a batch's data messages */
	unsigned int threads;	  /* the pool's; the contexts each aead_cache holds */
	/* At the earliest of the peers' deadlines (timers) and the housekeeping's. */
	struct ev_timer wake;
	struct timer_heap timers; /* each peer's timer (wgd_peer_timer_sync) */
	struct ev_handler tun_h, udp_h;
	int tun_fd, udp_fd, ctl_fd;
	int udp_family; /* AF_INET6 (dual-stack), or AF_INET where the host has no IPv6 */
	char sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char stats_path[256];
	bool tun_gone;
	bool stop; /* `pppoe-xp down IFNAME` */
	bool has_ctl;
	struct control_server ctl; /* RUN_DIR/IFNAME.ctl: status, status-json, stats, down */
	unsigned int mtu;

	bool has_key;
	uint8_t private_key[WG_KEY_LEN];
	struct wg_noise_local local;
	uint16_t listen_port;
	uint32_t fwmark;
	struct wg_stamp stamp; /* the private key's handshake stamps */
	char stamp_path[PATH_MAX];
	bool stamp_warned; /* the stamp file could not be written; said once */

	struct peer *peers;
	size_t n_peers;
	/* Receiver index -> peer, for each index new_index() gave out (wg_device.c). */
	struct u32_map by_index;
	struct allowed_ips aips;
	struct ratelimit rl;
	struct wg_load load;
	struct wg_cookie_checker checker;
	uint64_t hs_window_start_ns;
	size_t hs_in_window;

	struct uapi_server uapi; /* /var/run/wireguard/IFNAME.sock */
	uint64_t core_drops[WG_DROP_COUNT];
	uint64_t dev_drops[DEV_DROP_COUNT];
	uint64_t drops_written; /* the total RUN_DIR/IFNAME.wg holds */
	bool drops_file;	/* written at least once */
	uint64_t next_housekeep_ms;

	/* Inner packets read from and written to the TUN (segments, not superpackets); UDP
	 * datagrams received and sent, every message type. */
	uint64_t tun_read_packets, tun_read_bytes, tun_written_packets, tun_written_bytes;
	uint64_t udp_rx_datagrams, udp_rx_bytes, udp_tx_datagrams, udp_tx_bytes;
	/* Offloads: TUN superpackets (tun_offload.h), UDP GSO on send, UDP GRO on receive. */
	bool tun_offload, udp_gso, udp_gro;
	uint64_t tun_superpackets, tun_segments; /* read from the TUN, and their segments */
	uint64_t gso_sends, gso_datagrams, gro_reads, gro_datagrams;
	struct tun_gro gro;
	uint8_t tun_buf[TUN_VNET_LEN + TUN_GSO_MAX];
	uint8_t seg_buf[PKT_BUF];

	struct mmsghdr rx_msg[BATCH];
	struct iovec rx_iov[BATCH];
	struct sockaddr_in6 rx_from[BATCH];
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} rx_ctl[BATCH];
	uint8_t rx_buf[BATCH][RX_BUF];
	struct open_job rx_open[RX_OPENS_MAX];
	unsigned int n_open;
	struct tx_batch tx;
};

/* ---- across the three files: where each is defined, and why it crosses --------- */
/* Each carries the prefix wgd_: they link into the one daemon binary beside every other room. */

/* The device's steps that set=1 takes (wg_device.c). */
struct peer *wgd_peer_by_pub(struct wg_device *d, const uint8_t pub[WG_KEY_LEN]);
/* A new peer with this public key, last in the list (get=1 lists them as added); NULL if
 * out of memory. */
struct peer *wgd_peer_new(struct wg_device *d, const uint8_t pub[WG_KEY_LEN]);
void wgd_peer_remove(struct wg_device *d, struct peer *victim);
/* Re-files p in d->timers if its deadlines changed (after calls on p->st outside peer_actions). */
void wgd_peer_timer_sync(struct wg_device *d, struct peer *p);
void wgd_peers_expire_sessions(struct wg_device *d);
bool wgd_send_data(struct wg_device *d, struct peer *p, const uint8_t *pkt, size_t len);
void wgd_tx_flush(struct wg_device *d);
void wgd_stamp_load(struct wg_device *d);
int wgd_udp_rebind(struct wg_device *d, uint16_t port, uint32_t fwmark);

/* The UAPI socket's operations, for device_open (wg_device_config.c). */
extern const struct uapi_server_ops wgd_uapi_ops;
/* An endpoint as UAPI has it, which status shows too (wg_device_config.c). */
void wgd_endpoint_to_uapi(const struct sockaddr_in6 *a, struct uapi_endpoint *e);

/* The drop counters' file and last log line, for the loop (wg_device_status.c). */
void wgd_write_drops(struct wg_device *d);
void wgd_log_drops(const struct wg_device *d);
/* The control socket's status, status-json and stats, for its table in wg_device.c
 * (wg_device_status.c). */
void wgd_ctl_status(void *ctx, FILE *reply);
void wgd_ctl_status_json(void *ctx, FILE *reply);
void wgd_ctl_stats(void *ctx, FILE *reply);

#endif
