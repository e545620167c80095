// SPDX-License-Identifier: GPL-2.0
/* pppd chap-secrets / pap-secrets parsing and lookup. */
#include "secrets.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ppp_words.h"

/* Every field fits a PPP name or secret; addresses are far shorter. */
#define SECRETS_WORD_MAX 255

enum { FIELD_CLIENT, FIELD_SERVER, FIELD_SECRET, FIELD_FIRST_ADDRESS };

static int parse_address(struct ppp_words *p, int field, const struct ppp_word *w,
			 struct secrets_entry *e)
{
	struct in_addr addr;

	if (strcmp(w->buf, "*") == 0)
		return 0;
	/* pppd: "-" allows the client no address at all (Debian's stock guest lines). */
	if (strcmp(w->buf, "-") == 0) {
		e->no_address = true;
		return 0;
	}
	if (strcmp(w->buf, "--") == 0)
		return ppp_words_error(p, w->line, "'%s' in the address column is not supported",
				       w->buf);
	/* The word is not echoed: it may be a secret that lost its quotes. */
	if (inet_pton(AF_INET, w->buf, &addr) != 1)
		return ppp_words_error(p, w->line,
				       "field %d is not an IPv4 address (only a.b.c.d or '*' are "
				       "supported; quote a secret that holds spaces)",
				       field + 1);
	if (addr.s_addr == 0)
		return ppp_words_error(p, w->line, "0.0.0.0 cannot be assigned to a client");
	if (e->ip == 0)
		e->ip = addr.s_addr;
	return 0;
}

static int add_entry(struct secrets *s, size_t *cap, struct secrets_entry *e)
{
	struct secrets_entry *grown;
	size_t new_cap;

	if (s->count == *cap) {
		new_cap = *cap ? *cap * 2 : 16;
		grown = reallocarray(s->entries, new_cap, sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		s->entries = grown;
		*cap = new_cap;
	}
	s->entries[s->count++] = *e;
	return 0;
}

static void entry_wipe(struct secrets_entry *e)
{
	if (e->client)
		explicit_bzero(e->client, strlen(e->client));
	if (e->server)
		explicit_bzero(e->server, strlen(e->server));
	if (e->secret)
		explicit_bzero(e->secret, e->secret_len);
	free(e->client);
	free(e->server);
	free(e->secret);
	explicit_bzero(e, sizeof(*e));
}

/* Stores one field of the record being read into e. */
static int take_field(struct ppp_words *p, int field, const struct ppp_word *w,
		      struct secrets_entry *e)
{
	switch (field) {
	case FIELD_CLIENT:
	case FIELD_SERVER:
		if (w->len > PPP_NAME_MAX)
			return ppp_words_error(p, w->line, "name longer than %d bytes",
					       PPP_NAME_MAX);
		if (field == FIELD_CLIENT)
			e->client = strndup(w->buf, w->len);
		else
			e->server = strndup(w->buf, w->len);
		return (field == FIELD_CLIENT ? e->client : e->server) ? 0 : -ENOMEM;
	case FIELD_SECRET:
		if (w->len > PPP_SECRET_MAX)
			return ppp_words_error(p, w->line, "secret longer than %d bytes",
					       PPP_SECRET_MAX);
		if (w->len && w->buf[0] == '@')
			return ppp_words_error(
				p, w->line, "secrets read from a file ('@...') are not supported");
		e->secret = malloc(w->len ? w->len : 1);
		if (!e->secret)
			return -ENOMEM;
		memcpy(e->secret, w->buf, w->len);
		e->secret_len = w->len;
		return 0;
	default:
		return parse_address(p, field, w, e);
	}
}

int secrets_parse(struct secrets *s, const char *name, const char *text, size_t len, char *err,
		  size_t err_cap)
{
	struct ppp_words p;
	struct secrets_entry e;
	struct ppp_word w;
	size_t cap = 0;
	unsigned int record_line;
	int field, ret = 0;

	s->entries = NULL;
	s->count = 0;
	ppp_words_init(&p, name, text, len, SECRETS_WORD_MAX, err, err_cap);
	while (p.pos < p.len && !ret) {
		memset(&e, 0, sizeof(e));
		record_line = p.line;
		field = 0;
		for (;;) {
			ret = ppp_words_next(&p, &w);
			if (ret <= 0)
				break;
			if (field == 0)
				record_line = w.line;
			ret = take_field(&p, field++, &w, &e);
			if (ret)
				break;
		}
		if (!ret && field > 0 && field <= FIELD_SECRET)
			ret = ppp_words_error(&p, record_line,
					      "expected client, server and secret; found only %d "
					      "field%s",
					      field, field == 1 ? "" : "s");
		if (!ret && field > 0)
			ret = add_entry(s, &cap, &e);
		if (ret)
			entry_wipe(&e);
	}
	explicit_bzero(&w, sizeof(w));
	if (ret == -ENOMEM && err && err_cap)
		snprintf(err, err_cap, "%s: out of memory", name);
	if (ret)
		secrets_free(s);
	return ret;
}

int secrets_load(struct secrets *s, const char *path, char *err, size_t err_cap)
{
	struct stat st;
	char *text = NULL;
	size_t got = 0;
	ssize_t n;
	int fd, ret;

	s->entries = NULL;
	s->count = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto report;
	}
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		goto close_fd;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > SECRETS_FILE_MAX) {
		ret = S_ISREG(st.st_mode) ? -EFBIG : -EINVAL;
		goto close_fd;
	}
	text = malloc((size_t)st.st_size + 1);
	if (!text) {
		ret = -ENOMEM;
		goto close_fd;
	}
	/* Read until EOF: the file may have changed size since fstat(). */
	while (got < (size_t)st.st_size + 1) {
		n = read(fd, text + got, (size_t)st.st_size + 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto wipe_text;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got > (size_t)st.st_size) {
		ret = -EFBIG;
		goto wipe_text;
	}
	ret = secrets_parse(s, path, text, got, err, err_cap);
	explicit_bzero(text, got);
	free(text);
	close(fd);
	return ret;

wipe_text:
	explicit_bzero(text, got);
	free(text);
close_fd:
	close(fd);
report:
	if (err && err_cap) {
		if (ret == -EFBIG)
			snprintf(err, err_cap, "%s: larger than %d bytes (or grew while read)",
				 path, SECRETS_FILE_MAX);
		else if (ret == -EINVAL)
			snprintf(err, err_cap, "%s: not a regular file", path);
		else
			snprintf(err, err_cap, "cannot read %s: %s", path, strerror(-ret));
	}
	return ret;
}

static bool is_wild(const char *word)
{
	return word[0] == '*' && word[1] == '\0';
}

int secrets_lookup(const struct secrets *s, const char *client, const char *server, uint8_t *secret,
		   size_t cap, uint32_t *ip)
{
	const struct secrets_entry *best = NULL;
	int best_score = -1, score;
	size_t i;

	for (i = 0; i < s->count; i++) {
		const struct secrets_entry *e = &s->entries[i];

		if (!is_wild(e->client) && strcmp(e->client, client) != 0)
			continue;
		if (server && !is_wild(e->server) && strcmp(e->server, server) != 0)
			continue;
		/* As pppd: an exact client name counts more than an exact server name. */
		score = (is_wild(e->client) ? 0 : 2) + (is_wild(e->server) ? 0 : 1);
		if (score > best_score) {
			best = e;
			best_score = score;
		}
	}
	if (!best)
		return -ENOENT;
	if (best->no_address)
		return -EACCES;
	if (best->secret_len > cap)
		return -ENOSPC;
	memcpy(secret, best->secret, best->secret_len);
	if (ip)
		*ip = best->ip;
	return (int)best->secret_len;
}

void secrets_free(struct secrets *s)
{
	size_t i;

	for (i = 0; i < s->count; i++)
		entry_wipe(&s->entries[i]);
	free(s->entries);
	s->entries = NULL;
	s->count = 0;
}
