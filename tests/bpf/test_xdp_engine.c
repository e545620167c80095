// SPDX-License-Identifier: GPL-2.0
/*
 * The packet table of xdp_cases.h through the AF_XDP engine's real transforms
 * (user/datapath/engine/engine_xform.h): engine_decap for the WAN program's cases,
 * engine_encap for the session program's, each on a frame inside a headroom buffer as in a
 * UMEM frame. A case passes when the transform ends as the program does: transformed into
 * the expected frame where the program redirects, the same drop reason where it drops, and
 * "not a data frame" (PXP_CNT_PASS) where it passes; or as the case's engine_drop says.
 * Cases the engine never runs (xdp_only: steering, cpumap, the egress record) are not
 * engine cases: they run against the programs in test_xdp_datapath, and are listed here in
 * one "# " line, not as skips.
 *
 * The engine counts decap/encap per batch and ignores whether the MSS was clamped, so a
 * transformed frame is checked by its bytes only; the counters are the programs' test.
 */
#include <stdio.h>

#include "dp_load.h"
#include "engine_xform.h"
#include "xdp_cases.h"

#define HEADROOM 256

static const char *verdict_name(enum pxp_counter v)
{
	return v == ENGINE_XFORM_OK ? "transformed" : pxp_counter_name(v);
}

static bool run_case(const struct xdp_case *c)
{
	static uint8_t buf[HEADROOM + FRAME_MAX];
	struct pxp_session s = case_session(c);
	uint8_t *data = buf + HEADROOM;
	uint32_t len = (uint32_t)c->in.len, new_len = 0;
	enum pxp_counter got, want;
	int32_t delta = 0;

	memset(buf, 0xa5, sizeof(buf));
	memcpy(data, c->in.b, c->in.len);
	if (c->prog == PROG_WAN)
		got = engine_decap(&s, data, len, &delta, &new_len);
	else
		got = engine_encap(&s, data, len, HEADROOM, &delta, &new_len);

	if (c->engine_drop)
		want = c->engine_drop;
	else if (c->verdict == XDP_REDIRECT)
		want = ENGINE_XFORM_OK;
	else
		want = c->counter; /* the drop reason, or PXP_CNT_PASS */
	if (got != want) {
		printf("FAIL engine/%s: %s, want %s\n", c->name, verdict_name(got),
		       verdict_name(want));
		return false;
	}
	if (got == ENGINE_XFORM_OK &&
	    (new_len != c->out.len || memcmp(data + delta, c->out.b, c->out.len))) {
		printf("FAIL engine/%s: output frame differs (len %u, want %zu)\n", c->name,
		       new_len, c->out.len);
		return false;
	}
	printf("PASS engine/%s\n", c->name);
	return true;
}

int main(void)
{
	int failed = 0;

	build_table();
	printf("# engine: XDP-only cases, run by the programs' test:");
	for (size_t i = 0; i < nr_cases; i++)
		if (cases[i].xdp_only)
			printf(" %s (%s)", cases[i].name, cases[i].xdp_only);
	printf("\n");
	for (size_t i = 0; i < nr_cases; i++)
		if (!cases[i].xdp_only)
			failed += !run_case(&cases[i]);
	return failed ? 1 : 0;
}
