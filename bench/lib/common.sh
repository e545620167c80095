# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared by bench/run and its case runners: run metadata, rows, progress lines. Every
# measurement becomes one row of $BENCH_RESULTS through bench/lib/row.py; a case whose
# component is missing becomes rows with "status": "unavailable" and the reason.

BENCH_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BENCH_ROW=$BENCH_LIB/row.py
# The system interpreter: a pyenv shim in PATH costs a second per call.
BENCH_PYTHON=$(command -v /usr/bin/python3 || command -v python3)
BENCH_START=$(date +%s)
BENCH_STEP=0
BENCH_STEPS=0

# Writes the fields every row carries: the machine, the versions, the commit, the run.
bench_write_meta() {
	BENCH_RUN_ID=$(date -u +%Y%m%dT%H%M%SZ)-$$
	export BENCH_RUN_ID BENCH_MODE
	M_COMMIT=$(git -C "$PXP_ROOT" rev-parse HEAD 2>/dev/null || echo unknown) \
	M_DIRTY=$(git -C "$PXP_ROOT" status --porcelain --untracked-files=no 2>/dev/null | head -c1) \
	M_DESCRIBE=$(git -C "$PXP_ROOT" describe --always --dirty 2>/dev/null) \
	M_CPU=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo) \
	M_IPERF=$(iperf3 --version 2>/dev/null | head -n1) \
	M_LIBBPF=$(pkg-config --modversion libbpf 2>/dev/null) \
	M_LIBXDP=$(pkg-config --modversion libxdp 2>/dev/null) \
	M_CLANG=$(clang --version 2>/dev/null | head -n1) \
	M_QEMU=$(qemu-system-x86_64 --version 2>/dev/null | head -n1) \
		"$BENCH_PYTHON" - "$1" <<-'EOF'
			import json, os, sys
			e = os.environ
			mem = [l for l in open("/proc/meminfo") if l.startswith("MemTotal")][0]
			json.dump({
			    "run_id": e["BENCH_RUN_ID"],
			    "run_mode": e["BENCH_MODE"],
			    "git_commit": e["M_COMMIT"],
			    "git_dirty": bool(e["M_DIRTY"]),
			    "kernel": os.uname().release,
			    "machine": os.uname().machine,
			    "cpu_model": e["M_CPU"],
			    "cpus": os.cpu_count(),
			    "mem_kb": int(mem.split()[1]),
			    "loadavg_at_start": open("/proc/loadavg").read().split()[:3],
			    "versions": {
			        "pppoe-xp": e["M_DESCRIBE"], "iperf3": e["M_IPERF"],
			        "libbpf": e["M_LIBBPF"], "libxdp": e["M_LIBXDP"],
			        "clang": e["M_CLANG"], "qemu": e["M_QEMU"],
			    },
			}, open(sys.argv[1], "w"))
		EOF
}

# bench_row KEY=VALUE... [--iperf F] [--ping F] [--cpu A B]: appends one row, prints a summary.
bench_row() {
	"$BENCH_PYTHON" "$BENCH_ROW" "$BENCH_RESULTS" "$BENCH_META" "$@"
}

# bench_unavailable REASON KEY=VALUE...: the row of a case that could not run.
bench_unavailable() {
	local reason=$1
	shift
	bench_row status=unavailable "reason=$reason" "$@" >/dev/null
}

# One progress line per measurement: step, elapsed time, what runs now.
progress() {
	BENCH_STEP=$((BENCH_STEP + 1))
	local t=$(($(date +%s) - BENCH_START))
	printf '[%3d/%d %02d:%02d] %s ... ' "$BENCH_STEP" "$BENCH_STEPS" $((t / 60)) $((t % 60)) "$*"
}

# The last meaningful line of a log, for a reason field.
last_line() {
	grep -v '^[[:space:]]*$' "$1" 2>/dev/null | tail -n1 | cut -c1-200
}

# veth_hop_script PREFIX VETH_HOP: the sh script that turns PREFIX's plain topology into the
# veth-hop case (bench/lib/host.sh says what it is), on the host and in the guest alike. NAT
# is the caller's. The MSS clamp is the one pppoe-xp does in XDP: without it a download sends
# 1500-byte packets that hop_in cannot redirect into hop0 (MTU 1492), and the flow stalls
# unless the client still has the path MTU from an earlier upload.
veth_hop_script() {
	local p=$1 bin=$2
	cat <<-EOF
		set -e
		ip -n ${p}router link add hop0 mtu 1492 type veth peer name hop0-x mtu 1492
		ip -n ${p}router -batch - <<-'IP'
			link set hop0 arp off up
			link set hop0-x up
			addr add 100.64.0.1/32 dev hop0
			route replace default dev hop0 src 100.64.0.1
		IP
		ip netns exec ${p}router ethtool -K hop0 gro on
		ip netns exec ${p}isp ethtool -K isp0 gro on
		ip netns exec ${p}router nft -f - <<-'NFT'
			table inet pxb_mss {
				chain forward {
					type filter hook forward priority mangle; policy accept;
					oifname "hop0" tcp flags syn tcp option maxseg size set rt mtu
				}
			}
		NFT
		ip netns exec ${p}router $bin wan0 hop0 hop0-x \
			\$(ip netns exec ${p}isp cat /sys/class/net/isp0/address)
	EOF
}
