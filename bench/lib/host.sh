# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Host-kernel cases on lan - router - isp - net (tests/netns/lib.sh topo_create):
#   ceiling           plain routing + NAT over an Ethernet WAN set like a NIC's
#                     (wan_offload_script: GRO on, TSO/GSO off)
#   pppoe-xp-MODE     pppoe-xp server at isp, pppoe-xp client at router, data path MODE
#                     (xdp, afxdp, generic, tc); NAT out of pxp0
#   pppoe-xp-rx-R-tx-T  the same with the halves mixed (--rx R --tx T; xdppass is
#                     xdp-pass), GRO on both WAN veths: xdp-pass needs it to coalesce, and
#                     XDP sending into a veth whose other end runs no XDP needs it (DESIGN.md)
#   veth-hop          the ceiling routed through a veth pair at the router as through pxp0,
#                     with XDP on its hidden end and on the WAN port that only rewrites the
#                     Ethernet addresses and redirects (bench/veth_hop.bpf.c): no PPPoE, no
#                     AC. What a veth session netdev costs by itself; NAT out of hop0
#   netkit-hop        the same with a netkit device for hop0 (bench/netkit_hop.bpf.c); where
#                     the kernel has netkit (6.7+): not this host's, so it runs in the guest
# All topologies stay up together so that measurements interleave: drift from the other
# jobs on this shared machine then falls on every case alike. The list: bench/cases.

BENCH_VETH_HOP=$PXP_ROOT/build/bench/veth_hop
BENCH_NETKIT_HOP=$PXP_ROOT/build/bench/netkit_hop
HOST_USER=pxbench
HOST_PASSWORD=pxb-secret-$$

# host_topo KEY plain|pppoe: the case's namespaces (topo_create) with the bench's WAN.
host_topo() {
	topo_create "$2" && sh -c "$(wan_offload_script "${CASE_PREFIX[$1]}")" || {
		case_unavailable "$1" "topo_create $2 or the WAN's offload settings failed"
		return 1
	}
}

# The senders' tx checksum offload is off in every case: a TCP packet with a partial checksum
# cannot cross an XDP redirect (DESIGN.md), and the ceiling must run the same senders.
host_common() {
	local key=$1
	ip netns exec "$NS_LAN" ethtool -K lan0 tx off >/dev/null 2>&1
	ip netns exec "$NS_NET" ethtool -K net0 tx off >/dev/null 2>&1
	ip netns exec "$NS_NET" iperf3 -s -D -p 5201 --logfile "$PXP_TMP/iperf-$NS_NET.log" &&
		wait_for 5 ip netns exec "$NS_NET" sh -c "ss -ltn | grep -q ':5201 '" || {
		case_unavailable "$key" "the iperf3 server did not start"
		return 1
	}
	wait_for 5 ip netns exec "$NS_LAN" ping -c 1 -W 1 "$NET_IP" || {
		case_unavailable "$key" "no IPv4 connectivity lan -> net"
		return 1
	}
	echo "ok"
}

host_setup_ceiling() {
	local key=$1
	host_topo "$key" plain || return
	CASE_MTU[$key]=1500
	host_common "$key"
}

# host_setup_hop KEY DEV TOOL SCRIPT: the ceiling, with the router's IPv4 traffic to and
# from the WAN through DEV as it goes through pxp0 in the xdp case (same MTU, NOARP, GRO on
# the redirect targets), DEV made by SCRIPT PREFIX TOOL (veth_hop_script: hop0, a veth;
# netkit_hop_script: nk0, a netkit, unavailable with the reason on a kernel without netkit).
host_setup_hop() {
	local key=$1 dev=$2 bin=$3 script=$4 log=$PXP_TMP/${CASE_PREFIX[$1]}$2.log
	[ -x "$bin" ] || {
		case_unavailable "$key" "${bin#"$PXP_ROOT"/} is not built"
		return
	}
	host_topo "$key" plain || return
	sh -c "$("$script" "${CASE_PREFIX[$key]}" "$bin")" >"$log" 2>&1 &&
		ip netns exec "$NS_ROUTER" nft delete table ip pxp_nat &&
		topo_nat_out "$dev" || {
		case_unavailable "$key" "setting up $dev failed: $(log_reason "$log")"
		return
	}
	CASE_MTU[$key]=1492
	host_common "$key"
}

# A pppoe-xp session between isp (server) and router (client) in data path MODE.
host_setup_pppoe() {
	local key=$1 mode=${1#host/pppoe-xp-} halves=()
	if [[ $mode =~ ^rx-([a-z]+)-tx-([a-z]+)$ ]]; then
		halves=(--rx "${BASH_REMATCH[1]/xdppass/xdp-pass}" --tx "${BASH_REMATCH[2]}")
		mode=xdp
	fi
	host_session "$key" "$mode" "${halves[@]}" || return
	host_common "$key"
}

# host_session KEY MODE [HALVES]: KEY's topology with a pppoe-xp session between isp (server)
# and router (client) in data path MODE, NAT out of pxp0, CASE_MTU its MTU. Fails with the
# case unavailable.
host_session() {
	local key=$1 mode=$2 log secrets mtu pid
	local -a halves=("${@:3}") isp_args=()
	log=$PXP_TMP/${CASE_PREFIX[$key]}
	[ -x "$PXP_BIN" ] || {
		case_unavailable "$key" "build/pppoe-xp is not built"
		return 1
	}
	host_topo "$key" pppoe || return
	secrets=${log}chap-secrets
	printf '%s * %s *\n' "$HOST_USER" "$HOST_PASSWORD" >"$secrets"
	chmod 600 "$secrets"

	# The AC stands for another machine: its AF_XDP worker must not share the router's CPU
	# (worker q pins to CPU q by default; both on CPU 0 halved afxdp's TCP, 7 December 2026).
	[ "$mode" = afxdp ] && isp_args=(--afxdp-cpus "$(($(nproc) - 1))")
	ip netns exec "$NS_ISP" sh -c "$(pxp_cmd "$key" isp server isp0 --local 100.64.1.1 \
		--pool 100.64.1.0/30 --auth chap --secrets "$secrets" --mode "$mode" \
		"${halves[@]}" "${isp_args[@]}" --foreground)" >"${log}server.log" 2>&1 &
	pid=$!
	on_cleanup "kill $pid"
	sleep 0.5
	kill -0 "$pid" 2>/dev/null || {
		case_unavailable "$key" "pppoe-xp server exited: $(log_reason "${log}server.log")"
		return 1
	}
	ip netns exec "$NS_ROUTER" timeout 30 sh -c "$(pxp_cmd "$key" router up wan0 \
		--user "$HOST_USER" --password "$HOST_PASSWORD" --mode "$mode" "${halves[@]}" \
		--defaultroute)" \
		>"${log}client.log" 2>&1 || {
		case_unavailable "$key" "pppoe-xp up failed: $(log_reason "${log}client.log")"
		return 1
	}
	on_cleanup "ip netns exec $NS_ROUTER sh -c '$(pxp_cmd "$key" router down wan0)'"
	wait_for 10 ip -n "$NS_ROUTER" link show pxp0 || {
		case_unavailable "$key" "pppoe-xp up returned but there is no pxp0"
		return 1
	}
	topo_nat_out pxp0
	mtu=$(ip -n "$NS_ROUTER" -o link show pxp0 | sed -n 's/.* mtu \([0-9]*\) .*/\1/p')
	CASE_MTU[$key]=${mtu:-1492}
}

host_steps() {
	echo $((${#HOST_CASES[@]} + $(matrix_steps host "${HOST_CASES[@]}")))
}

host_seconds() {
	echo $((${#HOST_CASES[@]} * (5 + 4 * BENCH_WARMUP + BENCH_ROUNDS * $(bench_round_seconds host))))
}

# host_setup KEY CASE: one host case's topology and its tunnel or data path.
host_setup() {
	case $2 in
	ceiling) host_setup_ceiling "$1" ;;
	veth-hop) host_setup_hop "$1" hop0 "$BENCH_VETH_HOP" veth_hop_script ;;
	netkit-hop) host_setup_hop "$1" nk0 "$BENCH_NETKIT_HOP" netkit_hop_script ;;
	*) host_setup_pppoe "$1" ;;
	esac
}

host_run() {
	bench_host_cases host h host_setup "${HOST_CASES[@]}"
}
