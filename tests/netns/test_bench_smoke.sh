#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark's smoke test: `bench/run --quick` into a scratch directory, then every row
# the quick plan promises must be there (measured, or "unavailable"/"failed" with a reason),
# with the run's metadata, and the report and chart must be written. No thresholds: only the
# cases that need no project code (the host ceiling; the wg part's no-tunnel, wireguard-go
# and OpenVPN cases, where those are installed) must actually measure.
#
#   host:  lan - router - isp - net  x  ceiling, veth-hop, pppoe-xp-{xdp,afxdp,generic,tc},
#          pppoe-xp-rx-R-tx-T (the halves mixed)
#   wg:    the same topology x no tunnel, wireguard-go, pppoe-xp-wg, OpenVPN (3 configs),
#          wireguard-go / pppoe-xp-wg with a hub far end, and inside a pppoe-xp session
#   guest: qemu (TCG) x ceiling, veth-hop, netkit-hop, kernel-pppoe, kernel-pppoe-flowtable,
#          rp-pppoe, pppoe-xp, pppoe-xp-netkit, pppoe-xp-xdp, pppoe-xp-tc, mixed, mixed-netkit,
#          kernel-wg, pppoe-xp-wg, kernel-wg-over-kernel-pppoe, pppoe-xp-wg-over-pxp
#   bpf:   every XDP and tc program in build/bpf/*.bpf.o
# The cases and the parts that run them are bench/cases; the measurements of each environment
# bench/lib/measure.sh bench_specs. BENCH_SMOKE_PARTS=wg (or any --only list) runs and checks
# only those parts; BENCH_SMOKE_OUT=DIR keeps the run's results there.
# BENCH_SMOKE_CASES (bench/run --cases) narrows the run to those cases: the netns tier runs
# SMOKE_CASES, one case of each kind of set-up (11 of the 38: 7 minutes on this loaded 2-core
# machine, the whole quick plan 26); `make check-long` runs them all (BENCH_SMOKE_CASES=all).
. "$(dirname "$0")/lib.sh"
. "$PXP_ROOT/bench/lib/measure.sh"

OUT=${BENCH_SMOKE_OUT:-$PXP_TMP/bench}
BENCH_LOG=$PXP_TMP/bench.log
PARTS=${BENCH_SMOKE_PARTS:-host,guest,wg,bpf}
# The ceilings; one pppoe-xp data path and the halves mixed; the stock tunnels that the
# report's VPN ratios need, and a tunnel inside a session; the guest's kernel PPPoE beside ours.
SMOKE_CASES=host/ceiling,host/pppoe-xp-xdp,host/pppoe-xp-rx-tc-tx-xdp,wg/none,wg/wireguard-go,\
wg/pppoe-xp-wg,wg/openvpn-aes256gcm-udp,wg/pppoe-xp-wg-over-pxp,guest/ceiling,guest/kernel-pppoe,\
guest/pppoe-xp
CASES=${BENCH_SMOKE_CASES:-$SMOKE_CASES}
[ "$CASES" = all ] && CASES=
BENCH_MODE=quick
want() { [[ ,$PARTS, == *,$1,* ]]; }

test_run() {
	# No warm-up: nothing here reads a figure, and it would cost a transfer per case.
	"$PXP_ROOT/bench/run" --quick --no-warmup --only "$PARTS" ${CASES:+--cases "$CASES"} \
		--out "$OUT" >"$BENCH_LOG" 2>&1 ||
		fail "bench/run --quick exited with $?: $(tail -n 3 "$BENCH_LOG" | tr '\n' ' ')" ||
		return 1
	grep -q 'estimated' "$BENCH_LOG" || fail "bench/run printed no plan with an estimate"
}

# check_rows ENV|bpf: the expected rows of the selected parts' cases in ENV exist; prints
# what is missing.
check_rows() {
	python3 - "$OUT/results.jsonl" "$1" "$PXP_ROOT" "$PARTS" \
		"$(bench_specs "$1")" "$CASES" <<-'EOF'
		import glob, json, os, sys
		path, part, root, parts, specs, only = sys.argv[1:]
		only = set(only.split(",")) - {""}
		rows = [json.loads(l) for l in open(path) if l.strip()]
		parts = parts.split(",")
		# bench/lib/measure.sh's specs, plus the ping under load every TCP download 1 row has.
		def spec(s):
		    t, a, b = (s.split(":") + [None])[:3]
		    return (t, a, int(b) if t == "tcp" else b)
		specs = [spec(s) for s in specs.split()] + [("ping", "tcp-download-1", None)]
		cases, memory = [], {}
		for line in open(root + "/bench/cases"):
		    f = line.split()
		    if f and not f[0].startswith("#") and f[0] == part and \
		            set(f[2].split(",")) & set(parts) and \
		            (not only or f[0] + "/" + f[1] in only):
		        cases.append(f[1])
		        memory[f[1]] = f[3] != "-"
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
		if part != "bpf":
		    for c in cases:
		        for t, a, b in specs:
		            check(has(part, c, t, a, b), "%s/%s %s %s %s" % (part, c, t, a, b or ""))
		        if memory[c]:
		            check(next((r for r in rows if (r.get("env"), r.get("case"), r.get("test"))
		                        == (part, c, "memory")), None), "%s/%s memory" % (part, c))
		else:
		    progs = [r for r in rows if r.get("test") == "bpf_ns"]
		    objs = sorted(os.path.basename(p) for p in glob.glob(root + "/build/bpf/*.bpf.o"))
		    if not progs:
		        missing.append("bpf_ns rows")
		    # An object whose programs have no test run (tracing) has "unavailable" rows only.
		    for o in objs:
		        mine = [r for r in progs if r.get("object") == o]
		        if not any(r.get("status") == "ok" for r in mine) and not (
		                mine and all(r.get("status") == "unavailable" and
		                             "neither an XDP nor a tc program" in r.get("reason", "")
		                             for r in mine)):
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

test_rows_host() { test_rows host; }
test_rows_wg() { test_rows wg; }
test_rows_guest() { test_rows guest; }
test_rows_bpf() { test_rows bpf; }

# in_run ENV CASE: the case is one of the run's (CASES, empty for all).
in_run() { [ -z "$CASES" ] || [[ ,$CASES, == *,$1/$2,* ]]; }

# measured ENV CASE: every measurement of the case ran (bench_specs, and the ping under load),
# when the run has the case.
measured() {
	local n want
	in_run "$1" "$2" || return 0
	want=$(($(bench_specs "$1" | wc -w) + 1))
	n=$(grep "\"env\": \"$1\"" "$OUT/results.jsonl" | grep "\"case\": \"$2\"" |
		grep -v '"test": "memory"' | grep -c '"status": "ok"')
	[ "$n" -ge "$want" ] || fail "only $n $1/$2 rows measured ($want expected): $(grep \
		"\"case\": \"$2\"" "$OUT/results.jsonl" | grep "\"env\": \"$1\"" |
		grep -m1 -o '"reason": "[^"]*"')"
}

# The ceiling uses nothing of ours: if it does not measure, the benchmark itself is broken.
test_ceiling_measured() { measured host ceiling; }

# Nor do these: no tunnel, and the stock tunnels where they are installed.
test_vpn_stock_measured() {
	local c
	measured wg none || return
	if command -v wireguard-go >/dev/null && command -v wg >/dev/null; then
		measured wg wireguard-go || return
	fi
	if command -v openvpn >/dev/null; then
		for c in openvpn-aes256gcm-udp openvpn-chacha20-udp openvpn-aes256gcm-tcp; do
			measured wg "$c" || return
		done
	fi
}

test_report() {
	[ -s "$OUT/results.md" ] || fail "no results.md" || return 1
	if want host; then
		grep -q '^| measurement | unit | ceiling' "$OUT/results.md" ||
			fail "results.md has no host case table" || return 1
	fi
	if want wg; then
		grep -q '^| measurement | unit | none' "$OUT/results.md" ||
			fail "results.md has no VPN case table" || return 1
		grep -q '^| TCP | pppoe-xp-wg / wireguard-go |' "$OUT/results.md" &&
			grep -q 'wireguard-go / openvpn-aes256gcm-udp .* published' "$OUT/results.md" ||
			fail "results.md has no VPN ratios" || return 1
	fi
	head -c 8 "$OUT/chart.png" 2>/dev/null | od -An -tx1 | grep -q '89 50 4e 47' ||
		fail "chart.png is not a PNG"
}

# made_up_rounds NAME ENV BASE CASE: PXP_TMP/NAME.md, report.py's report of two made-up rounds
# of one-stream TCP download in ENV, CASE at 90% then 50% of BASE.
made_up_rounds() {
	python3 - "$PXP_TMP/$1.jsonl" "$2" "$3" "$4" <<-'EOF'
		import json, sys
		path, env, base, case = sys.argv[1:]
		with open(path, "w") as f:
		    for rnd, b, c in ((1, 1000e6, 900e6), (2, 1000e6, 500e6)):
		        for name, bps in ((base, b), (case, c)):
		            f.write(json.dumps({"env": env, "case": name, "test": "tcp",
		                                "direction": "download", "streams": 1, "round": rnd,
		                                "status": "ok", "bits_per_second": bps}) + "\n")
	EOF
	python3 "$PXP_ROOT/bench/report.py" "$PXP_TMP/$1.jsonl" "$PXP_TMP/$1.md" "$PXP_TMP/$1.png" \
		>/dev/null 2>&1 || fail "bench/report.py failed on two made-up rounds ($1)"
}

# The summary's per-round spread.
test_report_round_spread() {
	made_up_rounds spread host ceiling pppoe-xp-xdp || return 1
	grep -q '^| TCP download, 1 stream | 70% (xdp; rounds 50%-90%) |' "$PXP_TMP/spread.md" ||
		fail "summary row: $(grep -m1 '^| TCP download, 1 stream' "$PXP_TMP/spread.md")"
}

# The guest's done-when line (pppoe-xp wg at least kernel WireGuard) with each round's ratio.
test_report_guest_wg() {
	made_up_rounds guest-wg guest kernel-wg pppoe-xp-wg || return 1
	grep -q '^- guest: pppoe-xp-wg / kernel-wg, one stream: download 0.70x (rounds 0.50-0.90x), upload -' \
		"$PXP_TMP/guest-wg.md" ||
		fail "guest wg line: $(grep -m1 '^- guest: pppoe-xp-wg /' "$PXP_TMP/guest-wg.md")"
}

# Everything the run created carries its prefix pxb<pid>- (its tunnels pxw<pid>-): none of it
# may outlive it.
test_cleanup() {
	local pid left
	pid=$(grep -o '"run_id": "[^"]*"' "$OUT/results.jsonl" | head -n1 | sed 's/.*-\([0-9]*\)"/\1/')
	[ -n "$pid" ] || fail "no run_id in the results" || return 1
	left=$(ip netns list | awk '{ print $1 }' | grep "^pxb$pid-")
	[ -z "$left" ] || fail "namespaces left behind: $left" || return
	# The userspace WireGuards' UAPI sockets (bench/lib/wg.sh wg_ifname) are not per namespace.
	left=$(ls /var/run/wireguard 2>/dev/null | grep "^pxw$pid-")
	[ -z "$left" ] || fail "WireGuard sockets left behind in /var/run/wireguard: $left"
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
	want host && run_test bench_smoke/rows_host test_rows_host
	want wg && run_test bench_smoke/rows_wg test_rows_wg
	want guest || want wg && run_test bench_smoke/rows_guest test_rows_guest
	want bpf && run_test bench_smoke/rows_bpf test_rows_bpf
	want host && run_test bench_smoke/ceiling_measured test_ceiling_measured
	want wg && run_test bench_smoke/vpn_stock_measured test_vpn_stock_measured
	run_test bench_smoke/report test_report
	run_test bench_smoke/report_round_spread test_report_round_spread
	run_test bench_smoke/report_guest_wg test_report_guest_wg
	run_test bench_smoke/cleanup test_cleanup
fi
[ "$PXP_FAILED" -eq 0 ] || { echo "---- bench/run output ----"; cat "$BENCH_LOG"; } >&2
tests_done
