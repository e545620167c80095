#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Default routes as pppd makes them: --defaultroute never adds a second default route over
# an existing one; --replacedefaultroute replaces it and puts it back when the session ends,
# also after kill -9 and `down`; --metric N; --defaultroute6; two WAN ports never take each
# other's routes.
#
#   lan ---------- router ================================ isp
#   lan0      lan1      wan0     PPPoE    pxp0 100.64.1.2     isp0  pxs<N> 100.64.1.1 (AC 1)
#   .100.2    .100.1    wan1     PPPoE    pxp1 100.64.2.2 --- isp2  pxs<N> 100.64.2.1 (AC 2)
#             (the router's "existing" default route: via 192.168.100.2 dev lan1)
#
# Cases: keep_existing (an existing default route survives up --defaultroute and the
# session's end, and no second one is added); replace (--replacedefaultroute takes it out
# and restores it, the same route, at down); replace_persist (with --persist a lost session
# puts it back while retrying, the next session replaces it again); replace_kill9 (after kill -9, `down` removes our
# route and restores the replaced one); metric (--metric 50: ours has metric 50 beside an
# existing metric-0 route, which is not "existing" for pppd then); defaultroute6 (::/0 dev
# pxp0 while IPv6CP is up, gone after down); two_wan_ports (sessions on two WAN ports keep
# each other's routes: a second --replacedefaultroute never replaces the first session's,
# and either session's end leaves the other's). Run only some: test_routes.sh metric
PXP_NS_PREFIX=pxr$$-
. "$(dirname "$0")/lib.sh"

NS_ISP2=${PXP_NS_PREFIX}isp2
RUN_S2=$PXP_TMP/run-server2
# The router's own default route, as a LAN-side gateway would give it.
EXISTING="default via 192.168.100.2 dev lan1 proto static"

server2() { in_ns "$NS_ISP2" env PPPOE_XP_RUN_DIR="$RUN_S2" "$B" "$@"; }

field() { awk -v key="$2" -F': ' '$1 == key { print $2; exit }' <<<"$1"; }
# The router's default routes, one a line, as `ip route` prints them (without trailing blanks).
# "proto 153" even where an installed rt_protos.d names it (ip -N would number every field).
defaults() { in_ns "$NS_ROUTER" ip "${1:--4}" route show default | sed 's/ *$//; s/ proto pppoe-xp / proto 153 /'; }
only_existing() { [ "$(defaults)" = "$EXISTING" ]; }
ipv6cp_open() { [ "$(field "$(client status wan0)" ipv6cp)" = Opened ]; }
has_route() { defaults "${2:--4}" | grep -qx -- "$1"; }
# Without a syslog socket the detached daemon logs to the stderr `up` gave it (the .out file).
logged() { [ -S /dev/log ] || grep -q -- "$2" "$PXP_TMP/up-$1.out"; }

start_servers() {
	server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth pap --ipv6 \
		--secrets "$SECRETS" --keepalive "3 1" >"$PXP_TMP/server.out" 2>&1 &&
		server2 server isp2 --local 100.64.2.1 --pool 100.64.2.0/24 --auth pap \
			--secrets "$SECRETS" --keepalive "3 1" >>"$PXP_TMP/server.out" 2>&1 ||
		fail "server did not start: $(cat "$PXP_TMP/server.out")"
}

up() { # IFACE [options]: output in $PXP_TMP/up-IFACE.out
	local port=$1
	shift
	client up "$port" --user alice --password secret1 --keepalive "3 1" "$@" \
		>"$PXP_TMP/up-$port.out" 2>&1 || fail "up $port $*: $(cat "$PXP_TMP/up-$port.out")"
}

down() { # IFACE: returns once the daemon is gone
	local out
	out=$(client down "$1" 2>&1) || fail "down $1: $out" || return 1
	wait_for 10 sh -c "! env PPPOE_XP_RUN_DIR=$RUN_C ip netns exec $NS_ROUTER $B status $1" ||
		fail "the daemon on $1 stayed after down"
}

reset() {
	client down wan0 >/dev/null 2>&1
	client down wan1 >/dev/null 2>&1
	server down isp0 >/dev/null 2>&1
	server2 down isp2 >/dev/null 2>&1
	end_ns_pids "$NS_ROUTER" "$NS_ISP" "$NS_ISP2"
	in_ns "$NS_ROUTER" ip link del pxp0 2>/dev/null
	in_ns "$NS_ROUTER" ip link del pxp1 2>/dev/null
	in_ns "$NS_ROUTER" ip route flush exact 0.0.0.0/0 2>/dev/null
	in_ns "$NS_ROUTER" ip -6 route flush exact ::/0 2>/dev/null
	rm -f "$RUN_C"/*
	return 0
}

# A fresh start: both ACs, the router's existing default route when asked ("existing").
fresh() {
	reset
	if [ "${1:-}" = existing ]; then
		in_ns "$NS_ROUTER" ip route add $EXISTING || fail "cannot add the existing route" ||
			return 1
	fi
	start_servers
}

test_keep_existing() {
	fresh existing || return 1
	up wan0 --defaultroute || return 1
	has_route "$EXISTING" || fail "the existing route is gone: $(defaults)" || return 1
	! defaults | grep -q pxp0 || fail "a second default route was added: $(defaults)" || return 1
	logged wan0 "not replacing existing default route via 192.168.100.2 dev lan1" ||
		fail "no 'not replacing' line: $(cat "$PXP_TMP/up-wan0.out")" || return 1
	[ "$(field "$(client status wan0)" default_route)" = no ] ||
		fail "status: $(client status wan0)" || return 1
	down wan0 || return 1
	[ "$(defaults)" = "$EXISTING" ] || fail "after down: $(defaults)"
}

test_replace() {
	local status
	fresh existing || return 1
	up wan0 --defaultroute --replacedefaultroute || return 1
	[ "$(defaults)" = "default dev pxp0 proto 153 scope link" ] ||
		fail "while up, want only ours: $(defaults)" || return 1
	in_ns "$NS_ROUTER" ping -c 1 -W 2 100.64.1.1 >/dev/null || fail "no traffic" || return 1
	status=$(client status wan0)
	[ "$(field "$status" default_route)" = yes ] &&
		[[ "$(field "$status" replaced_route)" == "via 192.168.100.2 dev lan1 "* ]] ||
		fail "status: $status" || return 1
	down wan0 || return 1
	[ "$(defaults)" = "$EXISTING" ] || fail "after down, want the replaced one back: $(defaults)"
}

# With --persist a lost session gives the replaced route back while it retries (a backup
# WAN's route carries the traffic meanwhile), and the next session replaces it again.
test_replace_persist() {
	fresh existing || return 1
	up wan0 --defaultroute --replacedefaultroute --persist --holdoff 1 || return 1
	server down isp0 >/dev/null 2>&1 || fail "server down failed" || return 1
	wait_for 15 only_existing ||
		fail "not restored while the session is lost: $(defaults)" || return 1
	server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth pap \
		--secrets "$SECRETS" --keepalive "3 1" >"$PXP_TMP/server.out" 2>&1 ||
		fail "server did not start again: $(cat "$PXP_TMP/server.out")" || return 1
	wait_for 20 has_route "default dev pxp0 proto 153 scope link" ||
		fail "the next session did not add ours: $(defaults)" || return 1
	! has_route "$EXISTING" || fail "the next session did not replace it: $(defaults)" || return 1
	down wan0 || return 1
	[ "$(defaults)" = "$EXISTING" ] || fail "after down: $(defaults)"
}

test_replace_kill9() {
	local pid out
	fresh existing || return 1
	up wan0 --defaultroute --replacedefaultroute || return 1
	pid=$(field "$(client status wan0)" pid)
	kill9_and_wait "$pid" || fail "the client did not die" || return 1
	has_route "default dev pxp0 proto 153 scope link" && ! has_route "$EXISTING" ||
		fail "precondition after kill -9: $(defaults)" || return 1
	out=$(client down wan0 2>&1) || fail "down of the dead instance: $out" || return 1
	[ "$(defaults)" = "$EXISTING" ] || fail "after down of the dead instance: $(defaults)" ||
		return 1
	# The next `up` cleans up as `down` does: the route is back before it looks for one.
	up wan0 --defaultroute --replacedefaultroute || return 1
	pid=$(field "$(client status wan0)" pid)
	kill9_and_wait "$pid" || fail "the second client did not die" || return 1
	up wan0 --defaultroute || return 1
	[ "$(defaults)" = "$EXISTING" ] || fail "after up over the dead instance: $(defaults)"
}

test_metric() {
	fresh existing || return 1
	up wan0 --defaultroute --metric 50 || return 1
	has_route "default dev pxp0 proto 153 scope link metric 50" ||
		fail "no route of metric 50: $(defaults)" || return 1
	has_route "$EXISTING" || fail "the metric-0 route is gone: $(defaults)" || return 1
	down wan0 || return 1
	[ "$(defaults)" = "$EXISTING" ] || fail "after down: $(defaults)"
}

test_defaultroute6() {
	fresh || return 1
	up wan0 --ipv6 --defaultroute6 --metric 60 || return 1
	wait_for 10 has_route "default dev pxp0 proto 153 metric 60 pref medium" -6 ||
		fail "no ::/0 dev pxp0 metric 60: $(defaults -6)" || return 1
	! defaults | grep -q pxp0 || fail "an IPv4 default route without --defaultroute" || return 1
	down wan0 || return 1
	[ -z "$(defaults -6)" ] || fail "after down: $(defaults -6)" || return 1
	# An existing IPv6 default route is kept, never replaced (pppd's sif6defaultroute).
	in_ns "$NS_ROUTER" ip -6 route add default via fd00:100::2 dev lan1 ||
		fail "cannot add the existing IPv6 route" || return 1
	up wan0 --ipv6 --defaultroute6 --replacedefaultroute || return 1
	# IPv6CP may open after `up` returns; the route is decided when it does.
	wait_for 10 ipv6cp_open || fail "IPv6CP did not open" || return 1
	# The AC's router advertisement adds the kernel's own route (proto ra, see test_ipv6.sh).
	[ "$(defaults -6 | grep -v ' proto ra ')" = "default via fd00:100::2 dev lan1 metric 1024 pref medium" ] ||
		fail "with an existing IPv6 default route: $(defaults -6)"
}

test_two_wan_ports() {
	local first="default dev pxp0 proto 153 scope link metric 10"
	local second="default dev pxp1 proto 153 scope link metric 20"
	fresh || return 1
	up wan0 --defaultroute --metric 10 || return 1
	up wan1 --ifname pxp1 --defaultroute --metric 20 || return 1
	has_route "$first" && has_route "$second" || fail "want both: $(defaults)" || return 1
	down wan1 || return 1
	[ "$(defaults)" = "$first" ] || fail "wan1's end took wan0's route: $(defaults)" || return 1
	# Without a metric of its own the first session's route exists: never replaced.
	up wan1 --ifname pxp1 --defaultroute --replacedefaultroute || return 1
	[ "$(defaults)" = "$first" ] ||
		fail "wan1 replaced or added beside wan0's route: $(defaults)" || return 1
	logged wan1 "another pppoe-xp session" ||
		fail "no line naming the other session: $(cat "$PXP_TMP/up-wan1.out")" || return 1
	down wan1 || return 1
	[ "$(defaults)" = "$first" ] || fail "after wan1 ended: $(defaults)" || return 1
	up wan1 --ifname pxp1 --defaultroute --metric 20 || return 1
	down wan0 || return 1
	[ "$(defaults)" = "$second" ] || fail "wan0's end took wan1's route: $(defaults)"
}

cases_named "$@"
suite_needs routes ip ping
topo_create pppoe && ip netns add "$NS_ISP2" && ip -n "$NS_ISP2" link set lo up &&
	_veth "$NS_ROUTER" wan1 "$NS_ISP2" isp2 || {
	echo "FAIL routes/topology: could not build the topology"
	exit 1
}
mkdir -p "$RUN_C" "$RUN_S" "$RUN_S2"
printf 'alice * secret1 *\n' >"$SECRETS"
chmod 600 "$SECRETS"
on_cleanup reset

case_ routes/keep_existing test_keep_existing
case_ routes/replace test_replace
case_ routes/replace_persist test_replace_persist
case_ routes/replace_kill9 test_replace_kill9
case_ routes/metric test_metric
case_ routes/defaultroute6 test_defaultroute6
case_ routes/two_wan_ports test_two_wan_ports
tests_done
