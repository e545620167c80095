// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the Router Solicitation check (pppoe/ra.c): any bytes with any hop
 * limit are accepted only as a well-formed solicitation; and the advertisement built from
 * fuzzed settings always fits its length.
 */
#include <stdlib.h>
#include <string.h>

#include "ra.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ra_config cfg = { 0 };
	const uint8_t *p = data + 1;
	uint8_t out[256];
	int n;

	if (size && !ra_parse_rs(data + 1, size - 1, data[0] == 0xff ? 255 : data[0]) &&
	    (data[0] != 0xff || size < 9 || data[1] != ICMP6_ROUTER_SOLICIT))
		abort();
	if (size < 1 + 16 + 2 * 16 + 16)
		return 0;
	cfg.cur_hop_limit = p[0];
	cfg.managed = p[1] & 1;
	cfg.other = p[1] & 2;
	cfg.router_lifetime_s = (uint16_t)(p[2] << 8 | p[3]);
	cfg.mtu = p[4] & 1 ? 1280u + p[5] : 0;
	cfg.prefix_len = p[6] & 0x7f;
	cfg.valid_s = p[7];
	cfg.preferred_s = p[8];
	cfg.dns_count = p[9] % (RA_MAX_DNS + 1);
	cfg.dns_lifetime_s = p[10];
	memcpy(cfg.prefix, p + 16, 16);
	memcpy(cfg.dns, p + 32, sizeof(cfg.dns));
	n = ra_build(&cfg, out, sizeof(out));
	if (n < 16 || n > (int)sizeof(out) || out[0] != ICMP6_ROUTER_ADVERT)
		abort();
	return 0;
}
