#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Plain routing through the test topology, no PPPoE: proves the namespaces, forwarding and
# NAT that every other netns test and the benchmark's ceiling stand on.
#
#   lan --- router ==(Ethernet WAN, NAT)== isp --- net
. "$(dirname "$0")/lib.sh"

test_ping_v4() {
	ip netns exec "$NS_LAN" ping -c 2 -W 2 -i 0.2 198.51.100.2 >/dev/null ||
		fail "lan cannot ping net over IPv4"
}

test_ping_v6() {
	ip netns exec "$NS_LAN" ping -6 -c 2 -W 2 -i 0.2 2001:db8:2::2 >/dev/null ||
		fail "lan cannot ping net over IPv6"
}

# The far end must see the router's WAN address, not the LAN host's.
test_nat() {
	capture_start "$NS_NET" "$PXP_TMP/nat.txt" -ni net0 -c 1 icmp || return
	ip netns exec "$NS_LAN" ping -c 1 -W 2 198.51.100.2 >/dev/null
	wait "$CAPTURE_PID"
	grep -q '100.64.0.1 > 198.51.100.2' "$PXP_TMP/nat.txt" ||
		fail "no masqueraded packet seen at net: $(cat "$PXP_TMP/nat.txt")"
}

test_iperf_lan_to_net() {
	local mbit
	mbit=$(iperf_tcp "$NS_LAN" "$NS_NET" 198.51.100.2 2) || fail "iperf3 lan->net did not run"
	[ "${mbit:-0}" -gt 10 ] || fail "lan->net only ${mbit} Mbit/s"
}

missing=$(require_cmds ip ping nft iperf3 jq tcpdump ethtool python3) || {
	skip_test routing "missing commands:$missing (make deps installs them)"
	exit 0
}
topo_create plain || { echo "FAIL routing/topology: could not build the topology"; exit 1; }
run_test routing/ping_v4 test_ping_v4
run_test routing/ping_v6 test_ping_v6
run_test routing/nat test_nat
run_test routing/iperf_lan_to_net test_iperf_lan_to_net
tests_done
