#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs test tiers and counts their results. Every test program prints one line per case:
#   PASS <name> | FAIL <name>: <reason> | SKIP <name>: <why>
# and may print measurements as lines starting with "# ", which are shown too.
# After each program it prints "# time NAME 123s", and at the end "# time tier TIER 456s"
# for each tier, so that where the time goes is in every log.
# A program that exits non-zero without a FAIL line, or that reports nothing, counts as a
# failure of its own. Ends with the line "N passed, N failed, N skipped"; exits 1 on failure.
#
# usage: tests/run.sh TIER...   (format rooms unit dist fuzz bpf netns san interop cross long musl)
set -u
cd "$(dirname "$0")/.." || exit 2

O=${O:-build}
FUZZ_SECONDS=${FUZZ_SECONDS:-5}
LOG=$O/test-results.log
mkdir -p "$O"
: >"$LOG"
passed=0 failed=0 skipped=0
tier_times=

# run_one NAME TIMEOUT CMD...: run one test program and account for its lines.
run_one() {
	local name=$1 limit=$2 out rc fails lines start=$SECONDS
	shift 2
	out=$(mktemp)
	timeout --kill-after=10 "$limit" "$@" >"$out" 2>"$out.err" </dev/null
	rc=$?
	echo "# time $name $((SECONDS - start))s" >>"$out"
	grep -E '^(PASS|FAIL|SKIP|#) ' "$out" | tee -a "$LOG"
	lines=$(grep -cE '^(PASS|FAIL|SKIP) ' "$out")
	fails=$(grep -cE '^FAIL ' "$out")
	passed=$((passed + $(grep -cE '^PASS ' "$out")))
	skipped=$((skipped + $(grep -cE '^SKIP ' "$out")))
	failed=$((failed + fails))
	if [ "$rc" -ne 0 ] && [ "$fails" -eq 0 ]; then
		local why="exited with status $rc"
		[ "$rc" -eq 124 ] && why="timed out after ${limit}s"
		echo "FAIL $name: $why without reporting a failure" | tee -a "$LOG"
		failed=$((failed + 1))
	elif [ "$lines" -eq 0 ]; then
		echo "FAIL $name: reported no result" | tee -a "$LOG"
		failed=$((failed + 1))
	fi
	if [ "$rc" -ne 0 ] || [ "$fails" -ne 0 ]; then
		echo "---- output of $name (last 40 lines) ----"
		tail -n 40 "$out" "$out.err"
		echo "----"
	fi
	rm -f "$out" "$out.err"
}

tier_format() {
	local bad
	bad=$(clang-format --dry-run -Werror $(tests/format-files.sh) 2>&1 | grep -oE '^[^:]+\.[ch]' | sort -u | tr '\n' ' ')
	if [ -z "$bad" ]; then
		echo "PASS format/clang-format" | tee -a "$LOG"
		passed=$((passed + 1))
	else
		echo "FAIL format/clang-format: not formatted (run make format): $bad" | tee -a "$LOG"
		failed=$((failed + 1))
	fi
}

# Who may include whom (user/README.md), checked against the Makefile's include paths.
tier_rooms() {
	run_one rooms 120 tests/rooms.sh
}

tier_unit() {
	local t
	for t in "$O"/tests/unit/test_*; do
		[ -x "$t" ] || continue
		run_one "unit/$(basename "$t")" 300 "$t"
	done
}

# Each harness runs for FUZZ_SECONDS from its seed corpus; a crash is a failure.
tier_fuzz() {
	local t name work
	for t in "$O"/tests/fuzz/fuzz_*; do
		[ -x "$t" ] || continue
		name=$(basename "$t")
		work=$(mktemp -d)
		[ -d "tests/fuzz/corpus/$name" ] && cp -r "tests/fuzz/corpus/$name/." "$work/"
		run_one "fuzz/$name" $((FUZZ_SECONDS + 120)) bash -c '
			"$1" -max_total_time="$2" -rss_limit_mb=2048 -artifact_prefix="$3/" "$3" \
				>"$3.log" 2>&1
			rc=$?
			if [ $rc -eq 0 ]; then echo "PASS fuzz/$4"
			else echo "FAIL fuzz/$4: crashed (status $rc):"; tail -n 30 "$3.log"; fi
			rm -f "$3.log"; exit $rc' _ "$t" "$FUZZ_SECONDS" "$work" "$name"
		rm -rf "$work"
	done
}

tier_bpf() {
	local t
	for t in "$O"/tests/bpf/test_*; do
		[ -x "$t" ] || continue
		run_one "bpf/$(basename "$t")" 300 "$t"
	done
}

# run_scripts TIER LIMIT: each tests/TIER/test_*.sh is one test program.
run_scripts() {
	local t
	for t in tests/"$1"/test_*.sh; do
		[ -f "$t" ] || continue
		run_one "$1/$(basename "$t" .sh)" "$2" bash "$t"
	done
}

# What a user or a packager meets: --help, --version, the man page, make install.
tier_dist() { run_scripts dist 300; }
tier_netns() { run_scripts netns 1800; }
tier_interop() { run_scripts interop 1500; }
# The aarch64 build and its unit tests under qemu-user (make deps-cross's packages).
tier_cross() { run_scripts cross 1500; }
# make check-long: the full sizes of what the netns tier runs smaller to fit make check's
# time. The benchmark's whole quick plan (the netns tier smokes one case of each kind).
tier_long() {
	run_one long/bench_smoke 3600 env BENCH_SMOKE_CASES=all bash tests/netns/test_bench_smoke.sh
}

# make musl's build (O=build-musl, linked statically with musl): the commands' --help,
# --version, the man page made by that binary, the exit code table; every unit test.
tier_musl() {
	run_one musl/man 300 bash tests/dist/test_man.sh
	tier_unit
}

# The sanitizer tier: the netns suites below, as "SUITE [CASE...]" (no case: all of them),
# against the ASan+UBSan build (make SAN=1: build-san/pppoe-xp, whose `server` is the AC,
# and the data-path tools). Chosen to cover the client's and the AC's control plane, every
# data path mode, the daemons' teardown, and the WireGuard device's handshakes, hostile
# input, many peers, roaming and data inside a session (the interop suite wg_device, which runs on the
# host) in about 3 minutes on a 2-core machine (185 s, 7 December 2026).
# SAN_NARROW narrows the suites further: test_leaks.sh with 10 and 5 cycles (LeakSanitizer
# checks the heaps at each daemon's exit) and a loose RSS bound, since ASan's quarantine
# keeps freed memory (the netns tier holds the tight one). Any report fails the case it appeared in (tests/netns/lib.sh san_reports), or
# the suite's "exit" line when it came from a daemon ending at the suite's clean-up.
SAN_O=${SAN_O:-build-san}
SAN_SUITES_ENV=${SAN_SUITES-}
SAN_SUITES=(
	"session pap chap mschapv2 wrong_password no_pado status_json down server_padt echo_failure persist persist_after_crash kill9_restart ipv6 vlan mode_generic mode_afxdp foreground_sigint padi_flood"
	"ipv6 slaac_xdp pd_xdp release_xdp down_xdp pd_afxdp"
	"instances"
	"ac_load"
	"datapath xdp afxdp"
	"leaks"
	"wg_device handshake_from_us hostile many_peers roaming in_pppoe_session"
)
# SAN_SUITES="express_path; session pap" in the environment runs those entries instead.
[ -n "$SAN_SUITES_ENV" ] && IFS=';' read -ra SAN_SUITES <<<"$SAN_SUITES_ENV"
SAN_NARROW=(LEAK_CYCLES=10 LEAK_PERSIST_CYCLES=5 LEAK_RSS_SLACK_KB=65536)
tier_san() {
	local dir=$PWD/$O/san bin=$PWD/$SAN_O/pppoe-xp entry suite script f late
	if [ ! -x "$bin" ]; then
		echo "FAIL san/build: $bin is missing (run make SAN=1)" | tee -a "$LOG"
		failed=$((failed + 1))
		return
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	for entry in "${SAN_SUITES[@]}"; do
		set -- $entry
		suite=$1
		shift
		# The netns suites, and the interop ones that run on the host (wg_device).
		script=tests/netns/test_$suite.sh
		[ -f "$script" ] || script=tests/interop/test_$suite.sh
		echo "# san: $script ${*:-(every case)} against $bin (${SAN_NARROW[*]})" |
			tee -a "$LOG"
		# log_path: a file per process (name.PID), so the detached daemons' reports too.
		# detect_leaks: the leak check at each process's exit; lsan.supp names the library
		# frames excused, each with why.
		run_one "san/$suite" 900 env PXP_BIN="$bin" PXP_TOOLS="$PWD/$SAN_O/tests/tools" \
			PXP_SAN_DIR="$dir" PXP_NAME_PREFIX=san/ PXP_EXIT_WAIT=10 "${SAN_NARROW[@]}" \
			ASAN_OPTIONS="log_path=$dir/san:detect_leaks=1:halt_on_error=1" \
			LSAN_OPTIONS="suppressions=$PWD/tests/san/lsan.supp:print_suppressions=0" \
			UBSAN_OPTIONS="log_path=$dir/san:halt_on_error=1:print_stacktrace=1" \
			bash "$script" "$@"
		late=
		for f in "$dir"/*san.*; do
			[ -f "$f" ] && late+=" $f: $(grep -m1 '[a-z]' "$f")"
		done
		if [ -n "$late" ]; then
			echo "FAIL san/$suite/exit: sanitizer reports after the last case:$late" | tee -a "$LOG"
			failed=$((failed + 1))
			mkdir -p "$dir/reported"
			mv "$dir"/*san.* "$dir/reported/"
		fi
	done
}

for tier in "$@"; do
	case $tier in
	format | rooms | unit | dist | fuzz | bpf | netns | san | interop | cross | long | musl)
		start=$SECONDS
		"tier_$tier"
		tier_times+="# time tier $tier $((SECONDS - start))s"$'\n'
		;;
	*)
		echo "tests/run.sh: unknown tier '$tier' (format rooms unit dist fuzz bpf netns san interop cross long musl)" >&2
		exit 2
		;;
	esac
done

printf '%s' "$tier_times" | tee -a "$LOG"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
