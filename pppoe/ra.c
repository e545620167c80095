// SPDX-License-Identifier: GPL-2.0
/* Router advertisements and solicitations; see ra.h. */
#include "ra.h"

#include <errno.h>
#include <string.h>

#include "pxp_bytes.h"

#define RA_FIXED	16 /* type .. retrans timer */
#define OPT_MTU		5
#define OPT_PREFIX	3
#define OPT_RDNSS	25
#define PREFIX_FLAG_L	0x80
#define PREFIX_FLAG_A	0x40
#define RA_FLAG_MANAGED 0x80
#define RA_FLAG_OTHER	0x40

int ra_build(const struct ra_config *cfg, uint8_t *out, size_t cap)
{
	size_t len = RA_FIXED + (cfg->mtu ? 8 : 0) + (cfg->prefix_len ? 32 : 0) +
		     (cfg->dns_count ? 8 + 16 * (size_t)cfg->dns_count : 0);
	uint8_t *p = out;
	unsigned int i;

	if (len > cap || cfg->dns_count > RA_MAX_DNS)
		return -EMSGSIZE;
	memset(out, 0, len);
	p[0] = ICMP6_ROUTER_ADVERT;
	p[4] = cfg->cur_hop_limit;
	p[5] = (cfg->managed ? RA_FLAG_MANAGED : 0) | (cfg->other ? RA_FLAG_OTHER : 0);
	put_be16(p + 6, cfg->router_lifetime_s);
	/* Reachable time and retrans timer 0: unspecified, the host keeps its own. */
	p += RA_FIXED;
	if (cfg->mtu) {
		p[0] = OPT_MTU;
		p[1] = 1;
		put_be32(p + 4, cfg->mtu);
		p += 8;
	}
	if (cfg->prefix_len) {
		p[0] = OPT_PREFIX;
		p[1] = 4;
		p[2] = cfg->prefix_len;
		p[3] = PREFIX_FLAG_L | PREFIX_FLAG_A;
		put_be32(p + 4, cfg->valid_s);
		put_be32(p + 8, cfg->preferred_s);
		memcpy(p + 16, cfg->prefix, 16);
		p += 32;
	}
	if (cfg->dns_count) {
		p[0] = OPT_RDNSS;
		p[1] = (uint8_t)(1 + 2 * cfg->dns_count);
		put_be32(p + 4, cfg->dns_lifetime_s);
		for (i = 0; i < cfg->dns_count; i++)
			memcpy(p + 8 + 16 * i, cfg->dns[i], 16);
		p += 8 + 16 * cfg->dns_count;
	}
	return (int)(p - out);
}

int ra_parse_rs(const uint8_t *buf, size_t len, int hop_limit)
{
	size_t off = 8;

	if (hop_limit != 255 || len < 8 || buf[0] != ICMP6_ROUTER_SOLICIT || buf[1] != 0)
		return -EBADMSG;
	while (off < len) {
		size_t olen;

		if (len - off < 2)
			return -EBADMSG;
		olen = (size_t)buf[off + 1] * 8;
		if (!olen || olen > len - off)
			return -EBADMSG;
		off += olen;
	}
	return 0;
}
