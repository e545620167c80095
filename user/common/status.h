/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Status output of a running daemon, as text for people or JSON for scripts, through one
 * writer so both always carry the same fields. Strings from the wire (AC names, user
 * names) are escaped: they are hostile.
 *
 * Concurrency: a writer belongs to one caller.
 */
#ifndef PXP_STATUS_H
#define PXP_STATUS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define STATUS_MAX_DEPTH 8

struct status_writer {
	FILE *out;
	bool json;
	int depth;
	bool need_comma[STATUS_MAX_DEPTH];
};

void status_begin(struct status_writer *w, FILE *out, bool json);
/* Closes the top-level object and ends the output with a newline. */
void status_end(struct status_writer *w);
/* key is NULL inside arrays. */
void status_object_begin(struct status_writer *w, const char *key);
void status_object_end(struct status_writer *w);
void status_array_begin(struct status_writer *w, const char *key);
void status_array_end(struct status_writer *w);
void status_str(struct status_writer *w, const char *key, const char *value);
void status_u64(struct status_writer *w, const char *key, uint64_t value);
void status_bool(struct status_writer *w, const char *key, bool value);
/* IPv4 address in network order; 0 prints as null / "-". */
void status_ipv4(struct status_writer *w, const char *key, uint32_t addr);
void status_mac(struct status_writer *w, const char *key, const uint8_t mac[6]);
/* fe80::/64 link-local address built from an interface identifier. */
void status_link_local(struct status_writer *w, const char *key, const uint8_t ifid[8]);

#endif
