#!/bin/bash
# Proves the kernel-PPPoE guest with real traffic and no pppoe-xp code.
#
#   host netns pxgn$$                      qemu guest (Debian kernel, TCG)
#   +---------------+   tap pxgt$$   +-------------------------------------------+
#   | pppoe -A      |----------------| eth0: pxp-ac (pppoe-server + pppd)        |
#   | (discovery    |                |                                           |
#   |  only)        |                | netns pxgA         veth        netns pxgB |
#   +---------------+                | pxp-ac on vA  <-------------> pxp-pppd-   |
#                                    | (pppoe.ko)                    client (vB) |
#   9p share: a host temp dir        +-------------------------------------------+
#
# Cases: control channel semantics, 9p share, PAP and CHAP kernel-mode
# sessions carrying ping, LCP Terminate + PADT on `pxp-ac stop`, rp-pppoe
# user mode, PADI/PADO across the tap, pppoe-xp's runtime libraries, and a pppoe-xp session
# with no data path options on this kernel without netkit: --mode auto's veth row (XDP both
# ways on veths).
# Output: one PASS/FAIL/SKIP line per case; exit 1 if anything failed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/interop/lib.sh
source "$here/lib.sh"

name=pxg$$
netns=pxgn$$
tap=pxgt$$
cases=(guest_boot guest_exec_status guest_share_9p session_pap_kernel
	session_chap_kernel ac_stop_terminates session_user_mode
	host_discovery_over_tap pppoe_xp_libraries pppoe_xp_auto_veth)
guest_suite "$name" "${cases[@]}"
share=$GUEST_SUITE_TMP

# The pppoe-xp build output, if any, is what the benchmark shares later.
if [ -d "$repo/build" ]; then
	cp "$repo"/build/pppoe-xp "$share/" 2>/dev/null
fi
token=$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
echo "$token" >"$share/token"

guest_suite_boot "$netns" "$tap" "$share"

# guest_exec must return the command's exit status and its output.
out=$(guest_exec "$name" 'echo to-stdout; echo to-stderr >&2; exit 7')
rc=$?
if [ $rc = 7 ] && [ "$out" = "to-stdout
to-stderr" ]; then
	pass guest_exec_status
else
	fail guest_exec_status "rc=$rc output='$out'"
fi

out=$(guest_exec "$name" 'cat /host/token')
if [ "$out" = "$token" ]; then
	pass guest_share_9p
else
	fail guest_share_9p "read '$out' from /host/token, want $token"
fi

# Two namespaces in the guest joined by a veth pair: AC in A, client in B.
guest_exec "$name" '
	ip netns add pxgA && ip netns add pxgB &&
	ip link add vA netns pxgA type veth peer name vB netns pxgB &&
	ip -n pxgA link set vA up && ip -n pxgB link set vB up' >&2 ||
	fail session_setup "cannot build the in-guest namespaces"

# $1 case, $2 auth, $3 mode, $4 third octet of the addresses.
# The kernel sessions must show up in /proc/net/pppoe (pppoe.ko), and a
# ping must cross them.
session_case() {
	local case=$1 auth=$2 mode=$3 net=10.77.$4 out
	out=$(guest_exec "$name" "
		ip netns exec pxgA pxp-ac start --iface vA --auth $auth --user user-$auth \
			--password pw-$auth-$$ --local $net.1 --pool $net.2 --dns $net.53 \
			--mode $mode || exit 1
		ip netns exec pxgB pxp-pppd-client start --iface vB --user user-$auth \
			--password pw-$auth-$$ --mode $mode --timeout 45 || exit 2
		ip netns exec pxgB ping -c 3 -W 3 $net.1 >/dev/null || exit 3
		if [ $mode = kernel ]; then
			ip netns exec pxgA cat /proc/net/pppoe | grep -q ' vA' || exit 4
			ip netns exec pxgB cat /proc/net/pppoe | grep -q ' vB' || exit 4
		else
			# pppoe -T 80 ends a session after 80 s without traffic: pppd must send echoes.
			grep -qx 'lcp-echo-interval 20' /run/pxp/client/client/options || exit 6
		fi
		ip netns exec pxgA pxp-ac status | grep -q 'session=1 .*pppd=alive iface=ppp' || exit 5
		" 120)
	case $? in
	0) pass "$case" ;;
	1) fail "$case" "pxp-ac start failed: $out" ;;
	2) fail "$case" "client session did not come up: $out" ;;
	3) fail "$case" "no ping across the session" ;;
	4) fail "$case" "session not in /proc/net/pppoe (not kernel mode?)" ;;
	5) fail "$case" "pxp-ac status does not show the session: $out" ;;
	6) fail "$case" "user mode's pppd sends no LCP echoes (pppoe -T 80 would end an idle session)" ;;
	*) fail "$case" "guest_exec failed: $out" ;;
	esac
}

stop_both() {
	guest_exec "$name" 'ip netns exec pxgB pxp-pppd-client stop
		ip netns exec pxgA pxp-ac stop' >&2
}

session_case session_pap_kernel pap kernel 1
stop_both
session_case session_chap_kernel chap kernel 2

# Stopping the AC must end the client's session the proper way: an LCP
# Terminate-Request the client logs, and a PADT from the AC on the wire.
# shellcheck disable=SC2016 # expands in the guest
out=$(guest_exec "$name" '
	ac_mac=$(ip netns exec pxgA cat /sys/class/net/vA/address)
	ip netns exec pxgB tcpdump -i vB -U -w /tmp/stop.pcap ether proto 0x8863 \
		2>/dev/null &
	dump=$!
	for i in $(seq 50); do [ -e /tmp/stop.pcap ] && break; sleep 0.2; done
	ip netns exec pxgA pxp-ac stop >/dev/null
	for i in $(seq 50); do
		ip netns exec pxgB pxp-pppd-client status | grep -q pppd=stopped && break
		sleep 0.2
	done
	# Until the capture (written packet by packet) holds the PADT: not a fixed sleep.
	for i in $(seq 25); do
		tcpdump -r /tmp/stop.pcap -e -n 2>/dev/null | grep -q "^.*$ac_mac >.*PADT" && break
		sleep 0.2
	done
	kill $dump
	wait $dump
	ip netns exec pxgB pxp-pppd-client status
	tcpdump -r /tmp/stop.pcap -e -n 2>/dev/null | grep "^.*$ac_mac >.*PADT" |
		sed "s/^/wire: /"' 60)
if ! echo "$out" | grep -q 'pppd=stopped'; then
	fail ac_stop_terminates "client pppd still running after pxp-ac stop"
elif ! echo "$out" | grep -q 'rcvd \[LCP TermReq'; then
	fail ac_stop_terminates "client saw no LCP Terminate-Request"
elif ! echo "$out" | grep -q '^wire: .*PADT'; then
	fail ac_stop_terminates "no PADT from the AC on the wire"
else
	pass ac_stop_terminates
fi
stop_both

session_case session_user_mode pap user 3
stop_both

# PADI/PADO across the tap: rp-pppoe's discovery-only client on the host.
if ! command -v pppoe >/dev/null; then
	skip host_discovery_over_tap "host has no /usr/sbin/pppoe (apt-get install pppoe)"
elif ! guest_exec "$name" "pxp-ac start --iface eth0 --auth pap --user u --password p \
		--local 10.77.9.1 --pool 10.77.9.2 --ac-name pxg-ac-$$ --service pxg-svc" >&2; then
	fail host_discovery_over_tap "pxp-ac start on eth0 failed"
else
	out=$(ip netns exec "$netns" timeout 30 pppoe -A -I "$tap" 2>&1)
	mac=$(pxg_mac_for "$name")
	if echo "$out" | grep -q "Access-Concentrator: pxg-ac-$$" &&
		echo "$out" | grep -q "Service-Name: pxg-svc" &&
		echo "$out" | grep -qi "AC-Ethernet-Address: $mac"; then
		pass host_discovery_over_tap
	else
		fail host_discovery_over_tap "pppoe -A did not list the guest AC: $out"
	fi
	guest_exec "$name" 'pxp-ac stop' >&2
fi

# Everything the pppoe-xp binary links must resolve inside the guest.
if [ ! -f "$share/pppoe-xp" ]; then
	skip pppoe_xp_libraries "no build/pppoe-xp to check (run make first)"
else
	if out=$(guest_exec "$name" '/lib64/ld-linux-x86-64.so.2 --list /host/pppoe-xp 2>&1') &&
		! echo "$out" | grep -q 'not found'; then
		pass pppoe_xp_libraries
	else
		fail pppoe_xp_libraries "$(echo "$out" | grep 'not found' | tr '\n' ' ')"
	fi
fi

# 6.1 has no netkit: --mode auto at both ends keeps the veth row (mode xdp, veth netdevs),
# where the 6.12 guest takes the netkit row (test_guest_612.sh guest612_pppoe_xp_session).
if [ ! -f "$share/pppoe-xp" ]; then
	skip pppoe_xp_auto_veth "no build/pppoe-xp (run make first)"
else
	guest_pxp_auto_case pppoe_xp_auto_veth "$name" pxg u61 10.77.4 "xdp on a veth" \
		"^  netdev_kind: veth\$
^  mode: xdp\$
^  mode_reason: auto: veth: XDP .*; this kernel has no netkit" \
		"^netdev_kind: veth\$
^datapath_mode: xdp\$"
fi

exit $REPORT_FAILED
