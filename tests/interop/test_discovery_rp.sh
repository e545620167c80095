#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# PPPoE discovery against rp-pppoe's own user-space tools, on the host, no guest:
#
#   ac ================================ cl
#   ac0 (pppoe-xp server | pppoe-server)   cl0 (pppoe -A / -d, pppoe-discovery | pppoe-xp)
#
# Our access concentrator answers rp-pppoe's `pppoe` (-A discovery, -d PADI..PADS) and the
# ppp package's pppoe-discovery: they see our AC-Name, Service-Name and AC-Cookie and get a
# session id that our AC lists. Our `pppoe-xp discover` and `pppoe-xp up` run against
# rp-pppoe's pppoe-server in user mode: discovery works without kernel PPP; the session
# pppoe-server grants ends at once because the pppd it forks finds no /dev/ppp here, and
# pppoe-server says so with a PADT that our client must take as the end of the session.
PXP_NS_PREFIX=pxi$$-
. "$(dirname "$0")/../netns/lib.sh"

NS_AC=${PXP_NS_PREFIX}ac
NS_CL=${PXP_NS_PREFIX}cl
RUN=$PXP_TMP/run
AC_NAME=pxi-ac
SERVICE=isp

xp_ac() { in_ns "$NS_AC" env PPPOE_XP_RUN_DIR="$RUN" "$B" "$@"; }
xp_cl() { in_ns "$NS_CL" env PPPOE_XP_RUN_DIR="$RUN" "$B" "$@"; }
mac_of() { ip -n "$1" -br link show dev "$2" | awk '{ print $3 }'; }

# Ends whatever the previous case left running in either namespace.
reset() {
	xp_ac down ac0 >/dev/null 2>&1
	xp_cl down cl0 >/dev/null 2>&1
	end_ns_pids "$NS_AC" "$NS_CL"
	return 0
}

start_xp_ac() {
	xp_ac server ac0 --local 100.64.1.1 --pool 100.64.1.0/24 --ac-name "$AC_NAME" \
		--service "$SERVICE" --auth pap --secrets "$PXP_TMP/secrets" >"$PXP_TMP/server.out" 2>&1 ||
		fail "pppoe-xp server did not start: $(cat "$PXP_TMP/server.out")"
}

# check_pado_listing FILE AC SERVICE... : rp-pppoe's -A listing format, shared by pppoe,
# pppoe-discovery and `pppoe-xp discover`.
check_pado_listing() {
	local out=$1 ac=$2 svc
	shift 2
	grep -qx "Access-Concentrator: $ac" "$out" ||
		fail "no 'Access-Concentrator: $ac' in: $(tr '\n' '|' <"$out")" || return 1
	for svc in "$@"; do
		grep -qE "^ +Service-Name: $svc\$" "$out" ||
			fail "no 'Service-Name: $svc' in: $(tr '\n' '|' <"$out")" || return 1
	done
	grep -q '^Got a cookie' "$out" || fail "no AC-Cookie seen in: $(tr '\n' '|' <"$out")"
}

test_rp_pppoe_A() {
	local mac
	reset
	start_xp_ac || return 1
	mac=$(mac_of "$NS_AC" ac0)
	in_ns "$NS_CL" timeout 10 pppoe -A -t 2 -I cl0 >"$PXP_TMP/pppoe-A.out" 2>&1
	check_pado_listing "$PXP_TMP/pppoe-A.out" "$AC_NAME" "$SERVICE" || return 1
	grep -qx "AC-Ethernet-Address: $mac" "$PXP_TMP/pppoe-A.out" ||
		fail "AC MAC is not $mac: $(tr '\n' '|' <"$PXP_TMP/pppoe-A.out")"
}

test_pppoe_discovery() {
	reset
	start_xp_ac || return 1
	in_ns "$NS_CL" timeout 10 pppoe-discovery -t 2 -a 1 -I cl0 >"$PXP_TMP/pd.out" 2>&1
	check_pado_listing "$PXP_TMP/pd.out" "$AC_NAME" "$SERVICE"
}

# `pppoe -d` runs PADI..PADS and prints SESSION:AC-MAC; our AC must list that session.
test_rp_pppoe_session() {
	local out sid mac want_mac cl_mac listed
	reset
	start_xp_ac || return 1
	want_mac=$(mac_of "$NS_AC" ac0)
	cl_mac=$(mac_of "$NS_CL" cl0)
	out=$(in_ns "$NS_CL" timeout 10 pppoe -d -I cl0 -S "$SERVICE" 2>&1) ||
		fail "pppoe -d failed: $out" || return 1
	sid=${out%%:*}
	mac=${out#*:}
	[[ $sid =~ ^[0-9]+$ ]] && [ "$sid" -gt 0 ] && [ "$sid" -lt 65535 ] ||
		fail "no session id in '$out'" || return 1
	[ "$mac" = "$want_mac" ] || fail "PADS came from $mac, want $want_mac" || return 1
	listed=$(xp_ac status ac0 | awk -v sid="$sid" '
		$1 == "session_id:" { cur = $2 } $1 == "peer_mac:" && cur == sid { print $2 }')
	[ "$listed" = "$cl_mac" ] ||
		fail "our AC does not list session $sid for $cl_mac: $(xp_ac status ac0 | tr '\n' '|')"
}

# Our AC offers one service: a PADI for another gets no PADO (RFC 2516 5.2), so pppoe
# gives up instead of getting a session.
test_rp_pppoe_wrong_service() {
	local out
	reset
	start_xp_ac || return 1
	out=$(in_ns "$NS_CL" timeout 4 pppoe -d -t 1 -I cl0 -S nosuch 2>&1) &&
		fail "pppoe -d got a session for an unoffered service: $out" || return 0
	[ "$(xp_ac status ac0 | awk '$1 == "session_count:" { print $2 }')" = 0 ] ||
		fail "our AC created a session for an unoffered service"
}

start_rp_server() {
	# A killed pppoe-server leaves its pid file: the wait below is for the new one's.
	rm -f "$PXP_TMP/rp-server.pid"
	in_ns "$NS_AC" pppoe-server -I ac0 -C rp-ac -S isp -S voice -X "$PXP_TMP/rp-server.pid" \
		>"$PXP_TMP/rp-server.out" 2>&1 ||
		fail "pppoe-server did not start: $(cat "$PXP_TMP/rp-server.out")" || return 1
	wait_for 10 test -s "$PXP_TMP/rp-server.pid" || fail "pppoe-server wrote no pid file"
}

test_xp_discover() {
	local mac
	reset
	start_rp_server || return 1
	mac=$(mac_of "$NS_AC" ac0)
	xp_cl discover cl0 --timeout 2 >"$PXP_TMP/discover.out" 2>&1 ||
		fail "pppoe-xp discover exited $?: $(tr '\n' '|' <"$PXP_TMP/discover.out")" || return 1
	check_pado_listing "$PXP_TMP/discover.out" rp-ac isp voice || return 1
	grep -qx "AC-Ethernet-Address: $mac" "$PXP_TMP/discover.out" ||
		fail "AC MAC is not $mac: $(tr '\n' '|' <"$PXP_TMP/discover.out")"
}

# PADS from pppoe-server, then its PADT (Generic-Error) when the forked pppd dies: our
# client reports the AC's hang-up (exit 16), names the PADT and leaves no XDP program behind.
test_xp_session_padt() {
	local rc
	reset
	start_rp_server || return 1
	in_ns "$NS_CL" timeout 30 env PPPOE_XP_RUN_DIR="$RUN" "$B" up cl0 --user alice \
		--password secret1 --service isp --foreground \
		>"$PXP_TMP/up.out" 2>&1
	rc=$?
	[ $rc -eq 16 ] || fail "exit $rc, want 16 (AC hang-up): $(tr '\n' '|' <"$PXP_TMP/up.out")" ||
		return 1
	grep -q 'PPPoE session [0-9]* with AC .rp-ac.' "$PXP_TMP/up.out" ||
		fail "no session with rp-ac reported: $(tr '\n' '|' <"$PXP_TMP/up.out")" || return 1
	grep -q 'PADT' "$PXP_TMP/up.out" ||
		fail "the PADT is not named: $(tr '\n' '|' <"$PXP_TMP/up.out")" || return 1
	ip -n "$NS_CL" link show dev cl0 | grep -q 'xdp' &&
		fail "an XDP program is still attached to cl0 after the session ended"
	return 0
}

missing=$(require_cmds ip pppoe pppoe-server pppoe-discovery) || {
	skip_test interop/discovery_rp "missing commands:$missing (Debian packages pppoe, ppp)"
	exit 0
}
[ -x "$B" ] || {
	echo "FAIL interop/discovery_rp/build: $B is missing (run make)"
	exit 1
}
for ns in "$NS_AC" "$NS_CL"; do
	ip netns add "$ns" && ip -n "$ns" link set lo up || {
		echo "FAIL interop/discovery_rp/topology: cannot create namespace $ns"
		exit 1
	}
done
ip link add ac0 netns "$NS_AC" type veth peer name cl0 netns "$NS_CL" &&
	ip -n "$NS_AC" link set ac0 up && ip -n "$NS_CL" link set cl0 up || {
	echo "FAIL interop/discovery_rp/topology: cannot create the veth pair"
	exit 1
}
mkdir -p "$RUN"
printf 'alice * secret1 *\n' >"$PXP_TMP/secrets"
chmod 600 "$PXP_TMP/secrets"
on_cleanup reset

run_test interop/discovery_rp/pppoe_A test_rp_pppoe_A
run_test interop/discovery_rp/pppoe_discovery test_pppoe_discovery
run_test interop/discovery_rp/pppoe_session test_rp_pppoe_session
run_test interop/discovery_rp/pppoe_wrong_service test_rp_pppoe_wrong_service
run_test interop/discovery_rp/xp_discover test_xp_discover
# With kernel PPP on the host, pppoe-server's pppd would run and the session would not end.
if grep -qw ppp /proc/devices; then
	skip_test interop/discovery_rp/xp_session_padt \
		"this host has kernel PPP: pppoe-server's pppd keeps the session (test_client_vs_pppd.sh covers sessions)"
else
	run_test interop/discovery_rp/xp_session_padt test_xp_session_padt
fi
tests_done
