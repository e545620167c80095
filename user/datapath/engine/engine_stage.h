/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the AF_XDP worker does with a frame (CONVENTIONS 16a, 16d): every port of a worker
 * lists the stages its RX frames go through; each stage looks at the frame, may rewrite it
 * in place, and returns a verdict or "go on" to the next stage. The first verdict decides:
 * transmit on a port (by index in the worker's port table), hand to the control plane (the
 * worker's upcall queue), or drop and count under a reason. The worker accounts a frame once,
 * at that single exit; stages count nothing themselves.
 *
 * A stage is a function plus its state. The state is set up before the workers start and
 * is not written after; state that changes while they run is published (engine_publish.h)
 * and the stage reads it through a slot.
 */
#ifndef PXP_ENGINE_STAGE_H
#define PXP_ENGINE_STAGE_H

#include <stdint.h>

#include <linux/bpf.h>

#include "pxp_maps.h"

/* Bytes per UMEM frame: the frame's headroom plus its data. */
#define ENGINE_FRAME_SIZE     2048
/* The largest frame the kernel writes into one: it keeps XDP_PACKET_HEADROOM in front. */
#define ENGINE_FRAME_DATA_MAX (ENGINE_FRAME_SIZE - XDP_PACKET_HEADROOM)
#define ENGINE_MAX_PORTS      4
#define ENGINE_MAX_STAGES     4

/* A received frame inside its UMEM frame; a stage that moves its start updates all four. */
struct engine_frame {
	uint64_t addr;	   /* UMEM address of data, as in a descriptor */
	uint8_t *data;	   /* the frame's first byte */
	uint32_t len;	   /* bytes from data */
	uint32_t headroom; /* writable bytes before data inside the UMEM frame */
};

enum engine_action {
	ENGINE_GO_ON,  /* not decided: the next stage looks at the frame */
	ENGINE_TX,     /* transmit on port */
	ENGINE_UPCALL, /* copy to the control plane's upcall queue */
	ENGINE_DROP,   /* count under counter and recycle */
};

struct engine_verdict {
	uint8_t action;	  /* enum engine_action */
	uint8_t port;	  /* ENGINE_TX: index of the output port in the worker's port table */
	uint16_t counter; /* enum pxp_counter: ENGINE_TX the transform done, ENGINE_DROP why */
};

static inline struct engine_verdict engine_go_on(void)
{
	return (struct engine_verdict){ .action = ENGINE_GO_ON };
}

static inline struct engine_verdict engine_tx(uint8_t port, enum pxp_counter done)
{
	return (struct engine_verdict){ .action = ENGINE_TX, .port = port, .counter = done };
}

static inline struct engine_verdict engine_upcall(void)
{
	return (struct engine_verdict){ .action = ENGINE_UPCALL };
}

static inline struct engine_verdict engine_drop(enum pxp_counter reason)
{
	return (struct engine_verdict){ .action = ENGINE_DROP, .counter = reason };
}

struct engine_stage {
	struct engine_verdict (*run)(const void *state, struct engine_frame *f);
	const void *state;
};

/* The frame now starts delta bytes further (negative: into the headroom) and is len long. */
static inline void engine_frame_move(struct engine_frame *f, int32_t delta, uint32_t len)
{
	f->addr += delta;
	f->data += delta;
	f->headroom += delta;
	f->len = len;
}

/*
 * Run f through stages[0..n-1] up to the first verdict. A frame no stage claims is not the
 * engine's to forward (the XDP programs should not have steered it here): dropped as PASS.
 * One indirect call per frame and stage. Measured against the transform inlined into the
 * loop: about 4 ns more a frame, the same as a direct call into another file (the branch is
 * always predicted), and no difference above the noise in tests/netns/test_afxdp.sh's
 * throughput, where copy mode costs microseconds a frame.
 */
static inline struct engine_verdict engine_run_stages(const struct engine_stage *stages,
						      unsigned int n, struct engine_frame *f)
{
	for (unsigned int i = 0; i < n; i++) {
		struct engine_verdict v = stages[i].run(stages[i].state, f);

		if (v.action != ENGINE_GO_ON)
			return v;
	}
	return engine_drop(PXP_CNT_PASS);
}

#endif
