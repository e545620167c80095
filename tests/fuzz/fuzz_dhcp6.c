// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the AC's DHCPv6 server core (pppoe/dhcp6.c): any bytes either parse
 * into fields inside the message or are dropped with a named reason; a parsed message gets
 * an answer that fits the buffer and parses back, with our Server ID, its transaction id
 * and, for a Reply that binds, an IA_PD.
 */
#include <stdlib.h>
#include <string.h>

#include "dhcp6.h"

static bool inside(const uint8_t *p, size_t n, const uint8_t *data, size_t size)
{
	return !n || (p >= data && p + n <= data + size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t mac[6] = { 2, 0, 0, 0, 0, 1 };
	struct dhcp6_server_config cfg = { .dns_count = 2, .preferred_s = 3600, .valid_s = 7200 };
	struct dhcp6_binding b = { .prefix = { 0x20, 0x01, 0x0d, 0xb8 }, .prefix_len = 56 };
	enum dhcp6_drop_reason reason = DHCP6_DROP_REASON_COUNT;
	enum dhcp6_outcome outcome;
	struct dhcp6_msg m, r;
	uint8_t out[1500];
	int n;

	if (dhcp6_parse(data, size, &m, &reason)) {
		if (reason >= DHCP6_DROP_REASON_COUNT)
			abort();
		return 0;
	}
	if (!inside(m.client_id, m.client_id_len, data, size) ||
	    !inside(m.server_id, m.server_id_len, data, size) || m.client_id_len > DHCP6_DUID_MAX ||
	    m.server_id_len > DHCP6_DUID_MAX)
		abort();
	cfg.duid_len = dhcp6_duid_ll(cfg.duid, mac);
	/* Half the runs with an exhausted pool: the answer must say so, not bind. */
	if (size & 1)
		b.prefix_len = 0;
	reason = DHCP6_DROP_REASON_COUNT;
	n = dhcp6_answer(&cfg, &b, &m, out, sizeof(out), &outcome, &reason);
	if (n < 0)
		abort(); /* a client message of any size fits a 1500-byte answer */
	if (n == 0) {
		if (reason >= DHCP6_DROP_REASON_COUNT || outcome != DHCP6_NO_CHANGE)
			abort();
		return 0;
	}
	if ((size_t)n > sizeof(out) || dhcp6_parse(out, (size_t)n, &r, &reason))
		abort();
	if ((r.type != DHCP6_REPLY && r.type != DHCP6_ADVERTISE) || r.xid != m.xid ||
	    r.server_id_len != cfg.duid_len || memcmp(r.server_id, cfg.duid, cfg.duid_len) ||
	    r.client_id_len != m.client_id_len ||
	    (m.client_id_len && memcmp(r.client_id, m.client_id, m.client_id_len)))
		abort();
	if (outcome == DHCP6_BOUND && (r.type != DHCP6_REPLY || !r.has_ia_pd || !b.prefix_len))
		abort();
	return 0;
}
