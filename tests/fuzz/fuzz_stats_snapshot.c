// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the `stats` snapshot parser (user/common/stats_report.c): any bytes are
 * either refused or parse into a snapshot that writes back and parses to the same one; the
 * views of a parsed snapshot render without faults.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats_report.h"

static struct stats_snapshot a, b;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (stats_snapshot_parse(&a, (const char *)data, size))
		return 0;
	f = open_memstream(&text, &len);
	if (!f)
		return 0;
	stats_snapshot_write(&a, f);
	stats_print_counters(&a, f, false);
	stats_print_counters(&a, f, true);
	stats_print_rates(&a, &a, f, false);
	stats_print_rates(&a, &a, f, true);
	fclose(f);
	free(text);
	text = NULL;
	len = 0;
	/* The snapshot alone, written again, must parse back to itself. */
	f = open_memstream(&text, &len);
	if (!f)
		return 0;
	stats_snapshot_write(&a, f);
	fclose(f);
	if (stats_snapshot_parse(&b, text, len) || memcmp(&a, &b, sizeof(a)))
		abort();
	free(text);
	return 0;
}
