// SPDX-License-Identifier: GPL-2.0
/*
 * The cross-platform UAPI: a set=1 as `wg setconf` sends it, each key's bad values and the
 * errno wireguard-go answers them with, secrets kept out of error messages, and get=1's
 * output byte for byte in wireguard-go's order.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "check.h"
#include "uapi.h"

#define K1  "e84b5a6d2717c1003a13b431570353dbaca9146cf150c5f8575680feba52027a"
#define K2  "b85996fecc9c7f1fc6d2572a76eda11d59bcd20be8e543b15ce4bd85a8e75a33"
#define K3  "0000000000000000000000000000000000000000000000000000000000000000"
#define PSK "188515093e952f5f22e865cef3012e72f8b5f0b598ac0309d5dacce3b70fcf52"

static struct uapi_set cfg;
static char err[256];

static int parse(const char *text)
{
	return uapi_parse_set(&cfg, text, strlen(text), err, sizeof(err));
}

TEST(set_full)
{
	static const char req[] = "private_key=" K1 "\n"
				  "listen_port=51820\n"
				  "fwmark=0\n"
				  "replace_peers=true\n"
				  "public_key=" K2 "\n"
				  "preshared_key=" PSK "\n"
				  "endpoint=192.0.2.1:51820\n"
				  "persistent_keepalive_interval=25\n"
				  "replace_allowed_ips=true\n"
				  "allowed_ip=10.0.0.1/32\n"
				  "allowed_ip=2001:db8::/32\n"
				  "allowed_ip=-10.9.0.0/16\n"
				  "protocol_version=1\n"
				  "public_key=" K3 "\n"
				  "update_only=true\n"
				  "endpoint=[2001:db8::1]:1\r\n"
				  "public_key=" K1 "\n"
				  "remove=true\n"
				  "\n"
				  "ignored=after the empty line\n";
	const struct uapi_peer_set *p;

	CHECK_EQ(parse(req), 0);
	CHECK(cfg.has_private_key && cfg.private_key[0] == 0xe8 && cfg.private_key[31] == 0x7a);
	CHECK(cfg.has_listen_port && cfg.listen_port == 51820);
	CHECK(cfg.has_fwmark && cfg.fwmark == 0);
	CHECK(cfg.replace_peers);
	CHECK_EQ(cfg.n_peers, 3);
	p = &cfg.peers[0];
	CHECK(p->public_key[0] == 0xb8 && p->has_preshared_key && p->preshared_key[0] == 0x18);
	CHECK(p->has_endpoint && p->endpoint.family == AF_INET && p->endpoint.port == 51820);
	CHECK_MEM(p->endpoint.addr, "\xc0\x00\x02\x01", 4);
	CHECK(p->has_persistent_keepalive && p->persistent_keepalive == 25);
	CHECK(p->replace_allowed_ips && !p->update_only && !p->remove);
	CHECK_EQ(p->n_allowed_ips, 3);
	CHECK(p->allowed_ips[0].prefix.family == AF_INET && p->allowed_ips[0].prefix.cidr == 32);
	CHECK(p->allowed_ips[1].prefix.family == AF_INET6 && p->allowed_ips[1].prefix.cidr == 32);
	CHECK(!p->allowed_ips[0].remove && !p->allowed_ips[1].remove);
	/* A leading '-' removes (newer wireguard-tools send it for `allowed-ips -PREFIX`). */
	CHECK(p->allowed_ips[2].remove && p->allowed_ips[2].prefix.cidr == 16);
	CHECK_MEM(p->allowed_ips[2].prefix.addr, "\x0a\x09\x00\x00", 4);
	p = &cfg.peers[1];
	CHECK(p->update_only && p->has_endpoint && p->endpoint.family == AF_INET6);
	CHECK(p->endpoint.port == 1 && p->endpoint.addr[15] == 1 && !p->has_preshared_key);
	CHECK(cfg.peers[2].remove);
	uapi_set_free(&cfg);
	CHECK_EQ(cfg.n_peers, 0);
	/* Nothing at all is a valid (empty) change. */
	CHECK_EQ(parse(""), 0);
	CHECK_EQ(parse("\n"), 0);
	uapi_set_free(&cfg);
}

static const struct {
	const char *req;
	int ret;
	const char *err; /* a part of the message */
} bad[] = {
	{ "listen_port\n", -EPROTO, "no '='" },
	{ "private_key=" K1 "0\n", -EINVAL, "private_key: not 64 hex digits" },
	{ "private_key=e84b5a6d2717c1003a13b431570353dbaca9146cf150c5f8575680feba52027g\n", -EINVAL,
	  "private_key" },
	{ "listen_port=65536\n", -EINVAL, "listen_port '65536'" },
	{ "listen_port=-1\n", -EINVAL, "listen_port '-1'" },
	{ "listen_port=\n", -EINVAL, "listen_port ''" },
	{ "fwmark=4294967296\n", -EINVAL, "fwmark '4294967296'" },
	{ "fwmark=0x10\n", -EINVAL, "fwmark" },
	{ "replace_peers=false\n", -EINVAL, "replace_peers 'false'" },
	{ "endpoint=1.2.3.4:5\n", -EINVAL, "'endpoint': not a device key" },
	{ "public_key=" K2 "\nlisten_port=1\n", -EINVAL, "'listen_port': not a peer key" },
	{ "public_key=zz\n", -EINVAL, "public_key 'zz'" },
	{ "public_key=" K2 "\npreshared_key=00\n", -EINVAL, "preshared_key: not 64" },
	{ "public_key=" K2 "\nendpoint=1.2.3.4\n", -EINVAL, "endpoint '1.2.3.4'" },
	{ "public_key=" K2 "\nendpoint=2001:db8::1:51820\n", -EINVAL, "endpoint" },
	{ "public_key=" K2 "\nendpoint=[1.2.3.4]:1\n", -EINVAL, "endpoint" },
	{ "public_key=" K2 "\nendpoint=1.2.3.4:65536\n", -EINVAL, "endpoint" },
	{ "public_key=" K2 "\nendpoint=[fe80::1%eth0]:1\n", -EINVAL, "endpoint" },
	{ "public_key=" K2 "\nendpoint=01.2.3.4:1\n", -EINVAL, "endpoint" },
	{ "public_key=" K2 "\npersistent_keepalive_interval=65536\n", -EINVAL,
	  "persistent_keepalive_interval '65536'" },
	{ "public_key=" K2 "\nallowed_ip=10.0.0.0/33\n", -EINVAL, "allowed_ip '10.0.0.0/33'" },
	{ "public_key=" K2 "\nallowed_ip=10.0.0.0\n", -EINVAL, "allowed_ip" },
	{ "public_key=" K2 "\nallowed_ip=10.0.0.0/08\n", -EINVAL, "allowed_ip" },
	{ "public_key=" K2 "\nallowed_ip=::/129\n", -EINVAL, "allowed_ip" },
	{ "public_key=" K2 "\nallowed_ip=10.0.0.0/\n", -EINVAL, "allowed_ip" },
	{ "public_key=" K2 "\nallowed_ip=--10.0.0.0/8\n", -EINVAL, "allowed_ip" },
	{ "public_key=" K2 "\nallowed_ip=-\n", -EINVAL, "allowed_ip" },
	{ "public_key=" K2 "\nupdate_only=1\n", -EINVAL, "update_only '1'" },
	{ "public_key=" K2 "\nremove=yes\n", -EINVAL, "remove 'yes'" },
	{ "public_key=" K2 "\nreplace_allowed_ips=\n", -EINVAL, "replace_allowed_ips ''" },
	{ "public_key=" K2 "\nprotocol_version=2\n", -EINVAL, "protocol_version '2'" },
	{ "public_key=" K2 "\nallowed_ip=10.0.0.0/8\nbogus=1\n", -EINVAL, "'bogus'" },
};

TEST(set_errors)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = parse(bad[i].req);

		if (ret != bad[i].ret || !strstr(err, bad[i].err)) {
			printf("FAIL wg_uapi/set_errors: case %zu: %d '%s'\n", i, ret, err);
			check_failed_current = 1;
			return;
		}
		/* A failed set leaves nothing behind. */
		CHECK(cfg.n_peers == 0 && cfg.peers == NULL && !cfg.has_private_key);
	}
}

/* A bad secret is not repeated in the error (it could be a real key with a typo). */
TEST(secrets_not_in_errors)
{
	CHECK_EQ(parse("private_key=" K1 "ff\n"), -EINVAL);
	CHECK(!strstr(err, "e84b5a"));
	CHECK_EQ(parse("public_key=" K2 "\npreshared_key=" PSK "x\n"), -EINVAL);
	CHECK(!strstr(err, "188515"));
}

TEST(errno_lines)
{
	char buf[32];

	CHECK_EQ(uapi_format_errno(0, buf, sizeof(buf)), 9);
	CHECK(!strcmp(buf, "errno=0\n\n"));
	/* Negative, as wireguard-go sends them: wg(8) takes the number as its result. */
	uapi_format_errno(-EINVAL, buf, sizeof(buf));
	CHECK(!strcmp(buf, "errno=-22\n\n"));
	uapi_format_errno(-EPROTO, buf, sizeof(buf));
	CHECK(!strcmp(buf, "errno=-71\n\n"));
	CHECK_EQ(uapi_format_errno(0, buf, 5), -ENOSPC);
}

TEST(get_output)
{
	static const char want[] = "private_key=" K1 "\n"
				   "listen_port=51820\n"
				   "fwmark=51\n"
				   "public_key=" K2 "\n"
				   "preshared_key=" PSK "\n"
				   "protocol_version=1\n"
				   "endpoint=[2001:db8::1]:51820\n"
				   "last_handshake_time_sec=1700000000\n"
				   "last_handshake_time_nsec=123456789\n"
				   "tx_bytes=1000\n"
				   "rx_bytes=2000\n"
				   "persistent_keepalive_interval=25\n"
				   "allowed_ip=10.0.0.0/8\n"
				   "allowed_ip=2001:db8::/32\n"
				   "public_key=" K1 "\n"
				   "preshared_key=" K3 "\n"
				   "protocol_version=1\n"
				   "last_handshake_time_sec=0\n"
				   "last_handshake_time_nsec=0\n"
				   "tx_bytes=0\n"
				   "rx_bytes=0\n"
				   "persistent_keepalive_interval=0\n"
				   "errno=0\n\n";
	struct uapi_peer_status peers[2] = { 0 };
	struct uapi_device_status d = { .listen_port = 51820, .fwmark = 51 };
	struct aip_prefix aips[2];
	char buf[2048];

	CHECK_EQ(parse("private_key=" K1 "\npublic_key=" K2 "\npreshared_key=" PSK
		       "\nendpoint=[2001:db8::1]:51820\nallowed_ip=10.0.0.0/8\n"
		       "allowed_ip=2001:db8::/32\npublic_key=" K1 "\n"),
		 0);
	memcpy(d.private_key, cfg.private_key, WG_KEY_LEN);
	memcpy(peers[0].public_key, cfg.peers[0].public_key, WG_KEY_LEN);
	memcpy(peers[0].preshared_key, cfg.peers[0].preshared_key, WG_KEY_LEN);
	peers[0].has_endpoint = true;
	peers[0].endpoint = cfg.peers[0].endpoint;
	peers[0].last_handshake_sec = 1700000000;
	peers[0].last_handshake_nsec = 123456789;
	peers[0].tx_bytes = 1000;
	peers[0].rx_bytes = 2000;
	peers[0].persistent_keepalive = 25;
	aips[0] = cfg.peers[0].allowed_ips[0].prefix;
	aips[1] = cfg.peers[0].allowed_ips[1].prefix;
	peers[0].allowed_ips = aips;
	peers[0].n_allowed_ips = 2;
	memcpy(peers[1].public_key, cfg.peers[1].public_key, WG_KEY_LEN);
	d.peers = peers;
	d.n_peers = 2;
	uapi_set_free(&cfg);
	CHECK_EQ(uapi_format_get(&d, buf, sizeof(buf)), strlen(want));
	CHECK(!strcmp(buf, want));
	/* Too small a buffer: an error, and no half answer left in it. */
	CHECK_EQ(uapi_format_get(&d, buf, 100), -ENOSPC);
	CHECK(buf[0] == '\0');
	/* A device without key, port or mark prints none of them. */
	memset(&d, 0, sizeof(d));
	CHECK_EQ(uapi_format_get(&d, buf, sizeof(buf)), 9);
	CHECK(!strcmp(buf, "errno=0\n\n"));
}

TEST(endpoints_round_trip)
{
	static const char *const ok[] = { "192.0.2.1:51820", "[2001:db8::1]:1", "0.0.0.0:0",
					  "[::ffff:1.2.3.4]:65535" };
	struct uapi_endpoint ep;
	char buf[64];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		CHECK_EQ(uapi_parse_endpoint(ok[i], strlen(ok[i]), &ep), 0);
		CHECK(uapi_format_endpoint(&ep, buf, sizeof(buf)) > 0);
		CHECK(!strcmp(buf, ok[i]));
	}
	CHECK_EQ(uapi_parse_endpoint("[::1]", 5, &ep), -EINVAL);
	CHECK_EQ(uapi_parse_endpoint("", 0, &ep), -EINVAL);
	CHECK_EQ(uapi_parse_endpoint("[", 1, &ep), -EINVAL);
	CHECK_EQ(uapi_parse_endpoint(":1", 2, &ep), -EINVAL);
}

TEST(operations)
{
	enum uapi_op op = UAPI_SET;

	CHECK_EQ(uapi_parse_op("get=1\n\n", 7, &op), 7);
	CHECK_EQ(op, UAPI_GET);
	CHECK_EQ(uapi_parse_op("set=1\nlisten_port=1\n\n", 22, &op), 6);
	CHECK_EQ(op, UAPI_SET);
	/* Partial input waits for more; a wrong start is refused at once. */
	CHECK_EQ(uapi_parse_op("", 0, &op), 0);
	CHECK_EQ(uapi_parse_op("ge", 2, &op), 0);
	CHECK_EQ(uapi_parse_op("get=1\n", 6, &op), 0);
	CHECK_EQ(uapi_parse_op("gex", 3, &op), -EPROTO);
	CHECK_EQ(uapi_parse_op("get=2\n\n", 7, &op), -EPROTO);
	CHECK_EQ(uapi_parse_op("del=1\n", 6, &op), -EPROTO);
	CHECK_EQ(uapi_parse_op("get=1\nx", 7, &op), -EINVAL);
}

int main(void)
{
	check_prefix = "wg_uapi";
	RUN(set_full);
	RUN(set_errors);
	RUN(secrets_not_in_errors);
	RUN(errno_lines);
	RUN(get_output);
	RUN(endpoints_round_trip);
	RUN(operations);
	return check_summary();
}
