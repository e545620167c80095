// SPDX-License-Identifier: GPL-2.0
/* PPPoE discovery, client side (RFC 2516 section 5, RFC 4638). */
#include "discovery.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool tag_equals_string(const struct pppoe_tag_view *tag, const char *s)
{
	size_t n = strlen(s);

	return tag->present && tag->len == n && memcmp(tag->data, s, n) == 0;
}

static bool tag_equals_bytes(const struct pppoe_tag_view *tag, const uint8_t *b, size_t n)
{
	return tag->present && tag->len == n && memcmp(tag->data, b, n) == 0;
}

/* Event texts are bounded; truncating a long peer-supplied text is intended. */
static void __attribute__((format(printf, 3, 4)))
format_text(char *out, size_t out_size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, out_size, fmt, ap);
	va_end(ap);
}

int disc_client_init(struct disc_client *c, const struct disc_client_config *cfg,
		     const struct disc_client_ops *ops)
{
	int err;

	if (!c || !cfg || !ops || !ops->io.send || !ops->io.random || !ops->event)
		return -EINVAL;
	if (!pppoe_mac_is_unicast(cfg->local_mac))
		return -EINVAL;
	if (cfg->host_uniq_len > DISC_HOST_UNIQ_MAX || (cfg->host_uniq_len && !cfg->host_uniq))
		return -EINVAL;
	/* RFC 4638 only ever raises the MRU above the 1492 default. */
	if (cfg->max_payload && cfg->max_payload <= PPPOE_DEFAULT_MRU)
		return -EINVAL;

	memset(c, 0, sizeof(*c));
	c->ops = *ops;
	memcpy(c->local_mac, cfg->local_mac, PXP_ETH_ALEN);
	err = pppoe_copy_name(c->service_name, sizeof(c->service_name), cfg->service_name);
	if (err)
		return err;
	err = pppoe_copy_name(c->ac_name, sizeof(c->ac_name), cfg->ac_name);
	if (err)
		return err;
	c->filter_ac_name = cfg->ac_name != NULL;
	c->match_ac_mac = cfg->match_ac_mac;
	memcpy(c->filter_ac_mac, cfg->ac_mac, PXP_ETH_ALEN);
	if (cfg->host_uniq_len) {
		memcpy(c->host_uniq, cfg->host_uniq, cfg->host_uniq_len);
		c->host_uniq_len = (uint16_t)cfg->host_uniq_len;
	} else {
		c->ops.io.random(c->ops.io.ctx, c->host_uniq, DISC_DEFAULT_HOST_UNIQ_LEN);
		c->host_uniq_len = DISC_DEFAULT_HOST_UNIQ_LEN;
	}
	c->max_payload_wish = cfg->max_payload;
	c->padi_attempts = cfg->padi_attempts ? cfg->padi_attempts : DISC_DEFAULT_ATTEMPTS;
	c->padr_attempts = cfg->padr_attempts ? cfg->padr_attempts : DISC_DEFAULT_ATTEMPTS;
	c->initial_timeout_ms =
		cfg->initial_timeout_ms ? cfg->initial_timeout_ms : DISC_DEFAULT_TIMEOUT_MS;
	if (c->initial_timeout_ms > DISC_MAX_TIMEOUT_MS)
		c->initial_timeout_ms = DISC_MAX_TIMEOUT_MS;
	c->discover_window_ms =
		cfg->discover_window_ms ? cfg->discover_window_ms : c->initial_timeout_ms;
	c->state = DISC_CLIENT_IDLE;
	c->deadline_ms = UINT64_MAX;
	return 0;
}

static void emit(struct disc_client *c, const struct disc_client_event *ev)
{
	c->ops.event(c->ops.io.ctx, ev);
}

static int transmit(struct disc_client *c, struct pppoe_builder *b)
{
	int len = pppoe_build_finish(b);
	int err;

	if (len < 0)
		return len;
	err = c->ops.io.send(c->ops.io.ctx, b->buf, (size_t)len);
	if (err) {
		c->tx_errors++;
		return err;
	}
	c->tx_frames++;
	return 0;
}

static int send_padi(struct disc_client *c)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	struct pppoe_builder b;

	pppoe_build_begin(&b, buf, sizeof(buf), pppoe_broadcast_mac, c->local_mac, PPPOE_CODE_PADI,
			  0);
	pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, c->service_name, strlen(c->service_name));
	pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, c->host_uniq, c->host_uniq_len);
	if (c->max_payload_wish)
		pppoe_build_tag_u16(&b, PPPOE_TAG_PPP_MAX_PAYLOAD, c->max_payload_wish);
	return transmit(c, &b);
}

static int send_padr(struct disc_client *c)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	struct pppoe_builder b;

	pppoe_build_begin(&b, buf, sizeof(buf), c->ac_mac, c->local_mac, PPPOE_CODE_PADR, 0);
	pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, c->service_name, strlen(c->service_name));
	pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, c->host_uniq, c->host_uniq_len);
	if (c->has_cookie)
		pppoe_build_tag(&b, PPPOE_TAG_AC_COOKIE, c->cookie, c->cookie_len);
	if (c->has_relay_id)
		pppoe_build_tag(&b, PPPOE_TAG_RELAY_SESSION_ID, c->relay_id, c->relay_id_len);
	if (c->max_payload_wish)
		pppoe_build_tag_u16(&b, PPPOE_TAG_PPP_MAX_PAYLOAD, c->max_payload_wish);
	return transmit(c, &b);
}

static void arm(struct disc_client *c, uint64_t now_ms, uint32_t timeout_ms)
{
	c->timeout_ms = timeout_ms;
	c->deadline_ms = now_ms + timeout_ms;
}

static void go_idle(struct disc_client *c)
{
	c->state = DISC_CLIENT_IDLE;
	c->deadline_ms = UINT64_MAX;
}

static void reset_attempt_state(struct disc_client *c)
{
	c->has_cookie = false;
	c->has_relay_id = false;
	c->cookie_len = 0;
	c->relay_id_len = 0;
	c->session_id = 0;
	c->last_pado_error[0] = '\0';
	c->found_count = 0;
}

int disc_client_start(struct disc_client *c, uint64_t now_ms)
{
	if (c->state != DISC_CLIENT_IDLE)
		return -EBUSY;
	reset_attempt_state(c);
	c->state = DISC_CLIENT_PADI_SENT;
	c->attempt = 1;
	arm(c, now_ms, c->initial_timeout_ms);
	/* A lost PADI is retried by the timer like an unanswered one. */
	send_padi(c);
	return 0;
}

int disc_client_start_discover(struct disc_client *c, uint64_t now_ms)
{
	int err;

	if (c->state != DISC_CLIENT_IDLE)
		return -EBUSY;
	reset_attempt_state(c);

	c->state = DISC_CLIENT_DISCOVERING;
	c->attempt = 1;
	arm(c, now_ms, c->discover_window_ms);
	/* Discover mode sends one PADI only, so a failed send ends it at once. */
	err = send_padi(c);
	if (err)
		go_idle(c);
	return err;
}

static void fail(struct disc_client *c, enum disc_failure failure, const char *message)
{
	struct disc_client_event ev = { .type = DISC_EV_FAILED, .failure = failure };

	format_text(ev.message, sizeof(ev.message), "%s", message);
	go_idle(c);
	emit(c, &ev);
}

static uint32_t backoff(uint32_t timeout_ms)
{
	return timeout_ms >= DISC_MAX_TIMEOUT_MS / 2 ? DISC_MAX_TIMEOUT_MS : timeout_ms * 2;
}

/* A retransmission is about to go out: one event per retry, for a progress line. */
static void emit_retry(struct disc_client *c, uint8_t code, unsigned int attempts)
{
	struct disc_client_event ev = {
		.type = DISC_EV_RETRY,
		.retry_code = code,
		.attempt = c->attempt,
		.attempts = attempts,
		.waited_ms = c->timeout_ms,
	};
	const char *sent = code == PPPOE_CODE_PADI ? "PADI" : "PADR";
	const char *awaited = code == PPPOE_CODE_PADI ? "PADO" : "PADS";

	if (ev.waited_ms % 1000)
		format_text(ev.message, sizeof(ev.message), "no %s after %u ms, %s %u of %u",
			    awaited, ev.waited_ms, sent, ev.attempt, attempts);
	else
		format_text(ev.message, sizeof(ev.message), "no %s after %u s, %s %u of %u",
			    awaited, ev.waited_ms / 1000, sent, ev.attempt, attempts);
	emit(c, &ev);
}

void disc_client_timer(struct disc_client *c, uint64_t now_ms)
{
	char msg[DISC_ERROR_TEXT_MAX + 1];

	if (now_ms < c->deadline_ms)
		return;
	switch (c->state) {
	case DISC_CLIENT_PADI_SENT:
		if (c->attempt >= c->padi_attempts) {
			if (c->last_pado_error[0])
				format_text(msg, sizeof(msg), "no PADO after %u PADIs (last %s)",
					    c->attempt, c->last_pado_error);
			else
				format_text(msg, sizeof(msg), "no PADO after %u PADIs", c->attempt);
			fail(c, DISC_FAIL_NO_PADO, msg);
			return;
		}
		c->attempt++;
		emit_retry(c, PPPOE_CODE_PADI, c->padi_attempts);
		arm(c, now_ms, backoff(c->timeout_ms));
		send_padi(c);
		return;
	case DISC_CLIENT_PADR_SENT:
		if (c->attempt >= c->padr_attempts) {
			snprintf(msg, sizeof(msg), "no PADS after %u PADRs", c->attempt);
			fail(c, DISC_FAIL_NO_PADS, msg);
			return;
		}
		c->attempt++;
		emit_retry(c, PPPOE_CODE_PADR, c->padr_attempts);
		arm(c, now_ms, backoff(c->timeout_ms));
		send_padr(c);
		return;
	case DISC_CLIENT_DISCOVERING: {
		struct disc_client_event ev = { .type = DISC_EV_DISCOVER_DONE,
						.ac_count = c->found_count };

		go_idle(c);
		emit(c, &ev);
		return;
	}
	case DISC_CLIENT_IDLE:
	case DISC_CLIENT_SESSION:
		c->deadline_ms = UINT64_MAX;
		return;
	}
}

uint64_t disc_client_deadline(const struct disc_client *c)
{
	return c->deadline_ms;
}

/* Describes the first error tag of a frame as "<prefix> <Tag-Name>: <text>". */
static bool describe_error_tag(const struct pppoe_disc_frame *f, const char *prefix, char *out,
			       size_t out_size)
{
	static const struct {
		size_t offset;
		const char *name;
	} tags[] = {
		{ offsetof(struct pppoe_disc_frame, service_name_error), "Service-Name-Error" },
		{ offsetof(struct pppoe_disc_frame, ac_system_error), "AC-System-Error" },
		{ offsetof(struct pppoe_disc_frame, generic_error), "Generic-Error" },
	};
	char text[DISC_ERROR_TEXT_MAX + 1];
	size_t i;

	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		const struct pppoe_tag_view *t = (const void *)((const char *)f + tags[i].offset);

		if (!t->present)
			continue;
		pppoe_tag_to_string(t, text, sizeof(text));
		format_text(out, out_size, "%s %s: %s", prefix, tags[i].name,
			    t->len ? text : "(no text)");
		return true;
	}
	return false;
}

static bool pado_offers_service(const struct disc_client *c, const struct pppoe_disc_frame *f)
{
	unsigned int i;

	if (!c->service_name[0])
		return true;
	for (i = 0; i < f->service_count; i++)
		if (tag_equals_string(&f->services[i], c->service_name))
			return true;
	return false;
}

static void fill_ac_found(struct disc_client_event *ev, const struct pppoe_disc_frame *f)
{
	unsigned int i;

	memcpy(ev->ac_mac, f->src, PXP_ETH_ALEN);
	pppoe_tag_to_string(&f->ac_name, ev->ac_name, sizeof(ev->ac_name));
	ev->service_count = f->service_count;
	for (i = 0; i < f->service_count; i++)
		pppoe_tag_to_string(&f->services[i], ev->services[i], sizeof(ev->services[i]));
	ev->has_cookie = f->ac_cookie.present;
	ev->has_max_payload = f->has_max_payload;
}

static int report_ac(struct disc_client *c, const struct pppoe_disc_frame *f)
{
	struct disc_client_event ev = { .type = DISC_EV_AC_FOUND };
	unsigned int i;

	for (i = 0; i < c->found_count; i++)
		if (!memcmp(c->found_macs[i], f->src, PXP_ETH_ALEN))
			return PPPOE_DROP_DUP_AC;
	if (c->found_count == DISC_DISCOVER_MAX_ACS)
		return PPPOE_DROP_DUP_AC;
	memcpy(c->found_macs[c->found_count++], f->src, PXP_ETH_ALEN);
	fill_ac_found(&ev, f);
	emit(c, &ev);
	return -1;
}

/* Returns a drop reason, or -1 when the PADO was taken. */
static int handle_pado(struct disc_client *c, uint64_t now_ms, const struct pppoe_disc_frame *f)
{
	if (c->state != DISC_CLIENT_PADI_SENT && c->state != DISC_CLIENT_DISCOVERING)
		return PPPOE_DROP_CODE;
	if (memcmp(f->dst, c->local_mac, PXP_ETH_ALEN))
		return PPPOE_DROP_DST_MAC;
	if (f->session_id)
		return PPPOE_DROP_SESSION_ID;
	if (!tag_equals_bytes(&f->host_uniq, c->host_uniq, c->host_uniq_len))
		return PPPOE_DROP_HOST_UNIQ;
	if (describe_error_tag(f, "PADO", c->last_pado_error, sizeof(c->last_pado_error)))
		return PPPOE_DROP_ERROR_TAG;
	if (!pado_offers_service(c, f))
		return PPPOE_DROP_SERVICE;
	if (c->filter_ac_name && !tag_equals_string(&f->ac_name, c->ac_name))
		return PPPOE_DROP_AC_NAME;
	if (c->match_ac_mac && memcmp(f->src, c->filter_ac_mac, PXP_ETH_ALEN))
		return PPPOE_DROP_AC_MAC;
	if (f->ac_cookie.len > DISC_COOKIE_MAX || f->relay_session_id.len > DISC_RELAY_ID_MAX)
		return PPPOE_DROP_TOO_LONG;

	if (c->state == DISC_CLIENT_DISCOVERING)
		return report_ac(c, f);

	memcpy(c->ac_mac, f->src, PXP_ETH_ALEN);
	pppoe_tag_to_string(&f->ac_name, c->ac_name_seen, sizeof(c->ac_name_seen));
	c->has_cookie = f->ac_cookie.present;
	c->cookie_len = f->ac_cookie.len;
	if (c->cookie_len)
		memcpy(c->cookie, f->ac_cookie.data, c->cookie_len);
	c->has_relay_id = f->relay_session_id.present;
	c->relay_id_len = f->relay_session_id.len;
	if (c->relay_id_len)
		memcpy(c->relay_id, f->relay_session_id.data, c->relay_id_len);
	c->state = DISC_CLIENT_PADR_SENT;
	c->attempt = 1;
	arm(c, now_ms, c->initial_timeout_ms);
	send_padr(c);
	return -1;
}

/* RFC 4638: above 1492 only if both asked and the AC echoed a value; never above our wish. */
static uint16_t negotiated_max_payload(const struct disc_client *c,
				       const struct pppoe_disc_frame *f)
{
	uint16_t mp;

	if (!c->max_payload_wish || !f->has_max_payload)
		return PPPOE_DEFAULT_MRU;
	mp = f->max_payload < c->max_payload_wish ? f->max_payload : c->max_payload_wish;
	return mp > PPPOE_DEFAULT_MRU ? mp : PPPOE_DEFAULT_MRU;
}

static int handle_pads(struct disc_client *c, const struct pppoe_disc_frame *f)
{
	struct disc_client_event ev = { 0 };

	if (c->state != DISC_CLIENT_PADR_SENT)
		return PPPOE_DROP_CODE;
	if (memcmp(f->dst, c->local_mac, PXP_ETH_ALEN))
		return PPPOE_DROP_DST_MAC;
	if (memcmp(f->src, c->ac_mac, PXP_ETH_ALEN))
		return PPPOE_DROP_AC_MAC;
	if (!tag_equals_bytes(&f->host_uniq, c->host_uniq, c->host_uniq_len))
		return PPPOE_DROP_HOST_UNIQ;
	if (describe_error_tag(f, "PADS", ev.message, sizeof(ev.message))) {
		fail(c, DISC_FAIL_PADS_ERROR, ev.message);
		return -1;
	}
	if (!f->session_id) {
		fail(c, DISC_FAIL_PADS_SESSION_ZERO, "PADS with session id 0 and no error tag");
		return -1;
	}
	c->session_id = f->session_id;
	c->max_payload = negotiated_max_payload(c, f);
	c->state = DISC_CLIENT_SESSION;
	c->deadline_ms = UINT64_MAX;

	ev.type = DISC_EV_SESSION_UP;
	ev.session_id = c->session_id;
	memcpy(ev.ac_mac, c->ac_mac, PXP_ETH_ALEN);
	memcpy(ev.ac_name, c->ac_name_seen, sizeof(ev.ac_name));
	ev.max_payload = c->max_payload;
	emit(c, &ev);
	return -1;
}

static int handle_padt(struct disc_client *c, const struct pppoe_disc_frame *f)
{
	struct disc_client_event ev = { .type = DISC_EV_SESSION_DOWN };

	if (c->state != DISC_CLIENT_SESSION)
		return PPPOE_DROP_CODE;
	if (memcmp(f->dst, c->local_mac, PXP_ETH_ALEN))
		return PPPOE_DROP_DST_MAC;
	if (f->session_id != c->session_id || memcmp(f->src, c->ac_mac, PXP_ETH_ALEN))
		return PPPOE_DROP_PADT_FOREIGN;
	describe_error_tag(f, "PADT", ev.message, sizeof(ev.message));
	ev.session_id = c->session_id;
	memcpy(ev.ac_mac, c->ac_mac, PXP_ETH_ALEN);
	memcpy(ev.ac_name, c->ac_name_seen, sizeof(ev.ac_name));
	ev.max_payload = c->max_payload;
	go_idle(c);
	emit(c, &ev);
	return -1;
}

int disc_client_input(struct disc_client *c, uint64_t now_ms, const void *frame, size_t len)
{
	struct pppoe_disc_frame f;
	enum pppoe_drop_reason reason;
	int verdict;

	c->rx_frames++;
	if (pppoe_disc_parse(frame, len, &f, &reason)) {
		c->drops[reason]++;
		return -EBADMSG;
	}
	if (!pppoe_mac_is_unicast(f.src)) {
		c->drops[PPPOE_DROP_SRC_MAC]++;
		return -EINVAL;
	}
	switch (f.code) {
	case PPPOE_CODE_PADO:
		verdict = handle_pado(c, now_ms, &f);
		break;
	case PPPOE_CODE_PADS:
		verdict = handle_pads(c, &f);
		break;
	case PPPOE_CODE_PADT:
		verdict = handle_padt(c, &f);
		break;
	default:
		verdict = PPPOE_DROP_CODE;
		break;
	}
	if (verdict >= 0) {
		c->drops[verdict]++;
		return -EINVAL;
	}
	return 0;
}

int disc_client_stop(struct disc_client *c, uint64_t now_ms)
{
	uint8_t buf[PPPOE_DISC_FRAME_MAX];
	struct pppoe_builder b;
	int err = 0;

	(void)now_ms;
	if (c->state == DISC_CLIENT_SESSION) {
		pppoe_build_begin(&b, buf, sizeof(buf), c->ac_mac, c->local_mac, PPPOE_CODE_PADT,
				  c->session_id);
		pppoe_build_tag(&b, PPPOE_TAG_HOST_UNIQ, c->host_uniq, c->host_uniq_len);
		/* A relay needs its id to forward the PADT (RFC 2516 A). */
		if (c->has_relay_id)
			pppoe_build_tag(&b, PPPOE_TAG_RELAY_SESSION_ID, c->relay_id,
					c->relay_id_len);
		err = transmit(c, &b);
	}
	go_idle(c);
	return err;
}

enum disc_client_state disc_client_state(const struct disc_client *c)
{
	return c->state;
}

const char *disc_client_state_name(enum disc_client_state state)
{
	switch (state) {
	case DISC_CLIENT_IDLE:
		return "idle";
	case DISC_CLIENT_PADI_SENT:
		return "padi-sent";
	case DISC_CLIENT_PADR_SENT:
		return "padr-sent";
	case DISC_CLIENT_SESSION:
		return "session";
	case DISC_CLIENT_DISCOVERING:
		return "discovering";
	}
	return "unknown";
}

int disc_build_padt(void *buf, size_t cap, const uint8_t *src, const uint8_t *dst,
		    uint16_t session_id, const char *reason)
{
	struct pppoe_builder b;

	if (!src || !dst || !session_id)
		return -EINVAL;
	pppoe_build_begin(&b, buf, cap, dst, src, PPPOE_CODE_PADT, session_id);
	if (reason)
		pppoe_build_tag(&b, PPPOE_TAG_GENERIC_ERROR, reason, strlen(reason));
	return pppoe_build_finish(&b);
}
