/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The handshake stamps (TAI64N) one local key sends, kept increasing across restarts. A
 * responder keeps the greatest stamp it has seen per peer and drops initiations that are not
 * greater (the whitepaper, 5.1), so a router without an RTC that boots with its clock at the
 * firmware's build time would be ignored by every peer until NTP ran. Neither the Linux
 * driver nor wireguard-go keep anything across restarts (OpenWrt's sysfixtime only brings the
 * clock near the newest file in /etc); here a state file per local key holds a bound that
 * every stamp sent so far is at most, written before a stamp past it goes out.
 *
 * The bound runs WG_STAMP_RESERVE_S ahead of the last stamp sent, so the file is written at
 * most once per that many seconds of stamps however many peers and retries there are (a
 * router's flash). The price: after a restart the first stamps are up to that far ahead of
 * the clock, which a peer does not mind (it only compares stamps).
 *
 * The file: 24 hex digits (the bound's 12 bytes) and a newline. Its name is a hash of the
 * public key, not the key. Pure: the caller reads and writes the file and passes the time.
 */
#ifndef PXP_WG_STAMP_H
#define PXP_WG_STAMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wg_crypto.h"

/* REKEY_AFTER_TIME: the lead after a restart is no more than one rekey interval. */
#define WG_STAMP_RESERVE_S 120
/* The file's text: 24 hex digits and a newline. */
#define WG_STAMP_TEXT_LEN  (2 * WG_TAI64N_LEN + 1)
/* "wg-" + 32 hex digits of BLAKE2s-128 of the public key + ".stamp" + NUL. */
#define WG_STAMP_NAME_LEN  (3 + 2 * WG_MAC_LEN + 6 + 1)

struct wg_stamp {
	uint8_t last[WG_TAI64N_LEN];  /* the last stamp sent (or the bound read at start) */
	uint8_t bound[WG_TAI64N_LEN]; /* persisted: no stamp sent is greater; zero: none */
};

/* A key's state at start: bound as read from its file, or NULL when there is none. */
void wg_stamp_start(struct wg_stamp *s, const uint8_t bound[WG_TAI64N_LEN]);
/* The stamp for the next initiation: max(the time given, last + 1 ns); it becomes last. */
void wg_stamp_next(struct wg_stamp *s, uint8_t out[static WG_TAI64N_LEN], uint64_t unix_sec,
		   uint32_t nsec);
/*
 * Whether last has passed the persisted bound. If so, want is the new bound (last +
 * WG_STAMP_RESERVE_S): write it, and only once it is on disk make it s->bound.
 */
bool wg_stamp_bound_needed(const struct wg_stamp *s, uint8_t want[static WG_TAI64N_LEN]);

/* The file's text for a bound (not NUL-terminated). */
void wg_stamp_format(char out[static WG_STAMP_TEXT_LEN], const uint8_t bound[static WG_TAI64N_LEN]);
/*
 * Parses a file's text: 24 hex digits, an optional newline, nothing else; the seconds a
 * TAI64 label (2^62 <= s < 2^63), the nanoseconds below 10^9. 0, or -EINVAL with *why set.
 */
int wg_stamp_parse(const char *text, size_t len, uint8_t bound[static WG_TAI64N_LEN],
		   const char **why);
/* The file name for a local public key (NUL-terminated). */
void wg_stamp_file_name(char out[static WG_STAMP_NAME_LEN], const uint8_t pub[static WG_KEY_LEN]);

#endif
