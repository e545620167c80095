// SPDX-License-Identifier: GPL-2.0
/*
 * The instance record: what it names is read back as written; a live instance is never
 * taken for dead (nor a dead one for live), its netdev name is refused to another
 * instance; a dead one's record is reported stale and removed by the clean-up. The records
 * here name no netdev, program or session, so nothing outside the run directory is touched.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "instance.h"
#include "run_dir.h"

static char dir[] = "/tmp/pxp-instance-XXXXXX";

/* Our record under the pid of a child that has exited and been reaped. */
static int dead_record(struct instance_record *r)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, &status, 0);
	if (instance_record_init(r))
		return -1;
	r->pid = (int)pid;
	return 0;
}

static void record_file(const char *iface, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.session", dir, iface);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int stale_status(const char *iface, char *out, size_t cap)
{
	FILE *f = fmemopen(out, cap, "w");
	int err;

	if (!f)
		return -ENOMEM;
	err = instance_write_stale_status(iface, f, true);
	fclose(f);
	return err;
}

TEST(live_instance_is_not_stale)
{
	struct instance_record r;
	char out[1024];

	CHECK_EQ(instance_record_init(&r), 0);
	snprintf(r.ifname, sizeof(r.ifname), "pxp0");
	CHECK_EQ(instance_record_write("wan0", &r), 0);
	CHECK_EQ(stale_status("wan0", out, sizeof(out)), -EBUSY);
	CHECK_EQ(stale_status("none0", out, sizeof(out)), -ENOENT);
}

TEST(live_claim_is_refused)
{
	/* wan0's record (above) claims pxp0 for this live process. */
	CHECK_EQ(instance_check_ifname("wan1", "pxp0"), -EBUSY);
	CHECK_EQ(instance_check_ifname("wan0", "pxp-unused9"), 0); /* its own record: not a rival */
	CHECK_EQ(instance_check_ifname("wan1", "pxp-unused9"), 0);
	instance_record_remove("wan0");
	CHECK_EQ(instance_check_ifname("wan1", "pxp0"), 0);
}

TEST(dead_instance_is_stale_then_cleaned)
{
	struct instance_record r;
	char out[1024];
	bool found;

	CHECK_EQ(dead_record(&r), 0);
	snprintf(r.ifname, sizeof(r.ifname), "pxp7");
	CHECK_EQ(instance_record_write("wan7", &r), 0);
	CHECK_EQ(stale_status("wan7", out, sizeof(out)), 0);
	CHECK(strstr(out, "\"state\":\"stale\"") && strstr(out, "\"stale\":\"daemon dead\""));
	CHECK_EQ(instance_check_ifname("wan1", "pxp7"), -EBUSY); /* until `down wan7` */
	CHECK_EQ(instance_clean_stale("wan7", &found), 0);
	CHECK(found);
	CHECK_EQ(stale_status("wan7", out, sizeof(out)), -ENOENT);
	CHECK_EQ(instance_clean_stale("wan7", &found), 0);
	CHECK(!found);
}

/*
 * One AC per network namespace: a live server's record refuses a server on another port
 * (not on its own: that is the control socket's refusal), a dead one's does not; a dead
 * server is reported stale as a server. (Not cleaned here: that deletes pxs<N> netdevs.)
 */
TEST(one_ac_per_namespace)
{
	struct instance_record r;
	char out[1024];

	CHECK_EQ(instance_record_init(&r), 0);
	snprintf(r.role, sizeof(r.role), "server");
	CHECK_EQ(instance_record_write("isp0", &r), 0);
	CHECK_EQ(instance_check_one_ac("isp1"), -EBUSY);
	CHECK_EQ(instance_check_one_ac("isp0"), 0);
	CHECK_EQ(dead_record(&r), 0);
	snprintf(r.role, sizeof(r.role), "server");
	CHECK_EQ(instance_record_write("isp0", &r), 0);
	CHECK_EQ(instance_check_one_ac("isp1"), 0);
	CHECK_EQ(stale_status("isp0", out, sizeof(out)), 0);
	CHECK(strstr(out, "\"role\":\"server\"") != NULL);
	instance_record_remove("isp0");
}

static void pid_file(const char *iface, long pid)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.pid", dir, iface);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%ld\n", pid);
		fclose(f);
	}
}

static bool pid_file_exists(const char *iface)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s.pid", dir, iface);
	return !access(path, F_OK);
}

static void pid_file_remove(const char *iface)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s.pid", dir, iface);
	unlink(path);
}

/* The clean-up takes a dead instance's pid file, never one that names another process. */
TEST(clean_removes_the_dead_pid_file)
{
	struct instance_record r;
	bool found;

	CHECK_EQ(dead_record(&r), 0);
	CHECK_EQ(instance_record_write("wan5", &r), 0);
	pid_file("wan5", r.pid);
	CHECK_EQ(instance_clean_stale("wan5", &found), 0);
	CHECK(found && !pid_file_exists("wan5"));
	CHECK_EQ(instance_record_write("wan5", &r), 0);
	pid_file("wan5", (long)getpid()); /* a newer run's */
	CHECK_EQ(instance_clean_stale("wan5", &found), 0);
	CHECK(found && pid_file_exists("wan5"));
	pid_file_remove("wan5");
}

/* A record of the version before pids were kept, and a damaged one: both are dead. */
TEST(old_and_unreadable_records)
{
	char out[1024];
	bool found;

	record_file("old0",
		    "session_id 0\nac_mac 02:00:00:00:00:01\nlocal_mac 02:00:00:00:00:02\n");
	CHECK_EQ(stale_status("old0", out, sizeof(out)), 0);
	CHECK_EQ(instance_clean_stale("old0", &found), 0);
	CHECK(found);
	record_file("bad0", "pid 12x\n");
	CHECK_EQ(stale_status("bad0", out, sizeof(out)), -EBADMSG);
	/* A replaced route the clean-up could not put back as it was: not read. */
	record_file("bad2", "replaced 1\nreplaced_family 10\n");
	CHECK_EQ(stale_status("bad2", out, sizeof(out)), -EBADMSG);
	record_file("bad3", "replaced_gateway 192.0.2\n");
	CHECK_EQ(stale_status("bad3", out, sizeof(out)), -EBADMSG);
	record_file("bad4", "route4 256\n");
	CHECK_EQ(stale_status("bad4", out, sizeof(out)), -EBADMSG);
	record_file("bad1", "session_id 65535\n");
	CHECK_EQ(stale_status("bad1", out, sizeof(out)), -EBADMSG);
	CHECK_EQ(instance_clean_stale("bad1", &found), 0);
	CHECK(found);
	CHECK_EQ(stale_status("bad1", out, sizeof(out)), -ENOENT);
}

int main(void)
{
	check_prefix = "instance";
	if (!mkdtemp(dir) || setenv(PXP_RUN_DIR_ENV, dir, 1)) {
		printf("FAIL instance/setup: no temporary run directory\n");
		return 1;
	}
	RUN(live_instance_is_not_stale);
	RUN(live_claim_is_refused);
	RUN(dead_instance_is_stale_then_cleaned);
	RUN(old_and_unreadable_records);
	RUN(one_ac_per_namespace);
	RUN(clean_removes_the_dead_pid_file);
	instance_record_remove("bad0");
	instance_record_remove("bad2");
	instance_record_remove("bad3");
	instance_record_remove("bad4");
	rmdir(dir);
	return check_summary();
}
