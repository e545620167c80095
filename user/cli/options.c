// SPDX-License-Identifier: GPL-2.0
#include "options.h"

#include <ctype.h>
#include <string.h>

static const struct cli_option help_option[] = {
	{ "help", CLI_HELP_KEY, NULL, "show this help and exit", NULL },
	{ NULL },
};

/* Each option of the set once: its own table, the shared one, then --help. */
#define for_each_option(o, set)                                             \
	for (unsigned int t_ = 0; t_ < 3; t_++)                             \
		for (const struct cli_option *o = t_ == 0   ? (set)->own    \
						  : t_ == 1 ? (set)->shared \
							    : help_option;  \
		     o && o->name; o++)

static bool has_short(const struct cli_option *o)
{
	return o->key < 256 && isalpha(o->key);
}

void cli_getopt_init(struct cli_getopt *g, const struct cli_options *set)
{
	unsigned int n = 0;
	char *s = g->shortopts;

	memset(g, 0, sizeof(*g));
	for_each_option(o, set)
	{
		/* Never more than fit (tests/unit/test_cli_config.c checks that all do). */
		if (n == CLI_MAX_OPTIONS)
			continue;
		g->longopts[n++] = (struct option){
			.name = o->name,
			.has_arg = o->arg ? required_argument : no_argument,
			.val = o->key,
		};
		if (has_short(o)) {
			*s++ = (char)o->key;
			if (o->arg)
				*s++ = ':';
		}
	}
}

bool cli_wants_help(int argc, char **argv, const struct cli_options *set)
{
	struct cli_getopt g;
	bool help = false;
	int c;

	cli_getopt_init(&g, set);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1)
		help = help || c == CLI_HELP_KEY;
	optind = 0;
	return help;
}

#define HELP_COLUMN 28
#define HELP_WIDTH  79

/* text from column HELP_COLUMN on, broken between words before HELP_WIDTH. */
static void print_wrapped(const char *text, FILE *out)
{
	int column = HELP_COLUMN;

	while (*text) {
		int word = (int)strcspn(text, " ");

		if (column > HELP_COLUMN && column + 1 + word > HELP_WIDTH) {
			fprintf(out, "\n%*s", HELP_COLUMN, "");
			column = HELP_COLUMN;
		} else if (column > HELP_COLUMN) {
			fputc(' ', out);
			column++;
		}
		fprintf(out, "%.*s", word, text);
		column += word;
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

void cli_print_help(const struct cli_options *set, const char *summary, FILE *out)
{
	fprintf(out, "usage: pppoe-xp %s %s%s[options]\n%s\n\n", set->command, set->operands,
		set->operands[0] ? " " : "", summary);
	for_each_option(o, set)
	{
		char text[512];
		int width;

		if (has_short(o))
			width = fprintf(out, "  -%c, --%s", o->key, o->name);
		else
			width = fprintf(out, "      --%s", o->name);
		if (o->arg)
			width += fprintf(out, " %s", o->arg);
		if (width >= HELP_COLUMN - 1)
			fprintf(out, "\n%*s", HELP_COLUMN, "");
		else
			fprintf(out, "%*s", HELP_COLUMN - width, "");
		snprintf(text, sizeof(text), "%s%s%s%s", o->help, o->dflt ? " (default: " : "",
			 o->dflt ?: "", o->dflt ? ")" : "");
		print_wrapped(text, out);
	}
}

void cli_man_text(const char *s, FILE *out)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else
			fputc(*s, out);
	}
}

void cli_print_man(const struct cli_options *set, FILE *out)
{
	for_each_option(o, set)
	{
		fputs(".TP\n", out);
		if (has_short(o))
			fprintf(out, "\\fB\\-%c\\fR, ", o->key);
		fputs("\\fB\\-\\-", out);
		cli_man_text(o->name, out);
		fputs("\\fR", out);
		if (o->arg) {
			fputs(" \\fI", out);
			cli_man_text(o->arg, out);
			fputs("\\fR", out);
		}
		fputc('\n', out);
		cli_man_text(o->help, out);
		if (o->dflt) {
			fputs(" (default: ", out);
			cli_man_text(o->dflt, out);
			fputc(')', out);
		}
		fputc('\n', out);
	}
}
