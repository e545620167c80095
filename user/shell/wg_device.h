/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `pppoe-xp wg IFNAME`: a WireGuard interface as wireguard-go makes one. The I/O shell
 * around wg-bridge's pure core: a TUN netdev (IFF_TUN | IFF_NO_PI | IFF_VNET_HDR, with TSO
 * and USO offloads where the kernel takes them: tun_offload.h), one dual-stack UDP socket
 * (recvmmsg with UDP GRO, sendmmsg batches), the cross-platform UAPI socket
 * /var/run/wireguard/IFNAME.sock that wg(8) drives, and the event loop that joins them
 * with the core's timers. Ends when the TUN is deleted or on SIGINT/SIGTERM.
 *
 * Concurrency: one device per process; one thread decides everything, and the data
 * messages' crypto runs batch by batch on a pool of threads (--crypto-threads) joined
 * before the batch goes on.
 */
#ifndef PXP_WG_DEVICE_H
#define PXP_WG_DEVICE_H

#include <net/if.h>
#include <stdbool.h>

#include "log.h"
#include "tun_offload.h"

/* wireguard-go's and wg-quick's default MTU: 1500 minus the IPv6 and WireGuard overhead. */
#define WG_DEVICE_DEFAULT_MTU 1420
#define WG_DEVICE_MIN_MTU     576
#define WG_DEVICE_MAX_MTU     9000
/* Where wg(8) looks for userspace implementations' sockets. */
#define WG_UAPI_DIR	      "/var/run/wireguard"

/*
 * Drops the shell counts, beside the core's enum wg_drop: X(name, why). Counted, never
 * logged per packet; RUN_DIR/IFNAME.wg lists them all.
 */
#define WG_DEV_DROPS(X)                                                                    \
	X(no_peer, "no peer's allowed-IPs hold the inner destination")                     \
	X(no_endpoint, "the peer has no endpoint to send to")                              \
	X(no_key, "no private key set")                                                    \
	X(staged_full, "the queue waiting for a handshake was full (oldest dropped)")      \
	X(staged_given_up, "handshakes gave up: the packets waiting for one were dropped") \
	X(unknown_index, "no current keys under the receiver index")                       \
	X(replay, "counter replayed or behind the window")                                 \
	X(inner, "inner packet not IPv4/IPv6 or its length wrong")                         \
	X(source, "inner source not in the sending peer's allowed-IPs")                    \
	X(ratelimit, "handshake over the per-source rate under load")                      \
	X(flood, "initiation within 20 ms of its peer's last")                             \
	X(truncated, "UDP datagram larger than the receive buffer")                        \
	X(no_ipv6, "an IPv6 endpoint, and this host has no IPv6 (an IPv4-only socket)")    \
	X(send, "the UDP socket or the TUN refused the packet")                            \
	TUN_OFFLOAD_DROPS(X)

struct wg_device_settings {
	char ifname[IF_NAMESIZE];
	unsigned int mtu;
	const char *state_dir; /* the handshake stamps' files (wg_stamp.h) */
	bool foreground;
	bool no_tun_offload; /* --no-tun-offload: a plain TUN even where offloads work */
	unsigned int
		crypto_threads; /* --crypto-threads: 1..CRYPTO_POOL_MAX_THREADS; 0 the default */
	enum pxp_log_level log_level;
};

/*
 * Runs the device until the TUN goes or a signal ends it. notify_fd: the waiting parent's
 * (daemon_fork), told once the socket is up, or -1. Returns the exit code (enum pxp_exit).
 */
int wg_device_run(const struct wg_device_settings *s, int notify_fd);

#endif
