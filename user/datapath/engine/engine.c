// SPDX-License-Identifier: GPL-2.0
/*
 * The AF_XDP engine (see engine.h). Each worker loops over its ports: receive a burst on
 * each, run every frame through the port's stages (engine_stage.h) and act on the verdict:
 * queue it on the TX batch of the port it names, copy it to the upcall queue or drop and
 * count it. Then flush the batches (a full TX ring drops and counts), kick the kernel where
 * need_wakeup asks for it, recycle completed frames into the buffer cache and top the fill
 * rings up from it, and pass a quiescent point (engine_publish.h). When a loop finds no work
 * the worker goes offline and sleeps in poll() until a frame arrives or engine_stop() wakes
 * it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <linux/ethtool.h>
#include <linux/if_xdp.h>
#include <linux/sockios.h>
#include <xdp/xsk.h>

#include "cpu_relax.h"
#include "engine.h"
#include "engine_pppoe.h"
#include "engine_publish.h"
#include "engine_stage.h"
#include "engine_upcall.h"
#include "log.h"
#include "pxp_mtu.h"
#include "pppoe_wire.h"
#include "xsk_frames.h"

/*
 * The frames are shared out among the ports' fill rings: half each for PPPoE's two. Under
 * TCP the kernel keeps filling a socket while its worker is off the CPU, and a fill ring with
 * no frame left drops (counted as ring_full): with 2048 frames a direction, 2 shared CPUs
 * lost 40-400 frames a run; 4096 absorb the bursts (16 MiB of UMEM a queue).
 */
#define ENGINE_DEFAULT_FRAMES	8192
#define ENGINE_MIN_FRAMES	256
#define ENGINE_BURST		64
/* Copy mode transmits at most this many descriptors per sendto() (the kernel's TX_BATCH_SIZE). */
#define ENGINE_COPY_TX_PER_KICK 32
/* Idle sleep; engine_stop() interrupts it through the eventfd, so this only bounds staleness. */
#define ENGINE_IDLE_POLL_MS	1000
/* While descriptors wait in a TX ring the kernel could not take yet (peer busy). */
#define ENGINE_TX_BUSY_POLL_MS	1

/*
 * Empty loops before sleeping in poll(): under load the next burst usually arrives within
 * them and costs no wakeup (measured: +20-40% TCP throughput on veth in copy mode).
 */
#define ENGINE_SPIN_LOOPS 256

/* Frames waiting for the control plane per worker; upcalls are rare (handshakes). */
#define ENGINE_UPCALL_SLOTS 64

#define CACHELINE 64

/*
 * Where a port's sockets are bound and inserted, and what its RX frames go through; the same
 * for every worker, whose socket on queue q goes into xskmap_fd at key key_base + q.
 */
struct engine_port_config {
	int ifindex;
	int xskmap_fd;
	uint32_t key_base;
	unsigned int nr_stages;
	struct engine_stage stages[ENGINE_MAX_STAGES];
};

/*
 * One port of a worker: an AF_XDP socket on one ifindex and the worker's queue, sharing the
 * worker's UMEM, with its four rings, the stages its RX frames go through and the batch
 * waiting for its TX ring.
 */
struct engine_port {
	struct xsk_socket *xsk;
	struct xsk_ring_cons rx;
	struct xsk_ring_prod tx;
	struct xsk_ring_prod fill;
	struct xsk_ring_cons comp;
	unsigned int nr_stages;
	struct engine_stage stages[ENGINE_MAX_STAGES];
	uint32_t batch_len;
	struct xdp_desc batch[ENGINE_BURST];
};

/* Everything one worker touches on the hot path, in memory nobody else writes. */
struct engine_queue {
	struct engine_port ports[ENGINE_MAX_PORTS]; /* verdicts name them by index */
	unsigned int nr_ports;
	struct xsk_frames frames;
	uint32_t ring_size;
	/* Written by the worker only (relaxed stores), read by engine_get_stats. */
	struct pxp_dp_queue_stats stats;
	struct engine_upcall_ring upcalls;

	struct engine *engine;
	struct xsk_umem *umem;
	void *umem_area;
	size_t umem_size;
	unsigned int queue_id; /* also the worker's reader index in engine->qsbr */
	int cpu;
	pthread_t thread;
	bool thread_started;
} __attribute__((aligned(CACHELINE)));

struct engine {
	struct engine_config cfg; /* as given; the session record the workers use is session */
	struct engine_port_config ports[ENGINE_MAX_PORTS];
	unsigned int nr_ports;
	struct engine_pppoe_stage decap, encap; /* the stages' state */
	/*
	 * The session record (struct pxp_session) the stages read, published by the control
	 * thread under the rule of engine_publish.h; the workers are its readers.
	 */
	struct engine_slot session;
	struct engine_qsbr qsbr;
	struct engine_queue *queues;
	unsigned int nr_queues;
	unsigned int upcall_next; /* the queue engine_upcall_read() looks at first */
	int stop_fd;		  /* eventfd: readable once the workers must stop */
	int stop;		  /* atomic flag, checked every loop */
	bool zerocopy;
};

/* Single writer (the worker): a relaxed load-add-store is enough and avoids a locked add. */
#define STAT_ADD(q, field, n) \
	__atomic_store_n(&(q)->stats.field, (q)->stats.field + (n), __ATOMIC_RELAXED)

/* A drop by the transforms, into the report field its reason adds into (else "other"). */
/* A drop under reason r, in the report field the counter table names (drop_other if none). */
static void count_drop(struct engine_queue *q, enum pxp_counter r)
{
	enum pxp_dp_field f = pxp_dp_counter_field(r);

	STAT_ADD(q, field[f == PXP_DP_F_none ? PXP_DP_F_drop_other : f], 1);
}

/* A frame moved on under counter c (decap, encap), in the field the counter table names. */
static void count_forward(struct engine_queue *q, enum pxp_counter c)
{
	enum pxp_dp_field f = pxp_dp_counter_field(c);

	if (f != PXP_DP_F_none)
		STAT_ADD(q, field[f], 1);
}

static void recycle(struct engine_queue *q, uint64_t addr)
{
	/* Cannot fail unless a frame is freed twice; losing it is the safe outcome. */
	(void)xsk_frames_push(&q->frames, addr);
}

/*
 * Move every frame of to->batch into to's TX ring. What does not fit is dropped and counted:
 * waiting would stall the other direction, and the kernel frees slots only on a kick.
 */
static void flush_batch(struct engine_queue *q, struct engine_port *to)
{
	uint32_t n = to->batch_len, idx = 0, room, i;

	if (!n)
		return;
	/* reserve() is all or nothing: ask for what fits. */
	room = xsk_prod_nb_free(&to->tx, n);
	if (room > n)
		room = n;
	if (room)
		room = xsk_ring_prod__reserve(&to->tx, room, &idx);
	for (i = 0; i < room; i++)
		*xsk_ring_prod__tx_desc(&to->tx, idx + i) = to->batch[i];
	if (room)
		xsk_ring_prod__submit(&to->tx, room);
	for (i = room; i < n; i++)
		recycle(q, to->batch[i].addr);
	STAT_ADD(q, tx, room);
	STAT_ADD(q, drop_ring_full, n - room);
	to->batch_len = 0;
}

/* A frame a stage sent on: counted under the transform it went through. */

/* The single exit of a frame received on port rx_port: act on its verdict and account it. */
static void deliver(struct engine_queue *q, unsigned int rx_port, const struct engine_frame *f,
		    struct engine_verdict v)
{
	struct engine_port *to;
	int err;

	switch (v.action) {
	case ENGINE_TX:
		if (v.port >= q->nr_ports)
			break; /* a stage's bug: counted as drop_other */
		to = &q->ports[v.port];
		if (to->batch_len == ENGINE_BURST)
			flush_batch(q, to);
		to->batch[to->batch_len++] = (struct xdp_desc){ .addr = f->addr, .len = f->len };
		count_forward(q, v.counter);
		return;
	case ENGINE_UPCALL:
		err = engine_upcall_push(&q->upcalls, rx_port, f->data, f->len);
		if (err == -ENOSPC)
			STAT_ADD(q, drop_ring_full, 1);
		else if (err)
			count_drop(q, PXP_CNT_DROP_TOO_BIG);
		recycle(q, f->addr);
		return;
	case ENGINE_DROP:
		count_drop(q, v.counter);
		recycle(q, f->addr);
		return;
	}
	count_drop(q, PXP_CNT__MAX);
	recycle(q, f->addr);
}

/* Receive one burst on port p and deliver every frame. Returns frames received. */
static uint32_t rx_burst(struct engine_queue *q, unsigned int p)
{
	struct engine_port *from = &q->ports[p];
	uint32_t idx = 0, n, i;

	n = xsk_ring_cons__peek(&from->rx, ENGINE_BURST, &idx);
	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		const struct xdp_desc *d = xsk_ring_cons__rx_desc(&from->rx, idx + i);
		struct engine_frame f = {
			.addr = d->addr,
			.data = xsk_umem__get_data(q->umem_area, d->addr),
			.len = d->len,
			.headroom = d->addr & (ENGINE_FRAME_SIZE - 1),
		};

		deliver(q, p, &f, engine_run_stages(from->stages, from->nr_stages, &f));
	}
	xsk_ring_cons__release(&from->rx, n);
	STAT_ADD(q, rx, n);
	for (i = 0; i < q->nr_ports; i++)
		flush_batch(q, &q->ports[i]);
	return n;
}

/* Descriptors in p's TX ring that the kernel has not taken yet. */
static uint32_t tx_waiting(struct engine_queue *q, struct engine_port *p)
{
	return q->ring_size - xsk_prod_nb_free(&p->tx, q->ring_size);
}

/*
 * Let the kernel transmit what waits in the TX ring. Copy mode takes at most 32 descriptors
 * per sendto() and answers EAGAIN while more remain, so kick once per 32, a bounded number
 * of times; what a busy peer leaves in the ring is retried on the next loop.
 */
static void kick_tx(struct engine_queue *q, struct engine_port *p)
{
	uint32_t waiting = tx_waiting(q, p);
	uint32_t kicks = waiting / ENGINE_COPY_TX_PER_KICK + 1;
	int fd = xsk_socket__fd(p->xsk);

	if (!waiting || !xsk_ring_prod__needs_wakeup(&p->tx))
		return;
	while (kicks--) {
		if (sendto(fd, NULL, 0, MSG_DONTWAIT, NULL, 0) >= 0)
			return;
		if (errno != EAGAIN && errno != EBUSY && errno != ENOBUFS && errno != EINTR)
			return;
	}
}

/* Whether any port's TX ring holds descriptors the kernel has not taken yet. */
static bool any_tx_waiting(struct engine_queue *q)
{
	for (unsigned int p = 0; p < q->nr_ports; p++) {
		if (tx_waiting(q, &q->ports[p]))
			return true;
	}
	return false;
}

static void drain_completions(struct engine_queue *q, struct engine_port *p)
{
	uint32_t idx = 0, n, i;

	n = xsk_ring_cons__peek(&p->comp, q->ring_size, &idx);
	for (i = 0; i < n; i++)
		recycle(q, *xsk_ring_cons__comp_addr(&p->comp, idx + i));
	if (n)
		xsk_ring_cons__release(&p->comp, n);
}

static void refill(struct engine_queue *q, struct engine_port *p)
{
	uint32_t want = xsk_prod_nb_free(&p->fill, q->ring_size), idx = 0, i;

	if (want > q->frames.count)
		want = q->frames.count;
	if (!want)
		return;
	want = xsk_ring_prod__reserve(&p->fill, want, &idx);
	for (i = 0; i < want; i++)
		*xsk_ring_prod__fill_addr(&p->fill, idx + i) = xsk_frames_pop_one(&q->frames);
	xsk_ring_prod__submit(&p->fill, want);
	/* Zero-copy drivers stop receiving on an empty fill ring until woken. */
	if (xsk_ring_prod__needs_wakeup(&p->fill))
		recvfrom(xsk_socket__fd(p->xsk), NULL, 0, MSG_DONTWAIT, NULL, NULL);
}

static void *worker_main(void *arg)
{
	struct engine_queue *q = arg;
	struct engine *e = q->engine;
	struct pollfd pfd[ENGINE_MAX_PORTS + 1];
	unsigned int idle_loops = 0, nfds = 0, p;

	for (p = 0; p < q->nr_ports; p++)
		pfd[nfds++] =
			(struct pollfd){ .fd = xsk_socket__fd(q->ports[p].xsk), .events = POLLIN };
	pfd[nfds++] = (struct pollfd){ .fd = e->stop_fd, .events = POLLIN };
	/* Online: from here the stages read published tables. */
	engine_qsbr_quiescent(&e->qsbr, q->queue_id);
	while (!__atomic_load_n(&e->stop, __ATOMIC_ACQUIRE)) {
		uint32_t received = 0;

		for (p = 0; p < q->nr_ports; p++)
			received += rx_burst(q, p);
		for (p = 0; p < q->nr_ports; p++) {
			kick_tx(q, &q->ports[p]);
			drain_completions(q, &q->ports[p]);
		}
		for (p = 0; p < q->nr_ports; p++)
			refill(q, &q->ports[p]);
		/* No stage keeps a table pointer from one iteration to the next. */
		engine_qsbr_quiescent(&e->qsbr, q->queue_id);
		if (received) {
			idle_loops = 0;
			continue;
		}
		if (++idle_loops < ENGINE_SPIN_LOOPS) {
			cpu_relax();
			continue;
		}
		/* Asleep, the worker must not hold up a publication. */
		engine_qsbr_offline(&e->qsbr, q->queue_id);
		poll(pfd, nfds, any_tx_waiting(q) ? ENGINE_TX_BUSY_POLL_MS : ENGINE_IDLE_POLL_MS);
		engine_qsbr_quiescent(&e->qsbr, q->queue_id);
	}
	engine_qsbr_offline(&e->qsbr, q->queue_id);
	return NULL;
}

static int create_port(struct engine_queue *q, struct engine_port *p, int ifindex,
		       uint16_t bind_flags)
{
	struct xsk_socket_config cfg = {
		.rx_size = q->ring_size,
		.tx_size = q->ring_size,
		/* The data path's own XDP programs steer frames: libxdp must not load one. */
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		.bind_flags = bind_flags,
	};
	char ifname[IF_NAMESIZE];
	int err;

	if (!if_indextoname(ifindex, ifname))
		return -errno;
	err = xsk_socket__create_shared(&p->xsk, ifname, q->queue_id, q->umem, &p->rx, &p->tx,
					&p->fill, &p->comp, &cfg);
	if (err)
		p->xsk = NULL;
	return err;
}

static void close_sockets(struct engine_queue *q)
{
	for (unsigned int p = q->nr_ports; p--;) {
		if (q->ports[p].xsk)
			xsk_socket__delete(q->ports[p].xsk);
		q->ports[p].xsk = NULL;
	}
	if (q->umem)
		xsk_umem__delete(q->umem);
	q->umem = NULL;
}

static void destroy_queue(struct engine_queue *q)
{
	close_sockets(q);
	if (q->umem_area)
		munmap(q->umem_area, q->umem_size);
	q->umem_area = NULL;
	xsk_frames_destroy(&q->frames);
	engine_upcall_ring_destroy(&q->upcalls);
}

static int open_sockets(struct engine *e, struct engine_queue *q, uint16_t bind_flags)
{
	struct xsk_umem_config ucfg = {
		.fill_size = q->ring_size,
		.comp_size = q->ring_size,
		.frame_size = ENGINE_FRAME_SIZE,
		.frame_headroom = 0,
	};
	int err;

	/* Port 0's fill/completion rings are the ones registered with the UMEM. */
	err = xsk_umem__create(&q->umem, q->umem_area, q->umem_size, &q->ports[0].fill,
			       &q->ports[0].comp, &ucfg);
	if (err) {
		q->umem = NULL;
		return err;
	}
	for (unsigned int p = 0; p < q->nr_ports && !err; p++)
		err = create_port(q, &q->ports[p], e->ports[p].ifindex, bind_flags);
	return err;
}

/*
 * Fill ring slots per port: the largest power of two with all the ports' fill rings together
 * holding at most nr_frames, so that every port always has frames to receive into.
 */
static uint32_t fill_ring_size(uint32_t nr_frames, unsigned int nr_ports)
{
	uint32_t size = nr_frames;

	while ((uint64_t)size * nr_ports > nr_frames)
		size /= 2;
	return size;
}

static int setup_queue(struct engine *e, struct engine_queue *q, unsigned int queue_id)
{
	const struct engine_config *cfg = &e->cfg;
	uint32_t nr_frames = cfg->frames_per_queue ? cfg->frames_per_queue : ENGINE_DEFAULT_FRAMES;
	uint16_t copy = XDP_USE_NEED_WAKEUP | XDP_COPY;
	unsigned int p;
	int err;

	q->engine = e;
	q->queue_id = queue_id;
	q->nr_ports = e->nr_ports;
	for (p = 0; p < e->nr_ports; p++) {
		q->ports[p].nr_stages = e->ports[p].nr_stages;
		memcpy(q->ports[p].stages, e->ports[p].stages, sizeof(q->ports[p].stages));
	}
	q->ring_size = fill_ring_size(nr_frames, e->nr_ports);
	q->umem_size = (size_t)nr_frames * ENGINE_FRAME_SIZE;
	err = engine_upcall_ring_init(&q->upcalls, ENGINE_UPCALL_SLOTS);
	if (err)
		return err;
	err = xsk_frames_init(&q->frames, nr_frames, ENGINE_FRAME_SIZE);
	if (err)
		goto err_destroy;
	q->umem_area = mmap(NULL, q->umem_size, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (q->umem_area == MAP_FAILED) {
		q->umem_area = NULL;
		err = -errno;
		goto err_destroy;
	}
	if (cfg->zerocopy) {
		err = open_sockets(e, q, XDP_USE_NEED_WAKEUP | XDP_ZEROCOPY);
		if (!err)
			goto sockets_open;
		/* The sockets share one UMEM and so one bind mode: retry all in copy mode. */
		close_sockets(q);
		pxp_info("afxdp: zero-copy refused on queue %u (%s), using copy mode", queue_id,
			 strerror(-err));
	}
	err = open_sockets(e, q, copy);
	if (err) {
		pxp_err("afxdp: cannot open AF_XDP sockets on queue %u: %s", queue_id,
			strerror(-err));
		goto err_destroy;
	}
	e->zerocopy = false; /* one queue in copy mode makes the engine's mode "copy" */
sockets_open:
	for (p = 0; p < q->nr_ports; p++)
		refill(q, &q->ports[p]);
	return 0;

err_destroy:
	destroy_queue(q);
	return err;
}

static int map_sockets(struct engine *e, struct engine_queue *q)
{
	unsigned int p;
	int err = 0;

	for (p = 0; p < e->nr_ports; p++) {
		uint32_t key = e->ports[p].key_base + q->queue_id;
		int fd = xsk_socket__fd(q->ports[p].xsk);

		if (bpf_map_update_elem(e->ports[p].xskmap_fd, &key, &fd, BPF_ANY)) {
			err = -errno;
			goto err_unmap;
		}
	}
	return 0;

err_unmap:
	while (p--) {
		uint32_t key = e->ports[p].key_base + q->queue_id;

		bpf_map_delete_elem(e->ports[p].xskmap_fd, &key);
	}
	return err;
}

static void unmap_sockets(struct engine *e, struct engine_queue *q)
{
	for (unsigned int p = 0; p < e->nr_ports; p++) {
		uint32_t key = e->ports[p].key_base + q->queue_id;

		bpf_map_delete_elem(e->ports[p].xskmap_fd, &key);
	}
}

/*
 * Pinned after creation: musl has no pthread_attr_setaffinity_np, and glibc and musl both
 * have pthread_setaffinity_np. Until then the worker may run a few loops on another CPU,
 * which costs nothing but cache. A refusal (a CPU outside the process's cpuset) fails the
 * start; the caller's engine_stop() joins the started thread.
 */
static int start_worker(struct engine_queue *q)
{
	char name[16]; /* the kernel's TASK_COMM_LEN */
	cpu_set_t cpus;
	int err;

	if (q->cpu >= CPU_SETSIZE)
		return -EINVAL;
	err = pthread_create(&q->thread, NULL, worker_main, q);
	if (err)
		return -err;
	q->thread_started = true;
	if (q->cpu >= 0) {
		CPU_ZERO(&cpus);
		CPU_SET(q->cpu, &cpus);
		err = pthread_setaffinity_np(q->thread, sizeof(cpus), &cpus);
		if (err)
			return -err;
	}
	/* Visible in top -H and ps -L; failure only loses the label. */
	snprintf(name, sizeof(name), "pxp-afxdp-q%u", q->queue_id);
	pthread_setname_np(q->thread, name);
	return 0;
}

/* The session's largest IP packet, encapsulated with a VLAN tag, must fit a UMEM frame. */
static int check_mtu(uint16_t mtu)
{
	/* A frame's room, less the Ethernet and VLAN headers, is the WAN MTU it can carry. */
	if (!pxp_mtu_fits(mtu, PXP_MTU_MIN_IP,
			  ENGINE_FRAME_DATA_MAX - PXP_ETH_HLEN - PXP_VLAN_HLEN)) {
		pxp_err("afxdp: session mtu %u does not fit the engine's %u-byte frames", mtu,
			ENGINE_FRAME_SIZE);
		return -EINVAL;
	}
	return 0;
}

static int check_config(const struct engine_config *cfg)
{
	uint32_t frames = cfg->frames_per_queue;

	if (!cfg->nr_queues || cfg->nr_queues > ENGINE_MAX_QUEUES) {
		pxp_err("afxdp: %u queues, the engine serves 1 to %u", cfg->nr_queues,
			ENGINE_MAX_QUEUES);
		return -EINVAL;
	}
	if (frames && (frames < ENGINE_MIN_FRAMES || (frames & (frames - 1)))) {
		pxp_err("afxdp: %u frames per queue: need a power of two of at least %u", frames,
			ENGINE_MIN_FRAMES);
		return -EINVAL;
	}
	if (check_mtu(cfg->session.mtu))
		return -EINVAL;
	if (cfg->wan_ifindex <= 0 || cfg->peer_ifindex <= 0 || cfg->wan_xskmap_fd < 0 ||
	    cfg->peer_xskmap_fd < 0)
		return -EINVAL;
	return 0;
}

/* RX queues of ifindex per ethtool, or -errno (-EOPNOTSUPP if the driver does not say). */
static int rx_queue_count(int ifindex)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	struct ifreq ifr = { .ifr_data = (void *)&ch };
	int fd, err = 0;

	if (!if_indextoname(ifindex, ifr.ifr_name))
		return -errno;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		err = -errno;
	close(fd);
	return err ? err : (int)(ch.rx_count + ch.combined_count);
}

/*
 * A queue without a socket loses frames: its XDP program finds no socket in the XSKMAP and
 * passes the session's frames to a stack that cannot use them. The hidden peer's queues are
 * ours to size, so too many is an error; a WAN port may carry the session on fewer queues
 * than it has (PPPoE is not hashed: it lands on one), so that only earns a warning.
 */
static int check_queue_counts(const struct engine_config *cfg)
{
	int peer = rx_queue_count(cfg->peer_ifindex), wan = rx_queue_count(cfg->wan_ifindex);

	if ((wan > 0 && wan < (int)cfg->nr_queues) || (peer > 0 && peer < (int)cfg->nr_queues)) {
		pxp_err("afxdp: %u queues asked, but the WAN has %d RX queues and the session"
			" netdev's peer %d",
			cfg->nr_queues, wan, peer);
		return -EINVAL;
	}
	if (peer > (int)cfg->nr_queues) {
		pxp_err("afxdp: the session netdev's peer has %d RX queues but the engine serves "
			"%u:"
			" create it with as many queues as the WAN",
			peer, cfg->nr_queues);
		return -EINVAL;
	}
	if (wan > (int)cfg->nr_queues)
		pxp_warn("afxdp: the WAN has %d RX queues, the engine serves %u: session frames"
			 " on the others are lost",
			 wan, cfg->nr_queues);
	return 0;
}

/*
 * The one mode there is today, PPPoE: two ports a worker. The WAN's frames are decapsulated
 * onto the session netdev's hidden peer, the peer's frames encapsulated onto the WAN.
 */
enum { PPPOE_PORT_WAN, PPPOE_PORT_PEER, PPPOE_NR_PORTS };

static struct engine_port_config pppoe_port(int ifindex, int xskmap_fd, uint32_t key_base,
					    struct engine_stage stage)
{
	return (struct engine_port_config){
		.ifindex = ifindex,
		.xskmap_fd = xskmap_fd,
		.key_base = key_base,
		.nr_stages = 1,
		.stages = { stage },
	};
}

static void setup_pppoe_ports(struct engine *e, const struct engine_config *cfg)
{
	e->decap = (struct engine_pppoe_stage){ &e->session, PPPOE_PORT_PEER };
	e->encap = (struct engine_pppoe_stage){ &e->session, PPPOE_PORT_WAN };
	e->ports[PPPOE_PORT_WAN] =
		pppoe_port(cfg->wan_ifindex, cfg->wan_xskmap_fd, cfg->wan_key_base,
			   (struct engine_stage){ engine_pppoe_decap_stage, &e->decap });
	e->ports[PPPOE_PORT_PEER] =
		pppoe_port(cfg->peer_ifindex, cfg->peer_xskmap_fd, cfg->peer_key_base,
			   (struct engine_stage){ engine_pppoe_encap_stage, &e->encap });
	e->nr_ports = PPPOE_NR_PORTS;
}

int engine_start(struct engine **ep, const struct engine_config *cfg)
{
	struct pxp_session *session;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct engine *e;
	unsigned int i;
	int err;

	*ep = NULL;
	err = check_config(cfg);
	err = err ?: check_queue_counts(cfg);
	if (err)
		return err;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->cfg = *cfg;
	e->cfg.cpus = NULL; /* not owned: copied into the queues below */
	e->zerocopy = cfg->zerocopy;
	setup_pppoe_ports(e, cfg);
	e->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (e->stop_fd < 0) {
		err = -errno;
		free(e);
		return err;
	}
	/* From here engine_stop() undoes whatever part is done. */
	err = engine_qsbr_init(&e->qsbr, cfg->nr_queues);
	if (err)
		goto err_stop;
	session = malloc(sizeof(*session));
	if (!session) {
		err = -ENOMEM;
		goto err_stop;
	}
	*session = cfg->session;
	engine_publish(&e->qsbr, &e->session, session); /* the first: nothing to wait for */
	e->queues = aligned_alloc(CACHELINE, sizeof(*e->queues) * cfg->nr_queues);
	if (!e->queues) {
		err = -ENOMEM;
		goto err_stop;
	}
	memset(e->queues, 0, sizeof(*e->queues) * cfg->nr_queues);
	for (i = 0; i < cfg->nr_queues; i++) {
		struct engine_queue *q = &e->queues[i];

		q->cpu = cfg->cpus ? cfg->cpus[i] : (int)(i % (ncpu > 0 ? ncpu : 1));
		err = setup_queue(e, q, i);
		if (err)
			goto err_stop;
		e->nr_queues = i + 1;
		err = map_sockets(e, q);
		if (err) {
			pxp_err("afxdp: cannot insert the sockets of queue %u into the XSKMAP: %s",
				i, strerror(-err));
			destroy_queue(q);
			e->nr_queues = i;
			goto err_stop;
		}
	}
	for (i = 0; i < e->nr_queues; i++) {
		err = start_worker(&e->queues[i]);
		if (err) {
			pxp_err("afxdp: cannot start the worker of queue %u on cpu %d: %s", i,
				e->queues[i].cpu, strerror(-err));
			goto err_stop;
		}
	}
	pxp_info("afxdp: %u queue(s), %s mode, %llu bytes of UMEM", e->nr_queues,
		 engine_bind_mode(e), (unsigned long long)engine_umem_bytes(e));
	*ep = e;
	return 0;

err_stop:
	engine_stop(e);
	return err;
}

void engine_stop(struct engine *e)
{
	uint64_t one = 1;
	unsigned int i;

	if (!e)
		return;
	__atomic_store_n(&e->stop, 1, __ATOMIC_RELEASE);
	if (write(e->stop_fd, &one, sizeof(one)) < 0) {
		/* The flag alone stops the workers within ENGINE_IDLE_POLL_MS. */
	}
	for (i = 0; i < e->nr_queues; i++) {
		struct engine_queue *q = &e->queues[i];

		if (q->thread_started)
			pthread_join(q->thread, NULL);
	}
	/* Out of the maps first, so the XDP programs stop redirecting into closing sockets. */
	for (i = 0; i < e->nr_queues; i++) {
		unmap_sockets(e, &e->queues[i]);
		destroy_queue(&e->queues[i]);
	}
	free(e->queues);
	/* Every worker is offline now: the record goes at once. */
	free(engine_publish(&e->qsbr, &e->session, NULL));
	engine_qsbr_destroy(&e->qsbr);
	close(e->stop_fd);
	free(e);
}

int engine_set_mtu(struct engine *e, uint16_t mtu)
{
	struct pxp_session *next;

	if (check_mtu(mtu))
		return -EINVAL;
	next = malloc(sizeof(*next));
	if (!next)
		return -ENOMEM;
	/* This thread is the only publisher: the current record cannot go away under us. */
	*next = *(const struct pxp_session *)engine_published(&e->session);
	next->mtu = mtu;
	free(engine_publish(&e->qsbr, &e->session, next));
	return 0;
}

int engine_upcall_read(struct engine *e, void *buf, size_t size, unsigned int *queue,
		       unsigned int *port)
{
	for (unsigned int i = 0; i < e->nr_queues; i++) {
		unsigned int qi = (e->upcall_next + i) % e->nr_queues;
		int len = engine_upcall_pop(&e->queues[qi].upcalls, buf, size, port);

		if (len >= 0) {
			/* Round robin: one busy worker cannot starve the others' upcalls. */
			e->upcall_next = (qi + 1) % e->nr_queues;
			*queue = qi;
			return len;
		}
	}
	return -EAGAIN;
}

/*
 * Frames the kernel dropped on the way into a socket: no free frame in the fill ring or
 * too big for one (rx_dropped), RX ring full (rx_ring_full), or descriptors it refused
 * (invalid: a bug of ours). Added as drop_ring_full and drop_other.
 */
static void add_socket_drops(struct xsk_socket *xsk, struct pxp_dp_queue_stats *dst)
{
	struct xdp_statistics xs;
	socklen_t len = sizeof(xs);

	if (getsockopt(xsk_socket__fd(xsk), SOL_XDP, XDP_STATISTICS, &xs, &len))
		return;
	dst->drop_ring_full += xs.rx_dropped + xs.rx_ring_full;
	dst->drop_other += xs.rx_invalid_descs + xs.tx_invalid_descs;
}

int engine_get_stats(const struct engine *e, struct pxp_dp_stats *st)
{
	unsigned int i;

	memset(st, 0, sizeof(*st));
	st->nr_queues = e->nr_queues;
	for (i = 0; i < e->nr_queues; i++) {
		const struct engine_queue *q = &e->queues[i];
		const struct pxp_dp_queue_stats *src = &q->stats;
		struct pxp_dp_queue_stats *dst = &st->queue[i];

		for (unsigned int f = 0; f < PXP_DP_F__MAX; f++)
			dst->field[f] = __atomic_load_n(&src->field[f], __ATOMIC_RELAXED);
		for (unsigned int p = 0; p < q->nr_ports; p++)
			add_socket_drops(q->ports[p].xsk, dst);
	}
	return 0;
}

const char *engine_bind_mode(const struct engine *e)
{
	return e->zerocopy ? "zero-copy" : "copy";
}

uint64_t engine_umem_bytes(const struct engine *e)
{
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < e->nr_queues; i++)
		total += e->queues[i].umem_size;
	return total;
}

const char *engine_worker_cpus(const struct engine *e, char *buf, size_t len)
{
	size_t used = 0;
	unsigned int i;

	/* --afxdp-cpus none is the only way a worker goes unpinned, and it leaves them all. */
	if (!e->nr_queues || e->queues[0].cpu < 0) {
		snprintf(buf, len, "none");
		return buf;
	}
	buf[0] = '\0';
	for (i = 0; i < e->nr_queues && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? "," : "",
					 e->queues[i].cpu);
	return buf;
}
