// SPDX-License-Identifier: GPL-2.0
#include "conffile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ppp_words.h"

/* clang-format off */
#define OPT(w, o)	{ w, o, false, NULL, NULL }
#define OPT_ARG(w, o)	{ w, o, true, NULL, NULL }
#define UNDO(w, o)	{ w, "", false, o, NULL }
/* What we always do, or what means nothing on PPPoE: accepted, nothing to pass on. */
#define SAME(w, why)	{ w, "", false, NULL, why }
#define NOT_YET(w, arg)	{ w, NULL, arg, NULL, NULL }
/* clang-format on */

/*
 * pppd's word -> our option. tests/unit/test_cli_config.c checks each option against the
 * table of `up` (it exists, and takes a value exactly when the word does).
 */
const struct conffile_word conffile_words[] = {
	OPT_ARG("user", "user"),
	OPT_ARG("password", "password"),
	OPT("persist", "persist"),
	UNDO("nopersist", "persist"),
	OPT_ARG("holdoff", "holdoff"),
	OPT_ARG("maxfail", "maxfail"),
	OPT_ARG("lcp-echo-interval", "lcp-echo-interval"),
	OPT_ARG("lcp-echo-failure", "lcp-echo-failure"),
	OPT("lcp-echo-adaptive", "keepalive-adaptive"),
	OPT("defaultroute", "defaultroute"),
	UNDO("nodefaultroute", "defaultroute"),
	UNDO("-defaultroute", "defaultroute"),
	OPT("replacedefaultroute", "replacedefaultroute"),
	UNDO("noreplacedefaultroute", "replacedefaultroute"),
	OPT_ARG("defaultroute-metric", "metric"),
	OPT("defaultroute6", "defaultroute6"),
	UNDO("nodefaultroute6", "defaultroute6"),
	OPT("usepeerdns", "usepeerdns"),
	OPT_ARG("mtu", "mtu"),
	NOT_YET("mru", true),
	OPT("+ipv6", "ipv6"),
	UNDO("noipv6", "ipv6"),
	UNDO("-ipv6", "ipv6"),
	NOT_YET("ipv6", true), /* pppd's "ipv6 LOCAL,REMOTE" interface identifiers */
	OPT_ARG("pppoe-service", "service"),
	OPT_ARG("rp_pppoe_service", "service"),
	OPT_ARG("pppoe-ac", "ac"),
	OPT_ARG("rp_pppoe_ac", "ac"),
	OPT_ARG("pppoe-mac", "ac-mac"),
	OPT_ARG("rp_pppoe_mac", "ac-mac"),
	OPT_ARG("host-uniq", "host-uniq"),
	OPT_ARG("pppoe-host-uniq", "host-uniq"),
	OPT_ARG("pppoe-padi-timeout", "padi-timeout"),
	OPT_ARG("pppoe-padi-attempts", "padi-attempts"),
	OPT_ARG("ifname", "ifname"),
	OPT_ARG("ipparam", "ipparam"),
	OPT_ARG("ip-up-script", "ip-up-script"),
	OPT_ARG("ip-down-script", "ip-down-script"),
	OPT_ARG("ipv6-up-script", "ipv6-up-script"),
	OPT_ARG("ipv6-down-script", "ipv6-down-script"),
	OPT("debug", "debug"),
	OPT_ARG("logfile", "logfile"),
	OPT("nodetach", "foreground"),
	NOT_YET("demand", false),
	NOT_YET("idle", true),
	NOT_YET("remotename", true),
	NOT_YET("file", true),
	SAME("noauth", "the client never asks the AC to authenticate itself"),
	SAME("hide-password", "a password is never logged"),
	SAME("noipdefault", "the AC assigns the address"),
	SAME("noaccomp", "ACFC means nothing on PPPoE (RFC 2516)"),
	SAME("nopcomp", "PFC means nothing on PPPoE (RFC 2516)"),
	SAME("default-asyncmap", "ACCM means nothing on PPPoE (RFC 2516)"),
	SAME("novj", "no compression is negotiated"),
	SAME("novjccomp", "no compression is negotiated"),
	SAME("noccp", "no compression is negotiated"),
	{ NULL },
};

static const struct conffile_word *lookup(const char *word)
{
	for (const struct conffile_word *w = conffile_words; w->word; w++)
		if (!strcmp(w->word, word))
			return w;
	return NULL;
}

static int push(struct conffile *cf, const char *text, size_t len, unsigned int line,
		const char *word)
{
	char *copy;

	if (cf->argc >= CONFFILE_MAX_WORDS)
		return -E2BIG;
	copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, text, len);
	copy[len] = '\0';
	cf->argv[cf->argc] = copy;
	cf->line[cf->argc] = line;
	cf->word[cf->argc] = word;
	cf->argc++;
	cf->argv[cf->argc] = NULL;
	return 0;
}

static void keep(struct conffile *cf, int *kept, int i)
{
	cf->argv[*kept] = cf->argv[i];
	cf->line[*kept] = cf->line[i];
	cf->word[*kept] = cf->word[i];
	(*kept)++;
}

/* Takes back every earlier "--option" (an undo names a flag; values are skipped over). */
static void undo(struct conffile *cf, const char *option)
{
	int i, kept = 1;

	for (i = 1; i < cf->argc; i++) {
		const struct conffile_word *m = lookup(cf->word[i]);

		if (m && m->arg && i + 1 < cf->argc) {
			keep(cf, &kept, i++);
			keep(cf, &kept, i);
		} else if (!strcmp(cf->argv[i] + 2, option)) {
			free(cf->argv[i]);
		} else {
			keep(cf, &kept, i);
		}
	}
	cf->argc = kept;
	cf->argv[kept] = NULL;
}

static int take(struct conffile *cf, struct ppp_words *p, const struct conffile_word *m,
		const struct ppp_word *w)
{
	char opt[64];
	struct ppp_word value;
	int ret;

	if (!m->option)
		return ppp_words_error(p, w->line, "'%s' is not supported yet", m->word);
	if (m->undoes) {
		undo(cf, m->undoes);
		return 0;
	}
	if (m->arg) {
		/* As pppd, the value is the next word, on this line or a later one. */
		while ((ret = ppp_words_next(p, &value)) == 0 && p->pos < p->len)
			;
		if (ret < 0)
			return ret;
		if (ret == 0)
			return ppp_words_error(p, w->line, "'%s' needs a value", m->word);
	}
	if (!m->option[0])
		return 0;
	ret = snprintf(opt, sizeof(opt), "--%s", m->option);
	ret = push(cf, opt, (size_t)ret, w->line, m->word);
	if (!ret && m->arg) {
		ret = push(cf, value.buf, value.len, value.line, m->word);
		if (!strcmp(m->option, "password"))
			cf->has_password = true;
	}
	if (m->arg)
		explicit_bzero(&value, sizeof(value));
	return ret;
}

int conffile_parse(struct conffile *cf, const char *name, const char *text, size_t len, char *err,
		   size_t err_cap)
{
	const struct conffile_word *m, *prev = NULL;
	struct ppp_words p;
	struct ppp_word w;
	int ret = 0;

	memset(cf, 0, sizeof(*cf));
	ppp_words_init(&p, name, text, len, PPP_WORD_MAX, err, err_cap);
	cf->argv = calloc(CONFFILE_MAX_WORDS + 1, sizeof(*cf->argv));
	cf->line = calloc(CONFFILE_MAX_WORDS + 1, sizeof(*cf->line));
	cf->word = calloc(CONFFILE_MAX_WORDS + 1, sizeof(*cf->word));
	if (!cf->argv || !cf->line || !cf->word)
		ret = -ENOMEM;
	if (!ret)
		ret = push(cf, "config", 6, 0, "");
	while (!ret && p.pos < p.len) {
		ret = ppp_words_next(&p, &w);
		if (ret <= 0)
			continue;
		m = lookup(w.buf);
		/*
		 * An unknown word is not echoed when it may be part of a password: after one
		 * (an unquoted password with a space), or long (a password on a line of its own).
		 */
		if (!m && prev && prev->option && !strcmp(prev->option, "password"))
			ret = ppp_words_error(&p, w.line,
					      "unknown option after '%s' (quote a password "
					      "that holds spaces)",
					      prev->word);
		else if (!m && w.len > 32)
			ret = ppp_words_error(&p, w.line, "unknown option (%zu bytes long)", w.len);
		else if (!m)
			ret = ppp_words_error(&p, w.line, "unknown option '%s'", w.buf);
		else
			ret = take(cf, &p, m, &w);
		prev = m;
	}
	explicit_bzero(&w, sizeof(w));
	if (ret == -E2BIG)
		ret = ppp_words_error(&p, p.line, "more than %d words of options",
				      CONFFILE_MAX_WORDS);
	if (ret == -ENOMEM && err && err_cap)
		snprintf(err, err_cap, "%s: out of memory", name);
	if (ret)
		conffile_free(cf);
	return ret;
}

int conffile_load(struct conffile *cf, const char *path, char *err, size_t err_cap)
{
	char *text = NULL;
	struct stat st;
	size_t got = 0;
	ssize_t n;
	int fd, ret;

	memset(cf, 0, sizeof(*cf));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, err_cap, "cannot read %s: %s", path, strerror(errno));
		return ret;
	}
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		snprintf(err, err_cap, "cannot read %s: %s", path, strerror(errno));
		goto close_fd;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		snprintf(err, err_cap, "%s: not a regular file", path);
		goto close_fd;
	}
	text = malloc(CONFFILE_MAX_BYTES + 1);
	if (!text) {
		ret = -ENOMEM;
		snprintf(err, err_cap, "%s: out of memory", path);
		goto close_fd;
	}
	/* Up to one byte more than allowed, to tell a file too long. */
	while (got <= CONFFILE_MAX_BYTES) {
		n = read(fd, text + got, CONFFILE_MAX_BYTES + 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			snprintf(err, err_cap, "cannot read %s: %s", path, strerror(errno));
			goto wipe_text;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got > CONFFILE_MAX_BYTES) {
		ret = -EFBIG;
		snprintf(err, err_cap, "%s: larger than %d bytes", path, CONFFILE_MAX_BYTES);
		goto wipe_text;
	}
	ret = conffile_parse(cf, path, text, got, err, err_cap);
	cf->mode = st.st_mode & 07777;
wipe_text:
	explicit_bzero(text, got);
	free(text);
close_fd:
	close(fd);
	return ret;
}

void conffile_free(struct conffile *cf)
{
	for (int i = 0; cf->argv && i < cf->argc; i++) {
		explicit_bzero(cf->argv[i], strlen(cf->argv[i]));
		free(cf->argv[i]);
	}
	free(cf->argv);
	free(cf->line);
	free(cf->word);
	memset(cf, 0, sizeof(*cf));
}
