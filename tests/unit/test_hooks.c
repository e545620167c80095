// SPDX-License-Identifier: GPL-2.0
/* pppd's scripts: the arguments and the environment hook_build() gives each of them. */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hooks.h"
#include "settings.h"

static const struct hook_session session = {
	.ifname = "pxp0",
	.device = "wan0",
	.ipparam = "wan",
	.local_ip = 0x0201a8c0, /* 192.168.1.2 */
	.peer_ip = 0x0101a8c0,	/* 192.168.1.1 */
	.dns = { 0x35643364, 0 },
	.usepeerdns = true,
	.local_ifid = { 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 },
	.peer_ifid = { 0, 0, 0, 0, 0, 0, 0, 1 },
	.pid = 4242,
	.connect_time_s = 61,
	.bytes_sent = 1000,
	.bytes_rcvd = 2000,
};

/* One hook: its argv[1..6], env lines it must have and env names it must not have. */
static const struct hook_case {
	enum hook_kind kind;
	const char *argv[6];
	const char *env[12];
	const char *absent[6];
} cases[] = {
	{ HOOK_IP_UP,
	  { "pxp0", "wan0", "0", "192.168.1.2", "192.168.1.1", "wan" },
	  { "IFNAME=pxp0", "DEVICE=wan0", "IPLOCAL=192.168.1.2", "IPREMOTE=192.168.1.1",
	    "DNS1=100.51.100.53", "USEPEERDNS=1", "PPPD_PID=4242", "SPEED=0", "PPP_IFACE=pxp0",
	    "PPP_IPPARAM=wan", "PATH=" },
	  { "DNS2=", "CONNECT_TIME=", "BYTES_SENT=", "LLLOCAL=" } },
	{ HOOK_IP_DOWN,
	  { "pxp0", "wan0", "0", "192.168.1.2", "192.168.1.1", "wan" },
	  { "IPLOCAL=192.168.1.2", "CONNECT_TIME=61", "BYTES_SENT=1000", "BYTES_RCVD=2000",
	    "PPP_LOCAL=192.168.1.2" },
	  { "LLLOCAL=" } },
	{ HOOK_IPV6_UP,
	  { "pxp0", "wan0", "0", "fe80::0211:22ff:fe33:4455", "fe80::0000:0000:0000:0001", "wan" },
	  { "LLLOCAL=fe80::0211:22ff:fe33:4455", "LLREMOTE=fe80::0000:0000:0000:0001",
	    "IFNAME=pxp0", "PPPD_PID=4242" },
	  { "IPLOCAL=", "DNS1=", "CONNECT_TIME=" } },
	{ HOOK_IPV6_DOWN,
	  { "pxp0", "wan0", "0", "fe80::0211:22ff:fe33:4455", "fe80::0000:0000:0000:0001", "wan" },
	  { "LLLOCAL=fe80::0211:22ff:fe33:4455", "CONNECT_TIME=61", "BYTES_RCVD=2000" },
	  { "IPLOCAL=" } },
};

static bool env_has(const struct hook_cmd *cmd, const char *line)
{
	unsigned int i;

	for (i = 0; cmd->envp[i]; i++)
		if (!strncmp(cmd->envp[i], line, strlen(line)) &&
		    (line[strlen(line) - 1] == '=' || !strcmp(cmd->envp[i], line)))
			return true;
	return false;
}

TEST(argv_and_env_table)
{
	struct hook_cmd cmd;
	unsigned int i, j;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct hook_case *t = &cases[i];

		CHECK_EQ(hook_build(t->kind, &session, &cmd), 0);
		CHECK(cmd.argv[0] == NULL); /* the runner's: the script's path */
		for (j = 0; j < 6; j++)
			CHECK(!strcmp(cmd.argv[j + 1], t->argv[j]));
		CHECK(cmd.argv[7] == NULL);
		for (j = 0; t->env[j]; j++)
			CHECK(env_has(&cmd, t->env[j]));
		for (j = 0; t->absent[j]; j++)
			CHECK(!env_has(&cmd, t->absent[j]));
	}
}

/* No ipparam: pppd passes an empty 6th argument; no usepeerdns: no DNS variables. */
TEST(defaults)
{
	struct hook_session s = session;
	struct hook_cmd cmd;

	s.ipparam = NULL;
	s.usepeerdns = false;
	CHECK_EQ(hook_build(HOOK_IP_UP, &s, &cmd), 0);
	CHECK(!strcmp(cmd.argv[6], ""));
	CHECK(!env_has(&cmd, "DNS1="));
	CHECK(!env_has(&cmd, "USEPEERDNS="));
}

/* The longest ipparam the CLI takes still fits. */
TEST(long_ipparam_fits)
{
	struct hook_session s = session;
	char ipparam[PXP_IPPARAM_MAX + 1];
	struct hook_cmd cmd;

	memset(ipparam, 'x', PXP_IPPARAM_MAX);
	ipparam[PXP_IPPARAM_MAX] = '\0';
	s.ipparam = ipparam;
	CHECK_EQ(hook_build(HOOK_IP_DOWN, &s, &cmd), 0);
	CHECK(!strcmp(cmd.argv[6], ipparam));
}

TEST(names)
{
	CHECK(!strcmp(hook_name(HOOK_IP_UP), "ip-up"));
	CHECK(!strcmp(hook_name(HOOK_IPV6_DOWN), "ipv6-down"));
}

int main(void)
{
	check_prefix = "hooks";
	RUN(argv_and_env_table);
	RUN(defaults);
	RUN(long_ipparam_fits);
	RUN(names);
	return check_summary();
}
