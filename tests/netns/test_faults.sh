#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The fault campaign (issue 17): each fault is done to a live session of our client with
# our AC, and each case ends with a check that nothing was left behind.
#
#   lan ---------- router ================ isp ---------- net
#   lan0      lan1      wan0    PPPoE    isp0     isp1      net0
#                       pxp0 100.64.1.2  pxs<N> 100.64.1.1
#                       (pppoe-xp up)    (pppoe-xp server --ac-name pxf-ac)
#
#   second_ac only:   cl ---- sw (bridge br0) ---- ac1 (server --ac-name pxf-ac1)
#                     wan0    p0   p1   p2         isp0
#                                        `-------- ac2 (server --ac-name pxf-ac2)
#
# Cases: wan_down_up (a blip of wan0 or of the AC's isp0 under the echo timeout keeps the
# session; wan0 down
# past it ends the session, --persist brings a new one, nothing leaks); ac_restart_mid_traffic
# (the AC killed and restarted under a ping flood: the restarted AC answers the old
# session's frames with a PADT, --persist reconnects, the traffic resumes, the restarted AC
# removed only its own leftovers); unknown_session_flood (frames of random session ids:
# rate-limited PADTs, nothing logged per frame, the live session untouched);
# ac_unreachable_past_echo (the AC's port drops everything: exit 15 without --persist, and
# a new `up` fails with 8; retries every --holdoff with --persist); maxfail_wan_down
# (--maxfail counted as pppd counts it, with wan0 down: a session that was up is no
# failure, each failed discovery is one); maxfail_ipv6_only (an IPv6-only session, IPCP
# dropped, is no failure either); run_dir_full (RUN_DIR on a full tmpfs: `up` fails naming
# the directory and the errno and leaves nothing; a session already up keeps running and
# `down` works); second_ac (two ACs answer: --ac picks its one even when the other answers
# first; without --ac the first PADO wins). Name cases as arguments to run only those:
# test_faults.sh wan_down_up
PXP_NS_PREFIX=pxf$$-
. "$(dirname "$0")/lib.sh"

NS_CL=${PXP_NS_PREFIX}cl
NS_SW=${PXP_NS_PREFIX}sw
NS_AC1=${PXP_NS_PREFIX}ac1
NS_AC2=${PXP_NS_PREFIX}ac2
# The client's keepalive: dead after 4 unanswered Echo-Requests 1 s apart (about 4-5 s).
KEEPALIVE="4 1"

# field_of KEY: a top-level field of the `status` text on stdin.
field_of() { awk -v key="$1" -F': ' '$1 == key { sub("^[^:]*: ", ""); print; exit }'; }
cfield() { client status wan0 2>/dev/null | field_of "$1"; }
sfield() { server status isp0 2>/dev/null | field_of "$1"; }
client_is_up() { [ "$(cfield state)" = up ]; }
client_gone() { ! client status wan0 >/dev/null 2>&1; }
client_sessions_are() { [ "$(cfield sessions_up_total)" = "$1" ] && client_is_up; }
# The session ended and the --persist daemon tries again (holdoff, or discovery).
client_retrying() { case $(cfield state) in holdoff | discovery) return 0 ;; esac; return 1; }
server_sessions_are() { [ "$(sfield session_count)" = "$1" ]; }
echo_replies() { client status wan0 2>/dev/null | awk -F': ' '$1 == "  replies" { print $2; exit }'; }
echo_replies_above() { [ "$(echo_replies)" -gt "$1" ] 2>/dev/null; }
# json_count PATH...: the number at that path of the `status --json` on stdin, 0 if absent.
json_count() {
	python3 -c 'import json, sys
v = json.load(sys.stdin)
for k in sys.argv[1:]:
    v = v.get(k, {}) if isinstance(v, dict) else {}
print(v if isinstance(v, int) else 0)' "$@"
}
failures_at_least() { [ "$(cfield failures)" -ge "$1" ] 2>/dev/null; }

start_server() { # [extra args]
	server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth pap \
		--secrets "$SECRETS" --ac-name pxf-ac --keepalive "$KEEPALIVE" "$@" \
		>"$PXP_TMP/server.out" 2>&1 || fail "server did not start: $(cat "$PXP_TMP/server.out")"
}

client_up() { # [extra args]
	client up wan0 --user alice --password secret1 --keepalive "$KEEPALIVE" "$@" \
		>"$PXP_TMP/client.out" 2>&1 || fail "up failed (exit $?): $(cat "$PXP_TMP/client.out")"
}

ping_ac() { in_ns "$NS_ROUTER" ping -c 2 -i 0.2 -W 2 100.64.1.1 >/dev/null; }

# The XDP programs on the links of NS, one "ifname:id" a line.
xdp_progs() {
	ip -n "$1" -d -o link show 2>/dev/null |
		awk '{ n = $2; sub(":$", "", n); sub("@.*", "", n)
		       for (i = 1; i < NF; i++) if ($i == "prog/xdp") print n ":" $(i + 2) }'
}

# fds_by_kind PID: how many files of each kind (socket, pipe, bpf-prog, a path) PID holds.
fds_by_kind() {
	local f
	for f in /proc/"$1"/fd/*; do readlink "$f"; done | sed 's/\[[0-9]*\]//; s/:[0-9]*$//' |
		sort | uniq -c | sed 's/^ */fd /'
}

# What the running client holds: its fds by kind, its netdevs, the XDP program on wan0 and
# how many there are in the namespace, its run files. Flat across a recovery means no leak.
client_holdings() {
	local pid=$1
	fds_by_kind "$pid"
	echo "netdevs $(ip -n "$NS_ROUTER" -o link show | awk '{ print $2 }' | grep '^pxp' | sed 's/@.*//' | sort | tr '\n' ' ')"
	echo "wan0 $(xdp_progs "$NS_ROUTER" | grep '^wan0:')"
	echo "xdp programs $(xdp_progs "$NS_ROUTER" | wc -l)"
	echo "run files $(ls "$RUN_C" | tr '\n' ' ')"
}

# Nothing of ours is left in the router namespace or the client's run directory.
client_clean() {
	local what
	# `down` returns once the record is gone; the process may still be on its way out.
	wait_for 10 no_pxp_in "$NS_ROUTER" ||
		fail "a pppoe-xp process still runs in the router namespace" || return 1
	what=$(ip -n "$NS_ROUTER" -o link show | awk '{ print $2 }' | grep '^pxp')
	[ -z "$what" ] || fail "netdevs left: $what" || return 1
	what=$(xdp_progs "$NS_ROUTER")
	[ -z "$what" ] || fail "XDP programs left: $what" || return 1
	# The pid file goes last, before the daemon exits: once it has, nothing may be left.
	what=$(ls -A "$RUN_C")
	[ -z "$what" ] || fail "run files left in $RUN_C: $what"
}

# The client ends cleanly (down, exit 0) and leaves nothing.
down_and_clean() {
	client down wan0 >"$PXP_TMP/down.out" 2>&1 || fail "down failed: $(cat "$PXP_TMP/down.out")" || return 1
	wait_for 10 client_gone || fail "the client still answers after down" || return 1
	client_clean
}

reset() {
	client down wan0 >/dev/null 2>&1
	server down isp0 >/dev/null 2>&1
	ip netns exec "$NS_ISP" nft delete table netdev pxf_block 2>/dev/null
	ip -n "$NS_ROUTER" link set wan0 up 2>/dev/null
	ip -n "$NS_ISP" link set isp0 up 2>/dev/null
	end_ns_pids "$NS_ROUTER" "$NS_ISP"
	wait_for 10 link_running "$NS_ROUTER" wan0
	return 0
}

# ------------------------------------------------------------ wan_down_up

# blip_keeps_session NS PORT SID: PORT of NS down for 1 s, where 4 echoes must fail (4 s):
# under the echo timeout session SID survives on both ends and carries traffic.
blip_keeps_session() {
	local ns=$1 port=$2 sid=$3 replies
	replies=$(echo_replies)
	ip -n "$ns" link set "$port" down
	sleep 1
	ip -n "$ns" link set "$port" up
	# Five more replies: the echo timeout has passed with the link back.
	wait_for 20 echo_replies_above $((replies + 5)) ||
		fail "no Echo-Replies after a 1 s blip of $port: state $(cfield state), $(cfield last_error)" || return 1
	[ "$(cfield session_id)" = "$sid" ] && [ "$(cfield sessions_up_total)" = 1 ] &&
		[ "$(sfield session_count)" = 1 ] ||
		fail "a 1 s blip of $port ended session $sid: $(cfield last_error)" || return 1
	ping_ac || fail "no traffic after a 1 s blip of $port"
}

# The WAN port set down: under the echo timeout the session survives (PPPoE has no notion
# of the link; see docs/operation.md, Faults, for pppd); past it the echoes fail, the
# session ends and --persist brings a new one. Nothing the daemon holds may grow.
test_wan_down_up() {
	local pid sid before after
	reset
	start_server || return 1
	client_up --persist --holdoff 1 --padi-timeout 1 --padi-attempts 2 || return 1
	ping_ac || fail "no traffic through the first session" || return 1
	pid=$(cfield pid)
	sid=$(cfield session_id)
	before=$(client_holdings "$pid")

	# A blip of the client's port, then of the AC's: the client sees only its carrier go.
	blip_keeps_session "$NS_ROUTER" wan0 "$sid" || return 1
	blip_keeps_session "$NS_ISP" isp0 "$sid" || return 1

	# Down past the echo timeout.
	ip -n "$NS_ROUTER" link set wan0 down
	wait_for 20 client_retrying || fail "still up 20 s after wan0 went down" || return 1
	cfield last_error | grep -q "no reply to LCP Echo-Requests" ||
		fail "status does not say why the session ended: $(cfield last_error)" || return 1
	# Discovery on the down link (PADIs that cannot be sent, each attempt a failure) is
	# maxfail_wan_down's: here the link comes back at once.
	ip -n "$NS_ROUTER" link set wan0 up
	wait_for 30 client_sessions_are 2 ||
		fail "no new session 30 s after wan0 came up: $(cfield state), $(cfield last_error)" || return 1
	ping_ac || fail "no traffic through the new session" || return 1
	# The AC's echoes ended the old session there too.
	wait_for 20 server_sessions_are 1 || fail "the AC holds $(sfield session_count) sessions, want 1" || return 1
	[ "$(cfield pid)" = "$pid" ] || fail "the daemon changed: pid $(cfield pid), was $pid" || return 1
	after=$(client_holdings "$pid")
	[ "$before" = "$after" ] ||
		fail "the daemon's holdings changed: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | tr '\n' ' ')" ||
		return 1
	down_and_clean
}

# ------------------------------------------------------------ ac_restart_mid_traffic

# pxs<N> netdevs and the XDP programs in the AC's namespace.
ac_leftovers() {
	ip -n "$NS_ISP" -o link show | awk '{ print $2 }' | sed 's/@.*//; s/:$//' | grep '^pxs'
	xdp_progs "$NS_ISP"
}

# The session netdevs of the running AC's sessions, one a line.
ac_session_netdevs() {
	server status isp0 --json 2>/dev/null |
		python3 -c 'import json, sys; [print(s["ifname"]) for s in json.load(sys.stdin)["sessions"]]'
}

test_ac_restart_mid_traffic() {
	local spid old_sid old_prog ppid left n t0 log=$PXP_TMP/restart.log
	reset
	start_server || return 1
	rm -f "$log"
	client_up --persist --holdoff 1 --padi-timeout 1 --logfile "$log" || return 1
	old_sid=$(cfield session_id)
	iperf_server "$NS_ISP" 5201 || fail "no iperf3 server" || return 1
	ip netns exec "$NS_ROUTER" iperf3 -c 100.64.1.1 -t 2 >"$PXP_TMP/iperf1.out" 2>&1 ||
		fail "no iperf3 through the first session: $(tail -3 "$PXP_TMP/iperf1.out")" || return 1
	# A ping flood (50 a second) from before the kill to after the recovery.
	ip netns exec "$NS_ROUTER" ping -n -i 0.02 -W 1 100.64.1.1 >"$PXP_TMP/flood.out" 2>&1 &
	ppid=$!
	on_cleanup "kill $ppid"
	wait_for 10 grep -q "icmp_seq=20 " "$PXP_TMP/flood.out" || fail "the flood gets no replies" || return 1
	spid=$(sfield pid)
	old_prog=$(xdp_progs "$NS_ISP" | grep '^isp0:')
	kill9_and_wait "$spid" || fail "the killed AC did not die" || return 1
	# What the dead AC left: its session netdev (a veth outlives its creator).
	ac_leftovers | grep -qx "pxs$old_sid" || fail "expected pxs$old_sid left by the killed AC: $(ac_leftovers)" || return 1
	# Not ours, named as ours are and of our kind: the restarted AC must leave it.
	ip -n "$NS_ISP" link add pxs9999 type veth peer name pxf-other || fail "cannot add pxs9999" || return 1
	start_server || return 1
	# Read before the AC's sessions: the client may have come back already (--holdoff 1),
	# and a netdev listed here is then in that list.
	left=$(ac_leftovers | grep -v "^isp0:")
	left=$(echo "$left" | grep -vxF -f <(ac_session_netdevs) | tr '\n' ' ')
	[ "$left" = "pxs9999 " ] ||
		fail "after the restart, want only pxs9999 beside isp0's program and the new AC's sessions, have: $left" ||
		return 1
	grep -q "pxs9999 is not .*left alone" "$PXP_TMP/server.out" ||
		fail "the restarted AC did not say it left pxs9999 alone: $(cat "$PXP_TMP/server.out")" || return 1
	# One program on isp0, and not the dead AC's.
	left=$(xdp_progs "$NS_ISP" | grep '^isp0:')
	[ "$(echo "$left" | wc -w)" = 1 ] && [ "$left" != "$old_prog" ] ||
		fail "on isp0 want one program, not the dead AC's $old_prog: $(xdp_progs "$NS_ISP")" || return 1
	# The restarted AC answers the old session's frames (counted as unknown) with a PADT:
	# the client ends that session at once, not at its echo timeout, and --persist starts
	# again after --holdoff.
	t0=$(date +%s.%N)
	wait_for 30 client_sessions_are 2 || fail "no second session 30 s after the restart: $(cfield last_error)" || return 1
	echo "# reconnected $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s after the AC restarted (keepalive $KEEPALIVE, holdoff 1 s)"
	grep -q "session $old_sid: the peer ended the PPPoE session (PADT), PADT Generic-Error: unknown session" "$log" ||
		fail "session $old_sid did not end by the AC's PADT: $(grep "session $old_sid" "$log")" || return 1
	[ "$(sfield padt_unknown_session)" -ge 1 ] ||
		fail "the restarted AC counts $(sfield padt_unknown_session) PADTs for unknown sessions" || return 1
	n=$(grep -c "icmp_seq=" "$PXP_TMP/flood.out")
	wait_for 10 sh -c "[ \$(grep -c icmp_seq= $PXP_TMP/flood.out) -gt $((n + 50)) ]" ||
		fail "the ping flood did not resume through the new session" || return 1
	kill "$ppid"
	wait "$ppid" 2>/dev/null
	iperf_server "$NS_ISP" 5201 || fail "no iperf3 server" || return 1
	ip netns exec "$NS_ROUTER" iperf3 -c 100.64.1.1 -t 2 >"$PXP_TMP/iperf2.out" 2>&1 ||
		fail "no iperf3 through the new session: $(tail -3 "$PXP_TMP/iperf2.out")" || return 1
	n=$(server status isp0 --json | json_count control_frames drops unknown-session)
	[ "$n" -gt 0 ] || fail "the restarted AC counted no frame of the old session as unknown-session" || return 1
	ip -n "$NS_ISP" link del pxs9999
	down_and_clean || return 1
	server down isp0 >/dev/null || fail "server down failed" || return 1
	left=$(ac_leftovers)
	[ -z "$left" ] || fail "the AC left: $left"
}

# ------------------------------------------------------------ unknown_session_flood

# Session frames for random ids from one MAC: the AC answers each MAC with PADTs at its
# per-MAC rate (burst DISC_AC_PADT_RATE_PER_MAC * 5, then 1 a second), logs nothing per
# frame, and keeps serving the live session.
test_unknown_session_flood() {
	local sid ac_mac lines json sent limited drops log=$PXP_TMP/flood-ac.log
	reset
	rm -f "$log"
	start_server --logfile "$log" || return 1
	client_up || return 1
	sid=$(cfield session_id)
	ac_mac=$(sfield local_mac)
	lines=$(wc -l <"$log")
	in_ns "$NS_ROUTER" python3 - "$ac_mac" "$sid" <<-'EOF' >"$PXP_TMP/flood.out" || fail "the flood did not run" || return 1
		import os, socket, struct, sys, time
		dst, live = bytes.fromhex(sys.argv[1].replace(":", "")), int(sys.argv[2])
		src = bytes.fromhex("02aa00000001")
		s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
		s.bind(("wan0", 0))
		lcp = struct.pack("!HBBH", 0xC021, 9, 1, 8) + b"\0\0\0\0"  # Echo-Request
		n, end = 0, time.time() + 1
		while time.time() < end:
		    sid = struct.unpack("!H", os.urandom(2))[0]
		    if sid in (0, 0xFFFF, live):
		        continue
		    s.send(dst + src + struct.pack("!HBBHH", 0x8864, 0x11, 0, sid, len(lcp)) + lcp)
		    n += 1
		print(n)
	EOF
	# One snapshot: the AC may still be reading the flood's last frames, and counters read
	# one call apart would not add up.
	json=$(server status isp0 --json)
	sent=$(json_count padt_unknown_session <<<"$json")
	limited=$(json_count padt_unknown_session_limited <<<"$json")
	drops=$(json_count control_frames drops unknown-session <<<"$json")
	echo "# unknown-session flood: $(cat "$PXP_TMP/flood.out") frames sent, $drops read by the AC, $sent PADTs, $limited rate-limited"
	# 5 at once, then 1 a second over the 1 s (and the time python took to start).
	[ "$sent" -ge 5 ] && [ "$sent" -le 8 ] ||
		fail "$sent PADTs for $drops frames of unknown sessions from one MAC, want 5 to 8" || return 1
	[ "$limited" -ge $((drops - sent)) ] && [ "$drops" -gt 100 ] ||
		fail "$drops frames read, $sent PADTs, only $limited rate-limited" || return 1
	[ $(($(wc -l <"$log") - lines)) -le 2 ] ||
		fail "the AC logged per frame: $(tail -n +$((lines + 1)) "$log" | head -3)" || return 1
	# The live session was never touched and the AC still serves.
	[ "$(cfield session_id)" = "$sid" ] && client_is_up || fail "the flood ended session $sid: $(cfield last_error)" || return 1
	ping_ac || fail "no traffic after the flood" || return 1
	down_and_clean
}

# ------------------------------------------------------------ ac_unreachable_past_echo

# Everything the AC's port receives or its sockets send is dropped (ingress after XDP, which
# passes control frames on): no Echo-Request, PADI or PADR reaches the AC, and none of its
# frames reaches the client (else the AC's own echoes would end the session first, by an
# LCP Terminate-Request the client still gets).
block_ac() {
	ip netns exec "$NS_ISP" nft -f - <<-EOF
		table netdev pxf_block {
			chain in {
				type filter hook ingress device isp0 priority -500; policy drop;
			}
			chain out {
				type filter hook egress device isp0 priority -500; policy drop;
			}
		}
	EOF
}
unblock_ac() { ip netns exec "$NS_ISP" nft delete table netdev pxf_block; }

test_ac_unreachable_past_echo() {
	local pid rc spid sfds log=$PXP_TMP/unreach.log
	reset
	start_server || return 1
	# Without --persist: the daemon ends with pppd's EXIT_PEER_DEAD (15).
	rm -f "$log"
	PXP_TIMEOUT=40 client up wan0 --user alice --password secret1 --keepalive "$KEEPALIVE" \
		--foreground --logfile "$log" >"$PXP_TMP/fg.out" 2>&1 &
	pid=$!
	wait_for 10 client_is_up || fail "the session did not come up" || return 1
	block_ac || fail "cannot block isp0" || return 1
	wait "$pid"
	rc=$?
	[ $rc -eq 15 ] || fail "exit $rc with the AC unreachable, want 15: $(tail -3 "$PXP_TMP/fg.out")" || return 1
	grep -q "no reply to LCP Echo-Requests" "$log" || fail "the log does not say why: $(tail -3 "$log")" || return 1
	client_clean || return 1
	# A detached `up` while the AC is unreachable fails, saying what it missed.
	client up wan0 --user alice --password secret1 --padi-attempts 1 --padi-timeout 1 \
		>"$PXP_TMP/up.out" 2>&1
	rc=$?
	[ $rc -eq 8 ] && grep -q "no PADO" "$PXP_TMP/up.out" ||
		fail "up with the AC unreachable: exit $rc, want 8 and 'no PADO': $(cat "$PXP_TMP/up.out")" || return 1
	client_clean || return 1

	# With --persist: the daemon stays, trying again after each --holdoff, until the AC
	# is back.
	unblock_ac
	rm -f "$log"
	client_up --persist --holdoff 1 --padi-timeout 1 --padi-attempts 1 --logfile "$log" || return 1
	# The AC's fds with one session, before it loses that session to its echoes.
	wait_for 20 server_sessions_are 1 || fail "the AC holds $(sfield session_count) sessions, want 1" || return 1
	spid=$(sfield pid)
	sfds=$(fds_by_kind "$spid")
	block_ac || fail "cannot block isp0" || return 1
	wait_for 20 client_retrying || fail "still up 20 s after the AC became unreachable" || return 1
	cfield last_error | grep -q "no reply to LCP Echo-Requests" ||
		fail "status does not say why: $(cfield last_error)" || return 1
	# Each attempt: one PADI unanswered for 1 s, then 1 s of holdoff.
	wait_for 30 failures_at_least 3 || fail "$(cfield failures) failed attempts, want 3 by now" || return 1
	[ "$(grep -c "trying again in 1 s" "$log")" -ge 3 ] ||
		fail "want a 'trying again in 1 s' line per attempt: $(grep trying "$log")" || return 1
	unblock_ac
	wait_for 20 client_sessions_are 2 || fail "no new session 20 s after the AC came back: $(cfield last_error)" || return 1
	ping_ac || fail "no traffic through the new session" || return 1
	# The AC's own echoes ended the sessions it could not reach, and it holds what it held.
	wait_for 20 server_sessions_are 1 || fail "the AC holds $(sfield session_count) sessions, want 1" || return 1
	[ "$(fds_by_kind "$spid")" = "$sfds" ] ||
		fail "the AC's fds changed: $(diff <(echo "$sfds") <(fds_by_kind "$spid") | grep '^[<>]' | tr '\n' ' ')" || return 1
	down_and_clean
}

# ------------------------------------------------------------ maxfail_wan_down

# --maxfail as pppd counts it (main.c: ++unsuccess before every attempt, auth.c np_up()
# sets it to 0 once a network protocol is up; persist ends when unsuccess >= maxfail):
# N failed attempts in a row end the daemon, and a session that was up is not a failure,
# so its end starts the count afresh. With the WAN port down each discovery is one attempt.
test_maxfail_wan_down() {
	local pid rc n log=$PXP_TMP/maxfail.log
	reset
	start_server || return 1
	rm -f "$log"
	# A session the AC ends (Terminate-Request, PADT) as it goes, then wan0 down: the
	# session is not counted, the 2 discoveries after it are.
	PXP_TIMEOUT=30 client up wan0 --user alice --password secret1 --persist --maxfail 2 \
		--holdoff 1 --padi-timeout 1 --padi-attempts 1 --foreground --logfile "$log" \
		>"$PXP_TMP/fg.out" 2>&1 &
	pid=$!
	wait_for 10 client_is_up || fail "the session did not come up" || return 1
	server down isp0 >/dev/null || fail "server down failed" || return 1
	ip -n "$NS_ROUTER" link set wan0 down
	wait "$pid"
	rc=$?
	ip -n "$NS_ROUTER" link set wan0 up
	n=$(grep -c "discovery on wan0 failed" "$log")
	[ $rc -eq 8 ] && [ "$n" = 2 ] &&
		grep -q "session [0-9]*: the peer .*; trying again in 1 s" "$log" &&
		grep -q "giving up after 2 failed attempts (--maxfail)" "$log" ||
		fail "exit $rc, $n failed discoveries after the session, want 8 (pppd's EXIT_CONNECT_FAILED) and 2: $(grep -E "the peer|failed|giving" "$log" | tr '\n' '|')" ||
		return 1
	client_clean || return 1

	# No session at all: the first attempt counts, --maxfail 2 is 2 attempts.
	rm -f "$log"
	ip -n "$NS_ROUTER" link set wan0 down
	PXP_TIMEOUT=30 client up wan0 --user alice --password secret1 --persist --maxfail 2 \
		--holdoff 1 --padi-timeout 1 --padi-attempts 1 --foreground --logfile "$log" \
		>"$PXP_TMP/fg.out" 2>&1
	rc=$?
	ip -n "$NS_ROUTER" link set wan0 up
	n=$(grep -c "discovery on wan0 failed" "$log")
	[ $rc -eq 8 ] && [ "$n" = 2 ] ||
		fail "exit $rc, $n failed discoveries with --maxfail 2 and wan0 down, want 8 and 2" || return 1
	client_clean
}

# ------------------------------------------------------------ maxfail_ipv6_only

# An IPv6-only session is no failure either: pppd's np_up() resets unsuccess for the first
# network protocol up, IPv6CP as well as IPCP. The AC's port drops IPCP (after XDP, which
# passes control frames on), so only IPv6CP opens; the AC ends the session, wan0 goes
# down, and 2 discoveries fail before --maxfail 2 gives up (1 if the session counted).
block_ipcp() {
	ip netns exec "$NS_ISP" nft -f - <<-EOF
		table netdev pxf_block {
			chain in {
				type filter hook ingress device isp0 priority -500; policy accept;
				ether type 0x8864 @ll,160,16 0x8021 drop
			}
		}
	EOF
}
ipv6_only_up() { [ "$(cfield ipv6cp)" = Opened ] && [ "$(cfield ipcp)" != Opened ]; }

test_maxfail_ipv6_only() {
	local pid rc n log=$PXP_TMP/maxfail6.log
	reset
	start_server --ipv6 || return 1
	block_ipcp || fail "nft refused the IPCP filter" || return 1
	rm -f "$log"
	PXP_TIMEOUT=30 client up wan0 --user alice --password secret1 --ipv6 --persist --maxfail 2 \
		--holdoff 1 --padi-timeout 1 --padi-attempts 1 --foreground --logfile "$log" \
		>"$PXP_TMP/fg.out" 2>&1 &
	pid=$!
	wait_for 10 ipv6_only_up ||
		fail "no IPv6-only session: ipcp $(cfield ipcp), ipv6cp $(cfield ipv6cp)" || return 1
	server down isp0 >/dev/null || fail "server down failed" || return 1
	ip -n "$NS_ROUTER" link set wan0 down
	wait "$pid"
	rc=$?
	ip -n "$NS_ROUTER" link set wan0 up
	ip netns exec "$NS_ISP" nft delete table netdev pxf_block
	n=$(grep -c "discovery on wan0 failed" "$log")
	[ $rc -eq 8 ] && [ "$n" = 2 ] &&
		grep -q "giving up after 2 failed attempts (--maxfail)" "$log" ||
		fail "exit $rc, $n failed discoveries after the IPv6-only session, want 8 and 2: $(grep -E "the peer|failed|giving" "$log" | tr '\n' '|')" ||
		return 1
	client_clean
}

# ------------------------------------------------------------ run_dir_full

# RUN_DIR on a tmpfs of its own (never the real /run), mounted in the host's mount
# namespace so that every `ip netns exec` sees it.
FULL=$PXP_TMP/run-full
full_mount() { # [inodes]: 8 inodes instead of 64 KiB
	local opts=size=64k
	[ "${1:-}" != inodes ] || opts=size=1m,nr_inodes=8
	mkdir -p "$FULL"
	mountpoint -q "$FULL" || mount -t tmpfs -o "$opts,mode=0700" pxf-full "$FULL"
}
full_fill() { dd if=/dev/zero of="$FULL/fill" bs=4k >/dev/null 2>&1; [ -s "$FULL/fill" ]; }
full_client() { in_ns "$NS_ROUTER" env PPPOE_XP_RUN_DIR="$FULL" "$B" "$@"; }

full_clean() {
	local what
	# `down` returns once the record is gone; the process may still be on its way out.
	wait_for 10 no_pxp_in "$NS_ROUTER" || fail "$1: a pppoe-xp process still runs" || return 1
	what=$(ip -n "$NS_ROUTER" -o link show | awk '{ print $2 }' | grep '^pxp')
	[ -z "$what" ] || fail "$1: netdevs left: $what" || return 1
	what=$(xdp_progs "$NS_ROUTER")
	[ -z "$what" ] || fail "$1: XDP programs left: $what" || return 1
	what=$(ip -n "$NS_ROUTER" route show table all proto 153)
	[ -z "$what" ] || fail "$1: routes left: $what" || return 1
	what=$(find "$FULL" -mindepth 1 ! -name fill -printf '%f ')
	[ -z "$what" ] || fail "$1: files left in $FULL: $what" || return 1
}

test_run_dir_full() {
	local rc n=0
	reset
	start_server || return 1
	full_mount || fail "cannot mount a tmpfs on $FULL" || return 1
	on_cleanup "umount $FULL"
	rm -f "$FULL"/*
	full_fill || fail "cannot fill $FULL" || return 1
	full_client up wan0 --user alice --password secret1 --defaultroute >"$PXP_TMP/full.out" 2>&1
	rc=$?
	[ $rc -ne 0 ] || fail "up succeeded with $FULL full" || return 1
	grep -q "$FULL" "$PXP_TMP/full.out" && grep -q "No space left on device" "$PXP_TMP/full.out" ||
		fail "exit $rc, the message does not name $FULL and ENOSPC: $(cat "$PXP_TMP/full.out")" || return 1
	full_clean "after the failed up" || return 1
	# Out of inodes instead: the control socket is the first file.
	umount "$FULL" && full_mount inodes || fail "cannot mount a tmpfs on $FULL" || return 1
	while touch "$FULL/fill.$((++n))" 2>/dev/null; do :; done
	full_client up wan0 --user alice --password secret1 >"$PXP_TMP/full.out" 2>&1
	rc=$?
	[ $rc -ne 0 ] && grep -q "$FULL: No space left on device" "$PXP_TMP/full.out" ||
		fail "exit $rc without inodes, the message does not name $FULL and ENOSPC: $(cat "$PXP_TMP/full.out")" || return 1
	rm -f "$FULL"/fill.*
	full_clean "after the failed up without inodes" || return 1
	umount "$FULL" && full_mount || fail "cannot mount a tmpfs on $FULL" || return 1

	# A session up before the directory fills keeps running, and down works.
	rm -f "$FULL/fill"
	full_client up wan0 --user alice --password secret1 --defaultroute --keepalive "$KEEPALIVE" \
		>"$PXP_TMP/full.out" 2>&1 || fail "up with room failed: $(cat "$PXP_TMP/full.out")" || return 1
	full_fill || fail "cannot fill $FULL" || return 1
	in_ns "$NS_ROUTER" ping -c 2 -i 0.2 -W 2 100.64.1.1 >/dev/null || fail "no traffic with $FULL full" || return 1
	[ "$(full_client status wan0 | field_of state)" = up ] || fail "status with $FULL full: $(full_client status wan0)" || return 1
	full_client down wan0 >"$PXP_TMP/down.out" 2>&1 || fail "down with $FULL full failed: $(cat "$PXP_TMP/down.out")" || return 1
	wait_for 10 no_pxp_in "$NS_ROUTER" || fail "the daemon still runs after down" || return 1
	full_clean "after down" || return 1

	# A new session while the directory is full (the AC ended the first), then a crash: the
	# record still names what the daemon made, so `down` removes the new pxp0.
	rm -f "$FULL/fill"
	full_client up wan0 --user alice --password secret1 --defaultroute --keepalive "$KEEPALIVE" \
		--persist --holdoff 1 >"$PXP_TMP/full.out" 2>&1 || fail "up with room failed: $(cat "$PXP_TMP/full.out")" || return 1
	full_fill || fail "cannot fill $FULL" || return 1
	server down isp0 >/dev/null && start_server || fail "cannot restart the AC" || return 1
	wait_for 20 sh -c "PPPOE_XP_RUN_DIR=$FULL ip netns exec $NS_ROUTER $B status wan0 | grep -qx 'sessions_up_total: 2'" ||
		fail "no second session with $FULL full: $(full_client status wan0 | field_of last_error)" || return 1
	kill9_and_wait "$(full_client status wan0 | field_of pid)" || fail "the killed client did not die" || return 1
	full_client down wan0 >"$PXP_TMP/down.out" 2>&1 || fail "down after kill -9 failed: $(cat "$PXP_TMP/down.out")" || return 1
	full_clean "after kill -9 of a session made with $FULL full, and down" || return 1
	rm -f "$FULL/fill"
}

# ------------------------------------------------------------ second_ac

second_topo() {
	local ns p
	[ -n "$(ip netns list | grep "^$NS_SW")" ] && return 0
	for ns in "$NS_CL" "$NS_SW" "$NS_AC1" "$NS_AC2"; do
		ip netns add "$ns" || return 1
		ip -n "$ns" link set lo up
	done
	ip -n "$NS_SW" link add br0 type bridge || return 1
	ip -n "$NS_SW" link set br0 up
	_veth "$NS_SW" p0 "$NS_CL" wan0 && _veth "$NS_SW" p1 "$NS_AC1" isp0 &&
		_veth "$NS_SW" p2 "$NS_AC2" isp0 || return 1
	for p in p0 p1 p2; do
		ip -n "$NS_SW" link set "$p" master br0
		# XDP redirects into a veth need GRO (or a program) on its peer.
		ip netns exec "$NS_SW" ethtool -K "$p" gro on >/dev/null 2>&1
	done
}

ac_n() { # N [args]: the AC in namespace acN
	local n=$1 ns
	shift
	ns=${PXP_NS_PREFIX}ac$n
	in_ns "$ns" env PPPOE_XP_RUN_DIR="$PXP_TMP/run-ac$n" "$B" "$@"
}
cl() { in_ns "$NS_CL" env PPPOE_XP_RUN_DIR="$PXP_TMP/run-cl" "$B" "$@"; }
cl_field() { cl status wan0 2>/dev/null | field_of "$1"; }

second_reset() {
	cl down wan0 >/dev/null 2>&1
	ac_n 1 down isp0 >/dev/null 2>&1
	ac_n 2 down isp0 >/dev/null 2>&1
	end_ns_pids "$NS_CL" "$NS_AC1" "$NS_AC2"
	return 0
}

# second_try LATE [up args]: `up` while AC LATE is frozen, so that the other AC's PADO
# comes first; LATE thaws once that PADO is in. Prints the AC-Name of the first PADO the
# client received, the AC status names for the session and the PADOs dropped for their
# AC-Name, then ends the session.
second_try() {
	local late=$1 lpid log=$PXP_TMP/second.log pado
	shift
	rm -f "$log"
	lpid=$(ac_n "$late" status isp0 | field_of pid)
	kill -STOP "$lpid"
	cl up wan0 --user alice --password secret1 --debug --logfile "$log" "$@" >"$PXP_TMP/cl.out" 2>&1 &
	wait_for 10 grep -q "rcvd PPPOE Discovery .* PADO" "$log"
	kill -CONT "$lpid"
	wait $! || {
		echo "up failed: $(cat "$PXP_TMP/cl.out")"
		return 1
	}
	pado=$(grep -m1 "rcvd PPPOE Discovery .* PADO" "$log" | grep -o 'AC-name "[^"]*"')
	echo "${pado:-none} $(cl_field ac_name) $(cl status wan0 --json | json_count discovery drops ac-name)"
	cl down wan0 >/dev/null 2>&1
	wait_for 10 sh -c "! PPPOE_XP_RUN_DIR=$PXP_TMP/run-cl ip netns exec $NS_CL $B status wan0"
}

test_second_ac() {
	local n got
	second_reset
	second_topo || fail "could not build the two-AC topology" || return 1
	mkdir -p "$PXP_TMP/run-ac1" "$PXP_TMP/run-ac2" "$PXP_TMP/run-cl"
	for n in 1 2; do
		ac_n $n server isp0 --local 100.64.$((n + 1)).1 --pool 100.64.$((n + 1)).0/24 --auth pap \
			--secrets "$SECRETS" --ac-name pxf-ac$n >"$PXP_TMP/ac$n.out" 2>&1 ||
			fail "AC $n did not start: $(cat "$PXP_TMP/ac$n.out")" || return 1
	done
	# With --ac, the named one wins, also when the other answers first.
	for n in 1 2; do
		got=$(second_try $n --ac pxf-ac$n)
		[ "$got" = "AC-name \"pxf-ac$((3 - n))\" pxf-ac$n 1" ] ||
			fail "--ac pxf-ac$n, pxf-ac$((3 - n)) first: got (first PADO, session's AC, ac-name drops) $got" || return 1
	done
	# Without it the first PADO wins, and status names its AC.
	for n in 1 2; do
		got=$(second_try $((3 - n)))
		[ "$got" = "AC-name \"pxf-ac$n\" pxf-ac$n 0" ] ||
			fail "no --ac, pxf-ac$n first: got (first PADO, session's AC, ac-name drops) $got" || return 1
	done
	for n in 1 2; do
		ac_n $n down isp0 >/dev/null || fail "AC $n: down failed" || return 1
	done
	# `down` returns once the record is gone; the processes may still be on their way out.
	wait_for 10 no_pxp_in "$NS_CL" "$NS_AC1" "$NS_AC2" || fail "a pppoe-xp process still runs" || return 1
	[ -z "$(ls -A "$PXP_TMP/run-cl")" ] || fail "client run files left: $(ls "$PXP_TMP/run-cl")" || return 1
	[ -z "$(xdp_progs "$NS_CL")$(xdp_progs "$NS_AC1")$(xdp_progs "$NS_AC2")" ] || fail "XDP programs left"
}

cases_named "$@"
suite_needs faults ip nft iperf3 ping ethtool
topo_create pppoe || {
	echo "FAIL faults/topology: could not build the topology"
	exit 1
}
mkdir -p "$RUN_C" "$RUN_S"
printf 'alice * secret1 *\n' >"$SECRETS"
chmod 600 "$SECRETS"
on_cleanup reset
on_cleanup second_reset

case_ faults/wan_down_up test_wan_down_up
case_ faults/ac_restart_mid_traffic test_ac_restart_mid_traffic
case_ faults/unknown_session_flood test_unknown_session_flood
case_ faults/ac_unreachable_past_echo test_ac_unreachable_past_echo
case_ faults/maxfail_wan_down test_maxfail_wan_down
case_ faults/maxfail_ipv6_only test_maxfail_ipv6_only
case_ faults/run_dir_full test_run_dir_full
case_ faults/second_ac test_second_ac
tests_done
