#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The long fuzz run (make fuzz-long), outside make check: each harness in $O/tests/fuzz runs
# FUZZ_LONG_SECONDS from a copy of its committed corpus tests/fuzz/corpus/NAME (libFuzzer
# writes what it finds into its corpus directory), then what it found is merged back with
# -merge=1, which adds to the committed corpus only the inputs that add coverage.
# FUZZ_LONG_JOBS harnesses run at once. A crash, leak or timeout fails the run and its input
# stays in $O/fuzz-long/NAME/ (crash-*, leak-*, timeout-*).
#
# usage: tests/fuzz/long.sh [NAME...]   (no name: every harness)
# Prints per harness: executions, exec/s, the last cov: and ft: of libFuzzer's log and the
# corpus's file count before and after and its bytes after, as a table and PASS/FAIL lines.
set -u
cd "$(dirname "$0")/../.." || exit 2

O=${O:-build}
SECONDS_EACH=${FUZZ_LONG_SECONDS:-600}
JOBS=${FUZZ_LONG_JOBS:-1}
# The committed corpora stay small: no input over this many bytes.
MAX_FILE=65536
OUT=$O/fuzz-long

# fuzz_one NAME: the run and the merge of one harness; writes $OUT/NAME/result.
fuzz_one() {
	local name=$1 bin=$O/tests/fuzz/$1 dir=$OUT/$1 corpus=tests/fuzz/corpus/$1
	local before after bytes rc log execs rate cov ft big crash
	rm -rf "$dir"
	mkdir -p "$dir/work" "$corpus"
	cp -r "$corpus/." "$dir/work/"
	before=$(find "$corpus" -type f | wc -l)
	log=$dir/fuzz.log
	# -timeout: an input that takes 30 s is a hang (the parsers take microseconds).
	timeout --kill-after=10 $((SECONDS_EACH + 300)) "$bin" -max_total_time="$SECONDS_EACH" \
		-timeout=30 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$dir/" \
		"$dir/work" >"$log" 2>&1 </dev/null
	rc=$?
	# The figures: libFuzzer's final stats and the last status line's cov: and ft:.
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n1)
	cov=$(grep -oE ' cov: [0-9]+' "$log" | tail -n1 | grep -oE '[0-9]+')
	ft=$(grep -oE ' ft: [0-9]+' "$log" | tail -n1 | grep -oE '[0-9]+')
	# Merge even after a crash: what the run found before it is still coverage.
	"$bin" -merge=1 -timeout=30 -rss_limit_mb=2048 "$corpus" "$dir/work" \
		>"$dir/merge.log" 2>&1 </dev/null
	local mrc=$?
	after=$(find "$corpus" -type f | wc -l)
	bytes=$(find "$corpus" -type f -printf '%s\n' | awk '{ n += $1 } END { print n + 0 }')
	big=$(find "$corpus" -type f -size +$((MAX_FILE / 1024))k | tr '\n' ' ')
	crash=$(find "$dir" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' \
		-o -name 'timeout-*' -o -name 'oom-*' \) | tr '\n' ' ')
	{
		printf '%s %s %s %s %s %s %s %s\n' "$name" "${execs:-?}" "${rate:-?}" "${cov:-?}" \
			"${ft:-?}" "$before" "$after" "$bytes"
		if [ "$rc" -ne 0 ] || [ -n "$crash" ]; then
			echo "FAIL fuzz-long/$name: status $rc, input kept: ${crash:-none }(log $log)"
		elif [ "$mrc" -ne 0 ]; then
			echo "FAIL fuzz-long/$name: the merge exited with status $mrc (log $dir/merge.log)"
		elif [ -n "$big" ]; then
			echo "FAIL fuzz-long/$name: corpus files over $MAX_FILE bytes: $big"
		else
			echo "PASS fuzz-long/$name"
		fi
	} >"$dir/result"
	rm -rf "$dir/work"
}

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for t in "$O"/tests/fuzz/fuzz_*; do
		[ -x "$t" ] && names+=("$(basename "$t")")
	done
fi
if [ ${#names[@]} -eq 0 ]; then
	echo "FAIL fuzz-long: no harness in $O/tests/fuzz (run make fuzz-long)"
	exit 1
fi
for name in "${names[@]}"; do
	if [ ! -x "$O/tests/fuzz/$name" ]; then
		echo "FAIL fuzz-long: no harness $O/tests/fuzz/$name"
		exit 1
	fi
done

echo "# fuzz-long: ${#names[@]} harnesses, ${SECONDS_EACH} s each, $JOBS at a time"
running=0
for name in "${names[@]}"; do
	if [ "$running" -ge "$JOBS" ]; then
		wait -n
		running=$((running - 1))
	fi
	fuzz_one "$name" &
	running=$((running + 1))
done
wait

failed=0
printf '# %-22s %12s %8s %6s %6s %7s %6s %8s\n' harness executions exec/s cov ft before after bytes
for name in "${names[@]}"; do
	if [ ! -f "$OUT/$name/result" ]; then
		echo "FAIL fuzz-long/$name: left no result"
		failed=$((failed + 1))
		continue
	fi
	read -r _ execs rate cov ft before after bytes <"$OUT/$name/result"
	printf '# %-22s %12s %8s %6s %6s %7s %6s %8s\n' "$name" "$execs" "$rate" "$cov" "$ft" \
		"$before" "$after" "$bytes"
done
for name in "${names[@]}"; do
	[ -f "$OUT/$name/result" ] || continue
	tail -n +2 "$OUT/$name/result"
	grep -q '^FAIL ' "$OUT/$name/result" && failed=$((failed + 1))
done
echo "$((${#names[@]} - failed)) passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
