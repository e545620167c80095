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
#
# Cases: a second `up` (on lo, as reported) while a session is up on wan0 leaves it alone
# and fails naming --ifname; two WAN ports with default options (the second is refused,
# naming --ifname) and with --ifname pxp1 (both carry traffic); a pxp0 we did not create
# is never deleted; kill -9, then `status` says stale and `down` removes the netdev, XDP,
# routes, resolv file and run files and sends the PADT (the AC drops the session), then a
# fresh `up` works. Name cases as arguments to run only those: test_instances.sh kill9_down
PXP_NS_PREFIX=pxi$$-
. "$(dirname "$0")/lib.sh"

B=$PXP_BIN
NS_ISP2=${PXP_NS_PREFIX}isp2
RUN_C=$PXP_TMP/run-client
RUN_S=$PXP_TMP/run-server
RUN_S2=$PXP_TMP/run-server2
SECRETS=$PXP_TMP/secrets

client() { in_ns "$NS_ROUTER" env PPPOE_XP_RUN_DIR="$RUN_C" "$B" "$@"; }
server() { in_ns "$NS_ISP" env PPPOE_XP_RUN_DIR="$RUN_S" "$B" "$@"; }
server2() { in_ns "$NS_ISP2" env PPPOE_XP_RUN_DIR="$RUN_S2" "$B" "$@"; }

# field STATUS_TEXT KEY: a top-level field of a text `status`.
field() { awk -v key="$2" -F': ' '$1 == key { print $2; exit }' <<<"$1"; }
client_state() { field "$(client status "$1" 2>/dev/null)" state; }
ac_sessions() { field "$(server status isp0 2>/dev/null)" session_count; }
ifindex_of() { in_ns "$NS_ROUTER" cat "/sys/class/net/$1/ifindex" 2>/dev/null; }
xdp_on() { in_ns "$NS_ROUTER" ip link show "$1" | grep -q 'prog/xdp'; }

start_servers() {
	local out=$PXP_TMP/server.out
	server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth pap \
		--secrets "$SECRETS" --dns 198.51.100.53 --keepalive "3 1" >"$out" 2>&1 &&
		server2 server isp2 --local 100.64.2.1 --pool 100.64.2.0/24 --auth pap \
			--secrets "$SECRETS" --keepalive "3 1" >>"$out" 2>&1 ||
		fail "server did not start: $(cat "$out")"
}

up() { # IFACE [options]: output in $PXP_TMP/up-IFACE.out
	local port=$1
	shift
	client up "$port" --user alice --password secret1 --keepalive "3 1" "$@" \
		>"$PXP_TMP/up-$port.out" 2>&1
}

# Ends whatever a case left running, gracefully first; kills only this run's namespaces' pids.
reset() {
	local ns
	client down wan0 >/dev/null 2>&1
	client down wan1 >/dev/null 2>&1
	server down isp0 >/dev/null 2>&1
	server2 down isp2 >/dev/null 2>&1
	for ns in "$NS_ROUTER" "$NS_ISP" "$NS_ISP2"; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null
	done
	sleep 0.2
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

cases_named "$@"
suite_needs instances ip ping python3
topo_create pppoe && ip netns add "$NS_ISP2" && ip -n "$NS_ISP2" link set lo up &&
	_veth "$NS_ROUTER" wan1 "$NS_ISP2" isp2 || {
	echo "FAIL instances/topology: could not build the topology"
	exit 1
}
mkdir -p "$RUN_C" "$RUN_S" "$RUN_S2"
printf 'alice * secret1 *\n' >"$SECRETS"
chmod 600 "$SECRETS"
on_cleanup reset

case_ instances/second_up test_second_up
case_ instances/two_wan_ports test_two_wan_ports
case_ instances/foreign_pxp0 test_foreign_pxp0
case_ instances/kill9_down test_kill9_down
tests_done
