// SPDX-License-Identifier: GPL-2.0
/*
 * IPv6CP (RFC 5072): both ends pick random, nonzero, distinct 64-bit Interface-Identifiers
 * for their link-local addresses. IPv6 header compression is rejected.
 */
#include "ppp.h"
#include "ppp_numbers.h"

#include <string.h>

#define IFID_LEN 8

static const uint8_t zero_ifid[IFID_LEN];

static bool ifid_is_zero(const uint8_t *id)
{
	return memcmp(id, zero_ifid, IFID_LEN) == 0;
}

/* A random nonzero identifier that differs from avoid, even with a stuck generator. */
static void pick_ifid(struct ppp *p, uint8_t *id, const uint8_t *avoid)
{
	ppp_random_nonzero(p, id, IFID_LEN);
	if (memcmp(id, avoid, IFID_LEN) != 0)
		return;
	id[IFID_LEN - 1] ^= 1;
	if (ifid_is_zero(id))
		id[IFID_LEN - 1] = 2;
}

static void ipv6cp_reset(struct fsm *f)
{
	struct ppp *p = ppp_of(f);
	struct ipv6cp_options *o = &p->ipv6cp_opt;

	o->req_ifid = true;
	if (ifid_is_zero(o->local_ifid))
		pick_ifid(p, o->local_ifid, zero_ifid);
	memset(o->peer_ifid, 0, IFID_LEN);
}

static size_t ipv6cp_build_request(struct fsm *f, uint8_t *buf, size_t cap)
{
	struct ipv6cp_options *o = &ppp_of(f)->ipv6cp_opt;

	if (!o->req_ifid || cap < 2 + IFID_LEN)
		return 0;
	buf[0] = IPV6CP_OPT_IFID;
	buf[1] = 2 + IFID_LEN;
	memcpy(buf + 2, o->local_ifid, IFID_LEN);
	return 2 + IFID_LEN;
}

static void ipv6cp_request_begin(struct fsm *f)
{
	memset(ppp_of(f)->ipv6cp_opt.peer_req_ifid, 0, IFID_LEN);
}

static enum fsm_verdict ipv6cp_request_option(struct fsm *f, uint8_t type, const uint8_t *val,
					      size_t len, uint8_t *nak, size_t *nak_len)
{
	struct ppp *p = ppp_of(f);
	struct ipv6cp_options *o = &p->ipv6cp_opt;

	if (type != IPV6CP_OPT_IFID || len != IFID_LEN)
		return FSM_REJ;
	/* RFC 5072 4.1: zero or equal to ours: suggest a different, nonzero one. */
	if (ifid_is_zero(val) || memcmp(val, o->local_ifid, IFID_LEN) == 0) {
		pick_ifid(p, nak, o->local_ifid);
		*nak_len = IFID_LEN;
		return FSM_NAK;
	}
	memcpy(o->peer_req_ifid, val, IFID_LEN);
	return FSM_ACK;
}

static int ipv6cp_nak_option(struct fsm *f, uint8_t type, const uint8_t *val, size_t len)
{
	struct ppp *p = ppp_of(f);
	struct ipv6cp_options *o = &p->ipv6cp_opt;

	if (type != IPV6CP_OPT_IFID || len != IFID_LEN)
		return 0;
	if (!ifid_is_zero(val) && memcmp(val, o->peer_req_ifid, IFID_LEN) != 0)
		memcpy(o->local_ifid, val, IFID_LEN);
	else
		pick_ifid(p, o->local_ifid, o->peer_req_ifid);
	return 0;
}

static int ipv6cp_reject_option(struct fsm *f, uint8_t type)
{
	/* Without the option we keep our identifier for our own link-local address. */
	if (type == IPV6CP_OPT_IFID)
		ppp_of(f)->ipv6cp_opt.req_ifid = false;
	return 0;
}

static void ipv6cp_up(struct fsm *f)
{
	struct ppp *p = ppp_of(f);

	memcpy(p->ipv6cp_opt.peer_ifid, p->ipv6cp_opt.peer_req_ifid, IFID_LEN);
	ppp_ncp_up(p, f);
}

static void ipv6cp_down(struct fsm *f)
{
	ppp_ncp_down(ppp_of(f), f);
}

static void ipv6cp_finished(struct fsm *f)
{
	ppp_ncp_finished(ppp_of(f), f);
}

const struct fsm_ops ipv6cp_ops = {
	.reset = ipv6cp_reset,
	.build_request = ipv6cp_build_request,
	.request_begin = ipv6cp_request_begin,
	.request_option = ipv6cp_request_option,
	.nak_option = ipv6cp_nak_option,
	.reject_option = ipv6cp_reject_option,
	.up = ipv6cp_up,
	.down = ipv6cp_down,
	.finished = ipv6cp_finished,
};
