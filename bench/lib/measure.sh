# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Measurements on one case, the same for the host kernel and the qemu guest. A case is a
# lan - router - isp - net topology of namespaces named ${CASE_PREFIX[KEY]}{lan,router,isp,net}
# in its environment (KEY = "ENV/NAME", bench/cases; the host and wg environments are both
# the host kernel's namespaces, guest the qemu guest's). Every measurement is one shell
# script run inside the lan namespace; it prints sections (===CPU0===, ===OUT===, ===CPU1===,
# ===PING===) that the host splits and hands to row.py. So the guest needs only sh, iperf3,
# ping and /proc/stat, and both environments are measured by the same lines.
#
#   SPEC: tcp:upload|download:STREAMS  udp:upload|download:64|mtu  ping:idle  warmup

declare -A CASE_ENV CASE_STATUS CASE_REASON CASE_PREFIX CASE_MTU TCP_SECONDS UDP_SECONDS
# Seconds a measurement costs beyond its own length (iperf3 set-up; in the guest, TCG).
declare -A MEASURE_OVERHEAD=([host]=2 [wg]=2 [guest]=6)
NET_IP=198.51.100.2

# x_sh KEY ROLE SECONDS SCRIPT: runs SCRIPT with sh inside the case's namespace ROLE.
x_sh() {
	local key=$1 ns=${CASE_PREFIX[$1]}$2 limit=$3 script=$4
	if [ "${CASE_ENV[$key]}" != guest ]; then
		timeout --kill-after=5 "$limit" ip netns exec "$ns" sh -c "$script"
	else
		guest_exec "$GUEST_NAME" "echo $(printf '%s' "$script" | base64 -w0) | base64 -d |
			ip netns exec $ns sh" "$limit"
	fi
}

case_unavailable() {
	CASE_STATUS[$1]=unavailable
	CASE_REASON[$1]=$2
	echo "unavailable: $2"
}

# section NAME FILE: the lines of one section of a measurement's output.
section() {
	awk -v want="$1" '/^===[A-Z0-9]+===$/ { cur = substr($0, 4, length($0) - 6); next }
		cur == want' "$2"
}

# measure KEY SPEC ROUND: one measurement, one row (and a second one, ping under load, for
# TCP download with one stream).
measure() {
	local key=$1 spec=$2 round=$3 env=${1%%/*} c=${1#*/} kind dir arg secs rev='' body
	local t=/tmp/pxb$$-m out
	local -a params
	IFS=: read -r kind dir arg <<<"$spec"
	params=("env=$env" "case=$c" "test=$kind" "round=$round")
	case $kind in
	tcp) params+=("direction=$dir" "streams=$arg") ;;
	udp) params+=("direction=$dir" "ip_bytes_spec=$arg") ;;
	ping) params+=("load=$dir") ;;
	esac
	[ "$dir" = download ] && rev=-R
	out=$PXP_TMP/m.$BENCH_STEP

	if [ "${CASE_STATUS[$key]}" != ok ]; then
		progress "$key: $spec"
		if [ "$kind" = warmup ]; then
			echo "skipped"
			return
		fi
		echo "unavailable"
		bench_unavailable "${CASE_REASON[$key]}" "${params[@]}"
		if [ "$spec" = tcp:download:1 ]; then
			progress "$key: ping under load"
			echo "unavailable"
			bench_unavailable "${CASE_REASON[$key]}" "env=$env" "case=$c" test=ping \
				load=tcp-download-1 "round=$round"
		fi
		return
	fi

	case $kind in
	warmup)
		progress "$key: warm-up (discarded)"
		x_sh "$key" lan 60 "iperf3 -c $NET_IP -t 2 -J >/dev/null 2>&1"
		echo "done"
		return
		;;
	tcp)
		secs=${TCP_SECONDS[$env]}
		progress "$key: tcp $dir, $arg stream(s), ${secs}s"
		body="iperf3 -c $NET_IP -t $secs -P $arg -J $rev"
		if [ "$spec" = tcp:download:1 ]; then
			# Ping under load: 30 packets spread over the transfer.
			body="(sleep 0.5; ping -c 30 -i $(awk "BEGIN { printf \"%.3f\", ($secs - 1) / 30 }") \
				-W 2 $NET_IP >$t.ping 2>&1) & $body; wait"
		fi
		params+=("duration_s=$secs")
		;;
	udp)
		secs=${UDP_SECONDS[$env]}
		local ip_bytes=$arg
		[ "$arg" = mtu ] && ip_bytes=${CASE_MTU[$key]}
		progress "$key: udp $dir, ${ip_bytes}-byte packets, ${secs}s"
		body="iperf3 -c $NET_IP -u -b 0 -l $((ip_bytes - 28)) -t $secs -J $rev"
		params+=("ip_bytes=$ip_bytes" "duration_s=$secs")
		;;
	ping)
		secs=3
		progress "$key: ping idle, 30 packets"
		body="ping -c 30 -i 0.05 -W 2 $NET_IP"
		;;
	esac
	x_sh "$key" lan $((secs * 4 + 60)) "grep '^cpu' /proc/stat >$t.c0
		{ $body; } >$t.out 2>$t.err
		grep '^cpu' /proc/stat >$t.c1
		echo ===CPU0===; cat $t.c0; echo ===OUT===; cat $t.out; echo ===CPU1===; cat $t.c1
		echo ===PING===; cat $t.ping 2>/dev/null; echo ===ERR===; cat $t.err
		rm -f $t.c0 $t.c1 $t.out $t.err $t.ping" >"$out" 2>&1
	section CPU0 "$out" >"$out.c0"
	section OUT "$out" >"$out.out"
	section CPU1 "$out" >"$out.c1"
	section PING "$out" >"$out.ping"
	# A failed measurement of a case whose path is a PPP session: was the session gone?
	local cause=
	if [ "$env" = guest ] && grep -qE '"error"|unreachable| 0 packets received' \
		"$out.out" "$out.ping"; then
		cause=$(guest_session_cause "$key")
	fi
	if [ "$kind" = ping ]; then
		bench_row "${params[@]}" --ping "$out.out" --cpu "$out.c0" "$out.c1" --cause "$cause"
	else
		bench_row "${params[@]}" --iperf "$out.out" --cpu "$out.c0" "$out.c1" --cause "$cause"
	fi
	if [ "$spec" = tcp:download:1 ]; then
		progress "$key: ping under load (tcp download, 1 stream)"
		bench_row "env=$env" "case=$c" test=ping load=tcp-download-1 "round=$round" \
			--ping "$out.ping" --cause "$cause"
	fi
}

# Memory of the processes a case names in bench/cases (pppoe-xp, or a VPN's tunnel process):
# their RSS, the BPF maps they hold (memlock from fdinfo, each map once), and the UMEM
# `pppoe-xp status --json` reports at the router.
measure_memory() {
	local key=$1 env=${1%%/*} c=${1#*/} role out=$PXP_TMP/mem.$BENCH_STEP procs comm arg
	local -a fields
	progress "$key: memory"
	procs=$(bench_case_memory "$key")
	if [ "${CASE_STATUS[$key]}" != ok ]; then
		echo "unavailable"
		bench_unavailable "${CASE_REASON[$key]}" "env=$env" "case=$c" test=memory \
			"rss_of=$procs"
		return
	fi
	comm=${procs%%:*} arg=
	[ "$comm" = "$procs" ] || arg=${procs#*:}
	for role in router isp; do
		# Shell builtins only: in the guest every process start costs most of a second. A
		# NAME:ARG process is told from NAME's others by its first argument (tr and sed: the
		# one exception, for NAME's processes alone).
		x_sh "$key" "$role" 60 "rss=0 maps=0 n=0 max=0 seen=' '
			for pid in \$(ip netns pids ${CASE_PREFIX[$key]}$role); do
				read -r comm </proc/\$pid/comm || continue
				[ \"\$comm\" = $comm ] || continue
				if [ -n '$arg' ]; then
					[ \"\$(tr '\\0' '\\n' </proc/\$pid/cmdline | sed -n 2p)\" = '$arg' ] || continue
				fi
				n=\$((n + 1))
				while read -r k v _; do
					[ \"\$k\" = VmRSS: ] || continue
					rss=\$((rss + v))
					[ \$v -gt \$max ] && max=\$v
				done </proc/\$pid/status
				for info in /proc/\$pid/fdinfo/*; do
					id= mem= type=
					while read -r k v _; do
						case \$k in
						map_id:) id=\$v ;;
						memlock:) mem=\$v ;;
						map_type:) type=\$v ;;
						esac
					done <\$info 2>/dev/null
					[ -n \"\$type\" ] && [ -n \"\$mem\" ] || continue
					case \"\$seen\" in *\" \$id \"*) continue ;; esac
					seen=\"\$seen\$id \"
					maps=\$((maps + mem))
				done
			done
			# None here (the kernel AC of the mixed case): nothing to report.
			[ \$n -gt 0 ] && echo rss_kb=\$rss rss_max_kb=\$max processes=\$n bpf_map_bytes=\$maps" \
			>"$out.$role" 2>/dev/null
		local f
		for f in rss_kb rss_max_kb processes bpf_map_bytes; do
			fields+=("${role}_$(grep -o "\\b$f=[0-9]*" "$out.$role" || echo "$f=null")")
		done
	done
	fields+=("rss_of=$procs")
	# Only pppoe-xp has a status to ask.
	[ "$comm" = pppoe-xp ] &&
		x_sh "$key" router 30 "$(pxp_cmd "$key" router status --json)" >"$out.status" 2>/dev/null
	fields+=("router_umem_bytes:=$("$BENCH_PYTHON" -c '
import json, sys
# Every numeric field named like "umem...bytes", wherever it sits; null when there is none.
def walk(v, key=""):
    if isinstance(v, dict):
        return [n for k, x in v.items() for n in walk(x, k)]
    if isinstance(v, list):
        return [n for x in v for n in walk(x, key)]
    if isinstance(v, (int, float)) and "umem" in key.lower() and "bytes" in key.lower():
        return [v]
    return []
try:
    found = walk(json.load(open(sys.argv[1])))
    print(json.dumps(sum(found) if found else None))
except (OSError, ValueError):
    print("null")' "$out.status")")
	# What the router's data path is (--mode auto picks it per WAN driver): the halves and
	# the session netdev.
	fields+=("router_data_path=$("$BENCH_PYTHON" -c '
import json, sys
try:
    status = json.load(open(sys.argv[1]))
    # status with no interface lists every instance; the router runs one.
    dp = (status[0] if isinstance(status, list) else status).get("datapath") or {}
    print("%s; netdev %s" % (dp.get("halves"), dp.get("netdev_kind")) if dp.get("halves") else "")
except (OSError, ValueError, AttributeError, IndexError):
    print("")' "$out.status" 2>/dev/null)")
	bench_row "env=$env" "case=$c" test=memory "${fields[@]}"
}

# pxp_cmd KEY ROLE ARGS...: a shell line running pppoe-xp with bpffs mounted and the case's
# own run directory (two routers called wan0 in two cases must not share a control socket).
pxp_cmd() {
	local key=$1 role=$2 run bin
	shift 2
	if [ "${CASE_ENV[$key]}" != guest ]; then
		run=$PXP_TMP/run-${CASE_PREFIX[$key]}$role bin=$PXP_BIN
	else
		run=/tmp/run-${CASE_PREFIX[$key]}$role bin=/host/pppoe-xp
	fi
	# The state dir (the WireGuard handshake stamps) beside the run dir, not the machine's.
	# /proc/mounts, not mountpoint(1): the guest has none, and its "not found" on stderr
	# would spoil the output the caller reads (status --json).
	printf 'grep -q " /sys/fs/bpf bpf " /proc/mounts || mount -t bpf bpf /sys/fs/bpf; mkdir -p %s && PPPOE_XP_RUN_DIR=%s PPPOE_XP_STATE_DIR=%s exec %s' \
		"$run" "$run" "$run/state" "$bin"
	printf ' %q' "$@"
}

# bench_specs ENV: the measurement list of one round. The guest (TCG: slow to set up and to
# measure) always gets the short list, so that a full run stays under 20 minutes.
bench_specs() {
	if [ "$1" = wg ]; then
		# The VPN rows: TCP and ping (issue 15); the smoke's quick run one stream each way.
		if [ "$BENCH_MODE" = full ]; then
			echo tcp:upload:1 tcp:download:1 tcp:upload:2 tcp:download:2 ping:idle
		else
			echo tcp:upload:1 tcp:download:1 ping:idle
		fi
	elif [ "$BENCH_MODE" = full ] && [ "$1" = host ]; then
		echo tcp:upload:1 tcp:download:1 tcp:upload:2 tcp:download:2 tcp:upload:4 \
			tcp:download:4 udp:upload:64 udp:download:64 udp:upload:mtu udp:download:mtu \
			ping:idle
	else
		echo tcp:upload:1 tcp:download:1 tcp:download:4 udp:upload:64 udp:upload:mtu ping:idle
	fi
}

# bench_round_seconds ENV: seconds one round of one case takes.
bench_round_seconds() {
	local s total=0
	for s in $(bench_specs "$1"); do
		case $s in
		tcp:*) total=$((total + ${TCP_SECONDS[$1]} + ${MEASURE_OVERHEAD[$1]})) ;;
		udp:*) total=$((total + ${UDP_SECONDS[$1]} + ${MEASURE_OVERHEAD[$1]})) ;;
		ping:*) total=$((total + 3 + ${MEASURE_OVERHEAD[$1]})) ;;
		esac
	done
	echo "$total"
}

# measure_matrix KEY...: a warm-up per case (unless --no-warmup), then every spec on every
# case, interleaved
# (A B C D, then D C B A, ...), BENCH_ROUNDS times; memory last, of the cases that have a
# memory row (bench/cases).
measure_matrix() {
	local -a keys=("$@") specs order
	local round i j
	read -r -a specs <<<"$(bench_specs "${keys[0]%%/*}")"
	if [ "$BENCH_WARMUP" = 1 ]; then
		for key in "${keys[@]}"; do
			measure "$key" warmup 0
		done
	fi
	for ((round = 1; round <= BENCH_ROUNDS; round++)); do
		for ((i = 0; i < ${#specs[@]}; i++)); do
			order=()
			if (((i + round) % 2)); then
				order=("${keys[@]}")
			else
				for ((j = ${#keys[@]} - 1; j >= 0; j--)); do
					order+=("${keys[j]}")
				done
			fi
			for key in "${order[@]}"; do
				measure "$key" "${specs[i]}" "$round"
			done
		done
	done
	for key in "${keys[@]}"; do
		[ "$(bench_case_memory "$key")" = - ] || measure_memory "$key"
	done
}

# matrix_steps ENV CASE...: steps of measure_matrix over ENV's CASEs.
matrix_steps() {
	local env=$1 n m=0 c
	shift
	n=$(bench_specs "$env" | wc -w)
	for c in "$@"; do
		[ "$(bench_case_memory "$env/$c")" = - ] || m=$((m + 1))
	done
	echo $(($# * (BENCH_WARMUP + BENCH_ROUNDS * (n + 1)) + m))
}
