#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The OpenWrt package's netifd handler (openwrt/files/pppoe-xp.sh) and its hooks, driven
# the way netifd drives them, against our access concentrator, in namespaces. netifd does
# not run on Debian: the handler and hooks source a recording stand-in of netifd's shell
# API (tests/netifd/netifd-proto.sh) and this script plays netifd (setup; the task's exit;
# teardown with ERROR). docs/openwrt.md says what is real here and what stands in.
#
#   router ================ isp
#   wan0        PPPoE       isp0
#   pxp-wan 100.64.1.2      pxs<N> 100.64.1.1, DNS 198.51.100.53 and .54
#   (pppoe-xp.sh setup wan: (pppoe-xp server)
#    pppoe-xp up wan0 ...)
#
# Cases: session (setup brings a session up; the recorded update holds its address, the
# peer, the default route via it, the AC's DNS and the MTU; ROOT/etc/ppp/ip-up.d runs after
# it, as ppp-up runs /etc/ppp/ip-up.d; no process's argv holds the password), teardown (netifd's teardown ends the session: ip-down's update, exit 5, the
# session gone on both ends), hangup (the AC ends it: teardown gets ERROR 16, HANGUP),
# ipv6 (ipv6 'auto': ipv6-up reports the link-local address beside the IPv4 update),
# auth_failed (a wrong password: exit 19, AUTH_FAILED and the restart blocked).
# Name cases as arguments to run only those: test_netifd.sh session
PXP_NS_PREFIX=pxnf$$-
. "$(dirname "$0")/lib.sh"
. "$PXP_ROOT/tests/netifd/lib.sh"

ROOT=$PXP_TMP/root
STATE=$PXP_TMP/state
PW='n3tifd-s3cret-p4ss'

# netifd's call of the handler, in the router's namespace: ACTION JSON [ENV=VALUE...]
handler() {
	local action=$1 json=$2
	shift 2
	in_ns "$NS_ROUTER" env PPPOE_XP="$B" PPPOE_XP_RUN_DIR="$RUN_C" "$@" \
		sh -c 'cd "$0" && exec ./pppoe-xp.sh "$@"' "$ROOT/lib/netifd/proto" \
		pppoexp "$action" wan "$json" wan0 >>"$PXP_TMP/handler.out" 2>&1
}

config() { # PASSWORD [IPV6]: netifd's JSON of the interface section
	printf '{"username":"alice","password":"%s","mtu":1480,"ipv6":"%s","keepalive":"3 1","defaultroute":true,"peerdns":true}' \
		"$1" "${2:-0}"
}

start_server() { # [extra args]
	server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth pap \
		--secrets "$SECRETS" --dns 198.51.100.53 --dns 198.51.100.54 "$@" >"$PXP_TMP/server.out" 2>&1 ||
		fail "server did not start: $(cat "$PXP_TMP/server.out")"
}

update_up() { # the last update says link-up 1
	local f
	f=$(netifd_last_update "$STATE") && grep -qx 'link-up 1' "$f"
}
update_down() {
	local f
	f=$(netifd_last_update "$STATE") && grep -qx 'link-up 0' "$f"
}
update_v6() { grep -q '^ip6addr ' "$STATE"/update.*; } # any update with an IPv6 address
task_ended() { [ -s "$STATE/task.exit" ]; }
sessions_on_ac() { server status isp0 --json | jq -r .session_count; }
no_sessions_on_ac() { [ "$(sessions_on_ac)" = 0 ]; }

# netifd, once the task has exited: teardown with ERROR set to its exit code.
teardown_after_exit() {
	handler teardown "$(config x)" ERROR="$(cat "$STATE/task.exit")"
}

reset() {
	[ -s "$STATE/task.pid" ] && kill "$(cat "$STATE/task.pid")" 2>/dev/null
	client down wan0 >/dev/null 2>&1
	server down isp0 >/dev/null 2>&1
	end_ns_pids "$NS_ROUTER" "$NS_ISP"
	rm -rf "$ROOT" "$STATE"
	netifd_install "$ROOT" "$STATE" || fail "installing openwrt/files failed" || return 1
	: >"$PXP_TMP/handler.out"
}

# Setup as netifd runs it, then the session's update.
bring_up() {
	start_server || return 1
	handler setup "$(config "$PW")" || fail "setup failed: $(cat "$PXP_TMP/handler.out")" || return 1
	wait_for 20 update_up ||
		fail "no link-up update: calls $(netifd_calls "$STATE" | tr '\n' ';') log $(tail -5 "$STATE/task.log")"
}

test_session() {
	local f want got pid p cmd leak=
	reset || return 1
	mkdir -p "$ROOT/etc/ppp/ip-up.d"
	printf '#!/bin/sh\necho "$@" >"%s/ip-up.d.args"\n' "$PXP_TMP" >"$ROOT/etc/ppp/ip-up.d/10-record"
	chmod +x "$ROOT/etc/ppp/ip-up.d/10-record"
	rm -f "$PXP_TMP/ip-up.d.args"
	bring_up || return 1
	f=$(netifd_last_update "$STATE")
	want="interface wan
ifname pxp-wan
link-up 1
address-external 1
keep 1
ipaddr 100.64.1.2/32//100.64.1.1
route 0.0.0.0/0/100.64.1.1
dns 198.51.100.53
dns 198.51.100.54
data mtu 1480"
	got=$(cat "$f")
	[ "$got" = "$want" ] || fail "update: $(tr '\n' ';' <"$f"), want $(echo "$want" | tr '\n' ';')" || return 1
	wait_for 10 test -s "$PXP_TMP/ip-up.d.args" || fail "ip-up.d's script did not run after the update" || return 1
	[ "$(cat "$PXP_TMP/ip-up.d.args")" = "pxp-wan wan0 0 100.64.1.2 100.64.1.1 wan" ] ||
		fail "ip-up.d's script got '$(cat "$PXP_TMP/ip-up.d.args")'" || return 1
	# The daemon's own view agrees with what netifd was told.
	[ "$(client status wan0 --json | jq -r '"\(.local_ip) \(.peer_ip) \(.mtu)"')" = "100.64.1.2 100.64.1.1 1480" ] ||
		fail "status: $(client status wan0 --json | jq -c '{local_ip, peer_ip, mtu}')" || return 1
	pid=$(cat "$STATE/task.pid")
	tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- '--password-file' ||
		fail "the task $pid is not pppoe-xp with --password-file: $(tr '\0' ' ' <"/proc/$pid/cmdline")" || return 1
	for p in /proc/[0-9]*; do
		cmd=$(tr '\0' ' ' 2>/dev/null <"$p/cmdline") || continue
		[[ $cmd == *"$PW"* ]] && leak="$leak ${p#/proc/}: $cmd"
	done
	[ -z "$leak" ] || fail "the password is in the argv of$leak"
}

test_teardown() {
	local code
	reset || return 1
	bring_up || return 1
	handler teardown "$(config x)" || fail "teardown failed: $(cat "$PXP_TMP/handler.out")" || return 1
	grep -qx 'kill_command 15' "$STATE/calls" || fail "teardown did not kill the task" || return 1
	wait_for 15 task_ended || fail "the daemon still runs 15 s after teardown" || return 1
	code=$(cat "$STATE/task.exit")
	[ "$code" = 5 ] || fail "the daemon exited $code after SIGTERM, want 5 (EXIT_USER_REQUEST)" || return 1
	wait_for 10 update_down || fail "ip-down sent no link-down update: $(netifd_calls "$STATE" | tr '\n' ';')" || return 1
	! in_ns "$NS_ROUTER" ip link show pxp-wan >/dev/null 2>&1 || fail "pxp-wan stayed after teardown" || return 1
	wait_for 10 no_sessions_on_ac || fail "the AC still lists $(sessions_on_ac) sessions" || return 1
	[ ! -e "$RUN_C/netifd-wan.pass" ] || fail "the password file stayed after teardown" || return 1
	! grep -q '^notify_error' "$STATE/calls" || fail "a plain teardown reported an error: $(grep '^notify_error' "$STATE/calls")"
}

test_hangup() {
	reset || return 1
	bring_up || return 1
	server down isp0 >/dev/null 2>&1 || fail "server down failed" || return 1
	wait_for 15 task_ended || fail "the daemon still runs 15 s after the AC went" || return 1
	[ "$(cat "$STATE/task.exit")" = 16 ] || fail "exit $(cat "$STATE/task.exit"), want 16 (EXIT_HANGUP)" || return 1
	teardown_after_exit || fail "teardown failed" || return 1
	grep -qx 'notify_error HANGUP' "$STATE/calls" || fail "calls: $(netifd_calls "$STATE" | tr '\n' ';')" || return 1
	! grep -qx block_restart "$STATE/calls" || fail "a hangup blocked netifd's restart"
}

# ipv6 'auto' (the stock default): IPv6CP runs and ipv6-up reports the link-local address,
# beside the IPv4 update.
test_ipv6() {
	local f v4= v6= ll
	reset || return 1
	start_server --ipv6 || return 1
	handler setup "$(config "$PW" auto)" || fail "setup failed: $(cat "$PXP_TMP/handler.out")" || return 1
	wait_for 20 update_v6 ||
		fail "no update with an IPv6 address: calls $(netifd_calls "$STATE" | tr '\n' ';')" || return 1
	for f in "$STATE"/update.*; do
		grep -qx 'ipaddr 100.64.1.2/32//100.64.1.1' "$f" && v4=1
		grep -q '^ip6addr ' "$f" && v6=$(sed -n 's/^ip6addr //p' "$f")
	done
	[ -n "$v4" ] || fail "no IPv4 update beside the IPv6 one" || return 1
	ll=$(client status wan0 --json | jq -r .ipv6_local)
	python3 -c 'import ipaddress, sys; a, m = sys.argv[1].split("/"); assert m == "128" and ipaddress.ip_address(a) == ipaddress.ip_address(sys.argv[2].split("/")[0])' \
		"$v6" "$ll" || fail "ip6addr '$v6', status ipv6_local '$ll'"
}

test_auth_failed() {
	reset || return 1
	start_server || return 1
	handler setup "$(config wrong-password)" || fail "setup failed: $(cat "$PXP_TMP/handler.out")" || return 1
	wait_for 30 task_ended || fail "the daemon still runs 30 s after setup with a wrong password" || return 1
	[ "$(cat "$STATE/task.exit")" = 19 ] ||
		fail "exit $(cat "$STATE/task.exit"), want 19 (EXIT_AUTH_TOPEER_FAILED): $(tail -3 "$STATE/task.log")" || return 1
	! update_up || fail "a link-up update with a wrong password" || return 1
	teardown_after_exit || fail "teardown failed" || return 1
	grep -qx 'notify_error AUTH_FAILED' "$STATE/calls" && grep -qx block_restart "$STATE/calls" ||
		fail "calls: $(netifd_calls "$STATE" | tr '\n' ';')"
}

cases_named "$@"
suite_needs netifd ip jq dash python3
topo_create pppoe || {
	echo "FAIL netifd/topology: could not build the topology"
	exit 1
}
mkdir -p "$RUN_C" "$RUN_S"
printf 'alice * %s *\n' "$PW" >"$SECRETS"
on_cleanup reset

case_ netifd/session test_session
case_ netifd/teardown test_teardown
case_ netifd/hangup test_hangup
case_ netifd/ipv6 test_ipv6
case_ netifd/auth_failed test_auth_failed
tests_done
