/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The configuration file of a WAN port, /etc/pppoe-xp/IFACE.conf, in pppd's option words
 * (pppd(8) "options files": several options a line or one, '#' comments, quotes and
 * backslash escapes as ppp_words.h reads them). One table maps each pppd word to the option
 * of `pppoe-xp up` it means; the file becomes an argv of those options, which the command
 * line's own parser then validates, so that a value is checked in one place.
 *
 * A word pppd has and we do not ("replacedefaultroute") is an error saying so; a word that
 * undoes another ("nodefaultroute") takes back what came before it in the file, as pppd's
 * last-one-wins; a word naming what we always do ("noauth") is accepted.
 *
 * Concurrency: called once at start-up.
 */
#ifndef PXP_CLI_CONFFILE_H
#define PXP_CLI_CONFFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define PXP_CONFIG_DIR	   "/etc/pppoe-xp"
#define PXP_CONFIG_DIR_ENV "PPPOE_XP_CONFIG_DIR"
/* Configuration files are small; larger ones are refused before they are read. */
#define CONFFILE_MAX_BYTES (64 * 1024)
#define CONFFILE_MAX_WORDS 512

/* One pppd word and the option of ours it stands for. */
struct conffile_word {
	const char *word;   /* pppd's word, as in the file */
	const char *option; /* ours, without "--"; NULL: not supported yet; "" accepted as is */
	bool arg;	    /* takes the next word as its value */
	const char *undoes; /* this word takes back our option undoes (arg is then false) */
	const char *note;   /* why a word that changes nothing is accepted */
};

/* Every word the file may hold, ending with { NULL }. */
extern const struct conffile_word conffile_words[];

/*
 * The file as options: argv[0] is "config", then "--option" [value] ..., in the file's
 * order; line[i] and word[i] say where argv[i] came from.
 */
struct conffile {
	int argc;
	char **argv;
	unsigned int *line;
	const char **word;
	bool has_password; /* the file holds a password (the caller checks its mode) */
	mode_t mode;	   /* conffile_load(): the file's permission bits */
};

/*
 * Parses text[0..len) (no NUL needed); name is the file in error messages. 0, or -EINVAL
 * (-ENOMEM) with "name:line: what is wrong" in err and cf empty.
 */
int conffile_parse(struct conffile *cf, const char *name, const char *text, size_t len, char *err,
		   size_t err_cap);
/* Reads path and parses it; -ENOENT if the file does not exist (err says so too). */
int conffile_load(struct conffile *cf, const char *path, char *err, size_t err_cap);
/* Wipes the words (they may hold a password) and frees them; cf is empty afterwards. */
void conffile_free(struct conffile *cf);

#endif
