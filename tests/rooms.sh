#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The rooms of the code and who may include whom (user/README.md). This table is the
# statement; the Makefile's INC_<room> include paths enforce it. Checked here both ways:
#   rooms/layout      no C file in user/ outside a room
#   rooms/includes    every #include "..." in a room names a header of a room it may use
#   rooms/build       each room's include path compiles the headers it may use and refuses
#                     one header of every room it may not (a wrong-way include fails the build)
set -u
cd "$(dirname "$0")/.." || exit 2

# room -> its directory, and the rooms whose headers it may include (besides its own).
# cli -> shell -> datapath -> engine; every room of user/ -> common; pppoe/ and wg-bridge/
# (the WireGuard core) are pure; shell (and so cli) may use the WireGuard core.
declare -A DIR=(
	[include]=include [pppoe]=pppoe [wg]=wg-bridge [bpf]=bpf [common]=user/common
	[engine]=user/datapath/engine [datapath]=user/datapath [shell]=user/shell [cli]=user/cli
)
declare -A MAY=(
	[pppoe]="include"
	[wg]="include"
	[common]="include"
	[engine]="include common bpf"
	[datapath]="include common bpf engine skel"
	[shell]="include common bpf engine skel datapath pppoe wg"
	[cli]="include common bpf engine skel datapath pppoe wg shell"
)
ROOMS="pppoe wg common engine datapath shell cli"

REPORT_PREFIX=rooms/
# shellcheck source=tests/lib/report.sh
. tests/lib/report.sh

# The room a header lives in: the first room directory holding it ("skel" for generated
# skeletons), "" if none does (a system header).
room_of() {
	local h=$1 r
	case $h in *.skel.h) echo skel && return ;; esac
	for r in include pppoe wg common engine datapath shell cli; do
		[ -f "${DIR[$r]}/$h" ] && echo "$r" && return
	done
	[ -f "bpf/$h" ] && echo bpf && return
	echo ""
}

# Files of a room, not those of a room nested inside it.
room_files() {
	local r=$1
	if [ "$r" = datapath ]; then
		ls user/datapath/*.[ch] 2>/dev/null
	else
		ls "${DIR[$r]}"/*.[ch] 2>/dev/null
	fi
}

test_layout() {
	local stray
	stray=$(ls user/*.[ch] 2>/dev/null | tr '\n' ' ')
	[ -z "$stray" ] && pass layout || fail layout "outside any room: $stray"
}

test_includes() {
	local r f h line where bad=""
	for r in $ROOMS; do
		for f in $(room_files "$r"); do
			while IFS=: read -r line h; do
				where=$(room_of "$h")
				[ -z "$where" ] && { bad+="$f:$line $h (no room has it); "; continue; }
				[ "$where" = "$r" ] && continue
				case " ${MAY[$r]} " in
				*" $where "*) ;;
				*) bad+="$f:$line $r includes $where's $h; " ;;
				esac
			done < <(grep -noE '^#include "[^"]+"' "$f" | sed -E 's/:#include "(.*)"/:\1/')
		done
	done
	[ -z "$bad" ] && pass includes || fail includes "$bad"
}

# compiles ROOM HEADER: does the room's include path take `#include "HEADER"`?
compiles() {
	local flags
	flags=$(make -s --no-print-directory room-flags ROOM="$1") || return 2
	# shellcheck disable=SC2086
	echo "#include \"$2\"" | ${CC:-gcc} $flags -fsyntax-only -x c - 2>/dev/null
}

# One header of each room, to probe with.
declare -A PROBE=(
	[pppoe]=ppp.h [wg]=noise.h [common]=log.h [engine]=engine.h [datapath]=datapath.h
	[shell]=client.h [cli]=config.h
)

test_build() {
	local r other bad=""
	for r in $ROOMS; do
		for other in $ROOMS; do
			[ "$other" = "$r" ] && continue
			if [[ " ${MAY[$r]} " == *" $other "* ]]; then
				compiles "$r" "${PROBE[$other]}" ||
					bad+="$r cannot include $other's ${PROBE[$other]}; "
			elif compiles "$r" "${PROBE[$other]}"; then
				bad+="$r compiles with $other's ${PROBE[$other]}; "
			fi
		done
	done
	[ -z "$bad" ] && pass build || fail build "$bad"
}

test_layout
test_includes
test_build
exit $REPORT_FAILED
