/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pppd's words, as its getword() reads options files and chap-secrets/pap-secrets alike:
 * blanks separate words, an unquoted '#' starts a comment to the end of the line, single or
 * double quotes keep blanks and '#', backslash escapes (\\ \" \' \# \n \t \r \s \a \b \f \v
 * \ooo \xHH), a backslash at the end of a line continues it. One tokenizer for both kinds of
 * file, so that they cannot drift apart.
 *
 * Concurrency: a reader is used by one thread.
 */
#ifndef PXP_PPP_WORDS_H
#define PXP_PPP_WORDS_H

#include <stddef.h>

/* The longest word any reader takes (pppd's MAXWORDLEN). */
#define PPP_WORD_MAX 1024

struct ppp_words {
	const char *text; /* not NUL-terminated */
	size_t len;
	size_t pos;
	unsigned int line;
	size_t max;	  /* longest word this reader accepts, at most PPP_WORD_MAX */
	const char *name; /* the file, in errors */
	char *err;	  /* "name:line: what is wrong"; may be NULL */
	size_t err_cap;
};

struct ppp_word {
	char buf[PPP_WORD_MAX + 1]; /* NUL-terminated; may hold NUL-free binary from escapes */
	size_t len;
	unsigned int line; /* where the word starts */
};

void ppp_words_init(struct ppp_words *p, const char *name, const char *text, size_t len, size_t max,
		    char *err, size_t err_cap);

/*
 * The next word of the current line into w: 1 for a word, 0 at the end of the line or of
 * the file (the newline is consumed; at the end of the file p->pos == p->len), -EINVAL
 * after writing the error.
 */
int ppp_words_next(struct ppp_words *p, struct ppp_word *w);

/* Writes "name:line: what" into p->err; returns -EINVAL. */
int ppp_words_error(const struct ppp_words *p, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
