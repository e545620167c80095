// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration file in pppd's words: what each word becomes, the rejections (naming
 * the file and the line), and the whole path through config_parse_up() with the command line
 * over the file and the password found in the file or in pppd's secrets files.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "conffile.h"
#include "config.h"
#include "hooks.h"
#include "ppp_words.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

/* The file's options joined by spaces, "" when parsing failed (err then holds why). */
static int as_options(const char *text, char *out, size_t cap, char *err, size_t err_cap)
{
	struct conffile cf;
	int ret = conffile_parse(&cf, "wan.conf", text, strlen(text), err, err_cap);

	out[0] = '\0';
	for (int i = 1; !ret && i < cf.argc; i++)
		snprintf(out + strlen(out), cap - strlen(out), "%s%s", i > 1 ? " " : "",
			 cf.argv[i]);
	conffile_free(&cf);
	return ret;
}

static const struct {
	const char *text, *options;
} good[] = {
	{ "", "" },
	{ "# nothing\n\n   \n", "" },
	{ "user alice persist\nmtu 1480 # a comment\n", "--user alice --persist --mtu 1480" },
	{ "user \"al ice\" password 'p#ss word'", "--user al ice --password p#ss word" },
	{ "password pa\\\"ss\\x41\\101\\s", "--password pa\"ssAA " },
	{ "holdoff\n  3", "--holdoff 3" }, /* pppd: the value may be on the next line */
	{ "user a\\\nb", "--user ab" },
	{ "+ipv6 defaultroute noipv6", "--defaultroute" },
	{ "defaultroute persist nodefaultroute +ipv6 -defaultroute", "--persist --ipv6" },
	/* An undo takes back options only, never a value that looks like one. */
	{ "ipparam --persist nopersist", "--ipparam --persist" },
	{ "rp_pppoe_service svc rp_pppoe_ac ac1 pppoe-mac 02:00:00:00:00:01",
	  "--service svc --ac ac1 --ac-mac 02:00:00:00:00:01" },
	{ "pppoe-service s pppoe-ac a host-uniq 0a0b", "--service s --ac a --host-uniq 0a0b" },
	{ "lcp-echo-interval 20 lcp-echo-failure 3 lcp-echo-adaptive",
	  "--lcp-echo-interval 20 --lcp-echo-failure 3 --keepalive-adaptive" },
	{ "noauth hide-password noipdefault noaccomp default-asyncmap usepeerdns", "--usepeerdns" },
	{ "defaultroute replacedefaultroute defaultroute-metric 50 +ipv6 defaultroute6",
	  "--defaultroute --replacedefaultroute --metric 50 --ipv6 --defaultroute6" },
	{ "ifname wan0 ipparam x debug nodetach maxfail 0",
	  "--ifname wan0 --ipparam x --debug --foreground --maxfail 0" },
	{ "ip-up-script /a ip-down-script /b ipv6-up-script /c ipv6-down-script /d",
	  "--ip-up-script /a --ip-down-script /b --ipv6-up-script /c --ipv6-down-script /d" },
};

static const struct {
	const char *text, *err;
} bad_files[] = {
	{ "user alice\nfrobnicate 3\n", "wan.conf:2: unknown option 'frobnicate'" },
	{ "\n\nmtu", "wan.conf:3: 'mtu' needs a value" },
	{ "mtu # 1492\n", "wan.conf:1: 'mtu' needs a value" },
	{ "demand", "wan.conf:1: 'demand' is not supported yet" },
	{ "mru 1492", "wan.conf:1: 'mru' is not supported yet" },
	{ "file /etc/ppp/options", "wan.conf:1: 'file' is not supported yet" },
	{ "user 'alice", "wan.conf:1: unterminated quoted string" },
	{ "password \\x", "wan.conf:1: \\x without hex digits" },
	{ "user a\\000", "wan.conf:1: a NUL character is not allowed" },
	{ "user \\", "wan.conf:1: backslash at the end of the file" },
	/* A long unknown word may be a password on a line of its own: not echoed. */
	{ "aVeryLongPasswordThatLostItsKeywordXYZ", "wan.conf:1: unknown option (38 bytes long)" },
	/* The rest of an unquoted password with a space is not echoed either. */
	{ "user a\npassword my secret\n",
	  "wan.conf:2: unknown option after 'password' (quote a password that holds spaces)" },
};

TEST(words_to_options)
{
	char out[512], err[256];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int ret = as_options(good[i].text, out, sizeof(out), err, sizeof(err));

		if (ret || strcmp(out, good[i].options)) {
			printf("# '%s': got %d '%s' (%s), want '%s'\n", good[i].text, ret, out, err,
			       good[i].options);
			CHECK(0);
		}
	}
}

TEST(rejections_name_file_and_line)
{
	char out[512], err[256];

	for (size_t i = 0; i < sizeof(bad_files) / sizeof(bad_files[0]); i++) {
		int ret = as_options(bad_files[i].text, out, sizeof(out), err, sizeof(err));

		if (ret != -EINVAL || strcmp(err, bad_files[i].err)) {
			printf("# '%s': got %d '%s', want '%s'\n", bad_files[i].text, ret, err,
			       bad_files[i].err);
			CHECK(0);
		}
	}
}

/* Too many words, or a word longer than pppd's, are refused, not truncated. */
TEST(bounds)
{
	char *text = malloc(CONFFILE_MAX_WORDS * 8 + PPP_WORD_MAX + 16), err[256];
	struct conffile cf;
	size_t n = 0;

	CHECK(text != NULL);
	for (int i = 0; i <= CONFFILE_MAX_WORDS; i++)
		n += (size_t)sprintf(text + n, "persist ");
	CHECK_EQ(conffile_parse(&cf, "f", text, n, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "more than") != NULL);
	CHECK(cf.argv == NULL && cf.argc == 0);
	n = (size_t)sprintf(text, "user ");
	memset(text + n, 'a', PPP_WORD_MAX + 1);
	n += PPP_WORD_MAX + 1;
	CHECK_EQ(conffile_parse(&cf, "f", text, n, err, sizeof(err)), -EINVAL);
	CHECK(!strcmp(err, "f:1: field longer than 1024 bytes"));
	free(text);
}

/* Every option a word maps to is one of up's, taking a value exactly when the word does. */
TEST(table_matches_up_options)
{
	const struct cli_option *tables[] = { config_up_options.own, config_up_options.shared };

	for (const struct conffile_word *w = conffile_words; w->word; w++) {
		const struct cli_option *found = NULL;
		const char *name = w->undoes ? w->undoes : w->option;

		if (!name || (!name[0] && !w->undoes))
			continue;
		for (unsigned int t = 0; t < 2; t++)
			for (const struct cli_option *o = tables[t]; o->name; o++)
				if (!strcmp(o->name, name))
					found = o;
		if (!found || (w->undoes ? found->arg != NULL : (found->arg != NULL) != w->arg)) {
			printf("# '%s' -> '%s'\n", w->word, name);
			CHECK(0);
		}
		for (const struct conffile_word *v = w + 1; v->word; v++)
			CHECK(strcmp(v->word, w->word));
	}
}

static char dir[] = "/tmp/pxp-unit-conffile-XXXXXX";

static void write_file(const char *name, const char *text, mode_t mode)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

static void remove_file(const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

/* CONFIG_DIR/IFACE.conf is read by default, and the command line wins over it. */
TEST(command_line_over_file)
{
	char *plain[] = { "up", "wan0", NULL };
	char *over[] = { "up", "--mtu", "1400", "wan0", "--user", "bob", NULL };
	char pw[] = "from-argv";
	char *pass[] = { "up", "wan0", "--password", pw, NULL };
	struct client_settings o;

	write_file("wan0.conf", "user alice password 'file secret' mtu 1480 persist\n", 0600);
	CHECK_EQ(config_parse_up(ARGC(plain), plain, &o), 0);
	CHECK(!strcmp(o.user, "alice") && o.mtu == 1480 && o.persist);
	CHECK_EQ(o.password_len, 11);
	CHECK_MEM(o.password, "file secret", 11);
	CHECK_EQ(config_parse_up(ARGC(over), over, &o), 0);
	CHECK(!strcmp(o.user, "bob") && o.mtu == 1400 && o.persist);
	/* A password on the command line replaces the file's (no "given twice"). */
	CHECK_EQ(config_parse_up(ARGC(pass), pass, &o), 0);
	CHECK_EQ(o.password_len, 9);
	CHECK_MEM(o.password, "from-argv", 9);
	client_settings_wipe(&o);
	remove_file("wan0.conf");
}

/* A bad value in the file is refused like the same value on the command line. */
TEST(file_values_validated)
{
	char *plain[] = { "up", "wan0", NULL };
	char path[PATH_MAX];
	char *missing[] = { "up", "wan0", "--config", path, NULL };
	struct client_settings o;

	write_file("wan0.conf", "mtu 99999\n", 0600);
	CHECK_EQ(config_parse_up(ARGC(plain), plain, &o), -EINVAL);
	write_file("wan0.conf", "bogus\n", 0600);
	CHECK_EQ(config_parse_up(ARGC(plain), plain, &o), -EINVAL);
	remove_file("wan0.conf");
	/* No file by default is fine; --config names one that must exist. */
	CHECK_EQ(config_parse_up(ARGC(plain), plain, &o), 0);
	snprintf(path, sizeof(path), "%s/none.conf", dir);
	CHECK_EQ(config_parse_up(ARGC(missing), missing, &o), -EINVAL);
	write_file("none.conf", "ipparam from-config\n", 0600);
	CHECK_EQ(config_parse_up(ARGC(missing), missing, &o), 0);
	CHECK(!strcmp(o.ipparam, "from-config"));
	remove_file("none.conf");
}

/* No password given: the user's line in chap-secrets, else pap-secrets, as pppd's client. */
TEST(password_from_secrets)
{
	char *plain[] = { "up", "wan0", "--user", "carol", NULL };
	char *named[] = { "up", "wan0", "--user", "carol", "--ac", "isp-ac", NULL };
	char pw[] = "given";
	char *given[] = { "up", "wan0", "--user", "carol", "--password", pw, NULL };
	struct client_settings o;

	write_file("pap-secrets", "carol * pap-pw\ncarol isp-ac pap-isp\n", 0600);
	CHECK_EQ(config_parse_up(ARGC(plain), plain, &o), 0);
	CHECK_EQ(o.password_len, 6);
	CHECK_MEM(o.password, "pap-pw", 6);
	CHECK_EQ(config_parse_up(ARGC(named), named, &o), 0);
	CHECK_EQ(o.password_len, 7);
	CHECK_MEM(o.password, "pap-isp", 7);
	write_file("chap-secrets", "\"carol\" * \"chap pw\"\n", 0600);
	CHECK_EQ(config_parse_up(ARGC(plain), plain, &o), 0);
	CHECK_EQ(o.password_len, 7);
	CHECK_MEM(o.password, "chap pw", 7);
	/* The file's or the command line's password comes first. */
	CHECK_EQ(config_parse_up(ARGC(given), given, &o), 0);
	CHECK_EQ(o.password_len, 5);
	write_file("wan0.conf", "password ''\n", 0600);
	CHECK_EQ(config_parse_up(ARGC(plain), plain, &o), 0);
	CHECK_EQ(o.password_len, 0);
	remove_file("wan0.conf");
	remove_file("chap-secrets");
	remove_file("pap-secrets");
	client_settings_wipe(&o);
}

int main(void)
{
	check_prefix = "conffile";
	pxp_log_set_level(PXP_LOG_ERROR);
	if (!freopen("/dev/null", "w", stderr) || !mkdtemp(dir))
		return 1;
	setenv(PXP_CONFIG_DIR_ENV, dir, 1);
	setenv(PXP_PPP_DIR_ENV, dir, 1);
	RUN(words_to_options);
	RUN(rejections_name_file_and_line);
	RUN(bounds);
	RUN(table_matches_up_options);
	RUN(command_line_over_file);
	RUN(file_values_validated);
	RUN(password_from_secrets);
	rmdir(dir);
	return check_summary();
}
