// SPDX-License-Identifier: GPL-2.0
/*
 * The AF_XDP engine's stages and verdicts (user/datapath/engine/engine_stage.h) with the real
 * PPPoE stages (engine_pppoe.h) reading a published session record (engine_publish.h):
 * which port a frame goes to, under which counter, how the frame moved, and how a list of
 * stages hands a frame on.
 */
#include <stdbool.h>

#include "check.h"
#include "engine_harness.h"
#include "engine_pppoe.h"
#include "engine_publish.h"
#include "engine_stage.h"

enum { PORT_WAN, PORT_PEER, PORT_TUNNEL };

/* An ICMP echo of 28 bytes: IPv4 header and ICMP header. */
static const uint8_t icmp[28] = { 0x45, 0, 0, 28, 0, 0, 0, 0, 64, 1 };

static struct pxp_session record;
static struct engine_slot slot = { .table = &record };
static const struct engine_pppoe_stage decap = { .session = &slot, .out_port = PORT_PEER };
static const struct engine_pppoe_stage encap = { .session = &slot, .out_port = PORT_WAN };

/* The UMEM frame of the test buffer: its address is where the frame starts in umem. */
static struct engine_frame frame_at(uint32_t len)
{
	return (struct engine_frame){
		.addr = HEADROOM,
		.data = frame,
		.len = len,
		.headroom = HEADROOM,
	};
}

static struct engine_frame wan_frame(uint16_t sid)
{
	memcpy(frame + 22, icmp, sizeof(icmp));
	return frame_at((uint32_t)wrap_pppoe(0, sid, PEER_MAC, 0x0021, sizeof(icmp), 0));
}

static struct engine_frame netdev_frame(void)
{
	memcpy(frame + 14, icmp, sizeof(icmp));
	return frame_at((uint32_t)wrap_eth(0x0800, sizeof(icmp)));
}

/* All three fields: those the action does not use must be 0. */
#define CHECK_VERDICT(v, want_action, want_port, want_counter) \
	do {                                                   \
		CHECK_EQ((v).action, want_action);             \
		CHECK_EQ((v).port, want_port);                 \
		CHECK_EQ((v).counter, want_counter);           \
	} while (0)

static bool frame_consistent(const struct engine_frame *f)
{
	return f->data == umem + f->addr && f->headroom == f->addr;
}

TEST(decap_stage_sends_to_its_port)
{
	struct engine_frame f = wan_frame(TEST_SID);
	struct engine_verdict v;

	record = session(0);
	v = engine_pppoe_decap_stage(&decap, &f);
	CHECK_VERDICT(v, ENGINE_TX, PORT_PEER, PXP_CNT_DECAP);
	/* The 8 bytes of PPPoE and PPP are gone: the frame starts 8 bytes later. */
	CHECK_EQ(f.addr, HEADROOM + 8);
	CHECK_EQ(f.len, 14 + sizeof(icmp));
	CHECK(frame_consistent(&f));
	CHECK_MEM(f.data, NETDEV_MAC, 6);
	CHECK_MEM(f.data + 14, icmp, sizeof(icmp));
}

TEST(decap_stage_drops_with_the_reason)
{
	struct engine_frame f = wan_frame(0x4321);
	struct engine_verdict v;

	record = session(0);
	v = engine_pppoe_decap_stage(&decap, &f);
	CHECK_VERDICT(v, ENGINE_DROP, 0, PXP_CNT_DROP_NO_SESSION);
	CHECK_EQ(f.addr, HEADROOM); /* untouched: the worker recycles it as it came */
	CHECK_EQ(f.len, 22 + sizeof(icmp));
}

TEST(encap_stage_grows_into_the_headroom)
{
	struct engine_frame f = netdev_frame();
	struct engine_verdict v;

	record = session(0);
	v = engine_pppoe_encap_stage(&encap, &f);
	CHECK_VERDICT(v, ENGINE_TX, PORT_WAN, PXP_CNT_ENCAP);
	CHECK_EQ(f.addr, HEADROOM - 8);
	CHECK_EQ(f.headroom, HEADROOM - 8);
	CHECK_EQ(f.len, 22 + sizeof(icmp));
	CHECK(frame_consistent(&f));
	CHECK_MEM(f.data, PEER_MAC, 6);
	CHECK_MEM(f.data + 22, icmp, sizeof(icmp));
}

/* The stages read the session record through its slot: a new record applies at once. */
TEST(stage_reads_the_published_record)
{
	static struct pxp_session smaller;
	struct engine_slot own = { 0 };
	const struct engine_pppoe_stage st = { .session = &own, .out_port = PORT_PEER };
	struct engine_qsbr qs;
	struct engine_frame f;

	CHECK_EQ(engine_qsbr_init(&qs, 1), 0);
	record = session(0);
	engine_publish(&qs, &own, &record);
	f = wan_frame(TEST_SID);
	CHECK_EQ(engine_pppoe_decap_stage(&st, &f).action, ENGINE_TX);
	smaller = record;
	smaller.mtu = sizeof(icmp) - 1;
	CHECK(engine_publish(&qs, &own, &smaller) == &record);
	f = wan_frame(TEST_SID);
	CHECK_EQ(engine_pppoe_decap_stage(&st, &f).counter, PXP_CNT_DROP_TOO_BIG);
	engine_qsbr_destroy(&qs);
}

/*
 * A classifier of the kind a WireGuard port would put first (handshakes up, the rest on):
 * here a frame whose first byte is 0xff goes to the control plane.
 */
static struct engine_verdict upcall_marked(const void *state, struct engine_frame *f)
{
	(void)state;
	return f->len && f->data[0] == 0xff ? engine_upcall() : engine_go_on();
}

/* Sends every frame to the port its state names, counted as the transform in the state. */
struct send_to {
	uint8_t port;
};

static struct engine_verdict send_everything(const void *state, struct engine_frame *f)
{
	(void)f;
	return engine_tx(((const struct send_to *)state)->port, PXP_CNT_ENCAP);
}

TEST(the_first_verdict_decides)
{
	static const struct send_to tunnel = { .port = PORT_TUNNEL };
	const struct engine_stage stages[] = {
		{ upcall_marked, NULL },
		{ engine_pppoe_decap_stage, &decap },
		{ send_everything, &tunnel },
	};
	struct engine_frame f;
	struct engine_verdict v;

	record = session(0);
	/* Not marked: on to the decap stage, which claims it. */
	f = wan_frame(TEST_SID);
	v = engine_run_stages(stages, 3, &f);
	CHECK_VERDICT(v, ENGINE_TX, PORT_PEER, PXP_CNT_DECAP);
	/* Marked: the first stage hands it up; nothing after it runs, nothing moved. */
	f = wan_frame(TEST_SID);
	frame[0] = 0xff;
	v = engine_run_stages(stages, 3, &f);
	CHECK_VERDICT(v, ENGINE_UPCALL, 0, 0);
	CHECK_EQ(f.addr, HEADROOM);
	/* Decap drops a stranger's frame: a drop is a verdict too, the last stage never runs. */
	f = wan_frame(0x4321);
	v = engine_run_stages(stages, 3, &f);
	CHECK_VERDICT(v, ENGINE_DROP, 0, PXP_CNT_DROP_NO_SESSION);
	/* Without the decap stage the frame reaches the last one. */
	f = wan_frame(0x4321);
	v = engine_run_stages((const struct engine_stage[]){ stages[0], stages[2] }, 2, &f);
	CHECK_VERDICT(v, ENGINE_TX, PORT_TUNNEL, PXP_CNT_ENCAP);
}

TEST(a_frame_no_stage_claims_is_dropped)
{
	const struct engine_stage stages[] = { { upcall_marked, NULL } };
	struct engine_frame f = netdev_frame();
	struct engine_verdict v;

	v = engine_run_stages(stages, 1, &f);
	CHECK_VERDICT(v, ENGINE_DROP, 0, PXP_CNT_PASS);
	v = engine_run_stages(stages, 0, &f);
	CHECK_VERDICT(v, ENGINE_DROP, 0, PXP_CNT_PASS);
}

int main(void)
{
	check_prefix = "engine_stages";
	RUN(decap_stage_sends_to_its_port);
	RUN(decap_stage_drops_with_the_reason);
	RUN(encap_stage_grows_into_the_headroom);
	RUN(stage_reads_the_published_record);
	RUN(the_first_verdict_decides);
	RUN(a_frame_no_stage_claims_is_dropped);
	return check_summary();
}
