#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Nothing leaks across LEAK_CYCLES (100) up/down cycles of our client against our AC, each
# with a ping through the session, nor across the sessions of one --persist client.
#
#   router ================ isp
#   wan0   PPPoE   pxp0     isp0  pxs<N>   (pppoe-xp server: its sessions come and go)
#
# Cases: client (after every `down`: no pxp netdev, no XDP program on wan0, the WAN program
# that was attached (XDP or tc, whichever --mode auto picked) and its maps freed, the run directory empty; the project pins nothing, so a
# program or map outliving its last fd and attachment would be a kernel-side leak, which
# the freed ids rule out); ac (after the cycles, against a baseline taken after two warm-up
# cycles: no session listed, no session netdev left, the same open files, the same BPF
# programs, maps and links held (counted by fd type, not by bpftool's system-wide lists,
# which other tests running at the same time change), the malloc heap's RSS at most
# LEAK_RSS_SLACK_KB (128 kB) above it: malloc keeps freed memory for reuse, so it grows by a
# few pages (8-12 kB in 100 cycles here), while a leak of 1.3 kB a cycle exceeds it (the
# AC's record of a session alone is 4.3 kB); the whole RSS within that plus the session-id
# table (BY_ID_KB)); client_persist (one --persist client daemon across
# LEAK_PERSIST_CYCLES (20) sessions, each ended by the AC's `down` and followed by a fresh
# AC: the client's own files, BPF objects and RSS flat in the same way). Figures are printed
# as "# " lines. The san tier runs it with fewer cycles, where LeakSanitizer also checks the
# daemons' heaps at their exit.
PXP_NS_PREFIX=pxm$$-
. "$(dirname "$0")/lib.sh"

CYCLES=${LEAK_CYCLES:-100}
PERSIST_CYCLES=${LEAK_PERSIST_CYCLES:-20}
RSS_SLACK_KB=${LEAK_RSS_SLACK_KB:-128}
# The AC's table of sessions by id (user/shell/session_shell.c: 65536 pointers, 512 kB) is
# mapped whole and its pages touched as new ids come: RSS may grow by it once.
BY_ID_KB=512
AC_PID=
BASE=
CLIENT_DONE=0

field() { awk -v key="$2" -F': ' '$1 == key { print $2; exit }' <<<"$1"; }
ac_sessions() { field "$(server status isp0 2>/dev/null)" session_count; }
ac_has_no_session() { [ "$(ac_sessions)" = 0 ]; }
xdp_prog_id() { ip -n "$NS_ROUTER" link show wan0 | sed -n 's/.*prog\/xdp id \([0-9]*\).*/\1/p'; }
pxp_netdevs() { ip -n "$1" -o link show | grep -c ": $2"; }

# figures PID: "fds N progs N maps N links N rss_kb N" of a daemon.
figures() {
	local fds=0 progs=0 maps=0 links=0 f t
	for f in /proc/"$1"/fd/*; do
		t=$(readlink "$f") || continue
		fds=$((fds + 1))
		case $t in
		anon_inode:bpf-prog) progs=$((progs + 1)) ;;
		anon_inode:bpf-map) maps=$((maps + 1)) ;;
		anon_inode:bpf_link) links=$((links + 1)) ;;
		esac
	done
	echo "fds $fds progs $progs maps $maps links $links rss_kb $(awk '/^VmRSS/ { print $2 }' "/proc/$1/status")" \
		"heap_kb $(awk '/\[heap\]/ { h = 1 } h && /^Rss:/ { print $2; exit }' "/proc/$1/smaps")"
}

# flat WHO BEFORE AFTER CYCLES: the same fds and BPF objects, RSS within the slack.
flat() {
	local k b n
	echo "# $1 before: $2"
	echo "# $1 after $4 cycles: $3"
	for k in fds progs maps links; do
		b=$(fig "$2" $k)
		n=$(fig "$3" $k)
		[ "$n" = "$b" ] || fail "$1 holds $n $k after $4 cycles, $b before" || return 1
	done
	b=$(fig "$2" heap_kb)
	n=$(fig "$3" heap_kb)
	[ $((n - b)) -le "$RSS_SLACK_KB" ] ||
		fail "$1's heap grew from $b to $n kB in $4 cycles (slack $RSS_SLACK_KB kB)" || return 1
	b=$(fig "$2" rss_kb)
	n=$(fig "$3" rss_kb)
	[ $((n - b)) -le $((RSS_SLACK_KB + BY_ID_KB)) ] ||
		fail "$1's RSS grew from $b to $n kB in $4 cycles (slack $RSS_SLACK_KB + $BY_ID_KB kB)"
}

fig() { awk -v k="$2" '{ for (i = 1; i < NF; i += 2) if ($i == k) print $(i + 1) }' <<<"$1"; }

bpf_prog_exists() { bpftool prog show id "$1" >/dev/null 2>&1; }
bpf_map_exists() { bpftool map show id "$1" >/dev/null 2>&1; }
bpf_gone() { ! "bpf_$1_exists" "$2"; }
run_dir_empty() { [ -z "$(ls -A "$RUN_C")" ]; }

# One up, a ping, one down; then what the client leaves must be nothing.
cycle() {
	local i=$1 prog maps m
	client up wan0 --user alice --password secret1 --keepalive "3 1" >"$PXP_TMP/up.out" 2>&1 ||
		fail "cycle $i: up failed: $(cat "$PXP_TMP/up.out")" || return 1
	in_ns "$NS_ROUTER" ping -c 1 -W 2 100.64.1.1 >/dev/null ||
		fail "cycle $i: no traffic through the session" || return 1
	# The WAN program, XDP or tc (--mode auto's pick), as the instance record names it.
	prog=$(sed -n 's/^wan_prog_id //p' "$RUN_C/wan0.session")
	[ "${prog:-0}" != 0 ] || fail "cycle $i: no WAN program while up" || return 1
	maps=$(bpftool prog show id "$prog" | sed -n 's/.*map_ids \([0-9,]*\).*/\1/p' | tr , ' ')
	client down wan0 >"$PXP_TMP/down.out" 2>&1 ||
		fail "cycle $i: down failed: $(cat "$PXP_TMP/down.out")" || return 1
	[ "$(pxp_netdevs "$NS_ROUTER" pxp)" = 0 ] ||
		fail "cycle $i: a pxp netdev left after down: $(ip -n "$NS_ROUTER" -br link)" || return 1
	[ -z "$(xdp_prog_id)" ] || fail "cycle $i: an XDP program left on wan0 after down" || return 1
	# Freed once the daemon's last fd is closed: it may still be exiting.
	wait_for 10 bpf_gone prog "$prog" || fail "cycle $i: WAN program $prog not freed after down" ||
		return 1
	for m in $maps; do
		wait_for 10 bpf_gone map "$m" ||
			fail "cycle $i: map $m of program $prog not freed after down" || return 1
	done
	wait_for 10 run_dir_empty || fail "cycle $i: run files left after down: $(ls -A "$RUN_C")" ||
		return 1
	wait_for 10 ac_has_no_session || fail "cycle $i: the AC still lists $(ac_sessions) session(s)"
}

test_client() {
	local i
	for i in 1 2; do cycle "warm-up $i" || return 1; done
	BASE=$(figures "$AC_PID")
	for ((i = 1; i <= CYCLES; i++)); do
		cycle "$i" || return 1
	done
	CLIENT_DONE=1
}

test_ac() {
	[ "$CLIENT_DONE" = 1 ] || fail "the client's cycles did not all run" || return 1
	[ "$(pxp_netdevs "$NS_ISP" pxs)" = 0 ] ||
		fail "session netdevs left on the AC: $(ip -n "$NS_ISP" -br link)" || return 1
	flat "the AC" "$BASE" "$(figures "$AC_PID")" "$CYCLES"
}

start_ac() {
	server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth pap --secrets "$SECRETS" \
		--keepalive "3 1" >"$PXP_TMP/server.out" 2>&1 || fail "the AC did not start: $(cat "$PXP_TMP/server.out")"
}

client_sessions() { field "$(client status wan0 2>/dev/null)" sessions_up_total; }
client_has_sessions() { [ "$(client_sessions)" = "$1" ] && [ "$(field "$(client status wan0)" state)" = up ]; }

# One client daemon with --persist across PERSIST_CYCLES sessions, each ended by the AC's
# `down` (its PADT) and followed by a fresh AC: the client's own files, BPF objects and RSS
# stay flat across sessions.
test_client_persist() {
	local pid base i n
	client up wan0 --user alice --password secret1 --keepalive "3 1" --persist --holdoff 1 \
		>"$PXP_TMP/up.out" 2>&1 || fail "up --persist failed: $(cat "$PXP_TMP/up.out")" || return 1
	pid=$(field "$(client status wan0)" pid)
	for ((i = 1; i <= PERSIST_CYCLES + 1; i++)); do
		# The first session is the warm-up: the baseline is taken once the second is up.
		[ $i = 2 ] && base=$(figures "$pid")
		server down isp0 >/dev/null 2>&1 || fail "cycle $i: the AC's down failed" || return 1
		start_ac || return 1
		n=$((i + 1))
		wait_for 20 client_has_sessions $n ||
			fail "cycle $i: session $n not up: $(client status wan0 | grep -E 'state|last_error')" ||
			return 1
		in_ns "$NS_ROUTER" ping -c 1 -W 2 100.64.1.1 >/dev/null ||
			fail "cycle $i: no traffic through session $n" || return 1
	done
	flat "the --persist client" "$base" "$(figures "$pid")" "$PERSIST_CYCLES"
}

reset() {
	client down wan0 >/dev/null 2>&1
	server down isp0 >/dev/null 2>&1
	end_ns_pids "$NS_ROUTER" "$NS_ISP"
}

suite_needs leaks ip ping bpftool
topo_create pppoe || {
	echo "FAIL leaks/topology: could not build the topology"
	exit 1
}
mkdir -p "$RUN_C" "$RUN_S"
printf 'alice * secret1 *\n' >"$SECRETS"
chmod 600 "$SECRETS"
on_cleanup reset
start_ac || {
	echo "FAIL leaks/ac_start: $PXP_FAIL_REASON"
	exit 1
}
AC_PID=$(field "$(server status isp0)" pid)
echo "# leaks: $CYCLES up/down cycles (LEAK_CYCLES), $PERSIST_CYCLES --persist sessions (LEAK_PERSIST_CYCLES)"
run_test leaks/client test_client
run_test leaks/ac test_ac
run_test leaks/client_persist test_client_persist
tests_done
