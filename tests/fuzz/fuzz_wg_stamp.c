// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the handshake stamp file's parser (wg-bridge/wg_stamp.c): any bytes
 * either parse to a bound that formats back to the same text, or are refused with a reason.
 * A parsed bound then never lets a stamp go back. Input: the file's contents.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wg_stamp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t b[WG_TAI64N_LEN], t[WG_TAI64N_LEN], want[WG_TAI64N_LEN];
	char text[WG_STAMP_TEXT_LEN];
	const char *why = NULL;
	struct wg_stamp s;
	int err;

	err = wg_stamp_parse((const char *)data, size, b, &why);
	if (err) {
		if (err != -EINVAL || !why)
			abort();
		return 0;
	}
	wg_stamp_format(text, b);
	if (size < 2 * WG_TAI64N_LEN || strncasecmp(text, (const char *)data, 2 * WG_TAI64N_LEN))
		abort();
	wg_stamp_start(&s, b);
	wg_stamp_next(&s, t, 0, 0);
	if (wg_tai64n_cmp(t, b) <= 0 || !wg_stamp_bound_needed(&s, want) ||
	    wg_tai64n_cmp(want, t) <= 0)
		abort();
	return 0;
}
