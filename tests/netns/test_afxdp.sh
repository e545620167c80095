#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The AF_XDP engine (mode afxdp) carrying a static PPPoE session, no control plane.
#
#   lan ---- router ===== WAN veth (PPPoE session 0x1234) ===== isp ---- net
#            pxp0 100.64.1.2 (NAT)                  pxs0 100.64.1.1
#            pxp0-x: XDP -> XSK                     pxs0-x: XDP
#            wan0:   XDP -> XSK   <-- engine -->    isp0:   XDP (mode xdp)
#
# wan0 and pxp0-x have two RX queues: the engine runs two workers, one per queue.
# The router end runs the engine (tests/tools/afxdp_session --mode afxdp); the ISP end runs
# the in-kernel XDP path of the same session, so the engine is checked against the other
# implementation rather than against itself. Frames on the wire are checked with tcpdump.
PXP_NS_PREFIX=${PXP_NS_PREFIX:-pxf$$-}
. "$(dirname "$0")/lib.sh"

TOOL=${PXF_TOOL:-$PXP_TOOLS/afxdp_session}
SID=0x1234
ROUTER_PID=
ISP_PID=

# A session netdev as the data path makes it: veth pair, NOARP, MTU 1492, tx checksum
# offload off (XDP sees raw bytes, a partial checksum would leave wrong), GRO on (frames
# redirected into its peer are dropped otherwise).
make_session_netdev() { # ns name local peer local6
	local ns=$1 dev=$2
	ip -n "$ns" link add "$dev" numtxqueues 2 numrxqueues 2 type veth \
		peer name "$dev-x" numtxqueues 2 numrxqueues 2 || return 1
	ip -n "$ns" link set "$dev" mtu 1492 arp off up
	ip -n "$ns" link set "$dev-x" mtu 1492 up
	ip netns exec "$ns" ethtool -K "$dev" tx off gro on >/dev/null
	ip netns exec "$ns" ethtool -K "$dev-x" tx off >/dev/null
	ip -n "$ns" addr add "$3" peer "$4" dev "$dev"
	ip -n "$ns" addr add "$5" dev "$dev" nodad
}

mac_of() { # ns dev
	ip -n "$1" -o link show "$2" | sed -n 's|.*link/ether \([0-9a-f:]*\).*|\1|p'
}

# start_end NS WAN NETDEV PEER_MAC MODE OUTFILE [ARGS]: starts the tool, waits until it is
# ready, prints its pid (ip netns exec execs the tool: the pid is the tool's). The tool
# pins nothing, so bpffs is not needed.
start_end() {
	local ns=$1 ready=$PXP_TMP/ready-$1
	rm -f "$ready"
	ip netns exec "$ns" "$TOOL" --wan "$2" --netdev "$3" --peer "$3-x" --session-id $SID \
		--peer-mac "$4" --mode "$5" --ready "$ready" "${@:7}" >"$6" 2>"$6.err" &
	local pid=$!
	wait_for 10 test -e "$ready" || {
		echo "tool in $ns did not start: $(cat "$6.err")" >&2
		return 1
	}
	echo $pid
}

stop_end() { # pid: SIGTERM, then wait up to 10 s for the exit
	local pid=$1 i
	[ -n "$pid" ] || return 1
	kill -TERM "$pid" 2>/dev/null || return 1
	for ((i = 0; i < 100; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	! kill -0 "$pid" 2>/dev/null
}

setup() {
	topo_create pppoe || return 1
	ip -n "$NS_ROUTER" link del wan0
	ip link add wan0 netns "$NS_ROUTER" numtxqueues 2 numrxqueues 2 type veth \
		peer name isp0 netns "$NS_ISP" numtxqueues 2 numrxqueues 2 || return 1
	ip -n "$NS_ROUTER" link set wan0 up
	ip -n "$NS_ISP" link set isp0 up
	ip netns exec "$NS_ROUTER" ethtool -K wan0 tso off gso off >/dev/null
	ip netns exec "$NS_ISP" ethtool -K isp0 tso off gso off >/dev/null
	make_session_netdev "$NS_ROUTER" pxp0 100.64.1.2 100.64.1.1 2001:db8:1::2/64 || return 1
	make_session_netdev "$NS_ISP" pxs0 100.64.1.1 100.64.1.2 2001:db8:1::1/64 || return 1
	ip -n "$NS_ROUTER" route add default dev pxp0
	ip -n "$NS_ROUTER" -6 route add default dev pxp0
	ip -n "$NS_ISP" -6 route add fd00:100::/64 via 2001:db8:1::2 dev pxs0
	topo_nat_out pxp0
	# Endpoints generate full checksums: XDP forwards raw bytes.
	ip netns exec "$NS_LAN" ethtool -K lan0 tx off >/dev/null
	ip netns exec "$NS_NET" ethtool -K net0 tx off >/dev/null

	# The ISP end does not clamp: any clamped MSS seen is the engine's work.
	ISP_PID=$(start_end "$NS_ISP" isp0 pxs0 "$(mac_of "$NS_ROUTER" wan0)" xdp \
		"$PXP_TMP/isp.out" --no-mss-clamp) || return 1
	on_cleanup "kill -9 $ISP_PID"
	ROUTER_PID=$(start_end "$NS_ROUTER" wan0 pxp0 "$(mac_of "$NS_ISP" isp0)" afxdp \
		"$PXP_TMP/router.out" --queues 2) || return 1
	on_cleanup "kill -9 $ROUTER_PID"
}

test_ping_v4() {
	ip netns exec "$NS_ROUTER" ping -c 3 -W 2 -i 0.2 100.64.1.1 >/dev/null ||
		fail "router cannot ping the ISP end of the session"
	ip netns exec "$NS_LAN" ping -c 3 -W 2 -i 0.2 198.51.100.2 >/dev/null ||
		fail "lan cannot ping net over IPv4"
}

test_ping_v6() {
	ip netns exec "$NS_LAN" ping -6 -c 3 -W 2 -i 0.2 2001:db8:2::2 >/dev/null ||
		fail "lan cannot ping net over IPv6"
}

# SYN leaving (encap) and SYN-ACK arriving (decap) through the engine both get MSS 1492 - 40.
# Taps never see XDP-redirected or AF_XDP frames on the WAN: look at the far ends instead.
test_mss_clamp() {
	local syn synack
	capture_start "$NS_NET" "$PXP_TMP/syn.txt" -nvi net0 -c 1 'tcp[tcpflags] == tcp-syn' ||
		return
	syn=$CAPTURE_PID
	capture_start "$NS_LAN" "$PXP_TMP/synack.txt" -nvi lan0 -c 1 \
		'tcp[tcpflags] & (tcp-syn|tcp-ack) == (tcp-syn|tcp-ack)' || return
	synack=$CAPTURE_PID
	iperf_server "$NS_NET" 5202
	ip netns exec "$NS_LAN" timeout 20 iperf3 -c 198.51.100.2 -p 5202 -n 64K >/dev/null 2>&1
	wait $syn $synack
	grep -q 'mss 1452' "$PXP_TMP/syn.txt" ||
		fail "SYN at net without mss 1452: $(cat "$PXP_TMP/syn.txt")" || return
	grep -q 'mss 1452' "$PXP_TMP/synack.txt" ||
		fail "SYN-ACK at lan without mss 1452: $(cat "$PXP_TMP/synack.txt")"
}

iperf_check() { # name client server ip [args]
	local mbit
	# 1 s: enough to prove the traffic flows (rates are measured in bench/).
	mbit=$(iperf_tcp "$2" "$3" "$4" 1 "${@:5}") || fail "iperf3 $1 did not run"
	[ "${mbit:-0}" -gt 10 ] || fail "$1 only ${mbit:-0} Mbit/s"
	echo "$1 ${mbit} Mbit/s" >>"$PXP_TMP/rates.txt"
}

test_tcp_up() { iperf_check tcp_up "$NS_LAN" "$NS_NET" 198.51.100.2; }
test_tcp_down() { iperf_check tcp_down "$NS_LAN" "$NS_NET" 198.51.100.2 -R; }
test_tcp6_up() { iperf_check tcp6_up "$NS_LAN" "$NS_NET" 2001:db8:2::2; }
test_udp_up() { iperf_check udp_up "$NS_LAN" "$NS_NET" 198.51.100.2 -u -b 100M -l 1400; }
test_udp_down() { iperf_check udp_down "$NS_LAN" "$NS_NET" 198.51.100.2 -u -b 100M -l 1400 -R; }

counter() { # name lines: the sum over all lines
	sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<"$2" | awk '{ s += $1 } END { print s + 0 }'
}

# Each worker runs on its queue's CPU (queue i on CPU i modulo the CPUs online): pinned
# after the thread exists, as musl allows.
test_workers_pinned() {
	local ncpu task comm q want got n=0
	ncpu=$(getconf _NPROCESSORS_ONLN)
	for task in /proc/"$ROUTER_PID"/task/*; do
		comm=$(cat "$task/comm" 2>/dev/null) || continue
		case $comm in pxp-afxdp-q*) ;; *) continue ;; esac
		q=${comm#pxp-afxdp-q}
		want=$((q % ncpu))
		got=$(awk '/^Cpus_allowed_list:/ { print $2 }' "$task/status")
		[ "$got" = "$want" ] || fail "worker $comm may run on CPUs $got, not CPU $want" || return
		n=$((n + 1))
	done
	[ "$n" -eq 2 ] || fail "expected 2 workers (threads pxp-afxdp-q*), found $n"
}

# SIGTERM in the middle of a UDP flood: the tool exits at once, nothing stays attached, the
# counters add up.
test_stop_clean() {
	local out=$PXP_TMP/router.out line flood
	iperf_server "$NS_NET" 5203
	ip netns exec "$NS_LAN" timeout 10 iperf3 -c 198.51.100.2 -p 5203 -u -b 300M -l 1400 -t 4 \
		>/dev/null 2>&1 &
	flood=$!
	sleep 1.5
	stop_end "$ROUTER_PID" || fail "the engine did not exit on SIGTERM within 10 s" || return
	kill "$flood" 2>/dev/null
	wait "$flood" 2>/dev/null
	ROUTER_PID=
	! ip -n "$NS_ROUTER" link show wan0 | grep -q xdp || fail "XDP left on wan0" || return
	! ip -n "$NS_ROUTER" link show pxp0-x | grep -q xdp || fail "XDP left on pxp0-x" || return
	line=$(grep '^engine q' "$out") ||
		fail "no engine counters printed: $(cat "$out" "$out.err")" || return
	echo "$line" >>"$PXP_TMP/rates.txt"
	grep '^engine mode' "$out" >>"$PXP_TMP/rates.txt"
	[ "$(wc -l <<<"$line")" -eq 2 ] || fail "expected 2 workers: $line" || return
	[ "$(counter decap "$line")" -gt 1000 ] || fail "too few frames decapsulated: $line" || return
	[ "$(counter encap "$line")" -gt 1000 ] || fail "too few frames encapsulated: $line" || return
	[ "$(counter drop_malformed "$line")" -eq 0 ] || fail "malformed drops: $line" || return
	[ "$(counter drop_no_session "$line")" -eq 0 ] || fail "no-session drops: $line" || return
	[ "$(counter drop_other "$line")" -eq 0 ] || fail "other drops: $line" || return
	[ "$(counter rx "$line")" -eq $(($(counter decap "$line") + $(counter encap "$line") + \
		$(counter drop_too_big "$line"))) ] || fail "rx != decap + encap + too_big: $line"
}

# What the engine sent, the ISP's XDP program took as valid session frames, and the reverse.
test_isp_accepted() {
	local out=$PXP_TMP/isp.out line eng
	stop_end "$ISP_PID" || fail "the ISP end did not exit on SIGTERM" || return
	ISP_PID=
	line=$(grep '^bpf ' "$out") || fail "no ISP counters: $(cat "$out" "$out.err")" || return
	eng=$(grep '^engine q' "$PXP_TMP/router.out")
	echo "isp $line" >>"$PXP_TMP/rates.txt"
	[ "$(counter decap "$line")" -ge "$(counter encap "$eng")" ] ||
		fail "the ISP decapsulated fewer frames than the engine sent: $line" || return
	for c in drop_truncated drop_bad_length drop_not_ip; do
		[ "$(counter $c "$line")" -eq 0 ] || fail "ISP $c: $line" || return
	done
	[ "$(counter decap "$line")" -gt 1000 ] || fail "ISP decapsulated too little: $line"
}

missing=$(require_cmds ip ping nft iperf3 jq tcpdump ethtool python3) || {
	skip_test afxdp "missing commands:$missing (make deps installs them)"
	exit 0
}
[ -x "$TOOL" ] || {
	skip_test afxdp "$TOOL not built (make)"
	exit 0
}
setup || {
	echo "FAIL afxdp/setup: could not build the topology or start the session ends"
	exit 1
}
run_test afxdp/ping_v4 test_ping_v4
run_test afxdp/ping_v6 test_ping_v6
run_test afxdp/mss_clamp test_mss_clamp
run_test afxdp/tcp_lan_to_net test_tcp_up
run_test afxdp/tcp_net_to_lan test_tcp_down
run_test afxdp/tcp6_lan_to_net test_tcp6_up
run_test afxdp/udp_lan_to_net test_udp_up
run_test afxdp/udp_net_to_lan test_udp_down
run_test afxdp/workers_pinned test_workers_pinned
run_test afxdp/stop_clean test_stop_clean
run_test afxdp/isp_accepted test_isp_accepted
cat "$PXP_TMP/rates.txt" >&2 2>/dev/null
tests_done
