/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Router advertisements as the AC sends them on a PPPoE session (RFC 4861 4.2, RDNSS from
 * RFC 8106), and the Router Solicitations it answers (RFC 4861 4.1, 6.1.1). Pure: the
 * ICMPv6 message only; the IPv6 header, the checksum and the timing are the shell's.
 */
#ifndef PXP_RA_H
#define PXP_RA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ICMP6_ROUTER_SOLICIT   133
#define ICMP6_ROUTER_ADVERT    134
/* RFC 4861 6.2.1, 10: the limits of the advertisement interval and the router lifetime. */
#define RA_INTERVAL_MIN_S      4
#define RA_INTERVAL_MAX_S      1800
#define RA_ROUTER_LIFETIME_MAX 9000
/* RFC 4861 10: the first advertisements come faster, to reach a client that just came up. */
#define RA_INITIAL_COUNT       3
#define RA_INITIAL_INTERVAL_S  16
#define RA_MAX_DNS	       2

struct ra_config {
	uint8_t cur_hop_limit;
	bool managed, other; /* the M and O flags */
	uint16_t router_lifetime_s;
	uint32_t mtu; /* 0 = no MTU option */
	uint8_t prefix[16];
	uint8_t prefix_len; /* 0 = no prefix option; with A and L set otherwise */
	uint32_t valid_s, preferred_s;
	uint8_t dns[RA_MAX_DNS][16];
	unsigned int dns_count;
	uint32_t dns_lifetime_s;
};

/* The ICMPv6 Router Advertisement, checksum 0; its length or -EMSGSIZE. */
int ra_build(const struct ra_config *cfg, uint8_t *out, size_t cap);
/*
 * 0 when buf is a valid Router Solicitation received with this hop limit (255, code 0, at
 * least 8 bytes, every option of non-zero length inside the message), else -EBADMSG.
 */
int ra_parse_rs(const uint8_t *buf, size_t len, int hop_limit);

#endif
