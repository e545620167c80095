#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Our client against the real kernel PPPoE stack: rp-pppoe's pppoe-server handing each
# session to pppd's rp-pppoe.so plugin (kernel pppoe.ko), in a qemu guest running Debian's
# own kernel. The guest boots once; every case runs against it.
#
#   host netns pxi<pid>-host                 qemu guest (TCG, Debian kernel)
#   pxi<pid>t (tap) ======= virtio ======== eth0  pppoe-server -> pppd (kernel mode)
#   pppoe-xp up -> pxp0 10.77.0.2 ........ ppp0 10.77.0.1, DNS 10.77.0.53 10.77.0.54
#
# Cases: CHAP and PAP sessions (addresses and DNS as pppd assigned them, in status --json);
# a wrong password; ping both ways and at full MTU; IPv6CP; SLAAC from radvd and a prefix
# from dhcp6s taken by dhcpcd (ipv6_pd); nothing of ours that pppd
# refuses; LCP echo answered both ways; the AC's Terminate/PADT (pxp-ac stop), ours
# (pppoe-xp down) and a bare PADT, each noticed by the other side; the MSS clamp both ways,
# seen in captures on pxp0 and on the guest's Ethernet; iperf3 both directions
# (plain IP on the same tap as the reference); the PADI -> IPCP open set-up time, median of
# 5 runs, with where the time goes on the wire (setup_breakdown.awk).
PXP_NS_PREFIX=pxi$$-
. "$(dirname "$0")/../netns/lib.sh"
. "$(dirname "$0")/lib.sh"

NS=${PXP_NS_PREFIX}host
GUEST=pxi$$g
TAP=pxi$$t
RUN=$PXP_TMP/run
USER_NAME=alice
PASSWORD=secret1
AC_IP=10.77.0.1
CLIENT_IP=10.77.0.2
DNS1=10.77.0.53
DNS2=10.77.0.54
AC_NAME=pxi-kac
AC_LOG=/run/pxp/ac/ac/pppd.log
SETUP_RUNS=5
export PXG_BOOT_TIMEOUT=${PXG_BOOT_TIMEOUT:-240}

# PXP_TIMEOUT=SECS bounds one call (timeout, exit 124): no watchdog subshell (tests/netns/lib.sh).
xp() { in_ns "$NS" env PPPOE_XP_RUN_DIR="$RUN" ${PXP_TIMEOUT:+timeout "$PXP_TIMEOUT"} "$B" "$@"; }
gx() { guest_exec "$GUEST" "$@"; }

# json_get KEY...: a field of `status --json` (nested keys in order), or nothing.
json_get() {
	xp status "$TAP" --json 2>/dev/null | python3 -c '
import json, sys
v = json.load(sys.stdin)
for k in sys.argv[1:]:
    v = v[k]
print(json.dumps(v) if isinstance(v, (list, dict)) else v)' "$@" 2>/dev/null
}

client_is_up() { [ "$(xp status "$TAP" 2>/dev/null | awk -F': ' '$1 == "state" { print $2 }')" = up ]; }
ipv6cp_open() { [ "$(xp status "$TAP" 2>/dev/null | awk -F': ' '$1 == "ipv6cp" { print $2 }')" = Opened ]; }
client_gone() { ! xp status "$TAP" >/dev/null 2>&1; }

# The guest's view of its session(s): "session=SID peer=MAC pppd=alive iface=ppp0 local=..."
ac_sessions() { gx 'pxp-ac status' 2>/dev/null | grep '^session='; }
ac_link_up() { ac_sessions | grep -q "pppd=alive iface=ppp0 local=$AC_IP remote=$1 "; }
ac_pppd_gone() { ! ac_sessions | grep -q 'pppd=alive'; }

ac_start() { # AUTH
	local out
	out=$(gx "pxp-ac stop >/dev/null; pxp-ac start --iface eth0 --auth $1 \
		--user $USER_NAME --password $PASSWORD --local $AC_IP --pool $CLIENT_IP \
		--dns $DNS1 --dns2 $DNS2 --ac-name $AC_NAME --lcp-echo-interval 1 \
		--lcp-echo-failure 3" 2>&1) || fail "pxp-ac start failed: $out"
}

# Ends what a case left running, gracefully first, on both sides.
reset() {
	xp down "$TAP" >/dev/null 2>&1
	kill_test_programs "$NS"
	gx 'pxp-ac stop; killall iperf3; true' >/dev/null 2>&1
	guest_v6_stop
	ip -n "$NS" link del pxilan 2>/dev/null
	DHCPCD_PID=
}

client_up() { # [extra pppoe-xp up options]
	xp up "$TAP" --user "$USER_NAME" --password "$PASSWORD" --usepeerdns --keepalive "3 1" \
		"$@" >"$PXP_TMP/up.out" 2>&1 ||
		fail "up exited $?: $(tr '\n' '|' <"$PXP_TMP/up.out")"
}

# A session as pppd assigned it: addresses, DNS, name, MTU in status --json; the guest's
# pppd authorised us with AUTH and shows the link with the same addresses.
session_matches_pppd() { # AUTH LOG_PATTERN
	local json bad
	ac_start "$1" || return 1
	client_up || return 1
	json=$(xp status "$TAP" --json) || fail "status --json failed" || return 1
	bad=$(python3 - "$json" "$CLIENT_IP" "$AC_IP" "$DNS1" "$DNS2" "$AC_NAME" 2>&1 <<-'EOF'
		import json, sys
		s = json.loads(sys.argv[1])
		want = {"state": "up", "local_ip": sys.argv[2], "peer_ip": sys.argv[3],
		        "dns": [sys.argv[4], sys.argv[5]], "ac_name": sys.argv[6], "mtu": 1492,
		        "lcp": "Opened", "ipcp": "Opened"}
		bad = {k: (s.get(k), v) for k, v in want.items() if s.get(k) != v}
		if bad:
		    sys.exit("status --json (got, want): %s" % bad)
	EOF
	) || fail "$bad" || return 1
	grep -q "nameserver $DNS1" "$RUN/$TAP.resolv.conf" 2>/dev/null ||
		fail "usepeerdns wrote no $DNS1 into $RUN/$TAP.resolv.conf" || return 1
	wait_for 10 ac_link_up "$CLIENT_IP" ||
		fail "the guest's pppd shows no link to $CLIENT_IP: $(ac_sessions)" || return 1
	gx "grep -q '$2' $AC_LOG" ||
		fail "pppd log lacks '$2': $(gx "tail -n 15 $AC_LOG" | tr '\n' '|')"
}

test_chap() {
	reset
	session_matches_pppd chap 'sent \[CHAP Success'
}

test_pap() {
	reset
	session_matches_pppd pap 'sent \[PAP AuthAck'
}

test_wrong_password() {
	local rc
	reset
	ac_start chap || return 1
	xp up "$TAP" --user "$USER_NAME" --password wrong >"$PXP_TMP/up.out" 2>&1
	rc=$?
	[ $rc -eq 19 ] || fail "exit $rc, want 19: $(tr '\n' '|' <"$PXP_TMP/up.out")" || return 1
	gx "grep -q 'sent \[CHAP Failure' $AC_LOG" ||
		fail "pppd did not send CHAP Failure: $(gx "tail -n 8 $AC_LOG" | tr '\n' '|')" || return 1
	wait_for 10 client_gone || fail "the daemon stayed after the failure"
}

# Needs the data path: pxp0 carrying IP over the session, both ways.
test_ping() {
	reset
	ac_start chap || return 1
	client_up || return 1
	wait_for 10 ac_link_up "$CLIENT_IP" || fail "the guest's pppd link is not up" || return 1
	pings_through_session "$NS" "$GUEST" "$AC_IP" "$CLIENT_IP"
}

test_ipv6() {
	local peer local6 lines
	reset
	ac_start chap || return 1
	client_up --ipv6 || return 1
	wait_for 10 ipv6cp_open ||
		fail "IPv6CP did not open against pppd: $(gx "grep IPV6CP $AC_LOG | tail -4" | tr '\n' '|')" ||
		return 1
	peer=$(json_get ipv6_peer)
	local6=$(json_get ipv6_local)
	lines=$(gx "grep 'LL address' $AC_LOG") || fail "pppd logged no link-local addresses" || return 1
	python3 - "$local6" "$peer" "$lines" <<-'EOF' ||
		import ipaddress, re, sys
		ours, peer, log = sys.argv[1], sys.argv[2], sys.argv[3]
		got = dict(re.findall(r"(local|remote) +LL address (\S+)", log))
		a = lambda s: ipaddress.IPv6Address(s)
		sys.exit(not (a(got["local"]) == a(peer) and a(got["remote"]) == a(ours)))
	EOF
		fail "pppd's link-local addresses differ from ours ($local6, peer $peer): $(echo "$lines" | tr '\n' '|')" ||
		return 1
	in_ns "$NS" ping -6 -c 2 -W 3 -i 0.3 "$peer%pxp0" >/dev/null ||
		fail "cannot ping pppd's link-local $peer through the session"
}

# IPv6 from stock ISP parts on the guest's ppp0: radvd advertising a /64 (SLAAC), wide-dhcpv6's
# dhcp6s delegating a /56 to the DUID dhcpcd is given, the /56 routed to ppp0 and an address
# behind the AC. Our pxp0 takes the RA; dhcpcd on pxp0 gets the /56 and puts a /64 of it on a
# LAN veth; a ping from that /64 reaches the address behind the AC and comes back.
PD_DUID=00:03:00:01:02:00:00:00:00:99
GUEST_V6=/run/pxp/v6
guest_v6_start() {
	gx "set -e
		echo 1 >/proc/sys/net/ipv6/conf/all/forwarding
		mkdir -p $GUEST_V6 /var/lib/dhcpv6
		printf 'interface ppp0 {\n AdvSendAdvert on;\n MinRtrAdvInterval 3;\n MaxRtrAdvInterval 10;\n AdvOtherConfigFlag on;\n prefix 2001:db8:1::/64 { AdvOnLink on; AdvAutonomous on; };\n};\n' >$GUEST_V6/radvd.conf
		printf 'host router {\n duid $PD_DUID;\n prefix 2001:db8:100::/56 infinity;\n};\n' >$GUEST_V6/dhcp6s.conf
		ip -6 addr add 2001:db8:77::1/128 dev lo
		ip -6 route add 2001:db8:100::/56 dev ppp0
		radvd -C $GUEST_V6/radvd.conf -p $GUEST_V6/radvd.pid -m logfile -l $GUEST_V6/radvd.log
		dhcp6s -c $GUEST_V6/dhcp6s.conf -P $GUEST_V6/dhcp6s.pid ppp0" 2>&1
}

guest_v6_stop() {
	gx "killall radvd dhcp6s; ip -6 addr del 2001:db8:77::1/128 dev lo; true" >/dev/null 2>&1
}

pxp0_slaac() { ip -n "$NS" -6 -br addr show dev pxp0 scope global | grep -q ' 2001:db8:1:'; }
# The /64 on the LAN, past its duplicate address detection (a tentative address cannot be a
# ping's source).
lan_pd() {
	ip -n "$NS" -6 -br addr show dev pxilan scope global -tentative | grep -q ' 2001:db8:100::1/64'
}

test_ipv6_pd() {
	local out
	reset
	ac_start chap || return 1
	client_up --ipv6 || return 1
	wait_for 10 ipv6cp_open || fail "IPv6CP did not open against pppd" || return 1
	out=$(guest_v6_start) || fail "radvd/dhcp6s on the guest: $out" || return 1
	wait_for 30 pxp0_slaac ||
		fail "no SLAAC address from radvd on pxp0: $(ip -n "$NS" -6 -br addr show dev pxp0) $(gx "tail -5 $GUEST_V6/radvd.log" | tr '\n' '|')" ||
		return 1
	ip -n "$NS" -6 route show default dev pxp0 | grep -q 'via fe80::.* proto ra' ||
		fail "no default route from radvd: $(ip -n "$NS" -6 route show default)" || return 1
	ip -n "$NS" link add pxilan type veth peer name pxilan-p &&
		ip -n "$NS" link set pxilan up && ip -n "$NS" link set pxilan-p up ||
		fail "cannot make the LAN veth" || return 1
	dhcpcd_pd_start "$NS" pxp0 pxilan "$PXP_TMP/dhcpcd" "$PD_DUID"
	wait_for 60 lan_pd ||
		fail "no /64 of the delegated prefix on the LAN: $(tail -5 "$PXP_TMP/dhcpcd/log" | tr '\n' '|')" ||
		return 1
	in_ns "$NS" ping -6 -c 2 -W 3 -i 0.3 -I 2001:db8:100::1 2001:db8:77::1 >/dev/null ||
		fail "no ping from the delegated prefix to the guest's 2001:db8:77::1"
}

# Everything pppd proposes (LCP with CHAP, IPCP with DNS, IPv6CP) we either accept or it
# accepts from us: pppd's log shows nothing of ours that it had to reject, nak or not know.
test_negotiation_clean() {
	local odd
	reset
	ac_start chap || return 1
	client_up --ipv6 || return 1
	wait_for 10 ac_link_up "$CLIENT_IP" || fail "the guest's pppd link is not up" || return 1
	odd=$(gx "grep -E 'rcvd \[[A-Z0-9]+ (ConfNak|ConfRej|ProtRej|CodeRej)|[Uu]nexpected|[Uu]nknown|[Ii]nvalid|bad ' $AC_LOG")
	[ -z "$odd" ] || fail "pppd had to refuse something of ours: $(echo "$odd" | tr '\n' '|')"
}

# pppd (lcp-echo-interval 1, failure 3) and our client (--keepalive "3 1") both probe; a
# capture in the guest counts each direction's requests and replies. pppd does not log echo
# frames once the link runs, so the wire is where they are checked.
test_lcp_echo() {
	local guest_mac our_mac counts sent replies missed
	reset
	ac_start pap || return 1
	client_up || return 1
	guest_mac=$(json_get ac_mac)
	our_mac=$(json_get local_mac)
	counts=$(gx "timeout 6 tcpdump -Z root -i eth0 -nn -U -w /tmp/lcp.pcap \
		'ether proto 0x8864 and ether[20:2] = 0xc021' >/dev/null 2>&1
		for m in $guest_mac $our_mac; do for code in 9 10; do
			printf '%s ' \$(tcpdump -Z root -r /tmp/lcp.pcap -nn \"ether src \$m and ether[22] = \$code\" 2>/dev/null | wc -l)
		done; done" 30) || fail "capture in the guest failed: $counts" || return 1
	# counts: pppd's requests, pppd's replies, our requests, our replies.
	# shellcheck disable=SC2086 # four numbers
	set -- $counts
	[ "${1:-0}" -ge 3 ] || fail "pppd sent ${1:-0} echo requests in 6 s (counts: $counts)" || return 1
	[ "${4:-0}" -ge $(($1 - 1)) ] ||
		fail "we answered ${4:-0} of pppd's $1 echo requests (counts: $counts)" || return 1
	[ "${3:-0}" -ge 3 ] || fail "we sent ${3:-0} echo requests in 6 s (counts: $counts)" || return 1
	[ "${2:-0}" -ge $(($3 - 1)) ] ||
		fail "pppd answered ${2:-0} of our $3 echo requests (counts: $counts)" || return 1
	sent=$(json_get echo sent)
	replies=$(json_get echo replies)
	missed=$(json_get echo missed)
	[ "${sent:-0}" -ge 5 ] && [ "${replies:-0}" -ge $((sent - 1)) ] && [ "${missed:-1}" -eq 0 ] ||
		fail "status --json echo: sent $sent replies $replies missed $missed" || return 1
	ac_link_up "$CLIENT_IP" || fail "pppd dropped the link during the echo test"
}

# pxp-ac stop: pppd sends LCP Terminate-Request, the plugin a PADT. Our client exits 16
# (the AC hung up), removes pxp0 and detaches from the tap.
test_ac_ends() {
	local pid rc
	reset
	ac_start pap || return 1
	PXP_TIMEOUT=60 xp up "$TAP" --user "$USER_NAME" --password "$PASSWORD" --foreground \
		>"$PXP_TMP/fg.out" 2>&1 &
	pid=$!
	wait_for 30 client_is_up || fail "session did not come up: $(tr '\n' '|' <"$PXP_TMP/fg.out")" ||
		return 1
	wait_for 10 ac_link_up "$CLIENT_IP" || fail "the guest's pppd link is not up" || return 1
	gx 'pxp-ac stop' >/dev/null || fail "pxp-ac stop failed" || return 1
	wait "$pid"
	rc=$?
	[ $rc -eq 16 ] ||
		fail "client exited $rc after the AC's Terminate/PADT, want 16: $(tail -3 "$PXP_TMP/fg.out" | tr '\n' '|')" ||
		return 1
	in_ns "$NS" ip link show pxp0 >/dev/null 2>&1 && fail "pxp0 left behind" && return 1
	ip -n "$NS" link show dev "$TAP" | grep -q xdp && fail "XDP program left on $TAP" && return 1
	gx "grep -q 'sent \[LCP TermReq' $AC_LOG" ||
		fail "pppd log shows no Terminate-Request: $(gx "tail -n 6 $AC_LOG" | tr '\n' '|')"
}

# pppoe-xp down: our LCP Terminate-Request and PADT; pppd ends its session.
test_client_ends() {
	reset
	ac_start pap || return 1
	client_up || return 1
	wait_for 10 ac_link_up "$CLIENT_IP" || fail "the guest's pppd link is not up" || return 1
	xp down "$TAP" || fail "down exited $?" || return 1
	client_gone || fail "daemon still answers after down" || return 1
	wait_for 15 ac_pppd_gone || fail "pppd still runs after our down: $(ac_sessions)" || return 1
	gx "grep -q 'rcvd \[LCP TermReq' $AC_LOG" ||
		fail "pppd log shows no Terminate-Request from us: $(gx "tail -n 6 $AC_LOG" | tr '\n' '|')"
}

# A bare PADT (no LCP Terminate first, as after a crash) must end pppd's session too: the
# kernel's pppoe.ko receives it and pppd hangs up.
test_client_padt_only() {
	local sid ac_mac our_mac
	reset
	ac_start pap || return 1
	client_up || return 1
	wait_for 10 ac_link_up "$CLIENT_IP" || fail "the guest's pppd link is not up" || return 1
	sid=$(json_get session_id)
	ac_mac=$(json_get ac_mac)
	our_mac=$(json_get local_mac)
	kill -9 "$(json_get pid)"
	in_ns "$NS" python3 - "$TAP" "$sid" "$ac_mac" "$our_mac" <<-'EOF' || fail "could not send a PADT" || return 1
		import socket, struct, sys
		ifname, sid = sys.argv[1], int(sys.argv[2])
		dst, src = (bytes.fromhex(m.replace(":", "")) for m in sys.argv[3:5])
		s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
		s.bind((ifname, 0))
		s.send(dst + src + struct.pack("!HBBHH", 0x8863, 0x11, 0xA7, sid, 0))
	EOF
	wait_for 15 ac_pppd_gone || fail "pppd still runs after a bare PADT: $(ac_sessions)"
}

# mss_of FILE: the MSS options tcpdump -v printed, one per line.
mss_of() { grep -o 'mss [0-9]*' "$1" | awk '{ print $2 }' | tr '\n' ' '; }

# MSS clamping, seen on the wire. Both ends offer MSS 1460 (a route's advmss, as a LAN host
# behind a router would) over a session of MTU 1492: our SYN must reach the guest's Ethernet
# clamped to 1452, and the guest's SYN-ACK must reach pxp0 clamped to 1452. On the host side
# the capture is pxp0 (XDP redirects bypass captures on the tap); in the guest it is eth0, a
# virtio NIC that receives what the tap carried.
test_mss_on_wire() {
	local wire host_syn host_synack wire_syn wire_synack pid
	reset
	ac_start chap || return 1
	client_up || return 1
	wait_for 10 ac_link_up "$CLIENT_IP" || fail "the guest's pppd link is not up" || return 1
	ip -n "$NS" route replace "$AC_IP" dev pxp0 scope link src "$CLIENT_IP" advmss 1460 ||
		fail "cannot set advmss on the route to $AC_IP" || return 1
	# Both captures run once tcpdump says it listens (a fixed sleep loses frames under TCG).
	gx "iperf3 -s -D; ip route replace $CLIENT_IP dev ppp0 scope link advmss 1460
		(timeout 20 tcpdump -Z root -i eth0 -nn -U -w /tmp/mss.pcap 'pppoes and tcp' \
		>/dev/null 2>/tmp/mss.err &)
		for i in \$(seq 50); do grep -q 'listening on' /tmp/mss.err && break; sleep 0.2; done
		grep -q 'listening on' /tmp/mss.err" >/dev/null ||
		fail "cannot start the capture in the guest" || return 1
	capture_start "$NS" "$PXP_TMP/mss-host.txt" -i pxp0 -nn -v -U -c 2 \
		"tcp[tcpflags] & tcp-syn != 0" || return 1
	pid=$CAPTURE_PID
	in_ns "$NS" timeout 5 bash -c "exec 3<>/dev/tcp/$AC_IP/5201" 2>/dev/null
	wait "$pid"
	# Until the guest's capture (written packet by packet) holds both SYNs.
	wire=$(gx "syns() { tcpdump -Z root -r /tmp/mss.pcap -nn -v \
			'pppoes and tcp[tcpflags] & tcp-syn != 0' 2>/dev/null; }
		for i in \$(seq 50); do [ \$(syns | grep -c 'mss ') -ge 2 ] && break; sleep 0.2; done
		killall tcpdump; syns" 30) ||
		fail "reading the guest's capture failed: $wire" || return 1
	echo "$wire" >"$PXP_TMP/mss-wire.txt"
	# In each capture: first the SYN (ours), then the SYN-ACK (the guest's).
	read -r host_syn host_synack <<<"$(mss_of "$PXP_TMP/mss-host.txt")"
	read -r wire_syn wire_synack <<<"$(mss_of "$PXP_TMP/mss-wire.txt")"
	echo "# MSS offered/seen: our SYN on pxp0 $host_syn, on the guest's wire $wire_syn;" \
		"the guest's SYN-ACK on its wire $wire_synack, on pxp0 $host_synack"
	[ "$host_syn" = 1460 ] && [ "$wire_synack" = 1460 ] ||
		fail "the advmss 1460 routes did not take (pxp0 SYN $host_syn, guest SYN-ACK $wire_synack)" ||
		return 1
	[ "$wire_syn" = 1452 ] || fail "our SYN left the WAN with MSS ${wire_syn:-none}, not 1452" ||
		return 1
	[ "$host_synack" = 1452 ] ||
		fail "the guest's SYN-ACK reached pxp0 with MSS ${host_synack:-none}, not 1452"
}

# iperf_mbps IPERF3_ARGS...: receiver-side Mbit/s and sender retransmits of one iperf3 run.
iperf_mbps() {
	in_ns "$NS" iperf3 -t 3 -J "$@" 2>&1 | python3 -c '
import json, sys
e = json.load(sys.stdin)["end"]
print("%.1f/%d" % (e["sum_received"]["bits_per_second"] / 1e6, e["sum_sent"].get("retransmits", 0)))' 2>&1
}

# iperf3 through the session, both directions, against the guest's iperf3 -s; first over plain
# IP on the same tap (no PPPoE, the ceiling). Under TCG only the ratio means anything.
test_iperf() {
	local plain_up plain_down up down
	reset
	gx "$GUEST_WAIT_LISTENING
		iperf3 -s -D && guest_wait_listening '' 5201 &&
		ip link set eth0 up && ip addr add 192.0.2.1/24 dev eth0" >/dev/null ||
		fail "iperf3 -s did not start in the guest" || return 1
	ip -n "$NS" addr add 192.0.2.2/24 dev "$TAP"
	plain_up=$(iperf_mbps -c 192.0.2.1) || fail "plain iperf3 host -> guest: $plain_up" || return 1
	plain_down=$(iperf_mbps -c 192.0.2.1 -R) || fail "plain iperf3 guest -> host: $plain_down" || return 1
	ip -n "$NS" addr del 192.0.2.2/24 dev "$TAP"
	gx 'ip addr del 192.0.2.1/24 dev eth0' >/dev/null
	ac_start chap || return 1
	client_up || return 1
	wait_for 10 ac_link_up "$CLIENT_IP" || fail "the guest's pppd link is not up" || return 1
	up=$(iperf_mbps -c "$AC_IP") || fail "iperf3 host -> guest failed: $up" || return 1
	down=$(iperf_mbps -c "$AC_IP" -R) || fail "iperf3 guest -> host failed: $down" || return 1
	echo "# iperf3 3 s, Mbit/s/retransmits (TCG guest): plain IP host->guest $plain_up, guest->host $plain_down;"
	echo "#   pppoe-xp <-> kernel PPPoE host->guest $up, guest->host $down"
	python3 -c "import sys; sys.exit(not (float('${up%/*}') > 0 and float('${down%/*}') > 0))" ||
		fail "no throughput through the session: up $up, down $down"
}

test_setup_time() {
	local i ms all=() median cap our_mac
	reset
	ac_start pap || return 1
	cap=$PXP_TMP/setup.pcap
	our_mac=$(ip -n "$NS" -br link show dev "$TAP" | awk '{ print $3 }')
	for i in $(seq $SETUP_RUNS); do
		[ "$i" = 1 ] && pppoe_capture_start "$NS" "$TAP" "$cap"
		client_up || return 1
		[ "$i" = 1 ] && pppoe_capture_stop
		ms=$(json_get setup_ms)
		all+=("$ms")
		xp down "$TAP" || fail "down failed" || return 1
		wait_for 15 ac_pppd_gone || fail "pppd of run $i did not end" || return 1
	done
	median=$(median_of "${all[@]}")
	echo "# setup PADI->IPCP open against the guest's pppd (PAP): median ${median} ms of ${all[*]}"
	echo "# first run on the wire (host tap, times from the PADI):"
	print_setup_breakdown "$cap" "$our_mac"
}

missing=$(require_cmds qemu-system-x86_64 python3 tcpdump iperf3 ip) || {
	skip_test interop/client_vs_pppd "missing commands:$missing (Debian packages qemu-system-x86, python3, tcpdump, iperf3)"
	exit 0
}
[ -x "$B" ] || {
	echo "FAIL interop/client_vs_pppd/build: $B is missing (run make)"
	exit 1
}
cases_named "$@"
mkdir -p "$RUN"
guest_boot_in_netns client_vs_pppd "$NS" "$GUEST" "$TAP"
on_cleanup reset

case_ interop/client_vs_pppd/chap test_chap
case_ interop/client_vs_pppd/pap test_pap
case_ interop/client_vs_pppd/wrong_password test_wrong_password
case_ interop/client_vs_pppd/ping test_ping
case_ interop/client_vs_pppd/ipv6 test_ipv6
if command -v dhcpcd >/dev/null; then
	case_ interop/client_vs_pppd/ipv6_pd test_ipv6_pd
else
	skip_test interop/client_vs_pppd/ipv6_pd "dhcpcd is missing (make deps installs it)"
fi
case_ interop/client_vs_pppd/negotiation_clean test_negotiation_clean
case_ interop/client_vs_pppd/lcp_echo test_lcp_echo
case_ interop/client_vs_pppd/client_ends test_client_ends
case_ interop/client_vs_pppd/client_padt_only test_client_padt_only
case_ interop/client_vs_pppd/mss_on_wire test_mss_on_wire
case_ interop/client_vs_pppd/iperf test_iperf
case_ interop/client_vs_pppd/setup_time test_setup_time
case_ interop/client_vs_pppd/ac_ends test_ac_ends
tests_done
