#!/bin/sh
# Guest-side baseline benchmark (installed in the guest image as
# /usr/local/bin/pxp-bench-guest). Builds, out of namespaces and veths:
#
#   lan ------------- router ============== isp ------------- net
#   192.168.71.2/24   .1 | WAN (TSO/GSO off)  | 203.0.113.1/24   203.0.113.2/24
#                        |  NAT + MSS clamp   |                  iperf3 server
#
# and measures iperf3 TCP lan<->net for three WAN cases on the same veths:
#   ceiling       plain routing, 100.64.0.2/30 <-> 100.64.0.1/30
#   kernel_pppoe  pppoe-server (kernel mode) at isp, pppd + rp-pppoe.so at router
#   user_pppoe    rp-pppoe user mode on both ends (pppd over a pty)
# Each case: 1 and 4 streams, upload (lan->net) and download (net->lan).
# stdout: one JSON object per measurement, nothing else; diagnostics go to
# /run/pxp/bench.log. A case that cannot be set up prints {"case":..,"error":..}.
#
# usage: pxp-bench-guest [--duration SEC] [--cases ceiling,kernel_pppoe,user_pppoe]
#                        [--streams 1,4] [--directions upload,download]
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin

duration=10
cases=ceiling,kernel_pppoe,user_pppoe
streams_list=1,4
directions=upload,download
while [ $# -gt 0 ]; do
	[ $# -ge 2 ] || {
		echo "pxp-bench-guest: option $1 needs a value" >&2
		exit 2
	}
	case $1 in
	--duration) duration=$2 ;;
	--cases) cases=$2 ;;
	--streams) streams_list=$2 ;;
	--directions) directions=$2 ;;
	*)
		echo "pxp-bench-guest: unknown option $1" >&2
		exit 2
		;;
	esac
	shift 2
done
case $duration in '' | *[!0-9]*)
	echo "pxp-bench-guest: --duration wants whole seconds, not '$duration'" >&2
	exit 2
	;;
esac

log=/run/pxp/bench.log
mkdir -p /run/pxp
exec 2>>"$log"
set -x

ns_lan=pxbL ns_router=pxbR ns_isp=pxbI ns_net=pxbN
wan_r=wanR wan_i=wanI
ppp_if=pppwan
net_ip=203.0.113.2
kver=$(uname -r)
ncpu=$(grep -c '^processor' /proc/cpuinfo)

in_ns() {
	ns=$1
	shift
	ip netns exec "$ns" "$@"
}

json_error() {
	printf '{"case":"%s","error":"%s"}\n' "$1" "$(echo "$2" | tr '"\n' "' ")"
}

teardown() {
	in_ns $ns_router pxp-pppd-client stop --instance bench >/dev/null 2>&1
	in_ns $ns_isp pxp-ac stop --instance bench >/dev/null 2>&1
	[ -s /run/pxp/bench-iperf.pid ] && kill "$(cat /run/pxp/bench-iperf.pid)" 2>/dev/null
	rm -f /run/pxp/bench-iperf.pid
	for ns in $ns_lan $ns_router $ns_isp $ns_net; do
		ip netns del "$ns" 2>/dev/null
	done
}

# Namespaces, veths and the addresses that do not depend on the WAN case.
build_topology() {
	teardown
	for ns in $ns_lan $ns_router $ns_isp $ns_net; do
		ip netns add "$ns" || return 1
		ip -n "$ns" link set lo up
	done
	ip link add lanL netns $ns_lan type veth peer name lanR netns $ns_router &&
		ip link add $wan_r netns $ns_router type veth peer name $wan_i netns $ns_isp &&
		ip link add netI netns $ns_isp type veth peer name netN netns $ns_net || return 1
	for pair in $ns_lan:lanL $ns_router:lanR $ns_router:$wan_r $ns_isp:$wan_i \
		$ns_isp:netI $ns_net:netN; do
		ip -n "${pair%%:*}" link set "${pair#*:}" up || return 1
	done
	# The WAN link carries MTU-sized frames only, as a real wire would.
	in_ns $ns_router ethtool -K $wan_r tso off gso off >/dev/null &&
		in_ns $ns_isp ethtool -K $wan_i tso off gso off >/dev/null || return 1
	ip -n $ns_lan addr add 192.168.71.2/24 dev lanL &&
		ip -n $ns_lan route add default via 192.168.71.1 &&
		ip -n $ns_router addr add 192.168.71.1/24 dev lanR &&
		ip -n $ns_isp addr add 203.0.113.1/24 dev netI &&
		ip -n $ns_net addr add $net_ip/24 dev netN &&
		ip -n $ns_net route add default via 203.0.113.1 || return 1
	in_ns $ns_router sysctl -qw net.ipv4.ip_forward=1 &&
		in_ns $ns_isp sysctl -qw net.ipv4.ip_forward=1 || return 1
	in_ns $ns_net iperf3 -s -D -I /run/pxp/bench-iperf.pid || return 1
}

# NAT and MSS clamping on the router's WAN netdev, as a home router does.
router_nat() {
	in_ns $ns_router nft -f - <<EOF
table ip pxb {
	chain postrouting {
		type nat hook postrouting priority srcnat;
		oifname "$1" masquerade
	}
	chain forward {
		type filter hook forward priority filter;
		oifname "$1" tcp flags syn tcp option maxseg size set rt mtu
		iifname "$1" tcp flags syn tcp option maxseg size set rt mtu
	}
}
EOF
}

setup_wan() {
	case $1 in
	ceiling)
		ip -n $ns_router addr add 100.64.0.2/30 dev $wan_r &&
			ip -n $ns_router route add default via 100.64.0.1 &&
			ip -n $ns_isp addr add 100.64.0.1/30 dev $wan_i &&
			router_nat $wan_r
		;;
	kernel_pppoe | user_pppoe)
		mode=kernel
		[ "$1" = user_pppoe ] && mode=user
		in_ns $ns_isp pxp-ac start --instance bench --mode $mode --iface $wan_i \
			--auth chap --user bench --password bench-pw --local 100.64.1.1 \
			--pool 100.64.1.2 >&2 &&
			in_ns $ns_router pxp-pppd-client start --instance bench --mode $mode \
				--iface $wan_r --user bench --password bench-pw --ifname $ppp_if \
				--defaultroute --timeout 60 >&2 &&
			router_nat $ppp_if
		;;
	*)
		echo "unknown case $1" >&2
		return 1
		;;
	esac
}

# user+nice+system+irq+softirq+steal over all of /proc/stat's "cpu" line.
cpu_sample() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat
}

# Pull sum_sent/sum_received figures out of iperf3's pretty-printed JSON.
iperf_figures() {
	awk '
		/"sum_sent":/ { sec = "sent" }
		/"sum_received":/ { sec = "recv" }
		/"bits_per_second":/ && sec != "" {
			v = $2; sub(/,$/, "", v); bps[sec] = v
		}
		/"retransmits":/ && sec == "sent" { v = $2; sub(/,$/, "", v); retr = v }
		/^[ \t]*}/ { if (sec != "") sec = "" }
		END { printf "%s %s\n", (bps["recv"] != "" ? bps["recv"] : "null"), (retr != "" ? retr : "null") }'
}

measure() {
	case=$1 n=$2 dir=$3
	rev=
	[ "$dir" = download ] && rev=-R
	# shellcheck disable=SC2046 # two numbers, split on purpose
	set -- $(cpu_sample)
	busy0=$1 idle0=$2
	out=$(in_ns $ns_lan iperf3 -c $net_ip -t "$duration" -P "$n" $rev -J -O 1 2>&1)
	rc=$?
	# shellcheck disable=SC2046
	set -- $(cpu_sample)
	busy1=$1 idle1=$2
	if [ $rc != 0 ]; then
		json_error "$case" "iperf3 $n streams $dir: $(echo "$out" | grep -m1 '"error"')"
		return
	fi
	# shellcheck disable=SC2046
	set -- $(echo "$out" | iperf_figures)
	cpu=$(awk -v b="$((busy1 - busy0))" -v i="$((idle1 - idle0))" \
		'BEGIN { printf "%.3f", ((b + i) > 0 ? b / (b + i) : 0) }')
	printf '{"case":"%s","streams":%s,"direction":"%s","duration_s":%s,"bits_per_second":%s,"retransmits":%s,"cpu_busy":%s,"cpus":%s,"kernel":"%s"}\n' \
		"$case" "$n" "$dir" "$duration" "$1" "$2" "$cpu" "$ncpu" "$kver"
}

modprobe -a pppoe ppp_async nf_tables nft_chain_nat nft_masq nf_nat >&2

for case in $(echo "$cases" | tr ',' ' '); do
	if ! build_topology || ! setup_wan "$case"; then
		json_error "$case" "setup failed, see $log"
		teardown
		continue
	fi
	for n in $(echo "$streams_list" | tr ',' ' '); do
		for dir in $(echo "$directions" | tr ',' ' '); do
			measure "$case" "$n" "$dir"
		done
	done
	teardown
done
