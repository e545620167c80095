#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The whole system: our access concentrator on isp, `pppoe-xp up` on the router, traffic
# between lan and net through NAT on pxp0, for each data path mode (both ends in that mode).
#
#   lan ---------- router ================= isp ---------- net
#   lan0      lan1      wan0    PPPoE     isp0      isp1      net0
#   192.168.100.2       pxp0 100.64.1.2   pxs<N> 100.64.1.1   198.51.100.2
#   fd00:100::2         (pppoe-xp up)     (pppoe-xp server)   2001:db8:2::2
#                       wan1 ============ isp2: isp0  (second session, last case)
#                       pxp1 100.64.2.2   pxs<M> 100.64.2.1
#
# Per mode (xdp, generic, afxdp, tc): iperf3 TCP and UDP both ways lan<->net; no drop counted
# by either data path (stats) that the test cannot explain; the TCP MSS clamp (SYN and
# SYN-ACK carry MSS 1452 with 1500-byte host MTUs); "frag needed" / "packet too big" with
# the session MTU for oversize DF pings from lan. Then: kill -9 of the client leaves the
# WAN port passing discovery and the next `up` works at once; two sessions on two WAN
# ports carry traffic at the same time, each counted apart, and ending one leaves the other.
# Per mode also: the session netdevs carry only the IPv6CP link-local address; a one-way
# upload raises encap/decap but neither rx nor tx (rx = WAN frames, tx = stack frames, also
# in afxdp mode). --cpus 2 (cpumap spreading) carries TCP both ways and is refused with
# afxdp; --vlan-pcp tags the data path's frames, not only the daemon's; a tbf qdisc on pxp0
# shapes the upload (modes xdp and tc: the tc transmit half runs past pxp0's qdisc, on its
# hidden peer); status names the programs of each half.
# EXPRESS_MODES="afxdp" limits the per-mode cases to the modes named.
PXP_NS_PREFIX=pxw$$-
. "$(dirname "$0")/lib.sh"

NS_ISP2=${PXP_NS_PREFIX}isp2
RUN_S2=$PXP_TMP/run-server2
MTU=1492
# Traffic here proves that it flows and what is dropped; rates are measured in bench/.
IPERF_SECS=1
MODE=
# Extra options for session_up's server and client (word-split on purpose).
SERVER_ARGS=
CLIENT_ARGS=

server2() { in_ns "$NS_ISP2" env PPPOE_XP_RUN_DIR="$RUN_S2" "$B" "$@"; }

reset() {
	client down wan1 >/dev/null 2>&1
	client down wan0 >/dev/null 2>&1
	server down isp0 >/dev/null 2>&1
	ip netns list | awk '{print $1}' | grep -qx "$NS_ISP2" && server2 down isp0 >/dev/null 2>&1
	end_ns_pids "$NS_ROUTER" "$NS_ISP" "$NS_ISP2"
	return 0
}

# The server's session netdev (pxs<id>) in namespace NS.
session_netdev_in() {
	ip -n "$1" -br link show | sed -n 's/^\(pxs[0-9]*\)@.*/\1/p' | head -1
}

# Hosts and netdevs whose TCP/UDP crosses an XDP-redirecting veth finish their checksums.
tx_csum_off() { # ns ifname...
	local ns=$1 dev
	shift
	for dev in "$@"; do
		ip netns exec "$ns" ethtool -K "$dev" tx off >/dev/null 2>&1
	done
}

# Brings up the session in MODE with routes for IPv4 (NAT) and IPv6 (routed).
session_up() {
	local pxs
	reset
	server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth pap \
		--secrets "$SECRETS" --ac-name pxw-ac --ipv6 --mode "$MODE" $SERVER_ARGS \
		>"$PXP_TMP/server.out" 2>&1 ||
		fail "server --mode $MODE did not start: $(cat "$PXP_TMP/server.out")" || return 1
	client up wan0 --user alice --password secret1 --ipv6 --defaultroute --mode "$MODE" \
		$CLIENT_ARGS >"$PXP_TMP/client.out" 2>&1 ||
		fail "up --mode $MODE $CLIENT_ARGS failed: $(cat "$PXP_TMP/client.out")" || return 1
	pxs=$(session_netdev_in "$NS_ISP")
	[ -n "$pxs" ] || fail "no session netdev on the server" || return 1
	tx_csum_off "$NS_ROUTER" pxp0
	tx_csum_off "$NS_ISP" "$pxs"
	ip -n "$NS_ROUTER" -6 route replace default dev pxp0
	ip -n "$NS_ISP" -6 route replace fd00:100::/64 dev "$pxs"
	in_ns "$NS_LAN" ping -c 1 -W 2 198.51.100.2 >/dev/null ||
		fail "lan cannot reach net through the session in $MODE mode"
}

# total_of ROLE FIELD: a column of the total row of `stats` (client wan0 / server isp0 /
# client wan1): rx tx decap encap malformed no_session too_big ring_full other; "drops"
# is the sum of the drop columns.
total_of() {
	local out
	case $1 in
	client) out=$(client stats wan0) ;;
	client1) out=$(client stats wan1) ;;
	server) out=$(server stats isp0) ;;
	esac || return 1
	awk -v f="$2" '
		$1 == "total" {
			n["rx"] = $2; n["tx"] = $3; n["decap"] = $4; n["encap"] = $5
			n["malformed"] = $6; n["no_session"] = $7; n["too_big"] = $8
			n["ring_full"] = $9; n["other"] = $10
			n["drops"] = $6 + $7 + $8 + $9 + $10
			print n[f]
		}' <<<"$out"
}

named_drops() { # ROLE: "malformed=0 no_session=0 too_big=0 ring_full=12 other=0"
	local f out=
	for f in malformed no_session too_big ring_full other; do
		out="$out $f=$(total_of "$1" $f)"
	done
	echo "${out# }"
}

# Drop counts of both ends, to compare before and after traffic.
drops_now() {
	local c s
	c=$(total_of client drops)
	s=$(total_of server drops)
	[[ $c =~ ^[0-9]+$ && $s =~ ^[0-9]+$ ]] || return 1
	echo "$c $s"
}

check_no_new_drops() { # "client server" counts taken before
	local before=$1 after detail
	after=$(drops_now) || fail "cannot read the drop counters (pppoe-xp stats)" || return 1
	[ "$before" = "$after" ] && return 0
	detail="client $(named_drops client), server $(named_drops server)"
	fail "the data path counted drops (totals before: $before, after: $after): $detail"
}

iperf_check() { # description [iperf3 args]
	local what=$1 mbit
	shift
	mbit=$(iperf_tcp "$NS_LAN" "$NS_NET" 198.51.100.2 "$IPERF_SECS" "$@") ||
		fail "$what: iperf3 did not run" || return 1
	echo "# $MODE $what ${mbit} Mbit/s"
	[ "${mbit:-0}" -gt 10 ] || fail "$what: only ${mbit} Mbit/s"
}

test_tcp() {
	local before
	before=$(drops_now) || fail "cannot read the drop counters (pppoe-xp stats)" || return 1
	iperf_check "tcp lan->net" || return 1
	iperf_check "tcp net->lan" -R || return 1
	echo "# $MODE drops after tcp: client $(named_drops client), server $(named_drops server)"
	check_no_new_drops "$before"
}

rcvbuf_errors() { # ns
	ip netns exec "$1" nstat -asz UdpRcvbufErrors | awk '$1 == "UdpRcvbufErrors" {print $2}'
}

# udp_run PORT RECEIVER_NS [-R]: 50 Mbit/s of UDP for IPERF_SECS. Datagrams lost beyond
# those the receiving socket refused (a busy shared machine) must stay under 1%.
udp_run() {
	local port=$1 rx_ns=$2 before after out lost total
	shift 2
	iperf_server "$NS_NET" "$port" || fail "no iperf3 server" || return 1
	before=$(rcvbuf_errors "$rx_ns")
	out=$(ip netns exec "$NS_LAN" iperf3 -c 198.51.100.2 -p "$port" -u -b 50M -l 1400 \
		-t "$IPERF_SECS" -J "$@" 2>/dev/null | python3 -c \
		'import json,sys; s=json.load(sys.stdin)["end"]["sum"]; print(s["lost_packets"], s["packets"])')
	after=$(rcvbuf_errors "$rx_ns")
	read -r lost total <<<"$out"
	[ "${total:-0}" -gt 0 ] || fail "udp $*: iperf3 did not run" || return 1
	echo "# $MODE udp ${*:-lan->net}: $lost of $total lost"
	[ $((lost - (${after:-0} - ${before:-0}))) -le $((total / 100)) ] ||
		fail "udp ${*:-lan->net}: $lost of $total lost, only $((${after:-0} - ${before:-0})) by the receiving socket"
}

test_udp() {
	local before
	before=$(drops_now) || fail "cannot read the drop counters (pppoe-xp stats)" || return 1
	udp_run 5202 "$NS_NET" || return 1
	udp_run 5203 "$NS_LAN" -R || return 1
	check_no_new_drops "$before"
}

# rx counts the frames the WAN port received and tx those the session netdev sent, in every
# mode: a one-way upload moves the client's encap and the server's decap, not the client's
# rx nor the server's tx (the AF_XDP engine's own rx/tx count both of its sockets).
test_counters() {
	local rx0 enc0 tx0 dec0 got d_rx d_enc d_tx d_dec
	rx0=$(total_of client rx)
	enc0=$(total_of client encap)
	tx0=$(total_of server tx)
	dec0=$(total_of server decap)
	got=$(udp_to "$NS_NET" 198.51.100.2 5404)
	[ "${got:-0}" -gt 1000 ] || fail "udp upload delivered '$got' datagrams" || return 1
	d_rx=$(($(total_of client rx) - rx0))
	d_enc=$(($(total_of client encap) - enc0))
	d_tx=$(($(total_of server tx) - tx0))
	d_dec=$(($(total_of server decap) - dec0))
	echo "# $MODE upload of $got datagrams: client rx +$d_rx encap +$d_enc, server decap +$d_dec tx +$d_tx"
	[ $d_enc -ge "$got" ] && [ $d_dec -ge "$got" ] ||
		fail "encap +$d_enc / decap +$d_dec for $got datagrams" || return 1
	[ $d_rx -lt $((got / 2)) ] && [ $d_tx -lt $((got / 2)) ] ||
		fail "one-way upload of $got raised the client's rx by $d_rx, the server's tx by $d_tx"
}

# The session netdevs carry only the IPv6CP link-local address, as ppp0 does: no
# kernel-made fe80::<MAC> besides it.
link_local_of() { # ns ifname
	ip -n "$1" -6 -o addr show dev "$2" scope link | awk '{print $4}'
}

ipv6cp_local() { client status wan0 | awk -F': ' '$1 ~ /^ *ipv6_local$/ {print $2; exit}'; }
has_ipv6cp_local() { [[ $(ipv6cp_local) == fe80:* ]]; }

test_one_link_local() {
	local want got pxs
	wait_for 10 has_ipv6cp_local || fail "IPv6CP gave no local address" || return 1
	want=$(ipv6cp_local)
	got=$(link_local_of "$NS_ROUTER" pxp0 | tr '\n' ' ')
	[ "$got" = "$want/64 " ] || [ "$got" = "$want/128 " ] ||
		fail "pxp0 has link-local '$got', IPv6CP negotiated $want" || return 1
	pxs=$(session_netdev_in "$NS_ISP")
	got=$(link_local_of "$NS_ISP" "$pxs")
	[ "$(echo "$got" | wc -w)" = 1 ] || fail "$pxs has link-local addresses: $got"
}

# Both hosts offer MSS 1460 (MTU 1500): the SYN as net receives it and the SYN-ACK as lan
# receives it must say MTU - 40. Seen at the hosts, not on isp0: frames an XDP program
# redirects into or out of a veth bypass the packet taps of both WAN veths, so tcpdump on
# isp0 shows nothing of the data path's traffic (both ends of the session clamp).
test_mss_clamp() {
	local syn=$PXP_TMP/syn.txt synack=$PXP_TMP/synack.txt t1 t2
	ip -n "$NS_LAN" route flush cache
	ip -n "$NS_NET" route flush cache
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

# Both ends spread decapsulation over two CPUs through the cpumap: a missing cpumap entry
# would drop every frame. afxdp has its own workers, so the option is refused there.
test_cpu_spread() {
	local rc
	client up wan0 --cpus 2 --mode afxdp >"$PXP_TMP/cpus.out" 2>&1
	rc=$?
	[ $rc = 2 ] && grep -q -- '--cpus' "$PXP_TMP/cpus.out" ||
		fail "up --cpus 2 --mode afxdp exited $rc: $(cat "$PXP_TMP/cpus.out")" || return 1
	local MODE=xdp SERVER_ARGS="--cpus 2" CLIENT_ARGS="--cpus 2"
	session_up || {
		# The cpumap's program learns the session from XDP metadata, which some kernels refuse.
		grep -q 'refuses bpf_xdp_adjust_meta' "$PXP_TMP/server.out" || return 1
		skip_case "this kernel refuses bpf_xdp_adjust_meta to XDP programs (the AC refused --cpus 2, naming it)"
		return
	}
	test_tcp
}

# The data path's frames carry --vlan-pcp. They bypass the WAN veths' packet taps while both
# ends run XDP, so the AC is killed and its program removed: isp0 (GRO on, or a redirect into
# wan0 is dropped) then hands the router's encapsulated pings to its stack, past tcpdump.
# --vlan-pcp reaches the data path: the egress session record carries the priority in the
# tag it pushes (tests/bpf checks byte for byte that encapsulation writes that tag). Frames
# redirected by XDP skip every capture point of the veth WAN, so no capture here.
test_vlan_pcp_data() {
	local MODE=xdp SERVER_ARGS="--vlan 7" CLIENT_ARGS="--vlan 7 --vlan-pcp 5" tags
	session_up || return 1
	# bpftool's JSON differs with one or several maps of that name: find the field anywhere.
	tags=$(bpftool -j map dump name pxp_egress 2>/dev/null | python3 -c '
import json, sys
def tags(o):
    if isinstance(o, dict):
        if "vlan_tci" in o:
            yield o["vlan_tci"]
        for v in o.values():
            yield from tags(v)
    elif isinstance(o, list):
        for v in o:
            yield from tags(v)
print(" ".join(str(t) for t in tags(json.load(sys.stdin))))') ||
		fail "cannot read the egress session records" || return 1
	# PCP 5, VID 7: 5 << 13 | 7
	case " $tags " in
	*" 40967 "*) ;;
	*) fail "no egress record with priority 5 on VLAN 7 (tags: $tags)" ;;
	esac
}

# The router answers a 1500-byte DF packet bound for pxp0 itself (the second ping of a
# run may report the cached path MTU locally: same number).
test_frag_needed() {
	local out
	ip -n "$NS_LAN" route flush cache
	out=$(ip netns exec "$NS_LAN" ping -M "do" -s 1472 -c 2 -i 0.3 -W 2 198.51.100.2 2>&1)
	echo "$out" | grep -Eq "mtu ?= ?$MTU" ||
		fail "no frag needed with mtu $MTU for a 1500-byte DF ping: ${out//$'\n'/ }"
}

test_packet_too_big() {
	local out
	ip netns exec "$NS_LAN" ping -6 -c 1 -W 2 2001:db8:2::2 >/dev/null ||
		fail "lan cannot ping net over IPv6 through the session" || return 1
	ip -n "$NS_LAN" -6 route flush cache 2>/dev/null
	out=$(ip netns exec "$NS_LAN" ping -6 -M "do" -s 1452 -c 2 -i 0.3 -W 2 2001:db8:2::2 2>&1)
	echo "$out" | grep -Eq "mtu ?= ?$MTU" ||
		fail "no packet too big with mtu $MTU for a 1500-byte IPv6 ping: ${out//$'\n'/ }"
}

# kill -9: the daemon leaves its XDP program on wan0. Discovery must still pass it, and
# the next `up` replaces the stale session at once: its first PADI and PADR are answered
# (no retry line in --logfile), asserted on those events rather than on the time.
test_kill9_discover_up() {
	local pid log=$PXP_TMP/kill9-up.log
	pid=$(client status wan0 | awk -F': ' '$1 == "pid" {print $2}')
	[ -n "$pid" ] || fail "no client daemon to kill" || return 1
	kill9_and_wait "$pid" || fail "the killed client did not die" || return 1
	client discover wan0 --timeout 5 >"$PXP_TMP/discover.out" 2>&1 ||
		fail "discover after kill -9: $(cat "$PXP_TMP/discover.out")" || return 1
	grep -q 'Access-Concentrator: pxw-ac' "$PXP_TMP/discover.out" ||
		fail "the AC is not listed: $(cat "$PXP_TMP/discover.out")" || return 1
	rm -f "$log"
	client up wan0 --user alice --password secret1 --defaultroute --mode "$MODE" \
		--logfile "$log" >"$PXP_TMP/client.out" 2>&1 ||
		fail "up after kill -9: $(cat "$PXP_TMP/client.out")" || return 1
	! grep -E "no PAD[OS] after" "$log" ||
		fail "up after kill -9 needed discovery retries: $(cat "$log")" || return 1
	tx_csum_off "$NS_ROUTER" pxp0
	tx_csum_off "$NS_ISP" "$(session_netdev_in "$NS_ISP")"
	in_ns "$NS_LAN" ping -c 2 -i 0.2 -W 2 198.51.100.2 >/dev/null ||
		fail "no traffic through the new session"
}

# A second WAN port to a second AC (its own namespace: an AC owns the pxs<id> names of its
# namespace), with its own addresses.
second_wan_create() {
	ip netns add "$NS_ISP2" || return 1
	ip -n "$NS_ISP2" link set lo up
	ip link add wan1 netns "$NS_ROUTER" type veth peer name isp0 netns "$NS_ISP2" || return 1
	ip -n "$NS_ROUTER" link set wan1 up
	ip -n "$NS_ISP2" link set isp0 up
	ip netns exec "$NS_ROUTER" ethtool -K wan1 tso off gso off >/dev/null 2>&1
	ip netns exec "$NS_ISP2" ethtool -K isp0 tso off gso off >/dev/null 2>&1
	mkdir -p "$RUN_S2"
}

udp_to() { # NS_SERVER IP PORT: UDP from the router for IPERF_SECS; prints packets received
	iperf_server "$1" "$3" || return 1
	ip netns exec "$NS_ROUTER" iperf3 -c "$2" -p "$3" -u -b 20M -l 1200 -t "$IPERF_SECS" -J \
		2>/dev/null | python3 -c \
		'import json,sys; s=json.load(sys.stdin)["end"]["sum"]; print(s["packets"] - s["lost_packets"])'
}

test_two_sessions() {
	local enc0 enc1 dec0 dec1 got0 got1 pxs2 j0 j1
	second_wan_create || fail "could not add the second WAN port" || return 1
	server2 server isp0 --local 100.64.2.1 --pool 100.64.2.0/24 --auth pap \
		--secrets "$SECRETS" --ac-name pxw-ac2 --mode "$MODE" >"$PXP_TMP/server2.out" 2>&1 ||
		fail "second server: $(cat "$PXP_TMP/server2.out")" || return 1
	client up wan1 --ifname pxp1 --ac pxw-ac2 --user alice --password secret1 --mode "$MODE" \
		>"$PXP_TMP/client1.out" 2>&1 ||
		fail "up on wan1: $(cat "$PXP_TMP/client1.out")" || return 1
	pxs2=$(session_netdev_in "$NS_ISP2")
	tx_csum_off "$NS_ROUTER" pxp1
	tx_csum_off "$NS_ISP2" "$pxs2"
	enc0=$(total_of client encap)
	enc1=$(total_of client1 encap)
	dec0=$(total_of client decap)
	dec1=$(total_of client1 decap)
	udp_to "$NS_ISP" 100.64.1.1 5401 >"$PXP_TMP/u0" 2>&1 &
	j0=$!
	udp_to "$NS_ISP2" 100.64.2.1 5402 >"$PXP_TMP/u1" 2>&1 &
	j1=$!
	wait $j0 $j1
	got0=$(cat "$PXP_TMP/u0")
	got1=$(cat "$PXP_TMP/u1")
	echo "# concurrent UDP: session 1 delivered ${got0} datagrams, session 2 ${got1}"
	[ "${got0:-0}" -gt 100 ] && [ "${got1:-0}" -gt 100 ] ||
		fail "concurrent UDP: delivered '$got0' and '$got1'" || return 1
	[ $(($(total_of client encap) - enc0)) -ge "$got0" ] &&
		[ $(($(total_of client1 encap) - enc1)) -ge "$got1" ] ||
		fail "encap counters did not move per session (wan0 $enc0 -> $(total_of client encap), wan1 $enc1 -> $(total_of client1 encap))" ||
		return 1
	in_ns "$NS_ROUTER" ping -c 2 -i 0.2 -W 2 100.64.1.1 >/dev/null &&
		in_ns "$NS_ROUTER" ping -c 2 -i 0.2 -W 2 100.64.2.1 >/dev/null ||
		fail "both pings do not work with two sessions up" || return 1
	[ "$(total_of client decap)" -gt "$dec0" ] && [ "$(total_of client1 decap)" -gt "$dec1" ] ||
		fail "decap counters did not move per session" || return 1
	client down wan0 || fail "down wan0 failed" || return 1
	[ "$(client status wan1 | awk -F': ' '$1 == "state" {print $2}')" = up ] ||
		fail "ending the wan0 session ended the wan1 session too" || return 1
	in_ns "$NS_ROUTER" ping -c 2 -i 0.2 -W 2 100.64.2.1 >/dev/null ||
		fail "no traffic on wan1 after the wan0 session ended"
}

missing=$(require_cmds ip ping nft iperf3 jq tcpdump ethtool python3 socat nstat) || {
	skip_test express "missing commands:$missing (make deps installs them)"
	exit 0
}
[ -x "$B" ] || {
	echo "FAIL express/build: $B is missing (run make)"
	exit 1
}
topo_create pppoe || {
	echo "FAIL express/topology: could not build the topology"
	exit 1
}
mkdir -p "$RUN_C" "$RUN_S"
printf 'alice * secret1 *\n' >"$SECRETS"
chmod 600 "$SECRETS"
on_cleanup reset
topo_nat_out pxp0
tx_csum_off "$NS_LAN" lan0
tx_csum_off "$NS_NET" net0

SESSION_OK=0
mode_session_up() {
	SESSION_OK=0
	session_up && SESSION_OK=1
}

# Shaping belongs on pxp0, as OpenWrt puts it on pppoe-wan: XDP redirects skip the WAN
# port's qdisc, pxp0's egress qdisc sees every packet first (the transmit half, XDP or tc,
# runs on its hidden peer). A 40 Mbit/s token bucket there holds lan->net TCP to it.
test_shaping_on_pxp0() {
	local mbit
	in_ns "$NS_ROUTER" tc qdisc replace dev pxp0 root tbf rate 40mbit burst 32kb latency 50ms ||
		fail "cannot add a tbf qdisc to pxp0" || return 1
	mbit=$(iperf_tcp "$NS_LAN" "$NS_NET" 198.51.100.2 3)
	in_ns "$NS_ROUTER" tc qdisc del dev pxp0 root
	echo "# $MODE lan->net with tbf 40mbit on pxp0: ${mbit} Mbit/s"
	[ "${mbit:-0}" -ge 20 ] && [ "${mbit:-0}" -le 45 ] ||
		fail "lan->net through a 40 Mbit/s tbf on pxp0: ${mbit:-no result} Mbit/s"
}

test_status_halves() {
	local halves
	halves=$(client status wan0 | awk -F': ' '$1 ~ /^ *halves$/ {print $2; exit}')
	[ "$halves" = "rx tc (tcx), tx tc (clsact)" ] || fail "status says halves '$halves'"
}

for MODE in ${EXPRESS_MODES:-xdp generic afxdp tc}; do
	run_test "express/$MODE/session_up" mode_session_up
	if [ $SESSION_OK = 0 ]; then
		for c in one_link_local tcp_both_ways udp_both_ways counters mss_clamp frag_needed packet_too_big; do
			echo "FAIL express/$MODE/$c: no session in $MODE mode"
		done
		continue
	fi
	run_test "express/$MODE/one_link_local" test_one_link_local
	run_test "express/$MODE/tcp_both_ways" test_tcp
	run_test "express/$MODE/udp_both_ways" test_udp
	run_test "express/$MODE/counters" test_counters
	run_test "express/$MODE/mss_clamp" test_mss_clamp
	run_test "express/$MODE/frag_needed" test_frag_needed
	run_test "express/$MODE/packet_too_big" test_packet_too_big
	if [ "$MODE" = tc ]; then
		run_test "express/$MODE/status_halves" test_status_halves
		run_test "express/$MODE/shaping_on_pxp0" test_shaping_on_pxp0
	fi
done
if [ "$(nproc)" -ge 2 ]; then
	run_test express/cpu_spread test_cpu_spread
else
	skip_test express/cpu_spread "one CPU"
fi
run_test express/vlan_pcp_data test_vlan_pcp_data
MODE=xdp
run_test express/kill9_setup mode_session_up
if [ $SESSION_OK = 1 ]; then
	run_test express/shaping_on_pxp0 test_shaping_on_pxp0
	run_test express/kill9_discover_up test_kill9_discover_up
	run_test express/two_sessions test_two_sessions
fi
tests_done
