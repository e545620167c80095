// SPDX-License-Identifier: GPL-2.0
#include "status.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <inttypes.h>
#include <string.h>

void status_begin(struct status_writer *w, FILE *out, bool json)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->json = json;
	if (json)
		fputc('{', out);
}

void status_end(struct status_writer *w)
{
	if (w->json)
		fputc('}', w->out);
	fputc('\n', w->out);
}

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* Text output replaces what a terminal would interpret. */
static void text_string(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(isprint((unsigned char)*s) ? *s : '?', out);
}

/* Starts one member: the separator and key in JSON, indentation and key in text. */
static void member(struct status_writer *w, const char *key)
{
	int i;

	if (w->json) {
		if (w->need_comma[w->depth])
			fputc(',', w->out);
		w->need_comma[w->depth] = true;
		if (key) {
			json_string(w->out, key);
			fputc(':', w->out);
		}
		return;
	}
	if (w->need_comma[w->depth] && !key)
		fputc(' ', w->out);
	w->need_comma[w->depth] = true;
	if (!key)
		return;
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->out);
	fprintf(w->out, "%s: ", key);
}

static void text_end_line(struct status_writer *w, const char *key)
{
	if (!w->json && key)
		fputc('\n', w->out);
}

static void push(struct status_writer *w)
{
	if (w->depth + 1 < STATUS_MAX_DEPTH)
		w->depth++;
	w->need_comma[w->depth] = false;
}

void status_object_begin(struct status_writer *w, const char *key)
{
	int i;

	if (w->json) {
		member(w, key);
		fputc('{', w->out);
	} else if (key) {
		member(w, key);
		fputc('\n', w->out);
	} else {
		/* An object inside an array: a list item of its own. */
		fputc('\n', w->out);
		for (i = 0; i < w->depth; i++)
			fputs("  ", w->out);
		fputs("-\n", w->out);
	}
	push(w);
}

void status_object_end(struct status_writer *w)
{
	if (w->depth > 0)
		w->depth--;
	if (w->json)
		fputc('}', w->out);
}

void status_array_begin(struct status_writer *w, const char *key)
{
	member(w, key);
	if (w->json)
		fputc('[', w->out);
	push(w);
}

void status_array_end(struct status_writer *w)
{
	if (w->depth > 0)
		w->depth--;
	fputc(w->json ? ']' : '\n', w->out);
}

void status_str(struct status_writer *w, const char *key, const char *value)
{
	member(w, key);
	if (w->json) {
		if (value)
			json_string(w->out, value);
		else
			fputs("null", w->out);
	} else {
		text_string(w->out, value ? value : "-");
	}
	text_end_line(w, key);
}

void status_u64(struct status_writer *w, const char *key, uint64_t value)
{
	member(w, key);
	fprintf(w->out, "%" PRIu64, value);
	text_end_line(w, key);
}

void status_bool(struct status_writer *w, const char *key, bool value)
{
	member(w, key);
	fputs(w->json ? (value ? "true" : "false") : (value ? "yes" : "no"), w->out);
	text_end_line(w, key);
}

void status_ipv4(struct status_writer *w, const char *key, uint32_t addr)
{
	char text[INET_ADDRSTRLEN];

	if (!addr) {
		status_str(w, key, NULL);
		return;
	}
	inet_ntop(AF_INET, &addr, text, sizeof(text));
	status_str(w, key, text);
}

void status_mac(struct status_writer *w, const char *key, const uint8_t mac[6])
{
	char text[18];

	snprintf(text, sizeof(text), "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2],
		 mac[3], mac[4], mac[5]);
	status_str(w, key, text);
}

void status_link_local(struct status_writer *w, const char *key, const uint8_t ifid[8])
{
	uint8_t bytes[16] = { 0xfe, 0x80 };
	char text[INET6_ADDRSTRLEN];

	memcpy(bytes + 8, ifid, 8);
	inet_ntop(AF_INET6, bytes, text, sizeof(text));
	status_str(w, key, text);
}
