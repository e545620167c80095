// SPDX-License-Identifier: GPL-2.0
/* The cross-platform UAPI's set=1 parser and get=1 writer, as wireguard-go's uapi.go. */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "uapi.h"
#include "pxp_hex.h"

/* A piece of the input: not NUL-terminated. */
struct span {
	const char *p;
	size_t len;
};

static bool is(struct span s, const char *word)
{
	return s.len == strlen(word) && !memcmp(s.p, word, s.len);
}

/* A value for an error message: at most 40 bytes, anything unprintable as '?'. */
static const char *shown(struct span v, char out[48])
{
	size_t n = v.len > 40 ? 40 : v.len, i;

	for (i = 0; i < n; i++)
		out[i] = v.p[i] >= 0x20 && v.p[i] < 0x7f ? v.p[i] : '?';
	if (v.len > n)
		out[i++] = '.', out[i++] = '.', out[i++] = '.';
	out[i] = '\0';
	return out;
}

static int fail(char *err, size_t cap, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err && cap) {
		va_start(ap, fmt);
		vsnprintf(err, cap, fmt, ap);
		va_end(ap);
	}
	return ret;
}

static int parse_key(struct span v, uint8_t key[WG_KEY_LEN])
{
	if (v.len != 2 * WG_KEY_LEN)
		return -EINVAL;
	for (size_t i = 0; i < WG_KEY_LEN; i++) {
		int hi = pxp_hex_digit(v.p[2 * i]), lo = pxp_hex_digit(v.p[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		key[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

/* Decimal digits only (as Go's strconv.ParseUint base 10), at most max. */
static int parse_uint(struct span v, uint64_t max, uint64_t *out)
{
	uint64_t n = 0;

	if (!v.len)
		return -EINVAL;
	for (size_t i = 0; i < v.len; i++) {
		if (v.p[i] < '0' || v.p[i] > '9')
			return -EINVAL;
		if (n > (max - (uint64_t)(v.p[i] - '0')) / 10)
			return -EINVAL;
		n = n * 10 + (uint64_t)(v.p[i] - '0');
	}
	*out = n;
	return 0;
}

/* An address alone: IPv4 dotted quad or IPv6 text, no zone. */
static int parse_addr(struct span v, int *family, uint8_t addr[16])
{
	char buf[INET6_ADDRSTRLEN];

	if (!v.len || v.len >= sizeof(buf) || memchr(v.p, '\0', v.len))
		return -EINVAL;
	memcpy(buf, v.p, v.len);
	buf[v.len] = '\0';
	memset(addr, 0, 16);
	*family = memchr(v.p, ':', v.len) ? AF_INET6 : AF_INET;
	return inet_pton(*family, buf, addr) == 1 ? 0 : -EINVAL;
}

int uapi_parse_endpoint(const char *s, size_t len, struct uapi_endpoint *ep)
{
	struct span host, port;
	uint64_t n;
	const char *colon;

	memset(ep, 0, sizeof(*ep));
	if (len && s[0] == '[') {
		const char *end = memchr(s, ']', len);

		if (!end || (size_t)(end - s) + 1 >= len || end[1] != ':')
			return -EINVAL;
		host = (struct span){ s + 1, (size_t)(end - s) - 1 };
		colon = end + 1;
		if (!memchr(host.p, ':', host.len))
			return -EINVAL; /* brackets are for IPv6 */
	} else {
		colon = NULL;
		for (size_t i = len; i-- > 0 && !colon;)
			if (s[i] == ':')
				colon = s + i;
		if (!colon)
			return -EINVAL;
		host = (struct span){ s, (size_t)(colon - s) };
		if (memchr(host.p, ':', host.len))
			return -EINVAL; /* IPv6 needs its brackets */
	}
	port = (struct span){ colon + 1, len - (size_t)(colon + 1 - s) };
	if (parse_addr(host, &ep->family, ep->addr) || parse_uint(port, UINT16_MAX, &n))
		return -EINVAL;
	ep->port = (uint16_t)n;
	return 0;
}

/* ADDR/BITS, bits without leading zeros (as Go's netip.ParsePrefix). */
static int parse_prefix(struct span v, struct aip_prefix *p)
{
	const char *slash = memchr(v.p, '/', v.len);
	struct span bits;
	uint64_t n;

	memset(p, 0, sizeof(*p));
	if (!slash)
		return -EINVAL;
	bits = (struct span){ slash + 1, v.len - (size_t)(slash + 1 - v.p) };
	if (parse_addr((struct span){ v.p, (size_t)(slash - v.p) }, &p->family, p->addr))
		return -EINVAL;
	if ((bits.len > 1 && bits.p[0] == '0') ||
	    parse_uint(bits, p->family == AF_INET ? 32 : 128, &n))
		return -EINVAL;
	p->cidr = (uint8_t)n;
	return 0;
}

static int add_peer(struct uapi_set *cfg, const uint8_t key[WG_KEY_LEN])
{
	struct uapi_peer_set *peers;

	/* Grown by doubling: n_peers is a power of two when full. */
	if (!(cfg->n_peers & (cfg->n_peers - 1))) {
		peers = realloc(cfg->peers, (cfg->n_peers ? 2 * cfg->n_peers : 1) * sizeof(*peers));
		if (!peers)
			return -ENOMEM;
		cfg->peers = peers;
	}
	memset(&cfg->peers[cfg->n_peers], 0, sizeof(cfg->peers[0]));
	memcpy(cfg->peers[cfg->n_peers].public_key, key, WG_KEY_LEN);
	cfg->n_peers++;
	return 0;
}

static int add_allowed_ip(struct uapi_peer_set *peer, const struct uapi_allowed_ip *p)
{
	struct uapi_allowed_ip *a;
	size_t n = peer->n_allowed_ips;

	if (!(n & (n - 1))) {
		a = realloc(peer->allowed_ips, (n ? 2 * n : 1) * sizeof(*a));
		if (!a)
			return -ENOMEM;
		peer->allowed_ips = a;
	}
	peer->allowed_ips[peer->n_allowed_ips++] = *p;
	return 0;
}

/* A line before the first public_key: the device's settings. */
static int device_line(struct uapi_set *cfg, struct span k, struct span v, char *err, size_t cap)
{
	char show[48];
	uint64_t n;

	if (is(k, "private_key")) {
		if (parse_key(v, cfg->private_key))
			return fail(err, cap, -EINVAL, "private_key: not %d hex digits",
				    2 * WG_KEY_LEN);
		cfg->has_private_key = true;
	} else if (is(k, "listen_port")) {
		if (parse_uint(v, UINT16_MAX, &n))
			return fail(err, cap, -EINVAL, "listen_port '%s': not a port (0-65535)",
				    shown(v, show));
		cfg->has_listen_port = true;
		cfg->listen_port = (uint16_t)n;
	} else if (is(k, "fwmark")) {
		if (parse_uint(v, UINT32_MAX, &n))
			return fail(err, cap, -EINVAL, "fwmark '%s': not a 32-bit number",
				    shown(v, show));
		cfg->has_fwmark = true;
		cfg->fwmark = (uint32_t)n;
	} else if (is(k, "replace_peers")) {
		if (!is(v, "true"))
			return fail(err, cap, -EINVAL, "replace_peers '%s': only 'true' is valid",
				    shown(v, show));
		cfg->replace_peers = true;
	} else {
		return fail(err, cap, -EINVAL, "'%s': not a device key", shown(k, show));
	}
	return 0;
}

static int peer_line(struct uapi_peer_set *peer, struct span k, struct span v, char *err,
		     size_t cap)
{
	struct uapi_allowed_ip aip = { 0 };
	char show[48];
	uint64_t n;
	int ret;

	if (is(k, "update_only") || is(k, "remove") || is(k, "replace_allowed_ips")) {
		char key_shown[48];

		if (!is(v, "true"))
			return fail(err, cap, -EINVAL, "%s '%s': only 'true' is valid",
				    shown(k, key_shown), shown(v, show));
		if (is(k, "update_only"))
			peer->update_only = true;
		else if (is(k, "remove"))
			peer->remove = true;
		else
			peer->replace_allowed_ips = true;
	} else if (is(k, "preshared_key")) {
		if (parse_key(v, peer->preshared_key))
			return fail(err, cap, -EINVAL, "preshared_key: not %d hex digits",
				    2 * WG_KEY_LEN);
		peer->has_preshared_key = true;
	} else if (is(k, "endpoint")) {
		if (uapi_parse_endpoint(v.p, v.len, &peer->endpoint))
			return fail(err, cap, -EINVAL,
				    "endpoint '%s': not IPv4:port or [IPv6]:port", shown(v, show));
		peer->has_endpoint = true;
	} else if (is(k, "persistent_keepalive_interval")) {
		if (parse_uint(v, UINT16_MAX, &n))
			return fail(err, cap, -EINVAL,
				    "persistent_keepalive_interval '%s': not 0-65535 seconds",
				    shown(v, show));
		peer->has_persistent_keepalive = true;
		peer->persistent_keepalive = (uint16_t)n;
	} else if (is(k, "allowed_ip")) {
		aip.remove = v.len && v.p[0] == '-';
		if (parse_prefix(aip.remove ? (struct span){ v.p + 1, v.len - 1 } : v, &aip.prefix))
			return fail(err, cap, -EINVAL, "allowed_ip '%s': not [-]ADDRESS/BITS",
				    shown(v, show));
		ret = add_allowed_ip(peer, &aip);
		if (ret)
			return fail(err, cap, ret, "allowed_ip: out of memory");
	} else if (is(k, "protocol_version")) {
		if (!is(v, "1"))
			return fail(err, cap, -EINVAL, "protocol_version '%s': only 1 is known",
				    shown(v, show));
	} else {
		return fail(err, cap, -EINVAL, "'%s': not a peer key", shown(k, show));
	}
	return 0;
}

static int parse_line(struct uapi_set *cfg, struct span line, char *err, size_t cap)
{
	const char *eq = memchr(line.p, '=', line.len);
	uint8_t key[WG_KEY_LEN];
	struct span k, v;
	char show[48];
	int ret;

	if (!eq)
		return fail(err, cap, -EPROTO, "line '%s': no '='", shown(line, show));
	k = (struct span){ line.p, (size_t)(eq - line.p) };
	v = (struct span){ eq + 1, line.len - k.len - 1 };
	/* public_key starts a peer; every later line is about the last one started. */
	if (is(k, "public_key")) {
		if (parse_key(v, key))
			return fail(err, cap, -EINVAL, "public_key '%s': not %d hex digits",
				    shown(v, show), 2 * WG_KEY_LEN);
		ret = add_peer(cfg, key);
		return ret ? fail(err, cap, ret, "public_key: out of memory") : 0;
	}
	if (!cfg->n_peers)
		return device_line(cfg, k, v, err, cap);
	return peer_line(&cfg->peers[cfg->n_peers - 1], k, v, err, cap);
}

int uapi_parse_op(const char *buf, size_t len, enum uapi_op *op)
{
	static const char get[] = "get=1\n", set[] = "set=1\n";
	const size_t n = sizeof(get) - 1;

	if (memcmp(buf, get, len < n ? len : n) && memcmp(buf, set, len < n ? len : n))
		return -EPROTO;
	if (len < n)
		return 0;
	if (buf[0] == 's') {
		*op = UAPI_SET;
		return (int)n;
	}
	if (len == n)
		return 0;
	if (buf[n] != '\n')
		return -EINVAL;
	*op = UAPI_GET;
	return (int)n + 1;
}

int uapi_parse_set(struct uapi_set *cfg, const char *text, size_t len, char *err, size_t err_cap)
{
	size_t pos = 0;
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	if (err && err_cap)
		err[0] = '\0';
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		struct span line = { text + pos, nl ? (size_t)(nl - text) - pos : len - pos };

		pos += line.len + 1;
		/* As Go's bufio.ScanLines: a trailing CR is not part of the line. */
		if (line.len && line.p[line.len - 1] == '\r')
			line.len--;
		if (!line.len)
			break;
		ret = parse_line(cfg, line, err, err_cap);
		if (ret) {
			uapi_set_free(cfg);
			return ret;
		}
	}
	return 0;
}

void uapi_set_free(struct uapi_set *cfg)
{
	for (size_t i = 0; i < cfg->n_peers; i++)
		free(cfg->peers[i].allowed_ips);
	if (cfg->peers)
		explicit_bzero(cfg->peers, cfg->n_peers * sizeof(*cfg->peers));
	free(cfg->peers);
	explicit_bzero(cfg, sizeof(*cfg));
}

/* Appends to a bounded buffer; remembers running out. */
struct out {
	char *buf;
	size_t cap, len;
	bool full;
};

__attribute__((format(printf, 2, 3))) static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->cap - o->len)
		o->full = true;
	else
		o->len += (size_t)n;
}

static void put_key(struct out *o, const char *name, const uint8_t key[WG_KEY_LEN])
{
	char hex[2 * WG_KEY_LEN + 1];

	for (size_t i = 0; i < WG_KEY_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", key[i]);
	put(o, "%s=%s\n", name, hex);
	explicit_bzero(hex, sizeof(hex));
}

int uapi_format_endpoint(const struct uapi_endpoint *ep, char *buf, size_t cap)
{
	char addr[INET6_ADDRSTRLEN];
	int n;

	if (!inet_ntop(ep->family, ep->addr, addr, sizeof(addr)))
		return -EINVAL;
	n = snprintf(buf, cap, ep->family == AF_INET6 ? "[%s]:%u" : "%s:%u", addr, ep->port);
	return n < 0 || (size_t)n >= cap ? -ENOSPC : n;
}

int uapi_format_get(const struct uapi_device_status *d, char *buf, size_t cap)
{
	static const uint8_t zero[WG_KEY_LEN];
	struct out o = { buf, cap, 0, cap == 0 };
	char text[INET6_ADDRSTRLEN + 8];

	if (memcmp(d->private_key, zero, WG_KEY_LEN))
		put_key(&o, "private_key", d->private_key);
	if (d->listen_port)
		put(&o, "listen_port=%u\n", d->listen_port);
	if (d->fwmark)
		put(&o, "fwmark=%" PRIu32 "\n", d->fwmark);
	for (size_t i = 0; i < d->n_peers; i++) {
		const struct uapi_peer_status *p = &d->peers[i];

		put_key(&o, "public_key", p->public_key);
		put_key(&o, "preshared_key", p->preshared_key);
		put(&o, "protocol_version=1\n");
		if (p->has_endpoint) {
			if (uapi_format_endpoint(&p->endpoint, text, sizeof(text)) < 0)
				return -EINVAL;
			put(&o, "endpoint=%s\n", text);
		}
		put(&o, "last_handshake_time_sec=%" PRId64 "\n", p->last_handshake_sec);
		put(&o, "last_handshake_time_nsec=%" PRId64 "\n", p->last_handshake_nsec);
		put(&o, "tx_bytes=%" PRIu64 "\n", p->tx_bytes);
		put(&o, "rx_bytes=%" PRIu64 "\n", p->rx_bytes);
		put(&o, "persistent_keepalive_interval=%u\n", p->persistent_keepalive);
		for (size_t j = 0; j < p->n_allowed_ips; j++) {
			const struct aip_prefix *a = &p->allowed_ips[j];

			if (!inet_ntop(a->family, a->addr, text, sizeof(text)))
				return -EINVAL;
			put(&o, "allowed_ip=%s/%u\n", text, a->cidr);
		}
	}
	put(&o, "errno=0\n\n");
	if (o.full) {
		if (cap)
			explicit_bzero(buf, cap);
		return -ENOSPC;
	}
	return (int)o.len;
}

int uapi_format_errno(int ret, char *buf, size_t cap)
{
	/* Negative as wireguard-go sends it: wg(8) returns the number as is, < 0 failing. */
	int n = snprintf(buf, cap, "errno=%d\n\n", ret);

	return n < 0 || (size_t)n >= cap ? -ENOSPC : n;
}
