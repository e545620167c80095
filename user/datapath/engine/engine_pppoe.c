// SPDX-License-Identifier: GPL-2.0
/* The AF_XDP engine's PPPoE stages (see engine_pppoe.h). */
#include "engine_pppoe.h"
#include "engine_xform.h"

struct engine_verdict engine_pppoe_decap_stage(const void *state, struct engine_frame *f)
{
	const struct engine_pppoe_stage *st = state;
	uint32_t new_len;
	int32_t delta;
	enum pxp_counter c =
		engine_decap(engine_published(st->session), f->data, f->len, &delta, &new_len);

	if (c != ENGINE_XFORM_OK)
		return engine_drop(c);
	engine_frame_move(f, delta, new_len);
	return engine_tx(st->out_port, PXP_CNT_DECAP);
}

struct engine_verdict engine_pppoe_encap_stage(const void *state, struct engine_frame *f)
{
	const struct engine_pppoe_stage *st = state;
	uint32_t new_len;
	int32_t delta;
	enum pxp_counter c = engine_encap(engine_published(st->session), f->data, f->len,
					  f->headroom, &delta, &new_len);

	if (c != ENGINE_XFORM_OK)
		return engine_drop(c);
	engine_frame_move(f, delta, new_len);
	return engine_tx(st->out_port, PXP_CNT_ENCAP);
}
