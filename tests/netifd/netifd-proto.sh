# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# Functions defined here are called by the handler, variables read by it:
# shellcheck disable=SC2034,SC2317
#
# A recording stand-in for netifd's shell API (/lib/netifd/netifd-proto.sh with the parts
# of libubox's jshn.sh a handler uses), written from their documented contract: Debian has
# no netifd, ubus or libubox. The test installs it as ROOT/lib/netifd/netifd-proto.sh with
# @STATE@ replaced by its state directory, where every call is recorded:
#
#   STATE/calls       one line per call: "run_command ARG...", "notify_error NAME...",
#                     "block_restart", "kill_command SIGNAL", "export VAR=...", "update N"
#                     (N: the pid of the shell that sent it)
#   STATE/update.N    what proto_send_update was told, one "key value" a line: interface,
#                     ifname, link-up, address-external, keep, ipaddr A/MASK/BCAST/PTP,
#                     ip6addr A/MASK, route TARGET/MASK/GW, dns IP, data KEY VALUE
#   STATE/dump        what `HANDLER '' dump` declared: "protocol NAME", "config NAME TYPE",
#                     the flags
#   STATE/task.argv, task.pid, task.exit, task.log   the command proto_run_command
#                     started, one argument a line, its pid, exit code and output (netifd
#                     starts it: here it really runs, in the background, as netifd's task)
#
# What is not netifd's: nothing is applied (no address, route or DNS reaches the system),
# no ubus message is sent, and the test itself plays netifd's state machine (setup, the
# task's exit, teardown with ERROR).

NETIFD_STATE=@STATE@

_nf_call() {
	printf '%s\n' "$*" >>"$NETIFD_STATE/calls"
}

# --- jshn, as far as handlers and hooks use it ------------------------------------------

_NF_DATA=
_NF_IN_DATA=

json_init() { :; }

json_load() {
	_NF_DATA=$1
}

# jshn's json_get_var: a string or number as it is, a boolean as 1 or 0, "" when absent.
json_get_var() {
	local _v
	_v=$(printf '%s' "$_NF_DATA" | jq -r --arg k "$2" \
		'.[$k] | if type == "boolean" then (if . then 1 else 0 end) elif . == null then "" else . end')
	eval "$1=\$_v"
}

json_get_vars() {
	local _k
	for _k in "$@"; do
		json_get_var "$_k" "$_k"
	done
}

json_add_int() {
	[ -n "$_NF_IN_DATA" ] && append PROTO_DATA "$1=$2"
}
json_add_string() { json_add_int "$@"; }
json_add_boolean() { json_add_int "$@"; }

append() {
	local _var=$1 _val=$2 _sep=${3:- }
	eval "$_var=\"\${$_var:+\${$_var}\${_sep}}\$_val\""
}

# --- the handler's declarations (dump) ---------------------------------------------------

_nf_config() {
	printf 'config %s %s\n' "$1" "$2" >>"$NETIFD_STATE/dump"
}
proto_config_add_string() { _nf_config "$1" string; }
proto_config_add_int() { _nf_config "$1" int; }
proto_config_add_boolean() { _nf_config "$1" boolean; }
proto_config_add_array() { _nf_config "$1" array; }

# --- the update netifd is told (proto_send_update) ---------------------------------------

proto_init_update() {
	PROTO_IFNAME=$1
	PROTO_UP=$2
	PROTO_EXTERNAL=$3
	PROTO_KEEP=0
	PROTO_IPADDR=
	PROTO_IP6ADDR=
	PROTO_ROUTE=
	PROTO_DNS=
	PROTO_DATA=
}

proto_set_keep() { PROTO_KEEP=$1; }
proto_add_ipv4_address() { append PROTO_IPADDR "$1/$2/$3/$4"; }
proto_add_ipv6_address() { append PROTO_IP6ADDR "$1/$2"; }
proto_add_ipv4_route() { append PROTO_ROUTE "$1/$2/$3"; }
proto_add_dns_server() { append PROTO_DNS "$1"; }
proto_add_data() { _NF_IN_DATA=1; }
proto_close_data() { _NF_IN_DATA=; }

proto_send_update() {
	local n=$$ f item
	f=$NETIFD_STATE/update.$n
	{
		echo "interface $1"
		echo "ifname $PROTO_IFNAME"
		echo "link-up $PROTO_UP"
		[ -z "$PROTO_EXTERNAL" ] || echo "address-external $PROTO_EXTERNAL"
		echo "keep $PROTO_KEEP"
		for item in $PROTO_IPADDR; do echo "ipaddr $item"; done
		for item in $PROTO_IP6ADDR; do echo "ip6addr $item"; done
		for item in $PROTO_ROUTE; do echo "route $item"; done
		for item in $PROTO_DNS; do echo "dns $item"; done
		for item in $PROTO_DATA; do echo "data ${item%%=*} ${item#*=}"; done
	} >"$f.tmp"
	mv "$f.tmp" "$f"
	_nf_call "update $n"
}

# --- the protocol task and errors --------------------------------------------------------

# netifd adds these to the task's environment.
proto_export() {
	_nf_call "export $1"
	export "${1?}"
}

# netifd starts the command as the interface's task; so does this, for real.
proto_run_command() {
	shift
	_nf_call "run_command $*"
	printf '%s\n' "$@" >"$NETIFD_STATE/task.argv"
	rm -f "$NETIFD_STATE/task.exit" "$NETIFD_STATE/task.pid"
	# A process of its own, as netifd is: a subshell would keep the handler's argv, which
	# holds netifd's JSON (and so the password) in /proc/PID/cmdline.
	# shellcheck disable=SC2016
	sh -c 'state=$1; shift; "$@" >>"$state/task.log" 2>&1 </dev/null &
		echo $! >"$state/task.pid"; wait $!; echo $? >"$state/task.exit"' \
		netifd-task "$NETIFD_STATE" "$@" >/dev/null 2>&1 &
	# The pid is what proto_kill_command signals: have it before the handler returns.
	while [ ! -s "$NETIFD_STATE/task.pid" ]; do sleep 0.05; done
}

proto_kill_command() {
	_nf_call "kill_command ${2:-15}"
	[ -e "$NETIFD_STATE/task.exit" ] || kill "-${2:-15}" "$(cat "$NETIFD_STATE/task.pid")"
}

proto_notify_error() {
	shift
	_nf_call "notify_error $*"
}

proto_block_restart() { _nf_call block_restart; }
proto_setup_failed() { _nf_call setup_failed; }

# --- how netifd runs a handler: HANDLER '' dump | HANDLER PROTO setup|teardown IFACE DATA DEV

init_proto() {
	proto=$1
	cmd=$2
	shift 2
	case "$cmd" in
	dump)
		add_protocol() {
			no_device=0
			available=0
			lasterror=0
			echo "protocol $1" >>"$NETIFD_STATE/dump"
			eval "proto_$1_init_config"
			printf 'no-device %s\navailable %s\nlasterror %s\n' "$no_device" "$available" \
				"$lasterror" >>"$NETIFD_STATE/dump"
		}
		;;
	setup | teardown)
		interface=$1
		data=$2
		ifname=$3
		add_protocol() {
			[ "$proto" = "$1" ] || return 0
			json_load "$data"
			eval "proto_$1_$cmd \"\$interface\" \"\$ifname\""
		}
		;;
	esac
}
