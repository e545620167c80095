/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AF_XDP engine's PPPoE stages (engine_stage.h) around the in-place transforms of
 * engine_xform.h: decapsulation for the frames the WAN port receives, encapsulation for
 * those the session netdev's hidden peer receives. Both read the session record through its
 * publication slot (engine_publish.h), once per frame.
 */
#ifndef PXP_ENGINE_PPPOE_H
#define PXP_ENGINE_PPPOE_H

#include <stdint.h>

#include "engine_publish.h"
#include "engine_stage.h"

/* The state of either stage; read-only once the workers run. */
struct engine_pppoe_stage {
	const struct engine_slot *session; /* a struct pxp_session */
	uint8_t out_port;		   /* where a transformed frame is transmitted */
};

/* WAN RX: a data frame of the session, decapsulated, goes to out_port (counted as decap). */
struct engine_verdict engine_pppoe_decap_stage(const void *state, struct engine_frame *f);
/* Session netdev RX: an IP frame, encapsulated, goes to out_port (counted as encap). */
struct engine_verdict engine_pppoe_encap_stage(const void *state, struct engine_frame *f);

#endif
