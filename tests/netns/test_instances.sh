#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# One client instance never harms another, nor a netdev it did not create; a dead one is
# cleaned up by `down` and reported by `status`.
#
#   router ================================ isp
#   wan0     PPPoE    pxp0 100.64.1.2       isp0  pxs<N> 100.64.1.1   (AC 1: pppoe-xp server)
#   wan1     PPPoE    pxp1 100.64.2.2  ---- isp2  pxs<N> 100.64.2.1   (AC 2, namespace isp2)
#   lo       (a second `up` that must fail without touching pxp0)
#                                           ispc0 pxs77 100.64.3.2 -- isp3 100.64.3.1
#                                           (a client beside AC 1)    (AC 3, namespace isp3)
#
# Cases: a second `up` (on lo, as reported) while a session is up on wan0 leaves it alone
# and fails naming --ifname; two WAN ports with default options (the second is refused,
# naming --ifname) and with --ifname pxp1 (both carry traffic); a pxp0 we did not create
# is never deleted; kill -9, then `status` says stale and `down` removes the netdev, XDP,
# routes, resolv file and run files and sends the PADT (the AC drops the session), then a
# fresh `up` works. The AC: a pid file, a second AC on its port or in its namespace refused;
# kill -9, then `down` (or the next start) removes its session netdevs and XDP, never the
# session netdev of the client beside it, whatever its name. Name cases as arguments to run
# only those: test_instances.sh kill9_down
PXP_NS_PREFIX=pxi$$-
. "$(dirname "$0")/lib.sh"

NS_ISP2=${PXP_NS_PREFIX}isp2
RUN_S2=$PXP_TMP/run-server2
NS_ISP3=${PXP_NS_PREFIX}isp3
RUN_S3=$PXP_TMP/run-server3
# The crash cases look for the XDP program a dead daemon leaves on its port (in mode tc the
# port's tcx link goes with the daemon): every daemon here runs mode xdp, not auto's pick.
M="--mode xdp"

server2() { in_ns "$NS_ISP2" env PPPOE_XP_RUN_DIR="$RUN_S2" "$B" "$@"; }
server3() { in_ns "$NS_ISP3" env PPPOE_XP_RUN_DIR="$RUN_S3" "$B" "$@"; }
# A client in AC 1's namespace and run directory (as on one host), on ispc0.
isp_client() { in_ns "$NS_ISP" env PPPOE_XP_RUN_DIR="$RUN_S" "$B" "$@"; }

# field STATUS_TEXT KEY: a top-level field of a text `status`.
field() { awk -v key="$2" -F': ' '$1 == key { print $2; exit }' <<<"$1"; }
client_state() { field "$(client status "$1" 2>/dev/null)" state; }
ac_sessions() { field "$(server status isp0 2>/dev/null)" session_count; }
ifindex_of() { in_ns "$NS_ROUTER" cat "/sys/class/net/$1/ifindex" 2>/dev/null; }
xdp_on() { in_ns "$NS_ROUTER" ip link show "$1" | grep -q 'prog/xdp'; }

start_servers() {
	local out=$PXP_TMP/server.out
	server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth pap $M \
		--secrets "$SECRETS" --dns 198.51.100.53 --keepalive "3 1" >"$out" 2>&1 &&
		server2 server isp2 --local 100.64.2.1 --pool 100.64.2.0/24 --auth pap $M \
			--secrets "$SECRETS" --keepalive "3 1" >>"$out" 2>&1 ||
		fail "server did not start: $(cat "$out")"
}

up() { # IFACE [options]: output in $PXP_TMP/up-IFACE.out
	local port=$1
	shift
	client up "$port" --user alice --password secret1 --keepalive "3 1" $M "$@" \
		>"$PXP_TMP/up-$port.out" 2>&1
}

# Ends whatever a case left running, gracefully first; kills only this run's namespaces' pids.
reset() {
	client down wan0 >/dev/null 2>&1
	client down wan1 >/dev/null 2>&1
	server down isp0 >/dev/null 2>&1
	server2 down isp2 >/dev/null 2>&1
	isp_client down ispc0 >/dev/null 2>&1
	server3 down isp3 >/dev/null 2>&1
	end_ns_pids "$NS_ROUTER" "$NS_ISP" "$NS_ISP2" "$NS_ISP3"
	in_ns "$NS_ROUTER" ip link del pxp0 2>/dev/null
	in_ns "$NS_ROUTER" ip link del pxp1 2>/dev/null
	return 0
}

# A fresh start with both ACs and a session up on wan0; FIRST_IDX is its pxp0's ifindex.
first_session_up() {
	reset
	start_servers || return 1
	up wan0 || fail "up wan0 failed: $(cat "$PXP_TMP/up-wan0.out")" || return 1
	FIRST_IDX=$(ifindex_of pxp0)
}

# The session of first_session_up() is untouched: the same pxp0, traffic, status up.
first_session_intact() {
	[ "$(ifindex_of pxp0)" = "$FIRST_IDX" ] ||
		fail "the live pxp0 (ifindex $FIRST_IDX) is gone or replaced: '$(ifindex_of pxp0)'" ||
		return 1
	in_ns "$NS_ROUTER" ping -c 2 -W 2 -i 0.2 100.64.1.1 >/dev/null ||
		fail "no traffic through the first session's pxp0 any more" || return 1
	[ "$(client_state wan0)" = up ] || fail "status wan0 says '$(client_state wan0)'"
}

# Issue 13.1, verbatim: a second `up` must not delete the live session's pxp0.
test_second_up() {
	local rc
	first_session_up || return 1
	up lo --padi-attempts 1 --padi-timeout 1
	rc=$?
	first_session_intact || return 1
	# 6, pppd's EXIT_LOCK_FAILED: another instance's record claims pxp0.
	[ $rc -eq 6 ] || fail "the second up on lo exited $rc, want 6" || return 1
	grep -q -- --ifname "$PXP_TMP/up-lo.out" ||
		fail "exit $rc without naming --ifname: $(cat "$PXP_TMP/up-lo.out")" || return 1
	! xdp_on lo || fail "the failed up left XDP on lo"
}

# Two WAN ports: default options must be refused clearly (both want pxp0), --ifname works.
test_two_wan_ports() {
	local rc
	first_session_up || return 1
	up wan1
	rc=$?
	if [ $rc -eq 0 ]; then
		in_ns "$NS_ROUTER" ping -c 2 -W 2 -i 0.2 100.64.2.1 >/dev/null ||
			fail "wan1 with default options: up but no traffic" || return 1
	else
		grep -q -- --ifname "$PXP_TMP/up-wan1.out" ||
			fail "wan1 refused (exit $rc) without naming --ifname: $(cat "$PXP_TMP/up-wan1.out")" ||
			return 1
		[ "$(client_state wan1)" = "" ] || fail "a refused wan1 instance still answers" || return 1
		up wan1 --ifname pxp1 ||
			fail "up wan1 --ifname pxp1 failed: $(cat "$PXP_TMP/up-wan1.out")" || return 1
		in_ns "$NS_ROUTER" ping -c 2 -W 2 -i 0.2 100.64.2.1 >/dev/null ||
			fail "no traffic through pxp1" || return 1
	fi
	first_session_intact || return 1
	[ "$(client_state wan1)" = up ] || fail "status wan1 says '$(client_state wan1)'"
}

# A pxp0 that pppoe-xp did not create (a veth, which the old clean-up took for its own).
test_foreign_pxp0() {
	local idx rc
	reset
	start_servers || return 1
	in_ns "$NS_ROUTER" ip link add pxp0 type veth peer name pxp0-x || fail "no veth" || return 1
	idx=$(ifindex_of pxp0)
	up wan0
	rc=$?
	# 1, not 6: no instance holds that name, it is someone else's netdev.
	[ $rc -eq 1 ] || fail "up over a foreign pxp0 exited $rc, want 1" || return 1
	grep -q -- --ifname "$PXP_TMP/up-wan0.out" ||
		fail "exit $rc without naming --ifname: $(cat "$PXP_TMP/up-wan0.out")" || return 1
	[ "$(ifindex_of pxp0)" = "$idx" ] || fail "the foreign pxp0 was deleted" || return 1
	! xdp_on wan0 || fail "the refused up left XDP on wan0" || return 1
	[ "$(ac_sessions)" = 0 ] || fail "the refused up opened a session at the AC" || return 1
	in_ns "$NS_ROUTER" ip link del pxp0
	up wan0 || fail "up failed once pxp0 was gone: $(cat "$PXP_TMP/up-wan0.out")"
}

# Issue 13.4: kill -9, then status says stale, down cleans everything, up works again.
test_kill9_down() {
	local pid out rc
	reset
	start_servers || return 1
	up wan0 --defaultroute --usepeerdns ||
		fail "up failed: $(cat "$PXP_TMP/up-wan0.out")" || return 1
	pid=$(field "$(client status wan0)" pid)
	[ -s "$RUN_C/wan0.resolv.conf" ] && in_ns "$NS_ROUTER" ip route show default | grep -q pxp0 ||
		fail "precondition: no resolv file or default route" || return 1
	kill9_and_wait "$pid" || fail "the killed client did not die" || return 1
	xdp_on wan0 && ifindex_of pxp0 >/dev/null ||
		fail "kill -9 left nothing behind (the case proves nothing)" || return 1
	out=$(client status wan0 2>&1)
	rc=$?
	[ $rc -eq 0 ] && [ "$(field "$out" stale)" = "daemon dead" ] ||
		fail "status after kill -9: exit $rc: $out" || return 1
	out=$(client status wan0 --json 2>&1)
	python3 -c 'import json, sys; s = json.loads(sys.argv[1]); assert s["stale"] == "daemon dead" and s["state"] == "stale", s' "$out" ||
		fail "status --json after kill -9: $out" || return 1
	out=$(client status --json 2>&1)
	python3 -c 'import json, sys; l = json.loads(sys.argv[1]); assert [s["stale"] for s in l if s["iface"] == "wan0"] == ["daemon dead"], l' "$out" ||
		fail "status --json of every instance after kill -9: $out" || return 1
	[ "$(ac_sessions)" = 1 ] || fail "precondition: the AC holds $(ac_sessions) sessions" || return 1
	out=$(client down wan0 2>&1)
	rc=$?
	[ $rc -eq 0 ] || fail "down of a dead instance: exit $rc: $out" || return 1
	ifindex_of pxp0 >/dev/null && fail "pxp0 left behind" && return 1
	xdp_on wan0 && fail "XDP left on wan0" && return 1
	in_ns "$NS_ROUTER" ip route show default | grep -q pxp0 && fail "default route left" && return 1
	[ ! -e "$RUN_C/wan0.resolv.conf" ] || fail "resolv file left behind" || return 1
	[ ! -e "$RUN_C/wan0.session" ] && [ ! -e "$RUN_C/wan0.ctl" ] ||
		fail "run files left: $(ls "$RUN_C")" || return 1
	wait_for 10 sh -c "[ \"\$(env PPPOE_XP_RUN_DIR=$RUN_S ip netns exec $NS_ISP $B status isp0 | awk -F': ' '\$1 == \"session_count\" { print \$2 }')\" = 0 ]" ||
		fail "no PADT: the AC still holds $(ac_sessions) sessions" || return 1
	client status wan0 >/dev/null 2>&1 && fail "status still reports an instance after down" && return 1
	up wan0 || fail "a fresh up after down failed: $(cat "$PXP_TMP/up-wan0.out")" || return 1
	in_ns "$NS_ROUTER" ping -c 2 -W 2 -i 0.2 100.64.1.1 >/dev/null || fail "no traffic after the fresh up"
}

ac1() { # [extra options]: AC 1 on isp0, output in $PXP_TMP/ac1.out
	server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth pap $M \
		--secrets "$SECRETS" --keepalive "3 1" "$@" >"$PXP_TMP/ac1.out" 2>&1
}
ac_netdevs() { in_ns "$NS_ISP" ip -br link show | sed -n 's/^\(pxs[0-9]*\)@.*/\1/p' | sort | tr '\n' ' '; }
isp_ifindex() { in_ns "$NS_ISP" cat "/sys/class/net/$1/ifindex" 2>/dev/null; }
isp_xdp_on() { in_ns "$NS_ISP" ip link show "$1" | grep -q 'prog/xdp'; }

# The AC writes RUN_DIR/IFACE.pid; a second AC on its port (the control socket) or on
# another port of its namespace (session netdevs are pxs<session id>) is refused with exit
# 6, pppd's EXIT_LOCK_FAILED; `down` takes the pid file and the record with it.
test_server_second() {
	local pid rc
	reset
	start_servers || return 1
	pid=$(field "$(server status isp0)" pid)
	[ -n "$pid" ] && [ "$(cat "$RUN_S/isp0.pid" 2>/dev/null)" = "$pid" ] ||
		fail "isp0.pid holds '$(cat "$RUN_S/isp0.pid" 2>/dev/null)', the AC is '$pid'" || return 1
	ac1
	rc=$?
	[ $rc -eq 6 ] && grep -q "already runs on isp0" "$PXP_TMP/ac1.out" ||
		fail "a second AC on isp0: exit $rc: $(cat "$PXP_TMP/ac1.out")" || return 1
	server server ispc0 --local 100.64.3.1 --pool 100.64.3.0/24 --auth none $M \
		>"$PXP_TMP/ac1b.out" 2>&1
	rc=$?
	[ $rc -eq 6 ] && grep -q "server already runs on isp0 (pid $pid) in this network namespace" \
		"$PXP_TMP/ac1b.out" || fail "an AC on ispc0 beside isp0's: exit $rc: $(cat "$PXP_TMP/ac1b.out")" ||
		return 1
	! isp_xdp_on ispc0 || fail "the refused AC left XDP on ispc0" || return 1
	[ "$(field "$(server status isp0)" pid)" = "$pid" ] || fail "the first AC is gone" || return 1
	server down isp0 || fail "down isp0 failed" || return 1
	[ ! -e "$RUN_S/isp0.pid" ] && [ ! -e "$RUN_S/isp0.session" ] ||
		fail "run files left after down: $(ls "$RUN_S")"
}

# AC 1 with a session, and a client beside it in its namespace whose session netdev has an
# AC's kind of name (pxs77); AC_NETDEVS is what AC 1 has, PXS77 the client's ifindex.
ac_and_neighbour_up() {
	reset
	start_servers || return 1
	server3 server isp3 --local 100.64.3.1 --pool 100.64.3.0/24 --auth pap $M --secrets "$SECRETS" \
		>"$PXP_TMP/ac3.out" 2>&1 || fail "AC 3 did not start: $(cat "$PXP_TMP/ac3.out")" || return 1
	isp_client up ispc0 --user alice --password secret1 --ifname pxs77 $M >"$PXP_TMP/up-ispc0.out" 2>&1 ||
		fail "up ispc0 failed: $(cat "$PXP_TMP/up-ispc0.out")" || return 1
	PXS77=$(isp_ifindex pxs77)
	up wan0 || fail "up wan0 failed: $(cat "$PXP_TMP/up-wan0.out")" || return 1
	AC_NETDEVS=$(ac_netdevs)
	[ "$AC_NETDEVS" != "pxs77 " ] && isp_xdp_on isp0 ||
		fail "precondition: AC 1 has no session netdev or XDP ($AC_NETDEVS)"
}

# The client beside the dead AC is untouched: the same pxs77, status up, traffic.
neighbour_intact() {
	[ "$(isp_ifindex pxs77)" = "$PXS77" ] ||
		fail "the client's pxs77 (ifindex $PXS77) is gone or replaced" || return 1
	[ "$(field "$(isp_client status ispc0)" state)" = up ] ||
		fail "the client on ispc0 says '$(field "$(isp_client status ispc0)" state)'" || return 1
	in_ns "$NS_ISP" ping -c 2 -W 2 -i 0.2 100.64.3.1 >/dev/null || fail "no traffic through pxs77"
}

# kill -9 of the AC: status says stale, `down` removes its session netdevs, its XDP and its
# run files, and nothing of the client beside it.
test_server_kill9_down() {
	local pid out rc
	ac_and_neighbour_up || return 1
	pid=$(field "$(server status isp0)" pid)
	kill9_and_wait "$pid" || fail "the killed AC did not die" || return 1
	out=$(server status isp0 2>&1)
	[ "$(field "$out" state)" = stale ] && [ "$(field "$out" role)" = server ] ||
		fail "status of the dead AC: $out" || return 1
	out=$(server down isp0 2>&1)
	rc=$?
	[ $rc -eq 0 ] || fail "down of the dead AC: exit $rc: $out" || return 1
	[ "$(ac_netdevs)" = "pxs77 " ] || fail "left after down: $(ac_netdevs), AC 1 had $AC_NETDEVS" ||
		return 1
	! isp_xdp_on isp0 || fail "XDP left on isp0" || return 1
	[ -z "$(ls "$RUN_S" | grep '^isp0\.')" ] || fail "run files left: $(ls "$RUN_S")" || return 1
	neighbour_intact || return 1
	ac1 || fail "AC 1 did not start again: $(cat "$PXP_TMP/ac1.out")"
}

# kill -9 of the AC, then it is started again: the new run removes what the dead one left
# (its session netdevs; its XDP is replaced), nothing of the client beside it.
test_server_kill9_restart() {
	local pid
	ac_and_neighbour_up || return 1
	pid=$(field "$(server status isp0)" pid)
	kill9_and_wait "$pid" || fail "the killed AC did not die" || return 1
	ac1 || fail "AC 1 did not start after kill -9: $(cat "$PXP_TMP/ac1.out")" || return 1
	[ "$(ac_netdevs)" = "pxs77 " ] || fail "left after the restart: $(ac_netdevs), AC 1 had $AC_NETDEVS" ||
		return 1
	isp_xdp_on isp0 || fail "the new AC has no XDP on isp0" || return 1
	[ "$(field "$(server status isp0)" session_count)" = 0 ] ||
		fail "the new AC holds sessions: $(server status isp0)" || return 1
	neighbour_intact
}

cases_named "$@"
suite_needs instances ip ping python3
topo_create pppoe && ip netns add "$NS_ISP2" && ip -n "$NS_ISP2" link set lo up &&
	_veth "$NS_ROUTER" wan1 "$NS_ISP2" isp2 && ip netns add "$NS_ISP3" &&
	ip -n "$NS_ISP3" link set lo up && _veth "$NS_ISP" ispc0 "$NS_ISP3" isp3 || {
	echo "FAIL instances/topology: could not build the topology"
	exit 1
}
mkdir -p "$RUN_C" "$RUN_S" "$RUN_S2" "$RUN_S3"
printf 'alice * secret1 *\n' >"$SECRETS"
chmod 600 "$SECRETS"
on_cleanup reset

case_ instances/second_up test_second_up
case_ instances/two_wan_ports test_two_wan_ports
case_ instances/foreign_pxp0 test_foreign_pxp0
case_ instances/kill9_down test_kill9_down
case_ instances/server_second test_server_second
case_ instances/server_kill9_down test_server_kill9_down
case_ instances/server_kill9_restart test_server_kill9_restart
tests_done
