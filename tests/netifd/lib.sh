# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The netifd handler's test tree: openwrt/files installed where openwrt/Makefile's install
# section puts them, under a root of the test's, with the recording stand-in
# (tests/netifd/netifd-proto.sh) as ROOT/lib/netifd/netifd-proto.sh. Sourced by
# tests/dist/test_openwrt.sh and tests/netns/test_netifd.sh.

NETIFD_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# netifd_install ROOT STATE: lays out ROOT as the package does; calls are recorded in STATE.
netifd_install() {
	local root=$1 state=$2 line src dst n=0
	mkdir -p "$state"
	# "$(INSTALL_BIN) ./files/NAME $(1)/PATH": the package's own list of what goes where.
	while read -r line; do
		src=$(echo "$line" | awk '{ print $2 }')
		dst=$(echo "$line" | awk '{ print $3 }')
		dst=${dst#\$(1)}
		mkdir -p "$root$(dirname "$dst")"
		install -m 0755 "$NETIFD_SRC/openwrt/${src#./}" "$root$dst" || return 1
		n=$((n + 1))
	done < <(grep -E '^\s*\$\(INSTALL_BIN\) \./files/' "$NETIFD_SRC/openwrt/Makefile")
	[ "$n" -ge 3 ] || return 1
	sed "s|@STATE@|$state|" "$NETIFD_SRC/tests/netifd/netifd-proto.sh" \
		>"$root/lib/netifd/netifd-proto.sh"
}

# netifd_handler ROOT ARG...: runs the handler as netifd does, in ROOT/lib/netifd/proto:
# `'' dump`, or `pppoexp setup|teardown INTERFACE DATA DEVICE`.
netifd_handler() {
	local root=$1
	shift
	(cd "$root/lib/netifd/proto" && ./pppoe-xp.sh "$@")
}

# netifd_calls STATE: the recorded calls, one a line.
netifd_calls() {
	cat "$1/calls" 2>/dev/null
}

# netifd_last_update STATE: the file of the last proto_send_update.
netifd_last_update() {
	local n
	n=$(sed -n 's/^update //p' "$1/calls" 2>/dev/null | tail -1)
	[ -n "$n" ] && echo "$1/update.$n"
}
