// SPDX-License-Identifier: GPL-2.0
/* Our nameserver lines in a resolv.conf file: see resolv_file.h. */
#include "resolv_file.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run_dir.h"
#include "write_all.h"

static const char nameserver[] = "nameserver ";

/* A line (without its newline) of ours: "nameserver ... # pppoe-xp IFACE". */
static bool line_is_ours(const char *line, size_t len, const char *mark, size_t mark_len)
{
	size_t ns_len = sizeof(nameserver) - 1;

	return len >= ns_len + mark_len && !memcmp(line, nameserver, ns_len) &&
	       !memcmp(line + len - mark_len, mark, mark_len);
}

static int put(char *out, size_t cap, size_t *at, const char *s, size_t len)
{
	if (len > cap - *at)
		return -ENOSPC;
	memcpy(out + *at, s, len);
	*at += len;
	return 0;
}

int resolv_edit(const char *text, size_t len, const char *iface, const uint32_t *dns,
		unsigned int n, char *out, size_t cap)
{
	char mark[IF_NAMESIZE + 16], addr[INET_ADDRSTRLEN], line[RESOLV_OURS_MAX / PXP_MAX_DNS];
	size_t at = 0, i, end, mark_len;
	unsigned int k;
	int err, w;

	w = snprintf(mark, sizeof(mark), " # pppoe-xp %s", iface);
	if (w < 0 || (size_t)w >= sizeof(mark) || len > RESOLV_FILE_MAX)
		return -EINVAL;
	mark_len = (size_t)w;
	for (k = 0; k < n; k++) {
		if (!dns[k])
			continue;
		inet_ntop(AF_INET, &dns[k], addr, sizeof(addr));
		w = snprintf(line, sizeof(line), "%s%s%s\n", nameserver, addr, mark);
		if (w < 0 || (size_t)w >= sizeof(line))
			return -EINVAL;
		err = put(out, cap, &at, line, (size_t)w);
		if (err)
			return err;
	}
	for (i = 0; i < len; i = end) {
		const char *nl = memchr(text + i, '\n', len - i);

		end = nl ? (size_t)(nl - text) + 1 : len;
		if (line_is_ours(text + i, end - i - (nl ? 1 : 0), mark, mark_len))
			continue;
		err = put(out, cap, &at, text + i, end - i);
		if (err)
			return err;
	}
	return (int)at;
}

int resolv_file_path(const char *shared_path, const char *iface, char *path, size_t cap)
{
	int n = shared_path[0] ? snprintf(path, cap, "%s", shared_path)
			       : snprintf(path, cap, "%s/%s.resolv.conf", pxp_run_dir(), iface);

	return n < 0 || (size_t)n >= cap ? -ENAMETOOLONG : 0;
}

/* Reads all of path (at most RESOLV_FILE_MAX bytes) into a new buffer; *like gets its stat. */
static int read_file(const char *path, char **text, size_t *len, struct stat *like)
{
	size_t got = 0;
	char *buf;
	int fd, err = 0;
	ssize_t n;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(RESOLV_FILE_MAX + 1);
	if (!buf) {
		err = -ENOMEM;
		goto close_fd;
	}
	if (fstat(fd, like)) {
		err = -errno;
		goto free_buf;
	}
	while (got <= RESOLV_FILE_MAX) {
		n = read(fd, buf + got, RESOLV_FILE_MAX + 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			goto free_buf;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got > RESOLV_FILE_MAX) {
		err = -EFBIG;
		goto free_buf;
	}
	*text = buf;
	*len = got;
	goto close_fd;
free_buf:
	free(buf);
close_fd:
	close(fd);
	return err;
}

/* Replaces path with text at once: a temporary file with like's owner and mode, renamed. */
static int replace_file(const char *path, const char *iface, const char *text, size_t len,
			const struct stat *like)
{
	char tmp[PATH_MAX];
	int fd, n, err = 0;

	n = snprintf(tmp, sizeof(tmp), "%s.pppoe-xp-%s.tmp", path, iface);
	if (n < 0 || (size_t)n >= sizeof(tmp))
		return -ENAMETOOLONG;
	unlink(tmp); /* a crashed run's */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	err = pxp_write_all(fd, text, len);
	/* chown before chmod: chown clears set-id bits. */
	if (!err && (fchown(fd, like->st_uid, like->st_gid) || fchmod(fd, like->st_mode & 07777) ||
		     fsync(fd)))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

/* A file we create: ours, readable by all (dnsmasq reads it as another user). */
static void new_file_like(struct stat *like)
{
	memset(like, 0, sizeof(*like));
	like->st_mode = 0644;
	like->st_uid = getuid();
	like->st_gid = getgid();
}

/* Our lines for dns[0..n-1] in place of those already in path (n = 0: only removes). */
static int edit_shared(const char *path, const char *iface, const uint32_t *dns, unsigned int n)
{
	char target[PATH_MAX], *text = NULL, *out = NULL;
	struct stat like;
	size_t len = 0;
	int err, out_len;

	new_file_like(&like);
	if (realpath(path, target)) {
		err = read_file(target, &text, &len, &like);
		if (err)
			return err;
	} else if (errno != ENOENT) {
		return -errno;
	} else if (!n) {
		return 0; /* no file, nothing of ours to take out */
	} else if (!lstat(path, &like)) {
		return -ENOENT; /* a dangling symlink: the rename would replace the link */
	} else {
		snprintf(target, sizeof(target), "%s", path);
	}
	out = malloc(len + RESOLV_OURS_MAX);
	if (!out) {
		err = -ENOMEM;
		goto free_bufs;
	}
	out_len = resolv_edit(text, len, iface, dns, n, out, len + RESOLV_OURS_MAX);
	if (out_len < 0)
		err = out_len;
	else if (text && (size_t)out_len == len && !memcmp(out, text, len))
		err = 0; /* nothing changes: leave the file alone */
	else
		err = replace_file(target, iface, out, (size_t)out_len, &like);
free_bufs:
	free(out);
	free(text);
	return err;
}

int resolv_add(const char *shared_path, const char *iface, const uint32_t *dns)
{
	char path[PATH_MAX], text[RESOLV_OURS_MAX];
	struct stat like;
	int err, len;

	if (shared_path[0])
		return edit_shared(shared_path, iface, dns, PXP_MAX_DNS);
	err = resolv_file_path("", iface, path, sizeof(path));
	if (!err)
		err = pxp_run_dir_create();
	if (err)
		return err;
	len = resolv_edit(NULL, 0, iface, dns, PXP_MAX_DNS, text, sizeof(text));
	if (len < 0)
		return len;
	new_file_like(&like);
	return replace_file(path, iface, text, (size_t)len, &like);
}

int resolv_remove(const char *shared_path, const char *iface)
{
	char path[PATH_MAX];
	int err;

	if (shared_path[0])
		return edit_shared(shared_path, iface, NULL, 0);
	err = resolv_file_path("", iface, path, sizeof(path));
	if (err)
		return err;
	return unlink(path) && errno != ENOENT ? -errno : 0;
}
