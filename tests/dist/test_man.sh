#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The command line's tables as a user meets them, no network needed: every command's
# --help runs, the man page pppoe-xp(8) renders and lists under each command every option
# that command's --help lists (both come from the option tables, so this is about the
# build putting them together), and docs/operation.md documents each of those options.
#
# usage: tests/dist/test_man.sh [case...]   (cases: help version man docs exit)
set -u
cd "$(dirname "$0")/../.." || exit 2
B=${PXP_BIN:-${O:-build}/pppoe-xp}
MAN=${O:-build}/pppoe-xp.8
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

REPORT_PREFIX=dist/
# shellcheck source=tests/lib/report.sh
. tests/lib/report.sh

# The commands `pppoe-xp help` lists, but help itself.
commands() { "$B" help | awk '/^  [a-z]+ / && $1 != "help" { print $1 }'; }

# The long options one command's --help lists, --help itself too.
help_options() { "$B" "$1" --help | grep -oE '^ {2,6}(-[a-zA-Z], )?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+'; }

test_help() {
	local c n=0 out
	for c in $(commands); do
		if ! out=$("$B" "$c" --help 2>&1); then
			fail "$CASE" "$c --help exited non-zero: $out"
			return
		fi
		case $out in
		"usage: pppoe-xp $c "*) ;;
		*) fail "$CASE" "$c --help does not begin with its usage: $(head -n 1 <<<"$out")"; return ;;
		esac
		n=$((n + 1))
	done
	[ "$n" -ge 6 ] || { fail "$CASE" "pppoe-xp help lists $n commands"; return; }
	pass "$CASE" "$n commands"
}

test_version() {
	local out
	out=$("$B" --version) || { fail "$CASE" "--version exited non-zero"; return; }
	[[ $out =~ ^pppoe-xp\ [0-9]+\.[0-9]+ ]] || { fail "$CASE" "--version printed '$out'"; return; }
	pass "$CASE" "$out"
}

test_man() {
	local c o text section missing="" n=0
	[ -f "$MAN" ] || { fail "$CASE" "$MAN was not built"; return; }
	if ! text=$(LC_ALL=C.UTF-8 MANWIDTH=100 man --warnings -l "$MAN" 2>"$TMP/warn"); then
		fail "$CASE" "man -l $MAN failed: $(cat "$TMP/warn")"
		return
	fi
	[ -s "$TMP/warn" ] && { fail "$CASE" "man -l $MAN warns: $(cat "$TMP/warn")"; return; }
	for c in $(commands); do
		# From the command's subsection header ("   up IFACE") to the next header.
		section=$(awk -v c="$c" '/^   [^ ]/ { on = ($1 == c) } /^[^ ]/ { on = 0 } on' <<<"$text")
		[ -n "$section" ] || { missing+=" (no section for $c)"; continue; }
		for o in $(help_options "$c"); do
			grep -qF -- "$o" <<<"$section" || missing+=" $c $o"
			n=$((n + 1))
		done
	done
	[ -z "$missing" ] || { fail "$CASE" "the man page lacks:$missing"; return; }
	pass "$CASE" "$n options"
}

test_docs() {
	local c o missing="" n=0
	for c in $(commands); do
		for o in $(help_options "$c"); do
			[ "$o" = --help ] && continue
			grep -qF -- "\`$o" docs/operation.md || missing+=" $c $o"
			n=$((n + 1))
		done
	done
	# The configuration file's words, from the table as the man page prints it.
	for o in $("$B" --man-sections | sed -n '/^\.SH "CONFIGURATION FILE"/,/^\.SH "EXIT/p' |
		awk 'prev == ".TP" { sub(/^\\fB/, ""); print substr($0, 1, index($0, "\\fR") - 1) }
			{ prev = $0 }' | sed 's/\\-/-/g'); do
		grep -qF -- "\`$o" docs/operation.md || missing+=" word $o"
		n=$((n + 1))
	done
	[ -z "$missing" ] || { fail "$CASE" "docs/operation.md lacks:$missing"; return; }
	pass "$CASE" "$n options and words"
}

# The exit codes `help` lists (from the one table) are docs/operation.md's and the man page's,
# each with pppd's name for it.
test_exit() {
	local code name missing="" n=0 text
	text=$(LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$MAN" 2>/dev/null)
	while read -r code name; do
		grep -qE "^\| $code \| \`$name\` \|" docs/operation.md || missing+=" docs:$code=$name"
		grep -qF "($name)" <<<"$text" || missing+=" man:$code=$name"
		n=$((n + 1))
	done < <("$B" help | sed -n '/^Exit codes:/,/^$/s/^ *\([0-9][0-9]*\) .* \(EXIT_[A-Z_]*\)$/\1 \2/p')
	[ "$n" -ge 15 ] || { fail "$CASE" "help lists $n exit codes"; return; }
	[ "$(grep -cE '^\| [0-9]+ \| `EXIT_' docs/operation.md)" = "$n" ] ||
		missing+=" (docs/operation.md has other rows than help's $n)"
	[ -z "$missing" ] || { fail "$CASE" "exit codes differ:$missing"; return; }
	pass "$CASE" "$n codes"
}

[ -x "$B" ] || { skip man "$B not built"; exit 0; }
for CASE in ${*:-help version man docs exit}; do
	"test_$CASE"
done
exit $REPORT_FAILED
