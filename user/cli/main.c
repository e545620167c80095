// SPDX-License-Identifier: GPL-2.0
/*
 * pppoe-xp: the command line. A table of subcommands, each with its own options struct
 * (config.h) and help line. `up` and `server` fork a daemon and wait for its first outcome
 * unless --foreground; the others talk to a running daemon over its control socket.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "conffile.h"
#include "config.h"
#include "control.h"
#include "daemon.h"
#include "discover.h"
#include "discovery.h"
#include "event_loop.h"
#include "instance.h"
#include "log.h"
#include "options.h"
#include "preflight.h"
#include "run_dir.h"
#include "server.h"
#include "stats_report.h"
#include "wg_device.h"

struct command {
	const char *name;
	const char *help;		   /* one line */
	const struct cli_options *options; /* NULL for help */
	int (*run)(int argc, char **argv);
	bool needs_root; /* raw sockets, XDP, netlink, or the root-only run directory */
};

static int cmd_help(int argc, char **argv);

/* Parent side of a detached start: print the daemon's report, return its code. */
static int report_outcome(const char *what, const struct daemon_report *r)
{
	if (r->code == PXP_EXIT_OK) {
		printf("%s\n", r->message);
		return PXP_EXIT_OK;
	}
	fprintf(stderr, "pppoe-xp: %s failed: %s (exit %d: %s)\n", what, r->message, r->code,
		pxp_exit_name(r->code));
	return r->code;
}

/* --logfile opened before the fork, so that the command says why it cannot be. */
static int open_logfile(const struct daemon_settings *d)
{
	int err;

	if (!d->logfile[0])
		return 0;
	err = pxp_log_open_file(d->logfile);
	if (err)
		pxp_err("--logfile '%s': %s", d->logfile, strerror(-err));
	return err;
}

/* A failed preflight's exit code: on a down link discovery cannot succeed. */
static int preflight_exit(int err)
{
	if (err == -ENETDOWN)
		return PXP_EXIT_NO_PADO;
	return err == -ENODEV ? PXP_EXIT_OPEN : PXP_EXIT_FATAL;
}

static int cmd_up(int argc, char **argv)
{
	struct daemon_report report;
	struct client_settings o;
	int notify_fd = -1, err, code;

	if (config_parse_up(argc, argv, &o)) {
		client_settings_wipe(&o);
		return PXP_EXIT_OPTION;
	}
	pxp_log_set_level(o.common.log_level);
	if (open_logfile(&o.common)) {
		client_settings_wipe(&o);
		return PXP_EXIT_OPTION;
	}
	/* A port without carrier yet gets as long as the first PADI would wait. */
	err = preflight_iface(o.iface, o.persist ? PREFLIGHT_LINK_WARN : PREFLIGHT_LINK_UP,
			      o.padi_timeout_ms ? o.padi_timeout_ms : DISC_DEFAULT_TIMEOUT_MS);
	if (err) {
		client_settings_wipe(&o);
		return preflight_exit(err);
	}
	if (!o.common.foreground) {
		err = daemon_fork(&notify_fd, &report);
		if (err < 0) {
			pxp_err("fork: %s", strerror(-err));
			client_settings_wipe(&o);
			return PXP_EXIT_FATAL;
		}
		if (err > 0) {
			client_settings_wipe(&o);
			return report_outcome("up", &report);
		}
	}
	pxp_log_hook_libbpf();
	code = client_run(&o, notify_fd);
	client_settings_wipe(&o);
	return code;
}

static int cmd_server(int argc, char **argv)
{
	struct daemon_report report;
	struct server_settings o;
	int notify_fd = -1, err;

	if (config_parse_server(argc, argv, &o))
		return PXP_EXIT_OPTION;
	pxp_log_set_level(o.common.log_level);
	if (open_logfile(&o.common))
		return PXP_EXIT_OPTION;
	err = preflight_iface(o.iface, PREFLIGHT_LINK_ANY, 0);
	if (err)
		return preflight_exit(err);
	if (!o.common.foreground) {
		err = daemon_fork(&notify_fd, &report);
		if (err < 0) {
			pxp_err("fork: %s", strerror(-err));
			return PXP_EXIT_FATAL;
		}
		if (err > 0)
			return report_outcome("server", &report);
	}
	pxp_log_hook_libbpf();
	return server_run(&o, notify_fd);
}

/* No daemon answers on iface: remove what a dead one left there, if it left a record. */
static int down_dead(const char *iface, int request_err)
{
	bool found;

	if (instance_clean_stale(iface, &found))
		return PXP_EXIT_FATAL;
	if (!found) {
		pxp_err("no pppoe-xp runs on %s (%s)", iface, strerror(-request_err));
		return PXP_EXIT_FATAL;
	}
	control_remove_stale(iface);
	return PXP_EXIT_OK;
}

/* The daemon's teardown: Terminate-Request retries and the PADT. */
#define DOWN_WAIT_MS 15000

static int cmd_down(int argc, char **argv)
{
	struct down_options o;
	FILE *sink;
	int err, i;

	if (config_parse_down(argc, argv, &o))
		return PXP_EXIT_OPTION;
	sink = fopen("/dev/null", "we");
	if (!sink)
		return PXP_EXIT_FATAL;
	err = control_request(o.iface, "down", sink);
	fclose(sink);
	if (err)
		return down_dead(o.iface, err);
	/*
	 * Return once the daemon has sent its Terminate and PADT and detached: its socket
	 * closes, then its record goes. ip-down may still run after (pppd gives it its time;
	 * the pid file names the daemon until it ends), and holds nothing a new `up` needs.
	 */
	for (i = 0; i < DOWN_WAIT_MS / 100; i++) {
		if (!control_daemon_running(o.iface) && !instance_running(o.iface))
			return PXP_EXIT_OK;
		usleep(100 * 1000);
	}
	pxp_err("pppoe-xp on %s did not stop within %d s", o.iface, DOWN_WAIT_MS / 1000);
	return PXP_EXIT_FATAL;
}

struct status_all {
	bool json;
	unsigned int count;
	int err;
};

static void status_one(void *ctx, const char *iface)
{
	struct status_all *s = ctx;
	int err;

	if (s->json && s->count)
		fputc(',', stdout);
	err = control_request(iface, s->json ? "status-json" : "status", stdout);
	if (err && instance_write_stale_status(iface, stdout, s->json)) {
		/* A socket without a daemon or its record: say so, keep JSON valid. */
		if (s->json)
			printf("{\"iface\":\"%s\",\"state\":\"not running\"}\n", iface);
		else
			printf("iface: %s\nstate: not running\n", iface);
	}
	if (!s->json)
		fputc('\n', stdout);
	s->count++;
}

static int cmd_status(int argc, char **argv)
{
	struct status_options o;
	struct status_all all;
	int err;

	if (config_parse_status(argc, argv, &o))
		return PXP_EXIT_OPTION;
	if (o.iface[0]) {
		err = control_request(o.iface, o.json ? "status-json" : "status", stdout);
		if (err && instance_write_stale_status(o.iface, stdout, o.json)) {
			pxp_err("no pppoe-xp runs on %s (%s)", o.iface, strerror(-err));
			return PXP_EXIT_FATAL;
		}
		return PXP_EXIT_OK;
	}
	all = (struct status_all){ .json = o.json };
	if (o.json)
		fputc('[', stdout);
	err = control_for_each(status_one, &all);
	if (o.json)
		fputs("]\n", stdout);
	else if (!err && !all.count)
		puts("no sessions");
	if (err) {
		pxp_err("listing %s: %s", pxp_run_dir(), strerror(-err));
		return PXP_EXIT_FATAL;
	}
	return PXP_EXIT_OK;
}

/* One snapshot from the daemon on iface: 0, -ENOENT/-ECONNREFUSED (none), -EBADMSG. */
static int fetch_stats(const char *iface, struct stats_snapshot *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	err = control_request(iface, "stats", f);
	fclose(f);
	if (!err)
		err = stats_snapshot_parse(s, text, len);
	free(text);
	return err;
}

struct stats_all {
	struct stats_snapshot *snap;
	bool json;
	unsigned int count;
};

static void stats_one(void *ctx, const char *iface)
{
	struct stats_all *a = ctx;

	if (fetch_stats(iface, a->snap))
		return; /* a dead daemon's socket: nothing to count */
	if (a->json && a->count)
		fputc(',', stdout);
	else if (a->count)
		fputc('\n', stdout);
	stats_print_counters(a->snap, stdout, a->json);
	a->count++;
}

static volatile sig_atomic_t watch_stop;

static void watch_signal(int sig)
{
	(void)sig;
	watch_stop = 1;
}

/* Sleeps ms unless SIGINT/SIGTERM comes first. */
static void watch_sleep(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (!watch_stop && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Redraws the rates every interval until SIGINT/SIGTERM, the daemon goes or the session ends. */
static int stats_watch(const struct stats_options *o, struct stats_snapshot *prev,
		       struct stats_snapshot *cur)
{
	struct sigaction sa = { .sa_handler = watch_signal };
	bool redraw = !o->json && isatty(STDOUT_FILENO);
	bool was_up = false;
	int err;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL); /* no SA_RESTART: the sleep ends at once */
	sigaction(SIGTERM, &sa, NULL);
	err = fetch_stats(o->iface, prev);
	if (err) {
		pxp_err("no pppoe-xp runs on %s (%s)", o->iface, strerror(-err));
		return PXP_EXIT_FATAL;
	}
	while (!watch_stop) {
		was_up = was_up || !strcmp(prev->state, "up");
		watch_sleep(o->interval_ms);
		if (watch_stop)
			break;
		err = fetch_stats(o->iface, cur);
		if (err) {
			fprintf(stderr, "pppoe-xp: the daemon on %s ended\n", o->iface);
			break;
		}
		if (redraw)
			fputs("\033[H\033[2J", stdout);
		else if (!o->json)
			fputc('\n', stdout);
		stats_print_rates(prev, cur, stdout, o->json);
		if (was_up && !strcmp(cur->role, "client") && strcmp(cur->state, "up")) {
			fprintf(stderr, "pppoe-xp: the session on %s ended (%s)\n", o->iface,
				cur->state);
			break;
		}
		memcpy(prev, cur, sizeof(*prev));
	}
	return PXP_EXIT_OK;
}

static int cmd_stats(int argc, char **argv)
{
	struct stats_snapshot *snap = NULL;
	struct stats_options o;
	struct stats_all all;
	int err, code = PXP_EXIT_OK;

	if (config_parse_stats(argc, argv, &o))
		return PXP_EXIT_OPTION;
	snap = calloc(2, sizeof(*snap));
	if (!snap)
		return PXP_EXIT_FATAL;
	if (o.watch) {
		code = stats_watch(&o, &snap[0], &snap[1]);
	} else if (o.iface[0]) {
		err = fetch_stats(o.iface, snap);
		if (err) {
			pxp_err("no pppoe-xp runs on %s (%s)", o.iface, strerror(-err));
			code = PXP_EXIT_FATAL;
		} else {
			stats_print_counters(snap, stdout, o.json);
		}
	} else {
		all = (struct stats_all){ .snap = snap, .json = o.json };
		if (o.json)
			fputc('[', stdout);
		err = control_for_each(stats_one, &all);
		if (o.json)
			fputs("]\n", stdout);
		if (err) {
			pxp_err("listing %s: %s", pxp_run_dir(), strerror(-err));
			code = PXP_EXIT_FATAL;
		}
	}
	free(snap);
	return code;
}

static int cmd_discover(int argc, char **argv)
{
	struct discover_options o;
	int err;

	if (config_parse_discover(argc, argv, &o))
		return PXP_EXIT_OPTION;
	err = preflight_iface(o.iface, PREFLIGHT_LINK_UP, o.timeout_ms);
	if (err)
		return preflight_exit(err);
	err = discover_run(&o, stdout);
	if (err == -ENOENT) {
		fprintf(stderr, "pppoe-xp: no access concentrator answered on %s\n", o.iface);
		return PXP_EXIT_NO_PADO;
	}
	return err ? PXP_EXIT_FATAL : PXP_EXIT_OK;
}

static int cmd_wg(int argc, char **argv)
{
	struct daemon_report report;
	struct wg_device_settings o;
	int notify_fd = -1, err;

	if (config_parse_wg(argc, argv, &o))
		return PXP_EXIT_OPTION;
	pxp_log_set_level(o.log_level);
	if (!o.foreground) {
		err = daemon_fork(&notify_fd, &report);
		if (err < 0) {
			pxp_err("fork: %s", strerror(-err));
			return PXP_EXIT_FATAL;
		}
		if (err > 0)
			return report_outcome("wg", &report);
	}
	return wg_device_run(&o, notify_fd);
}

static const struct command commands[] = {
	{ "up", "start a PPPoE session on IFACE; returns once IPCP is open", &config_up_options,
	  cmd_up, true },
	{ "down",
	  "end the session on IFACE (LCP Terminate, then PADT); after a dead daemon, remove "
	  "what it left",
	  &config_down_options, cmd_down, true },
	{ "status", "show the session(s): state, addresses, counters", &config_status_options,
	  cmd_status, true },
	{ "stats",
	  "data path counters per queue (a WireGuard interface: traffic, batching, drops); "
	  "--watch: live rates (packets/s, bits/s)",
	  &config_stats_options, cmd_stats, true },
	{ "discover", "list the access concentrators and services on IFACE",
	  &config_discover_options, cmd_discover, true },
	{ "server", "run a PPPoE access concentrator on IFACE", &config_server_options, cmd_server,
	  true },
	{ "wg",
	  "create the WireGuard interface IFNAME (TUN, UDP, /var/run/wireguard/IFNAME.sock) "
	  "for wg(8) and wg-quick(8) to drive; detaches",
	  &config_wg_options, cmd_wg, true },
	{ "help", "show this help", NULL, cmd_help, false },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* The exit codes are those pxp_exit_name() names (daemon.h), all below this. */
#define MAX_EXIT_CODE 31

static bool exit_code_named(int code)
{
	return strcmp(pxp_exit_name(code), "unknown");
}

static int cmd_help(int argc, char **argv)
{
	const struct command *c;
	int code;

	(void)argc;
	(void)argv;
	printf("usage: pppoe-xp COMMAND [ARGS] [options]\n"
	       "       pppoe-xp COMMAND --help    the command's options and their defaults\n"
	       "       pppoe-xp --version\n\n");
	for (c = commands; c < commands + N_COMMANDS; c++)
		printf("  %-9s %-8s %s\n", c->name, c->options ? c->options->operands : "",
		       c->help);
	printf("\nExit codes:\n");
	for (code = 0; code <= MAX_EXIT_CODE; code++)
		if (exit_code_named(code))
			printf("  %2d  %-31s %s\n", code, pxp_exit_name(code),
			       pxp_exit_pppd_name(code));
	printf("\nSee pppoe-xp(8) and docs/operation.md.\n");
	return PXP_EXIT_OK;
}

/* Each word of the configuration file and what it becomes (conffile.c's table). */
static void print_man_config_words(void)
{
	printf(".SH \"CONFIGURATION FILE\"\n"
	       "The words of /etc/pppoe-xp/IFACE.conf (see FILES), pppd's, and the option of\n"
	       ".B up\n"
	       "each stands for.\n");
	for (const struct conffile_word *w = conffile_words; w->word; w++) {
		printf(".TP\n\\fB");
		cli_man_text(w->word, stdout);
		printf("\\fR%s\n", w->arg ? " \\fIVALUE\\fR" : "");
		if (!w->option) {
			printf("not supported yet (an error)\n");
		} else if (w->undoes) {
			printf("takes back an earlier \\fB\\-\\-");
			cli_man_text(w->undoes, stdout);
			printf("\\fR\n");
		} else if (!w->option[0]) {
			printf("accepted, changes nothing: ");
			cli_man_text(w->note, stdout);
			printf("\n");
		} else {
			printf("\\fB\\-\\-");
			cli_man_text(w->option, stdout);
			printf("\\fR\n");
		}
	}
}

/* The sections of pppoe-xp(8) made from the tables, for the build to put into its prose. */
static void print_man_sections(void)
{
	const struct command *c;
	int code;

	printf(".SH COMMANDS\n");
	for (c = commands; c < commands + N_COMMANDS; c++) {
		if (!c->options)
			continue;
		printf(".SS \"%s %s\"\n%s.\n", c->name, c->options->operands, c->help);
		cli_print_man(c->options, stdout);
	}
	print_man_config_words();
	printf(".SH \"EXIT STATUS\"\n"
	       "The numbers and meanings of pppd's (its name in parentheses), so that scripts "
	       "and netifd read them as pppd's; docs/operation.md says more of each.\n");
	for (code = 0; code <= MAX_EXIT_CODE; code++)
		if (exit_code_named(code))
			printf(".TP\n.B %d\n%s (%s): %s.\n", code, pxp_exit_name(code),
			       pxp_exit_pppd_name(code), pxp_exit_causes(code));
}

/* What wg-quick's WG_QUICK_USERSPACE_IMPLEMENTATION runs: `pppoe-xp-wg IFNAME` is `wg`. */
#define WG_ALIAS "pppoe-xp-wg"

static int run_command(const struct command *c, int argc, char **argv)
{
	if (c->options && cli_wants_help(argc, argv, c->options)) {
		cli_print_help(c->options, c->help, stdout);
		return PXP_EXIT_OK;
	}
	if (c->needs_root && geteuid()) {
		pxp_err("%s: must run as root", c->name);
		return PXP_EXIT_NOT_ROOT;
	}
	return c->run(argc, argv);
}

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');
	size_t i;

	if (!strcmp(base ? base + 1 : argv[0], WG_ALIAS)) {
		for (i = 0; strcmp(commands[i].name, "wg"); i++)
			;
		return run_command(&commands[i], argc, argv);
	}
	if (argc < 2) {
		cmd_help(0, NULL);
		return PXP_EXIT_OPTION;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return cmd_help(0, NULL);
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("pppoe-xp %s\n", PXP_VERSION);
		return PXP_EXIT_OK;
	}
	if (!strcmp(argv[1], "--man-sections")) { /* for the build, not for users */
		print_man_sections();
		return PXP_EXIT_OK;
	}
	for (i = 0; i < N_COMMANDS; i++) {
		const struct command *c = &commands[i];

		if (strcmp(argv[1], c->name))
			continue;
		return run_command(c, argc - 1, argv + 1);
	}
	pxp_err("unknown command '%s' (pppoe-xp help)", argv[1]);
	return PXP_EXIT_OPTION;
}
