#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The AC under load: many sessions set up and torn down quickly, from one process.
#
#   load ======================== ac
#   ld0  ac_load: N sessions      ac0  pppoe-xp server, pxs<id> 100.64.16.1 per session
#        (MACs 02:4c:00:00:HI:LO,
#         discovery, LCP, PAP, IPCP)
#
# tests/tools/ac_load runs the client side of every session with the pure cores of pppoe/.
# Cases: up_down (AC_LOAD_SESSIONS sessions, default 100, at AC_LOAD_RATE a second, default
# 200: every one reaches IPCP, the AC lists them all with a netdev each; one ICMP echo per
# session to the AC's address is answered, in and out through the AC's XDP programs (their
# decap and encap counters; ld0 has GRO on, which a veth needs to take the AC's XDP
# redirects); then a PADT for each at the same rate: within 10 s none is listed and no pxs
# netdev is left; no control frame was lost in a socket buffer); rate_limit (40 sessions,
# --padi-rate 10: discovery frames are refused and counted, every session still comes up
# through its retries); tc_setup (N sessions in mode xdp, then in mode tc: tc takes at most
# twice as long); no_gro (ld0 without GRO takes no XDP redirects: the AC's answers are lost,
# and its status counts each under redirects_refused, EOPNOTSUPP). Prints the set-up
# and teardown times. Name cases as arguments to run only those: test_ac_load.sh up_down
PXP_NS_PREFIX=pxl$$-
. "$(dirname "$0")/lib.sh"

LOAD=$PXP_TOOLS/ac_load
NS_AC=${PXP_NS_PREFIX}ac
NS_LD=${PXP_NS_PREFIX}load
N=${AC_LOAD_SESSIONS:-100}
RATE=${AC_LOAD_RATE:-200}

server() { in_ns "$NS_AC" env PPPOE_XP_RUN_DIR="$RUN_S" "$B" "$@"; }
# status_get KEY: a top-level field of the AC's text status.
status_get() { server status ac0 | awk -v key="$1" -F': ' '$1 == key { print $2; exit }'; }
# A nested counter (its indented key) of the AC's text status, 0 if absent.
status_nested() {
	server status ac0 | awk -v key="    $1" -F': ' '$1 == key { n = $2 } END { print n + 0 }'
}
# dp_total decap|encap: the AC's data path total (the XDP programs' counters).
dp_total() {
	server stats ac0 | awk -v col="$1" '
		$1 == "queue" { for (i = 1; i <= NF; i++) if ($i == col) c = i }
		$1 == "total" { print $c + 0; exit }'
}
# refused KEY: a counter of the AC's redirects_refused section (total, EOPNOTSUPP...), 0 if absent.
refused() {
	server status ac0 | awk -v key="  $1" -F': ' '
		/^[^ ]/ { in_s = ($1 == "redirects_refused") }
		in_s && $1 == key { n = $2 } END { print n + 0 }'
}
sessions_are() { [ "$(status_get session_count 2>/dev/null)" = "$1" ]; }
netdevs() { ip -n "$NS_AC" -o link show | grep -c ' pxs[0-9]*@' || true; }

start_server() { # [extra args]
	server server ac0 --local 100.64.16.1 --pool 100.64.16.0/20 --auth pap \
		--secrets "$SECRETS" --max-sessions 1024 --keepalive "3 30" "$@" \
		>"$PXP_TMP/server.out" 2>&1 || fail "server did not start: $(cat "$PXP_TMP/server.out")"
}

reset() {
	server down ac0 >/dev/null 2>&1
	end_ns_pids "$NS_AC" "$NS_LD"
	ip netns exec "$NS_LD" ethtool -K ld0 gro on >/dev/null 2>&1 # no_gro turns it off
	return 0
}

# Starts ac_load for N sessions at RATE; waits for its "up" line. Sets LOAD_PID.
load_up() {
	local out=$PXP_TMP/load.out
	# The job truncates it only once it runs: the last case's "up" line would satisfy the wait.
	rm -f "$out"
	ip netns exec "$NS_LD" "$LOAD" --iface ld0 --sessions "$N" --rate "$RATE" \
		--user load --password load-secret --timeout 60 >"$out" 2>&1 &
	LOAD_PID=$!
	on_cleanup "kill -9 $LOAD_PID"
	wait_for 70 grep -q '^up\|FAIL' "$out"
	grep -q '^up' "$out" || fail "sessions did not come up: $(tail -3 "$out")" || return 1
	wait_for 20 grep -q '^traffic\|FAIL' "$out"
	grep -q "^traffic $N of $N " "$out" ||
		fail "not every session's echo was answered: $(grep -v '^up' "$out" | tail -4)"
}

# PADTs for all, then the AC must list none and have deleted every netdev within 10 s.
load_down() {
	local t0 t1
	t0=$(date +%s%N)
	kill -USR1 "$LOAD_PID"
	wait "$LOAD_PID" || fail "ac_load failed: $(tail -3 "$PXP_TMP/load.out")" || return 1
	wait_for 10 sessions_are 0 ||
		fail "$(status_get session_count) of $N sessions still listed 10 s after their PADTs" ||
		return 1
	t1=$(date +%s%N)
	wait_for 10 sh -c "[ \"\$(ip -n $NS_AC -o link show | grep -c ' pxs[0-9]*@')\" = 0 ]" ||
		fail "$(netdevs) session netdevs left after the last session ended" || return 1
	DOWN_MS=$(((t1 - t0) / 1000000))
}

test_up_down() {
	local drops
	reset
	start_server || return 1
	load_up || return 1
	[ "$(status_get session_count)" = "$N" ] ||
		fail "the AC lists $(status_get session_count) sessions, not $N" || return 1
	[ "$(status_get sessions_established)" = "$N" ] ||
		fail "$(status_get sessions_established) of $N sessions established" || return 1
	[ "$(netdevs)" = "$N" ] || fail "$(netdevs) pxs netdevs for $N sessions" || return 1
	# The echoes and their answers went through the XDP programs, not the daemon.
	[ "$(dp_total decap)" -ge "$N" ] && [ "$(dp_total encap)" -ge "$N" ] ||
		fail "the data path moved $(dp_total decap) echoes in, $(dp_total encap) out" || return 1
	[ "$(refused total)" = 0 ] || fail "$(refused total) redirects refused with GRO on" || return 1
	load_down || return 1
	[ "$(status_get sessions_up_total)" = "$N" ] ||
		fail "sessions_up_total $(status_get sessions_up_total), not $N" || return 1
	drops=$(($(status_nested discovery) + $(status_nested session)))
	[ "$drops" = 0 ] || fail "$drops control frames dropped by full socket buffers" || return 1
	echo "# $N sessions at $RATE/s: $(head -1 "$PXP_TMP/load.out");" \
		"$(grep '^traffic' "$PXP_TMP/load.out"); none listed $DOWN_MS ms after the PADTs began"
}

# up_in MODE: sets UP_MS to ac_load's set-up time of N sessions at RATE against an AC in
# MODE, and HALVES to the AC's datapath_halves.
up_in() {
	reset
	start_server --mode "$1" || return 1
	load_up || return 1
	[ "$(netdevs)" = "$N" ] || fail "mode $1: $(netdevs) pxs netdevs for $N sessions" || return 1
	HALVES=$(status_get datapath_halves)
	kill -USR1 "$LOAD_PID"
	wait "$LOAD_PID"
	UP_MS=$(awk '/^up/ { print $(NF - 1) }' "$PXP_TMP/load.out")
}

# Mode tc sets sessions up about as fast as mode xdp: its per-session program is a clsact
# filter on the hidden peer, not a tcx link (each tcx attach waits for an RCU grace period
# under the RTNL lock: 5.8x the time of mode xdp for 200 sessions). Same run, same load:
# tc within 2x xdp. Both are about a second, where a burst of load elsewhere on a shared
# machine can double one: a pair over the bound is measured again, and fails only twice.
test_tc_setup() {
	local xdp try
	for try in 1 2; do
		up_in xdp || return 1
		xdp=$UP_MS
		up_in tc || return 1
		case $HALVES in *"tx tc (clsact)"*) ;; *) fail "mode tc halves '$HALVES'" || return 1 ;; esac
		echo "# $N sessions at $RATE/s: up in $xdp ms (xdp), $UP_MS ms (tc)"
		[ "$UP_MS" -le $((2 * xdp)) ] && return 0
	done
	fail "mode tc took $UP_MS ms, mode xdp $xdp ms for $N sessions (twice over 2x)"
}

test_rate_limit() {
	# 40 PADIs in 0.2 s against a burst of 20 (2 s at 10 a second): about half are refused
	# however slow the machine, and the retries (1, 2, 4... s) still bring every session up.
	local limited N=40
	reset
	start_server --padi-rate 10 || return 1
	load_up || return 1
	limited=$(status_nested rate-limit)
	[ "$limited" -gt 0 ] || fail "--padi-rate 10 refused nothing" || return 1
	load_down || return 1
	echo "# --padi-rate 10, $N sessions: $limited discovery frames refused," \
		"$(head -1 "$PXP_TMP/load.out")"
}

# ld0 without GRO (and no XDP program) takes no XDP redirects: every echo answer the AC's
# data path redirects to ac0 is dropped by the kernel, and the AC must count each as refused.
test_no_gro() {
	local out=$PXP_TMP/load.out N=10 refused_n
	reset
	ip netns exec "$NS_LD" ethtool -K ld0 gro off >/dev/null || fail "ethtool -K ld0 gro off" || return 1
	# XDP's transmit half is what a veth without GRO refuses (a tc redirect it takes).
	start_server --mode xdp || return 1
	rm -f "$out" # as in load_up
	ip netns exec "$NS_LD" "$LOAD" --iface ld0 --sessions "$N" --rate "$RATE" \
		--user load --password load-secret --timeout 60 >"$out" 2>&1 &
	LOAD_PID=$!
	on_cleanup "kill -9 $LOAD_PID"
	wait_for 70 grep -q '^traffic\|FAIL' "$out"
	grep -q "^traffic 0 of $N " "$out" || fail "answers came back without GRO: $(tail -3 "$out")" ||
		return 1
	wait "$LOAD_PID"
	[ "$(dp_total encap)" -ge "$N" ] || fail "only $(dp_total encap) answers encapsulated" || return 1
	refused_n=$(refused EOPNOTSUPP)
	[ "$refused_n" -ge "$N" ] && [ "$(refused total)" = "$refused_n" ] ||
		fail "$N answers lost, the AC counts $(refused total) refused ($refused_n EOPNOTSUPP)" ||
		return 1
	echo "# ld0 without GRO: $refused_n of $(dp_total encap) redirects to ac0 refused (EOPNOTSUPP)"
}

cases_named "$@"
suite_needs ac_load ip ethtool
[ -x "$LOAD" ] || {
	echo "FAIL ac_load/build: $LOAD is missing (run make)"
	exit 1
}
for ns in "$NS_AC" "$NS_LD"; do
	ip netns add "$ns" || exit 1
	ip -n "$ns" link set lo up
done
ip link add ac0 netns "$NS_AC" type veth peer name ld0 netns "$NS_LD" &&
	ip -n "$NS_AC" link set ac0 up && ip -n "$NS_LD" link set ld0 up &&
	ip netns exec "$NS_LD" ethtool -K ld0 gro on >/dev/null || {
	echo "FAIL ac_load/topology: cannot build the namespaces"
	exit 1
}
printf 'load * load-secret\n' >"$SECRETS"
chmod 600 "$SECRETS"
on_cleanup reset

case_ ac_load/up_down test_up_down
case_ ac_load/rate_limit test_rate_limit
case_ ac_load/tc_setup test_tc_setup
case_ ac_load/no_gro test_no_gro
tests_done
