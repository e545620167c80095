#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Mode afxdp through the data path's public interface (user/datapath/datapath.h): the router end is
# tests/tools/dp_static_session --mode afxdp (pxp_dp_attach, pxp_dp_session_add create pxp0
# and start the AF_XDP engine), the ISP end the same tool in mode xdp.
#
#   lan ---- router ===== WAN veth (PPPoE session 42) ===== isp ---- net
#            pxp0 100.64.1.2 (NAT), engine        pxp0 100.64.1.1, XDP
PXP_NS_PREFIX=${PXP_NS_PREFIX:-pxf$$-}
. "$(dirname "$0")/lib.sh"

DP_TOOL=${PXF_DP_TOOL:-$PXP_TOOLS/dp_static_session}
declare -A HOLDER

mac_of() { # ns dev
	ip -n "$1" -o link show "$2" | sed -n 's|.*link/ether \([0-9a-f:]*\).*|\1|p'
}

# start_end NS WAN PEER_MAC MODE LOCAL_V4 PEER_V4 LOCAL_V6 [TOOL_ARGS]
start_end() {
	local ns=$1 out=$PXP_TMP/holder-$1.out
	rm -f "$out" # no "ready" left from an earlier holder (test_vlan starts them again)
	# Not through in_ns (a shell function): $! must be the holder itself.
	ip netns exec "$ns" "$DP_TOOL" up --wan "$2" --sid 42 --peer-mac "$3" --ifname pxp0 \
		--mode "$4" "${@:8}" >"$out" 2>&1 &
	HOLDER[$ns]=$!
	on_cleanup "kill -9 ${HOLDER[$ns]}"
	wait_for 10 grep -q '^ready' "$out" || {
		echo "holder in $ns: $(cat "$out")" >&2
		return 1
	}
	ip -n "$ns" addr add "$5" peer "$6" dev pxp0 && ip -n "$ns" addr add "$7" dev pxp0 nodad
}

sessions_up() { # [TOOL_ARGS]: both ends, routes through pxp0
	start_end "$NS_ROUTER" wan0 "$(mac_of "$NS_ISP" isp0)" afxdp 100.64.1.2 100.64.1.1 \
		2001:db8:1::2/64 "$@" || return 1
	start_end "$NS_ISP" isp0 "$(mac_of "$NS_ROUTER" wan0)" xdp 100.64.1.1 100.64.1.2 \
		2001:db8:1::1/64 "$@" || return 1
	ip -n "$NS_ROUTER" route add default dev pxp0
	ip -n "$NS_ROUTER" -6 route add default dev pxp0
	ip -n "$NS_ISP" -6 route add fd00:100::/64 via 2001:db8:1::2 dev pxp0
}

stop_holder() { # ns: SIGTERM, wait up to 10 s
	local pid=${HOLDER[$1]} i
	kill -TERM "$pid" 2>/dev/null
	for ((i = 0; i < 100; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	return 1
}

setup() {
	topo_create pppoe || return 1
	sessions_up || return 1
	topo_nat_out pxp0
	ip netns exec "$NS_LAN" ethtool -K lan0 tx off >/dev/null
	ip netns exec "$NS_NET" ethtool -K net0 tx off >/dev/null
}

test_mode_is_afxdp() {
	grep -q '^ready [0-9]* afxdp' "$PXP_TMP/holder-$NS_ROUTER.out" ||
		fail "router end not in mode afxdp: $(cat "$PXP_TMP/holder-$NS_ROUTER.out")"
}

test_ping() {
	ip netns exec "$NS_LAN" ping -c 3 -W 2 -i 0.2 198.51.100.2 >/dev/null ||
		fail "lan cannot ping net over IPv4" || return
	ip netns exec "$NS_LAN" ping -6 -c 3 -W 2 -i 0.2 2001:db8:2::2 >/dev/null ||
		fail "lan cannot ping net over IPv6"
}

# 1 s each way: enough to prove the traffic flows (rates are measured in bench/).
test_tcp_both_ways() {
	local up down
	up=$(iperf_tcp "$NS_LAN" "$NS_NET" 198.51.100.2 1) || fail "iperf3 lan->net did not run" || return
	down=$(iperf_tcp "$NS_LAN" "$NS_NET" 198.51.100.2 1 -R) || fail "iperf3 net->lan did not run" || return
	echo "datapath afxdp: lan->net $up Mbit/s, net->lan $down Mbit/s" >&2
	[ "$up" -gt 10 ] && [ "$down" -gt 10 ] || fail "only $up / $down Mbit/s"
}

# The WAN program handed the session's frames to the engine's sockets (to_xsk) and passed
# nothing it should have kept.
test_frames_went_through_engine() {
	local stats to_xsk
	stats=$(ip netns exec "$NS_ROUTER" "$DP_TOOL" stats --wan wan0) ||
		fail "no WAN counters: $stats" || return
	to_xsk=$(awk '$1 == "to_xsk" {print $2}' <<<"$stats")
	[ "${to_xsk:-0}" -gt 1000 ] || fail "only ${to_xsk:-0} frames steered to the engine: $stats"
}

test_stop_clean() {
	stop_holder "$NS_ROUTER" || fail "the holder did not exit on SIGTERM within 10 s" || return
	! ip -n "$NS_ROUTER" link show wan0 | grep -q xdp || fail "XDP left on wan0" || return
	! ip -n "$NS_ROUTER" link show pxp0 >/dev/null 2>&1 || fail "pxp0 left behind"
}

# The same with an 802.1Q tag on the WAN: the engine pops and pushes it (no kernel VLAN here).
test_vlan() {
	local up down
	stop_holder "$NS_ISP" || fail "the ISP holder did not exit" || return
	sessions_up --vlan 100 || fail "sessions with VLAN 100 did not come up" || return
	ip netns exec "$NS_LAN" ping -c 3 -W 2 -i 0.2 198.51.100.2 >/dev/null ||
		fail "lan cannot ping net with VLAN 100 on the WAN" || return
	up=$(iperf_tcp "$NS_LAN" "$NS_NET" 198.51.100.2 1) || fail "iperf3 lan->net did not run" || return
	down=$(iperf_tcp "$NS_LAN" "$NS_NET" 198.51.100.2 1 -R) || fail "iperf3 net->lan did not run" || return
	echo "datapath afxdp, VLAN 100: lan->net $up Mbit/s, net->lan $down Mbit/s" >&2
	[ "$up" -gt 10 ] && [ "$down" -gt 10 ] || fail "only $up / $down Mbit/s"
}

missing=$(require_cmds ip ping nft iperf3 jq ethtool python3) || {
	skip_test afxdp_datapath "missing commands:$missing (make deps installs them)"
	exit 0
}
[ -x "$DP_TOOL" ] || {
	skip_test afxdp_datapath "$DP_TOOL not built (make)"
	exit 0
}
setup || {
	echo "FAIL afxdp_datapath/setup: could not build the topology or start the session ends"
	exit 1
}
run_test afxdp_datapath/mode_is_afxdp test_mode_is_afxdp
run_test afxdp_datapath/ping test_ping
run_test afxdp_datapath/tcp_both_ways test_tcp_both_ways
run_test afxdp_datapath/frames_went_through_engine test_frames_went_through_engine
run_test afxdp_datapath/stop_clean test_stop_clean
run_test afxdp_datapath/vlan test_vlan
tests_done
