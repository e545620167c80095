#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Nothing leaks across LEAK_CYCLES (100) up/down cycles of our client against our AC, each
# with a ping through the session.
#
#   router ================ isp
#   wan0   PPPoE   pxp0     isp0  pxs<N>   (pppoe-xp server: its sessions come and go)
#
# Cases: client (after every `down`: no pxp netdev, no XDP program on wan0, the program that
# was attached and its maps freed, the run directory empty; the project pins nothing, so a
# program or map outliving its last fd and attachment would be a kernel-side leak, which
# the freed ids rule out); ac (after the cycles, against a baseline taken after two warm-up
# cycles: no session listed, no session netdev left, the same open files, the same BPF
# programs, maps and links held (counted by fd type, not by bpftool's system-wide lists,
# which other tests running at the same time change), RSS at most LEAK_RSS_SLACK_KB
# (512 kB) above it: malloc keeps freed memory for reuse, so RSS may grow a page or two,
# while a leak of one session's state per cycle shows as tens of kB per cycle).
# Figures are printed as "# " lines. The san tier runs it with fewer cycles, where
# LeakSanitizer also checks the daemons' heaps at their exit.
PXP_NS_PREFIX=pxl$$-
. "$(dirname "$0")/lib.sh"

B=$PXP_BIN
RUN_C=$PXP_TMP/run-client
RUN_S=$PXP_TMP/run-server
SECRETS=$PXP_TMP/secrets
CYCLES=${LEAK_CYCLES:-100}
RSS_SLACK_KB=${LEAK_RSS_SLACK_KB:-512}
AC_PID=
BASE=
CLIENT_DONE=0

client() { in_ns "$NS_ROUTER" env PPPOE_XP_RUN_DIR="$RUN_C" "$B" "$@"; }
server() { in_ns "$NS_ISP" env PPPOE_XP_RUN_DIR="$RUN_S" "$B" "$@"; }

field() { awk -v key="$2" -F': ' '$1 == key { print $2; exit }' <<<"$1"; }
ac_sessions() { field "$(server status isp0 2>/dev/null)" session_count; }
ac_has_no_session() { [ "$(ac_sessions)" = 0 ]; }
xdp_prog_id() { ip -n "$NS_ROUTER" link show wan0 | sed -n 's/.*prog\/xdp id \([0-9]*\).*/\1/p'; }
pxp_netdevs() { ip -n "$1" -o link show | grep -c ": $2"; }

# ac_figures: "fds N progs N maps N links N rss_kb N" of the AC.
ac_figures() {
	local fds=0 progs=0 maps=0 links=0 f t
	for f in /proc/"$AC_PID"/fd/*; do
		t=$(readlink "$f") || continue
		fds=$((fds + 1))
		case $t in
		anon_inode:bpf-prog) progs=$((progs + 1)) ;;
		anon_inode:bpf-map) maps=$((maps + 1)) ;;
		anon_inode:bpf_link) links=$((links + 1)) ;;
		esac
	done
	echo "fds $fds progs $progs maps $maps links $links rss_kb $(awk '/^VmRSS/ { print $2 }' "/proc/$AC_PID/status")"
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
	prog=$(xdp_prog_id)
	[ -n "$prog" ] || fail "cycle $i: no XDP program on wan0 while up" || return 1
	maps=$(bpftool prog show id "$prog" | sed -n 's/.*map_ids \([0-9,]*\).*/\1/p' | tr , ' ')
	client down wan0 >"$PXP_TMP/down.out" 2>&1 ||
		fail "cycle $i: down failed: $(cat "$PXP_TMP/down.out")" || return 1
	[ "$(pxp_netdevs "$NS_ROUTER" pxp)" = 0 ] ||
		fail "cycle $i: a pxp netdev left after down: $(ip -n "$NS_ROUTER" -br link)" || return 1
	[ -z "$(xdp_prog_id)" ] || fail "cycle $i: an XDP program left on wan0 after down" || return 1
	# Freed once the daemon's last fd is closed: it may still be exiting.
	wait_for 10 bpf_gone prog "$prog" || fail "cycle $i: XDP program $prog not freed after down" ||
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
	BASE=$(ac_figures)
	for ((i = 1; i <= CYCLES; i++)); do
		cycle "$i" || return 1
	done
	CLIENT_DONE=1
}

test_ac() {
	local now k b n
	[ "$CLIENT_DONE" = 1 ] || fail "the client's cycles did not all run" || return 1
	[ "$(pxp_netdevs "$NS_ISP" pxs)" = 0 ] ||
		fail "session netdevs left on the AC: $(ip -n "$NS_ISP" -br link)" || return 1
	now=$(ac_figures)
	echo "# AC after 2 warm-up cycles: $BASE"
	echo "# AC after $CYCLES more cycles: $now"
	for k in fds progs maps links; do
		b=$(fig "$BASE" $k)
		n=$(fig "$now" $k)
		[ "$n" = "$b" ] || fail "the AC holds $n $k after $CYCLES cycles, $b before" || return 1
	done
	b=$(fig "$BASE" rss_kb)
	n=$(fig "$now" rss_kb)
	[ $((n - b)) -le "$RSS_SLACK_KB" ] ||
		fail "the AC's RSS grew from $b to $n kB in $CYCLES cycles (slack $RSS_SLACK_KB kB)"
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
server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth pap --secrets "$SECRETS" \
	--keepalive "3 1" >"$PXP_TMP/server.out" 2>&1 || {
	echo "FAIL leaks/ac_start: $(cat "$PXP_TMP/server.out")"
	exit 1
}
AC_PID=$(field "$(server status isp0)" pid)
echo "# leaks: $CYCLES cycles (LEAK_CYCLES)"
run_test leaks/client test_client
run_test leaks/ac test_ac
tests_done
