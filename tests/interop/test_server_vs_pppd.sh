#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Our access concentrator against the real kernel PPPoE client: pppd with its rp-pppoe.so
# plugin (kernel pppoe.ko) in a qemu guest running Debian's own kernel. The guest boots
# once; every case runs against it.
#
#   host netns pxi<pid>-host                  qemu guest (TCG, Debian kernel)
#   pxi<pid>t (tap) ======= virtio ========= eth0
#   pppoe-xp server -> pxs<sid> 10.78.0.1 .. ppp0 10.78.0.x  pppd plugin rp-pppoe.so
#                                              (pxp-pppd-client)
#
# Cases: PAP, CHAP and MS-CHAPv2 sessions (pppd takes the address and DNS we assign);
# a wrong password; ping both ways and at full MTU; LCP echo answered both ways; pppd's
# hang-up and ours (server down), each noticed by the other side; pppd's set-up time
# against our AC (its start command returns once IPCP is up), median of 5.
PXP_NS_PREFIX=pxi$$-
. "$(dirname "$0")/../netns/lib.sh"
. "$(dirname "$0")/lib.sh"

NS=${PXP_NS_PREFIX}host
GUEST=pxi$$s
TAP=pxi$$u
RUN=$PXP_TMP/run
USER_NAME=alice
PASSWORD=secret1
AC_IP=10.78.0.1
POOL=10.78.0.0/24
DNS1=10.78.0.53
DNS2=10.78.0.54
AC_NAME=pxi-xac
PPPD_LOG=/run/pxp/client/client/pppd.log
SETUP_RUNS=5
export PXG_BOOT_TIMEOUT=${PXG_BOOT_TIMEOUT:-240}

xp() { in_ns "$NS" env PPPOE_XP_RUN_DIR="$RUN" "$B" "$@"; }
gx() { guest_exec "$GUEST" "$@"; }

# status_get KEY: a top-level field of our server's status (text form).
status_get() { xp status "$TAP" 2>/dev/null | awk -F': ' -v key="$1" '$1 == key { print $2; exit }'; }
sessions_are() { [ "$(status_get session_count)" = "$1" ]; }
# session_get KEY: a field of the first session in the server's status.
session_get() { xp status "$TAP" 2>/dev/null | awk -v key="    $1" -F': ' '$1 == key { print $2; exit }'; }

# The guest pppd's link as its ip-up recorded it: "iface=ppp0 local=... remote=... pid=..".
pppd_link() { gx 'cat /run/pxp/ppp/client.client 2>/dev/null' 2>/dev/null | tr '\n' ' '; }
pppd_running() { gx 'pxp-pppd-client status' 2>/dev/null | grep -q '^pppd=running'; }
pppd_gone() { ! pppd_running; }

server_start() { # AUTH [extra options]
	local auth=$1
	shift
	xp server "$TAP" --local "$AC_IP" --pool "$POOL" --auth "$auth" --secrets "$SECRETS" \
		--ac-name "$AC_NAME" --dns "$DNS1" --dns "$DNS2" --keepalive "3 1" "$@" \
		>"$PXP_TMP/server.out" 2>&1 ||
		fail "pppoe-xp server exited $?: $(tr '\n' '|' <"$PXP_TMP/server.out")"
}

pppd_start() {
	local out
	out=$(gx "pxp-pppd-client start --iface eth0 --user $USER_NAME --password $PASSWORD \
		--usepeerdns --lcp-echo-interval 1 --lcp-echo-failure 3 --timeout 40" 60 2>&1) ||
		fail "pppd did not connect: $(echo "$out" | tail -n 12 | tr '\n' '|')"
}

reset() {
	gx 'pxp-pppd-client stop' >/dev/null 2>&1
	xp down "$TAP" >/dev/null 2>&1
	kill_test_programs "$NS"
	return 0
}

# pppd authenticates with AUTH (LCP option as pppd logs it: AUTH_OPTION), takes our address
# and DNS; our server lists it as up.
session_with() { # AUTH AUTH_OPTION
	local link peer
	reset
	server_start "$1" || return 1
	pppd_start || return 1
	gx "grep 'rcvd \[LCP ConfReq' $PPPD_LOG | tail -n 1 | grep -qF '<auth $2>'" ||
		fail "pppd did not get '<auth $2>' from us: $(gx "grep 'LCP ConfReq' $PPPD_LOG" | tr '\n' '|')" ||
		return 1
	link=$(pppd_link)
	peer=$(session_get peer_ip)
	case $link in
	*"local=$peer remote=$AC_IP "*) ;;
	*) fail "pppd's link '$link' is not what our AC assigned ($peer, peer $AC_IP)" || return 1 ;;
	esac
	[ "$(session_get ipcp)" = Opened ] && [ "$(session_get user)" = "$USER_NAME" ] ||
		fail "our AC does not list $USER_NAME's session as open: $(xp status "$TAP" | tr '\n' '|')" ||
		return 1
	gx "grep -q 'nameserver $DNS1' /etc/ppp/resolv.conf && grep -q 'nameserver $DNS2' /etc/ppp/resolv.conf" ||
		fail "pppd's usepeerdns got other DNS: $(gx 'cat /etc/ppp/resolv.conf' | tr '\n' '|')"
}

test_pap() { session_with pap pap; }
test_chap() { session_with chap 'chap MD5'; }
test_mschapv2() { session_with mschapv2 'chap MS-v2'; }

test_wrong_password() {
	local out
	reset
	server_start chap || return 1
	if out=$(gx "pxp-pppd-client start --iface eth0 --user $USER_NAME --password wrong --timeout 30" 50 2>&1); then
		fail "pppd connected with a wrong password: $out"
		return 1
	fi
	gx "grep -q 'rcvd \[CHAP Failure' $PPPD_LOG" ||
		fail "pppd saw no CHAP Failure: $(gx "tail -n 8 $PPPD_LOG" | tr '\n' '|')" || return 1
	[ "$(status_get auth_failures)" -ge 1 ] 2>/dev/null || fail "our AC counted no auth failure" ||
		return 1
	wait_for 10 sessions_are 0 || fail "our AC kept the failed session"
}

test_ping() {
	local peer
	reset
	server_start pap || return 1
	pppd_start || return 1
	peer=$(session_get peer_ip)
	pings_through_session "$NS" "$GUEST" "$peer" "$AC_IP"
}

# Both sides probe once a second for 6 s at least: our counters show pppd answering (all
# but the one in flight, waited for: pppd under TCG answers late on a loaded host), and
# pppd (failure limit 3) is still connected, so it got our answers.
echoes_answered() {
	sent=$(session_get echo_sent)
	replies=$(session_get echo_replies)
	[ "${sent:-0}" -ge 4 ] && [ "${replies:-0}" -ge $((sent - 1)) ]
}

test_lcp_echo() {
	local sent replies
	reset
	server_start pap || return 1
	pppd_start || return 1
	sleep 6
	wait_for 10 echoes_answered ||
		fail "our echo requests: sent ${sent:-?}, answered ${replies:-?}" || return 1
	pppd_running || fail "pppd gave up on the link during the echo test" || return 1
	[ "$(session_get ipcp)" = Opened ] || fail "our AC dropped the session during the echo test"
}

# pppd hangs up (SIGTERM: LCP Terminate-Request, PADT): our AC frees the session.
test_pppd_ends() {
	reset
	server_start pap || return 1
	pppd_start || return 1
	gx 'pxp-pppd-client stop' >/dev/null || fail "pxp-pppd-client stop failed" || return 1
	wait_for 10 sessions_are 0 || fail "our AC still lists the session: $(xp status "$TAP" | tr '\n' '|')" ||
		return 1
	in_ns "$NS" ip -br link | grep -q '^pxs' && fail "a session netdev is left behind" && return 1
	return 0
}

# Our AC stops (Terminate-Request and PADT to every session): pppd notices and exits.
test_server_ends() {
	reset
	server_start pap || return 1
	pppd_start || return 1
	xp down "$TAP" || fail "server down exited $?" || return 1
	wait_for 15 pppd_gone ||
		fail "pppd still runs after our AC went down" || return 1
	gx "grep -qE 'rcvd \[LCP TermReq|PADT' $PPPD_LOG" ||
		fail "pppd log shows neither our Terminate-Request nor a PADT: $(gx "tail -n 6 $PPPD_LOG" | tr '\n' '|')"
}

# Timed from the host: includes guest_exec's round trip and pppd's start under TCG. The
# capture of the first run shows the part on the wire.
test_setup_time() {
	local i t0 t1 all=() median cap our_mac
	reset
	server_start pap || return 1
	cap=$PXP_TMP/setup.pcap
	our_mac=$(ip -n "$NS" -br link show dev "$TAP" | awk '{ print $3 }')
	for i in $(seq $SETUP_RUNS); do
		[ "$i" = 1 ] && pppoe_capture_start "$NS" "$TAP" "$cap"
		t0=$(date +%s%N)
		pppd_start || return 1
		t1=$(date +%s%N)
		all+=($(((t1 - t0) / 1000000)))
		[ "$i" = 1 ] && pppoe_capture_stop
		gx 'pxp-pppd-client stop' >/dev/null
		wait_for 10 sessions_are 0 || fail "session of run $i was not freed" || return 1
	done
	median=$(median_of "${all[@]}")
	echo "# guest pppd against our AC, pxp-pppd-client start -> IPCP up: median ${median} ms of ${all[*]}"
	echo "# first run on the wire (host tap, times from pppd's PADI; 'our' = our AC):"
	print_setup_breakdown "$cap" "$our_mac"
}

missing=$(require_cmds qemu-system-x86_64 python3 ip) || {
	skip_test interop/server_vs_pppd "missing commands:$missing (Debian packages qemu-system-x86, python3)"
	exit 0
}
[ -x "$B" ] || {
	echo "FAIL interop/server_vs_pppd/build: $B is missing (run make)"
	exit 1
}
mkdir -p "$RUN"
printf '%s * %s *\n' "$USER_NAME" "$PASSWORD" >"$SECRETS"
chmod 600 "$SECRETS"
guest_boot_in_netns server_vs_pppd "$NS" "$GUEST" "$TAP"
on_cleanup reset

run_test interop/server_vs_pppd/pap test_pap
run_test interop/server_vs_pppd/chap test_chap
run_test interop/server_vs_pppd/mschapv2 test_mschapv2
run_test interop/server_vs_pppd/wrong_password test_wrong_password
run_test interop/server_vs_pppd/ping test_ping
run_test interop/server_vs_pppd/lcp_echo test_lcp_echo
run_test interop/server_vs_pppd/pppd_ends test_pppd_ends
run_test interop/server_vs_pppd/server_ends test_server_ends
run_test interop/server_vs_pppd/setup_time test_setup_time
tests_done
