# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared helpers for namespace tests. Source it, then call topo_create and run_test.
#
#   lan ---------- router ============ isp ---------- net
#   lan0      lan1      wan0      isp0    isp1      net0
#   192.168.100.2   .1  (plain: 100.64.0.1/30   .2)  198.51.100.1   .2
#   fd00:100::2    ::1  (pppoe: no addresses; the     2001:db8:2::1  ::2
#                        session gives 100.64.1.2 / .1)
#
# Every namespace name carries PXP_NS_PREFIX (unique per run) so that concurrent runs do not
# collide; cleanup removes them all on exit, even after a failure.
#
# Result protocol: run_test prints "PASS name" or "FAIL name: reason", or "SKIP name: why"
# for a case that called skip_case; skip_test prints "SKIP name: why" for a case not run.
# The script's exit status is non-zero when anything failed.

PXP_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PXP_BIN=${PXP_BIN:-$PXP_ROOT/build/pppoe-xp}
PXP_TOOLS=${PXP_TOOLS:-$PXP_ROOT/build/tests/tools}
# The san tier (tests/run.sh san) sets these: PXP_SAN_DIR, where the sanitizer runtime of
# PXP_BIN and PXP_TOOLS writes its reports (log_path=PXP_SAN_DIR/san, a file per pid);
# PXP_NAME_PREFIX, put before every case name so that its results are told from the netns
# tier's; PXP_EXIT_WAIT, seconds a daemon on its way out gets before end_ns_pids kills it
# (its leak check runs at exit).
PXP_SAN_DIR=${PXP_SAN_DIR:-}
PXP_NAME_PREFIX=${PXP_NAME_PREFIX:-}
PXP_EXIT_WAIT=${PXP_EXIT_WAIT:-0}
PXP_SAN_SEEN=
PXP_NS_PREFIX=${PXP_NS_PREFIX:-pxp$$-}
NS_LAN=${PXP_NS_PREFIX}lan
NS_ROUTER=${PXP_NS_PREFIX}router
NS_ISP=${PXP_NS_PREFIX}isp
NS_NET=${PXP_NS_PREFIX}net

PXP_FAILED=0
PXP_FAIL_REASON=
PXP_CLEANUP_HOOKS=()
PXP_TMP=$(mktemp -d /tmp/pxp-test.XXXXXX)

# Registers a command to run at cleanup, before the namespaces are removed (last in, first out).
on_cleanup() {
	PXP_CLEANUP_HOOKS+=("$*")
}

cleanup() {
	local i ns
	# Only the test's own shell tears down: a subshell that ran the inherited trap (seen
	# after interop/client_vs_pppd/ac_ends) stopped the guest and deleted PXP_TMP under
	# the cases still to run.
	[ "$BASHPID" = "$$" ] || return 0
	for ((i = ${#PXP_CLEANUP_HOOKS[@]} - 1; i >= 0; i--)); do
		eval "${PXP_CLEANUP_HOOKS[i]}" >/dev/null 2>&1 || true
	done
	PXP_CLEANUP_HOOKS=()
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^${PXP_NS_PREFIX}"); do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	rm -rf "$PXP_TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Runs a command inside a namespace, with bpffs mounted there (pinning needs it).
# `in_ns ... &` gives the pid of a subshell, not of the program: to signal a background
# program later, start it with `ip netns exec NS prog & pid=$!` instead.
in_ns() {
	local ns=$1
	shift
	ip netns exec "$ns" sh -c 'mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf; exec "$@"' _ "$@"
}

# The client and AC most suites drive: `client ARGS` runs pppoe-xp in the router's
# namespace, `server ARGS` in the ISP's, each with its own run directory. CLIENT_ENV: more
# VAR=value for the client (PXP_NO_XSKS_ENV: a kernel without XDP sockets). PXP_TIMEOUT=SECS
# bounds one client call (timeout, exit 124): no watchdog subshell (cleanup above).
B=$PXP_BIN
RUN_C=$PXP_TMP/run-client
RUN_S=$PXP_TMP/run-server
SECRETS=$PXP_TMP/secrets
CLIENT_ENV=()
client() { in_ns "$NS_ROUTER" env "${CLIENT_ENV[@]}" PPPOE_XP_RUN_DIR="$RUN_C" ${PXP_TIMEOUT:+timeout "$PXP_TIMEOUT"} "$B" "$@"; }
server() { in_ns "$NS_ISP" env PPPOE_XP_RUN_DIR="$RUN_S" "$B" "$@"; }

# status_get ROLE KEY: a top-level field of `status` (ROLE client: wan0's, server: isp0's).
# The text form is read with awk: python3 start-up alone takes seconds on a loaded machine.
status_get() {
	if [ "$1" = client ]; then client status wan0; else server status isp0; fi |
		awk -v key="$2" -F': ' '$1 == key { print $2; exit }'
}

# Inside a test function: record why it failed and return non-zero.
fail() {
	PXP_FAIL_REASON=$*
	return 1
}

# Each case's result line is followed by "# time NAME 12s" (tests/run.sh shows it).
run_test() {
	local name=$PXP_NAME_PREFIX$1 func=$2 ok=0 san start=$SECONDS
	PXP_FAIL_REASON= PXP_SKIP_REASON=
	"$func" && ok=1
	if [ -n "$PXP_SAN_DIR" ] && san=$(san_reports "${1//\//_}"); then
		PXP_FAIL_REASON="sanitizer: $san${PXP_FAIL_REASON:+ (and: $PXP_FAIL_REASON)}"
		ok=0
	fi
	if [ $ok = 1 ] && [ -n "$PXP_SKIP_REASON" ]; then
		echo "SKIP $name: $PXP_SKIP_REASON"
	elif [ $ok = 1 ]; then
		echo "PASS $name"
	else
		echo "FAIL $name: ${PXP_FAIL_REASON:-$func returned non-zero}"
		PXP_FAILED=1
	fi
	echo "# time $name $((SECONDS - start))s"
}

skip_test() {
	echo "SKIP $PXP_NAME_PREFIX$1: $2"
}

# skip_case WHY: inside a case run by run_test, which then reports it skipped (succeeds).
skip_case() {
	PXP_SKIP_REASON=$*
}

# What a sanitizer says: the first line of a report that names the error.
PXP_SAN_PATTERN='ERROR: [A-Za-z]*Sanitizer|runtime error:|SUMMARY: [A-Za-z]*Sanitizer'

# san_reports TAG: prints (and succeeds) when a sanitizer report appeared since the last call:
# each new report file in PXP_SAN_DIR, moved to PXP_SAN_DIR/reported/TAG.<file> so that a
# later case is not blamed for it, and each log of the test (PXP_TMP) with a sanitizer line.
# A daemon writes its leak report on its way out, possibly after its case ended: the report
# names its pid.
san_reports() {
	local tag=$1 f to found=
	mkdir -p "$PXP_SAN_DIR/reported"
	for f in "$PXP_SAN_DIR"/*san.*; do
		[ -f "$f" ] || continue
		to=$PXP_SAN_DIR/reported/$tag.${f##*/}
		mv "$f" "$to"
		found+="${found:+; }$to: $(grep -m1 -E "$PXP_SAN_PATTERN" "$to")"
	done
	while IFS= read -r f; do
		[[ $PXP_SAN_SEEN == *"|$f|"* ]] && continue
		PXP_SAN_SEEN+="|$f|"
		found+="${found:+; }$f: $(grep -m1 -E "$PXP_SAN_PATTERN" "$f")"
	done < <(grep -rlE "$PXP_SAN_PATTERN" "$PXP_TMP" 2>/dev/null)
	[ -n "$found" ] && echo "$found"
}

# end_ns_pids NS...: ends every process left in the namespaces, after a case's graceful
# `down`s: wakes stopped ones, gives a pppoe-xp still on its way out PXP_EXIT_WAIT seconds
# (so that its leak report is written whole), then kill -9, and waits until they are gone:
# kill -9 returns before the process dies, and the next case must not meet a dying one's
# sockets, XDP programs or ports.
end_ns_pids() {
	local ns
	for ns in "$@"; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill -CONT 2>/dev/null
	done
	[ "$PXP_EXIT_WAIT" -gt 0 ] && wait_for "$PXP_EXIT_WAIT" no_pxp_in "$@"
	for ns in "$@"; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null
	done
	wait_for 10 ns_empty "$@"
}

# ns_empty NS...: no process runs in the namespaces (a zombie is no longer listed).
ns_empty() {
	local ns
	for ns in "$@"; do
		[ -z "$(ip netns pids "$ns" 2>/dev/null)" ] || return 1
	done
}

# no_pxp_in NS...: no process of PXP_BIN or PXP_TOOLS runs in the namespaces.
no_pxp_in() {
	local ns pid exe
	for ns in "$@"; do
		for pid in $(ip netns pids "$ns" 2>/dev/null); do
			exe=$(readlink "/proc/$pid/exe" 2>/dev/null) || continue
			[ "$exe" = "$PXP_BIN" ] || [[ $exe == "$PXP_TOOLS"/* ]] && return 1
		done
	done
	return 0
}

# Exit status for the script: call last.
tests_done() {
	return $PXP_FAILED
}

# Polls until a command succeeds or the time runs out. The limit is how long to wait for
# the event, not a bound on how fast it must come: CI is a loaded 2-core machine, so give
# at least 10 s, and assert on speed only where speed is the point (and then well above
# what it guards against, with a comment).
wait_for() {
	local limit=$1 i
	shift
	for ((i = 0; i < limit * 10; i++)); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

# kill -9 returns before the process is gone (here ~27 ms in which its sockets still
# answer), so a restart right after it races the dying daemon. Kills PID and waits until
# it is gone or a zombie (its files are closed by then); fails after 10 s.
kill9_and_wait() {
	kill -9 "$1" 2>/dev/null
	wait_for 10 pid_is_gone "$1"
}

pid_is_gone() {
	[ ! -e "/proc/$1" ] || grep -q '^[0-9]* (.*) Z' "/proc/$1/stat" 2>/dev/null
}

# link_running NS IFACE: the link is up with a carrier (operstate UP), which the kernel's
# linkwatch sets a moment after `ip link set up`; `up` (no --persist) needs it.
link_running() {
	ip -n "$1" link show "$2" 2>/dev/null | grep -q ' state UP '
}

# A suite's cases named on its command line run alone (test_session.sh pap vlan): call
# cases_named "$@" once, then case_ NAME FUNC for each case (NAME is SUITE/CASE).
cases_named() {
	PXP_ONLY=" $* "
}

case_() {
	[ "$PXP_ONLY" = "  " ] || [[ $PXP_ONLY == *" ${1#*/} "* ]] || return 0
	run_test "$1" "$2"
}

# suite_needs SUITE CMD...: ends the suite with a skip when a command is missing, and with
# a failure when pppoe-xp is not built.
# A kernel without XDP sockets (CONFIG_XDP_SOCKETS off, OpenWrt's stock config) for one
# process: `ip netns exec NS env "${PXP_NO_XSKS_ENV[@]}" CMD` (tests/netns/no_xsks.c, built by
# make). ASan (the san tier) must let the library come before its runtime.
PXP_NO_XSKS_SO=${PXP_NO_XSKS_SO:-$PXP_ROOT/build/tests/netns/no_xsks.so}
PXP_NO_XSKS_ENV=(LD_PRELOAD="$PXP_NO_XSKS_SO"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0")
# A kernel that refuses XDP programs bpf_xdp_adjust_meta, the same way (no_xdp_meta.c).
PXP_NO_XDP_META_ENV=(LD_PRELOAD="${PXP_NO_XSKS_SO%/*}/no_xdp_meta.so"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0")

# pid_xskmaps PID: the XSKMAPs of a process, those it holds an fd of and those the BPF
# programs it holds use (bpftool prog show: map_ids; text, not -j: no jq needed). Prints the number of programs seen,
# then the XSKMAP ids: "6" is none, where "0" proves nothing.
pid_xskmaps() {
	local pid=$1 kind id progs=0 maps=() x=()
	while read -r kind id; do
		if [ "$kind" = prog_id: ]; then
			progs=$((progs + 1))
			maps+=($(bpftool prog show id "$id" |
				awk '{ for (i = 1; i < NF; i++) if ($i == "map_ids") print $(i + 1) }' |
				tr , ' '))
		else
			maps+=("$id")
		fi
	done < <(awk '$1 == "prog_id:" || $1 == "map_id:" { print $1, $2 }' /proc/"$pid"/fdinfo/* 2>/dev/null)
	for id in $(printf '%s\n' "${maps[@]}" | sort -un); do
		[ "$(bpftool map show id "$id" | awk 'NR == 1 { print $2 }')" = xskmap ] && x+=("$id")
	done
	echo "$progs ${x[*]}"
}

suite_needs() {
	local suite=$1 missing
	shift
	missing=$(require_cmds "$@") || {
		skip_test "$suite" "missing commands:$missing (make deps installs them)"
		exit 0
	}
	[ -x "$PXP_BIN" ] || {
		echo "FAIL $suite/build: $PXP_BIN is missing (run make)"
		exit 1
	}
}

# Prints the missing command names; succeeds when all are present.
require_cmds() {
	local c missing=
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
	done
	[ -z "$missing" ] || {
		echo "$missing"
		return 1
	}
}

_veth() { # ns_a if_a ns_b if_b
	ip link add "$2" netns "$1" type veth peer name "$4" netns "$3"
	ip -n "$1" link set "$2" up
	ip -n "$3" link set "$4" up
}

# Builds lan - router - isp - net. Mode "plain": routed Ethernet WAN with NAT (the ceiling);
# mode "pppoe": the WAN link carries no addresses, a PPPoE session provides them.
topo_create() {
	local mode=${1:-plain} ns
	for ns in "$NS_LAN" "$NS_ROUTER" "$NS_ISP" "$NS_NET"; do
		ip netns add "$ns" || return 1
		ip -n "$ns" link set lo up
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0
	done
	_veth "$NS_LAN" lan0 "$NS_ROUTER" lan1 &&
		_veth "$NS_ROUTER" wan0 "$NS_ISP" isp0 &&
		_veth "$NS_ISP" isp1 "$NS_NET" net0 || return 1

	ip -n "$NS_LAN" addr add 192.168.100.2/24 dev lan0
	ip -n "$NS_LAN" addr add fd00:100::2/64 dev lan0 nodad
	ip -n "$NS_LAN" route add default via 192.168.100.1
	ip -n "$NS_LAN" -6 route add default via fd00:100::1
	ip -n "$NS_ROUTER" addr add 192.168.100.1/24 dev lan1
	ip -n "$NS_ROUTER" addr add fd00:100::1/64 dev lan1 nodad
	ip -n "$NS_ISP" addr add 198.51.100.1/24 dev isp1
	ip -n "$NS_ISP" addr add 2001:db8:2::1/64 dev isp1 nodad
	ip -n "$NS_NET" addr add 198.51.100.2/24 dev net0
	ip -n "$NS_NET" addr add 2001:db8:2::2/64 dev net0 nodad
	ip -n "$NS_NET" route add default via 198.51.100.1
	ip -n "$NS_NET" -6 route add default via 2001:db8:2::1
	for ns in "$NS_ROUTER" "$NS_ISP"; do
		ip netns exec "$ns" sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
	done
	# A real WAN wire carries MTU-sized frames: no TSO/GSO superpackets on it.
	ip netns exec "$NS_ROUTER" ethtool -K wan0 tso off gso off >/dev/null 2>&1
	ip netns exec "$NS_ISP" ethtool -K isp0 tso off gso off >/dev/null 2>&1

	case $mode in
	plain)
		ip -n "$NS_ROUTER" addr add 100.64.0.1/30 dev wan0
		ip -n "$NS_ISP" addr add 100.64.0.2/30 dev isp0
		ip -n "$NS_ROUTER" route add default via 100.64.0.2
		topo_nat_out wan0
		# No NAT for IPv6: the ISP routes the LAN prefix to the router.
		ip -n "$NS_ROUTER" addr add 2001:db8:1::1/64 dev wan0 nodad
		ip -n "$NS_ISP" addr add 2001:db8:1::2/64 dev isp0 nodad
		ip -n "$NS_ROUTER" -6 route add default via 2001:db8:1::2
		ip -n "$NS_ISP" -6 route add fd00:100::/64 via 2001:db8:1::1
		;;
	pppoe) ;;
	*)
		echo "topo_create: unknown mode '$mode' (plain or pppoe)" >&2
		return 1
		;;
	esac
}

# dhcpcd_pd_start NS WAN LAN DIR [DUID]: Debian's dhcpcd in NS, DHCPv6 only, asking for a
# prefix on WAN and putting a /64 of it on LAN (<prefix>::1). Its files go to DIR, bound
# over its own directories in the mount namespace of ip netns exec, and its hook script does
# nothing, so the host is not touched; noipv6rs leaves the RAs to the kernel. DUID (hex
# with colons) fixes its DUID, for a server that delegates by DUID. DHCPCD_PID is its pid;
# dhcpcd_stop ends it.
DHCPCD_PID=
dhcpcd_pd_start() {
	local ns=$1 wan=$2 lan=$3 d=$4 duid=${5:-}
	mkdir -p "$d/lib"
	[ -z "$duid" ] || echo "$duid" >"$d/lib/duid"
	cat >"$d/dhcpcd.conf" <<-EOC
		ipv6only
		noipv6rs
		script /bin/true
		allowinterfaces $wan $lan
		interface $lan
		  nodhcp6
		interface $wan
		  ia_pd 1 $lan/0/64/1
	EOC
	ip netns exec "$ns" sh -c '
		mount --bind "$1/lib" /var/lib/dhcpcd && mkdir -p /run/dhcpcd &&
		mount -t tmpfs tmpfs /run/dhcpcd && exec dhcpcd -6 -B -d -f "$1/dhcpcd.conf" "$2" "$3"' \
		_ "$d" "$wan" "$lan" >"$d/log" 2>&1 &
	DHCPCD_PID=$!
}

# dhcpcd_stop [SIGNAL]: TERM exits keeping the lease, ALRM sends a Release first.
dhcpcd_stop() {
	[ -n "$DHCPCD_PID" ] || return 0
	kill "-${1:-TERM}" "$DHCPCD_PID" 2>/dev/null
	wait_for 10 pid_is_gone "$DHCPCD_PID" || kill9_and_wait "$DHCPCD_PID"
	wait "$DHCPCD_PID" 2>/dev/null
	DHCPCD_PID=
}

# Masquerades what the router sends out of IFNAME, as a home router does on its WAN netdev.
topo_nat_out() {
	ip netns exec "$NS_ROUTER" nft -f - <<-EOF
		table ip pxp_nat {
			chain post {
				type nat hook postrouting priority srcnat; policy accept;
				oifname "$1" masquerade
			}
		}
	EOF
}

# Starts an iperf3 server in NS (one-off servers are cheap and avoid port clashes).
iperf_server() {
	local ns=$1 port=${2:-5201}
	ip netns exec "$ns" iperf3 -s -D -1 -p "$port" --logfile "$PXP_TMP/iperf-$ns-$port.log" || return 1
	wait_listening "$ns" "$port"
}

# wait_listening NS PORT: until a TCP socket listens on PORT in NS.
wait_listening() {
	wait_for 10 ip netns exec "$1" sh -c "ss -ltn | grep -q ':$2 '"
}

# capture_start NS OUT TCPDUMP_ARGS...: tcpdump in NS in the background (CAPTURE_PID), its
# text in OUT, ended after 30 s at the latest (give it -c). Returns once tcpdump says it
# listens, so that a frame sent next is seen; a fixed sleep is a race on a loaded machine.
capture_start() {
	local ns=$1 out=$2
	shift 2
	rm -f "$out.err"
	ip netns exec "$ns" timeout 30 tcpdump -l "$@" >"$out" 2>"$out.err" &
	CAPTURE_PID=$!
	wait_for 10 grep -q "listening on" "$out.err" ||
		fail "tcpdump $* did not start: $(cat "$out.err")"
}

# iperf_tcp NS_CLIENT NS_SERVER SERVER_IP [SECONDS] [extra iperf3 args...]: prints Mbit/s.
iperf_tcp() {
	local nsc=$1 nss=$2 ip=$3 secs=${4:-3} json
	shift 4 2>/dev/null || shift $#
	iperf_server "$nss" 5201 || return 1
	json=$(ip netns exec "$nsc" iperf3 -c "$ip" -t "$secs" -J "$@" 2>/dev/null) || return 1
	# jq, not python3: its start-up alone is 0.4 s on a loaded machine, and this runs often.
	jq '.end.sum_received.bits_per_second / 1e6 | round' <<<"$json"
}
