#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make demo` stays true: the demo runs to its end, and its summary reports real traffic.
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if bash "$(dirname "$0")/demo.sh" --seconds 2 >"$out" 2>&1; then
	if grep -qE 'upload +[1-9][0-9]* Mbit/s' "$out" && grep -qE 'drops +0 frames' "$out"; then
		echo "PASS demo/runs"
	else
		echo "FAIL demo/runs: summary lacks traffic or shows drops: $(grep -A8 '== summary' "$out" | tr '\n' ' ')"
	fi
else
	echo "FAIL demo/runs: demo.sh failed: $(grep -E 'FAILED|demo:|rror' "$out" | head -5 | tr '\n' ' ')"
	exit 1
fi
