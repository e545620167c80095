// SPDX-License-Identifier: GPL-2.0
/* pppd chap-secrets / pap-secrets parsing and lookup. */
#include "secrets.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Every field fits a PPP name or secret; addresses are far shorter. */
#define SECRETS_WORD_MAX 255

enum { FIELD_CLIENT, FIELD_SERVER, FIELD_SECRET, FIELD_FIRST_ADDRESS };

struct parser {
	const char *text;
	size_t len;
	size_t pos;
	unsigned int line;
	const char *name;
	char *err;
	size_t err_cap;
};

struct word {
	char buf[SECRETS_WORD_MAX + 1];
	size_t len;
	unsigned int line; /* where the word starts */
};

static int __attribute__((format(printf, 3, 4)))
parse_error(const struct parser *p, unsigned int line, const char *fmt, ...)
{
	char what[160];
	va_list ap;

	if (!p->err || !p->err_cap)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->err_cap, "%s:%u: %s", p->name, line, what);
	return -EINVAL;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static int word_append(struct parser *p, struct word *w, unsigned int c)
{
	if (c == 0)
		return parse_error(p, p->line, "a NUL character is not allowed");
	if (w->len >= SECRETS_WORD_MAX)
		return parse_error(p, w->line, "field longer than %d bytes", SECRETS_WORD_MAX);
	w->buf[w->len++] = (char)c;
	return 0;
}

static int digit_value(char c, unsigned int base)
{
	int v = -1;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	return v >= 0 && (unsigned int)v < base ? v : -1;
}

/* Decodes the escape after a backslash (pos is past it); appends the character. */
static int parse_escape(struct parser *p, struct word *w)
{
	static const char plain[] = "abfnrstv";
	static const char value[] = "\a\b\f\n\r \t\v";
	unsigned int c, base = 8, digits = 3, n = 0;
	const char *hit;
	int d;

	if (p->pos >= p->len)
		return parse_error(p, p->line, "backslash at the end of the file");
	c = (unsigned char)p->text[p->pos++];
	if (c == '\n') {
		/* A line continuation: the record goes on. */
		p->line++;
		return 0;
	}
	hit = c ? strchr(plain, (int)c) : NULL;
	if (hit)
		return word_append(p, w, (unsigned char)value[hit - plain]);
	if (c == 'x') {
		base = 16;
		digits = 2;
	} else if (digit_value((char)c, 8) >= 0) {
		p->pos--;
	} else {
		return word_append(p, w, c);
	}
	c = 0;
	while (n < digits && p->pos < p->len && (d = digit_value(p->text[p->pos], base)) >= 0) {
		c = c * base + (unsigned int)d;
		p->pos++;
		n++;
	}
	if (n == 0)
		return parse_error(p, p->line, "\\x without hex digits");
	if (c > 0xFF)
		return parse_error(p, p->line, "octal escape above \\377");
	return word_append(p, w, c);
}

/*
 * Reads the next word of the current line into w. Returns 1 for a word, 0 at the end of
 * the line or file (the newline is consumed), or -EINVAL.
 */
static int next_word(struct parser *p, struct word *w)
{
	char quote = 0, c;
	int err;

	w->len = 0;
	for (;;) {
		if (p->pos >= p->len)
			return 0;
		c = p->text[p->pos];
		if (c == '\n') {
			p->pos++;
			p->line++;
			return 0;
		}
		if (c == '#') {
			while (p->pos < p->len && p->text[p->pos] != '\n')
				p->pos++;
			continue;
		}
		if (c == '\\' && p->pos + 1 < p->len && p->text[p->pos + 1] == '\n') {
			p->pos += 2;
			p->line++;
			continue;
		}
		if (!is_blank(c))
			break;
		p->pos++;
	}

	w->line = p->line;
	while (p->pos < p->len) {
		c = p->text[p->pos];
		/* As in pppd, an unquoted '#' ends the word and starts a comment. */
		if (!quote && (is_blank(c) || c == '\n' || c == '#'))
			break;
		p->pos++;
		if (c == '\n')
			return parse_error(p, w->line, "unterminated quoted string");
		if (quote && c == quote) {
			quote = 0;
		} else if (!quote && (c == '"' || c == '\'')) {
			quote = c;
		} else if (c == '\\') {
			err = parse_escape(p, w);
			if (err)
				return err;
		} else {
			err = word_append(p, w, (unsigned char)c);
			if (err)
				return err;
		}
	}
	if (quote)
		return parse_error(p, w->line, "unterminated quoted string");
	w->buf[w->len] = '\0';
	return 1;
}

static int parse_address(struct parser *p, int field, const struct word *w, struct secrets_entry *e)
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
		return parse_error(p, w->line, "'%s' in the address column is not supported",
				   w->buf);
	/* The word is not echoed: it may be a secret that lost its quotes. */
	if (inet_pton(AF_INET, w->buf, &addr) != 1)
		return parse_error(p, w->line,
				   "field %d is not an IPv4 address (only a.b.c.d or '*' are "
				   "supported; quote a secret that holds spaces)",
				   field + 1);
	if (addr.s_addr == 0)
		return parse_error(p, w->line, "0.0.0.0 cannot be assigned to a client");
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
static int take_field(struct parser *p, int field, const struct word *w, struct secrets_entry *e)
{
	switch (field) {
	case FIELD_CLIENT:
	case FIELD_SERVER:
		if (w->len > PPP_NAME_MAX)
			return parse_error(p, w->line, "name longer than %d bytes", PPP_NAME_MAX);
		if (field == FIELD_CLIENT)
			e->client = strndup(w->buf, w->len);
		else
			e->server = strndup(w->buf, w->len);
		return (field == FIELD_CLIENT ? e->client : e->server) ? 0 : -ENOMEM;
	case FIELD_SECRET:
		if (w->len > PPP_SECRET_MAX)
			return parse_error(p, w->line, "secret longer than %d bytes",
					   PPP_SECRET_MAX);
		if (w->len && w->buf[0] == '@')
			return parse_error(p, w->line,
					   "secrets read from a file ('@...') are not supported");
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
	struct parser p = {
		.text = text, .len = len, .line = 1, .name = name, .err = err, .err_cap = err_cap
	};
	struct secrets_entry e;
	struct word w;
	size_t cap = 0;
	unsigned int record_line;
	int field, ret = 0;

	s->entries = NULL;
	s->count = 0;
	if (err && err_cap)
		err[0] = '\0';
	while (p.pos < p.len && !ret) {
		memset(&e, 0, sizeof(e));
		record_line = p.line;
		field = 0;
		for (;;) {
			ret = next_word(&p, &w);
			if (ret <= 0)
				break;
			if (field == 0)
				record_line = w.line;
			ret = take_field(&p, field++, &w, &e);
			if (ret)
				break;
		}
		if (!ret && field > 0 && field <= FIELD_SECRET)
			ret = parse_error(&p, record_line,
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
