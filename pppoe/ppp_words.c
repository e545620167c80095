// SPDX-License-Identifier: GPL-2.0
/* pppd's getword(): the words of options files and secrets files. */
#include "ppp_words.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void ppp_words_init(struct ppp_words *p, const char *name, const char *text, size_t len, size_t max,
		    char *err, size_t err_cap)
{
	*p = (struct ppp_words){
		.text = text,
		.len = len,
		.line = 1,
		.max = max < PPP_WORD_MAX ? max : PPP_WORD_MAX,
		.name = name,
		.err = err,
		.err_cap = err_cap,
	};
	if (err && err_cap)
		err[0] = '\0';
}

int ppp_words_error(const struct ppp_words *p, unsigned int line, const char *fmt, ...)
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

static int word_append(struct ppp_words *p, struct ppp_word *w, unsigned int c)
{
	if (c == 0)
		return ppp_words_error(p, p->line, "a NUL character is not allowed");
	if (w->len >= p->max)
		return ppp_words_error(p, w->line, "field longer than %zu bytes", p->max);
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
static int parse_escape(struct ppp_words *p, struct ppp_word *w)
{
	static const char plain[] = "abfnrstv";
	static const char value[] = "\a\b\f\n\r \t\v";
	unsigned int c, base = 8, digits = 3, n = 0;
	const char *hit;
	int d;

	if (p->pos >= p->len)
		return ppp_words_error(p, p->line, "backslash at the end of the file");
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
		return ppp_words_error(p, p->line, "\\x without hex digits");
	if (c > 0xFF)
		return ppp_words_error(p, p->line, "octal escape above \\377");
	return word_append(p, w, c);
}

int ppp_words_next(struct ppp_words *p, struct ppp_word *w)
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
			return ppp_words_error(p, w->line, "unterminated quoted string");
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
		return ppp_words_error(p, w->line, "unterminated quoted string");
	w->buf[w->len] = '\0';
	return 1;
}
