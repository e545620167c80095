#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The configuration file in pppd's words and the passwords kept off argv: our client against
# our access concentrator, in namespaces.
#
#   router ================ isp
#   wan0        PPPoE       isp0
#   pxp0 100.64.1.2         pxs<N> 100.64.1.1
#   (pppoe-xp up)           (pppoe-xp server --auth pap)
#   wan0.conf in $PXP_TMP/config (PPPOE_XP_CONFIG_DIR), secrets and scripts in
#   $PXP_TMP/ppp (PPPOE_XP_PPP_DIR): never /etc
#
# Cases: from_file (a session from wan0.conf alone, no secret in any /proc/PID/cmdline),
# cli_overrides (the command line's --password-file and --ipparam win over the file's),
# pap_secrets (the password of the file's user from pap-secrets), readable_warning (one
# line naming a group/world-readable file holding a password, and its mode),
# unit_by_systemd_less_runner (the installed pppoe-xp@.service run as systemd would, by a
# systemd-less runner: this machine has no systemd). Name cases as arguments to run only those.
PXP_NS_PREFIX=pxcfg$$-
. "$(dirname "$0")/lib.sh"

CONF=$PXP_TMP/config
PPP_DIR=$PXP_TMP/ppp
OUT=$PXP_TMP/out
SECRETS=$PXP_TMP/server-secrets
PASSWORD=Sec-ret-4711

CLIENT_ENV=(PPPOE_XP_CONFIG_DIR="$CONF" PPPOE_XP_PPP_DIR="$PPP_DIR")

session_up() { [ "$(status_get client state)" = up ]; }

start_server() {
	server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth pap \
		--secrets "$SECRETS" >"$PXP_TMP/server.out" 2>&1 ||
		fail "server did not start: $(cat "$PXP_TMP/server.out")"
}

client_up() { # [extra args]
	client up wan0 --padi-attempts 2 --padi-timeout 1 "$@" >"$PXP_TMP/client.out" 2>&1 ||
		fail "up failed (exit $?): $(cat "$PXP_TMP/client.out")"
}

conf() { # TEXT [MODE]: wan0.conf
	printf '%b' "$1" >"$CONF/wan0.conf"
	chmod "${2:-600}" "$CONF/wan0.conf"
}

# An ip-up recording its arguments and environment, as test_hooks.sh's. Written whole and
# then renamed: the cases wait for the file, then read it.
write_ip_up() {
	cat >"$PPP_DIR/ip-up" <<-EOF
		#!/bin/sh
		{ for a in "\$@"; do echo "arg=\$a"; done; env | sort; } >"$OUT/ip-up.env.tmp"
		mv "$OUT/ip-up.env.tmp" "$OUT/ip-up.env"
	EOF
	chmod +x "$PPP_DIR/ip-up"
}
args_of_ip_up() { sed -n 's/^arg=//p' "$OUT/ip-up.env" | tr '\n' ' '; }
env_of_ip_up() { sed -n "s/^$1=//p" "$OUT/ip-up.env"; }

# No process in the router's namespace has the password in its command line.
no_secret_on_argv() {
	local pid
	for pid in $(ip netns pids "$NS_ROUTER"); do
		tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$PASSWORD" &&
			fail "the password is in /proc/$pid/cmdline: $(tr '\0' ' ' <"/proc/$pid/cmdline")" &&
			return 1
	done
	return 0
}

reset() {
	client down wan0 >/dev/null 2>&1
	server down isp0 >/dev/null 2>&1
	end_ns_pids "$NS_ROUTER" "$NS_ISP"
	rm -rf "$CONF" "$PPP_DIR" "$OUT"
	mkdir -p "$CONF" "$PPP_DIR" "$OUT"
	return 0
}

test_from_file() {
	local pid
	reset
	write_ip_up
	conf "# as a pppd peers file\nuser alice\npassword '$PASSWORD'\nmtu 1400 ipparam from-file\n"
	start_server || return 1
	client_up || return 1
	[ "$(status_get client state)" = up ] || fail "state '$(status_get client state)'" || return 1
	pid=$(status_get client pid)
	[ -n "$pid" ] && [ -e "/proc/$pid" ] || fail "no daemon pid in status" || return 1
	no_secret_on_argv || return 1
	ip -n "$NS_ROUTER" link show pxp0 | grep -q 'mtu 1400 ' ||
		fail "pxp0 did not take the file's mtu: $(ip -n "$NS_ROUTER" link show pxp0)" || return 1
	wait_for 10 test -s "$OUT/ip-up.env" || fail "ip-up did not run" || return 1
	[ "$(args_of_ip_up)" = "pxp0 wan0 0 100.64.1.2 100.64.1.1 from-file " ] ||
		fail "ip-up arguments: '$(args_of_ip_up)'"
}

test_cli_overrides() {
	reset
	write_ip_up
	# The file's password is wrong: the session comes up only with the command line's.
	conf "user alice password wrong-one ipparam from-file\n"
	printf '%s\n' "$PASSWORD" >"$PXP_TMP/pass"
	chmod 600 "$PXP_TMP/pass"
	start_server || return 1
	client_up --password-file "$PXP_TMP/pass" --ipparam from-cli || return 1
	[ "$(status_get client state)" = up ] || fail "state '$(status_get client state)'" || return 1
	wait_for 10 test -s "$OUT/ip-up.env" || fail "ip-up did not run" || return 1
	[ "$(env_of_ip_up PPP_IPPARAM)" = from-cli ] ||
		fail "ipparam '$(env_of_ip_up PPP_IPPARAM)', not the command line's" || return 1
	client down wan0 >/dev/null 2>&1
	# Without the override the file's wrong password is the one sent: authentication fails.
	client up wan0 --padi-attempts 2 --padi-timeout 1 >"$PXP_TMP/client.out" 2>&1 &&
		fail "up succeeded with the file's wrong password" || return 0
}

test_pap_secrets() {
	reset
	conf "user alice\n"
	printf 'bob * not-this\nalice * %s\n' "$PASSWORD" >"$PPP_DIR/pap-secrets"
	chmod 600 "$PPP_DIR/pap-secrets"
	start_server || return 1
	client_up || return 1
	[ "$(status_get client state)" = up ] || fail "state '$(status_get client state)'" || return 1
	no_secret_on_argv || return 1
	! grep -q 'readable\|empty password' "$PXP_TMP/client.out" ||
		fail "warned: $(cat "$PXP_TMP/client.out")"
}

test_readable_warning() {
	local out
	reset
	conf "user alice password $PASSWORD\n" 644
	start_server || return 1
	client_up || return 1
	out=$(grep -c 'readable by group or others' "$PXP_TMP/client.out")
	[ "$out" = 1 ] || fail "$out warnings: $(cat "$PXP_TMP/client.out")" || return 1
	grep -qF "$CONF/wan0.conf holds a password and is readable by group or others (mode 0644)" \
		"$PXP_TMP/client.out" || fail "the warning: $(cat "$PXP_TMP/client.out")" || return 1
	! grep -qF "$PASSWORD" "$PXP_TMP/client.out" || fail "the password was printed" || return 1
	client down wan0 >/dev/null 2>&1
	# A secrets file the password comes from, readable by others, is named as well.
	conf "user alice\n"
	printf 'alice * %s\n' "$PASSWORD" >"$PPP_DIR/pap-secrets"
	chmod 640 "$PPP_DIR/pap-secrets"
	client_up || return 1
	grep -qF "$PPP_DIR/pap-secrets holds a password and is readable by group or others (mode 0640)" \
		"$PXP_TMP/client.out" || fail "no warning for pap-secrets: $(cat "$PXP_TMP/client.out")"
}

# The unit's command line for instance IFACE: KEY= of the installed unit, %i replaced, the
# binary's path inside DESTDIR (a systemd-less runner: this machine has no systemd).
unit_cmd() { # UNIT KEY IFACE
	sed -n "s/^$2=//p" "$1" | sed "s/%i/$3/g; s|^/|$DEST/|"
}

test_systemd_unit() {
	local unit start stop envs pid rc
	reset
	DEST=$PXP_TMP/dest
	make -s --no-print-directory -C "$PXP_ROOT" install DESTDIR="$DEST" PREFIX=/usr \
		>"$PXP_TMP/make.out" 2>&1 || fail "make install: $(cat "$PXP_TMP/make.out")" || return 1
	unit=$DEST/usr/lib/systemd/system/pppoe-xp@.service
	start=$(unit_cmd "$unit" ExecStart wan0)
	stop=$(unit_cmd "$unit" ExecStop wan0)
	[ -n "$start" ] && [ -n "$stop" ] || fail "ExecStart '$start', ExecStop '$stop'" || return 1
	# Environment= as systemd passes it, paths inside DESTDIR; nothing else of ours.
	envs=$(sed -n 's/^Environment=//p' "$unit" | sed "s|=/|=$DEST/|")
	[[ $envs == *"PPPOE_XP_CONFIG_DIR=$DEST/etc/pppoe-xp"* ]] ||
		fail "the unit does not point at /etc/pppoe-xp: $envs" || return 1
	printf 'user alice\npassword "%s"\nipparam unit\n' "$PASSWORD" >"$DEST/etc/pppoe-xp/wan0.conf"
	chmod 600 "$DEST/etc/pppoe-xp/wan0.conf"
	write_ip_up
	start_server || return 1
	# shellcheck disable=SC2086 # the unit's words, split as systemd splits them
	ip netns exec "$NS_ROUTER" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		PPPOE_XP_RUN_DIR="$RUN_C" PPPOE_XP_PPP_DIR="$PPP_DIR" $envs $start \
		>"$PXP_TMP/unit.out" 2>&1 &
	pid=$!
	on_cleanup "kill -9 $pid"
	wait_for 30 session_up ||
		fail "ExecStart ($start) did not bring the session up: $(cat "$PXP_TMP/unit.out")" || return 1
	[ "$(status_get client pid)" = "$pid" ] || fail "status pid $(status_get client pid), ExecStart ran $pid" || return 1
	no_secret_on_argv || return 1
	wait_for 10 test -s "$OUT/ip-up.env" || fail "ip-up did not run" || return 1
	[ "$(args_of_ip_up)" = "pxp0 wan0 0 100.64.1.2 100.64.1.1 unit " ] &&
		[ "$(env_of_ip_up IFNAME)" = pxp0 ] && [ "$(env_of_ip_up IPLOCAL)" = 100.64.1.2 ] &&
		[ "$(env_of_ip_up PPPD_PID)" = "$pid" ] ||
		fail "ip-up ran with: $(tr '\n' ' ' <"$OUT/ip-up.env")" || return 1
	# shellcheck disable=SC2086
	ip netns exec "$NS_ROUTER" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		PPPOE_XP_RUN_DIR="$RUN_C" $envs $stop >"$PXP_TMP/stop.out" 2>&1 ||
		fail "ExecStop ($stop) failed: $(cat "$PXP_TMP/stop.out")" || return 1
	wait_for 10 pid_is_gone "$pid" || fail "ExecStop returned, the daemon $pid still runs" || return 1
	wait "$pid"
	rc=$?
	grep -qx "SuccessExitStatus=$rc" "$unit" || [ "$rc" = 0 ] ||
		fail "ExecStart exited $rc, which the unit counts as a failure" || return 1
	! ip -n "$NS_ROUTER" link show pxp0 >/dev/null 2>&1 || fail "pxp0 is left after ExecStop"
}

cases_named "$@"
suite_needs config ip make
topo_create pppoe || {
	echo "FAIL config/topology: could not build the topology"
	exit 1
}
mkdir -p "$RUN_C" "$RUN_S"
printf 'alice * %s *\n' "$PASSWORD" >"$SECRETS"
chmod 600 "$SECRETS"
on_cleanup reset

case_ config/from_file test_from_file
case_ config/cli_overrides test_cli_overrides
case_ config/pap_secrets test_pap_secrets
case_ config/readable_warning test_readable_warning
case_ config/unit_by_systemd_less_runner test_systemd_unit
tests_done
