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
BENCH_CASE_LIST=$BENCH_LIB/../cases

# bench_cases ENV: ENV's cases in the list's order, those of the selected parts (BENCH_PARTS)
# that --cases keeps (BENCH_CASES, empty for all).
bench_cases() {
	awk -v env="$1" -v parts=",$BENCH_PARTS," -v only=",$BENCH_CASES," '
		/^#/ || NF < 4 || $1 != env { next }
		only != ",," && index(only, "," env "/" $2 ",") == 0 { next }
		{ n = split($3, p, ","); for (i = 1; i <= n; i++) if (index(parts, "," p[i] ",")) { print $2; next } }
	' "$BENCH_CASE_LIST"
}

# bench_case_memory KEY: the processes whose RSS KEY's memory row reports (bench/cases), or
# "-" for none.
bench_case_memory() {
	awk -v env="${1%%/*}" -v c="${1#*/}" '!/^#/ && $1 == env && $2 == c { print $4; exit }' \
		"$BENCH_CASE_LIST"
}

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
	M_WAN_GRO=$BENCH_WAN_GRO \
	M_GUEST_KERNEL=$BENCH_GUEST_KERNEL \
	M_GUEST_WAN=$BENCH_GUEST_WAN \
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
			    "wan_gro": e["M_WAN_GRO"],
			    "guest_kernel": e["M_GUEST_KERNEL"],
			    "guest_wan": e["M_GUEST_WAN"],
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

# bench_host_cases ENV TAG SETUP CASE...: ENV's cases on the host kernel, each in its own
# namespaces ${PXP_NS_PREFIX}TAG<n>-{lan,router,isp,net} with lib.sh's NS_* names pointed at
# them, set up in turn by SETUP KEY CASE (all stay up), then measured together.
bench_host_cases() {
	local env=$1 tag=$2 setup=$3 c key i=0
	local -a keys
	shift 3
	for c in "$@"; do
		key=$env/$c
		keys+=("$key")
		CASE_ENV[$key]=$env
		CASE_PREFIX[$key]=${PXP_NS_PREFIX}$tag$i-
		CASE_STATUS[$key]=ok
		i=$((i + 1))
		NS_LAN=${CASE_PREFIX[$key]}lan
		NS_ROUTER=${CASE_PREFIX[$key]}router
		NS_ISP=${CASE_PREFIX[$key]}isp
		NS_NET=${CASE_PREFIX[$key]}net
		progress "$key: set up"
		"$setup" "$key" "$c"
	done
	measure_matrix "${keys[@]}"
}

# One progress line per measurement: step, elapsed time, what runs now.
progress() {
	BENCH_STEP=$((BENCH_STEP + 1))
	local t=$(($(date +%s) - BENCH_START))
	printf '[%3d/%d %02d:%02d] %s ... ' "$BENCH_STEP" "$BENCH_STEPS" $((t / 60)) $((t % 60)) "$*"
}

# A log's reason for a reason field: its first "error:" line (pppoe-xp names the cause
# first, e.g. what the kernel refuses, and what failed because of it last), else its last
# meaningful line.
log_reason() {
	{ grep -m1 'error:' "$1" || grep -v '^[[:space:]]*$' "$1" | tail -n1; } 2>/dev/null |
		cut -c1-200
}

# wan_offload_script PREFIX: the sh lines that make PREFIX's WAN veth pair (router wan0, isp
# isp0) behave like a NIC, on the host and in the guest alike: GRO on (a NIC driver coalesces
# received plain IP; PPPoE frames it cannot), TSO/GSO off so that the wire carries MTU-sized
# frames, as a real one does. Runs after the topology and before any data path attaches.
# GRO also keeps a veth a valid XDP redirect target for its peer (DESIGN.md): with
# --wan-gro off the cases that redirect into a WAN veth whose peer runs no XDP turn it back
# on (bench_gro_for_redirect).
wan_offload_script() {
	local p=$1
	cat <<-EOF
		ip netns exec ${p}router ethtool -K wan0 tso off gso off gro $BENCH_WAN_GRO >/dev/null
		ip netns exec ${p}isp ethtool -K isp0 tso off gso off gro $BENCH_WAN_GRO >/dev/null
	EOF
}

# bench_gro_for_redirect NS IFNAME: the sh line that keeps GRO on IFNAME because its peer is
# the target of an XDP redirect and IFNAME runs no XDP itself (a veth drops redirected frames
# otherwise). A no-op with the default --wan-gro on; the one exception to --wan-gro off.
bench_gro_for_redirect() {
	echo "ip netns exec $1 ethtool -K $2 gro on >/dev/null"
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
		$(bench_gro_for_redirect "${p}isp" isp0)
		$(mss_clamp_script "$p" hop0)
		ip netns exec ${p}router $bin wan0 hop0 hop0-x \
			\$(ip netns exec ${p}isp cat /sys/class/net/isp0/address)
	EOF
}

# mss_clamp_script PREFIX IFNAME: the router's TCP MSS clamp to IFNAME's MTU (veth_hop_script
# says why).
mss_clamp_script() {
	cat <<-EOF
		ip netns exec ${1}router nft -f - <<-'NFT'
			table inet pxb_mss {
				chain forward {
					type filter hook forward priority mangle; policy accept;
					oifname "$2" tcp flags syn tcp option maxseg size set rt mtu
				}
			}
		NFT
	EOF
}

# netkit_hop_script PREFIX NETKIT_HOP: the sh script that turns PREFIX's plain topology into
# the netkit-hop case: veth-hop with a netkit device nk0 in L3 mode for hop0 (bench/netkit_hop.c
# creates it and attaches bench/netkit_hop.bpf.c), same MTU and MSS clamp. NAT is the
# caller's. Needs a kernel with netkit (6.7+, CONFIG_NETKIT).
netkit_hop_script() {
	local p=$1 bin=$2
	cat <<-EOF
		set -e
		ip netns exec ${p}router $bin wan0 nk0 nk0-x \
			\$(ip netns exec ${p}isp cat /sys/class/net/isp0/address)
		ip -n ${p}router -batch - <<-'IP'
			link set nk0 mtu 1492 up
			link set nk0-x up
			addr add 100.64.0.1/32 dev nk0
			route replace default dev nk0 src 100.64.0.1
		IP
		$(mss_clamp_script "$p" nk0)
	EOF
}
