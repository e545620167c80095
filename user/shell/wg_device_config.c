// SPDX-License-Identifier: GPL-2.0
/*
 * The WireGuard device's configuration through the UAPI socket (uapi_server.c serves it):
 * get=1's answer from the device's state, and set=1's change applied to it, in the shape of
 * wireguard-go's device/uapi.go.
 */
#define _GNU_SOURCE /* struct mmsghdr in wg_device_internal.h */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "allowed_ips.h"
#include "noise.h"
#include "uapi.h"
#include "uapi_server.h"
#include "wg_device_internal.h"
#include "wg_timers.h"

struct aip_list {
	struct aip_prefix *v;
	size_t n, cap;
};

static int collect_aip(const struct aip_prefix *p, void *ctx)
{
	struct aip_list *l = ctx;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		struct aip_prefix *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *p;
	return 0;
}

void wgd_endpoint_to_uapi(const struct sockaddr_in6 *a, struct uapi_endpoint *e)
{
	memset(e, 0, sizeof(*e));
	e->port = ntohs(a->sin6_port);
	if (IN6_IS_ADDR_V4MAPPED(&a->sin6_addr)) {
		e->family = AF_INET;
		memcpy(e->addr, a->sin6_addr.s6_addr + 12, 4);
	} else {
		e->family = AF_INET6;
		memcpy(e->addr, &a->sin6_addr, 16);
	}
}

static void endpoint_from_uapi(const struct uapi_endpoint *e, struct sockaddr_in6 *a)
{
	memset(a, 0, sizeof(*a));
	a->sin6_family = AF_INET6;
	a->sin6_port = htons(e->port);
	if (e->family == AF_INET) {
		a->sin6_addr.s6_addr[10] = a->sin6_addr.s6_addr[11] = 0xff;
		memcpy(a->sin6_addr.s6_addr + 12, e->addr, 4);
	} else {
		memcpy(&a->sin6_addr, e->addr, 16);
	}
}

/* The get=1 answer into a malloc'ed string (*out), or -errno. */
static int uapi_get(struct wg_device *d, char **out, size_t *out_len)
{
	struct uapi_device_status ds = { .listen_port = d->listen_port, .fwmark = d->fwmark };
	struct uapi_peer_status *ps = calloc(d->n_peers ? d->n_peers : 1, sizeof(*ps));
	struct aip_list *al = calloc(d->n_peers ? d->n_peers : 1, sizeof(*al));
	size_t i = 0, cap = 4096, allocated = 0; /* allocated: buf's size, zeroed on failure */
	char *buf = NULL;
	int n = -ENOMEM;

	if (!ps || !al)
		goto out;
	if (d->has_key)
		memcpy(ds.private_key, d->private_key, WG_KEY_LEN);
	for (struct peer *p = d->peers; p; p = p->next, i++) {
		memcpy(ps[i].public_key, p->noise.pub, WG_KEY_LEN);
		memcpy(ps[i].preshared_key, p->noise.psk, WG_KEY_LEN);
		ps[i].has_endpoint = p->has_endpoint;
		if (p->has_endpoint)
			wgd_endpoint_to_uapi(&p->endpoint, &ps[i].endpoint);
		ps[i].last_handshake_sec = p->last_handshake.tv_sec;
		ps[i].last_handshake_nsec = p->last_handshake.tv_nsec;
		ps[i].tx_bytes = p->tx_bytes;
		ps[i].rx_bytes = p->rx_bytes;
		ps[i].persistent_keepalive = p->st.persistent_keepalive_s;
		if (allowed_ips_walk(&d->aips, p, collect_aip, &al[i]))
			goto out;
		ps[i].allowed_ips = al[i].v;
		ps[i].n_allowed_ips = al[i].n;
	}
	ds.peers = ps;
	ds.n_peers = d->n_peers;
	for (;;) {
		char *b = realloc(buf, cap);

		if (!b) {
			n = -ENOMEM;
			break;
		}
		buf = b;
		allocated = cap;
		n = uapi_format_get(&ds, buf, cap);
		if (n != -ENOSPC)
			break;
		cap *= 2;
	}
out:
	explicit_bzero(&ds.private_key, sizeof(ds.private_key));
	if (ps)
		explicit_bzero(ps, (d->n_peers ? d->n_peers : 1) * sizeof(*ps));
	for (i = 0; al && i < d->n_peers; i++)
		free(al[i].v);
	free(al);
	free(ps);
	if (n < 0) {
		if (buf)
			explicit_bzero(buf, allocated);
		free(buf);
		return n;
	}
	*out = buf;
	*out_len = (size_t)n;
	return 0;
}

static int apply_peer(struct wg_device *d, const struct uapi_peer_set *ps)
{
	struct peer *p = wgd_peer_by_pub(d, ps->public_key);
	bool keepalive_on;
	int err;

	if (ps->remove) {
		if (p)
			wgd_peer_remove(d, p);
		return 0;
	}
	/* wireguard-go ignores a peer that is ourselves. */
	if (d->has_key && !memcmp(ps->public_key, d->local.key.pub, WG_KEY_LEN))
		return 0;
	if (!p) {
		if (ps->update_only)
			return 0;
		p = wgd_peer_new(d, ps->public_key);
		if (!p)
			return -ENOMEM;
	}
	if (ps->has_preshared_key)
		memcpy(p->noise.psk, ps->preshared_key, WG_KEY_LEN);
	if (ps->has_endpoint) {
		endpoint_from_uapi(&ps->endpoint, &p->endpoint);
		p->has_endpoint = true;
	}
	if (ps->replace_allowed_ips)
		allowed_ips_remove_peer(&d->aips, p);
	for (size_t i = 0; i < ps->n_allowed_ips; i++) {
		const struct uapi_allowed_ip *a = &ps->allowed_ips[i];

		err = a->remove ? allowed_ips_remove(&d->aips, &a->prefix, p)
				: allowed_ips_insert(&d->aips, &a->prefix, p);
		if (err && err != -ENOENT)
			return err;
	}
	if (ps->has_persistent_keepalive) {
		keepalive_on = !p->st.persistent_keepalive_s && ps->persistent_keepalive;
		wg_peer_set_persistent_keepalive(&p->st, ps->persistent_keepalive);
		wgd_peer_timer_sync(d, p);
		/* As wireguard-go: turning it on sends one at once. */
		if (keepalive_on && d->has_key)
			wgd_send_data(d, p, NULL, 0);
	}
	return 0;
}

static int apply_set(struct wg_device *d, const struct uapi_set *cfg)
{
	int err;

	if (cfg->has_private_key) {
		static const uint8_t zero[WG_KEY_LEN];
		bool same = d->has_key && !memcmp(d->private_key, cfg->private_key, WG_KEY_LEN);

		if (!same) {
			if (d->has_key)
				wg_noise_local_free(&d->local);
			d->has_key = false;
			explicit_bzero(d->private_key, sizeof(d->private_key));
			if (memcmp(cfg->private_key, zero, WG_KEY_LEN)) {
				err = wg_noise_local_init(&d->local, cfg->private_key);
				if (err)
					return err;
				memcpy(d->private_key, cfg->private_key, WG_KEY_LEN);
				d->has_key = true;
				wgd_stamp_load(d);
				/* A peer with our new public key goes, as in wireguard-go. */
				struct peer *self = wgd_peer_by_pub(d, d->local.key.pub);

				if (self)
					wgd_peer_remove(d, self);
			}
			wgd_peers_expire_sessions(d);
		}
	}
	if ((cfg->has_listen_port && cfg->listen_port != d->listen_port) ||
	    (cfg->has_fwmark && cfg->fwmark != d->fwmark)) {
		err = wgd_udp_rebind(d, cfg->has_listen_port ? cfg->listen_port : d->listen_port,
				     cfg->has_fwmark ? cfg->fwmark : d->fwmark);
		if (err)
			return err;
	}
	if (cfg->replace_peers)
		while (d->peers)
			wgd_peer_remove(d, d->peers);
	for (size_t i = 0; i < cfg->n_peers; i++) {
		err = apply_peer(d, &cfg->peers[i]);
		if (err)
			return err;
	}
	wgd_tx_flush(d);
	return 0;
}

static int uapi_get_op(void *ctx, char **out, size_t *out_len)
{
	return uapi_get(ctx, out, out_len);
}

static int uapi_set_op(void *ctx, const struct uapi_set *cfg)
{
	return apply_set(ctx, cfg);
}

const struct uapi_server_ops wgd_uapi_ops = { .get = uapi_get_op, .set = uapi_set_op };
