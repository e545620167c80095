// SPDX-License-Identifier: GPL-2.0
#include "discover.h"

#include <errno.h>
#include <string.h>
#include <sys/epoll.h>

#include "discovery.h"
#include "event_loop.h"
#include "log.h"
#include "random.h"
#include "raw_socket.h"

struct discover {
	struct ev_handler handler; /* first: the loop hands it back */
	struct raw_socket sock;
	struct disc_client disc;
	FILE *out;
	unsigned int found;
	bool done;
};

static int send_cb(void *ctx, const void *frame, size_t len)
{
	struct discover *d = ctx;

	return raw_socket_send(&d->sock, frame, len);
}

static void event_cb(void *ctx, const struct disc_client_event *ev)
{
	struct discover *d = ctx;
	const uint8_t *m = ev->ac_mac;
	unsigned int i;

	if (ev->type == DISC_EV_DISCOVER_DONE) {
		d->done = true;
		return;
	}
	if (ev->type != DISC_EV_AC_FOUND)
		return;
	d->found++;
	fprintf(d->out, "Access-Concentrator: %s\n", ev->ac_name);
	for (i = 0; i < ev->service_count && i < PPPOE_MAX_SERVICES; i++)
		fprintf(d->out, "       Service-Name: %s\n", ev->services[i]);
	if (ev->has_cookie)
		fprintf(d->out, "Got a cookie\n");
	if (ev->has_max_payload)
		fprintf(d->out, "PPP-Max-Payload: supported (RFC 4638)\n");
	fprintf(d->out, "AC-Ethernet-Address: %02x:%02x:%02x:%02x:%02x:%02x\n", m[0], m[1], m[2],
		m[3], m[4], m[5]);
	fprintf(d->out, "--------------------------------------------------\n");
}

static void sock_ready(struct ev_handler *h, uint32_t events)
{
	struct discover *d = (struct discover *)h;
	uint8_t frame[PPPOE_DISC_FRAME_MAX];
	ssize_t n;

	(void)events;
	while ((n = raw_socket_recv(&d->sock, frame, sizeof(frame))) >= 0)
		if (n > 0)
			disc_client_input(&d->disc, ev_now_ms(), frame, (size_t)n);
}

int discover_run(const struct discover_options *o, FILE *out)
{
	struct disc_client_ops ops = {
		.io = { .send = send_cb, .random = pxp_random_fill },
		.event = event_cb,
	};
	struct disc_client_config cfg = {
		.initial_timeout_ms = o->timeout_ms,
		.discover_window_ms = o->timeout_ms,
	};
	struct discover d = { .handler.ready = sock_ready, .out = out };
	struct ev_loop loop;
	/* At the core's deadline, which this loop checks itself; zeroed, as attach requires. */
	struct ev_timer wake = { 0 };
	int err;

	ops.io.ctx = &d;
	err = raw_socket_open(&d.sock, o->iface, PXP_ETH_P_PPP_DISC, o->vlan_id, 0);
	if (err) {
		pxp_err("%s: cannot open a PPPoE discovery socket: %s", o->iface, strerror(-err));
		return err;
	}
	err = ev_loop_init(&loop);
	if (err)
		goto close_sock;
	err = ev_timer_attach(&loop, &wake, NULL);
	if (!err)
		err = ev_loop_add(&loop, d.sock.fd, EPOLLIN, &d.handler);
	if (err)
		goto close_loop;
	memcpy(cfg.local_mac, d.sock.mac, PXP_ETH_ALEN);
	err = disc_client_init(&d.disc, &cfg, &ops);
	if (!err)
		err = disc_client_start_discover(&d.disc, ev_now_ms());
	while (!err && !d.done && !loop.pending_signal) {
		if (disc_client_deadline(&d.disc) <= ev_now_ms()) {
			disc_client_timer(&d.disc, ev_now_ms());
			continue;
		}
		ev_timer_set(&loop, &wake, disc_client_deadline(&d.disc));
		err = ev_loop_run_once(&loop);
	}
	if (!err && !d.found)
		err = -ENOENT;
close_loop:
	ev_loop_close(&loop);
close_sock:
	raw_socket_close(&d.sock);
	return err;
}
