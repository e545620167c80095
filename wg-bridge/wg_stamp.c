// SPDX-License-Identifier: GPL-2.0
#include "wg_stamp.h"
#include "pxp_hex.h"

#include <errno.h>
#include <string.h>

static const char hex[] = "0123456789abcdef";

static uint64_t stamp_seconds(const uint8_t t[WG_TAI64N_LEN])
{
	uint64_t s = 0;

	for (int i = 0; i < 8; i++)
		s = s << 8 | t[i];
	return s;
}

void wg_stamp_start(struct wg_stamp *s, const uint8_t bound[WG_TAI64N_LEN])
{
	memset(s, 0, sizeof(*s));
	if (bound) {
		memcpy(s->bound, bound, WG_TAI64N_LEN);
		memcpy(s->last, bound, WG_TAI64N_LEN);
	}
}

void wg_stamp_next(struct wg_stamp *s, uint8_t out[static WG_TAI64N_LEN], uint64_t unix_sec,
		   uint32_t nsec)
{
	wg_tai64n_next(out, s->last, unix_sec, nsec);
	memcpy(s->last, out, WG_TAI64N_LEN);
}

bool wg_stamp_bound_needed(const struct wg_stamp *s, uint8_t want[static WG_TAI64N_LEN])
{
	uint64_t sec;

	if (wg_tai64n_cmp(s->last, s->bound) <= 0)
		return false;
	/* Labels stay below 2^63 (wg_stamp_parse, wg_tai64n): no overflow. */
	sec = stamp_seconds(s->last) + WG_STAMP_RESERVE_S;
	for (int i = 7; i >= 0; i--, sec >>= 8)
		want[i] = (uint8_t)sec;
	memcpy(want + 8, s->last + 8, 4);
	return true;
}

void wg_stamp_format(char out[static WG_STAMP_TEXT_LEN], const uint8_t bound[static WG_TAI64N_LEN])
{
	for (int i = 0; i < WG_TAI64N_LEN; i++) {
		out[2 * i] = hex[bound[i] >> 4];
		out[2 * i + 1] = hex[bound[i] & 15];
	}
	out[2 * WG_TAI64N_LEN] = '\n';
}

int wg_stamp_parse(const char *text, size_t len, uint8_t bound[static WG_TAI64N_LEN],
		   const char **why)
{
	uint8_t t[WG_TAI64N_LEN];
	uint64_t sec;
	uint32_t nsec;

	if (len == WG_STAMP_TEXT_LEN && text[len - 1] == '\n')
		len--;
	if (len != 2 * WG_TAI64N_LEN) {
		*why = "not 24 hex digits and a newline";
		return -EINVAL;
	}
	for (size_t i = 0; i < WG_TAI64N_LEN; i++) {
		int hi = pxp_hex_digit(text[2 * i]), lo = pxp_hex_digit(text[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			*why = "a character that is not a hex digit";
			return -EINVAL;
		}
		t[i] = (uint8_t)(hi << 4 | lo);
	}
	sec = stamp_seconds(t);
	nsec = (uint32_t)t[8] << 24 | (uint32_t)t[9] << 16 | (uint32_t)t[10] << 8 | t[11];
	if (sec < (1ULL << 62) || sec >= (1ULL << 63)) {
		*why = "seconds outside TAI64's labels (2^62 to 2^63)";
		return -EINVAL;
	}
	if (nsec >= 1000000000) {
		*why = "nanoseconds of 10^9 or more";
		return -EINVAL;
	}
	memcpy(bound, t, WG_TAI64N_LEN);
	return 0;
}

void wg_stamp_file_name(char out[static WG_STAMP_NAME_LEN], const uint8_t pub[static WG_KEY_LEN])
{
	uint8_t h[WG_MAC_LEN];
	char *p = out;

	wg_blake2s(h, sizeof(h), pub, WG_KEY_LEN, NULL, 0);
	memcpy(p, "wg-", 3);
	p += 3;
	for (size_t i = 0; i < sizeof(h); i++) {
		*p++ = hex[h[i] >> 4];
		*p++ = hex[h[i] & 15];
	}
	memcpy(p, ".stamp", 7);
}
