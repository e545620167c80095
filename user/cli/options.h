/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options of a subcommand, declared once in a table that drives getopt_long, the
 * command's --help (with defaults) and its part of the man page pppoe-xp(8). As pppd's
 * general_options[] and xdp-tools' params.h: a new option is one table line plus its case
 * in the parser.
 *
 * Concurrency: called once at start-up.
 */
#ifndef PXP_CLI_OPTIONS_H
#define PXP_CLI_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* A number as the text help shows: CLI_STR(PXP_DEFAULT_MAXFAIL) is "10". */
#define CLI_STR_(x) #x
#define CLI_STR(x)  CLI_STR_(x)

struct cli_option {
	const char *name; /* the long name, without "--" */
	int key;	  /* what getopt_long returns: the short letter, or a value above 255 */
	const char *arg;  /* the argument's name in help ("N", "FILE"); NULL for a flag */
	const char *help;
	const char *dflt; /* the default as help shows it; NULL when there is none to say */
};

/* A subcommand's options: its own, then for up and server those of every daemon. */
struct cli_options {
	const char *command;
	const char *operands;	      /* "IFACE", "[IFACE]" */
	const struct cli_option *own; /* each table ends with { NULL } */
	const struct cli_option *shared;
};

/* Every subcommand also takes -h/--help, which the command line answers before parsing. */
#define CLI_HELP_KEY	'h'
#define CLI_MAX_OPTIONS 48

/* getopt_long's two views of one option set. */
struct cli_getopt {
	struct option longopts[CLI_MAX_OPTIONS + 1];
	char shortopts[2 * CLI_MAX_OPTIONS + 1];
};

void cli_getopt_init(struct cli_getopt *g, const struct cli_options *set);
/* True if argv (argv[0] the subcommand) asks for --help; values of options are not. */
bool cli_wants_help(int argc, char **argv, const struct cli_options *set);
/* "usage: pppoe-xp up IFACE [options]", the summary, then one line per option. */
void cli_print_help(const struct cli_options *set, const char *summary, FILE *out);
/* Text into roff: backslashes and minus signs escaped, no line taken for a request. */
void cli_man_text(const char *s, FILE *out);
/* The options as man(7) .TP paragraphs. */
void cli_print_man(const struct cli_options *set, FILE *out);

#endif
