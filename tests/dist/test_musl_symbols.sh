#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# OpenWrt links against musl: every C library function our objects call must exist there.
# The symbols the daemon's objects (libpxp.a and main.o, built against glibc) leave
# undefined and glibc's libc or libm defines are looked up in musl's libc.a. glibc's
# headers turn some calls into __NAME_chk (_FORTIFY_SOURCE): musl's headers do not, so those
# count as NAME. The libraries (libbpf, libxdp, libnl, nettle) are OpenWrt's own builds and
# not checked here.
#
# usage: tests/dist/test_musl_symbols.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
O=${O:-build}
MUSL_LIBC=${MUSL_LIBC:-/usr/lib/$(gcc -dumpmachine | sed 's/-gnu$/-musl/')/libc.a}
GLIBC_DIR=/lib/$(gcc -dumpmachine)
REPORT_PREFIX=dist/
# shellcheck source=tests/lib/report.sh
. tests/lib/report.sh
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

if [ ! -f "$MUSL_LIBC" ]; then
	skip musl_symbols "no musl libc.a at $MUSL_LIBC (Debian's musl-dev; make deps installs it)"
	exit 0
fi
objs=("$O/libpxp.a" "$O/user/cli/main.o")
for f in "${objs[@]}"; do
	if [ ! -f "$f" ]; then
		fail musl_symbols "$f is not built (make all)"
		exit 1
	fi
done

nm -u "${objs[@]}" 2>/dev/null | awk '$1 == "U" { print $2 }' | sort -u >"$TMP/undefined"
nm --defined-only "${objs[@]}" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u >"$TMP/ours"
nm -D --defined-only "$GLIBC_DIR/libc.so.6" "$GLIBC_DIR/libm.so.6" |
	awk 'NF == 3 { sub(/@.*/, "", $3); print $3 }' | sort -u >"$TMP/glibc"
nm --defined-only "$MUSL_LIBC" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u >"$TMP/musl"

comm -23 "$TMP/undefined" "$TMP/ours" | comm -12 - "$TMP/glibc" >"$TMP/libc_used"
used=$(wc -l <"$TMP/libc_used")
if [ "$used" -lt 20 ]; then
	fail musl_symbols "only $used C library symbols found in ${objs[*]}: nm failed?"
	exit 1
fi
missing=$(sed -E 's/^__(.+)_chk$/\1/' "$TMP/libc_used" | sort -u | comm -23 - "$TMP/musl" |
	tr '\n' ' ')
if [ -n "$missing" ]; then
	fail musl_symbols "glibc-only calls (musl's libc.a has none of them): $missing"
	exit 1
fi
pass musl_symbols "$used C library symbols, all in musl"
