// SPDX-License-Identifier: GPL-2.0
/* The instance record and the clean-up of a dead instance; see instance.h. */
#include "instance.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon.h"
#include "discovery.h"
#include "log.h"
#include "mac.h"
#include "pppoe_tags.h"
#include "raw_socket.h"
#include "resolv_file.h"
#include "run_dir.h"
#include "status.h"

#define RECORD_SUFFIX ".session"
/* How long an instance that no longer answers is given to finish exiting. */
#define EXIT_WAIT_MS  3000
#define EXIT_POLL_MS  50

/* ------------------------------------------------------------ the file */

enum field_kind { FIELD_NUM, FIELD_TEXT, FIELD_MAC, FIELD_IPV4 };

/* One line "key value" of the record; the table drives writing and reading alike. */
struct field {
	const char *key;
	enum field_kind kind;
	size_t offset, size;
};

#define FIELD(key, kind, member)                                      \
	{                                                             \
		key, kind, offsetof(struct instance_record, member),  \
			sizeof(((struct instance_record *)0)->member) \
	}

static const struct field fields[] = {
	FIELD("pid", FIELD_NUM, pid),
	FIELD("role", FIELD_TEXT, role),
	FIELD("start_time", FIELD_NUM, start_time),
	FIELD("netns", FIELD_NUM, netns),
	FIELD("ifname", FIELD_TEXT, ifname),
	FIELD("vlan_id", FIELD_NUM, vlan_id),
	FIELD("wan_ifindex", FIELD_NUM, dp.wan_ifindex),
	FIELD("wan_prog_id", FIELD_NUM, dp.wan_prog_id),
	FIELD("netdev", FIELD_TEXT, dp.netdev),
	FIELD("netdev_ifindex", FIELD_NUM, dp.netdev_ifindex),
	FIELD("netdev_kind", FIELD_TEXT, dp.netdev_kind),
	FIELD("session_id", FIELD_NUM, session_id),
	FIELD("ac_mac", FIELD_MAC, ac_mac),
	FIELD("local_mac", FIELD_MAC, local_mac),
	FIELD("resolv_written", FIELD_NUM, resolv_written),
	FIELD("resolv_file", FIELD_TEXT, resolv_file),
	FIELD("route4", FIELD_NUM, route4),
	FIELD("route4_metric", FIELD_NUM, route4_metric),
	FIELD("route6", FIELD_NUM, route6),
	FIELD("route6_metric", FIELD_NUM, route6_metric),
	FIELD("replaced", FIELD_NUM, replaced),
	FIELD("replaced_family", FIELD_NUM, replaced_route.family),
	FIELD("replaced_protocol", FIELD_NUM, replaced_route.protocol),
	FIELD("replaced_scope", FIELD_NUM, replaced_route.scope),
	FIELD("replaced_ifindex", FIELD_NUM, replaced_route.ifindex),
	FIELD("replaced_metric", FIELD_NUM, replaced_route.metric),
	FIELD("replaced_gateway", FIELD_IPV4, replaced_route.gateway),
	FIELD("replaced_prefsrc", FIELD_IPV4, replaced_route.prefsrc),
};

#define NR_FIELDS (sizeof(fields) / sizeof(fields[0]))

static int record_path(const char *iface, char *path, size_t cap)
{
	int n = snprintf(path, cap, "%s/%s" RECORD_SUFFIX, pxp_run_dir(), iface);

	return n < 0 || (size_t)n >= cap ? -ENAMETOOLONG : 0;
}

/* Numbers are unsigned in the file; pid and ifindexes are never negative. */
static unsigned long long num_get(const void *p, size_t size)
{
	switch (size) {
	case 1:
		return *(const uint8_t *)p;
	case 2:
		return *(const uint16_t *)p;
	case 4:
		return *(const uint32_t *)p;
	default:
		return *(const unsigned long long *)p;
	}
}

static int num_set(void *p, size_t size, const char *text)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || end == text || *end || (size < 8 && v >> (size * 8)))
		return -EBADMSG;
	if (size == 1)
		*(uint8_t *)p = (uint8_t)v;
	else if (size == 2)
		*(uint16_t *)p = (uint16_t)v;
	else if (size == 4)
		*(uint32_t *)p = (uint32_t)v;
	else
		*(unsigned long long *)p = v;
	return 0;
}

static void field_write(FILE *f, const struct field *fd, const struct instance_record *r)
{
	const void *p = (const char *)r + fd->offset;
	const uint8_t *m = p;

	switch (fd->kind) {
	case FIELD_NUM:
		fprintf(f, "%s %llu\n", fd->key, num_get(p, fd->size));
		break;
	case FIELD_TEXT:
		if (*(const char *)p)
			fprintf(f, "%s %s\n", fd->key, (const char *)p);
		break;
	case FIELD_MAC:
		fprintf(f, "%s %02x:%02x:%02x:%02x:%02x:%02x\n", fd->key, m[0], m[1], m[2], m[3],
			m[4], m[5]);
		break;
	case FIELD_IPV4:
		fprintf(f, "%s %u.%u.%u.%u\n", fd->key, m[0], m[1], m[2], m[3]);
		break;
	}
}

static int field_read(const struct field *fd, struct instance_record *r, const char *value)
{
	void *p = (char *)r + fd->offset;

	switch (fd->kind) {
	case FIELD_NUM:
		return num_set(p, fd->size, value);
	case FIELD_TEXT:
		if (strlen(value) >= fd->size)
			return -EBADMSG;
		strcpy(p, value);
		return 0;
	case FIELD_MAC:
		return pxp_mac_parse(value, p) ? -EBADMSG : 0;
	case FIELD_IPV4:
		return inet_pton(AF_INET, value, p) == 1 ? 0 : -EBADMSG;
	}
	return -EBADMSG;
}

static unsigned long long our_netns(void)
{
	struct stat st;

	return stat("/proc/self/ns/net", &st) ? 0 : (unsigned long long)st.st_ino;
}

/* Field 22 of /proc/PID/stat (clock ticks after boot); 0 if the process is gone or a zombie. */
static unsigned long long process_start_time(int pid)
{
	unsigned long long start = 0;
	char path[32], buf[1024], state;
	const char *p;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
	if (!p || sscanf(p + 1,
			 " %c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
			 "%*s %llu",
			 &state, &start) != 2)
		return 0;
	return state == 'Z' || state == 'X' ? 0 : start;
}

static bool instance_alive(const struct instance_record *r)
{
	return r->pid > 0 && process_start_time(r->pid) == r->start_time;
}

static bool is_server(const struct instance_record *r)
{
	return !strcmp(r->role, "server");
}

static const char *role_of(const struct instance_record *r)
{
	return is_server(r) ? "server" : "client";
}

int instance_record_init(struct instance_record *r)
{
	memset(r, 0, sizeof(*r));
	r->pid = (int)getpid();
	r->start_time = process_start_time(r->pid);
	r->netns = our_netns();
	return r->start_time && r->netns ? 0 : -ENOENT;
}

/*
 * The record rewritten where it lies, for a full run directory: the old record's block is
 * reused, so no space is needed (a record is far smaller than a block). Not atomic as the
 * rename is, but a stale record (an old session id and netdev ifindex) would have the clean-up
 * after a crash leave pxp0 behind, and the next `up` refuse it as someone else's.
 */
static int record_write_in_place(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	errno = 0; /* a short write sets none */
	if (pwrite(fd, text, len, 0) != (ssize_t)len || ftruncate(fd, (off_t)len))
		err = errno ? -errno : -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

int instance_record_write(const char *iface, const struct instance_record *r)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8], *text = NULL;
	size_t len = 0;
	unsigned int i;
	FILE *f;
	int err;

	err = record_path(iface, path, sizeof(path));
	if (err)
		return err;
	f = open_memstream(&text, &len);
	if (!f)
		return -errno;
	for (i = 0; i < NR_FIELDS; i++)
		field_write(f, &fields[i], r);
	if (fclose(f)) {
		free(text);
		return -errno;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f) {
		err = -errno;
	} else {
		fwrite(text, 1, len, f);
		err = fclose(f) ? -errno : 0;
		if (!err && rename(tmp, path))
			err = -errno;
		if (err)
			unlink(tmp);
	}
	/* A first record (none to rewrite) still fails: `up` then stops before it made anything. */
	if ((err == -ENOSPC || err == -EDQUOT) && !record_write_in_place(path, text, len))
		err = 0;
	free(text);
	return err;
}

/* 0, -ENOENT (no record) or -EBADMSG (unreadable: logged). Unknown keys are skipped. */
static int record_read(const char *iface, struct instance_record *r)
{
	char path[PATH_MAX], line[PATH_MAX + 64], key[32];
	unsigned int i;
	int err = 0, n;
	FILE *f;

	memset(r, 0, sizeof(*r));
	err = record_path(iface, path, sizeof(path));
	if (err)
		return err;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (!err && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%31s %n", key, &n) != 1)
			continue;
		for (i = 0; i < NR_FIELDS; i++)
			if (!strcmp(key, fields[i].key))
				err = field_read(&fields[i], r, line + n);
	}
	fclose(f);
	if (!err &&
	    (r->session_id >= 0xffff || (r->replaced && r->replaced_route.family != AF_INET)))
		err = -EBADMSG;
	if (err)
		pxp_warn("ignoring the unreadable record %s", path);
	return err;
}

bool instance_running(const char *iface)
{
	struct instance_record r;

	return !record_read(iface, &r) && instance_alive(&r);
}

void instance_record_remove(const char *iface)
{
	char path[PATH_MAX];

	if (!record_path(iface, path, sizeof(path)))
		unlink(path);
}

/* ------------------------------------------------------------ clean-up */

/* The AC would keep the session for minutes and may refuse a new one meanwhile. */
static void send_stale_padt(const char *iface, const struct instance_record *r)
{
	uint8_t frame[PPPOE_DISC_FRAME_MAX];
	struct raw_socket sock;
	int len, err;

	if (!r->session_id)
		return;
	err = raw_socket_open(&sock, iface, PXP_ETH_P_PPP_DISC, r->vlan_id, 0);
	if (err)
		goto out;
	len = disc_build_padt(frame, sizeof(frame), r->local_mac, r->ac_mac, r->session_id,
			      "stale session of a dead pppoe-xp");
	err = len < 0 ? len : raw_socket_send(&sock, frame, (size_t)len);
	raw_socket_close(&sock);
out:
	if (err)
		pxp_warn("could not send the PADT for stale session %u on %s: %s", r->session_id,
			 iface, strerror(-err));
	else
		pxp_info("sent PADT for stale session %u on %s", r->session_id, iface);
}

/* Deletes our default route of family r describes, if it is still there. */
static void remove_stale_route(struct pxp_netlink *nl, const struct instance_record *r, int family,
			       uint32_t metric)
{
	struct pxp_route ours;
	int err;

	pxp_route_default(&ours, family, (int)r->dp.netdev_ifindex, metric);
	err = pxp_netlink_route_del(nl, &ours);
	/* Usually gone with the netdev already. */
	if (err && err != -ENODEV)
		pxp_warn("removing the default route pppoe-xp left: %s", strerror(-err));
}

/*
 * The routes of a dead instance: ours only (by PXP_RTPROT, netdev and metric), and the
 * default route --replacedefaultroute took out goes back, as ipv4_down() in client.c does.
 */
static void clean_stale_routes(const char *iface, const struct instance_record *r)
{
	struct pxp_netlink *nl;
	char what[128];
	int err;

	if (!r->route4 && !r->route6 && !r->replaced)
		return;
	err = pxp_netlink_open(&nl);
	if (err) {
		pxp_warn("cannot reach rtnetlink to clean up the routes of %s: %s", iface,
			 strerror(-err));
		return;
	}
	if (r->route4)
		remove_stale_route(nl, r, AF_INET, r->route4_metric);
	if (r->route6)
		remove_stale_route(nl, r, AF_INET6, r->route6_metric);
	if (r->replaced) {
		pxp_route_describe(&r->replaced_route, what, sizeof(what));
		err = pxp_netlink_route_add(nl, &r->replaced_route);
		if (err && err != -EEXIST)
			pxp_warn("could not restore the default route %s: %s", what,
				 strerror(-err));
		else
			pxp_info("restored the default route %s", what);
	}
	pxp_netlink_close(nl);
}

int instance_clean_stale(const char *iface, bool *found)
{
	struct instance_record r;
	unsigned int i;
	int err;

	*found = false;
	err = record_read(iface, &r);
	/*
	 * A daemon that no longer answers may be exiting: a clean exit closes the control
	 * socket before removing the record, and a killed one takes a moment to die.
	 */
	for (i = 0; !err && instance_alive(&r); i++) {
		if (i == EXIT_WAIT_MS / EXIT_POLL_MS) {
			pxp_err("pppoe-xp (pid %d) still runs on %s but does not answer", r.pid,
				iface);
			return -EBUSY;
		}
		usleep(EXIT_POLL_MS * 1000);
		err = record_read(iface, &r);
	}
	if (err == -ENOENT)
		return 0;
	if (!err && r.netns && r.netns != our_netns()) { /* 0: a record from before netns */
		pxp_err("the dead pppoe-xp on %s ran in another network namespace: clean up there",
			iface);
		return -EXDEV;
	}
	*found = true;
	if (!err) {
		pxp_info("pppoe-xp (pid %d) on %s is dead: removing what it left", r.pid, iface);
		send_stale_padt(iface, &r);
		err = pxp_dp_remove_owned(&r.dp);
		clean_stale_routes(iface, &r);
		/* Our lines only, as ipv4_down() in client.c takes them out. */
		if (r.resolv_written && !resolv_remove(r.resolv_file, iface))
			pxp_info("took our nameserver lines out of %s",
				 r.resolv_file[0] ? r.resolv_file : "our resolv file");
		if (is_server(&r))
			instance_remove_ac_netdevs();
		daemon_remove_pid_file(iface, r.pid);
	}
	if (err && err != -EBADMSG) {
		/* The record stays: a later `down` or `up` finishes the job. */
		pxp_err("removing what pppoe-xp left on %s: %s", iface, strerror(-err));
		return err;
	}
	instance_record_remove(iface);
	return 0;
}

/* A claim on a session netdev name, checked against each other instance's record. */
struct claim {
	const char *iface, *ifname;
	int err; /* -EBUSY: taken */
};

static void check_claim(void *ctx, const char *iface)
{
	struct claim *cl = ctx;
	struct instance_record r;

	if (!strcmp(iface, cl->iface) || record_read(iface, &r) || strcmp(r.ifname, cl->ifname) ||
	    r.netns != our_netns())
		return;
	if (instance_alive(&r))
		pxp_err("%s is the session netdev of the pppoe-xp on %s (pid %d): name another "
			"with --ifname",
			cl->ifname, iface, r.pid);
	else
		pxp_err("%s was left by the dead pppoe-xp on %s (pppoe-xp down %s removes it): "
			"name another with --ifname",
			cl->ifname, iface, iface);
	cl->err = -EBUSY;
}

int instance_check_ifname(const char *iface, const char *ifname)
{
	struct claim cl = { .iface = iface, .ifname = ifname };
	int err = pxp_run_dir_for_each(RECORD_SUFFIX, check_claim, &cl);

	if (err || cl.err)
		return err ?: cl.err;
	if (if_nametoindex(ifname)) {
		pxp_err("a netdev %s exists that pppoe-xp did not create: not touching it; name "
			"another with --ifname",
			ifname);
		return -EEXIST;
	}
	return 0;
}

/* The first live server in our network namespace on another port than the caller's. */
struct live_ac {
	const char *not_iface;
	char iface[IF_NAMESIZE];
	int pid;
};

static void find_live_ac(void *ctx, const char *iface)
{
	struct live_ac *ac = ctx;
	struct instance_record r;

	if (ac->pid || (ac->not_iface && !strcmp(iface, ac->not_iface)) || record_read(iface, &r) ||
	    !is_server(&r) || r.netns != our_netns() || !instance_alive(&r))
		return;
	snprintf(ac->iface, sizeof(ac->iface), "%s", iface);
	ac->pid = r.pid;
}

int instance_check_one_ac(const char *iface)
{
	struct live_ac ac = { .not_iface = iface };

	if (pxp_run_dir_for_each(RECORD_SUFFIX, find_live_ac, &ac) || !ac.pid)
		return 0;
	pxp_err("pppoe-xp server already runs on %s (pid %d) in this network namespace: one AC "
		"per namespace (its session netdevs are " PXP_AC_NETDEV_PREFIX "<session id>)",
		ac.iface, ac.pid);
	return -EBUSY;
}

/* Whether a client's record (live or dead: a dead one's `down` removes it) names ifname. */
struct named {
	const char *ifname;
	bool claimed;
};

static void find_claim(void *ctx, const char *iface)
{
	struct named *n = ctx;
	struct instance_record r;

	if (!record_read(iface, &r) && !is_server(&r) && r.netns == our_netns() &&
	    (!strcmp(r.ifname, n->ifname) || !strcmp(r.dp.netdev, n->ifname)))
		n->claimed = true;
}

static bool is_ac_netdev_name(const char *name)
{
	const char *digits = name + strlen(PXP_AC_NETDEV_PREFIX);

	return !strncmp(name, PXP_AC_NETDEV_PREFIX, strlen(PXP_AC_NETDEV_PREFIX)) && *digits &&
	       strspn(digits, "0123456789") == strlen(digits);
}

void instance_remove_ac_netdevs(void)
{
	struct if_nameindex *list, *i;
	struct live_ac ac = { 0 };
	int err;

	pxp_run_dir_for_each(RECORD_SUFFIX, find_live_ac, &ac);
	if (ac.pid) {
		pxp_warn("left the " PXP_AC_NETDEV_PREFIX "<N> netdevs alone: they are the "
			 "pppoe-xp server's on %s (pid %d)",
			 ac.iface, ac.pid);
		return;
	}
	list = if_nameindex();
	if (!list)
		return;
	for (i = list; i->if_index; i++) {
		struct named n = { .ifname = i->if_name };

		if (!is_ac_netdev_name(i->if_name))
			continue;
		pxp_run_dir_for_each(RECORD_SUFFIX, find_claim, &n);
		if (n.claimed)
			continue;
		err = pxp_dp_cleanup_stale(NULL, i->if_name);
		/* -EEXIST: someone else's netdev of such a name, already said so. */
		if (err && err != -EEXIST)
			pxp_warn("could not remove the stale session netdev %s", i->if_name);
	}
	if_freenameindex(list);
}

int instance_write_stale_status(const char *iface, FILE *out, bool json)
{
	char hint[IF_NAMESIZE + 48];
	struct instance_record r;
	struct status_writer w;
	int err;

	err = record_read(iface, &r);
	if (err)
		return err;
	if (instance_alive(&r))
		return -EBUSY;
	status_begin(&w, out, json);
	status_str(&w, "iface", iface);
	status_str(&w, "role", role_of(&r));
	status_u64(&w, "pid", (uint64_t)r.pid);
	status_str(&w, "state", "stale");
	status_str(&w, "stale", "daemon dead");
	snprintf(hint, sizeof(hint), "pppoe-xp down %s removes what it left", iface);
	status_str(&w, "hint", hint);
	status_str(&w, "ifname", r.dp.netdev[0] ? r.dp.netdev : NULL);
	status_u64(&w, "session_id", r.session_id);
	if (r.session_id)
		status_mac(&w, "ac_mac", r.ac_mac);
	else
		status_str(&w, "ac_mac", NULL);
	status_bool(&w, "xdp_attached", r.dp.wan_prog_id != 0);
	status_end(&w);
	return 0;
}
