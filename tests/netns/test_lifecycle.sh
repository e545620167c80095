#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The client daemon's lifecycle around a session: what `up` waits for, what status says
# while the link ends, and the resolv file it writes and takes back.
#
#   lan ---------- router ================ isp ---------- net
#   lan0      lan1      wan0    PPPoE    isp0     isp1      net0
#                       pxp0 100.64.1.2  pxs<N> 100.64.1.1
#                       (pppoe-xp up)    (pppoe-xp server --dns 198.51.100.53)
#
# Cases: auth_retries (a failed `up` returns only once its daemon is gone: five immediate
# retries after a wrong password all fail with 19, never "already runs"); persist_failure
# (with --persist it returns at once, the daemon retrying); server_failure (a failed
# `server` returns once its daemon is gone);
# echo_terminating (after an echo failure status says `terminating`, not `negotiating`,
# until the daemon exits); resolv_default (our own RUN_DIR/IFACE.resolv.conf: written, then
# deleted); resolv_shared (a user's --resolv-file, reached through a symlink: only our
# marked lines are added and taken back, the rest byte for byte, mode kept, file kept, a
# kill -9 and restart leaves one set of our lines). Name cases as arguments to run only
# those: test_lifecycle.sh auth_retries
PXP_NS_PREFIX=pxl$$-
. "$(dirname "$0")/lib.sh"

DNS=198.51.100.53

# client_field KEY: a top-level field of the client's `status`, or nothing without a daemon.
client_field() {
	client status wan0 2>/dev/null | awk -v key="$1" -F': ' '$1 == key { print $2; exit }'
}

ac_start() { # AUTH
	server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --auth "$1" \
		--secrets "$SECRETS" --dns $DNS --keepalive "3 1" >"$PXP_TMP/server.out" 2>&1 ||
		fail "server did not start: $(cat "$PXP_TMP/server.out")"
}

# Ends both daemons: `down` first, then kill -9 for a frozen or stuck one.
stop_all() {
	local ns
	client down wan0 >/dev/null 2>&1
	server down isp0 >/dev/null 2>&1
	end_ns_pids "$NS_ROUTER" "$NS_ISP"
	return 0
}

test_auth_retries() {
	local i rc pids
	stop_all
	ac_start chap || return 1
	for i in 1 2 3 4 5; do
		client up wan0 --user alice --password wrong >"$PXP_TMP/up.out" 2>&1
		rc=$?
		[ $rc -eq 19 ] || fail "retry $i: exit $rc, want 19: $(cat "$PXP_TMP/up.out")" || return 1
		! grep -q "already runs" "$PXP_TMP/up.out" ||
			fail "retry $i found the last daemon still running: $(cat "$PXP_TMP/up.out")" || return 1
		# Gone means gone: no process left, no XDP program left on the WAN port.
		pids=$(ip netns pids "$NS_ROUTER")
		[ -z "$pids" ] || fail "retry $i: up returned while pid $pids still ran" || return 1
		! ip -n "$NS_ROUTER" link show wan0 | grep -q xdp ||
			fail "retry $i: up returned with an XDP program still on wan0" || return 1
	done
}

# `server` alike: a start that fails after its daemon opened its sockets (a secrets file
# that is missing) returns once that daemon is gone.
test_server_failure() {
	local rc pids
	stop_all
	server server isp0 --local 100.64.1.1 --pool 100.64.1.0/24 --secrets "$PXP_TMP/missing" \
		>"$PXP_TMP/server.out" 2>&1
	rc=$?
	[ $rc -eq 2 ] || fail "exit $rc, want 2: $(cat "$PXP_TMP/server.out")" || return 1
	grep -q "$PXP_TMP/missing" "$PXP_TMP/server.out" ||
		fail "message does not name the file: $(cat "$PXP_TMP/server.out")" || return 1
	pids=$(ip netns pids "$NS_ISP")
	[ -z "$pids" ] || fail "server returned while pid $pids still ran"
}

# With --persist a failed first attempt returns at once: the daemon goes on trying.
test_persist_failure() {
	local rc state
	stop_all
	ac_start chap || return 1
	client up wan0 --user alice --password wrong --persist --holdoff 1 >"$PXP_TMP/up.out" 2>&1
	rc=$?
	[ $rc -eq 19 ] || fail "exit $rc, want 19: $(cat "$PXP_TMP/up.out")" || return 1
	grep -q "still retrying" "$PXP_TMP/up.out" || fail "no retry note: $(cat "$PXP_TMP/up.out")" || return 1
	state=$(client_field state)
	[ -n "$state" ] || fail "the --persist daemon is gone after its first failure"
}

# The AC freezes: three echoes go unanswered (3 s), then LCP sends Terminate-Requests
# nobody acknowledges (about 6 s) before the daemon exits. Every state status shows after
# the session was up must be `up` or `terminating`, and `terminating` must show.
test_echo_terminating() {
	local spid state seen=" " i
	stop_all
	ac_start pap || return 1
	client up wan0 --user alice --password secret1 --keepalive "3 1" >"$PXP_TMP/up.out" 2>&1 ||
		fail "up failed: $(cat "$PXP_TMP/up.out")" || return 1
	spid=$(server status isp0 | awk -F': ' '$1 == "pid" { print $2; exit }')
	kill -STOP "$spid"
	for ((i = 0; i < 200; i++)); do
		state=$(client_field state)
		[ -n "$state" ] || break
		[[ $seen == *" $state "* ]] || seen="$seen$state "
		sleep 0.1
	done
	kill -CONT "$spid"
	[ -z "$state" ] || fail "the client still runs 20 s after the AC froze (states:$seen)" || return 1
	[ "$seen" = " up terminating " ] ||
		fail "states after the AC froze:$seen, want: up terminating"
}

test_resolv_default() {
	local f=$RUN_C/wan0.resolv.conf
	stop_all
	ac_start pap || return 1
	client up wan0 --user alice --password secret1 --usepeerdns >"$PXP_TMP/up.out" 2>&1 ||
		fail "up failed: $(cat "$PXP_TMP/up.out")" || return 1
	grep -qx "nameserver $DNS # pppoe-xp wan0" "$f" || fail "no line for $DNS in $f: $(cat "$f")" || return 1
	client down wan0 || fail "down failed" || return 1
	[ ! -e "$f" ] || fail "down left our own $f behind"
}

# The lines of FILE that are not ours (our marker: "# pppoe-xp wan0").
others_lines() { sed '/ # pppoe-xp wan0$/d' "$1"; }

test_resolv_shared() {
	local dir=$PXP_TMP/etc target link ours
	stop_all
	ac_start pap || return 1
	mkdir -p "$dir"
	target=$dir/resolv.conf.real
	link=$dir/resolv.conf
	# Another program's file: a comment, a search line, a nameserver, no final newline.
	printf '# managed by someone else\nsearch example.net\nnameserver 192.0.2.1\noptions edns0' >"$target"
	cp "$target" "$PXP_TMP/resolv.orig"
	chmod 640 "$target"
	ln -sf resolv.conf.real "$link"
	client up wan0 --user alice --password secret1 --usepeerdns --resolv-file "$link" \
		>"$PXP_TMP/up.out" 2>&1 || fail "up failed: $(cat "$PXP_TMP/up.out")" || return 1
	[ -L "$link" ] || fail "the symlink $link was replaced by a file" || return 1
	grep -qx "nameserver $DNS # pppoe-xp wan0" "$target" ||
		fail "our line is missing: $(cat "$target")" || return 1
	[ "$(stat -c %a "$target")" = 640 ] || fail "mode $(stat -c %a "$target"), want 640" || return 1
	# Apart from our lines the file is unchanged, to the byte.
	cmp -s <(others_lines "$target") "$PXP_TMP/resolv.orig" ||
		fail "other lines changed: $(cat "$target")" || return 1
	# A crashed daemon's lines are replaced by the next run's, not added to.
	kill9_and_wait "$(client_field pid)" || fail "the killed client did not die" || return 1
	client up wan0 --user alice --password secret1 --usepeerdns --resolv-file "$link" \
		>"$PXP_TMP/up.out" 2>&1 || fail "restart failed: $(cat "$PXP_TMP/up.out")" || return 1
	ours=$(grep -c ' # pppoe-xp wan0$' "$target")
	[ "$ours" = 1 ] || fail "$ours lines of ours after a restart, want 1: $(cat "$target")" || return 1
	client down wan0 || fail "down failed" || return 1
	[ -L "$link" ] && [ -f "$target" ] || fail "down removed $link or its target" || return 1
	cmp -s "$target" "$PXP_TMP/resolv.orig" ||
		fail "after down the file differs from before up: $(od -c "$target" | tail -3)"
}

cases_named "$@"
suite_needs lifecycle ip cmp stat
topo_create pppoe || {
	echo "FAIL lifecycle/topology: could not build the topology"
	exit 1
}
mkdir -p "$RUN_C" "$RUN_S"
printf 'alice * secret1 *\n' >"$SECRETS"
chmod 600 "$SECRETS"
on_cleanup stop_all

case_ lifecycle/auth_retries test_auth_retries
case_ lifecycle/server_failure test_server_failure
case_ lifecycle/persist_failure test_persist_failure
case_ lifecycle/echo_terminating test_echo_terminating
case_ lifecycle/resolv_default test_resolv_default
case_ lifecycle/resolv_shared test_resolv_shared
tests_done
