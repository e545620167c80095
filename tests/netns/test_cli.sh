#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The command line's own errors, before it starts anything: not root, no such interface,
# a link that is down (instead of waiting for PADOs that cannot come), and `status` with
# nothing running.
#
#   router ======================== isp
#   wan0                            isp0
#   (pppoe-xp up / discover)        (pppoe-xp server; set down for "no carrier")
#
# Also what `up` says while nobody answers (a progress line per PADI retry) and --logfile.
#
# Cases: not_root, no_such_iface, no_carrier, carrier_late, set_down, persist_link_down, no_sessions,
# no_pado_progress, logfile_unwritable.
# Name cases as arguments to run only those: test_cli.sh no_carrier
PXP_NS_PREFIX=pxl$$-
. "$(dirname "$0")/lib.sh"

OUT=$PXP_TMP/out
# Without the checks, up waits 5 + 10 + 20 s for PADOs before it says anything: 10 s is
# far below that, and above what a loaded CI machine needs to start the command twice.
PROMPT_S=10

# Every client call is bounded: a hung one fails its case, not the tier.
PXP_TIMEOUT=60
as_nobody() {
	in_ns "$NS_ROUTER" env PPPOE_XP_RUN_DIR="$RUN_C" \
		setpriv --reuid=65534 --regid=65534 --clear-groups timeout 60 "$B" "$@"
}

reset() {
	client down wan0 >/dev/null 2>&1
	server down isp0 >/dev/null 2>&1
	end_ns_pids "$NS_ROUTER" "$NS_ISP"
	ip -n "$NS_ROUTER" link set wan0 up
	ip -n "$NS_ISP" link set isp0 up
	rm -rf "$RUN_C" "$RUN_S"
	wait_for 10 link_running "$NS_ROUTER" wan0
	return 0
}

# expect RC TEXT CMD...: CMD exits RC and says TEXT (stdout and stderr in $OUT).
expect() {
	local want=$1 text=$2 rc
	shift 2
	"$@" >"$OUT" 2>&1
	rc=$?
	[ "$rc" -eq "$want" ] || fail "'$*' exited $rc, want $want: $(cat "$OUT")" || return 1
	grep -qF -- "$text" "$OUT" || fail "'$*' did not say '$text': $(cat "$OUT")"
}

# The kernel's linkwatch takes up to a second to turn a lost carrier into the operational
# state (IFF_RUNNING) that the check reads.
carrier_gone() {
	ip -n "$NS_ISP" link set isp0 down
	wait_for 10 sh -c "ip -n '$NS_ROUTER' link show wan0 | grep -qE 'NO-CARRIER.* state (DOWN|LOWERLAYERDOWN)'" ||
		fail "wan0 still has a carrier with isp0 down"
}

no_daemon_left() {
	! ip netns pids "$NS_ROUTER" | grep -q . || fail "a process stayed in the router namespace" || return 1
	[ -z "$(ls -A "$RUN_C" 2>/dev/null)" ] || fail "files left in the run dir: $(ls "$RUN_C")" || return 1
	! ip -n "$NS_ROUTER" link show wan0 | grep -q xdp || fail "an XDP program stayed on wan0"
}

# "must run as root" (exit 3, pppd's EXIT_NOT_ROOT) before any EACCES or EPERM; --help
# needs no root.
test_not_root() {
	reset
	expect 3 "up: must run as root" as_nobody up wan0 || return 1
	expect 3 "discover: must run as root" as_nobody discover wan0 || return 1
	expect 3 "server: must run as root" as_nobody server wan0 --local 100.64.1.1 \
		--pool 100.64.1.0/24 || return 1
	expect 3 "status: must run as root" as_nobody status || return 1
	expect 3 "down: must run as root" as_nobody down wan0 || return 1
	expect 0 "usage: pppoe-xp up" as_nobody up --help || return 1
	no_daemon_left
}

# Exit 7, pppd's EXIT_OPEN_FAILED: the device cannot be opened.
test_no_such_iface() {
	reset
	expect 7 "no such interface nosuch0" client up nosuch0 || return 1
	expect 7 "no such interface nosuch0" client up nosuch0 --persist --foreground || return 1
	expect 7 "no such interface nosuch0" client discover nosuch0 || return 1
	in_ns "$NS_ROUTER" env PPPOE_XP_RUN_DIR="$RUN_C" "$B" server nosuch0 --local 100.64.1.1 \
		--pool 100.64.1.0/24 >"$OUT" 2>&1
	[ $? -eq 7 ] && grep -qF "no such interface nosuch0" "$OUT" ||
		fail "server nosuch0: $(cat "$OUT")" || return 1
	no_daemon_left
}

# link_down_case WHY: up and discover fail, exit 8, naming the link, within PROMPT_S (a port
# without carrier is given a first PADI's time, 1 s here, to get one).
link_down_case() {
	local why=$1 start
	start=$SECONDS
	expect 8 "wan0: link is down ($why" client up wan0 --padi-timeout 1 || return 1
	expect 8 "wan0: link is down ($why" client discover wan0 --timeout 1 || return 1
	[ $((SECONDS - start)) -le $PROMPT_S ] ||
		fail "took $((SECONDS - start)) s, more than $PROMPT_S" || return 1
	no_daemon_left
}

test_no_carrier() {
	reset
	carrier_gone || return 1
	link_down_case "no carrier after 1 s"
}

# A carrier that comes while up waits for it (a port just set up negotiates its link for a
# second or more, and pppd would send its first PADI into it): the session comes up.
test_carrier_late() {
	local pid rc
	reset
	server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth none >"$OUT" 2>&1 ||
		fail "server did not start: $(cat "$OUT")" || return 1
	carrier_gone || return 1
	client up wan0 --padi-timeout 10 >"$OUT" 2>&1 &
	pid=$!
	# The carrier comes back once up has said it waits, however slowly up started.
	wait_for 10 grep -qF "wan0: no carrier yet; waiting up to 10 s for one" "$OUT" ||
		fail "up did not say it waits for the carrier: $(cat "$OUT")"
	rc=$?
	ip -n "$NS_ISP" link set isp0 up
	wait "$pid" || fail "up exited $?: $(cat "$OUT")" || return 1
	[ $rc -eq 0 ] || return 1
	[ "$(status_get client state)" = up ] || fail "no session: $(client status wan0)"
}

test_set_down() {
	reset
	ip -n "$NS_ROUTER" link set wan0 down
	link_down_case "set down; ip link set wan0 up"
}

# With --persist a down link is a warning: the daemon waits for it and the session comes up.
test_persist_link_down() {
	local rc
	reset
	carrier_gone || return 1
	client up wan0 --persist --holdoff 1 --padi-attempts 1 --padi-timeout 1 >"$OUT" 2>&1
	rc=$?
	grep -qF "wan0: link is down (no carrier); --persist" "$OUT" ||
		fail "no warning about the link: $(cat "$OUT")" || return 1
	[ $rc -eq 8 ] && grep -q "still retrying" "$OUT" ||
		fail "up --persist exited $rc: $(cat "$OUT")" || return 1
	ip -n "$NS_ISP" link set isp0 up
	server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth none >"$OUT" 2>&1 ||
		fail "server did not start: $(cat "$OUT")" || return 1
	wait_for 15 sh -c "PPPOE_XP_RUN_DIR='$RUN_C' ip netns exec '$NS_ROUTER' '$B' status wan0 |
		grep -qx 'state: up'" || fail "no session once the link came up: $(client status wan0)"
}

# No AC answers: one progress line per retry (not per PADI), then exit 8 as pppd's
# EXIT_CONNECT_FAILED. The lines are read from --logfile, which the detached daemon keeps
# appending to (syslog may or may not exist here), and which keeps what it held before.
test_no_pado_progress() {
	local log=$PXP_TMP/pxp.log n
	reset
	echo "a line from before" >"$log"
	chmod 0644 "$log"
	rm -f "$PXP_TMP/new.log"
	expect 8 "no PADO after 3 PADIs" client up wan0 --padi-attempts 3 --padi-timeout 1 \
		--logfile "$log" || return 1
	grep -qx "a line from before" "$log" || fail "--logfile lost what it held: $(cat "$log")" ||
		return 1
	grep -q "pppoe-xp\[[0-9]*\]: no PADO after 1 s, PADI 2 of 3$" "$log" &&
		grep -q "pppoe-xp\[[0-9]*\]: no PADO after 2 s, PADI 3 of 3$" "$log" ||
		fail "no progress lines in --logfile: $(cat "$log")" || return 1
	n=$(grep -c "no PADO after [0-9]* s, PADI" "$log")
	[ "$n" = 2 ] || fail "$n progress lines for 3 PADIs, want 2: $(cat "$log")" || return 1
	# A new file is created 0600 (it may hold user names).
	client up wan0 --padi-attempts 1 --padi-timeout 1 --logfile "$PXP_TMP/new.log" >"$OUT" 2>&1
	[ "$(stat -c %a "$PXP_TMP/new.log" 2>/dev/null)" = 600 ] ||
		fail "a new --logfile has mode '$(stat -c %a "$PXP_TMP/new.log" 2>&1)', want 600" ||
		return 1
	no_daemon_left
}

# A --logfile that cannot be opened fails the command at once, naming the path (exit 2, as
# pppd's logfile option).
test_logfile_unwritable() {
	local bad=$PXP_TMP/no/such/dir/pxp.log
	reset
	expect 2 "--logfile '$bad': No such file or directory" client up wan0 --logfile "$bad" ||
		return 1
	expect 2 "--logfile '$PXP_TMP': Is a directory" server server isp0 --local 100.64.1.1 \
		--pool 100.64.1.0/24 --logfile "$PXP_TMP" || return 1
	no_daemon_left
}

test_no_sessions() {
	local json
	reset
	expect 0 "no sessions" client status || return 1
	mkdir -p "$RUN_C"
	expect 0 "no sessions" client status || return 1
	json=$(client status --json) || fail "status --json failed" || return 1
	[ "$json" = "[]" ] || fail "status --json printed '$json'"
}

cases_named "$@"
suite_needs cli ip setpriv timeout
for ns in "$NS_ROUTER" "$NS_ISP"; do
	ip netns add "$ns" || exit 1
	ip -n "$ns" link set lo up
done
_veth "$NS_ROUTER" wan0 "$NS_ISP" isp0 || exit 1

case_ cli/not_root test_not_root
case_ cli/no_such_iface test_no_such_iface
case_ cli/no_carrier test_no_carrier
case_ cli/carrier_late test_carrier_late
case_ cli/set_down test_set_down
case_ cli/persist_link_down test_persist_link_down
case_ cli/no_sessions test_no_sessions
case_ cli/no_pado_progress test_no_pado_progress
case_ cli/logfile_unwritable test_logfile_unwritable
reset
tests_done
