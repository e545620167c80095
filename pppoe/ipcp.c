// SPDX-License-Identifier: GPL-2.0
/*
 * IPCP (RFC 1332) with the DNS options of RFC 1877. The client asks for 0.0.0.0 and for
 * DNS servers and takes what the server Naks; the server Naks the pool address and its
 * DNS servers. Van Jacobson compression means nothing to our data path: rejected.
 */
#include "ppp.h"
#include "ppp_numbers.h"

#include <errno.h>
#include <string.h>

static bool is_server(const struct ppp *p)
{
	return p->cfg.role == PPP_ROLE_SERVER;
}

static void ipcp_reset(struct fsm *f)
{
	struct ppp *p = ppp_of(f);
	struct ipcp_options *o = &p->ipcp_opt;

	memset(o, 0, sizeof(*o));
	o->req_addr = true;
	if (is_server(p)) {
		o->local_ip = p->cfg.local_ip;
	} else {
		o->req_dns[0] = true;
		o->req_dns[1] = true;
	}
}

static void add_ip_option(uint8_t *buf, size_t *len, uint8_t type, uint32_t ip)
{
	buf[*len] = type;
	buf[*len + 1] = 6;
	memcpy(buf + *len + 2, &ip, 4); /* already in network order */
	*len += 6;
}

static size_t ipcp_build_request(struct fsm *f, uint8_t *buf, size_t cap)
{
	struct ipcp_options *o = &ppp_of(f)->ipcp_opt;
	size_t len = 0;

	if (cap < 3 * 6)
		return 0;
	if (o->req_addr)
		add_ip_option(buf, &len, IPCP_OPT_ADDRESS, o->local_ip);
	if (o->req_dns[0])
		add_ip_option(buf, &len, IPCP_OPT_DNS1, o->dns[0]);
	if (o->req_dns[1])
		add_ip_option(buf, &len, IPCP_OPT_DNS2, o->dns[1]);
	return len;
}

static void ipcp_request_begin(struct fsm *f)
{
	struct ipcp_options *o = &ppp_of(f)->ipcp_opt;

	o->peer_req_ip = 0;
	o->peer_sent_addr = false;
}

/* Acks want, or Naks with it; want == 0 means we have nothing to offer: reject. */
static enum fsm_verdict offer_ip(uint32_t got, uint32_t want, uint8_t *nak, size_t *nak_len)
{
	if (want == 0)
		return FSM_REJ;
	if (got == want)
		return FSM_ACK;
	memcpy(nak, &want, 4);
	*nak_len = 4;
	return FSM_NAK;
}

static enum fsm_verdict ipcp_request_option(struct fsm *f, uint8_t type, const uint8_t *val,
					    size_t len, uint8_t *nak, size_t *nak_len)
{
	struct ppp *p = ppp_of(f);
	struct ipcp_options *o = &p->ipcp_opt;
	uint32_t ip;
	enum fsm_verdict v;

	if (len != 4)
		return FSM_REJ;
	memcpy(&ip, val, 4);
	switch (type) {
	case IPCP_OPT_ADDRESS:
		o->peer_sent_addr = true;
		if (is_server(p) && p->cfg.peer_ip)
			v = offer_ip(ip, p->cfg.peer_ip, nak, nak_len);
		else /* the peer knows its address; 0.0.0.0 asks us for one we lack */
			v = ip ? FSM_ACK : FSM_REJ;
		if (v == FSM_ACK)
			o->peer_req_ip = ip;
		return v;
	case IPCP_OPT_DNS1:
		return is_server(p) ? offer_ip(ip, p->cfg.dns[0], nak, nak_len) : FSM_REJ;
	case IPCP_OPT_DNS2:
		return is_server(p) ? offer_ip(ip, p->cfg.dns[1], nak, nak_len) : FSM_REJ;
	case IPCP_OPT_ADDRESSES:
	case IPCP_OPT_COMPRESSION:
	default:
		return FSM_REJ;
	}
}

static void ipcp_request_end(struct fsm *f)
{
	struct ppp *p = ppp_of(f);

	/* RFC 1332 3.3: the server appends the address the client must take. */
	if (is_server(p) && p->cfg.peer_ip && !p->ipcp_opt.peer_sent_addr)
		fsm_nak_missing(f, IPCP_OPT_ADDRESS, (const uint8_t *)&p->cfg.peer_ip, 4);
}

static int ipcp_nak_option(struct fsm *f, uint8_t type, const uint8_t *val, size_t len)
{
	struct ppp *p = ppp_of(f);
	struct ipcp_options *o = &p->ipcp_opt;
	uint32_t ip;

	if (len != 4 || is_server(p)) /* the server keeps its own address */
		return 0;
	memcpy(&ip, val, 4);
	switch (type) {
	case IPCP_OPT_ADDRESS:
		if (ip)
			o->local_ip = ip;
		break;
	case IPCP_OPT_DNS1:
		if (o->req_dns[0])
			o->dns[0] = ip;
		break;
	case IPCP_OPT_DNS2:
		if (o->req_dns[1])
			o->dns[1] = ip;
		break;
	default:
		break;
	}
	return 0;
}

static int ipcp_reject_option(struct fsm *f, uint8_t type)
{
	struct ppp *p = ppp_of(f);
	struct ipcp_options *o = &p->ipcp_opt;

	switch (type) {
	case IPCP_OPT_ADDRESS:
		/* A client that learns no address has no IPv4 link. */
		if (!is_server(p) && o->local_ip == 0)
			return -EPROTO;
		o->req_addr = false;
		break;
	case IPCP_OPT_DNS1:
		o->req_dns[0] = false;
		o->dns[0] = 0;
		break;
	case IPCP_OPT_DNS2:
		o->req_dns[1] = false;
		o->dns[1] = 0;
		break;
	default:
		break;
	}
	return 0;
}

static void ipcp_up(struct fsm *f)
{
	struct ppp *p = ppp_of(f);

	p->ipcp_opt.peer_ip = p->ipcp_opt.peer_req_ip;
	ppp_ncp_up(p, f);
}

static void ipcp_down(struct fsm *f)
{
	ppp_ncp_down(ppp_of(f), f);
}

static void ipcp_finished(struct fsm *f)
{
	ppp_ncp_finished(ppp_of(f), f);
}

const struct fsm_ops ipcp_ops = {
	.reset = ipcp_reset,
	.build_request = ipcp_build_request,
	.request_begin = ipcp_request_begin,
	.request_option = ipcp_request_option,
	.request_end = ipcp_request_end,
	.nak_option = ipcp_nak_option,
	.reject_option = ipcp_reject_option,
	.up = ipcp_up,
	.down = ipcp_down,
	.finished = ipcp_finished,
};
