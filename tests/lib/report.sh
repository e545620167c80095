# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# The result lines of the test scripts outside the netns suites (tests/rooms.sh, tests/dist/,
# the guest suites; tests/netns/lib.sh has its own), as tests/run.sh counts them:
#   pass NAME [DETAIL]  PASS <prefix>NAME (DETAIL)
#   fail NAME WHY       FAIL <prefix>NAME: WHY; REPORT_FAILED becomes 1 (the exit status)
#   skip NAME WHY       SKIP <prefix>NAME: WHY
# REPORT_PREFIX (say "dist/"; none by default) goes before every name. pass and fail also
# note on stderr when the script got there: a slow suite (a TCG guest) shows where its time
# went.
REPORT_PREFIX=${REPORT_PREFIX:-}
REPORT_FAILED=0

pass() {
	echo "PASS $REPORT_PREFIX$1${2:+ ($2)}"
	echo "  [$1 done at ${SECONDS}s]" >&2
}

fail() {
	echo "FAIL $REPORT_PREFIX$1: $2"
	echo "  [$1 done at ${SECONDS}s]" >&2
	REPORT_FAILED=1
}

skip() {
	echo "SKIP $REPORT_PREFIX$1: $2"
}
