#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# IPv6 as ISPs deliver it over PPPoE: our AC advertises a /64 per session (SLAAC) and
# delegates a prefix per session by DHCPv6; our client's pxp0 takes the RA (address and
# default route), Debian's dhcpcd on the router asks for the prefix and numbers the LAN
# with a /64 of it, and the LAN reaches the net behind the AC.
#
#   lan ------------- router ================ isp ------------- net
#   lan0          lan1     wan0    PPPoE     isp0  isp1          net0
#   PD::2/64  PD::1/64     pxp0 SLAAC in     pxs<N>  2001:db8:2::1  2001:db8:2::2
#   (from dhcpcd)          2001:db8:1::/64   (pppoe-xp server --ipv6 --ipv6-pool
#                          (pppoe-xp up --ipv6)  2001:db8:1::/48 --pd-pool 2001:db8:100::/40,56)
#
# For each data path mode (xdp, afxdp): slaac (a global address from the advertised /64 and
# a default route via the AC's link-local), rs (the AC answers a Router Solicitation with
# an RA carrying the /64, the MTU and RDNSS), pd (dhcpcd gets a /56, the AC routes it to
# the session, lan pings net), release (dhcpcd's Release removes the AC's route), down (the
# session's end releases the prefix and its route), two_sessions (xdp only: a second router
# on a macvlan of the WAN gets the second /64, routed while its session lasts).
# IPV6_MODES="xdp" picks the modes. Name
# cases as arguments to run only those: test_ipv6.sh slaac_xdp pd_afxdp
PXP_NS_PREFIX=${PXP_NS_PREFIX:-pv6$$-}
. "$(dirname "$0")/lib.sh"

V6_POOL=2001:db8:1::/48
PD_POOL=2001:db8:100::/40,56
NET6=2001:db8:2::2
MODE=

# server_session KEY: a field of the one session in the server's status.
server_session() {
	server status isp0 --json | python3 -c \
		'import json, sys; s = json.load(sys.stdin)["sessions"]; print(s[0].get(sys.argv[1]) if s else "")' "$1"
}

reset() {
	dhcpcd_stop
	client down wan0 >/dev/null 2>&1
	server down isp0 >/dev/null 2>&1
	end_ns_pids "$NS_ROUTER" "$NS_ISP"
	ip -n "$NS_ROUTER" -6 addr flush dev lan1 scope global 2>/dev/null
	ip -n "$NS_LAN" -6 addr flush dev lan0 scope global 2>/dev/null
	return 0
}

session_up() {
	reset
	server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth pap --secrets "$SECRETS" \
		--ipv6 --ipv6-pool $V6_POOL --pd-pool $PD_POOL --dns6 2001:db8:2::53 \
		--mode "$MODE" >"$PXP_TMP/server.out" 2>&1 ||
		fail "server did not start: $(cat "$PXP_TMP/server.out")" || return 1
	client up wan0 --user alice --password secret1 --ipv6 --mode "$MODE" \
		>"$PXP_TMP/client.out" 2>&1 ||
		fail "up failed: $(cat "$PXP_TMP/client.out")" || return 1
}

pxp0_global() {
	ip -n "$NS_ROUTER" -6 -br addr show dev pxp0 scope global 2>/dev/null | awk '{print $3}'
}

# The default route from the RA: via the AC's link-local address (IPv6CP's peer id).
ra_default_route() {
	local peer
	peer=$(client status wan0 | awk -F': ' '$1 == "ipv6_peer" { print $2; exit }')
	[ -n "$peer" ] && ip -n "$NS_ROUTER" -6 route show default dev pxp0 |
		grep -q "via $peer proto ra"
}

have_slaac() { pxp0_global | grep -q '^2001:db8:1::*[0-9a-f:]*/64$'; }

test_slaac() {
	session_up || return 1
	wait_for 20 have_slaac || fail "no SLAAC address on pxp0: $(pxp0_global)" || return 1
	wait_for 10 ra_default_route ||
		fail "no default route from the RA: $(ip -n "$NS_ROUTER" -6 route show default)" ||
		return 1
	[ "$(server_session ipv6_prefix)" = 2001:db8:1::/64 ] ||
		fail "the AC reports prefix '$(server_session ipv6_prefix)'" || return 1
	[ "$(client status wan0 | awk -F': ' '$1 == "ipv6_global" { print $2 }')" = "$(pxp0_global)" ] ||
		fail "status ipv6_global is not pxp0's $(pxp0_global): $(client status wan0 | grep ipv6_global)" ||
		return 1
	in_ns "$NS_ROUTER" ping -6 -c 2 -W 2 -i 0.2 $NET6 >/dev/null ||
		fail "the router cannot ping net from its SLAAC address"
}

ipv6_counter() { # NAME: a counter of the server's ipv6 status object
	server status isp0 --json |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["ipv6"][sys.argv[1]])' "$1"
}

counter_above() { [ "$(ipv6_counter "$1")" -gt "$2" ]; }

# A Router Solicitation from the router's link-local address is answered with an RA.
test_rs() {
	local rs ra want
	have_slaac || session_up || return 1
	wait_for 20 have_slaac || fail "no SLAAC address to start with" || return 1
	rs=$(ipv6_counter rs_received)
	ra=$(ipv6_counter ra_sent)
	capture_start "$NS_ROUTER" "$PXP_TMP/ra.txt" -nv -i pxp0 -c 1 'icmp6 and ip6[40] == 134' ||
		return 1
	ip netns exec "$NS_ROUTER" python3 -c '
import socket
s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_HOPS, 255)
s.sendto(bytes([133, 0, 0, 0, 0, 0, 0, 0]), ("ff02::2", 0, 0, socket.if_nametoindex("pxp0")))' ||
		fail "could not send a Router Solicitation" || return 1
	wait_for 10 counter_above ra_sent "$ra" || fail "no RA in answer (ra_sent stays $ra)" ||
		return 1
	# ra_sent may have moved by a periodic RA before our RS was read.
	wait_for 10 counter_above rs_received "$rs" || fail "the AC counted no Router Solicitation" ||
		return 1
	wait "$CAPTURE_PID"
	# What the RA carries: hop limit 255 from the link-local address, the O flag (DHCPv6
	# runs), the /64 with A and L, the session MTU, RDNSS.
	for want in 'hlim 255' 'fe80::' 'Flags \[other stateful\]' \
		'2001:db8:1::/64, Flags \[onlink, auto\]' 'mtu option.*1492' \
		'rdnss option.*2001:db8:2::53'; do
		tr '\n' ' ' <"$PXP_TMP/ra.txt" | grep -q "$want" ||
			fail "the RA lacks '$want': $(cat "$PXP_TMP/ra.txt")" || return 1
	done
}

start_dhcpcd() { dhcpcd_pd_start "$NS_ROUTER" pxp0 lan1 "$PXP_TMP/dhcpcd"; }

lan1_pd() {
	ip -n "$NS_ROUTER" -6 -br addr show dev lan1 scope global -tentative | awk '{print $3}' |
		grep '^2001:db8:100:'
}

test_pd() {
	local addr net route
	session_up || return 1
	wait_for 20 have_slaac || fail "no SLAAC address on pxp0" || return 1
	start_dhcpcd
	wait_for 30 lan1_pd || fail "no delegated /64 on lan1: $(tail -5 "$PXP_TMP/dhcpcd/log")" ||
		return 1
	addr=$(lan1_pd)
	net=${addr%1/64}
	[ "$(server_session ipv6_delegated)" = 2001:db8:100::/56 ] ||
		fail "the AC reports delegated '$(server_session ipv6_delegated)'" || return 1
	route=$(ip -n "$NS_ISP" -6 route show 2001:db8:100::/56)
	[[ $route == *"via fe80::"*"dev pxs"* ]] || fail "the AC's route to the prefix: '$route'" ||
		return 1
	ip -n "$NS_LAN" addr add "${net}2/64" dev lan0 nodad
	ip -n "$NS_LAN" -6 route replace default via "${net}1"
	in_ns "$NS_LAN" ping -6 -c 3 -W 2 -i 0.2 -I "${net}2" $NET6 >/dev/null ||
		fail "lan (${net}2) cannot ping net through the delegated prefix"
}

pd_route_gone() { [ -z "$(ip -n "$NS_ISP" -6 route show 2001:db8:100::/56)" ]; }

# SIGALRM makes dhcpcd send a Release and exit: the AC takes the route away, the session stays.
test_release() {
	{ [ -n "$DHCPCD_PID" ] && lan1_pd >/dev/null; } || test_pd || return 1
	dhcpcd_stop ALRM
	wait_for 10 pd_route_gone ||
		fail "the AC still routes the prefix: $(ip -n "$NS_ISP" -6 route show 2001:db8:100::/56)" ||
		return 1
	[ "$(server_session ipv6_delegated)" = None ] ||
		fail "the AC still reports '$(server_session ipv6_delegated)'" || return 1
	[ "$(server_session ipv6_prefix)" = 2001:db8:1::/64 ] || fail "the session went with the prefix"
}

# The session's end releases the prefix and removes the route.
test_down() {
	{ lan1_pd >/dev/null && ! pd_route_gone; } || test_pd || return 1
	dhcpcd_stop # SIGTERM: dhcpcd exits without a Release
	ip -n "$NS_ISP" -6 route show 2001:db8:100::/56 | grep -q . ||
		fail "dhcpcd released the prefix on SIGTERM; nothing left to test" || return 1
	client down wan0 >/dev/null 2>&1
	wait_for 10 pd_route_gone ||
		fail "the AC still routes the prefix after the session: $(ip -n "$NS_ISP" -6 route show 2001:db8:100::/56)"
}

# A second router behind a macvlan on the same WAN wire (its own namespace, generic XDP:
# a macvlan has no native XDP): the AC holds two sessions and gives each its own /64.
NS_ROUTER2=${PXP_NS_PREFIX}router2
RUN_C2=$PXP_TMP/run-client2
client2() { in_ns "$NS_ROUTER2" env PPPOE_XP_RUN_DIR="$RUN_C2" "$B" "$@"; }
router2_global() {
	ip -n "$NS_ROUTER2" -6 -br addr show dev pxp0 scope global 2>/dev/null | awk '{print $3}'
}
router2_slaac() { router2_global | grep -q '^2001:db8:1:1:'; }
second_route_gone() { [ -z "$(ip -n "$NS_ISP" -6 route show 2001:db8:1:1::/64)" ]; }

test_two_sessions() {
	local prefixes route
	session_up || return 1
	ip netns add "$NS_ROUTER2" && ip -n "$NS_ROUTER2" link set lo up &&
		ip -n "$NS_ROUTER" link add wan0m link wan0 type macvlan mode bridge &&
		ip -n "$NS_ROUTER" link set wan0m netns "$NS_ROUTER2" &&
		ip -n "$NS_ROUTER2" link set wan0m up ||
		fail "cannot make the second router" || return 1
	on_cleanup "ip netns del $NS_ROUTER2"
	ip netns exec "$NS_ROUTER2" sysctl -qw net.ipv6.conf.all.forwarding=1 \
		net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0
	mkdir -p "$RUN_C2"
	client2 up wan0m --user alice --password secret1 --ipv6 --mode generic \
		>"$PXP_TMP/client2.out" 2>&1 ||
		fail "the second up failed: $(cat "$PXP_TMP/client2.out")" || return 1
	wait_for 20 have_slaac || fail "no SLAAC address on the first router" || return 1
	wait_for 20 router2_slaac ||
		fail "the second router has no address of the second /64: '$(router2_global)'" ||
		return 1
	prefixes=$(server status isp0 --json | python3 -c 'import json, sys; print(" ".join(sorted(s["ipv6_prefix"] for s in json.load(sys.stdin)["sessions"])))')
	[ "$prefixes" = "2001:db8:1:1::/64 2001:db8:1::/64" ] ||
		fail "the AC's prefixes: '$prefixes'" || return 1
	route=$(ip -n "$NS_ISP" -6 route show 2001:db8:1:1::/64)
	[[ $route == *"dev pxs"* ]] || fail "the AC's route to the second /64: '$route'" || return 1
	client2 down wan0m >/dev/null 2>&1
	wait_for 10 second_route_gone ||
		fail "the second session's /64 stays routed after it ended" || return 1
	have_slaac || fail "the first session lost its address with the second" || return 1
	ip netns del "$NS_ROUTER2"
}

cases_named "$@"
suite_needs ipv6 ip ping python3 dhcpcd tcpdump
topo_create pppoe || {
	echo "FAIL ipv6/topology: could not build the topology"
	exit 1
}
mkdir -p "$RUN_C" "$RUN_S"
printf 'alice * secret1 *\n' >"$SECRETS"
chmod 600 "$SECRETS"
on_cleanup reset

for MODE in ${IPV6_MODES:-xdp afxdp}; do
	case_ "ipv6/slaac_$MODE" test_slaac
	case_ "ipv6/rs_$MODE" test_rs
	case_ "ipv6/pd_$MODE" test_pd
	case_ "ipv6/release_$MODE" test_release
	case_ "ipv6/down_$MODE" test_down
	# Mode afxdp carries one session per WAN port (user/datapath/datapath.c).
	[ "$MODE" = afxdp ] || case_ "ipv6/two_sessions_$MODE" test_two_sessions
	reset
done
tests_done
