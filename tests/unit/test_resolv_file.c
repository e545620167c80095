// SPDX-License-Identifier: GPL-2.0
/*
 * Our nameserver lines in a resolv.conf (user/shell/resolv_file.h): the line editing on a
 * table of files, then the file functions on real files (mode, symlink, our own file).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "resolv_file.h"
#include "run_dir.h"

#define OURS_53 "nameserver 198.51.100.53 # pppoe-xp wan0\n"
#define OURS_54 "nameserver 198.51.100.54 # pppoe-xp wan0\n"

struct edit_case {
	const char *name;
	const char *in;
	const char *dns[PXP_MAX_DNS]; /* NULL: none (only removes) */
	const char *want;
};

static const struct edit_case edit_cases[] = {
	{ "empty file, one server", "", { "198.51.100.53" }, OURS_53 },
	{ "two servers in order", "", { "198.51.100.53", "198.51.100.54" }, OURS_53 OURS_54 },
	{ "second server unknown", "", { "198.51.100.53", "0.0.0.0" }, OURS_53 },
	{ "ours go first, the rest byte for byte",
	  "# theirs\nnameserver 192.0.2.1\n",
	  { "198.51.100.53" },
	  OURS_53 "# theirs\nnameserver 192.0.2.1\n" },
	{ "no final newline stays so",
	  "search example.net\noptions edns0",
	  { "198.51.100.53" },
	  OURS_53 "search example.net\noptions edns0" },
	{ "a crashed run's lines are replaced",
	  OURS_54 "nameserver 192.0.2.1\n" OURS_54,
	  { "198.51.100.53" },
	  OURS_53 "nameserver 192.0.2.1\n" },
	{ "remove: ours only", OURS_53 OURS_54, { NULL }, "" },
	{ "remove: ours among theirs",
	  "# a\n" OURS_53 "nameserver 192.0.2.1\n" OURS_54 "# b",
	  { NULL },
	  "# a\nnameserver 192.0.2.1\n# b" },
	{ "remove: ours last, without newline",
	  "nameserver 192.0.2.1\n"
	  "nameserver 198.51.100.53 # pppoe-xp wan0",
	  { NULL },
	  "nameserver 192.0.2.1\n" },
	{ "remove: nothing of ours",
	  "nameserver 192.0.2.1\n\n\n# x",
	  { NULL },
	  "nameserver 192.0.2.1\n\n\n# x" },
	{ "another interface's lines stay",
	  "nameserver 192.0.2.7 # pppoe-xp wan1\nnameserver 192.0.2.8 # pppoe-xp xwan0\n",
	  { NULL },
	  "nameserver 192.0.2.7 # pppoe-xp wan1\nnameserver 192.0.2.8 # pppoe-xp xwan0\n" },
	{ "only nameserver lines with the exact mark are ours",
	  "search x # pppoe-xp wan0\n#nameserver 192.0.2.9 # pppoe-xp wan0\n"
	  "nameserver 192.0.2.9 # pppoe-xp wan0 \nnameserver 192.0.2.9 # pppoe-xp wan0x\n",
	  { NULL },
	  "search x # pppoe-xp wan0\n#nameserver 192.0.2.9 # pppoe-xp wan0\n"
	  "nameserver 192.0.2.9 # pppoe-xp wan0 \nnameserver 192.0.2.9 # pppoe-xp wan0x\n" },
	{ "a lone newline", "\n", { "198.51.100.53" }, OURS_53 "\n" },
};

static int edit(const char *in, const char *const *dns_text, char *out, size_t cap)
{
	uint32_t dns[PXP_MAX_DNS] = { 0 };
	unsigned int i, n = 0;

	for (i = 0; i < PXP_MAX_DNS && dns_text[i]; i++, n++)
		inet_pton(AF_INET, dns_text[i], &dns[i]);
	return resolv_edit(in, strlen(in), "wan0", dns, n, out, cap);
}

TEST(edit_table)
{
	char out[512], back[512];
	const char *none[PXP_MAX_DNS] = { NULL };
	size_t i;
	int len;

	for (i = 0; i < sizeof(edit_cases) / sizeof(edit_cases[0]); i++) {
		const struct edit_case *t = &edit_cases[i];

		len = edit(t->in, t->dns, out, sizeof(out));
		if (len < 0 || (size_t)len != strlen(t->want) || memcmp(out, t->want, (size_t)len))
			printf("# case '%s': got '%.*s'\n", t->name, len < 0 ? 0 : len, out);
		CHECK_EQ(len, (int)strlen(t->want));
		CHECK_MEM(out, t->want, (size_t)len);
		/* Taking ours out again leaves what was not ours, to the byte. */
		out[len] = '\0';
		len = edit(out, none, back, sizeof(back));
		CHECK(len >= 0);
		back[len] = '\0';
		CHECK_EQ(edit(t->in, none, out, sizeof(out)), len);
		CHECK_MEM(out, back, (size_t)len);
	}
}

TEST(edit_needs_room)
{
	const char *one[PXP_MAX_DNS] = { "198.51.100.53" };
	char out[64];

	CHECK_EQ(edit("nameserver 192.0.2.1\n", one, out, strlen(OURS_53)), -ENOSPC);
	CHECK_EQ(edit("", one, out, strlen(OURS_53) - 1), -ENOSPC);
	CHECK_EQ(edit("", one, out, strlen(OURS_53)), (int)strlen(OURS_53));
}

static char dir[] = "/tmp/pxp-resolv-XXXXXX";

static int slurp(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, cap - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (int)n;
}

static void spill(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A shared file behind a symlink: link and mode stay, only our lines come and go. */
TEST(shared_file)
{
	const char *theirs = "# theirs\nnameserver 192.0.2.1";
	uint32_t dns[PXP_MAX_DNS] = { 0 };
	char real[64], link[64], buf[256];
	bool owner_changed;
	struct stat st;

	inet_pton(AF_INET, "198.51.100.53", &dns[0]);
	snprintf(real, sizeof(real), "%s/real.conf", dir);
	snprintf(link, sizeof(link), "%s/resolv.conf", dir);
	spill(real, theirs);
	CHECK_EQ(chmod(real, 0640), 0);
	/* Another owner, where we may give one (as root). */
	owner_changed = !chown(real, 65534, 65534);
	CHECK_EQ(symlink("real.conf", link), 0);
	CHECK_EQ(resolv_add(link, "wan0", dns), 0);
	CHECK_EQ(lstat(link, &st), 0);
	CHECK(S_ISLNK(st.st_mode));
	CHECK_EQ(stat(real, &st), 0);
	CHECK_EQ(st.st_mode & 07777, 0640);
	CHECK(!owner_changed || (st.st_uid == 65534 && st.st_gid == 65534));
	slurp(real, buf, sizeof(buf));
	CHECK(!strcmp(buf, OURS_53 "# theirs\nnameserver 192.0.2.1"));
	CHECK_EQ(resolv_remove(link, "wan0"), 0);
	slurp(real, buf, sizeof(buf));
	CHECK(!strcmp(buf, theirs));
	CHECK_EQ(lstat(link, &st), 0);
	CHECK(S_ISLNK(st.st_mode));
	/* Nothing of ours: the file is not rewritten; no file: nothing to do. */
	CHECK_EQ(resolv_remove(link, "wan0"), 0);
	unlink(link);
	unlink(real);
	CHECK_EQ(resolv_remove(real, "wan0"), 0);
	CHECK_EQ(access(real, F_OK), -1);
	/* A dangling symlink is refused rather than replaced by a file. */
	CHECK_EQ(symlink("missing.conf", link), 0);
	CHECK_EQ(resolv_add(link, "wan0", dns), -ENOENT);
	CHECK_EQ(lstat(link, &st), 0);
	CHECK(S_ISLNK(st.st_mode));
	unlink(link);
}

/* Our own file, RUN_DIR/IFACE.resolv.conf: written whole, deleted. */
TEST(own_file)
{
	uint32_t dns[PXP_MAX_DNS] = { 0 };
	char path[64], buf[256];

	inet_pton(AF_INET, "198.51.100.54", &dns[1]);
	snprintf(path, sizeof(path), "%s/wan0.resolv.conf", dir);
	spill(path, "nameserver 192.0.2.1\n");
	CHECK_EQ(resolv_add("", "wan0", dns), 0);
	slurp(path, buf, sizeof(buf));
	CHECK(!strcmp(buf, OURS_54));
	CHECK_EQ(resolv_remove("", "wan0"), 0);
	CHECK_EQ(access(path, F_OK), -1);
	CHECK_EQ(resolv_remove("", "wan0"), 0);
}

int main(void)
{
	check_prefix = "resolv_file";
	if (!mkdtemp(dir) || setenv(PXP_RUN_DIR_ENV, dir, 1)) {
		printf("FAIL resolv_file/setup: no temporary directory\n");
		return 1;
	}
	RUN(edit_table);
	RUN(edit_needs_room);
	RUN(shared_file);
	RUN(own_file);
	rmdir(dir);
	return check_summary();
}
