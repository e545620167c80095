#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark's smoke test: `bench/run --quick` into a scratch directory, then every row
# the quick plan promises must be there (measured, or "unavailable"/"failed" with a reason),
# with the run's metadata, and the report and chart must be written. No thresholds: only the
# host ceiling, which needs no project code, must actually measure.
#
#   host:  lan - router - isp - net  x  ceiling, veth-hop, pppoe-xp-{xdp,afxdp,generic,tc},
#          pppoe-xp-rx-R-tx-T (the halves mixed)
#   guest: qemu (TCG) x ceiling, veth-hop, kernel-pppoe, rp-pppoe, pppoe-xp, mixed
#   bpf:   every XDP and tc program in build/bpf/*.bpf.o
. "$(dirname "$0")/lib.sh"

OUT=$PXP_TMP/bench
BENCH_LOG=$PXP_TMP/bench.log

test_run() {
	"$PXP_ROOT/bench/run" --quick --out "$OUT" >"$BENCH_LOG" 2>&1 ||
		fail "bench/run --quick exited with $?: $(tail -n 3 "$BENCH_LOG" | tr '\n' ' ')" ||
		return 1
	grep -q 'estimated' "$BENCH_LOG" || fail "bench/run printed no plan with an estimate"
}

# check_rows PART: the expected rows of one part exist; prints what is missing.
check_rows() {
	python3 - "$OUT/results.jsonl" "$1" "$PXP_ROOT" <<-'EOF'
		import glob, json, os, sys
		path, part, root = sys.argv[1:]
		rows = [json.loads(l) for l in open(path) if l.strip()]
		specs = [("tcp", "upload", 1), ("tcp", "download", 1), ("tcp", "download", 4),
		         ("udp", "upload", "64"), ("udp", "upload", "mtu"), ("ping", "idle", None),
		         ("ping", "tcp-download-1", None)]
		cases = {"host": ["ceiling", "veth-hop", "netkit-hop", "pppoe-xp-xdp", "pppoe-xp-afxdp",
		                  "pppoe-xp-generic", "pppoe-xp-tc", "pppoe-xp-rx-tc-tx-xdp",
		                  "pppoe-xp-rx-xdp-tx-tc", "pppoe-xp-rx-xdppass-tx-tc",
		                  "pppoe-xp-rx-xdppass-tx-xdp"],
		         "guest": ["ceiling", "veth-hop", "netkit-hop", "kernel-pppoe",
		                   "kernel-pppoe-flowtable", "rp-pppoe", "pppoe-xp", "mixed"]}
		def has(env, case, t, a, b):
		    for r in rows:
		        if (r.get("env"), r.get("case"), r.get("test")) != (env, case, t):
		            continue
		        if t == "tcp" and (r.get("direction"), r.get("streams")) != (a, b):
		            continue
		        if t == "udp" and (r.get("direction"), str(r.get("ip_bytes_spec"))) != (a, b):
		            continue
		        if t == "ping" and r.get("load") != a:
		            continue
		        return r
		    return None
		missing, bad = [], []
		def check(r, what):
		    if r is None:
		        missing.append(what)
		    elif r.get("status") not in ("ok", "unavailable", "failed"):
		        bad.append("%s: status %r" % (what, r.get("status")))
		    elif r["status"] != "ok" and not r.get("reason"):
		        bad.append("%s: %s without a reason" % (what, r["status"]))
		    elif not all(r.get(k) for k in ("run_id", "kernel", "cpu_model", "git_commit")):
		        bad.append("%s: metadata missing" % what)
		if part in cases:
		    for c in cases[part]:
		        for t, a, b in specs:
		            check(has(part, c, t, a, b), "%s/%s %s %s %s" % (part, c, t, a, b or ""))
		        if "pppoe-xp" in c or c == "mixed":
		            check(next((r for r in rows if (r.get("env"), r.get("case"), r.get("test"))
		                        == (part, c, "memory")), None), "%s/%s memory" % (part, c))
		else:
		    progs = [r for r in rows if r.get("test") == "bpf_ns"]
		    objs = sorted(os.path.basename(p) for p in glob.glob(root + "/build/bpf/*.bpf.o"))
		    if not progs:
		        missing.append("bpf_ns rows")
		    for o in objs:
		        if not any(r.get("object") == o and r.get("status") == "ok" for r in progs):
		            missing.append("bpf_ns of %s" % o)
		    for r in progs:
		        check(r, "bpf_ns %s %s" % (r.get("program"), r.get("frame")))
		if missing or bad:
		    print("; ".join((["missing: " + ", ".join(missing)] if missing else []) + bad))
		    sys.exit(1)
	EOF
}

test_rows() {
	local why
	[ -s "$OUT/results.jsonl" ] || fail "no results.jsonl" || return 1
	why=$(check_rows "$1") || fail "$why"
}

# The ceiling uses nothing of ours: if it does not measure, the benchmark itself is broken.
test_rows_host() { test_rows host; }
test_rows_guest() { test_rows guest; }
test_rows_bpf() { test_rows bpf; }

test_ceiling_measured() {
	local n
	n=$(grep '"env": "host"' "$OUT/results.jsonl" | grep '"case": "ceiling"' |
		grep -c '"status": "ok"')
	[ "$n" -ge 7 ] || fail "only $n host ceiling rows measured (7 expected): $(grep -m1 \
		'"case": "ceiling"' "$OUT/results.jsonl" | grep -o '"reason": "[^"]*"')"
}

test_report() {
	[ -s "$OUT/results.md" ] || fail "no results.md" || return 1
	grep -q '^| measurement | unit | ceiling' "$OUT/results.md" ||
		fail "results.md has no case table" || return 1
	head -c 8 "$OUT/chart.png" 2>/dev/null | od -An -tx1 | grep -q '89 50 4e 47' ||
		fail "chart.png is not a PNG"
}

# The summary's per-round spread, on two made-up rounds: xdp at 90% then 50% of the ceiling.
test_report_round_spread() {
	local rows=$PXP_TMP/spread.jsonl
	python3 - "$rows" <<-'EOF'
		import json, sys
		with open(sys.argv[1], "w") as f:
		    for rnd, ceiling, xdp in ((1, 1000e6, 900e6), (2, 1000e6, 500e6)):
		        for case, bps in (("ceiling", ceiling), ("pppoe-xp-xdp", xdp)):
		            f.write(json.dumps({"env": "host", "case": case, "test": "tcp",
		                                "direction": "download", "streams": 1, "round": rnd,
		                                "status": "ok", "bits_per_second": bps}) + "\n")
	EOF
	python3 "$PXP_ROOT/bench/report.py" "$rows" "$PXP_TMP/spread.md" "$PXP_TMP/spread.png" \
		>/dev/null 2>&1 || fail "bench/report.py failed on two rounds" || return 1
	grep -q '^| TCP download, 1 stream | 70% (xdp; rounds 50%-90%) |' "$PXP_TMP/spread.md" ||
		fail "summary row: $(grep -m1 '^| TCP download, 1 stream' "$PXP_TMP/spread.md")"
}

# Everything the run created carries its prefix pxb<pid>-: none of it may outlive it.
test_cleanup() {
	local pid left
	pid=$(grep -o '"run_id": "[^"]*"' "$OUT/results.jsonl" | head -n1 | sed 's/.*-\([0-9]*\)"/\1/')
	[ -n "$pid" ] || fail "no run_id in the results" || return 1
	left=$(ip netns list | awk '{ print $1 }' | grep "^pxb$pid-")
	[ -z "$left" ] || fail "namespaces left behind: $left"
}

missing=$(require_cmds ip ping nft iperf3 ethtool python3 bpftool) || {
	skip_test bench_smoke "missing commands:$missing (make deps installs them)"
	exit 0
}
[ "$(id -u)" -eq 0 ] || {
	skip_test bench_smoke "needs root"
	exit 0
}
run_test bench_smoke/run test_run
if [ -s "$OUT/results.jsonl" ]; then
	run_test bench_smoke/rows_host test_rows_host
	run_test bench_smoke/rows_guest test_rows_guest
	run_test bench_smoke/rows_bpf test_rows_bpf
	run_test bench_smoke/ceiling_measured test_ceiling_measured
	run_test bench_smoke/report test_report
	run_test bench_smoke/report_round_spread test_report_round_spread
	run_test bench_smoke/cleanup test_cleanup
fi
[ "$PXP_FAILED" -eq 0 ] || { echo "---- bench/run output ----"; cat "$BENCH_LOG"; } >&2
tests_done
