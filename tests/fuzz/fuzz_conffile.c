// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the configuration file in pppd's words (user/cli/conffile.c):
 * arbitrary bytes as a file. A success gives an argv of "--option" [value] pairs from the
 * table, within the bounds; a failure leaves nothing allocated and an error naming the file
 * and a line.
 */
#include <stdint.h>
#include <string.h>

#include "conffile.h"
#include "ppp_words.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct conffile_word *option_of(const char *arg)
{
	if (arg[0] != '-' || arg[1] != '-')
		return NULL;
	for (const struct conffile_word *w = conffile_words; w->word; w++)
		if (w->option && w->option[0] && !strcmp(w->option, arg + 2))
			return w;
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct conffile cf;
	char err[256];
	int ret;

	ret = conffile_parse(&cf, "fuzz", (const char *)data, size, err, sizeof(err));
	if (ret) {
		if (cf.argc || cf.argv || strncmp(err, "fuzz", 4) != 0)
			__builtin_trap();
		return 0;
	}
	if (cf.argc < 1 || cf.argc > CONFFILE_MAX_WORDS || cf.argv[cf.argc] != NULL)
		__builtin_trap();
	for (int i = 1; i < cf.argc; i++) {
		const struct conffile_word *w = option_of(cf.argv[i]);

		/* Each option is one of the table's; a value follows exactly those that take one.
		 */
		if (!w || cf.line[i] == 0)
			__builtin_trap();
		if (w->arg && (++i >= cf.argc || strlen(cf.argv[i]) > PPP_WORD_MAX))
			__builtin_trap();
	}
	conffile_free(&cf);
	return 0;
}
