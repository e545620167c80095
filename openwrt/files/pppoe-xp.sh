#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# shellcheck shell=dash
# netifd protocol handler `pppoexp` (/lib/netifd/proto/pppoe-xp.sh): pppoe-xp in place of
# pppd for a WAN interface. It takes the keys of the stock `proto pppoe` (ppp.sh), so that
# the proto line is the only one a user changes, plus `mode` (the data path). netifd runs
# `pppoe-xp up DEV --foreground ...` as the protocol's task; the daemon's ip-up and ip-down
# hooks (/lib/netifd/pppoe-xp-up, -down) report the addresses, routes and DNS back to
# netifd, as /lib/netifd/ppp-up does for pppd. docs/openwrt.md says what maps to what.

# The binary; the test runs the build's (tests/netifd/test_netifd.sh).
PPPOE_XP=${PPPOE_XP:-/usr/sbin/pppoe-xp}
[ -x "$PPPOE_XP" ] || exit 0

[ -n "$INCLUDE_ONLY" ] || {
	# shellcheck source=/dev/null
	. ../netifd-proto.sh
	init_proto "$@"
}

# Where the daemon keeps its run files (the RUN_DIR openwrt/Makefile builds it with; the
# environment's for the test); the password file goes there too (tmpfs, 0700).
pppoexp_run_dir() {
	echo "${PPPOE_XP_RUN_DIR:-/var/run/pppoe-xp}"
}

proto_pppoexp_init_config() {
	proto_config_add_string username
	proto_config_add_string password
	proto_config_add_string keepalive
	proto_config_add_boolean keepalive_adaptive
	proto_config_add_int demand
	proto_config_add_string ipv6
	proto_config_add_boolean authfail
	proto_config_add_int mtu
	proto_config_add_string pppname
	proto_config_add_boolean persist
	proto_config_add_int maxfail
	proto_config_add_int holdoff
	proto_config_add_string ac
	proto_config_add_string service
	proto_config_add_string ac_mac
	proto_config_add_string host_uniq
	proto_config_add_int padi_attempts
	proto_config_add_int padi_timeout
	proto_config_add_string mode
	# shellcheck disable=SC2034 # read by netifd-proto.sh's dump: keep the last error
	lasterror=1
}

proto_pppoexp_setup() {
	local config="$1"
	local iface="$2"
	local username password keepalive keepalive_adaptive demand ipv6 mtu pppname persist
	local maxfail holdoff ac service ac_mac host_uniq padi_attempts padi_timeout mode
	local run_dir pwfile adaptive hooks

	json_get_vars username password keepalive keepalive_adaptive demand ipv6 mtu pppname \
		persist maxfail holdoff ac service ac_mac host_uniq padi_attempts padi_timeout mode

	if [ "${demand:-0}" -gt 0 ]; then
		echo "pppoexp: demand $demand is not supported (pppoe-xp dials at once)"
		proto_notify_error "$config" INVALID_OPTIONS
		proto_block_restart "$config"
		return 1
	fi
	# As ppp.sh: no keepalive means "5 1"; a failure count below 1 means no echoes.
	[ -n "$keepalive" ] || keepalive="5 1"
	[ "${keepalive%%[, ]*}" -lt 1 ] 2>/dev/null && keepalive=0
	[ "${keepalive_adaptive:-1}" -ge 1 ] && [ "$keepalive" != 0 ] && adaptive=1
	case "$ipv6" in
	0) ipv6= ;;
	*) ipv6=1 ;; # "", "1", "auto": IPv6CP, the kernel takes the AC's advertisements
	esac
	[ "${persist:-0}" -ge 1 ] || persist=

	# The password goes through a file, never argv (ppp.sh hands pppd an option).
	run_dir=$(pppoexp_run_dir)
	pwfile="$run_dir/netifd-$config.pass"
	mkdir -p "$run_dir" && chmod 0700 "$run_dir" || return 1
	(umask 077 && printf '%s\n' "$password" >"$pwfile") || return 1

	# netifd runs handlers in /lib/netifd/proto (hence ../netifd-proto.sh): the hooks are
	# beside netifd-proto.sh, as ppp-up is.
	hooks=$(cd .. && pwd) || return 1

	proto_export "PPPOE_XP_RUN_DIR=$run_dir"
	# netifd sets the default route and DNS from what the hook reports (its defaultroute,
	# peerdns and metric keys decide), so the daemon adds neither itself.
	proto_run_command "$config" "$PPPOE_XP" up "$iface" --foreground \
		--ipparam "$config" \
		--ifname "${pppname:-pxp-$config}" \
		--keepalive "$keepalive" \
		${adaptive:+--keepalive-adaptive} \
		${ipv6:+--ipv6} \
		--usepeerdns \
		${persist:+--persist --maxfail "${maxfail:-0}"} \
		${holdoff:+--holdoff "$holdoff"} \
		${username:+--user "$username"} \
		--password-file "$pwfile" \
		${mtu:+--mtu "$mtu"} \
		${ac:+--ac "$ac"} \
		${service:+--service "$service"} \
		${ac_mac:+--ac-mac "$ac_mac"} \
		${host_uniq:+--host-uniq "$host_uniq"} \
		${padi_attempts:+--padi-attempts "$padi_attempts"} \
		${padi_timeout:+--padi-timeout "$padi_timeout"} \
		${mode:+--mode "$mode"} \
		--ip-up-script "$hooks/pppoe-xp-up" \
		--ip-down-script "$hooks/pppoe-xp-down" \
		${ipv6:+--ipv6-up-script "$hooks/pppoe-xp-up" --ipv6-down-script "$hooks/pppoe-xp-down"}
}

# pppd's name of an exit code, from pppoe-xp's own table (`pppoe-xp help`).
pppoexp_exit_name() {
	local name
	name=$("$PPPOE_XP" help 2>/dev/null | awk -v code="$1" '$1 == code && $NF ~ /^EXIT_/ { print $NF; exit }')
	name=${name#EXIT_}
	echo "${name:-UNKNOWN_ERROR}"
}

proto_pppoexp_teardown() {
	local interface="$1"
	local authfail

	rm -f "$(pppoexp_run_dir)/netifd-$interface.pass"
	case "$ERROR" in
	"" | 0) ;; # still running (netifd's own teardown), or a clean end
	11 | 19)
		# A wrong user or password does not heal by retrying: wait for a new config
		# (ppp.sh's authfail, here on unless set to 0).
		proto_notify_error "$interface" AUTH_FAILED
		json_get_var authfail authfail
		[ "${authfail:-1}" -lt 1 ] || proto_block_restart "$interface"
		;;
	2)
		proto_notify_error "$interface" INVALID_OPTIONS
		proto_block_restart "$interface"
		;;
	*)
		proto_notify_error "$interface" "$(pppoexp_exit_name "$ERROR")"
		;;
	esac
	proto_kill_command "$interface"
}

[ -n "$INCLUDE_ONLY" ] || add_protocol pppoexp
