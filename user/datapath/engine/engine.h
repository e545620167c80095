/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AF_XDP engine: mode "afxdp" of the express data path (user/datapath.h).
 *
 * One worker thread per WAN RX queue, pinned to a CPU. Worker q owns one UMEM and a table
 * of ports, each an AF_XDP socket bound to queue q of one netdev, all sharing the UMEM
 * (XDP_SHARED_UMEM). Each port lists the stages its RX frames go through (engine_stage.h);
 * the first of them to decide sends a frame out of a port, up to the control plane (see
 * engine_upcall_read) or drops it under a counted reason. The PPPoE mode has two ports,
 * the WAN and the session netdev's hidden veth peer; the XDP programs on them redirect the
 * session's data frames into the sockets through XSKMAPs, and the stages decapsulate
 * (WAN -> hidden peer -> pxp0) or encapsulate (pxp0 -> hidden peer -> WAN) each frame in
 * place inside the UMEM, so a forwarded frame is never copied in userspace. Control frames
 * never reach the engine: the XDP programs pass them to the stack.
 *
 * The caller (user/datapath.c) creates the veth pair, loads and attaches the XDP programs
 * and owns the XSKMAPs; the engine only inserts its sockets into them (and removes them on
 * stop). One session per engine, one engine per WAN port.
 *
 * Concurrency: engine_start/stop/set_mtu/get_stats/upcall_read are called from one control
 * thread. engine_get_stats, engine_set_mtu and engine_upcall_read may run while the workers
 * run; what the workers read is published to them (engine_publish.h), never written under
 * them.
 */
#ifndef PXP_ENGINE_H
#define PXP_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dp_stats.h"
#include "pxp_maps.h"

#define ENGINE_MAX_QUEUES PXP_MAX_RX_QUEUES

struct engine_config {
	int wan_ifindex;
	/*
	 * WAN RX queues to serve, 0..nr_queues-1; one worker each. The WAN needs at least
	 * nr_queues RX queues, the hidden peer exactly nr_queues (create the veth pair with as
	 * many queues as the WAN): a queue without a socket loses its frames. Checked through
	 * ethtool where the driver reports its channels.
	 */
	unsigned int nr_queues;
	int peer_ifindex; /* the hidden veth peer of the session netdev */
	/*
	 * XSKMAPs the XDP programs redirect into (pxp_config.flags has PXP_CFG_F_AFXDP): the WAN
	 * program looks up key wan_key_base + rx_queue, the hidden peer's program
	 * peer_key_base + rx_queue. Both fds may be the same map (xsks_map) with the bases of
	 * struct pxp_config keeping the keys apart.
	 */
	int wan_xskmap_fd;
	int peer_xskmap_fd;
	uint32_t wan_key_base;
	uint32_t peer_key_base;
	/* CPU for worker q: cpus[q], or -1 to leave it unpinned; NULL pins worker q to q % ncpu. */
	const int *cpus;
	/*
	 * Try zero-copy first, falling back to copy mode. A queue's two sockets share one UMEM
	 * and so one bind mode: zero-copy needs it on the WAN driver AND on the veth peer, and
	 * veth has none, so this is copy mode in practice until pxp0 stops being a veth.
	 */
	bool zerocopy;
	/* Frames of UMEM per queue (power of two, 0 = default 8192); 2048 bytes each. */
	uint32_t frames_per_queue;
	/*
	 * The one session forwarded (its map record, see include/pxp_maps.h): session id, MACs,
	 * MTU, VLAN tag, PXP_SESSION_F_MSS_CLAMP. Its ifindex fields are not read (the ones above
	 * are).
	 */
	struct pxp_session session;
};

struct engine;

/*
 * Create the UMEMs and sockets, insert the sockets into the XSKMAPs and start the workers.
 * On failure nothing is left behind. Returns 0 or -errno.
 */
int engine_start(struct engine **e, const struct engine_config *cfg);
/* Stop and join the workers, remove the sockets from the XSKMAPs, free e; safe with NULL. */
void engine_stop(struct engine *e);
/*
 * Change the session MTU (and so the MSS clamp) while running: publish a new session record
 * and free the old one once no worker can read it. Returns 0, -EINVAL or -ENOMEM.
 */
int engine_set_mtu(struct engine *e, uint16_t mtu);
/*
 * Take the oldest frame a stage handed to the control plane, looking at the workers' upcall
 * queues in turn: copy at most size bytes of it into buf, the worker's queue into *queue and
 * the index of the port it arrived on into *port. Returns the frame's length (larger than
 * size if it was cut short) or -EAGAIN if no frame waits. A full upcall queue drops the
 * frame and counts it as drop_ring_full.
 */
int engine_upcall_read(struct engine *e, void *buf, size_t size, unsigned int *queue,
		       unsigned int *port);
/*
 * Per-queue counters into st->queue[0..nr_queues-1]; st->nr_queues is set. The counters are
 * read while the workers run: each value is exact, the set is not a single snapshot.
 * rx = frames received on either socket, tx = frames handed to either TX ring,
 * decap = WAN -> pxp0, encap = pxp0 -> WAN; drop_ring_full includes what the kernel dropped
 * before the engine saw it (socket RX ring full, no free frame in the fill ring).
 */
int engine_get_stats(const struct engine *e, struct pxp_dp_stats *st);
/* "copy" or "zero-copy": the bind mode the WAN sockets ended up in. */
const char *engine_bind_mode(const struct engine *e);
/* Bytes of UMEM the engine holds (all queues). */
uint64_t engine_umem_bytes(const struct engine *e);
/*
 * The workers' CPUs in queue order as --afxdp-cpus takes them ("0,1"), or "none" when no
 * worker is pinned; buf is returned.
 */
const char *engine_worker_cpus(const struct engine *e, char *buf, size_t len);

#endif
