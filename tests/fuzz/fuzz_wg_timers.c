// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for a peer's timers and key slots: arbitrary bytes as a sequence of
 * events at growing times. Whatever the order, no keys past REJECT_AFTER_TIME or
 * REJECT_AFTER_MESSAGES encrypt or decrypt, a tick leaves no deadline in the past, no two
 * initiations go out less than REKEY_TIMEOUT apart, and only known actions come out.
 */
#include <stdint.h>
#include <string.h>

#include "wg_timers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ALL_ACTIONS                                                            \
	(WG_ACT_SEND_INITIATION | WG_ACT_SEND_KEEPALIVE | WG_ACT_SEND_STAGED | \
	 WG_ACT_DROP_STAGED | WG_ACT_ZERO_KEYS | WG_ACT_CLEAR_ENDPOINT_SRC)

static uint64_t last_init;
static int sent_init;

static void check_actions(unsigned int actions, uint64_t now)
{
	if (actions & ~ALL_ACTIONS)
		__builtin_trap();
	if (actions & WG_ACT_SEND_INITIATION) {
		if (sent_init && now - last_init < WG_REKEY_TIMEOUT_MS)
			__builtin_trap();
		sent_init = 1;
		last_init = now;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wg_peer_state p;
	struct wg_keypair kp;
	const struct wg_keypair *enc;
	unsigned int actions;
	uint64_t now = 0, counter;
	int s;

	sent_init = 0;
	wg_peer_init(&p, size ? data[0] % 4 * 10 : 0);
	for (size_t i = 1; i + 4 <= size; i += 4) {
		const uint8_t op = data[i], arg = data[i + 3];

		/* Steps of up to about 65 s, so that every timer and limit is reached. */
		now += (uint64_t)(data[i + 1] | data[i + 2] << 8);
		switch (op % 10) {
		case 0:
			check_actions(wg_peer_tick(&p, now, arg), now);
			if (wg_peer_next_deadline(&p) <= now)
				__builtin_trap();
			break;
		case 1:
			enc = wg_peer_encrypt_slot(&p, now, &counter, &actions);
			check_actions(actions, now);
			if (enc &&
			    (!enc->send_valid || now - enc->birth_ms >= WG_REJECT_AFTER_TIME_MS ||
			     counter >= WG_REJECT_AFTER_MESSAGES))
				__builtin_trap();
			break;
		case 2:
			check_actions(wg_peer_sent(&p, arg % 4, now, arg), now);
			break;
		case 3:
			s = wg_peer_decrypt_slot(&p, arg % 8, now);
			if (s >= 0 && (!p.slot[s].recv_valid ||
				       now - p.slot[s].birth_ms >= WG_REJECT_AFTER_TIME_MS))
				__builtin_trap();
			if (s >= 0 &&
			    replay_validate(&p.slot[s].replay, (uint64_t)arg << (op % 64)))
				check_actions(wg_peer_data_received(&p, s, arg & 1, now, arg), now);
			break;
		case 4:
			if (wg_peer_initiation_allowed(&p, now))
				check_actions(wg_peer_initiation_received(&p, now), now);
			break;
		case 5:
		case 6:
			memset(&kp, 0, sizeof(kp));
			kp.initiator = op % 10 == 5;
			kp.local_index = arg % 8;
			check_actions(wg_peer_install_keys(&p, &kp, now), now);
			break;
		case 7:
			/* Wear the current keys out. */
			p.slot[WG_SLOT_CURRENT].send_counter += (uint64_t)arg << 56;
			break;
		case 8:
			wg_peer_set_persistent_keepalive(&p, arg);
			break;
		default:
			break;
		}
	}
	return 0;
}
