/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pppd's chap-secrets / pap-secrets files: one record per line,
 *
 *	client	server	secret	[IPv4 address ...]
 *
 * an unquoted '#' starts a comment, single or double quotes keep spaces and '#',
 * backslash escapes as in pppd (\\ \" \' \# \n \t \r \s \a \b \f \v \ooo \xHH, backslash
 * at the end of a line continues it), '*' as client or server matches any name. The first
 * address, if any, is the one assigned to that client; '*' in the address column means
 * "any", '-' (as pppd) that the client may have no address, so it cannot connect (Debian's
 * stock pap-secrets lists guest, root and others so). Not supported, and reported as
 * errors: secrets read from "@file", the "--" form (pppd options after the addresses),
 * subnets, '!' exclusions and host names.
 *
 * Concurrency: a loaded struct secrets is read-only; lookups may run from any thread.
 */
#ifndef PXP_SECRETS_H
#define PXP_SECRETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ppp_types.h"

/* Larger files are refused: secrets files are small, and the parser reads all at once. */
#define SECRETS_FILE_MAX (1024 * 1024)

struct secrets_entry {
	char *client;	 /* "*" matches any */
	char *server;	 /* "*" matches any */
	uint8_t *secret; /* not NUL-terminated; wiped by secrets_free() */
	size_t secret_len;
	uint32_t ip;	 /* network order; 0 = none given */
	bool no_address; /* '-': this client may have no address */
};

struct secrets {
	struct secrets_entry *entries;
	size_t count;
};

/*
 * Parses text[0..len) (no NUL needed); name is the file name used in error messages.
 * On error, returns -EINVAL (or -ENOMEM), leaves s empty and writes
 * "name:line: what is wrong" into err (which may be NULL).
 */
int secrets_parse(struct secrets *s, const char *name, const char *text, size_t len, char *err,
		  size_t err_cap);

/* Reads and parses path; errors name the file ("cannot open ...: No such file ..."). */
int secrets_load(struct secrets *s, const char *path, char *err, size_t err_cap);

/*
 * The secret of client when talking to server (NULL = any server), chosen as pppd does:
 * an exact client beats an exact server, which beats wildcards; the first of equals wins.
 * Returns the secret's length, -ENOENT if no record matches, -EACCES if the record that
 * matches allows the client no address ('-'), -ENOSPC if cap is too small.
 * ip (may be NULL) receives the record's address or 0.
 */
int secrets_lookup(const struct secrets *s, const char *client, const char *server, uint8_t *secret,
		   size_t cap, uint32_t *ip);

/* Wipes every secret and frees the entries; s is empty afterwards. */
void secrets_free(struct secrets *s);

#endif
