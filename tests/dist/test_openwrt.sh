#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The OpenWrt package's files without a session (tests/netns/test_netifd.sh runs one):
#   openwrt/scripts    the handler, the hooks and the stand-in parse as sh (dash) and
#                      pass shellcheck (busybox ash's dialect: POSIX plus `local`)
#   openwrt/depends    every library the top Makefile links (PKGS, the -l of LDLIBS) has
#                      its OpenWrt package in openwrt/Makefile's PXP_LIBS
#   openwrt/dump       `pppoe-xp.sh '' dump` declares protocol pppoexp with the stock
#                      `proto pppoe` keys and ours (mode)
#   openwrt/keys       setup maps each key to its option; the password goes into a 0600
#                      file, never argv
#   openwrt/defaults   with only a user and password: ppp.sh's defaults (keepalive "5 1",
#                      adaptive, IPv6), ifname pxp-INTERFACE, no --persist; the handler's
#                      run directory is the RUN_DIR openwrt/Makefile builds with
#   openwrt/demand     demand (dial on demand) is refused: INVALID_OPTIONS, no restart
#   openwrt/exit_names teardown after the daemon exited with each code of `pppoe-xp help`
#                      reports pppd's name for it (AUTH_FAILED for 11 and 19, which also
#                      block the restart unless authfail is 0, as 2 does: INVALID_OPTIONS)
#   openwrt/package    openwrt/Makefile under make with stubs for OpenWrt's rules.mk,
#                      package.mk and bpf.mk: version and DEPENDS, prepare, a dry run of
#                      the compile (the target's flags, toolchain UAPI headers, bpftool/host,
#                      RUN_DIR, no -Werror, the daemon alone), install
# The rest runs the real handler under the recording stand-in of netifd's shell API.
#
# usage: tests/dist/test_openwrt.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/netifd/lib.sh
BIN=$PWD/build/pppoe-xp
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
REPORT_PREFIX=openwrt/
# shellcheck source=tests/lib/report.sh
. tests/lib/report.sh

# A fresh tree per case: ROOT=$TMP/NAME/root, STATE=$TMP/NAME/state.
tree() {
	ROOT=$TMP/$1/root
	STATE=$TMP/$1/state
	netifd_install "$ROOT" "$STATE" || {
		fail "$1" "installing openwrt/files as openwrt/Makefile says failed"
		return 1
	}
}

# A pppoe-xp that only exits: setup's command line is what the cases check.
FAKE=$TMP/fake-pppoe-xp
printf '#!/bin/sh\nexit 0\n' >"$FAKE"
chmod +x "$FAKE"

setup_with() { # NAME JSON
	tree "$1" || return 1
	PPPOE_XP=$FAKE PPPOE_XP_RUN_DIR=$TMP/$1/run netifd_handler "$ROOT" pppoexp setup wan "$2" eth1
}

argv_of() { tr '\n' ' ' <"$STATE/task.argv"; }

test_scripts() {
	local f bad=
	for f in openwrt/files/* tests/netifd/netifd-proto.sh; do
		dash -n "$f" || bad="$bad $f"
	done
	[ -z "$bad" ] || {
		fail scripts "sh -n fails on$bad"
		return
	}
	if ! command -v shellcheck >/dev/null; then
		pass scripts "sh -n; no shellcheck installed"
		return
	fi
	# shellcheck disable=SC2046
	if ! shellcheck $(ls openwrt/files/* tests/netifd/netifd-proto.sh) >"$TMP/sc" 2>&1; then
		fail scripts "shellcheck: $(head -c 600 "$TMP/sc")"
		return
	fi
	pass scripts "sh -n, shellcheck"
}

test_depends() {
	local libs have l missing=''
	libs="$(sed -n 's/^PKGS := //p' Makefile) $(sed -n 's/^LDLIBS := //p' Makefile | grep -o -- '-l[a-z0-9]*' | grep -vx -- -lpthread)"
	have=$(sed -n '/^PXP_LIBS :=/,/^$/p' openwrt/Makefile | grep -o '[^[:space:]]*=[^[:space:]]*' | sed 's/=.*//')
	for l in $libs; do
		echo "$have" | grep -qx -- "$l" || missing="$missing $l"
	done
	[ -n "$libs" ] || { fail depends "no PKGS or LDLIBS read from the Makefile"; return; }
	[ -z "$missing" ] || { fail depends "not in openwrt/Makefile's PXP_LIBS:$missing"; return; }
	pass depends "$(echo "$libs" | wc -w) libraries"
}

test_dump() {
	local k missing=
	tree dump || return
	PPPOE_XP=$BIN netifd_handler "$ROOT" '' dump || { fail dump "dump failed"; return; }
	grep -qx 'protocol pppoexp' "$STATE/dump" || { fail dump "no 'protocol pppoexp': $(cat "$STATE/dump")"; return; }
	for k in username password keepalive keepalive_adaptive demand ipv6 authfail mtu pppname \
		persist maxfail holdoff ac service ac_mac host_uniq padi_attempts padi_timeout mode; do
		grep -q "^config $k " "$STATE/dump" || missing="$missing $k"
	done
	[ -z "$missing" ] || { fail dump "keys not declared:$missing"; return; }
	grep -qx 'lasterror 1' "$STATE/dump" || { fail dump "lasterror not set (netifd would not keep the error)"; return; }
	pass dump
}

test_keys() {
	local json want got pw
	json='{"username":"alice@isp","password":"pa ss\"word","keepalive":"4,7","keepalive_adaptive":false,
"ipv6":"0","mtu":1480,"pppname":"wan-x","persist":true,"maxfail":3,"holdoff":9,"ac":"AC 1",
"service":"svc","ac_mac":"02:00:00:00:00:0a","host_uniq":"0a0b","padi_attempts":4,"padi_timeout":2,
"mode":"tc","defaultroute":true,"peerdns":true,"metric":5}'
	setup_with keys "$json" || { fail keys "setup failed"; return; }
	pw=$TMP/keys/run/netifd-wan.pass
	want="$FAKE up eth1 --foreground --ipparam wan --ifname wan-x --keepalive 4,7 --usepeerdns \
--persist --maxfail 3 --holdoff 9 --user alice@isp --password-file $pw --mtu 1480 --ac AC 1 \
--service svc --ac-mac 02:00:00:00:00:0a --host-uniq 0a0b --padi-attempts 4 --padi-timeout 2 \
--mode tc --ip-up-script $ROOT/lib/netifd/pppoe-xp-up --ip-down-script $ROOT/lib/netifd/pppoe-xp-down "
	got=$(argv_of)
	[ "$got" = "$want" ] || { fail keys "command line '$got', want '$want'"; return; }
	grep -qx -- '--ac' "$STATE/task.argv" && grep -qx 'AC 1' "$STATE/task.argv" ||
		{ fail keys "'AC 1' was split into words"; return; }
	[ "$(cat "$pw")" = 'pa ss"word' ] || { fail keys "password file holds '$(cat "$pw")'"; return; }
	[ "$(stat -c %a "$pw")" = 600 ] || { fail keys "password file mode $(stat -c %a "$pw")"; return; }
	! grep -q 'ss"word' "$STATE/task.argv" "$STATE/calls" || { fail keys "the password is on the command line"; return; }
	pass keys
}

test_defaults() {
	local got want
	setup_with defaults '{"username":"bob","password":"x"}' || { fail defaults "setup failed"; return; }
	want="$FAKE up eth1 --foreground --ipparam wan --ifname pxp-wan --keepalive 5 1 --keepalive-adaptive \
--ipv6 --usepeerdns --user bob --password-file $TMP/defaults/run/netifd-wan.pass \
--ip-up-script $ROOT/lib/netifd/pppoe-xp-up --ip-down-script $ROOT/lib/netifd/pppoe-xp-down \
--ipv6-up-script $ROOT/lib/netifd/pppoe-xp-up --ipv6-down-script $ROOT/lib/netifd/pppoe-xp-down "
	got=$(argv_of)
	[ "$got" = "$want" ] || { fail defaults "command line '$got', want '$want'"; return; }
	grep -qx "export PPPOE_XP_RUN_DIR=$TMP/defaults/run" "$STATE/calls" ||
		{ fail defaults "the run directory was not exported to the task: $(netifd_calls "$STATE")"; return; }
	# Without the test's environment: the RUN_DIR the package builds the daemon with.
	got=$(unset PPPOE_XP_RUN_DIR; INCLUDE_ONLY=1 PPPOE_XP=$FAKE dash -c '. "$0"; pppoexp_run_dir' \
		"$ROOT/lib/netifd/proto/pppoe-xp.sh")
	want=$(sed -n 's/^[[:space:]]*RUN_DIR=\([^ ]*\).*/\1/p' openwrt/Makefile)
	[ -n "$want" ] && [ "$got" = "$want" ] ||
		{ fail defaults "the handler's run directory '$got' is not openwrt/Makefile's RUN_DIR '$want'"; return; }
	pass defaults
}

test_demand() {
	setup_with demand '{"username":"bob","password":"x","demand":30}' >/dev/null
	grep -qx 'notify_error INVALID_OPTIONS' "$STATE/calls" && grep -qx block_restart "$STATE/calls" ||
		{ fail demand "calls: $(netifd_calls "$STATE" | tr '\n' ';')"; return; }
	! grep -q '^run_command' "$STATE/calls" || { fail demand "the daemon was started anyway"; return; }
	pass demand
}

test_exit_names() {
	local code pppd want calls bad='' n=0
	tree exit_names || return
	while read -r code pppd; do
		case "$code" in
		0) want= ;;
		2) want="notify_error INVALID_OPTIONS;block_restart;" ;;
		11 | 19) want="notify_error AUTH_FAILED;block_restart;" ;;
		*) want="notify_error ${pppd#EXIT_};" ;;
		esac
		: >"$STATE/calls"
		touch "$STATE/task.exit" # the task has ended: nothing to kill
		ERROR=$code PPPOE_XP=$BIN PPPOE_XP_RUN_DIR=$TMP/exit_names/run \
			netifd_handler "$ROOT" pppoexp teardown wan '{}' eth1
		calls=$(grep -v '^kill_command' "$STATE/calls" | tr '\n' ';')
		[ "$calls" = "$want" ] || bad="$bad; $code: '$calls', want '$want'"
		grep -q '^kill_command' "$STATE/calls" || bad="$bad; $code: no proto_kill_command"
		n=$((n + 1))
	done < <("$BIN" help | awk '$NF ~ /^EXIT_/ { print $1, $NF }')
	[ "$n" -ge 10 ] || { fail exit_names "only $n exit codes read from pppoe-xp help"; return; }
	: >"$STATE/calls"
	ERROR=19 PPPOE_XP=$BIN netifd_handler "$ROOT" pppoexp teardown wan '{"authfail":false}' eth1
	! grep -qx block_restart "$STATE/calls" || bad="$bad; 19 with authfail 0 blocked the restart"
	: >"$STATE/calls"
	ERROR=42 PPPOE_XP=$BIN netifd_handler "$ROOT" pppoexp teardown wan '{}' eth1
	grep -qx 'notify_error UNKNOWN_ERROR' "$STATE/calls" || bad="$bad; 42: $(tr '\n' ';' <"$STATE/calls")"
	[ -z "$bad" ] || { fail exit_names "${bad#; }"; return; }
	pass exit_names "$n codes"
}

# openwrt/Makefile run by make as an OpenWrt tree would, with rules.mk, package.mk and
# bpf.mk replaced by stubs that define what it uses (host tools for the SDK's): prepare
# (the tree copied), compile (a dry run of our Makefile: what reaches which command), install
# (a stand-in binary, the scripts), and the package's DEPENDS and version.
test_package() {
	local stub=$TMP/sdk out=$TMP/package.out dest=$TMP/pkgroot deps f bad=
	mkdir -p "$stub/include" "$stub/staging/usr/lib" "$stub/staging/usr/share" "$dest"
	ln -s "/usr/lib/$(gcc -dumpmachine)/pkgconfig" "$stub/staging/usr/lib/pkgconfig"
	ln -s /usr/share/pkgconfig "$stub/staging/usr/share/pkgconfig"
	cat >"$stub/rules.mk" <<-'MK'
		INCLUDE_DIR := $(TOPDIR)/include
		STAGING_DIR := $(TOPDIR)/staging
		STAGING_DIR_HOST := $(TOPDIR)/host
		TOOLCHAIN_DIR := $(TOPDIR)/toolchain
		TARGET_CC := gcc
		TARGET_AR := ar
		TARGET_CFLAGS := -Os -pipe -fstack-protector-strong
		TARGET_CPPFLAGS := -D_FORTIFY_SOURCE=2
		TARGET_LDFLAGS := -Wl,-z,now -Wl,-z,relro
		PKG_CONFIG := pkg-config
		PKG_JOBS := -j1
		INSTALL_DIR := install -d -m0755
		INSTALL_BIN := install -m0755
	MK
	cat >"$stub/include/bpf.mk" <<-'MK'
		BPF_DEPENDS := @HAS_BPF_TOOLCHAIN
		CLANG := clang
	MK
	# Recipes need their tabs, which <<- would strip.
	printf '%s\n' 'PKG_BUILD_DIR := $(TOPDIR)/build_dir/$(PKG_NAME)-$(PKG_VERSION)' \
		'define BuildPackage' '$$(eval $$(Package/$(1)))' \
		'prepare:' '	$$(Build/Prepare)' 'compile:' '	+$$(Build/Compile)' \
		'install:' '	$$(call Package/$(1)/install,$$(DEST))' \
		'info:' "	@echo 'version \$\$(PKG_VERSION)'" "	@echo 'depends \$\$(DEPENDS)'" \
		'endef' >"$stub/include/package.mk"
	make -s --no-print-directory -C openwrt TOPDIR="$stub" info >"$out" 2>&1 ||
		{ fail package "make info: $(head -c 400 "$out")"; return; }
	[ "$(sed -n 's/^version //p' "$out")" = "$(sed -n 's/^VERSION := //p' Makefile)" ] ||
		{ fail package "version: $(cat "$out")"; return; }
	deps=$(sed -n 's/^depends //p' "$out")
	[ "$deps" = "+libbpf +libxdp +libnl-core +libnl-route +libnettle +libopenssl +libelf +zlib +kmod-veth @HAS_BPF_TOOLCHAIN" ] ||
		{ fail package "DEPENDS '$deps'"; return; }
	make -s --no-print-directory -C openwrt TOPDIR="$stub" prepare >"$out" 2>&1 &&
		[ -f "$stub/build_dir/pppoe-xp-0.1/Makefile" ] && [ ! -e "$stub/build_dir/pppoe-xp-0.1/build" ] ||
		{ fail package "prepare: $(head -c 400 "$out")"; return; }
	make -n --no-print-directory -C openwrt TOPDIR="$stub" compile >"$out" 2>&1 ||
		{ fail package "compile (dry run): $(grep -m3 -i error "$out")"; return; }
	grep -q -- "-target bpf .*-idirafter $stub/toolchain/include" "$out" || bad="$bad; no toolchain UAPI headers in the BPF compiles"
	grep -q "$stub/host/usr/sbin/bpftool gen skeleton" "$out" || bad="$bad; bpftool/host's bpftool not used"
	grep -q "^gcc .*-DPXP_RUN_DIR='\"/var/run/pppoe-xp\"'.*run_dir" "$out" || bad="$bad; RUN_DIR not /var/run/pppoe-xp"
	grep -q "^gcc .*-D_FORTIFY_SOURCE=2 .*-Os" "$out" || bad="$bad; the target's CPPFLAGS and CFLAGS not in the compiles"
	grep -q "^gcc .*-Wl,-z,now -Wl,-z,relro .*-o $stub/build_dir/pppoe-xp-0.1/build/pppoe-xp" "$out" || bad="$bad; the target's LDFLAGS not in the link"
	! grep -q -- '-Werror' "$out" || bad="$bad; -Werror despite WERROR=0"
	! grep -q 'tests/unit\|bench/' "$out" || bad="$bad; tests or bench tools built"
	[ -z "$bad" ] || { fail package "compile (dry run):${bad#;}"; return; }
	mkdir -p "$stub/build_dir/pppoe-xp-0.1/build"
	cp "$FAKE" "$stub/build_dir/pppoe-xp-0.1/build/pppoe-xp"
	make -s --no-print-directory -C openwrt TOPDIR="$stub" DEST="$dest" install >"$out" 2>&1 ||
		{ fail package "install: $(head -c 400 "$out")"; return; }
	for f in usr/sbin/pppoe-xp lib/netifd/proto/pppoe-xp.sh lib/netifd/pppoe-xp-up lib/netifd/pppoe-xp-down; do
		[ -x "$dest/$f" ] || bad="$bad /$f"
	done
	[ -z "$bad" ] || { fail package "not installed:$bad"; return; }
	pass package "info, prepare, compile (dry run), install"
}

[ -x "$BIN" ] || { fail build "$BIN is missing (run make)"; exit 1; }
command -v jq >/dev/null || { skip all "jq is missing (make deps installs it)"; exit 0; }
test_scripts
test_depends
test_dump
test_keys
test_defaults
test_demand
test_exit_names
test_package
exit $REPORT_FAILED
