# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# ns/packet of every XDP and tc program in build/bpf/*.bpf.o (bench/bpf_ns.c, BPF_PROG_TEST_RUN).

BPF_NS_TOOL=$PXP_ROOT/build/bench/bpf_ns

bpf_run() {
	local objs line n=0
	objs=("$PXP_ROOT"/build/bpf/*.bpf.o)
	progress "bpf: ns/packet of each XDP and tc program"
	if [ ! -x "$BPF_NS_TOOL" ]; then
		bench_unavailable "build/bench/bpf_ns is not built (make)" env=host case=bpf test=bpf_ns
		echo "unavailable"
		return
	fi
	if [ ! -e "${objs[0]}" ]; then
		bench_unavailable "no BPF objects in build/bpf/ (make)" env=host case=bpf test=bpf_ns
		echo "unavailable"
		return
	fi
	while read -r line; do
		bench_row env=host case=bpf test=bpf_ns --json-line "$line" >/dev/null
		n=$((n + 1))
	done < <("$BPF_NS_TOOL" -n "$BENCH_BPF_SAMPLES" "${objs[@]}" 2>"$PXP_TMP/bpf_ns.err")
	if [ $n -eq 0 ]; then
		bench_row env=host case=bpf test=bpf_ns status=failed \
			"reason=bpf_ns printed nothing: $(log_reason "$PXP_TMP/bpf_ns.err")" >/dev/null
	fi
	echo "$n rows"
}
