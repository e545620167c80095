#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# What a packager (OpenWrt's SDK) passes reaches the build:
#   dist/flags_openwrt     the daemon builds, -Werror on, with OpenWrt's hardening flags
#                          (-Os, fortify, stack protector, -z now -z relro) and is linked
#                          BIND_NOW
#   dist/flags_reach       CPPFLAGS in every userspace compile, LDFLAGS in the link, AR for
#                          the archive (make -n V=1)
#   dist/flags_werror      -Werror by default, none with WERROR=0
#   dist/flags_missing_pc  a library pkg-config cannot find stops the build naming its .pc
#
# usage: tests/dist/test_packager_flags.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
REPORT_PREFIX=dist/
# shellcheck source=tests/lib/report.sh
. tests/lib/report.sh
OWRT_CFLAGS="-Os -pipe -fno-caller-saves -fno-plt -fstack-protector-strong -Wformat \
-Werror=format-security"

if make -j2 --no-print-directory O="$TMP/owrt" CFLAGS="$OWRT_CFLAGS" \
	CPPFLAGS=-D_FORTIFY_SOURCE=2 LDFLAGS="-Wl,-z,now -Wl,-z,relro" "$TMP/owrt/pppoe-xp" \
	>"$TMP/build" 2>&1; then
	if readelf -d "$TMP/owrt/pppoe-xp" | grep -q BIND_NOW; then
		pass flags_openwrt
	else
		fail flags_openwrt "linked without BIND_NOW: LDFLAGS did not reach the link"
	fi
else
	fail flags_openwrt "the build with OpenWrt's flags failed: $(grep -E 'error|warning' "$TMP/build" | head -n 10)"
fi

make -n -B V=1 --no-print-directory O="$TMP/dry" CPPFLAGS=-DPXP_MARK_CPP \
	LDFLAGS=-Wl,--pxp-mark-ld AR=pxp-mark-ar "$TMP/dry/pppoe-xp" >"$TMP/dry.txt" 2>&1
# The userspace compiles; BPF objects are built for no target's CPU and take none of its flags.
grep -E ' -c [^ ]+\.c ' "$TMP/dry.txt" | grep -v -- '-target bpf' >"$TMP/compiles"
compiles=$(wc -l <"$TMP/compiles")
compiles_marked=$(grep -c -- -DPXP_MARK_CPP "$TMP/compiles")
links=$(grep -E -- "-o $TMP/dry/pppoe-xp\$" "$TMP/dry.txt")
if [ "$compiles" -lt 10 ]; then
	fail flags_reach "make -n V=1 showed $compiles compiles: $(tail -n 3 "$TMP/dry.txt")"
elif [ "$compiles_marked" -ne "$compiles" ]; then
	fail flags_reach "CPPFLAGS in $compiles_marked of $compiles compiles"
elif ! grep -q -- '-Wl,--pxp-mark-ld' <<<"$links"; then
	fail flags_reach "LDFLAGS not in the link: $links"
elif ! grep -q ' pxp-mark-ar rcs ' "$TMP/dry.txt"; then
	fail flags_reach "AR not used for libpxp.a"
else
	pass flags_reach "$compiles compiles"
fi

on=$(make -s --no-print-directory room-flags ROOM=common)
off=$(make -s --no-print-directory room-flags ROOM=common WERROR=0)
if grep -qw -- -Werror <<<"$on" && ! grep -qw -- -Werror <<<"$off"; then
	pass flags_werror
else
	fail flags_werror "default '$on', WERROR=0 '$off'"
fi

out=$(make -n --no-print-directory O="$TMP/dry" PKG_CONFIG_LIBDIR="$TMP/none" all 2>&1)
if [ $? -ne 0 ] && grep -q 'libbpf.pc' <<<"$out" && grep -q 'nettle.pc' <<<"$out"; then
	pass flags_missing_pc
else
	fail flags_missing_pc "with no .pc files make said: $out"
fi
exit $REPORT_FAILED
