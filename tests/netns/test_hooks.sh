#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# pppd's scripts (ip-up, ip-down, ipv6-up, ipv6-down and their .d directories), the pid
# file and --ipparam: our client against our access concentrator, in namespaces.
#
#   router ================ isp
#   wan0        PPPoE       isp0
#   pxp0 100.64.1.2         pxs<N> 100.64.1.1
#   (pppoe-xp up)           (pppoe-xp server)
#   scripts in $PXP_TMP/ppp (PPPOE_XP_PPP_DIR), never /etc/ppp
#
# Each script writes its arguments and its environment to $PXP_TMP/out/NAME.env and its
# name to $PXP_TMP/out/runs, which the cases read. Cases: ip_up (once, pppd's arguments
# and environment, nothing of ours leaks in, the pid file), ip_down (CONNECT_TIME and
# BYTES_* on down, the pid file gone), ipv6 (ipv6-up and ipv6-down with link-local
# addresses), ip_up_d (run-parts order and names when there is no ip-up), named_script
# (--ip-up-script and --ip-down-script instead of PPP_DIR's), order (ip-down
# waits for ip-up), failing (a
# failing script never stops the session), background (a process ip-up leaves behind
# holding its output), slow (a script that never ends blocks neither
# the daemon nor its `down`), restart_during_ip_down (`up` while the old daemon's ip-down
# still runs). Name cases as arguments to run only those: test_hooks.sh ip_up
PXP_NS_PREFIX=pxh$$-
. "$(dirname "$0")/lib.sh"

PPP_DIR=$PXP_TMP/ppp
OUT=$PXP_TMP/out

# HOOK_LEAK is in the daemon's environment: a script must not see it (pppd clears it).
CLIENT_ENV=(PPPOE_XP_PPP_DIR="$PPP_DIR" HOOK_LEAK=1)

start_server() { # [extra args]
	server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth pap \
		--secrets "$SECRETS" --dns 198.51.100.53 "$@" >"$PXP_TMP/server.out" 2>&1 ||
		fail "server did not start: $(cat "$PXP_TMP/server.out")"
}

client_up() { # [extra args]
	client up wan0 --user alice --password secret1 --usepeerdns --ipparam myparam "$@" \
		>"$PXP_TMP/client.out" 2>&1 || fail "up failed (exit $?): $(cat "$PXP_TMP/client.out")"
}

client_gone() { ! client status wan0 >/dev/null 2>&1; }

# A script recording how it was run. BODY runs after it has recorded.
write_script() { # PATH [BODY]
	mkdir -p "$(dirname "$1")"
	cat >"$1" <<-EOF
		#!/bin/sh
		n=\$(basename "\$0")
		{ echo "argc=\$#"; for a in "\$@"; do echo "arg=\$a"; done; env | sort; } >"$OUT/\$n.env"
		echo "\$n" >>"$OUT/runs"
		${2:-}
	EOF
	chmod +x "$1"
}

runs_of() { grep -cx "$1" "$OUT/runs" 2>/dev/null; }
ran() { [ "$(runs_of "$1")" -ge 1 ]; }
env_of() { sed -n "s/^$2=//p" "$OUT/$1.env"; } # SCRIPT VAR
args_of() { sed -n 's/^arg=//p' "$OUT/$1.env" | tr '\n' ' '; }

reset() {
	client down wan0 >/dev/null 2>&1
	server down isp0 >/dev/null 2>&1
	end_ns_pids "$NS_ROUTER" "$NS_ISP"
	rm -rf "$PPP_DIR" "$OUT"
	mkdir -p "$PPP_DIR" "$OUT"
	return 0
}

test_ip_up() {
	local pid
	reset
	write_script "$PPP_DIR/ip-up"
	write_script "$PPP_DIR/ip-down"
	start_server || return 1
	client_up || return 1
	wait_for 10 ran ip-up || fail "ip-up did not run: $(cat "$PXP_TMP/client.out")" || return 1
	sleep 0.5
	[ "$(runs_of ip-up)" = 1 ] || fail "ip-up ran $(runs_of ip-up) times" || return 1
	[ "$(args_of ip-up)" = "pxp0 wan0 0 100.64.1.2 100.64.1.1 myparam " ] ||
		fail "ip-up arguments: '$(args_of ip-up)'" || return 1
	pid=$(status_get client pid)
	[ "$(cat "$RUN_C/wan0.pid" 2>/dev/null)" = "$pid" ] ||
		fail "$RUN_C/wan0.pid holds '$(cat "$RUN_C/wan0.pid" 2>/dev/null)', the daemon is $pid" || return 1
	[ "$(env_of ip-up IFNAME)" = pxp0 ] && [ "$(env_of ip-up DEVICE)" = wan0 ] &&
		[ "$(env_of ip-up IPLOCAL)" = 100.64.1.2 ] && [ "$(env_of ip-up IPREMOTE)" = 100.64.1.1 ] &&
		[ "$(env_of ip-up DNS1)" = 198.51.100.53 ] && [ "$(env_of ip-up USEPEERDNS)" = 1 ] &&
		[ "$(env_of ip-up PPPD_PID)" = "$pid" ] && [ "$(env_of ip-up PPP_IPPARAM)" = myparam ] ||
		fail "ip-up environment: $(tr '\n' ' ' <"$OUT/ip-up.env")" || return 1
	! grep -q '^HOOK_LEAK=\|^PPPOE_XP_' "$OUT/ip-up.env" ||
		fail "the daemon's environment leaked into ip-up" || return 1
	! ran ip-down || fail "ip-down ran while the session is up"
}

test_ip_down() {
	local t pid
	reset
	write_script "$PPP_DIR/ip-down"
	start_server || return 1
	client_up || return 1
	pid=$(status_get client pid)
	in_ns "$NS_ROUTER" ping -c 3 -i 0.2 -W 2 100.64.1.1 >/dev/null || fail "no traffic" || return 1
	sleep 1
	client down wan0 || fail "down failed" || return 1
	wait_for 10 ran ip-down || fail "ip-down did not run on down" || return 1
	sleep 0.3
	[ "$(runs_of ip-down)" = 1 ] || fail "ip-down ran $(runs_of ip-down) times" || return 1
	[ "$(args_of ip-down)" = "pxp0 wan0 0 100.64.1.2 100.64.1.1 myparam " ] ||
		fail "ip-down arguments: '$(args_of ip-down)'" || return 1
	t=$(env_of ip-down CONNECT_TIME)
	[ "${t:-0}" -ge 1 ] || fail "CONNECT_TIME '$t' after a session of over 1 s" || return 1
	[ "$(env_of ip-down BYTES_SENT)" -gt 0 ] && [ "$(env_of ip-down BYTES_RCVD)" -gt 0 ] ||
		fail "BYTES_SENT '$(env_of ip-down BYTES_SENT)' BYTES_RCVD '$(env_of ip-down BYTES_RCVD)' after pings" || return 1
	wait_for 10 pid_is_gone "$pid" || fail "the daemon $pid still runs 10 s after down" || return 1
	[ ! -e "$RUN_C/wan0.pid" ] || fail "the pid file stayed after down"
}

test_ipv6() {
	local a
	reset
	write_script "$PPP_DIR/ipv6-up"
	write_script "$PPP_DIR/ipv6-down"
	start_server --ipv6 || return 1
	client_up --ipv6 || return 1
	wait_for 10 ran ipv6-up || fail "ipv6-up did not run" || return 1
	a=$(args_of ipv6-up)
	[[ $a == "pxp0 wan0 0 fe80::"*" fe80::"*" myparam " ]] || fail "ipv6-up arguments: '$a'" || return 1
	[ "$(env_of ipv6-up LLLOCAL) $(env_of ipv6-up LLREMOTE)" = "$(echo "$a" | cut -d' ' -f4,5)" ] ||
		fail "LLLOCAL/LLREMOTE do not match the arguments: $(tr '\n' ' ' <"$OUT/ipv6-up.env")" || return 1
	python3 -c 'import ipaddress, sys; assert ipaddress.ip_address(sys.argv[1]) == ipaddress.ip_address(sys.argv[2])' \
		"$(echo "$a" | cut -d' ' -f4)" "$(status_get client ipv6_local)" ||
		fail "ipv6-up's local address is not status's ipv6_local $(status_get client ipv6_local)" || return 1
	client down wan0 || fail "down failed" || return 1
	wait_for 10 ran ipv6-down || fail "ipv6-down did not run on down" || return 1
	sleep 0.3
	[ "$(runs_of ipv6-down)" = 1 ] || fail "ipv6-down ran $(runs_of ipv6-down) times" || return 1
	[ -n "$(env_of ipv6-down CONNECT_TIME)" ] || fail "ipv6-down has no CONNECT_TIME"
}

# No ip-up: the executables of ip-up.d run, in name order, with pppd's arguments; run-parts
# skips names with a dot and files that are not executable.
test_ip_up_d() {
	reset
	write_script "$PPP_DIR/ip-up.d/20-second"
	write_script "$PPP_DIR/ip-up.d/10-first"
	write_script "$PPP_DIR/ip-up.d/30-skipped.dpkg-old"
	write_script "$PPP_DIR/ip-up.d/40-not-executable"
	chmod -x "$PPP_DIR/ip-up.d/40-not-executable"
	start_server || return 1
	client_up || return 1
	wait_for 10 ran 20-second || fail "ip-up.d scripts did not run: $(cat "$OUT/runs" 2>/dev/null)" || return 1
	[ "$(tr '\n' ' ' <"$OUT/runs")" = "10-first 20-second " ] ||
		fail "ran: '$(tr '\n' ' ' <"$OUT/runs")', want 10-first 20-second" || return 1
	[ "$(args_of 10-first)" = "pxp0 wan0 0 100.64.1.2 100.64.1.1 myparam " ] &&
		[ "$(env_of 20-second PPP_LOCAL)" = 100.64.1.2 ] ||
		fail "ip-up.d arguments or PPP_* variables: $(tr '\n' ' ' <"$OUT/10-first.env")"
}

# --ip-up-script/--ip-down-script (pppd's ip-up-script, what netifd's handler passes) name
# the one file to run: PPP_DIR's ip-up is then left alone.
test_named_script() {
	reset
	write_script "$PPP_DIR/ip-up"
	write_script "$PXP_TMP/named/my-up"
	write_script "$PXP_TMP/named/my-down"
	start_server || return 1
	client_up --ip-up-script "$PXP_TMP/named/my-up" --ip-down-script "$PXP_TMP/named/my-down" ||
		return 1
	wait_for 10 ran my-up || fail "--ip-up-script did not run: $(cat "$OUT/runs" 2>/dev/null)" || return 1
	[ "$(args_of my-up)" = "pxp0 wan0 0 100.64.1.2 100.64.1.1 myparam " ] ||
		fail "my-up arguments: '$(args_of my-up)'" || return 1
	client down wan0 || fail "down failed" || return 1
	wait_for 10 ran my-down || fail "--ip-down-script did not run on down" || return 1
	! ran ip-up || fail "PPP_DIR/ip-up ran beside --ip-up-script"
}

# The scripts of one family run in order, as pppd's: an ip-down asked for while ip-up still
# runs starts after it.
test_order() {
	reset
	write_script "$PPP_DIR/ip-up" "sleep 2; echo ip-up-end >>$OUT/runs"
	write_script "$PPP_DIR/ip-down"
	start_server || return 1
	client_up || return 1
	wait_for 10 ran ip-up || fail "ip-up did not run" || return 1
	client down wan0 || fail "down failed" || return 1
	wait_for 10 ran ip-down || fail "ip-down did not run: $(tr '\n' ' ' <"$OUT/runs")" || return 1
	[ "$(tr '\n' ' ' <"$OUT/runs")" = "ip-up ip-up-end ip-down " ] ||
		fail "ran: '$(tr '\n' ' ' <"$OUT/runs")', want ip-up ip-up-end ip-down"
}

test_failing() {
	reset
	write_script "$PPP_DIR/ip-up" "echo 'hook says no' >&2; exit 3"
	start_server || return 1
	client_up --debug || return 1
	wait_for 10 ran ip-up || fail "ip-up did not run" || return 1
	sleep 0.5
	[ "$(status_get client state)" = up ] || fail "state '$(status_get client state)' after ip-up failed" || return 1
	in_ns "$NS_ROUTER" ping -c 2 -i 0.2 -W 2 100.64.1.1 >/dev/null ||
		fail "no traffic after ip-up failed"
}

# ip-up leaves a process behind that keeps its output open: the daemon reaps ip-up and
# goes on answering (it does not wait for the end of that output).
test_background() {
	reset
	write_script "$PPP_DIR/ip-up" "sleep 20 & echo started"
	start_server || return 1
	client_up || return 1
	wait_for 10 ran ip-up || fail "ip-up did not run" || return 1
	sleep 0.5
	# 10 s: a loaded machine's answer, far below the 20 s the left-behind process holds.
	[ "$(PXP_TIMEOUT=10 status_get client state)" = up ] ||
		fail "no answer from the daemon after ip-up left a process behind" || return 1
	client down wan0 || fail "down failed" || return 1
}

# ip-up never ends: the session and the control socket stay responsive; `down` returns at
# once, the daemon ends ip-up after pppd's 5 s and then itself. "At once" is asserted on
# the event, not a time: `down` returns while the daemon still waits out ip-up.
test_slow() {
	local pid
	reset
	write_script "$PPP_DIR/ip-up" "sleep 60"
	start_server || return 1
	client_up || return 1
	wait_for 10 ran ip-up || fail "ip-up did not run" || return 1
	[ "$(status_get client state)" = up ] || fail "state '$(status_get client state)' while ip-up runs" || return 1
	pid=$(status_get client pid)
	in_ns "$NS_ROUTER" ping -c 2 -i 0.2 -W 2 100.64.1.1 >/dev/null ||
		fail "no traffic while ip-up runs" || return 1
	client down wan0 || fail "down failed while ip-up runs" || return 1
	! pid_is_gone "$pid" || fail "down waited for the daemon to end ip-up" || return 1
	client_gone || fail "the control socket still answers after down" || return 1
	# It ends ip-up (sleep 60) after pppd's 5 s, then itself: well before the script would.
	wait_for 20 pid_is_gone "$pid" || fail "the daemon $pid still runs 20 s after down" || return 1
	[ ! -e "$RUN_C/wan0.pid" ] || fail "the pid file stayed" || return 1
	# The daemon reaps the runner it signalled; the script's shell, signalled with it, may
	# still be dying.
	wait_for 10 ip_up_gone || fail "ip-up still runs after the daemon ended"
}

ip_up_gone() { ! pgrep -f "$PPP_DIR/ip-up" >/dev/null; }

# A slow ip-down holds neither the WAN port nor the pid file: `up` right after `down` gets
# a new session while the old daemon still waits for its script, and the pid file names
# the new daemon after the old one has ended.
test_restart_during_ip_down() {
	local old new
	reset
	write_script "$PPP_DIR/ip-down" "sleep 3"
	start_server || return 1
	client_up || return 1
	old=$(status_get client pid)
	client down wan0 || fail "down failed" || return 1
	client_up || return 1
	new=$(status_get client pid)
	[ -n "$new" ] && [ "$new" != "$old" ] || fail "no new daemon (old $old, new '$new')" || return 1
	wait_for 10 pid_is_gone "$old" || fail "the old daemon $old still runs" || return 1
	[ "$(status_get client state)" = up ] || fail "the new session is '$(status_get client state)'" || return 1
	in_ns "$NS_ROUTER" ping -c 2 -i 0.2 -W 2 100.64.1.1 >/dev/null ||
		fail "no traffic through the new session once the old daemon ended" || return 1
	[ "$(cat "$RUN_C/wan0.pid" 2>/dev/null)" = "$new" ] ||
		fail "wan0.pid holds '$(cat "$RUN_C/wan0.pid" 2>/dev/null)', the daemon is $new"
}

cases_named "$@"
suite_needs hooks ip ping python3
topo_create pppoe || {
	echo "FAIL hooks/topology: could not build the topology"
	exit 1
}
mkdir -p "$RUN_C" "$RUN_S"
printf 'alice * secret1 *\n' >"$SECRETS"
chmod 600 "$SECRETS"
on_cleanup reset

case_ hooks/ip_up test_ip_up
case_ hooks/ip_down test_ip_down
case_ hooks/ipv6 test_ipv6
case_ hooks/ip_up_d test_ip_up_d
case_ hooks/named_script test_named_script
case_ hooks/order test_order
case_ hooks/failing test_failing
case_ hooks/background test_background
case_ hooks/slow test_slow
case_ hooks/restart_during_ip_down test_restart_during_ip_down
tests_done
