#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# What the daemon logs for daily use: --debug as pppd's debug, the session-end line, the
# user named on an authentication failure, and stderr when there is no syslog socket.
#
#   lan ---------- router ================ isp ---------- net
#   lan0      lan1      wan0    PPPoE    isp0     isp1      net0
#                       pxp0 100.64.1.2  pxs<N> 100.64.1.1
#                       (pppoe-xp up     (pppoe-xp server)
#                        --debug)
#
# Cases: debug_pap (discovery and LCP/PAP/IPCP lines in pppd's format, the password never
# shown, no libbpf loader lines, the session-end line with bytes each way); debug_chap
# (CHAP lines); no_debug_is_quiet; auth_failure_names_user and
# server_auth_failure_names_user (client and AC); server_session_end_line (the AC's end
# line); server_debug_discovery (the AC's --debug: discovery frames both ways);
# server_ack_after_address (the AC's address is up before its IPCP Configure-Ack leaves);
# no_syslog_stderr (a detached daemon without /dev/log keeps its log on stderr). Name cases
# as arguments to run only those: test_debug.sh debug_chap
PXP_NS_PREFIX=pxd$$-
. "$(dirname "$0")/lib.sh"

PASSWORD=Zq7secretPw
LOG=$PXP_TMP/client.log

client_is_up() { [ "$(status_get client state 2>/dev/null)" = up ]; }
client_gone() { ! client status wan0 >/dev/null 2>&1; }

start_server() { # AUTH
	server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth "$1" \
		--secrets "$SECRETS" --ac-name pxd-ac >"$PXP_TMP/server.out" 2>&1 ||
		fail "server did not start: $(cat "$PXP_TMP/server.out")"
}

reset() {
	client down wan0 >/dev/null 2>&1
	server down isp0 >/dev/null 2>&1
	end_ns_pids "$NS_ROUTER" "$NS_ISP"
	return 0
}

# has PATTERN: the client's log has a line matching the extended regex.
has() {
	grep -Eq -- "$1" "$LOG" || fail "no line matching '$1' in: $(head -c 3000 "$LOG")"
}

# A foreground client in the background (extra args), its log in $LOG; CLIENT_PID.
start_client_fg() {
	in_ns "$NS_ROUTER" env PPPOE_XP_RUN_DIR="$RUN_C" "$B" up wan0 --user alice \
		--password "$PASSWORD" --foreground "$@" >"$LOG" 2>&1 &
	CLIENT_PID=$!
	wait_for 10 client_is_up || fail "session did not come up: $(cat "$LOG")"
}

# A --debug session in the foreground with some traffic, ended by `down`; its log in $LOG.
debug_session() { # AUTH
	reset
	start_server "$1" || return 1
	start_client_fg --debug || return 1
	in_ns "$NS_ROUTER" ping -c 3 -W 2 -i 0.2 100.64.1.1 >/dev/null ||
		fail "no ping through the session" || return 1
	client down wan0 >/dev/null
	wait "$CLIENT_PID"
	! grep -q -- "$PASSWORD" "$LOG" || fail "the password appears in the log" || return 1
	! grep -q 'libbpf:' "$LOG" || fail "libbpf loader lines in --debug: $(grep libbpf: "$LOG" | head -3)" ||
		return 1
	# Discovery as pppd's rp-pppoe plugin prints it, on one line each.
	has "^pppoe-xp: debug: sent PPPOE Discovery V1T1 PADI session 0x0 length [0-9]+ dst ff:ff:ff:ff:ff:ff src $WAN_MAC \[service-name\] \[host-uniq( [0-9a-f]{2}){8}\]$" || return 1
	has '^pppoe-xp: debug: rcvd PPPOE Discovery V1T1 PADO session 0x0 .*\[AC-name "pxd-ac"\].* \[AC-cookie length 16\]' || return 1
	has '^pppoe-xp: debug: sent PPPOE Discovery V1T1 PADR session 0x0 .*\[AC-cookie length 16\]' || return 1
	has '^pppoe-xp: debug: rcvd PPPOE Discovery V1T1 PADS session 0x[1-9a-f][0-9a-f]* ' || return 1
	has '^pppoe-xp: debug: sent PPPOE Discovery V1T1 PADT session 0x[1-9a-f][0-9a-f]* ' || return 1
	has '^pppoe-xp: debug: sent \[LCP ConfReq id=0x[0-9a-f]+ <mru 1492> <magic 0x[0-9a-f]+>\]$' || return 1
	has '^pppoe-xp: debug: rcvd \[LCP ConfReq id=0x[0-9a-f]+ .*<auth ' || return 1
	has '^pppoe-xp: debug: rcvd \[LCP ConfAck id=0x' || return 1
	has '^pppoe-xp: debug: sent \[IPCP ConfReq id=0x[0-9a-f]+ <addr 0\.0\.0\.0>' || return 1
	has '^pppoe-xp: debug: rcvd \[IPCP ConfNak id=0x[0-9a-f]+ <addr 100\.64\.1\.2>' || return 1
	has '^pppoe-xp: debug: sent \[LCP TermReq id=0x[0-9a-f]+ ' || return 1
	# Three pings of 84 bytes each way at least.
	has '^pppoe-xp: session [0-9]+ ended after [0-9]+\.[0-9] s: sent [0-9]{3,} bytes in [3-9][0-9]* packets, received [0-9]{3,} bytes in [3-9][0-9]* packets$'
}

test_debug_pap() {
	debug_session pap || return 1
	has '^pppoe-xp: debug: rcvd \[LCP ConfReq id=0x[0-9a-f]+ .*<auth pap>' || return 1
	has '^pppoe-xp: debug: sent \[PAP AuthReq id=0x[0-9a-f]+ user="alice" password=<hidden>\]$' || return 1
	has '^pppoe-xp: debug: rcvd \[PAP AuthAck id=0x'
}

test_debug_chap() {
	debug_session chap || return 1
	has '^pppoe-xp: debug: rcvd \[LCP ConfReq id=0x[0-9a-f]+ .*<auth chap MD5>' || return 1
	has '^pppoe-xp: debug: rcvd \[CHAP Challenge id=0x[0-9a-f]+ <[0-9a-f]+>, name = "pxd-ac"\]$' || return 1
	has '^pppoe-xp: debug: sent \[CHAP Response id=0x[0-9a-f]+ <[0-9a-f]{32}>, name = "alice"\]$' || return 1
	has '^pppoe-xp: debug: rcvd \[CHAP Success id=0x'
}

# Without --debug nothing of the protocol is logged.
test_no_debug_is_quiet() {
	reset
	start_server pap || return 1
	start_client_fg || return 1
	client down wan0 >/dev/null
	wait "$CLIENT_PID"
	! grep -q 'debug:' "$LOG" || fail "debug lines without --debug: $(grep debug: "$LOG" | head -3)" ||
		return 1
	has '^pppoe-xp: session [0-9]+ ended after '
}

test_auth_failure_names_user() {
	local rc
	reset
	start_server chap || return 1
	client up wan0 --user alice --password wrong-Pw9 >"$LOG" 2>&1
	rc=$?
	[ $rc -eq 19 ] || fail "exit $rc, want 19: $(cat "$LOG")" || return 1
	has "authentication.* as user 'alice'" || return 1
	! grep -q 'wrong-Pw9' "$LOG" || fail "the password appears in: $(cat "$LOG")"
}

# A foreground AC in the background (extra args), its log in $PXP_TMP/server.log; SERVER_PID.
start_server_fg() {
	reset
	in_ns "$NS_ISP" env PPPOE_XP_RUN_DIR="$RUN_S" "$B" server isp0 --local 100.64.1.1 \
		--pool 100.64.1.0/24 --auth pap --secrets "$SECRETS" --ac-name pxd-ac \
		--foreground "$@" >"$PXP_TMP/server.log" 2>&1 &
	SERVER_PID=$!
	wait_for 10 server status isp0 || fail "server did not start: $(cat "$PXP_TMP/server.log")"
}

stop_server_fg() {
	server down isp0 >/dev/null 2>&1
	wait "$SERVER_PID"
}

# The AC's log names the user whose authentication failed, not the password tried.
test_server_auth_failure_names_user() {
	start_server_fg || return 1
	client up wan0 --user mallory --password wrong-Pw9 >"$LOG" 2>&1
	stop_server_fg
	grep -q 'session [0-9]*: PAP authentication of peer "mallory" failed' "$PXP_TMP/server.log" ||
		fail "the AC's log does not name the user: $(cat "$PXP_TMP/server.log")" || return 1
	! grep -q 'wrong-Pw9' "$PXP_TMP/server.log" || fail "the password appears in the AC's log"
}

# The AC's --debug shows the discovery frames it receives and sends, and the session's
# PPP packets prefixed by the session.
test_server_debug_discovery() {
	local slog=$PXP_TMP/server.log
	start_server_fg --debug || return 1
	client up wan0 --user alice --password "$PASSWORD" >"$LOG" 2>&1 ||
		fail "up failed: $(cat "$LOG")" || return 1
	client down wan0 >/dev/null
	stop_server_fg
	LOG=$slog has "^pppoe-xp: debug: rcvd PPPOE Discovery V1T1 PADI session 0x0 length [0-9]+ dst ff:ff:ff:ff:ff:ff src $WAN_MAC " || return 1
	LOG=$slog has "^pppoe-xp: debug: sent PPPOE Discovery V1T1 PADO session 0x0 length [0-9]+ dst $WAN_MAC src $ISP_MAC \[AC-name \"pxd-ac\"\].* \[AC-cookie length 16\]" || return 1
	LOG=$slog has '^pppoe-xp: debug: rcvd PPPOE Discovery V1T1 PADR ' || return 1
	LOG=$slog has '^pppoe-xp: debug: sent PPPOE Discovery V1T1 PADS session 0x[1-9a-f][0-9a-f]* ' || return 1
	LOG=$slog has '^pppoe-xp: debug: rcvd PPPOE Discovery V1T1 PADT session 0x[1-9a-f][0-9a-f]* ' || return 1
	LOG=$slog has '^pppoe-xp: debug: session [0-9]+: rcvd \[PAP AuthReq id=0x[0-9a-f]+ user="alice" password=<hidden>\]$' || return 1
	! grep -q -- "$PASSWORD" "$slog" || fail "the password appears in the AC's log"
}

# The AC adds its address before the peer hears the IPCP Configure-Ack that opens IPCP (the
# peer's first packet must find it): its session-up line, written once the address is on
# pxs<N>, comes before that Ack's debug line, written as the frame leaves.
test_server_ack_after_address() {
	local slog=$PXP_TMP/server.log up ack
	start_server_fg --debug || return 1
	client up wan0 --user alice --password "$PASSWORD" >"$LOG" 2>&1 ||
		fail "up failed: $(cat "$LOG")" || return 1
	client down wan0 >/dev/null
	stop_server_fg
	up=$(grep -n 'session [0-9]* up on pxs' "$slog" | head -n 1 | cut -d: -f1)
	ack=$(grep -n 'session [0-9]*: sent \[IPCP ConfAck' "$slog" | tail -n 1 | cut -d: -f1)
	[ -n "$up" ] && [ -n "$ack" ] ||
		fail "no session-up line ('$up') or IPCP ConfAck sent ('$ack') in: $(head -c 3000 "$slog")" ||
		return 1
	[ "$up" -lt "$ack" ] ||
		fail "the AC sent its IPCP ConfAck (line $ack) before its address was up (line $up): $(sed -n "${ack},${up}p" "$slog")"
}

# The AC logs each session's end with connect time and bytes each way, as the client does.
test_server_session_end_line() {
	start_server_fg || return 1
	client up wan0 --user alice --password "$PASSWORD" >"$LOG" 2>&1 ||
		fail "up failed: $(cat "$LOG")" || return 1
	in_ns "$NS_ROUTER" ping -c 3 -W 2 -i 0.2 100.64.1.1 >/dev/null ||
		fail "no ping through the session" || return 1
	client down wan0 >/dev/null
	stop_server_fg
	grep -Eq '^pppoe-xp: session [0-9]+ ended after [0-9]+\.[0-9] s: sent [0-9]{3,} bytes in [3-9][0-9]* packets, received [0-9]{3,} bytes in [3-9][0-9]* packets$' \
		"$PXP_TMP/server.log" || fail "no end line in the AC's log: $(cat "$PXP_TMP/server.log")"
}

# A detached daemon (no --foreground) where no syslog socket exists: its lines reach the
# stderr it was started with (here a file), instead of /dev/null.
test_no_syslog_stderr() {
	reset
	start_server pap || return 1
	client up wan0 --user alice --password "$PASSWORD" >"$LOG" 2>&1 ||
		fail "up failed: $(cat "$LOG")" || return 1
	client down wan0 >/dev/null
	wait_for 10 client_gone || fail "the daemon stayed after down" || return 1
	has '^pppoe-xp: data path attached to wan0' || return 1
	has '^pppoe-xp: session [0-9]+ ended after '
}

cases_named "$@"
suite_needs debug ip ping
topo_create pppoe || {
	echo "FAIL debug/topology: could not build the topology"
	exit 1
}
WAN_MAC=$(ip -n "$NS_ROUTER" -br link show wan0 | awk '{ print $3 }')
ISP_MAC=$(ip -n "$NS_ISP" -br link show isp0 | awk '{ print $3 }')
mkdir -p "$RUN_C" "$RUN_S"
printf 'alice * %s *\n' "$PASSWORD" >"$SECRETS"
chmod 600 "$SECRETS"
on_cleanup reset

case_ debug/debug_pap test_debug_pap
case_ debug/debug_chap test_debug_chap
case_ debug/no_debug_is_quiet test_no_debug_is_quiet
case_ debug/auth_failure_names_user test_auth_failure_names_user
case_ debug/server_auth_failure_names_user test_server_auth_failure_names_user
case_ debug/server_session_end_line test_server_session_end_line
case_ debug/server_debug_discovery test_server_debug_discovery
case_ debug/server_ack_after_address test_server_ack_after_address
if [ -S /dev/log ]; then
	skip_test debug/no_syslog_stderr "this host has a syslog socket (/dev/log)"
else
	case_ debug/no_syslog_stderr test_no_syslog_stderr
fi
tests_done
