#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The express data path between two ends of a static PPPoE session (no control plane):
# each end runs tests/tools/dp_static_session, which attaches the XDP programs to its WAN
# port and creates its own pxp0.
#
#   lan ------- router ====== PPPoE session 0x2a over veth ====== isp ------- net
#   lan0     lan1  pxp0 [wan0] XDP                      XDP [isp0] pxp0  isp1    net0
#   192.168.100.2  100.64.1.2                                 100.64.1.1     198.51.100.2
#   fd00:100::2    2001:db8:1::1/64                     2001:db8:1::2/64     2001:db8:2::2
#
# For each mode (xdp, generic, afxdp, tc; then xdp with VLAN 100 on the WAN, xdp spreading
# over 2 CPUs through a cpumap, and tc with VLAN 100): pings both ways (IPv4, IPv6), pxp0's
# own counters (`ip -s link`) moved by the pings on both ends, iperf3
# TCP and UDP both directions, no drop counted on either end, the MSS clamp seen on the
# wire, "frag needed" for a DF ping above the session MTU, both again after a session MTU
# change; then teardown leaves no program of ours on the WAN, also after kill -9 of the
# holder followed by pxp_dp_cleanup_stale(). Mode tc also: no frame on the wire larger than
# the session MTU + 22 (with GRO on the LAN port, so GSO skbs reach pxp0), a malformed frame
# counted and dropped, someone else's tc filter and XDP program on the WAN port survive, and
# a clsact filter of ours (what a crash leaves where there is no tcx) is cleaned up.
# Every mode but afxdp runs as on a kernel without XDP sockets (tests/netns/no_xsks.c, as
# OpenWrt's stock kernels): no XSKMAP is made or used there; mode afxdp has one.
# The halves mixed (--rx tc with XDP sending, --rx xdp with tc sending, --rx xdp-pass with
# the WAN port's GRO coalescing what XDP decapsulated): a shorter pass. Mode tc with the
# clsact filters of kernels without tcx, forced here (tc_clsact): the shorter pass, the
# filter in wan0's clsact qdisc, and kill -9 leaving it for the clean-up.
#
# usage: test_datapath.sh [MODE...]   (default: every mode; a variant runs with its mode)
PXP_NS_PREFIX=${PXP_NS_PREFIX:-pxx$$-}
. "$(dirname "$0")/lib.sh"

DP_TOOL=${DP_TOOL:-$PXP_TOOLS/dp_static_session}
SID=42
MTU=1492
# Traffic here proves that it flows and what is dropped; rates are measured in bench/.
IPERF_SECS=${IPERF_SECS:-1}
declare -A HOLDER # "ns" -> pid of the dp_static_session holding that end
MODE=
END_ARGS=

mac_of() { # ns ifname
	ip -n "$1" -br link show "$2" | awk '{print $3}'
}

# start_end NS WAN PEER_MAC LOCAL_V4 PEER_V4 LOCAL_V6 [TOOL_OPTION]: one end, in MODE. Every
# mode but afxdp runs as on a kernel without XDP sockets (OpenWrt's stock kernels).
start_end() {
	local ns=$1 wan=$2 peer_mac=$3 out=$PXP_TMP/holder-$1.out kernel=()
	[ "$MODE" = afxdp ] || kernel=("${PXP_NO_XSKS_ENV[@]}")
	rm -f "$out" # no "ready" left from an earlier holder
	# Not through in_ns (a shell function): $! must be the holder itself (env execs it).
	ip netns exec "$ns" env "${kernel[@]}" "$DP_TOOL" up --wan "$wan" --sid $SID --peer-mac "$peer_mac" \
		--ifname pxp0 --mtu $MTU --mode "$MODE" --mtu-on-usr1 1400 $END_ARGS ${7:-} \
		>"$out" 2>&1 &
	HOLDER[$ns]=$!
	on_cleanup "kill ${HOLDER[$ns]}"
	wait_for 10 grep -q '^ready' "$out" || {
		echo "holder in $ns: $(cat "$out")" >&2
		return 1
	}
	ip -n "$ns" addr add "$4" peer "$5" dev pxp0 &&
		ip -n "$ns" addr add "$6" dev pxp0 nodad
}

stop_end() { # ns [signal]
	local pid=${HOLDER[$1]}
	kill "-${2:-TERM}" "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	HOLDER[$1]=
}

session_up() {
	local router_mac isp_mac
	router_mac=$(mac_of "$NS_ROUTER" wan0)
	isp_mac=$(mac_of "$NS_ISP" isp0)
	start_end "$NS_ROUTER" wan0 "$isp_mac" 100.64.1.2 100.64.1.1 2001:db8:1::1/64 || return 1
	# The isp end does not clamp: what the hosts see is what the router put on the wire.
	start_end "$NS_ISP" isp0 "$router_mac" 100.64.1.1 100.64.1.2 2001:db8:1::2/64 \
		--no-mss-clamp || return 1
	ip -n "$NS_ROUTER" route replace default dev pxp0
	ip -n "$NS_ROUTER" -6 route replace default via 2001:db8:1::2 dev pxp0
	ip -n "$NS_ISP" -6 route replace fd00:100::/64 via 2001:db8:1::1 dev pxp0
}

session_down() {
	stop_end "$NS_ROUTER"
	stop_end "$NS_ISP"
}

counter() { # ns wan name
	in_ns "$1" "$DP_TOOL" stats --wan "$2" | awk -v n="$3" '$1 == n {print $2}'
}

# Every drop counter of both ends must be zero.
check_no_drops() {
	local ns wan bad
	for ns in "$NS_ROUTER:wan0" "$NS_ISP:isp0"; do
		wan=${ns#*:}
		ns=${ns%%:*}
		bad=$(in_ns "$ns" "$DP_TOOL" stats --wan "$wan" | awk '/^drop_/ && $2 != 0')
		[ -z "$bad" ] || {
			fail "$wan counted drops: $(tr '\n' ' ' <<<"$bad")"
			return 1
		}
	done
}

test_ping_v4() {
	ip netns exec "$NS_ROUTER" ping -c 2 -W 2 -i 0.2 100.64.1.1 >/dev/null ||
		fail "router cannot ping the isp end over the session" || return 1
	ip netns exec "$NS_ISP" ping -c 2 -W 2 -i 0.2 100.64.1.2 >/dev/null ||
		fail "isp cannot ping the router end over the session" || return 1
	ip netns exec "$NS_LAN" ping -c 2 -W 2 -i 0.2 198.51.100.2 >/dev/null ||
		fail "lan cannot ping net (NAT over pxp0)"
}

test_ping_v6() {
	ip netns exec "$NS_LAN" ping -6 -c 2 -W 2 -i 0.2 2001:db8:2::2 >/dev/null ||
		fail "lan cannot ping net over IPv6" || return 1
	ip netns exec "$NS_NET" ping -6 -c 2 -W 2 -i 0.2 fd00:100::2 >/dev/null ||
		fail "net cannot ping lan over IPv6"
}

iperf_check() { # description client_ns server_ns server_ip [iperf3 args]
	local what=$1 mbit
	shift
	mbit=$(iperf_tcp "$1" "$2" "$3" "$IPERF_SECS" "${@:4}") || {
		fail "$what: iperf3 did not run"
		return 1
	}
	echo "${LABEL:-$MODE} $what ${mbit} Mbit/s" >>"$PXP_TMP/throughput"
	[ "${mbit:-0}" -gt 10 ] || fail "$what: only ${mbit} Mbit/s"
}

test_tcp() {
	iperf_check "tcp lan->net" "$NS_LAN" "$NS_NET" 198.51.100.2 || return 1
	iperf_check "tcp net->lan" "$NS_LAN" "$NS_NET" 198.51.100.2 -R || return 1
	iperf_check "tcp6 lan->net" "$NS_LAN" "$NS_NET" 2001:db8:2::2 || return 1
	check_no_drops
}

rcvbuf_errors() { # ns
	ip netns exec "$1" nstat -asz UdpRcvbufErrors | awk '$1 == "UdpRcvbufErrors" {print $2}'
}

# udp_run PORT RECEIVER_NS [-R]: 20 Mbit/s of UDP for IPERF_SECS. Datagrams lost beyond what the
# receiving socket itself refused (a busy shared machine) are unexplained drops.
udp_run() {
	local port=$1 rx_ns=$2 before after out
	shift 2
	iperf_server "$NS_NET" "$port" || fail "no iperf3 server" || return 1
	before=$(rcvbuf_errors "$rx_ns")
	out=$(ip netns exec "$NS_LAN" iperf3 -c 198.51.100.2 -p "$port" -u -b 20M -l 1400 -t "$IPERF_SECS" \
		-J "$@" 2>/dev/null | python3 -c \
		'import json,sys; s=json.load(sys.stdin)["end"]["sum"]; print(s["lost_packets"], s["packets"])')
	after=$(rcvbuf_errors "$rx_ns")
	set -- $out
	[ -n "${2:-}" ] && [ "$2" -gt 0 ] || fail "udp $port: iperf3 did not run" || return 1
	local unexplained=$(($1 - (${after:-0} - ${before:-0})))
	[ "$unexplained" -le $(($2 / 100)) ] ||
		fail "udp $port: $1 of $2 lost, only $((${after:-0} - ${before:-0})) by the receiving socket"
}

test_udp() {
	udp_run 5202 "$NS_NET" || return 1
	udp_run 5203 "$NS_LAN" -R || return 1
	check_no_drops
}

# Both hosts offer MSS 1460. The isp end does not clamp, so the SYN as net receives it is the
# SYN the router's session program put on the wire, and the SYN-ACK as lan receives it is the
# one the router's WAN program clamped: both must say MTU - 40. (tcpdump on the WAN veths cannot
# see the wire itself: XDP-redirected frames bypass the packet taps.)
test_mss_clamp_on_wire() {
	local syn=$PXP_TMP/syn.txt synack=$PXP_TMP/synack.txt
	# Hosts derive their SYN's MSS from a cached path MTU: start from none.
	ip -n "$NS_LAN" route flush cache
	ip -n "$NS_NET" route flush cache
	local t1 t2
	capture_start "$NS_NET" "$syn" -ni net0 -c 1 'tcp port 5301 and tcp[tcpflags] == tcp-syn' ||
		return 1
	t1=$CAPTURE_PID
	capture_start "$NS_LAN" "$synack" -ni lan0 -c 1 \
		'tcp port 5301 and tcp[tcpflags] & (tcp-syn|tcp-ack) == (tcp-syn|tcp-ack)' || return 1
	t2=$CAPTURE_PID
	ip netns exec "$NS_NET" timeout 20 socat -u TCP-LISTEN:5301,reuseaddr - >/dev/null &
	wait_listening "$NS_NET" 5301 || fail "socat does not listen on 5301" || return 1
	ip netns exec "$NS_LAN" sh -c 'echo hi | timeout 10 socat -u - TCP:198.51.100.2:5301' \
		2>/dev/null
	wait $t1 $t2
	grep -q "mss $((MTU - 40))" "$syn" || fail "SYN at net: $(cat "$syn")" || return 1
	grep -q "mss $((MTU - 40))" "$synack" || fail "SYN-ACK at lan: $(cat "$synack")"
}

# A destination per mode: lan caches the path MTU it learns per destination.
mode_dst() {
	case $MODE in
	xdp) echo 198.51.100.2 ;;
	generic) echo 198.51.100.3 ;;
	tc) echo 198.51.100.5 ;;
	*) echo 198.51.100.4 ;;
	esac
}

test_frag_needed() {
	local out dst
	dst=$(mode_dst)
	out=$(ip netns exec "$NS_LAN" ping -M "do" -s 1472 -c 1 -W 2 "$dst" 2>&1)
	echo "$out" | grep -q "mtu = $MTU" ||
		fail "no frag needed with mtu $MTU for a 1500-byte DF ping: $(tr '\n' ' ' <<<"$out")"
}

mtu_of() { # ns ifname
	ip -n "$1" link show "$2" | sed -n 's/.* mtu \([0-9]*\) .*/\1/p'
}

# The session MTU changes while running (as after LCP renegotiation): both netdevs, the
# maps, the MSS clamp and the kernel's frag-needed follow.
test_mtu_change() {
	local out=$PXP_TMP/holder-$NS_ROUTER.out old_mtu=$MTU rc=0
	kill -USR1 "${HOLDER[$NS_ROUTER]}"
	wait_for 10 grep -q "^mtu 1400: ok" "$out" || fail "set_mtu: $(tail -1 "$out")" || return 1
	[ "$(mtu_of "$NS_ROUTER" pxp0)" = 1400 ] && [ "$(mtu_of "$NS_ROUTER" pxp0-x)" = 1400 ] ||
		fail "netdev MTUs $(mtu_of "$NS_ROUTER" pxp0)/$(mtu_of "$NS_ROUTER" pxp0-x)" ||
		return 1
	MTU=1400
	test_mss_clamp_on_wire || rc=1
	if [ $rc = 0 ]; then
		local ping
		ping=$(ip netns exec "$NS_LAN" ping -M "do" -s 1450 -c 1 -W 2 "$(mode_dst)" 2>&1)
		echo "$ping" | grep -q "mtu = 1400" ||
			fail "no frag needed at 1400: $(tr '\n' ' ' <<<"$ping")" || rc=1
	fi
	MTU=$old_mtu
	return $rc
}

# Mode afxdp alone has an XSKMAP: in every other mode neither holder has one nor do its
# programs use one (they run under no_xsks.so, start_end), in afxdp both do.
test_xskmap_only_afxdp() {
	local ns progs ids
	for ns in "$NS_ROUTER" "$NS_ISP"; do
		read -r progs ids <<<"$(pid_xskmaps "${HOLDER[$ns]}")"
		[ "${progs:-0}" -ge 4 ] ||
			fail "holder in $ns: ${progs:-no} BPF programs seen (the check proves nothing)" ||
			return 1
		if [ "$MODE" = afxdp ]; then
			[ -n "$ids" ] || fail "mode afxdp: the holder in $ns has no XSKMAP" || return 1
		else
			[ -z "$ids" ] || fail "mode $MODE: the holder in $ns has XSKMAP $ids" || return 1
		fi
	done
}

xdp_on() { # ns ifname: is any XDP program attached?
	ip -n "$1" link show "$2" | grep -q 'prog/xdp'
}

ours_on() { # ns wan: is a WAN program of ours (XDP or tc) attached?
	in_ns "$1" "$DP_TOOL" stats --wan "$2" >/dev/null 2>&1
}

# What is left on a WAN port: ours, or any XDP program outside mode tc (where someone
# else's may be there, below).
left_on() { # ns wan
	ours_on "$1" "$2" || { [ "$MODE" != tc ] && xdp_on "$1" "$2"; }
}

test_teardown() {
	session_down
	if left_on "$NS_ROUTER" wan0 || left_on "$NS_ISP" isp0; then
		fail "a program is still attached after SIGTERM"
		return 1
	fi
	if ip -n "$NS_ROUTER" link show pxp0 >/dev/null 2>&1; then
		fail "pxp0 still exists after SIGTERM"
		return 1
	fi
}

test_kill9_cleanup() {
	local out=$PXP_TMP/holder-kill9.out
	rm -f "$out"
	ip netns exec "$NS_ROUTER" "$DP_TOOL" up --wan wan0 --sid $SID \
		--peer-mac 02:00:00:00:00:01 --ifname pxp0 --mode "$MODE" $END_ARGS >"$out" 2>&1 &
	local pid=$!
	wait_for 10 grep -q '^ready' "$out" || fail "holder did not start: $(cat "$out")" || return 1
	kill9_and_wait $pid
	wait $pid 2>/dev/null
	if [[ $END_ARGS == *--tc-clsact* ]]; then
		# A clsact filter outlives its holder: the cleanup's to remove, by name.
		ours_on "$NS_ROUTER" wan0 || fail "kill -9 left no clsact filter (proves nothing)" ||
			return 1
	elif [ "$MODE" = tc ]; then
		# A tcx link goes with the holder's last fd: nothing can black-hole the WAN.
		! ours_on "$NS_ROUTER" wan0 || fail "kill -9 left the tc program on wan0" ||
			return 1
	else
		# The point of the cleanup: a dead holder leaves its program on the WAN.
		xdp_on "$NS_ROUTER" wan0 ||
			fail "kill -9 left nothing behind (test proves nothing)" || return 1
	fi
	in_ns "$NS_ROUTER" "$DP_TOOL" cleanup --wan wan0 --ifname pxp0 ||
		fail "cleanup failed" || return 1
	if left_on "$NS_ROUTER" wan0; then
		fail "a program still on wan0 after cleanup"
		return 1
	fi
	if ip -n "$NS_ROUTER" link show pxp0 >/dev/null 2>&1; then
		fail "pxp0 still exists after cleanup"
		return 1
	fi
}

# Mode tc: every frame on the WAN wire, both ways, during TCP both ways is at most the session
# MTU + PPPoE 8 + Ethernet 14 (tc-redirected frames pass the packet taps, so tcpdump on wan0
# sees the wire). GRO on the router's LAN port makes the upload arrive as GSO skbs: they must
# take pxp0's segmentation and still leave MTU-sized (one that did not is dropped as too big,
# which check_no_drops would see).
test_tc_no_frame_above_mtu() {
	local pcap=$PXP_TMP/wan0.pcap cap max rc=0
	ip netns exec "$NS_ROUTER" ethtool -K lan1 gro on >/dev/null
	capture_start "$NS_ROUTER" "$PXP_TMP/wan0.cap" -ni wan0 -s 64 -w "$pcap" 'ether proto 0x8864' || {
		ip netns exec "$NS_ROUTER" ethtool -K lan1 gro off >/dev/null
		return 1
	}
	cap=$CAPTURE_PID
	iperf_check "tcp lan->net (lan1 GRO)" "$NS_LAN" "$NS_NET" 198.51.100.2 || rc=1
	iperf_check "tcp net->lan (lan1 GRO)" "$NS_LAN" "$NS_NET" 198.51.100.2 -R || rc=1
	sleep 0.5
	kill -INT $cap 2>/dev/null
	wait $cap 2>/dev/null
	ip netns exec "$NS_ROUTER" ethtool -K lan1 gro off >/dev/null
	[ $rc = 0 ] || return 1
	# pcap: 24-byte file header, then records of 16 bytes, orig_len at offset 12.
	max=$(python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read()
o, n, big, full = 24, 0, 0, 0
while o + 16 <= len(d):
    incl, orig = struct.unpack_from("<II", d, o + 8)
    n += 1; big = max(big, orig); full += orig >= 1500
    o += 16 + incl
print(n, big, full)' "$pcap")
	set -- $max
	[ "${1:-0}" -gt 1000 ] || fail "only ${1:-0} PPPoE frames captured on wan0" || return 1
	[ "$2" -le $((MTU + 22)) ] || fail "a $2-byte frame on the wire (limit $((MTU + 22)))" ||
		return 1
	[ "$3" -gt 100 ] || fail "only $3 full-sized frames: the capture saw no bulk transfer" ||
		return 1
	check_no_drops
}

bad_length_above() { # n
	[ "$(counter "$NS_ROUTER" wan0 drop_bad_length)" -gt "$1" ]
}

# A PPPoE frame of our session whose length field lies, sent by the isp side onto the wire:
# the router's tc program counts it under drop_bad_length and drops it.
test_tc_malformed_dropped() {
	local before after
	before=$(counter "$NS_ROUTER" wan0 drop_bad_length)
	ip netns exec "$NS_ISP" python3 -c '
import socket, struct, sys
dst = bytes.fromhex(sys.argv[1].replace(":", ""))
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("isp0", 0))
src = s.getsockname()[4]
ip = bytes([0x45]) + bytes(39)
frame = dst + src + struct.pack("!HBBHHH", 0x8864, 0x11, 0, int(sys.argv[2]), 0x500, 0x21) + ip
s.send(frame)' "$(mac_of "$NS_ROUTER" wan0)" $SID || fail "could not send the frame" || return 1
	wait_for 10 bad_length_above "${before:-0}"
	after=$(counter "$NS_ROUTER" wan0 drop_bad_length)
	[ "${after:-0}" -eq $((${before:-0} + 1)) ] ||
		fail "drop_bad_length went from ${before:-?} to ${after:-?}, want one more"
}

FOREIGN_OBJ=$PXP_ROOT/build/tests/netns/foreign.bpf.o

# Someone else's tc filter (clsact, pref 10) and XDP program on the router's WAN port,
# put there before the session starts.
foreign_attach() {
	ip netns exec "$NS_ROUTER" tc qdisc add dev wan0 clsact 2>/dev/null
	ip netns exec "$NS_ROUTER" tc filter add dev wan0 ingress pref 10 bpf da \
		obj "$FOREIGN_OBJ" sec tc &&
		ip -n "$NS_ROUTER" link set dev wan0 xdp obj "$FOREIGN_OBJ" sec xdp
}

# Where the kernel has no tcx the programs are clsact filters of our handle, which outlive
# a crashed daemon. One of ours put there by hand (tc's own loader, our handle and priority)
# is removed by the cleanup after a crash; someone else's filter beside it stays.
test_tc_stale_filter_removed() {
	local tcf="ip netns exec $NS_ROUTER tc filter"
	ip netns exec "$NS_ROUTER" tc qdisc add dev wan0 clsact 2>/dev/null
	$tcf add dev wan0 ingress pref 10 bpf da obj "$FOREIGN_OBJ" sec tc &&
		$tcf add dev wan0 ingress handle 0x7078 pref 0x7078 bpf da \
			obj "$PXP_ROOT/build/bpf/tc_wan.bpf.o" sec tc ||
		fail "could not put the filters there" || return 1
	$tcf show dev wan0 ingress | grep -q pxp_tc_wan || fail "no pxp_tc_wan filter to remove" ||
		return 1
	in_ns "$NS_ROUTER" "$DP_TOOL" cleanup --wan wan0 --ifname pxp0 || fail "cleanup failed" ||
		return 1
	! $tcf show dev wan0 ingress | grep -q pxp_tc_wan ||
		fail "the stale pxp_tc_wan filter is still there" || return 1
	$tcf show dev wan0 ingress | grep -q foreign_tc || fail "the foreign filter went too" ||
		return 1
	$tcf del dev wan0 ingress pref 10
}

test_tc_foreign_survives() {
	ip netns exec "$NS_ROUTER" tc filter show dev wan0 ingress | grep -q foreign_tc ||
		fail "the foreign tc filter is gone" || return 1
	ip -n "$NS_ROUTER" link show wan0 | grep -q 'prog/xdp' ||
		fail "the foreign XDP program is gone" || return 1
	ip -n "$NS_ROUTER" link set dev wan0 xdp off
	ip netns exec "$NS_ROUTER" tc filter del dev wan0 ingress pref 10
}

missing=$(require_cmds ip ping nft iperf3 jq tcpdump ethtool python3 socat tc) || {
	skip_test datapath "missing commands:$missing (make deps installs them)"
	exit 0
}
[ -x "$DP_TOOL" ] || {
	echo "FAIL datapath/tool: $DP_TOOL not built"
	exit 1
}
[ -f "$PXP_NO_XSKS_SO" ] || {
	echo "FAIL datapath/build: $PXP_NO_XSKS_SO is missing (run make)"
	exit 1
}
topo_create pppoe || {
	echo "FAIL datapath/topology: could not build the topology"
	exit 1
}
# link_counts NS [IFNAME]: "rx_packets rx_bytes tx_packets tx_bytes" of IFNAME (pxp0) as
# `ip -s link` shows them (status and stats read the same kernel counters).
link_counts() {
	ip -n "$1" -s link show "${2:-pxp0}" |
		awk '/RX:/ { getline; rb = $1; rp = $2 } /TX:/ { getline; tb = $1; tp = $2 }
			END { print rp, rb, tp, tb }'
}

# Receive half tc on a veth pxp0: the decapsulated packets reach pxp0's GRO (its hidden
# peer has TSO off, pxp_netdev_peer_to_gro), so the router forwards fewer, larger packets to
# the LAN (lan1's transmit counts a coalesced packet once) than it decapsulated.
test_tc_rx_coalesced() {
	local dec0 tx0 dec tx
	dec0=$(counter "$NS_ROUTER" wan0 decap)
	tx0=$(link_counts "$NS_ROUTER" lan1 | cut -d' ' -f3)
	iperf_check "tcp net->lan (rx tc)" "$NS_LAN" "$NS_NET" 198.51.100.2 -R || return 1
	dec=$(($(counter "$NS_ROUTER" wan0 decap) - dec0))
	tx=$(($(link_counts "$NS_ROUTER" lan1 | cut -d' ' -f3) - tx0))
	echo "# ${LABEL:-$MODE} download: $dec frames decapsulated, $tx packets out of lan1" >&2
	[ "$dec" -gt 1000 ] && [ "$tx" -lt $((dec * 3 / 4)) ] ||
		fail "$dec frames decapsulated left lan1 as $tx packets: no GRO on pxp0"
}

# pxp0's own counters move by the traffic, both ends, whichever programs run each half:
# N pings are at least N packets of at least 84 bytes sent and received on each pxp0, and
# fewer than 2N (nothing counted twice).
test_netdev_counters() {
	local n=40 ns before after d i what
	local -A b
	for ns in "$NS_ROUTER" "$NS_ISP"; do b[$ns]=$(link_counts "$ns"); done
	ip netns exec "$NS_ROUTER" ping -c $n -i 0.02 -W 2 -q 100.64.1.1 >/dev/null ||
		fail "ping over the session failed" || return 1
	for ns in "$NS_ROUTER" "$NS_ISP"; do
		before=(${b[$ns]})
		after=($(link_counts "$ns"))
		for i in 0 1 2 3; do
			d=$((after[i] - before[i]))
			what=$(echo "rx_packets rx_bytes tx_packets tx_bytes" | cut -d' ' -f$((i + 1)))
			if [ $((i % 2)) = 0 ]; then
				[ $d -ge $n ] && [ $d -lt $((2 * n)) ] ||
					fail "$ns pxp0 $what moved by $d for $n pings" || return 1
			else
				[ $d -ge $((n * 84)) ] ||
					fail "$ns pxp0 $what moved by $d for $n pings of 84 bytes" ||
					return 1
			fi
		done
	done
}

topo_nat_out pxp0
# Extra addresses for test_frag_needed, one per mode.
ip -n "$NS_NET" addr add 198.51.100.3/24 dev net0
ip -n "$NS_NET" addr add 198.51.100.4/24 dev net0
ip -n "$NS_NET" addr add 198.51.100.5/24 dev net0
MODES=${*:-xdp generic afxdp tc}
wanted() { [[ " $MODES " == *" $1 "* ]]; }
# Hosts whose TCP crosses an XDP-redirecting veth must finish their own checksums.
ip netns exec "$NS_LAN" ethtool -K lan0 tx off >/dev/null
ip netns exec "$NS_NET" ethtool -K net0 tx off >/dev/null

for MODE in $MODES; do
	if [ "$MODE" = tc ] && ! foreign_attach; then
		echo "FAIL datapath/tc/foreign_attach: could not attach the foreign programs"
		PXP_FAILED=1
	fi
	if ! session_up; then
		echo "FAIL datapath/$MODE/session_up: the static session did not come up"
		PXP_FAILED=1
		session_down
		continue
	fi
	run_test "datapath/$MODE/xskmap_only_in_afxdp" test_xskmap_only_afxdp
	run_test "datapath/$MODE/ping_v4" test_ping_v4
	run_test "datapath/$MODE/ping_v6" test_ping_v6
	run_test "datapath/$MODE/netdev_counters" test_netdev_counters
	run_test "datapath/$MODE/tcp_both_ways" test_tcp
	run_test "datapath/$MODE/udp_both_ways" test_udp
	run_test "datapath/$MODE/mss_clamp_on_wire" test_mss_clamp_on_wire
	run_test "datapath/$MODE/frag_needed" test_frag_needed
	if [ "$MODE" = tc ]; then
		run_test "datapath/$MODE/no_frame_above_mtu" test_tc_no_frame_above_mtu
		run_test "datapath/$MODE/malformed_dropped" test_tc_malformed_dropped
		run_test "datapath/$MODE/rx_coalesced" test_tc_rx_coalesced
	fi
	run_test "datapath/$MODE/mtu_change" test_mtu_change
	run_test "datapath/$MODE/teardown_detaches" test_teardown
	[ "$MODE" = tc ] && run_test "datapath/$MODE/foreign_programs_survive" test_tc_foreign_survives
	run_test "datapath/$MODE/kill9_then_cleanup" test_kill9_cleanup
	[ "$MODE" = tc ] && run_test "datapath/$MODE/stale_clsact_filter_removed" \
		test_tc_stale_filter_removed
done
# With --cpus every decapsulated frame went through the cpumap: none fell back.
test_cpumap_used() {
	local fb decap
	fb=$(counter "$NS_ROUTER" wan0 cpu_fallback)
	decap=$(counter "$NS_ROUTER" wan0 decap)
	[ "${decap:-0}" -gt 0 ] || fail "nothing decapsulated" || return 1
	[ "${fb:-1}" -eq 0 ] || fail "$fb of $decap frames fell back from the cpumap"
}

# Receive half xdp-pass: the WAN port's GRO coalesced the decapsulated frames, so the tc
# program redirected fewer (larger) packets into pxp0 than the XDP program decapsulated.
test_gro_coalesced() {
	local dec0 rx0 dec rx
	dec0=$(counter "$NS_ROUTER" wan0 decap)
	rx0=$(counter "$NS_ROUTER" wan0 pass_redirected)
	iperf_check "tcp net->lan (xdp-pass)" "$NS_LAN" "$NS_NET" 198.51.100.2 -R || return 1
	dec=$(($(counter "$NS_ROUTER" wan0 decap) - dec0))
	rx=$(($(counter "$NS_ROUTER" wan0 pass_redirected) - rx0))
	echo "# $LABEL download: $dec frames decapsulated, $rx packets redirected into pxp0" >&2
	[ "$dec" -gt 1000 ] && [ "$rx" -lt $((dec * 3 / 4)) ] ||
		fail "$dec frames decapsulated became $rx packets on pxp0: no GRO"
}

wan_gro() { # on|off: GRO on both WAN veths, as a NIC has it
	ip netns exec "$NS_ROUTER" ethtool -K wan0 gro "$1" >/dev/null
	ip netns exec "$NS_ISP" ethtool -K isp0 gro "$1" >/dev/null
}

# --tc-clsact: the WAN's program is a filter of ours in wan0's clsact qdisc, not a tcx link.
test_wan_is_clsact() {
	in_ns "$NS_ROUTER" tc filter show dev wan0 ingress | grep -q 'pxp_tc_wan' ||
		fail "no pxp_tc_wan filter in wan0's clsact: $(in_ns "$NS_ROUTER" tc filter show dev wan0 ingress)" ||
		return 1
	grep -q 'rx tc (clsact)' "$PXP_TMP/holder-$NS_ROUTER.out" ||
		fail "the holder says $(cat "$PXP_TMP/holder-$NS_ROUTER.out")"
}

# variant LABEL MODE TOOL_ARGS [WAN_GRO]: a shorter pass with extra options on both ends.
variant() {
	LABEL=$1 MODE=$2 END_ARGS=$3
	wanted "$MODE" || return 0
	[ -n "${4:-}" ] && wan_gro on
	if ! session_up; then
		# xdp-pass and --cpus hand the session over in XDP metadata, which some kernels
		# refuse: the data path says so and refuses the option.
		if grep -q 'refuses bpf_xdp_adjust_meta' "$PXP_TMP/holder-$NS_ROUTER.out"; then
			echo "SKIP datapath/$LABEL: this kernel refuses bpf_xdp_adjust_meta to XDP programs (the data path refused $END_ARGS, naming it)"
		else
			echo "FAIL datapath/$LABEL/session_up: the static session did not come up"
			PXP_FAILED=1
		fi
		session_down
		[ -n "${4:-}" ] && wan_gro off
		return
	fi
	run_test "datapath/$LABEL/xskmap_only_in_afxdp" test_xskmap_only_afxdp
	run_test "datapath/$LABEL/ping_v4" test_ping_v4
	run_test "datapath/$LABEL/ping_v6" test_ping_v6
	run_test "datapath/$LABEL/netdev_counters" test_netdev_counters
	run_test "datapath/$LABEL/tcp_both_ways" test_tcp
	run_test "datapath/$LABEL/mss_clamp_on_wire" test_mss_clamp_on_wire
	case $END_ARGS in *--cpus*) run_test "datapath/$LABEL/cpumap_used" test_cpumap_used ;; esac
	case $END_ARGS in *xdp-pass*) run_test "datapath/$LABEL/gro_coalesced" test_gro_coalesced ;; esac
	case $END_ARGS in *"--rx tc"*) run_test "datapath/$LABEL/rx_coalesced" test_tc_rx_coalesced ;; esac
	case $END_ARGS in *--tc-clsact*) run_test "datapath/$LABEL/wan_is_clsact" test_wan_is_clsact ;; esac
	run_test "datapath/$LABEL/teardown_detaches" test_teardown
	case $END_ARGS in *--tc-clsact*) run_test "datapath/$LABEL/kill9_then_cleanup" test_kill9_cleanup ;; esac
	[ -n "${4:-}" ] && wan_gro off
}

# 802.1Q on the WAN: this kernel has no 802.1Q support, the programs push and pop the tag
# (each end takes only frames tagged with its VID, so traffic flowing proves the tags).
variant xdp_vlan100 xdp "--vlan 100 --vlan-pcp 5"
# Software RSS: decapsulated frames spread over 2 CPUs through the cpumap.
variant xdp_cpus2 xdp "--cpus 2"
# Mode tc on a tagged WAN: the stack hands tc the tag outside the frame (skb->vlan_tci).
variant tc_vlan100 tc "--vlan 100 --vlan-pcp 5"
# The halves mixed, as the bench measures them: tc receiving with XDP sending, and back.
# XDP sending into a veth whose other end runs no XDP program needs GRO there (DESIGN.md).
variant rx_tc_tx_xdp xdp "--rx tc" wan_gro
variant rx_xdp_tx_tc tc "--rx xdp"
# The clsact fallback of kernels without tcx (Debian 12's 6.1), forced where tcx exists.
variant tc_clsact tc "--tc-clsact"
# XDP decapsulates and passes, the WAN port's GRO coalesces, tc redirects into pxp0.
variant rx_xdppass_tx_tc tc "--rx xdp-pass" wan_gro
[ -f "$PXP_TMP/throughput" ] && sed 's/^/# /' "$PXP_TMP/throughput" >&2
tests_done
