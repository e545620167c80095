// SPDX-License-Identifier: GPL-2.0
/*
 * wg_probe: one WireGuard handshake and one ping through it, by wg-bridge's pure core over a
 * UDP socket, against another implementation (tests/netns/test_wg_handshake.sh runs it
 * against wireguard-go). Either side of the handshake:
 *   wg_probe initiate KEYFILE PEER_IP PORT LOCAL_PORT OUR_TUN_IP PEER_TUN_IP
 *       sends the initiation, takes the response, sends an ICMP echo request to PEER_TUN_IP
 *       and waits for the echo reply
 *   wg_probe respond KEYFILE LOCAL_PORT OUR_TUN_IP PEER_TUN_IP
 *       answers the peer's initiation, waits for its echo request and replies to it
 * KEYFILE holds base64 keys as wg(8) prints them, one "name=value" a line: private, peer
 * and optionally psk (never in argv). Exits 0 when the ping went through; else says why.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>

#include "noise.h"

#define ICMP_ID 0x7077

static struct wg_noise_local local;
static struct wg_noise_peer peer;
static int sock = -1;

static int os_rng(void *ctx, uint8_t *buf, size_t len)
{
	(void)ctx;
	return getrandom(buf, len, 0) == (ssize_t)len ? 0 : -EIO;
}

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static _Noreturn void die(const char *what)
{
	fprintf(stderr, "wg_probe: %s\n", what);
	exit(1);
}

/* One base64 key of 32 bytes (44 characters with the padding). */
static int base64_key(uint8_t out[WG_KEY_LEN], const char *s)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	uint32_t acc = 0;
	int bits = 0, n = 0, i;

	for (i = 0; i < 43; i++) {
		const char *p = s[i] ? strchr(alphabet, s[i]) : NULL;

		if (!p)
			return -EINVAL;
		acc = acc << 6 | (uint32_t)(p - alphabet);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (n < WG_KEY_LEN)
				out[n++] = (uint8_t)(acc >> bits);
		}
	}
	return n == WG_KEY_LEN && s[43] == '=' ? 0 : -EINVAL;
}

static void read_keys(const char *path)
{
	uint8_t priv[WG_KEY_LEN], pub[WG_KEY_LEN], psk[WG_KEY_LEN];
	bool have_priv = false, have_pub = false, have_psk = false;
	char line[256];
	FILE *f = fopen(path, "r");

	if (!f)
		die("cannot open the key file");
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "private=", 8))
			have_priv = !base64_key(priv, line + 8);
		else if (!strncmp(line, "peer=", 5))
			have_pub = !base64_key(pub, line + 5);
		else if (!strncmp(line, "psk=", 4))
			have_psk = !base64_key(psk, line + 4);
	}
	fclose(f);
	if (!have_priv || !have_pub)
		die("the key file needs private= and peer= (base64, 32 bytes)");
	if (wg_noise_local_init(&local, priv))
		die("private key refused");
	wg_noise_peer_init(&peer, pub, have_psk ? psk : NULL);
	explicit_bzero(priv, sizeof(priv));
	explicit_bzero(psk, sizeof(psk));
}

static struct wg_noise_peer *lookup(void *ctx, const uint8_t pub[WG_KEY_LEN])
{
	(void)ctx;
	return memcmp(pub, peer.pub, WG_KEY_LEN) ? NULL : &peer;
}

static void bind_port(const char *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(port)) };

	sock = socket(AF_INET, SOCK_DGRAM, 0);
	if (sock < 0 || bind(sock, (struct sockaddr *)&a, sizeof(a)))
		die("cannot bind the UDP port");
}

/* A datagram within timeout_ms, or -1. */
static ssize_t receive(uint8_t *buf, size_t cap, struct sockaddr_in *from, int timeout_ms)
{
	struct pollfd p = { .fd = sock, .events = POLLIN };
	socklen_t fl = sizeof(*from);

	if (poll(&p, 1, timeout_ms) <= 0)
		return -1;
	return recvfrom(sock, buf, cap, 0, (struct sockaddr *)from, &fl);
}

static uint16_t csum(const uint8_t *p, size_t len)
{
	uint32_t s = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		s += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		s += (uint32_t)(p[len - 1] << 8);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* An IPv4 ICMP echo request of 64 bytes. */
static size_t icmp_echo_request(uint8_t *p, const char *src, const char *dst, uint16_t id,
				uint16_t seq)
{
	uint16_t c;

	memset(p, 0, 64);
	p[0] = 0x45;
	p[3] = 64;
	p[8] = 64;
	p[9] = IPPROTO_ICMP;
	if (inet_pton(AF_INET, src, p + 12) != 1 || inet_pton(AF_INET, dst, p + 16) != 1)
		die("bad tunnel address");
	c = csum(p, 20);
	p[10] = (uint8_t)(c >> 8);
	p[11] = (uint8_t)c;
	p[20] = 8;
	p[24] = (uint8_t)(id >> 8);
	p[25] = (uint8_t)id;
	p[26] = (uint8_t)(seq >> 8);
	p[27] = (uint8_t)seq;
	memset(p + 28, 0x61, 36);
	c = csum(p + 20, 44);
	p[22] = (uint8_t)(c >> 8);
	p[23] = (uint8_t)c;
	return 64;
}

static void send_to(const void *msg, size_t len, const struct sockaddr_in *to)
{
	if (sendto(sock, msg, len, 0, (const struct sockaddr *)to, sizeof(*to)) != (ssize_t)len)
		die("sendto failed");
}

static void send_packet(const struct wg_transport_keys *k, const uint8_t *pkt, size_t len,
			uint64_t counter, const struct sockaddr_in *to)
{
	uint8_t msg[1600];
	struct wg_aead_key key;
	int n;

	/* One packet a key here: the probe sends one or two. */
	if (wg_aead_key_init(&key, k->send, true))
		die("cannot set up the send key");
	n = wg_data_seal(msg, sizeof(msg), pkt, len, 1420, k->remote_index, &key, counter);
	wg_aead_key_free(&key);
	if (n < 0)
		die("cannot encrypt");
	send_to(msg, (size_t)n, to);
}

/* The data message buf (n bytes) opened under k's receive key into pkt; 0 or -1. */
static int open_packet(const struct wg_transport_keys *k, uint8_t *pkt, size_t *len,
		       const uint8_t *buf, size_t n)
{
	struct wg_aead_key key;
	enum wg_drop d;

	if (wg_aead_key_init(&key, k->recv, false))
		die("cannot set up the receive key");
	d = wg_data_open(pkt, len, buf, n, &key);
	wg_aead_key_free(&key);
	return d == WG_OK ? 0 : -1;
}

/*
 * Waits for an IPv4 ICMP packet of type from peer_ip through k; copies it to out (its IP
 * length in *out_len) and returns the keys it came under (a responder answers a retried
 * initiation with new ones in *rekeyed).
 */
static const struct wg_transport_keys *await_icmp(const struct wg_transport_keys *k, uint8_t type,
						  const char *peer_ip, uint8_t out[1500],
						  size_t *out_len, struct wg_handshake *hs,
						  struct wg_transport_keys *rekeyed,
						  struct sockaddr_in *from)
{
	uint8_t buf[2048], src[4];
	uint64_t deadline = mono_ns() + 20000000000ULL;

	inet_pton(AF_INET, peer_ip, src);
	while (mono_ns() < deadline) {
		enum wg_message_type t;
		size_t len;
		ssize_t n = receive(buf, sizeof(buf), from, 1000);
		uint8_t *pkt = buf + sizeof(struct wg_msg_data);

		if (n < 0 || wg_message_check(buf, (size_t)n, &t))
			continue;
		if (t == WG_MSG_INITIATION && hs) {
			/* The peer retried its initiation: answer it again, with fresh keys. */
			struct wg_msg_response r;

			if (wg_initiation_consume(hs, &local, buf, (size_t)n, lookup, NULL, NULL) ||
			    wg_response_create(&r, hs, &local, 0x0b0b0b0b, os_rng, NULL,
					       mono_ns()) ||
			    wg_transport_keys_derive(rekeyed, hs))
				continue;
			send_to(&r, sizeof(r), from);
			k = rekeyed;
			continue;
		}
		if (t != WG_MSG_DATA || wg_message_receiver(buf, WG_MSG_DATA) != k->local_index ||
		    open_packet(k, pkt, &len, buf, (size_t)n))
			continue;
		*out_len = (size_t)(pkt[2] << 8 | pkt[3]);
		if (len >= 28 && pkt[0] == 0x45 && pkt[9] == IPPROTO_ICMP && pkt[20] == type &&
		    !memcmp(pkt + 12, src, 4) && *out_len >= 28 && *out_len <= len &&
		    *out_len <= 1500) {
			memcpy(out, pkt, *out_len);
			return k;
		}
	}
	die("no ICMP packet through the tunnel within 20 s");
}

static void initiate(char **argv)
{
	struct sockaddr_in to = { .sin_family = AF_INET }, from;
	struct wg_msg_initiation init;
	struct wg_handshake hs = { 0 };
	struct wg_transport_keys k;
	uint8_t stamp[WG_TAI64N_LEN] = { 0 }, buf[256], pkt[1500];
	size_t len;
	int tries;

	read_keys(argv[0]);
	if (inet_pton(AF_INET, argv[1], &to.sin_addr) != 1)
		die("bad peer address");
	to.sin_port = htons((uint16_t)atoi(argv[2]));
	bind_port(argv[3]);
	for (tries = 0; tries < 5; tries++) {
		struct timespec now;
		uint64_t deadline;

		clock_gettime(CLOCK_REALTIME, &now);
		wg_tai64n_next(stamp, stamp, (uint64_t)now.tv_sec, (uint32_t)now.tv_nsec);
		if (wg_initiation_create(&init, &hs, &local, &peer, stamp, 0x0a0a0a0a + tries,
					 os_rng, NULL, mono_ns()))
			die("cannot create the initiation");
		send_to(&init, sizeof(init), &to);
		deadline = mono_ns() + 2000000000ULL;
		while (mono_ns() < deadline) {
			ssize_t n = receive(buf, sizeof(buf), &from, 200);

			if (n > 0 &&
			    wg_response_consume(&hs, &local, buf, (size_t)n, NULL) == WG_OK)
				goto answered;
		}
	}
	die("no valid response to 5 initiations");
answered:
	if (wg_transport_keys_derive(&k, &hs))
		die("no transport keys");
	send_packet(&k, pkt, icmp_echo_request(pkt, argv[4], argv[5], ICMP_ID, 1), 0, &to);
	await_icmp(&k, 0, argv[5], pkt, &len, NULL, NULL, &from);
	if ((pkt[24] << 8 | pkt[25]) != ICMP_ID || (pkt[26] << 8 | pkt[27]) != 1)
		die("an echo reply to another request");
}

static void respond(char **argv)
{
	const struct wg_transport_keys *used;
	struct wg_transport_keys k, rekeyed;
	struct wg_handshake hs = { 0 };
	struct wg_msg_response r;
	struct sockaddr_in from;
	uint8_t buf[256], pkt[1500], addr[4];
	uint64_t deadline = mono_ns() + 20000000000ULL;
	size_t len;
	uint16_t c;

	read_keys(argv[0]);
	bind_port(argv[1]);
	for (;;) {
		ssize_t n = receive(buf, sizeof(buf), &from, 1000);

		if (mono_ns() > deadline)
			die("no valid initiation within 20 s");
		if (n > 0 &&
		    wg_initiation_consume(&hs, &local, buf, (size_t)n, lookup, NULL, NULL) == WG_OK)
			break;
	}
	if (wg_response_create(&r, &hs, &local, 0x0b0b0b0b, os_rng, NULL, mono_ns()) ||
	    wg_transport_keys_derive(&k, &hs))
		die("cannot answer the initiation");
	send_to(&r, sizeof(r), &from);
	used = await_icmp(&k, 8, argv[3], pkt, &len, &hs, &rekeyed, &from);
	if (inet_pton(AF_INET, argv[2], addr) != 1 || memcmp(pkt + 16, addr, 4))
		die("an echo request to another address");
	/* The echo reply: the request with its addresses swapped (the IP checksum stays). */
	memcpy(addr, pkt + 12, 4);
	memcpy(pkt + 12, pkt + 16, 4);
	memcpy(pkt + 16, addr, 4);
	pkt[20] = 0;
	pkt[22] = pkt[23] = 0;
	c = csum(pkt + 20, len - 20);
	pkt[22] = (uint8_t)(c >> 8);
	pkt[23] = (uint8_t)c;
	send_packet(used, pkt, len, 0, &from);
}

int main(int argc, char **argv)
{
	if (argc == 8 && !strcmp(argv[1], "initiate"))
		initiate(argv + 2);
	else if (argc == 6 && !strcmp(argv[1], "respond"))
		respond(argv + 2);
	else
		die("usage: wg_probe initiate KEYFILE PEER_IP PORT LOCAL_PORT OUR_TUN_IP "
		    "PEER_TUN_IP | respond KEYFILE LOCAL_PORT OUR_TUN_IP PEER_TUN_IP");
	wg_noise_local_free(&local);
	return 0;
}
