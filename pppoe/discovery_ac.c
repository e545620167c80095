// SPDX-License-Identifier: GPL-2.0
/*
 * PPPoE discovery, access concentrator side (RFC 2516 section 5, RFC 4638).
 *
 * Stateless until a valid PADR: the PADO carries an AC-Cookie that is an HMAC over
 * the requester's MAC and a time epoch, so a PADR proves it comes from (a station
 * using) the MAC that got the PADO, recently, without the AC remembering PADIs.
 */
#include "discovery.h"

#include <errno.h>
#include <string.h>

#include <nettle/hmac.h>
#include <nettle/memops.h>

#define DEFAULT_COOKIE_EPOCH_MS 60000
/* Bursts in seconds' worth of the rate. Per MAC, PADI and PADR take a token each: at the
 * default 2/s, 10 lets a client reconnect 5 times back to back (with 5, the 4th of 5 quick
 * `down`/`up` cycles lost its PADI and waited the client's 5 s timeout). */
#define GLOBAL_BURST_S		2
#define PER_MAC_BURST_S		5
/* Random draws before falling back to a scan for a free session id. */
#define SESSION_ID_DRAWS	32

static bool rate_valid(uint32_t rate)
{
	return rate <= DISC_AC_RATE_MAX || rate == DISC_AC_RATE_UNLIMITED;
}

/* The burst asked for, else seconds' worth of the rate (unused when unlimited). */
static uint32_t default_burst(uint32_t rate, uint32_t burst, uint32_t seconds)
{
	if (burst)
		return burst;
	return rate == DISC_AC_RATE_UNLIMITED ? 1 : rate * seconds;
}

/* Bursts 0 take the defaults: seconds' worth of each rate. */
static void rate_init(struct disc_rate_limit *l, uint32_t global_rate, uint32_t global_burst,
		      uint32_t per_mac_rate, uint32_t per_mac_burst)
{
	unsigned int i;

	l->global_rate = global_rate;
	l->global_burst = default_burst(global_rate, global_burst, GLOBAL_BURST_S);
	l->per_mac_rate = per_mac_rate;
	l->per_mac_burst = default_burst(per_mac_rate, per_mac_burst, PER_MAC_BURST_S);
	l->global_bucket.tokens_milli = (uint64_t)l->global_burst * 1000;
	for (i = 0; i < DISC_AC_RATE_MACS; i++)
		l->rate_heads[i] = DISC_AC_RATE_NONE;
	l->rate_oldest = l->rate_newest = DISC_AC_RATE_NONE;
}

int disc_ac_init(struct disc_ac *ac, const struct disc_ac_config *cfg,
		 const struct disc_ac_ops *ops)
{
	unsigned int i;
	int err;

	if (!ac || !cfg || !ops || !ops->io.send || !ops->io.random || !ops->event)
		return -EINVAL;
	if (!pppoe_mac_is_unicast(cfg->local_mac) || !cfg->ac_name)
		return -EINVAL;
	if (cfg->service_count > PPPOE_MAX_SERVICES || (cfg->service_count && !cfg->services))
		return -EINVAL;
	if (cfg->max_sessions > DISC_AC_MAX_SESSIONS)
		return -EINVAL;
	if (cfg->max_payload && cfg->max_payload <= PPPOE_DEFAULT_MRU)
		return -EINVAL;
	if (!rate_valid(cfg->global_rate) || !rate_valid(cfg->per_mac_rate) ||
	    cfg->global_burst > DISC_AC_RATE_MAX || cfg->per_mac_burst > DISC_AC_RATE_MAX)
		return -EINVAL;

	memset(ac, 0, sizeof(*ac));
	ac->ops = *ops;
	memcpy(ac->local_mac, cfg->local_mac, PXP_ETH_ALEN);
	err = pppoe_copy_name(ac->ac_name, sizeof(ac->ac_name), cfg->ac_name);
	if (err)
		return err;
	for (i = 0; i < cfg->service_count; i++) {
		if (!cfg->services[i])
			return -EINVAL;
		err = pppoe_copy_name(ac->services[i], sizeof(ac->services[i]), cfg->services[i]);
		if (err)
			return err;
	}
	ac->service_count = cfg->service_count;
	ac->max_sessions = cfg->max_sessions ? cfg->max_sessions : DISC_AC_MAX_SESSIONS;
	ac->max_payload = cfg->max_payload;
	ac->cookie_epoch_ms = cfg->cookie_epoch_ms ? cfg->cookie_epoch_ms : DEFAULT_COOKIE_EPOCH_MS;
	rate_init(&ac->rate, cfg->global_rate ? cfg->global_rate : DISC_AC_DEFAULT_RATE,
		  cfg->global_burst,
		  cfg->per_mac_rate ? cfg->per_mac_rate : DISC_AC_DEFAULT_RATE_PER_MAC,
		  cfg->per_mac_burst);
	rate_init(&ac->padt_rate, DISC_AC_PADT_RATE, 0, DISC_AC_PADT_RATE_PER_MAC, 0);
	ac->ops.io.random(ac->ops.io.ctx, ac->secret, sizeof(ac->secret));
	return 0;
}

void disc_ac_destroy(struct disc_ac *ac)
{
	explicit_bzero(ac->secret, sizeof(ac->secret));
	memset(ac->sessions, 0, sizeof(ac->sessions));
	memset(ac->slot_by_id, 0, sizeof(ac->slot_by_id));
	memset(ac->slot_by_mac, 0, sizeof(ac->slot_by_mac));
	ac->session_count = 0;
}

/* Refills lazily from the elapsed time. */
static void bucket_refill(struct disc_token_bucket *b, uint64_t now_ms, uint32_t rate,
			  uint32_t burst)
{
	uint64_t cap = (uint64_t)burst * 1000;

	if (now_ms > b->last_ms) {
		uint64_t elapsed = now_ms - b->last_ms;

		/* rate tokens per second = rate milli-tokens per ms; elapsed >= cap
		 * refills fully in any case (rate >= 1) and bounds the product. */
		if (elapsed >= cap)
			b->tokens_milli = cap;
		else
			b->tokens_milli += elapsed * rate;
		if (b->tokens_milli > cap)
			b->tokens_milli = cap;
	}
	b->last_ms = now_ms;
}

/* Keyed with the secret so a flood cannot aim all its MACs at one victim's chain. */
static unsigned int rate_hash(const struct disc_ac *ac, const uint8_t *mac)
{
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned int i;

	for (i = 0; i < 8; i++)
		h = (h ^ ac->secret[i]) * 0x100000001b3ull;
	for (i = 0; i < PXP_ETH_ALEN; i++)
		h = (h ^ mac[i]) * 0x100000001b3ull;
	/* FNV mixes the last bytes poorly into the high bits: finish with fmix64. */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return (unsigned int)(h & (DISC_AC_RATE_MACS - 1));
}

static void recency_unlink(struct disc_rate_limit *l, uint16_t i)
{
	struct disc_ac_rate_mac *e = &l->rate_macs[i];

	if (e->older != DISC_AC_RATE_NONE)
		l->rate_macs[e->older].newer = e->newer;
	else
		l->rate_oldest = e->newer;
	if (e->newer != DISC_AC_RATE_NONE)
		l->rate_macs[e->newer].older = e->older;
	else
		l->rate_newest = e->older;
}

static void recency_push_newest(struct disc_rate_limit *l, uint16_t i)
{
	struct disc_ac_rate_mac *e = &l->rate_macs[i];

	e->older = l->rate_newest;
	e->newer = DISC_AC_RATE_NONE;
	if (l->rate_newest != DISC_AC_RATE_NONE)
		l->rate_macs[l->rate_newest].newer = i;
	else
		l->rate_oldest = i;
	l->rate_newest = i;
}

/* Takes entry i out of its hash chain. */
static void chain_unlink(const struct disc_ac *ac, struct disc_rate_limit *l, uint16_t i)
{
	uint16_t *link = &l->rate_heads[rate_hash(ac, l->rate_macs[i].mac)];

	while (*link != i)
		link = &l->rate_macs[*link].next;
	*link = l->rate_macs[i].next;
}

/* The MAC's bucket, made the most recently seen; a new MAC gets a full one. */
static struct disc_token_bucket *mac_bucket(const struct disc_ac *ac, struct disc_rate_limit *l,
					    uint64_t now_ms, const uint8_t *mac)
{
	unsigned int h = rate_hash(ac, mac);
	struct disc_ac_rate_mac *e;
	uint16_t i;

	for (i = l->rate_heads[h]; i != DISC_AC_RATE_NONE; i = l->rate_macs[i].next)
		if (!memcmp(l->rate_macs[i].mac, mac, PXP_ETH_ALEN))
			break;
	if (i != DISC_AC_RATE_NONE) {
		recency_unlink(l, i);
		recency_push_newest(l, i);
		return &l->rate_macs[i].bucket;
	}
	if (l->rate_mac_count < DISC_AC_RATE_MACS) {
		i = (uint16_t)l->rate_mac_count++;
	} else {
		i = l->rate_oldest;
		chain_unlink(ac, l, i);
		recency_unlink(l, i);
	}
	e = &l->rate_macs[i];
	memcpy(e->mac, mac, PXP_ETH_ALEN);
	e->bucket.tokens_milli = (uint64_t)l->per_mac_burst * 1000;
	e->bucket.last_ms = now_ms;
	e->next = l->rate_heads[h];
	l->rate_heads[h] = i;
	recency_push_newest(l, i);
	return &e->bucket;
}

/* Takes a token from both the MAC's and the global bucket of l (those that limit), or none. */
static bool rate_allow(const struct disc_ac *ac, struct disc_rate_limit *l, uint64_t now_ms,
		       const uint8_t *mac)
{
	struct disc_token_bucket *per_mac = NULL, *global = NULL;

	if (l->per_mac_rate != DISC_AC_RATE_UNLIMITED) {
		per_mac = mac_bucket(ac, l, now_ms, mac);
		bucket_refill(per_mac, now_ms, l->per_mac_rate, l->per_mac_burst);
		if (per_mac->tokens_milli < 1000)
			return false;
	}
	if (l->global_rate != DISC_AC_RATE_UNLIMITED) {
		global = &l->global_bucket;
		bucket_refill(global, now_ms, l->global_rate, l->global_burst);
		if (global->tokens_milli < 1000)
			return false;
	}
	if (per_mac)
		per_mac->tokens_milli -= 1000;
	if (global)
		global->tokens_milli -= 1000;
	return true;
}

static void compute_cookie(const struct disc_ac *ac, const uint8_t *peer_mac, uint64_t epoch,
			   uint8_t out[static DISC_AC_COOKIE_LEN])
{
	struct hmac_sha256_ctx ctx;
	uint8_t epoch_be[8];
	unsigned int i;

	for (i = 0; i < 8; i++)
		epoch_be[i] = (uint8_t)(epoch >> (56 - 8 * i));
	hmac_sha256_set_key(&ctx, sizeof(ac->secret), ac->secret);
	hmac_sha256_update(&ctx, PXP_ETH_ALEN, peer_mac);
	hmac_sha256_update(&ctx, sizeof(epoch_be), epoch_be);
	hmac_sha256_digest(&ctx, DISC_AC_COOKIE_LEN, out);
	explicit_bzero(&ctx, sizeof(ctx));
}

static bool cookie_valid(const struct disc_ac *ac, uint64_t now_ms, const uint8_t *peer_mac,
			 const struct pppoe_tag_view *cookie)
{
	uint64_t epoch = now_ms / ac->cookie_epoch_ms;
	uint8_t expect[DISC_AC_COOKIE_LEN];
	bool ok = false;

	if (!cookie->present || cookie->len != DISC_AC_COOKIE_LEN)
		return false;
	compute_cookie(ac, peer_mac, epoch, expect);
	if (memeql_sec(expect, cookie->data, DISC_AC_COOKIE_LEN))
		ok = true;
	if (!ok && epoch > 0) {
		compute_cookie(ac, peer_mac, epoch - 1, expect);
		ok = memeql_sec(expect, cookie->data, DISC_AC_COOKIE_LEN);
	}
	explicit_bzero(expect, sizeof(expect));
	return ok;
}

/* A request for "" matches any offer; an AC offering nothing specific accepts all. */
static bool service_offered(const struct disc_ac *ac, const struct pppoe_tag_view *want)
{
	unsigned int i;

	if (!want->len || !ac->service_count)
		return true;
	for (i = 0; i < ac->service_count; i++)
		if (strlen(ac->services[i]) == want->len &&
		    !memcmp(ac->services[i], want->data, want->len))
			return true;
	return false;
}

/* RFC 4638: grant min(asked, ours) when both exceed 1492; 0 = do not echo the tag. */
static uint16_t granted_max_payload(const struct disc_ac *ac, const struct pppoe_disc_frame *f)
{
	uint16_t mp;

	if (!ac->max_payload || !f->has_max_payload || f->max_payload <= PPPOE_DEFAULT_MRU)
		return 0;
	mp = f->max_payload < ac->max_payload ? f->max_payload : ac->max_payload;
	return mp;
}

static int transmit(struct disc_ac *ac, struct pppoe_builder *b)
{
	int len = pppoe_build_finish(b);
	int err;

	if (len < 0)
		return len;
	err = ac->ops.io.send(ac->ops.io.ctx, b->buf, (size_t)len);
	if (err) {
		ac->tx_errors++;
		return err;
	}
	ac->tx_frames++;
	return 0;
}

/* Bounding what is echoed keeps every reply well inside a 1500-byte MTU. */
static bool echo_tags_fit(const struct pppoe_disc_frame *f)
{
	return f->host_uniq.len <= DISC_HOST_UNIQ_MAX &&
	       f->relay_session_id.len <= DISC_RELAY_ID_MAX && f->service_name.len <= DISC_NAME_MAX;
}

/* Echoes the tags RFC 2516 says a reply must carry back unchanged. */
static void echo_request_tags(struct pppoe_builder *b, const struct pppoe_disc_frame *f)
{
	if (f->host_uniq.present)
		pppoe_build_tag(b, PPPOE_TAG_HOST_UNIQ, f->host_uniq.data, f->host_uniq.len);
	if (f->relay_session_id.present)
		pppoe_build_tag(b, PPPOE_TAG_RELAY_SESSION_ID, f->relay_session_id.data,
				f->relay_session_id.len);
}

static int handle_padi(struct disc_ac *ac, uint64_t now_ms, const struct pppoe_disc_frame *f)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	uint8_t cookie[DISC_AC_COOKIE_LEN];
	struct pppoe_builder b;
	uint16_t mp;
	unsigned int i;

	if (memcmp(f->dst, pppoe_broadcast_mac, PXP_ETH_ALEN) &&
	    memcmp(f->dst, ac->local_mac, PXP_ETH_ALEN))
		return PPPOE_DROP_DST_MAC;
	if (f->session_id)
		return PPPOE_DROP_SESSION_ID;
	if (!f->service_name.present || !service_offered(ac, &f->service_name))
		return PPPOE_DROP_SERVICE;
	if (!echo_tags_fit(f))
		return PPPOE_DROP_TOO_LONG;
	if (!rate_allow(ac, &ac->rate, now_ms, f->src))
		return PPPOE_DROP_RATE_LIMIT;

	compute_cookie(ac, f->src, now_ms / ac->cookie_epoch_ms, cookie);
	pppoe_build_begin(&b, buf, sizeof(buf), f->src, ac->local_mac, PPPOE_CODE_PADO, 0);
	pppoe_build_tag(&b, PPPOE_TAG_AC_NAME, ac->ac_name, strlen(ac->ac_name));
	if (f->service_name.len || !ac->service_count) {
		pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, f->service_name.data,
				f->service_name.len);
	} else {
		for (i = 0; i < ac->service_count; i++)
			pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, ac->services[i],
					strlen(ac->services[i]));
	}
	pppoe_build_tag(&b, PPPOE_TAG_AC_COOKIE, cookie, sizeof(cookie));
	echo_request_tags(&b, f);
	mp = granted_max_payload(ac, f);
	if (mp)
		pppoe_build_tag_u16(&b, PPPOE_TAG_PPP_MAX_PAYLOAD, mp);
	transmit(ac, &b);
	return -1;
}

static int find_index(const struct disc_ac *ac, uint16_t session_id)
{
	return session_id ? (int)ac->slot_by_id[session_id] - 1 : -1;
}

static struct disc_ac_session *find_session(struct disc_ac *ac, uint16_t session_id)
{
	int i = find_index(ac, session_id);

	return i < 0 ? NULL : &ac->sessions[i];
}

/* A PADR retry (same MAC and Host-Uniq) of a session that already got its PADS. */
static struct disc_ac_session *find_retry(struct disc_ac *ac, const struct pppoe_disc_frame *f)
{
	uint16_t n;

	for (n = ac->slot_by_mac[rate_hash(ac, f->src)]; n; n = ac->sessions[n - 1].mac_next) {
		struct disc_ac_session *s = &ac->sessions[n - 1];

		if (!memcmp(s->peer_mac, f->src, PXP_ETH_ALEN) &&
		    s->has_host_uniq == f->host_uniq.present &&
		    s->host_uniq_len == f->host_uniq.len &&
		    (!s->host_uniq_len ||
		     !memcmp(s->host_uniq, f->host_uniq.data, s->host_uniq_len)))
			return s;
	}
	return NULL;
}

/* A random id that is nonzero, not 0xffff (reserved, RFC 2516 section 4) and unused. */
static uint16_t allocate_session_id(struct disc_ac *ac)
{
	uint16_t id;
	unsigned int i;

	for (i = 0; i < SESSION_ID_DRAWS; i++) {
		ac->ops.io.random(ac->ops.io.ctx, &id, sizeof(id));
		if (id && id != 0xffff && find_index(ac, id) < 0)
			return id;
	}
	/* Unlucky draws (or a bad random source): take the next free id after one. */
	for (i = 0; i < 0xfffe; i++) {
		id = (uint16_t)(id % 0xfffe + 1);
		if (find_index(ac, id) < 0)
			return id;
	}
	return 0;
}

static int send_pads(struct disc_ac *ac, const struct pppoe_disc_frame *f, uint16_t session_id,
		     uint16_t max_payload, uint16_t error_tag, const char *error_text)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	struct pppoe_builder b;

	pppoe_build_begin(&b, buf, sizeof(buf), f->src, ac->local_mac, PPPOE_CODE_PADS, session_id);
	pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, f->service_name.data, f->service_name.len);
	pppoe_build_tag(&b, PPPOE_TAG_AC_NAME, ac->ac_name, strlen(ac->ac_name));
	echo_request_tags(&b, f);
	if (max_payload)
		pppoe_build_tag_u16(&b, PPPOE_TAG_PPP_MAX_PAYLOAD, max_payload);
	if (error_tag)
		pppoe_build_tag(&b, error_tag, error_text, strlen(error_text));
	return transmit(ac, &b);
}

static int handle_padr(struct disc_ac *ac, uint64_t now_ms, const struct pppoe_disc_frame *f)
{
	struct disc_ac_event ev = { .type = DISC_AC_EV_SESSION_NEW };
	struct disc_ac_session *s;
	unsigned int i, h;
	uint16_t mp;

	if (memcmp(f->dst, ac->local_mac, PXP_ETH_ALEN))
		return PPPOE_DROP_DST_MAC;
	if (f->session_id)
		return PPPOE_DROP_SESSION_ID;
	if (!f->service_name.present)
		return PPPOE_DROP_SERVICE;
	if (!echo_tags_fit(f))
		return PPPOE_DROP_TOO_LONG;
	if (!rate_allow(ac, &ac->rate, now_ms, f->src))
		return PPPOE_DROP_RATE_LIMIT;
	if (!cookie_valid(ac, now_ms, f->src, &f->ac_cookie))
		return PPPOE_DROP_COOKIE;

	s = find_retry(ac, f);
	if (s) {
		/* Our PADS was lost: repeat it, the session already exists. */
		send_pads(ac, f, s->session_id,
			  s->max_payload > PPPOE_DEFAULT_MRU ? s->max_payload : 0, 0, NULL);
		return -1;
	}
	if (!service_offered(ac, &f->service_name)) {
		send_pads(ac, f, 0, 0, PPPOE_TAG_SERVICE_NAME_ERROR, "service not offered");
		return PPPOE_DROP_SERVICE;
	}
	if (ac->session_count >= ac->max_sessions) {
		send_pads(ac, f, 0, 0, PPPOE_TAG_AC_SYSTEM_ERROR, "no free session");
		return PPPOE_DROP_NO_SESSION_SLOT;
	}
	/* Round robin from the last slot taken: a free one is found in O(1) on average. */
	for (i = ac->next_free; ac->sessions[i].session_id; i = (i + 1) % DISC_AC_MAX_SESSIONS)
		;
	ac->next_free = (i + 1) % DISC_AC_MAX_SESSIONS;
	s = &ac->sessions[i];
	memset(s, 0, sizeof(*s));
	s->session_id = allocate_session_id(ac);
	memcpy(s->peer_mac, f->src, PXP_ETH_ALEN);
	mp = granted_max_payload(ac, f);
	s->max_payload = mp ? mp : PPPOE_DEFAULT_MRU;
	s->has_host_uniq = f->host_uniq.present;
	s->host_uniq_len = f->host_uniq.len;
	if (s->host_uniq_len)
		memcpy(s->host_uniq, f->host_uniq.data, s->host_uniq_len);
	pppoe_tag_to_string(&f->service_name, s->service_name, sizeof(s->service_name));
	ac->slot_by_id[s->session_id] = (uint16_t)(i + 1);
	h = rate_hash(ac, s->peer_mac);
	s->mac_next = ac->slot_by_mac[h];
	ac->slot_by_mac[h] = (uint16_t)(i + 1);
	ac->session_count++;

	send_pads(ac, f, s->session_id, mp, 0, NULL);
	ev.session_id = s->session_id;
	memcpy(ev.peer_mac, s->peer_mac, PXP_ETH_ALEN);
	ev.max_payload = s->max_payload;
	memcpy(ev.service_name, s->service_name, sizeof(ev.service_name));
	ac->ops.event(ac->ops.io.ctx, &ev);
	return -1;
}

static void release(struct disc_ac *ac, struct disc_ac_session *s)
{
	uint16_t n = (uint16_t)(s - ac->sessions + 1);
	uint16_t *link = &ac->slot_by_mac[rate_hash(ac, s->peer_mac)];

	while (*link != n)
		link = &ac->sessions[*link - 1].mac_next;
	*link = s->mac_next;
	ac->slot_by_id[s->session_id] = 0;
	memset(s, 0, sizeof(*s));
	ac->session_count--;
}

static int handle_padt(struct disc_ac *ac, const struct pppoe_disc_frame *f)
{
	struct disc_ac_event ev = { .type = DISC_AC_EV_SESSION_CLOSED };
	struct disc_ac_session *s;

	if (memcmp(f->dst, ac->local_mac, PXP_ETH_ALEN))
		return PPPOE_DROP_DST_MAC;
	s = find_session(ac, f->session_id);
	if (!s || memcmp(s->peer_mac, f->src, PXP_ETH_ALEN))
		return PPPOE_DROP_PADT_FOREIGN;
	ev.session_id = s->session_id;
	memcpy(ev.peer_mac, s->peer_mac, PXP_ETH_ALEN);
	ev.max_payload = s->max_payload;
	memcpy(ev.service_name, s->service_name, sizeof(ev.service_name));
	release(ac, s);
	ac->ops.event(ac->ops.io.ctx, &ev);
	return -1;
}

int disc_ac_input(struct disc_ac *ac, uint64_t now_ms, const void *frame, size_t len)
{
	struct pppoe_disc_frame f;
	enum pppoe_drop_reason reason;
	int verdict;

	ac->rx_frames++;
	if (pppoe_disc_parse(frame, len, &f, &reason)) {
		ac->drops[reason]++;
		return -EBADMSG;
	}
	if (!pppoe_mac_is_unicast(f.src)) {
		ac->drops[PPPOE_DROP_SRC_MAC]++;
		return -EINVAL;
	}
	switch (f.code) {
	case PPPOE_CODE_PADI:
		verdict = handle_padi(ac, now_ms, &f);
		break;
	case PPPOE_CODE_PADR:
		verdict = handle_padr(ac, now_ms, &f);
		break;
	case PPPOE_CODE_PADT:
		verdict = handle_padt(ac, &f);
		break;
	default:
		verdict = PPPOE_DROP_CODE;
		break;
	}
	if (verdict >= 0) {
		ac->drops[verdict]++;
		return -EINVAL;
	}
	return 0;
}

void disc_ac_timer(struct disc_ac *ac, uint64_t now_ms)
{
	(void)ac;
	(void)now_ms;
}

uint64_t disc_ac_deadline(const struct disc_ac *ac)
{
	(void)ac;
	return UINT64_MAX;
}

static int send_padt(struct disc_ac *ac, const uint8_t *peer_mac, uint16_t session_id,
		     const char *reason)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	int len, err;

	len = disc_build_padt(buf, sizeof(buf), ac->local_mac, peer_mac, session_id, reason);
	if (len < 0)
		return len;
	err = ac->ops.io.send(ac->ops.io.ctx, buf, (size_t)len);
	if (err) {
		ac->tx_errors++;
		return err;
	}
	ac->tx_frames++;
	return 0;
}

int disc_ac_close_session(struct disc_ac *ac, uint16_t session_id, const char *reason)
{
	struct disc_ac_session *s = find_session(ac, session_id);
	uint8_t peer_mac[PXP_ETH_ALEN];

	if (!s)
		return -ENOENT;
	memcpy(peer_mac, s->peer_mac, PXP_ETH_ALEN);
	release(ac, s);
	return send_padt(ac, peer_mac, session_id, reason);
}

int disc_ac_unknown_session(struct disc_ac *ac, uint64_t now_ms, const uint8_t *peer_mac,
			    uint16_t session_id)
{
	int err;

	if (!pppoe_mac_is_unicast(peer_mac) || !session_id || session_id == 0xffff)
		return -EINVAL;
	if (!rate_allow(ac, &ac->padt_rate, now_ms, peer_mac)) {
		ac->padt_unknown_session_limited++;
		return -EAGAIN;
	}
	err = send_padt(ac, peer_mac, session_id, DISC_AC_UNKNOWN_SESSION_TEXT);
	if (!err)
		ac->padt_unknown_session++;
	return err;
}

int disc_ac_release(struct disc_ac *ac, uint16_t session_id)
{
	struct disc_ac_session *s = find_session(ac, session_id);

	if (!s)
		return -ENOENT;
	release(ac, s);
	return 0;
}

const struct disc_ac_session *disc_ac_find(const struct disc_ac *ac, uint16_t session_id)
{
	int i = find_index(ac, session_id);

	return i < 0 ? NULL : &ac->sessions[i];
}
