// SPDX-License-Identifier: GPL-2.0
/* pppd secrets files: parsing, errors with file and line, lookup, and use by the auth core. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "auth_harness.h"
#include "secrets.h"

static struct secrets sec;
static char err[256];

static int parse(const char *text)
{
	return secrets_parse(&sec, "chap-secrets", text, strlen(text), err, sizeof(err));
}

/* Looks client/server up and returns the secret as a string ("" when not found). */
static const char *lookup(const char *client, const char *server, uint32_t *ip)
{
	static char out[PPP_SECRET_MAX + 1];
	int len = secrets_lookup(&sec, client, server, (uint8_t *)out, PPP_SECRET_MAX, ip);

	out[len < 0 ? 0 : len] = '\0';
	return out;
}

static const char sample[] =
	"# Secrets for authentication using CHAP\n"
	"# client\tserver\tsecret\t\t\tIP addresses\n"
	"alice\t*\t\"pass with spaces\"\t*\n"
	"bob  bras-1  'single#quoted'  10.0.0.7 10.0.0.8   # trailing comment\n"
	"\n"
	"   \t  \n"
	"bob  *  bob-anywhere\n"
	"*    bras-1  any-on-bras1\n"
	"*    *  fallback\n"
	"carol bras-2 esc\\\\aped\\x41\\101\\s\\\"q\\\" 192.0.2.1\n";

TEST(parses_pppd_format)
{
	CHECK_EQ(parse(sample), 0);
	CHECK_EQ(sec.count, 6);
	CHECK(strcmp(sec.entries[0].client, "alice") == 0);
	CHECK(strcmp(sec.entries[0].server, "*") == 0);
	CHECK_EQ(sec.entries[0].secret_len, strlen("pass with spaces"));
	CHECK_MEM(sec.entries[0].secret, "pass with spaces", sec.entries[0].secret_len);
	CHECK_EQ(sec.entries[0].ip, 0);
	CHECK_MEM(sec.entries[1].secret, "single#quoted", 13);
	CHECK_EQ(sec.entries[1].ip, inet_addr("10.0.0.7"));
	CHECK_EQ(sec.entries[5].secret_len, strlen("esc\\apedAA \"q\""));
	CHECK_MEM(sec.entries[5].secret, "esc\\apedAA \"q\"", sec.entries[5].secret_len);
	secrets_free(&sec);
	CHECK_EQ(sec.count, 0);
	CHECK(sec.entries == NULL);
}

TEST(lookup_prefers_exact_names)
{
	uint32_t ip = 1;

	CHECK_EQ(parse(sample), 0);
	CHECK(strcmp(lookup("alice", "anything", &ip), "pass with spaces") == 0);
	CHECK_EQ(ip, 0);
	/* Exact client and server beats exact client with a wildcard server. */
	CHECK(strcmp(lookup("bob", "bras-1", &ip), "single#quoted") == 0);
	CHECK_EQ(ip, inet_addr("10.0.0.7"));
	CHECK(strcmp(lookup("bob", "bras-9", NULL), "bob-anywhere") == 0);
	/* An exact client beats an exact server. */
	CHECK(strcmp(lookup("bob", NULL, NULL), "single#quoted") == 0);
	CHECK(strcmp(lookup("dave", "bras-1", NULL), "any-on-bras1") == 0);
	CHECK(strcmp(lookup("dave", "bras-2", NULL), "fallback") == 0);
	/* Escapes decode into the secret; the record's address comes with it. */
	CHECK(strcmp(lookup("carol", "bras-2", &ip), "esc\\apedAA \"q\"") == 0);
	CHECK_EQ(ip, inet_addr("192.0.2.1"));
	secrets_free(&sec);
}

TEST(lookup_missing_and_small_buffer)
{
	uint8_t small[4];

	CHECK_EQ(parse("alice bras secret-too-long\n"), 0);
	CHECK_EQ(secrets_lookup(&sec, "bob", "bras", small, sizeof(small), NULL), -ENOENT);
	CHECK_EQ(secrets_lookup(&sec, "alice", "other", small, sizeof(small), NULL), -ENOENT);
	CHECK_EQ(secrets_lookup(&sec, "alice", "bras", small, sizeof(small), NULL), -ENOSPC);
	CHECK_EQ(secrets_lookup(&sec, "alice", NULL, small, 0, NULL), -ENOSPC);
	secrets_free(&sec);
}

/* Quotes allow an empty secret and names with spaces; no trailing newline is needed. */
TEST(empty_and_spaced_fields)
{
	CHECK_EQ(parse("\"my user\" \"\" \"\""), 0);
	CHECK_EQ(sec.count, 1);
	CHECK(strcmp(sec.entries[0].client, "my user") == 0);
	CHECK(strcmp(sec.entries[0].server, "") == 0);
	CHECK_EQ(sec.entries[0].secret_len, 0);
	CHECK_EQ(secrets_lookup(&sec, "my user", "", (uint8_t *)err, sizeof(err), NULL), 0);
	secrets_free(&sec);
}

TEST(line_continuation_keeps_line_numbers)
{
	CHECK_EQ(parse("alice \\\n  bras \\\n  secret\nbob bras\n"), -EINVAL);
	CHECK(strcmp(err, "chap-secrets:4: expected client, server and secret; found only 2 "
			  "fields") == 0);
	CHECK_EQ(sec.count, 0);
	CHECK_EQ(parse("alice \\\n  bras \\\n  secret\n"), 0);
	CHECK_EQ(sec.count, 1);
	CHECK(strcmp(lookup("alice", "bras", NULL), "secret") == 0);
	secrets_free(&sec);
}

/*
 * Debian 12's stock /etc/ppp/pap-secrets, verbatim but for its comments: the '-' lines
 * forbid those users any address. The file loads, they are refused, others are not.
 */
TEST(debian_stock_pap_secrets)
{
	static const char stock[] = "*\thostname\t\"\"\t*\n"
				    "guest\thostname\t\"*\"\t-\n"
				    "master\thostname\t\"*\"\t-\n"
				    "root\thostname\t\"*\"\t-\n"
				    "support\thostname\t\"*\"\t-\n"
				    "stats\thostname\t\"*\"\t-\n"
				    "alice\t*\tsecret\n";
	uint8_t out[PPP_SECRET_MAX];

	CHECK_EQ(parse(stock), 0);
	CHECK_EQ(sec.count, 7);
	CHECK_EQ(secrets_lookup(&sec, "guest", "hostname", out, sizeof(out), NULL), -EACCES);
	CHECK_EQ(secrets_lookup(&sec, "root", NULL, out, sizeof(out), NULL), -EACCES);
	/* An exact client beats the wildcard line: root is refused, not given "". */
	CHECK_EQ(secrets_lookup(&sec, "root", "hostname", out, sizeof(out), NULL), -EACCES);
	CHECK_EQ(secrets_lookup(&sec, "bob", "hostname", out, sizeof(out), NULL), 0);
	CHECK(strcmp(lookup("alice", "pxp-ac", NULL), "secret") == 0);
	secrets_free(&sec);
}

struct bad_case {
	const char *text;
	const char *error;
};

static const struct bad_case bad_cases[] = {
	{ "alice\n", "chap-secrets:1: expected client, server and secret; found only 1 field" },
	{ "# ok\nalice \"bras secret\n", "chap-secrets:2: unterminated quoted string" },
	{ "alice bras 'secret", "chap-secrets:1: unterminated quoted string" },
	{ "a b c\n\nalice bras @/etc/ppp/pw\n",
	  "chap-secrets:3: secrets read from a file ('@...') are not supported" },
	{ "alice bras my secret\n",
	  "chap-secrets:1: field 4 is not an IPv4 address (only a.b.c.d or '*' are supported; "
	  "quote a secret that holds spaces)" },
	{ "alice bras s 10.0.0.1/24\n", "chap-secrets:1: field 4 is not an IPv4 address" },
	{ "alice bras s 999.0.0.1\n", "chap-secrets:1: field 4 is not an IPv4 address" },
	{ "alice bras s * --\n", "chap-secrets:1: '--' in the address column is not supported" },
	{ "alice bras s 0.0.0.0\n", "chap-secrets:1: 0.0.0.0 cannot be assigned to a client" },
	{ "alice bras s\\000x\n", "chap-secrets:1: a NUL character is not allowed" },
	{ "alice bras s\\xZZ\n", "chap-secrets:1: \\x without hex digits" },
	{ "alice bras s\\777\n", "chap-secrets:1: octal escape above \\377" },
	{ "alice bras s\\", "chap-secrets:1: backslash at the end of the file" },
};

TEST(malformed_lines_name_file_line_and_problem)
{
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		int ret = parse(bad_cases[i].text);

		if (ret != -EINVAL ||
		    strncmp(err, bad_cases[i].error, strlen(bad_cases[i].error))) {
			printf("# case %zu: ret %d, error \"%s\"\n", i, ret, err);
			CHECK(0);
		}
		CHECK_EQ(sec.count, 0);
		CHECK(sec.entries == NULL);
	}
}

/* Error messages never echo a secret that lost its quotes. */
TEST(errors_do_not_leak_secret_words)
{
	CHECK_EQ(parse("alice bras correct horse battery\n"), -EINVAL);
	CHECK(strstr(err, "horse") == NULL);
	CHECK(strstr(err, "battery") == NULL);
}

TEST(length_limits)
{
	char text[700];
	int n;

	n = snprintf(text, sizeof(text), "alice bras ");
	memset(text + n, 's', 255);
	text[n + 255] = '\0';
	CHECK_EQ(parse(text), 0);
	CHECK_EQ(sec.entries[0].secret_len, 255);
	secrets_free(&sec);

	text[n + 255] = 's';
	text[n + 256] = '\0';
	CHECK_EQ(parse(text), -EINVAL);
	CHECK(strcmp(err, "chap-secrets:1: field longer than 255 bytes") == 0);

	memset(text, 'u', 256);
	snprintf(text + 256, sizeof(text) - 256, " bras s\n");
	CHECK_EQ(parse(text), -EINVAL);
	CHECK(strcmp(err, "chap-secrets:1: field longer than 255 bytes") == 0);
}

TEST(raw_nul_byte_rejected)
{
	static const char text[] = "alice bras se\0cret\n";

	CHECK_EQ(secrets_parse(&sec, "f", text, sizeof(text) - 1, err, sizeof(err)), -EINVAL);
	CHECK(strcmp(err, "f:1: a NUL character is not allowed") == 0);
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -errno : 0;
}

TEST(load_from_file)
{
	char path[64], want[128], bad_err[256], broken[sizeof(sample) + 16];
	int bad, good;

	snprintf(path, sizeof(path), "/tmp/pxa-secrets-%d", (int)getpid());
	snprintf(broken, sizeof(broken), "%sbroken line\n", sample);
	CHECK_EQ(write_file(path, broken), 0);
	bad = secrets_load(&sec, path, bad_err, sizeof(bad_err));
	snprintf(want, sizeof(want), "%s:11: expected client, server and secret", path);
	good = write_file(path, sample);
	if (!good)
		good = secrets_load(&sec, path, err, sizeof(err));
	unlink(path);
	CHECK_EQ(bad, -EINVAL);
	CHECK(strncmp(bad_err, want, strlen(want)) == 0);
	CHECK_EQ(good, 0);
	CHECK_EQ(sec.count, 6);
	CHECK(strcmp(lookup("bob", "bras-1", NULL), "single#quoted") == 0);
	secrets_free(&sec);

	CHECK_EQ(secrets_load(&sec, path, err, sizeof(err)), -ENOENT);
	CHECK(strstr(err, path) != NULL);
	CHECK(strstr(err, "No such file") != NULL);
	CHECK_EQ(secrets_load(&sec, "/tmp", err, sizeof(err)), -EINVAL);
	CHECK(strcmp(err, "/tmp: not a regular file") == 0);
}

/* The authenticator's get_secret backed by a secrets file, as the daemon wires it. */
static int secrets_get_secret(void *ctx, const char *user, uint8_t *secret, size_t cap)
{
	(void)ctx;
	return secrets_lookup(&sec, user, "bras-1", secret, cap, NULL);
}

TEST(authenticator_uses_secrets_file)
{
	struct endpoint peer, server;

	CHECK_EQ(parse(sample), 0);
	CHECK_EQ(endpoint_init(&peer, AUTH_ROLE_PEER, PPP_AUTH_MSCHAPV2, "bob", "single#quoted", 0),
		 0);
	CHECK_EQ(
		endpoint_init(&server, AUTH_ROLE_AUTHENTICATOR, PPP_AUTH_MSCHAPV2, "bras-1", "", 0),
		0);
	server.auth.cb.get_secret = secrets_get_secret;
	auth_start(&server.auth, 0);
	auth_start(&peer.auth, 0);
	pump(&server, &peer, 1);
	secrets_free(&sec);
	CHECK(server.ok);
	CHECK(peer.ok);
	CHECK(strcmp(auth_peer_name(&server.auth), "bob") == 0);
}

int main(void)
{
	check_prefix = "secrets";
	RUN(parses_pppd_format);
	RUN(lookup_prefers_exact_names);
	RUN(lookup_missing_and_small_buffer);
	RUN(empty_and_spaced_fields);
	RUN(line_continuation_keeps_line_numbers);
	RUN(debian_stock_pap_secrets);
	RUN(malformed_lines_name_file_line_and_problem);
	RUN(errors_do_not_leak_secret_words);
	RUN(length_limits);
	RUN(raw_nul_byte_rejected);
	RUN(load_from_file);
	RUN(authenticator_uses_secrets_file);
	return check_summary();
}
