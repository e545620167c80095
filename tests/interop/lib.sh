# shellcheck shell=bash
# Shell API for interop tests and the benchmark: a qemu guest running
# Debian's own kernel PPPoE (rp-pppoe + pppd). Source this file (bash).
#
#   guest_build                        build or reuse the cached image; prints its dir
#   guest_start NAME NETNS TAP [SHARE] boot guest NAME; its eth0 is tap TAP in host
#                                      netns NETNS (created if missing); SHARE is a
#                                      host dir mounted at /host in the guest (9p)
#   guest_exec NAME CMD [TIMEOUT]      run shell CMD in the guest; prints its output
#                                      (stdout+stderr), returns its exit status
#   guest_stop NAME                    power off, remove the tap (and the netns if
#                                      guest_start created it); safe to call twice
#   guest_console NAME [LINES]         tail of the guest's console log
#   guest_last_words NAME              why a dead guest died: console, qemu stderr, resets
#   guest_suite NAME CASE...           the start of a suite that boots one guest itself
#   guest_suite_boot NETNS TAP SHARE   that suite's boot, its first case
#   guest_pxp_pair_script T U NSA NSB NET  a guest script: a pppoe-xp AC and client (/host's)
#                                      across the in-guest veth vA-vB, their statuses saved
#
# Guest-side commands (in the image's PATH): pxp-ac, pxp-pppd-client; see tests/interop/guest/README.md.
# Environment: PXG_RUN_DIR (/run/pxg), PXG_BOOT_TIMEOUT (120 s),
# PXG_EXEC_TIMEOUT (60 s), PXG_CACHE_DIR (/var/cache/pppoe-xp), PXG_SMP,
# PXG_MEM_MB, PXG_KERNEL (the guest's Debian kernel series: 6.1, the default, or 6.12),
# PXG_ARCH (the guest's architecture: amd64, the default, or arm64 under qemu-system-aarch64).

PXG_INTEROP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PXG_GUEST_DIR=$PXG_INTEROP_DIR/guest
PXG_RUN_DIR=${PXG_RUN_DIR:-/run/pxg}

# The last error also stays in PXG_ERROR, for a FAIL line to name.
pxg_err() {
	PXG_ERROR=$*
	echo "pxg: $*" >&2
}

guest_build() {
	"$PXG_GUEST_DIR/build-image.sh"
}

# Deterministic, locally administered MAC per guest name.
pxg_mac_for() {
	local h
	h=$(printf '%s' "$1" | sha256sum | cut -c1-6)
	echo "52:54:00:${h:0:2}:${h:2:2}:${h:4:2}"
}

# pxg_nic_mac PAIR SIDE: the MAC of side SIDE (1 or 2) of NIC pair PAIR, as launch.sh makes it.
pxg_nic_mac() { printf '52:54:00:7e:%02x:%02x' "$1" "$2"; }

# guest_nic_pair_script PAIR NS1 IF1 NS2 IF2: guest sh lines that move NIC pair PAIR
# (launch.sh PXG_NIC_PAIRS) into NS1 as IF1 (side 1) and NS2 as IF2 (side 2), bring both up
# and wait (10 s at most) for their carrier: an emulated e1000e reports it a moment after it
# is up. Exit 1, saying what is missing, if a NIC or the carrier is not there; nothing
# after success, so the lines fit inside a longer script.
guest_nic_pair_script() {
	local pair=$1 ns1=$2 if1=$3 ns2=$4 if2=$5
	cat <<-EOF
		nic_named() {
			for d in /sys/class/net/*; do
				[ "\$(cat \$d/address)" = "\$1" ] && { echo \${d##*/}; return 0; }
			done
			echo "no NIC with MAC \$1 (is qemu's NIC pair $pair there?)" >&2; return 1
		}
		dev=\$(nic_named $(pxg_nic_mac "$pair" 1)) || exit 1
		ip link set "\$dev" netns $ns1 && ip -n $ns1 link set "\$dev" name $if1 || exit 1
		dev=\$(nic_named $(pxg_nic_mac "$pair" 2)) || exit 1
		ip link set "\$dev" netns $ns2 && ip -n $ns2 link set "\$dev" name $if2 || exit 1
		ip -n $ns1 link set $if1 up && ip -n $ns2 link set $if2 up || exit 1
		for i in \$(seq 50); do
			ip -n $ns1 link show $if1 | grep -q LOWER_UP &&
				ip -n $ns2 link show $if2 | grep -q LOWER_UP && break
			sleep 0.2
		done
		ip -n $ns1 link show $if1 | grep -q LOWER_UP && ip -n $ns2 link show $if2 | grep -q LOWER_UP ||
			{ echo "no carrier on NIC pair $pair" >&2; exit 1; }
	EOF
}

pxg_qemu_pid() {
	local f="$PXG_RUN_DIR/$1/qemu.pid"
	[ -s "$f" ] && cat "$f"
}

guest_start() {
	local name=$1 netns=$2 tap=$3 share=${4:-}
	local state="$PXG_RUN_DIR/$name" image pid build_log rc why
	if [ $# -lt 3 ]; then
		pxg_err "usage: guest_start NAME NETNS TAP [SHARE_DIR]"
		return 2
	fi
	if [ ${#tap} -gt 15 ]; then
		pxg_err "tap name '$tap' is longer than 15 characters"
		return 2
	fi
	if [ -d "$state" ]; then
		pid=$(pxg_qemu_pid "$name")
		if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
			pxg_err "guest $name is running (qemu pid $pid); guest_stop it first"
			return 1
		fi
		# Left over by a run that died without its trap.
		guest_stop "$name"
	fi
	local qemu=qemu-system-x86_64 qemu_pkg=qemu-system-x86
	[ "${PXG_ARCH:-amd64}" = arm64 ] && qemu=qemu-system-aarch64 qemu_pkg=qemu-system-arm
	command -v "$qemu" >/dev/null || {
		pxg_err "$qemu is not installed (apt-get install $qemu_pkg)"
		return 1
	}
	# build-image.sh's progress stays live on stderr; its error line names the cause here.
	build_log=$(mktemp)
	image=$({
		guest_build 2>&1 >&3 | tee "$build_log" >&2
		exit "${PIPESTATUS[0]}"
	} 3>&1)
	rc=$?
	why=$(sed -n 's/^build-image: error: //p' "$build_log" | tail -n 1)
	rm -f "$build_log"
	[ "$rc" = 0 ] || {
		pxg_err "image build failed: ${why:-build-image.sh exited $rc with no error line}"
		return 1
	}
	mkdir -p "$state"
	echo "$netns" >"$state/netns"
	echo "$tap" >"$state/tap"
	if ! ip netns list | awk '{ print $1 }' | grep -qx -- "$netns"; then
		ip netns add "$netns" || {
			guest_stop "$name"
			return 1
		}
		touch "$state/netns.created"
	fi
	if ! ip -n "$netns" tuntap add dev "$tap" mode tap ||
		! ip -n "$netns" link set "$tap" up; then
		pxg_err "cannot create tap $tap in netns $netns"
		guest_stop "$name"
		return 1
	fi
	touch "$state/tap.created"
	if ! ip netns exec "$netns" "$PXG_GUEST_DIR/launch.sh" "$image" "$state" \
		"$tap" "$(pxg_mac_for "$name")" ${share:+"$share"} >"$state/qemu.out" 2>&1; then
		pxg_err "qemu failed to start: $(cat "$state/qemu.out")"
		guest_stop "$name"
		return 1
	fi
	pid=$(pxg_qemu_pid "$name")
	# The first request waits in the socket until the guest's loop reads it.
	if ! python3 "$PXG_GUEST_DIR/guest-ctl.py" "$state/ctl.sock" \
		"${PXG_BOOT_TIMEOUT:-120}" true --pid "$pid" >/dev/null; then
		pxg_err "guest $name did not answer within ${PXG_BOOT_TIMEOUT:-120} s; console tail:"
		tail -n 30 "$state/console.log" >&2 2>/dev/null
		guest_stop "$name"
		return 1
	fi
}

# guest_pxp_pair_script TAG USER NS_AC NS_CLIENT NET [DATA PATH OPTIONS]: the guest script
# that starts /host/pppoe-xp as the AC on vA in NS_AC (NET.1, pool NET.0/30, CHAP for USER;
# secrets /tmp/TAG-secrets, run dir /tmp/TAG-runA) and as the client on vB in NS_CLIENT
# (password /tmp/TAG-pass, run dir /tmp/TAG-runB), both with the options given; pings NET.1
# and saves both statuses (/tmp/TAG-ac.status, /tmp/TAG-client.status). Exit 1 if up failed
# (the logs' tails printed), 2 if no ping got through. PXG_PXP_ENV: VAR=value words both
# daemons start with (an LD_PRELOAD library under /host).
guest_pxp_pair_script() {
	local tag=$1 user=$2 nsa=$3 nsb=$4 net=$5
	shift 5
	cat <<-EOF
		grep -q ' /sys/fs/bpf bpf ' /proc/mounts || mount -t bpf bpf /sys/fs/bpf
		printf '$user * pw-$tag-$$ *\n' >/tmp/$tag-secrets && chmod 600 /tmp/$tag-secrets
		printf 'pw-$tag-$$\n' >/tmp/$tag-pass && chmod 600 /tmp/$tag-pass
		mkdir -p /tmp/$tag-runA /tmp/$tag-runB
		(${PXG_PXP_ENV:+$PXG_PXP_ENV }PPPOE_XP_RUN_DIR=/tmp/$tag-runA ip netns exec $nsa /host/pppoe-xp server vA \\
			--local $net.1 --pool $net.0/30 --auth chap --secrets /tmp/$tag-secrets $* \\
			--foreground >/tmp/$tag-server.log 2>&1 </dev/null &)
		sleep 1
		${PXG_PXP_ENV:+$PXG_PXP_ENV }PPPOE_XP_RUN_DIR=/tmp/$tag-runB ip netns exec $nsb /host/pppoe-xp up vB --user $user \\
			--password-file /tmp/$tag-pass $* >/tmp/$tag-client.log 2>&1 ||
			{ tail -n 3 /tmp/$tag-client.log /tmp/$tag-server.log; exit 1; }
		ip netns exec $nsb ping -c 3 -W 3 $net.1 >/dev/null || exit 2
		PPPOE_XP_RUN_DIR=/tmp/$tag-runA ip netns exec $nsa /host/pppoe-xp status vA >/tmp/$tag-ac.status
		PPPOE_XP_RUN_DIR=/tmp/$tag-runB ip netns exec $nsb /host/pppoe-xp status vB >/tmp/$tag-client.status
	EOF
}

# guest_pxp_auto_case CASE GUEST TAG USER NET WANT CLIENT_RES AC_RES: a pppoe-xp server and
# client with no data path options (--mode auto) in GUEST's namespaces TAG"A" and TAG"B"
# (guest_pxp_pair_script), passing when the client's status matches every line of
# CLIENT_RES and the AC's every line of AC_RES (grep patterns, no single quotes); WANT says
# in a failure which row of the auto table was expected.
guest_pxp_auto_case() {
	local case=$1 name=$2 tag=$3 user=$4 net=$5 want=$6 out
	out=$(guest_exec "$name" "$(guest_pxp_pair_script "$tag" "$user" "${tag}A" "${tag}B" "$net")
		$(guest_status_check "/tmp/$tag-client.status" 3 "$7" '^  (mode|mode_reason|halves|netdev_kind):')
		$(guest_status_check "/tmp/$tag-ac.status" 4 "$8" '^(datapath_|netdev_kind)')
		PPPOE_XP_RUN_DIR=/tmp/$tag-runB ip netns exec ${tag}B /host/pppoe-xp down vB
		PPPOE_XP_RUN_DIR=/tmp/$tag-runA ip netns exec ${tag}A /host/pppoe-xp down vA
		exit 0" 150)
	case $? in
	0) pass "$case" ;;
	1) fail "$case" "pppoe-xp up failed in the guest: $out" ;;
	2) fail "$case" "no ping across the pppoe-xp session" ;;
	3) fail "$case" "the client's --mode auto is not $want: $out" ;;
	4) fail "$case" "the AC's --mode auto is not $want: $out" ;;
	*) fail "$case" "guest_exec failed: $out" ;;
	esac
}

# guest_status_check FILE CODE PATTERNS SHOW: guest shell lines that exit CODE, printing
# FILE's lines matching SHOW, unless FILE matches every line of PATTERNS.
guest_status_check() {
	local re
	while IFS= read -r re; do
		[ -n "$re" ] && printf "grep -q -- '%s' %s || { grep -E '%s' %s; exit %s; }\n" \
			"$re" "$1" "$4" "$1" "$2"
	done <<<"$3"
}

guest_exec() {
	local name=$1 cmd=$2 timeout=${3:-${PXG_EXEC_TIMEOUT:-60}}
	local state="$PXG_RUN_DIR/$name" pid
	pid=$(pxg_qemu_pid "$name") || {
		pxg_err "guest $name is not running: $(guest_last_words "$name")"
		return 125
	}
	# One request at a time per guest: the guest serves them in order anyway,
	# the lock keeps replies from interleaving on the socket.
	flock "$state/ctl.lock" python3 "$PXG_GUEST_DIR/guest-ctl.py" \
		"$state/ctl.sock" "$timeout" "$cmd" --pid "$pid"
}

# Why a guest died, in one line: a panic reboots and -no-reboot ends qemu, a triple fault
# shows as a CPU reset in qemu.log, a qemu crash in qemu.err. The state directory with
# these files goes at cleanup, so callers quote this line.
guest_last_words() { # NAME
	local state="$PXG_RUN_DIR/$1" resets
	# Each CPU logs one reset at power-on; more mean the guest reset itself.
	resets=$(grep -c '^CPU Reset' "$state/qemu.log" 2>/dev/null)
	echo "console ended: $(tail -n 4 "$state/console.log" 2>/dev/null | tr '\n' '|')" \
		"qemu stderr: $(tail -n 3 "$state/qemu.err" 2>/dev/null | tr '\n' '|')" \
		"CPU resets logged: ${resets:-none} (${PXG_SMP:-2} at power-on)"
}

guest_console() {
	tail -n "${2:-40}" "$PXG_RUN_DIR/$1/console.log"
}

# Pings through a session both ways, and at its full MTU (1492) from the host with DF set,
# so that no fragment hides a loss. fail()s with the last lines of the ping that failed.
pings_through_session() { # NS GUEST GUEST_SIDE_IP HOST_SIDE_IP
	local ns=$1 guest=$2 to_guest=$3 to_host=$4 out
	out=$(in_ns "$ns" ping -c 3 -i 0.3 -W 3 "$to_guest" 2>&1) ||
		fail "host -> guest through the session: $(echo "$out" | tail -2 | tr '\n' '|')" ||
		return 1
	out=$(guest_exec "$guest" "ping -c 3 -W 3 $to_host" 2>&1) ||
		fail "guest -> host through the session: $(echo "$out" | tail -2 | tr '\n' '|')" ||
		return 1
	# 1464 + 28 = 1492 bytes of IP.
	out=$(in_ns "$ns" ping -c 3 -i 0.3 -W 3 -s 1464 -M "do" "$to_guest" 2>&1) ||
		fail "full-MTU (1492) ping host -> guest: $(echo "$out" | tail -2 | tr '\n' '|')"
}

# Put first in a guest script that starts a server: guest_wait_listening NS PORT waits (10 s
# at most) until a TCP socket listens on PORT in namespace NS ("" for the guest's own). The
# image has no ss, and iperf3 -s -D returns before its child listens: a fixed sleep loses
# that race under TCG on a loaded host.
GUEST_WAIT_LISTENING=$(
	cat <<-'EOF'
		guest_wait_listening() {
			local i p
			p=$(printf ':%04X' "$2")
			for i in $(seq 50); do
				${1:+ip netns exec "$1"} cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
					awk -v p="$p" '$2 ~ p "$" && $4 == "0A" { f = 1 } END { exit !f }' &&
					return 0
				sleep 0.2
			done
			return 1
		}
	EOF
)

# Kills what a case left running in NS: only our own programs, since the guest's qemu lives
# in that namespace too. Returns once they are gone (kill -9 returns before a process dies:
# the next case's iperf3 -s or pppoe-xp would meet the dying one's port or sockets). Needs
# tests/netns/lib.sh (wait_for, pid_is_gone), as its callers source.
kill_test_programs() { # NS
	local pid killed=()
	for pid in $(ip netns pids "$1" 2>/dev/null); do
		case $(cat "/proc/$pid/comm" 2>/dev/null) in
		pppoe-xp | iperf3 | tcpdump | python3 | dhcpcd) kill -9 "$pid" 2>/dev/null && killed+=("$pid") ;;
		esac
	done
	for pid in "${killed[@]}"; do
		wait_for 10 pid_is_gone "$pid"
	done
}

# Captures discovery and session frames on TAP into PCAP, in the background.
pppoe_capture_start() { # NS TAP PCAP
	ip netns exec "$1" tcpdump -i "$2" -nn --immediate-mode -U -w "$3" \
		'ether proto 0x8863 or ether proto 0x8864' >/dev/null 2>&1 &
	PXG_CAPTURE_PID=$!
	sleep 1
}

pppoe_capture_stop() {
	sleep 0.5
	kill "$PXG_CAPTURE_PID" 2>/dev/null
	wait "$PXG_CAPTURE_PID" 2>/dev/null
	return 0
}

# When each step of discovery and negotiation happened, from one such capture.
print_setup_breakdown() { # PCAP OUR_MAC
	tcpdump -r "$1" -nn -tt -e 2>/dev/null | awk -v us="$2" -f "$PXG_INTEROP_DIR/setup_breakdown.awk"
}

median_of() { # NUMBER...
	printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"
}

# What every guest suite starts with: namespace NS with the guest booted on tap TAP in it,
# stopped at cleanup. When that fails it prints the suite's FAIL line and exits.
guest_boot_in_netns() { # SUITE NS GUEST TAP
	local suite=$1 ns=$2 guest=$3 tap=$4 start
	ip netns add "$ns" && ip -n "$ns" link set lo up || {
		echo "FAIL interop/$suite/topology: cannot create namespace $ns"
		exit 1
	}
	on_cleanup "guest_stop $guest"
	start=$(date +%s)
	guest_start "$guest" "$ns" "$tap" >"$PXP_TMP/boot.out" 2>&1 || {
		echo "FAIL interop/$suite/boot: the guest did not boot: $(tail -5 "$PXP_TMP/boot.out" | tr '\n' '|')"
		exit 1
	}
	echo "# guest booted in $(($(date +%s) - start)) s"
}

# A suite that boots its own guest, outside tests/netns/lib.sh (test_guest_kernel.sh,
# test_guest_612.sh), starts with guest_suite NAME CASE... (the first case the boot):
# tests/lib/report.sh's pass, fail and skip; GUEST_SUITE_TMP, a directory; at exit the guest
# NAME stopped and GUEST_SUITE_TMP removed; without root or the tools a guest needs every
# case skipped and exit 0. guest_suite_skip_all WHY does that for a suite's own needs.
guest_suite() { # NAME CASE...
	local tool
	GUEST_SUITE_NAME=$1
	shift
	GUEST_SUITE_CASES=("$@")
	# shellcheck source=tests/lib/report.sh
	. "$PXG_INTEROP_DIR/../lib/report.sh"
	GUEST_SUITE_TMP=$(mktemp -d /tmp/pxg-suite.XXXXXX)
	trap guest_suite_cleanup EXIT
	[ "$(id -u)" = 0 ] || guest_suite_skip_all "needs root"
	for tool in qemu-system-x86_64 python3 ip apt-get dpkg-deb cpio; do
		command -v "$tool" >/dev/null || guest_suite_skip_all "$tool not installed"
	done
}

# shellcheck disable=SC2317 # called by the EXIT trap
guest_suite_cleanup() {
	# A subshell can run the inherited trap too (tests/netns/lib.sh): only this shell stops.
	[ "$BASHPID" = "$$" ] || return 0
	guest_stop "$GUEST_SUITE_NAME"
	rm -rf "$GUEST_SUITE_TMP"
}

guest_suite_skip_all() { # WHY
	local c
	for c in "${GUEST_SUITE_CASES[@]}"; do skip "$c" "$1"; done
	exit 0
}

# Boots the suite's guest on tap TAP in netns NETNS with SHARE at /host: its first case
# passes, or fails with the rest skipped and exit 1.
guest_suite_boot() { # NETNS TAP SHARE
	local c
	if ! guest_start "$GUEST_SUITE_NAME" "$1" "$2" "$3"; then
		fail "${GUEST_SUITE_CASES[0]}" "the guest did not come up: ${PXG_ERROR:-see stderr}"
		for c in "${GUEST_SUITE_CASES[@]:1}"; do skip "$c" "no guest"; done
		exit 1
	fi
	pass "${GUEST_SUITE_CASES[0]}"
}

guest_stop() {
	local name=$1 state="$PXG_RUN_DIR/$1" pid netns tap
	[ -d "$state" ] || return 0
	pid=$(pxg_qemu_pid "$name")
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		# The guest holds nothing on disk: SIGTERM is a clean power-off.
		kill -TERM "$pid" 2>/dev/null
		for _ in $(seq 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$pid" 2>/dev/null
	fi
	netns=$(cat "$state/netns" 2>/dev/null)
	tap=$(cat "$state/tap" 2>/dev/null)
	if [ -e "$state/tap.created" ]; then
		ip -n "$netns" link del "$tap" 2>/dev/null
	fi
	if [ -e "$state/netns.created" ]; then
		ip netns del "$netns" 2>/dev/null
	fi
	rm -rf "$state"
	return 0
}
