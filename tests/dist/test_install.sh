#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make install and make uninstall into a temporary DESTDIR (never the real /usr or /etc):
# the exact file list and modes, the unit's paths following PREFIX, the installed binary
# running --version, systemd-analyze accepting the unit (SKIP where it is missing), and uninstall removing what install
# put there while keeping a configuration the administrator wrote.
#
# usage: tests/dist/test_install.sh [case...]   (cases: files unit verify uninstall)
set -u
cd "$(dirname "$0")/../.." || exit 2
O=${O:-build}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
UNIT=usr/lib/systemd/system/pppoe-xp@.service

REPORT_PREFIX=dist/
# shellcheck source=tests/lib/report.sh
. tests/lib/report.sh

install_to() { # DESTDIR [make variables]
	local dest=$1
	shift
	make -s --no-print-directory O="$O" install DESTDIR="$dest" "$@" >"$TMP/make.out" 2>&1
}

# Each path below DIR with its mode, as find shows them.
listing() { (cd "$1" && find . -mindepth 1 -printf '%m %y %P\n' | sort -k3); }

test_files() {
	local dest=$TMP/files want got out
	install_to "$dest" PREFIX=/usr || { fail "$CASE" "make install: $(cat "$TMP/make.out")"; return; }
	want=$(sort -k3 <<-'EOF2'
		755 d etc
		755 d etc/iproute2
		755 d etc/iproute2/rt_protos.d
		644 f etc/iproute2/rt_protos.d/pppoe-xp.conf
		700 d etc/pppoe-xp
		755 d usr
		755 d usr/lib
		755 d usr/lib/systemd
		755 d usr/lib/systemd/system
		644 f usr/lib/systemd/system/pppoe-xp@.service
		755 d usr/sbin
		755 f usr/sbin/pppoe-xp
		755 f usr/sbin/pppoe-xp-wg
		755 d usr/share
		755 d usr/share/man
		755 d usr/share/man/man8
		644 f usr/share/man/man8/pppoe-xp.8
	EOF2
	)
	got=$(listing "$dest")
	[ "$got" = "$want" ] || { fail "$CASE" "installed $(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | tr '\n' ' ')"; return; }
	out=$("$dest/usr/sbin/pppoe-xp" --version) || { fail "$CASE" "the installed binary's --version failed"; return; }
	[[ $out == "pppoe-xp "[0-9]* ]] || { fail "$CASE" "--version printed '$out'"; return; }
	pass "$CASE" "$out"
}

# The unit runs the binary where PREFIX put it, with options its commands have, and points
# the binary at the configuration directory (tests/netns/test_config.sh runs it).
test_unit() {
	local dest=$TMP/unit start stop opt
	install_to "$dest" PREFIX=/usr || { fail "$CASE" "make install: $(cat "$TMP/make.out")"; return; }
	start=$(sed -n 's/^ExecStart=//p' "$dest/$UNIT")
	stop=$(sed -n 's/^ExecStop=//p' "$dest/$UNIT")
	[[ $start == "/usr/sbin/pppoe-xp up %i --foreground" ]] || { fail "$CASE" "ExecStart=$start"; return; }
	[[ $stop == "/usr/sbin/pppoe-xp down %i" ]] || { fail "$CASE" "ExecStop=$stop"; return; }
	for opt in $(grep -oE -- '--[a-z-]+' <<<"$start"); do
		"$dest/usr/sbin/pppoe-xp" up --help | grep -qE -- "^ +(-., )?$opt( |$)" ||
			{ fail "$CASE" "ExecStart passes $opt, which up does not take"; return; }
	done
	grep -qx 'Environment=PPPOE_XP_CONFIG_DIR=/etc/pppoe-xp' "$dest/$UNIT" ||
		{ fail "$CASE" "the unit does not point pppoe-xp at /etc/pppoe-xp"; return; }
	"$dest/usr/sbin/pppoe-xp" up --help | grep -qF 'PPPOE_XP_CONFIG_DIR' ||
		{ fail "$CASE" "up --help does not name PPPOE_XP_CONFIG_DIR, the unit's variable"; return; }
	pass "$CASE"
}

# systemd itself accepts the unit.
test_verify() {
	local dest=$TMP/prefix out
	if ! command -v systemd-analyze >/dev/null; then
		skip "$CASE" "no systemd-analyze on this machine (apt install systemd)"
		return
	fi
	# verify wants the binary and the man page where the unit says: a real prefix.
	make -s --no-print-directory O="$O" install PREFIX="$dest/usr" SYSCONFDIR="$dest/etc" \
		>"$TMP/make.out" 2>&1 || { fail "$CASE" "make install PREFIX=$dest/usr: $(cat "$TMP/make.out")"; return; }
	out=$(MANPATH=$dest/usr/share/man timeout 60 systemd-analyze verify "$dest/$UNIT" 2>&1)
	[ -z "$out" ] || { fail "$CASE" "systemd-analyze verify: $out"; return; }
	pass "$CASE" "systemd-analyze verify"
}

test_uninstall() {
	local dest=$TMP/uninstall got
	install_to "$dest" || { fail "$CASE" "make install: $(cat "$TMP/make.out")"; return; }
	make -s --no-print-directory O="$O" uninstall DESTDIR="$dest" >"$TMP/make.out" 2>&1 ||
		{ fail "$CASE" "make uninstall: $(cat "$TMP/make.out")"; return; }
	got=$(cd "$dest" && find . -type f -o -type d -name pppoe-xp)
	[ -z "$got" ] || { fail "$CASE" "left behind: $got"; return; }
	install_to "$dest" || { fail "$CASE" "make install: $(cat "$TMP/make.out")"; return; }
	echo "persist" >"$dest/etc/pppoe-xp/eth0.conf"
	make -s --no-print-directory O="$O" uninstall DESTDIR="$dest" >"$TMP/make.out" 2>&1 ||
		{ fail "$CASE" "make uninstall: $(cat "$TMP/make.out")"; return; }
	[ -f "$dest/etc/pppoe-xp/eth0.conf" ] || { fail "$CASE" "uninstall removed the configuration"; return; }
	pass "$CASE"
}

[ -x "$O/pppoe-xp" ] || { skip install "$O/pppoe-xp not built"; exit 0; }
for c in ${*:-files unit verify uninstall}; do
	CASE=install_$c
	"test_$c"
done
exit $REPORT_FAILED
