#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `pppoe-xp wg IFNAME` (our WireGuard device) against Debian's wireguard-go, on the host:
#
#   us ============================================ go
#   us0 10.221.0.1 (then .3: roaming)              go0 10.221.0.2
#   wgu<pid> 10.222.0.1 (pppoe-xp wg, UDP 51820)   wgg<pid> 10.222.0.2 (wireguard-go, 51820)
#
# Both driven by the stock wg(8) over their UAPI sockets. Handshakes started from each side,
# ping and iperf3 both ways, our messages as tshark's WireGuard dissector reads them, a preshared key, the tunnel over IPv6 (fd00:221::1/::2), roaming, persistent keepalive on the wire,
# `wg show dump` and `wg showconf` of the same configuration compared with wireguard-go's,
# `pppoe-xp stats` of ours after a known transfer, `help` on its control socket,
# wg-quick up/down with WG_QUICK_USERSPACE_IMPLEMENTATION=build/pppoe-xp-wg, and hostile
# input (garbage, replays, a handshake flood that puts us under load) counted in our drops
# while the real peer keeps working; a restart with the wall clock a year behind (a router
# without an RTC) that still completes a handshake, thanks to the stamp file (wgr<pid> and
# wgs<pid>, 10.224.0.1/.2, ports 51830/51831); a host without IPv6 (namespace v4, the
# IPv4-only fallback); and the tunnel inside one of our PPPoE sessions:
#
#   us usp0 ======== PPPoE ======== gop0 go
#      pxp0 100.64.9.x (pppoe-xp up)     100.64.9.1 (pppoe-xp server)
#      WireGuard to 100.64.9.1:51820 through pxp0
#
# WG_DEVICE_ARGS (e.g. "--crypto-threads 1") reach our main device wgu<pid>: the suite runs
# with the default crypto threads and, so, with the loop's thread alone.
PXP_NS_PREFIX=wgd$$-
. "$(dirname "$0")/../netns/lib.sh"

NS_US=${PXP_NS_PREFIX}us
NS_GO=${PXP_NS_PREFIX}go
WG_US=wgu$$
WG_GO=wgg$$
PXP_WG=${PXP_WG:-$(dirname "$PXP_BIN")/pppoe-xp-wg}
HOSTILE=$PXP_ROOT/tests/interop/wg_hostile.py
CLOCK_BACK=${PXP_CLOCK_BACK_SO:-$(dirname "$PXP_BIN")/tests/interop/clock_back.so}
NO_IPV6=${PXP_NO_IPV6_SO:-$(dirname "$PXP_BIN")/tests/interop/no_ipv6.so}
KEYS=$PXP_TMP/keys
RUN_DIR=${PPPOE_XP_RUN_DIR:-/run/pppoe-xp}
# Our devices keep their handshake stamps here, not in the host's STATE_DIR.
export PPPOE_XP_STATE_DIR=$PXP_TMP/state-default

missing=$(require_cmds ip ping wg wg-quick wireguard-go iperf3 tcpdump tshark python3) || {
	skip_test wg_device "missing commands:$missing (make deps installs them)"
	exit 0
}
[ -x "$PXP_BIN" ] && [ -x "$PXP_WG" ] || {
	echo "FAIL wg_device/build: $PXP_BIN or $PXP_WG is missing (run make)"
	exit 1
}

us() { ip netns exec "$NS_US" "$@"; }
go() { ip netns exec "$NS_GO" "$@"; }

# The pid of the process serving an interface's UAPI socket (in NS_US: unix sockets are
# listed per namespace).
sock_pid() {
	us ss -xlp 2>/dev/null | awk -v s="/var/run/wireguard/$1.sock" '$5 == s' |
		grep -o 'pid=[0-9]*' | head -n 1 | cut -d= -f2
}

# start_go IF: a wireguard-go device in NS_GO, in the foreground (its pid killed at cleanup).
start_go() {
	WG_PROCESS_FOREGROUND=1 go wireguard-go "$1" >>"$PXP_TMP/wireguard-go.log" 2>&1 &
	on_cleanup "kill $!; rm -f /var/run/wireguard/$1.sock"
	wait_for 10 go wg show "$1"
}

setup() {
	ip netns add "$NS_US" && ip netns add "$NS_GO" &&
		_veth "$NS_US" us0 "$NS_GO" go0 &&
		ip -n "$NS_US" addr add 10.221.0.1/24 dev us0 &&
		ip -n "$NS_GO" addr add 10.221.0.2/24 dev go0 || return 1
	umask 077
	mkdir "$KEYS" &&
		wg genkey >"$KEYS/us.key" && wg pubkey <"$KEYS/us.key" >"$KEYS/us.pub" &&
		wg genkey >"$KEYS/go.key" && wg pubkey <"$KEYS/go.key" >"$KEYS/go.pub" &&
		wg genpsk >"$KEYS/psk" || return 1
	# Ours detaches once its socket is up, as wireguard-go without WG_PROCESS_FOREGROUND.
	# shellcheck disable=SC2086 # WG_DEVICE_ARGS: words
	PPPOE_XP_RUN_DIR=$RUN_DIR us "$PXP_BIN" wg "$WG_US" ${WG_DEVICE_ARGS:-} \
		>"$PXP_TMP/us.start" 2>&1 || return 1
	US_PID=$(sock_pid "$WG_US")
	[ -n "$US_PID" ] || return 1
	on_cleanup "kill $US_PID"
	start_go "$WG_GO" || return 1
	us wg set "$WG_US" private-key "$KEYS/us.key" listen-port 51820 &&
		go wg set "$WG_GO" private-key "$KEYS/go.key" listen-port 51820 &&
		ip -n "$NS_US" addr add 10.222.0.1/24 dev "$WG_US" &&
		ip -n "$NS_GO" addr add 10.222.0.2/24 dev "$WG_GO" &&
		ip -n "$NS_US" link set "$WG_US" up && ip -n "$NS_GO" link set "$WG_GO" up
}

# peers_fresh [psk]: each side's peer anew (no session left over from a previous case).
peers_fresh() {
	local psk=()
	[ "${1:-}" = psk ] && psk=(preshared-key "$KEYS/psk")
	us wg set "$WG_US" peer "$(cat "$KEYS/go.pub")" remove &&
		go wg set "$WG_GO" peer "$(cat "$KEYS/us.pub")" remove &&
		us wg set "$WG_US" peer "$(cat "$KEYS/go.pub")" "${psk[@]}" \
			allowed-ips 10.222.0.2/32 endpoint 10.221.0.2:51820 &&
		go wg set "$WG_GO" peer "$(cat "$KEYS/us.pub")" "${psk[@]}" \
			allowed-ips 10.222.0.1/32 endpoint "${US_ADDR:-10.221.0.1}:51820"
}

# field NS IF N: field N of the peer line of `wg show IF dump` (5 latest handshake,
# 6 rx, 7 tx, 3 endpoint).
field() {
	ip netns exec "$1" wg show "$2" dump | awk -v n="$3" 'NR == 2 { print $n }'
}

handshaken() {
	[ "$(field "$NS_US" "$WG_US" 5)" -gt 0 ] 2>/dev/null &&
		[ "$(field "$NS_GO" "$WG_GO" 5)" -gt 0 ] 2>/dev/null
}

ping_ok() { # FROM_NS DST
	local out
	out=$(ip netns exec "$1" ping -c 2 -i 0.3 -W 10 "$2" 2>&1) || fail "ping $2 from $1: $out"
}

test_handshake_from_us() {
	peers_fresh || return
	ping_ok "$NS_US" 10.222.0.2 && ping_ok "$NS_GO" 10.222.0.1 || return
	handshaken || fail "no handshake recorded: $(us wg show "$WG_US" dump | tr '\n' ' ')"
}

test_handshake_from_go() {
	peers_fresh || return
	ping_ok "$NS_GO" 10.222.0.1 && ping_ok "$NS_US" 10.222.0.2 || return
	handshaken || fail "no handshake recorded: $(us wg show "$WG_US" dump | tr '\n' ' ')"
}

test_psk() {
	peers_fresh psk || return
	ping_ok "$NS_US" 10.222.0.2 && ping_ok "$NS_GO" 10.222.0.1 || return
	[ "$(field "$NS_US" "$WG_US" 2)" = "$(cat "$KEYS/psk")" ] ||
		fail "wg show dump does not show the preshared key"
}

# iperf3 NS_CLIENT NS_SERVER SERVER_IP: 4 MB over TCP, and iperf3 says no error.
iperf_mb() {
	local out
	iperf_server "$2" 5201 || fail "iperf3 server in $2 did not start" || return
	out=$(ip netns exec "$1" timeout 60 iperf3 -c "$3" -n 4M 2>&1) ||
		fail "iperf3 from $1 to $3: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
}

test_iperf_both_ways() {
	handshaken || peers_fresh || return
	iperf_mb "$NS_US" "$NS_GO" 10.222.0.2 && iperf_mb "$NS_GO" "$NS_US" 10.222.0.1
}

# The same configuration set on ours and on a second wireguard-go device: what get=1 says
# of it (wg showconf, and wg show dump without the live fields) must be the same.
test_dump_matches_go() {
	local cmp=wgc$$ mine=wgx$$ conf=$PXP_TMP/same.conf ours theirs
	start_go "$cmp" || fail "a second wireguard-go did not start" || return
	PPPOE_XP_RUN_DIR=$RUN_DIR us "$PXP_WG" "$mine" >/dev/null 2>&1 ||
		fail "a second device of ours did not start" || return
	on_cleanup "kill $(sock_pid "$mine")"
	{
		echo "[Interface]"
		echo "PrivateKey = $(wg genkey)"
		echo "ListenPort = 51999"
		echo "FwMark = 0x2a"
		echo "[Peer]"
		echo "PublicKey = $(wg genkey | wg pubkey)"
		echo "PresharedKey = $(cat "$KEYS/psk")"
		echo "AllowedIPs = 10.9.0.0/16, fd00:9::/64, 192.0.2.7/32, 10.9.8.0/24"
		echo "Endpoint = [2001:db8::1]:4242"
		echo "PersistentKeepalive = 25"
		echo "[Peer]"
		echo "PublicKey = $(wg genkey | wg pubkey)"
		echo "AllowedIPs = 0.0.0.0/0"
		echo "Endpoint = 198.51.100.9:51820"
	} >"$conf"
	go wg setconf "$cmp" "$conf" && us wg setconf "$mine" "$conf" ||
		fail "wg setconf failed" || return
	# Sections one a line, sorted: wireguard-go lists its peers in Go's map order.
	ours=$(us wg showconf "$mine" | awk 'BEGIN { RS = "" } { gsub("\n", " | "); print }' | sort)
	theirs=$(go wg showconf "$cmp" | awk 'BEGIN { RS = "" } { gsub("\n", " | "); print }' | sort)
	[ "$ours" = "$theirs" ] || fail "wg showconf differs: ours: $ours; wireguard-go: $theirs" ||
		return
	# dump: private public port fwmark / public psk endpoint allowed-ips hs rx tx keepalive;
	# sorted, and the configured fields only.
	ours=$(us wg show "$mine" dump | awk '{ print $1, $2, $3, $4, $8 }' | sort)
	theirs=$(go wg show "$cmp" dump | awk '{ print $1, $2, $3, $4, $8 }' | sort)
	[ "$ours" = "$theirs" ] || fail "wg show dump differs: ours: $ours; wireguard-go: $theirs"
}

# The outer tunnel over IPv6: the dual-stack socket takes an IPv6 endpoint and its answers.
test_ipv6_endpoint() {
	local pub_us pub_go
	pub_us=$(cat "$KEYS/us.pub")
	pub_go=$(cat "$KEYS/go.pub")
	ip -n "$NS_US" addr add fd00:221::1/64 dev us0 nodad &&
		ip -n "$NS_GO" addr add fd00:221::2/64 dev go0 nodad || fail "no IPv6 addresses" ||
		return
	peers_fresh || return
	us wg set "$WG_US" peer "$pub_go" endpoint "[fd00:221::2]:51820" &&
		go wg set "$WG_GO" peer "$pub_us" endpoint "[fd00:221::1]:51820" || return
	ping_ok "$NS_US" 10.222.0.2 && ping_ok "$NS_GO" 10.222.0.1 || return
	[ "$(field "$NS_US" "$WG_US" 3)" = "[fd00:221::2]:51820" ] &&
		[ "$(field "$NS_GO" "$WG_GO" 3)" = "[fd00:221::1]:51820" ] ||
		fail "endpoints: ours $(field "$NS_US" "$WG_US" 3), wireguard-go's $(field "$NS_GO" "$WG_GO" 3)" ||
		return
	peers_fresh # back to IPv4 for the cases after
}

# Our end moves to 10.221.0.3: wireguard-go follows after our next authenticated packet.
test_roaming() {
	handshaken || peers_fresh || return
	ip -n "$NS_US" addr del 10.221.0.1/24 dev us0 &&
		ip -n "$NS_US" addr add 10.221.0.3/24 dev us0 || fail "cannot move our address" ||
		return
	US_ADDR=10.221.0.3
	ping_ok "$NS_US" 10.222.0.2 || return
	[ "$(field "$NS_GO" "$WG_GO" 3)" = 10.221.0.3:51820 ] ||
		fail "wireguard-go still sends to $(field "$NS_GO" "$WG_GO" 3)" || return
	ping_ok "$NS_GO" 10.222.0.1
}

# persistent-keepalive 1: keepalives (32-byte data messages) from us on the wire while idle.
keepalives_seen() { [ "$(grep -c UDP "$PXP_TMP/ka.txt")" -ge "$1" ]; }
test_persistent_keepalive() {
	local n
	handshaken || peers_fresh || return
	us wg set "$WG_US" peer "$(cat "$KEYS/go.pub")" persistent-keepalive 1 || return
	capture_start "$NS_GO" "$PXP_TMP/ka.txt" -n -i go0 -c 3 \
		"udp and dst port 51820 and udp[4:2] = 40" || return
	wait_for 15 keepalives_seen 3
	n=$(grep -c UDP "$PXP_TMP/ka.txt")
	kill "$CAPTURE_PID" 2>/dev/null
	us wg set "$WG_US" peer "$(cat "$KEYS/go.pub")" persistent-keepalive 0
	[ "$n" -ge 3 ] || fail "$n keepalives seen in 15 s with persistent-keepalive 1"
	[ "$(us wg show "$WG_US" persistent-keepalive | awk '{ print $2 }')" = off ] ||
		fail "persistent-keepalive 0 not shown as off"
}

# tshark's WireGuard dissector, a parser that is not ours, over a capture of a fresh
# handshake we start and the data after it. Given the two static private keys it must
# decrypt our initiation (so our Noise IK, MAC1 and TAI64N timestamp are what Wireshark
# expects: it names the receiver by MAC1 and finds our public key inside), pair the
# response with it, and dissect data messages and a keepalive, with nothing malformed.
test_tshark_formats() {
	local pcap=$PXP_TMP/wg.pcap keylog=$PXP_TMP/wg.keylog out types
	capture_start "$NS_GO" "$PXP_TMP/wg.pcap.txt" -U -w "$pcap" -i go0 \
		"udp and port 51820" || return
	peers_fresh && ping_ok "$NS_US" 10.222.0.2 && ping_ok "$NS_GO" 10.222.0.1 &&
		us wg set "$WG_US" peer "$(cat "$KEYS/go.pub")" persistent-keepalive 1 || return
	# Until the capture (written packet by packet) holds a keepalive, not a fixed sleep.
	wait_for 15 sh -c "tshark -n -r '$pcap' -d udp.port==51820,wg -Y wg.keepalive 2>/dev/null | grep -q ."
	us wg set "$WG_US" peer "$(cat "$KEYS/go.pub")" persistent-keepalive 0 || return
	kill -INT "$CAPTURE_PID" 2>/dev/null
	wait "$CAPTURE_PID" 2>/dev/null
	printf 'LOCAL_STATIC_PRIVATE_KEY = %s\nLOCAL_STATIC_PRIVATE_KEY = %s\n' \
		"$(cat "$KEYS/us.key")" "$(cat "$KEYS/go.key")" >"$keylog"
	out=$(tshark -n -r "$pcap" -o "wg.keylog_file:$keylog" -d udp.port==51820,wg \
		-T fields -E "separator=|" -e wg.type -e wg.static \
		-e wg.receiver_pubkey -e wg.response_to -e wg.keepalive -e _ws.malformed \
		2>"$PXP_TMP/tshark.err") ||
		fail "tshark: $(head -c 300 "$PXP_TMP/tshark.err")" || return
	types=$(echo "$out" | cut -d'|' -f1 | sort -u | tr '\n' ' ')
	[ "$types" = "1 2 4 " ] || fail "message types dissected: '$types' (want 1 2 4)" || return
	echo "$out" | grep -qF "1|$(cat "$KEYS/us.pub")|$(cat "$KEYS/go.pub")|" ||
		fail "no initiation of ours decrypted (type|static|receiver): $(echo "$out" | grep '^1|' | head -n 3 | tr '\n' ' ')" ||
		return
	echo "$out" | grep -Eq '^2\|[^|]*\|[^|]*\|[0-9]+\|' ||
		fail "no response paired with an initiation: $(echo "$out" | grep '^2|' | head -n 3 | tr '\n' ' ')" ||
		return
	echo "$out" | grep -Eq '^4(\|[^|]*){3}\|1\|' ||
		fail "no keepalive dissected: $(echo "$out" | grep '^4|' | head -n 3 | tr '\n' ' ')" ||
		return
	! echo "$out" | grep -Eq '\|[^|]+$' ||
		fail "malformed messages: $(echo "$out" | grep -E '\|[^|]+$' | head -n 3 | tr '\n' ' ')"
}

drops() { # REASON: our counter of it
	awk -v k="drop_$1" '$1 == k { print $2 }' "$RUN_DIR/$WG_US.wg" 2>/dev/null
}

# The counters file is rewritten once a second: wait until REASON passes N.
drops_above() { # REASON N
	wait_for 10 sh -c "[ \"\$(awk '\$1 == \"drop_$1\" { print \$2 }' '$RUN_DIR/$WG_US.wg')\" -gt $2 ]"
}

test_hostile() {
	local out
	handshaken || peers_fresh || return
	# Data packets from wireguard-go to us, to be replayed.
	capture_start "$NS_US" "$PXP_TMP/replay.txt" -n -i us0 -c 4 -w "$PXP_TMP/replay.pcap" \
		"udp and dst port 51820 and src host 10.221.0.2 and udp[8] = 4 and udp[4:2] > 40" ||
		return
	ping_ok "$NS_GO" "10.222.0.1" && ping_ok "$NS_GO" "10.222.0.1" || return
	wait "$CAPTURE_PID"
	out=$(go python3 "$HOSTILE" garbage "${US_ADDR:-10.221.0.1}" 51820 &&
		go python3 "$HOSTILE" replay "${US_ADDR:-10.221.0.1}" 51820 "$PXP_TMP/replay.pcap" &&
		go python3 "$HOSTILE" load "${US_ADDR:-10.221.0.1}" 51820 "$(cat "$KEYS/us.pub")" 2000) ||
		fail "wg_hostile.py: $out" || return
	drops_above replay 0 || fail "replays not counted: $(tr '\n' ' ' <"$RUN_DIR/$WG_US.wg")" ||
		return
	for r in size reserved mac1 cookie_needed; do
		drops_above "$r" 0 || fail "no drop_$r: $(tr '\n' ' ' <"$RUN_DIR/$WG_US.wg")" || return
	done
	# The real peer is still served, and we are still up.
	ping_ok "$NS_GO" 10.222.0.1 && ping_ok "$NS_US" 10.222.0.2 || return
	kill -0 "$US_PID" || fail "the device died"
}

# status_num FIELD: a number from `pppoe-xp status` of our device.
status_num() {
	us env PPPOE_XP_RUN_DIR="$RUN_DIR" "$PXP_BIN" status "$WG_US" --json |
		python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"
}

# A hub's worth of peers: 200 silent ones, each starting a handshake at once to an address
# nobody answers and retrying every 5 s, the real one removed meanwhile (so that every
# datagram sent is an initiation, and took an index). Their receiver indices fill the
# device's index map past its first room, so it grows and sweeps out the retired ones
# (fewer indices held than initiations sent, all 200 live ones kept); then the real peer's
# messages find it among them; removing the silent peers takes their indices with them (one
# left behind would point at a freed peer: the san tier runs this case).
test_many_peers() {
	local i pub args=() pubs=() sent0 sent held
	us wg set "$WG_US" peer "$(cat "$KEYS/go.pub")" remove &&
		sent0=$(status_num udp_datagrams_sent) || fail "status failed" || return
	for ((i = 0; i < 200; i++)); do
		pub=$(wg genkey | wg pubkey) || fail "wg genkey" || return
		pubs+=(peer "$pub" remove)
		args+=(peer "$pub" endpoint "10.221.0.$((100 + i % 50)):9"
			allowed-ips "10.230.$((i / 100)).$((i % 100))/32" persistent-keepalive 1)
	done
	us wg set "$WG_US" "${args[@]}" || fail "wg set of 200 peers failed" || return
	for ((i = 0; i < 150; i++)); do
		sent=$(status_num udp_datagrams_sent) && held=$(status_num receiver_indices) ||
			fail "status failed" || return
		sent=$((sent - sent0))
		[ "$held" -ge 200 ] && [ "$held" -lt "$sent" ] && break
		sleep 0.1
	done
	[ "$held" -ge 200 ] && [ "$held" -lt "$sent" ] ||
		fail "$held receiver indices held after $sent initiations (want 200 or more, fewer than sent)" ||
		return
	peers_fresh || return
	ping_ok "$NS_US" 10.222.0.2 && ping_ok "$NS_GO" 10.222.0.1 || return
	us wg set "$WG_US" "${pubs[@]}" || fail "removing the 200 peers failed" || return
	held=$(status_num receiver_indices) || fail "status failed" || return
	[ "$held" -lt 10 ] || fail "$held receiver indices held with one peer left" || return
	ping_ok "$NS_US" 10.222.0.2 && ping_ok "$NS_GO" 10.222.0.1 || return
	kill -0 "$US_PID" || fail "the device died"
}

# stamp_dev DIR [SECONDS]: our device wgr<pid> with its key, state in DIR and its wall clock
# SECONDS behind (clock_back.so); configured as wireguard-go's second peer. Pid in STAMP_PID.
stamp_dev() {
	local r=wgr$$ pre=()
	[ -n "${2:-}" ] && pre=(LD_PRELOAD="$CLOCK_BACK" PXP_CLOCK_BACK_S="$2")
	us env "${pre[@]}" PPPOE_XP_RUN_DIR="$RUN_DIR" PPPOE_XP_STATE_DIR="$1" "$PXP_BIN" wg "$r" \
		>"$PXP_TMP/stamp.start" 2>&1 || fail "$r did not start: $(cat "$PXP_TMP/stamp.start")" ||
		return
	STAMP_PID=$(sock_pid "$r")
	on_cleanup "kill $STAMP_PID 2>/dev/null"
	us wg set "$r" private-key "$KEYS/r.key" listen-port 51830 peer "$(cat "$KEYS/go.pub")" \
		allowed-ips 10.224.0.2/32 endpoint 10.221.0.2:51831 &&
		ip -n "$NS_US" addr add 10.224.0.1/24 dev "$r" && ip -n "$NS_US" link set "$r" up ||
		fail "cannot configure $r"
}

# A router without an RTC: our device completes a handshake with wireguard-go (which keeps
# the greatest stamp it has seen from our key), dies by kill -9 and comes back with its wall
# clock a year behind, and still completes one; with its state file gone it would not
# (wireguard-go logs the stale initiation as invalid: the control).
test_stamp_after_restart() {
	local g=wgs$$ state=$PXP_TMP/state files mode
	[ -r "$CLOCK_BACK" ] || fail "$CLOCK_BACK is missing (run make)" || return
	wg genkey >"$KEYS/r.key" || return
	LOG_LEVEL=verbose WG_PROCESS_FOREGROUND=1 go wireguard-go "$g" >"$PXP_TMP/go-stamp.log" 2>&1 &
	on_cleanup "kill $!; rm -f /var/run/wireguard/$g.sock"
	wait_for 10 go wg show "$g" || fail "wireguard-go $g did not start" || return
	go wg set "$g" private-key "$KEYS/go.key" listen-port 51831 \
		peer "$(wg pubkey <"$KEYS/r.key")" allowed-ips 10.224.0.1/32 &&
		ip -n "$NS_GO" addr add 10.224.0.2/24 dev "$g" && ip -n "$NS_GO" link set "$g" up ||
		fail "cannot configure $g" || return
	stamp_dev "$state" && ping_ok "$NS_US" 10.224.0.2 || return
	files=$(ls "$state")
	[[ $files =~ ^wg-[0-9a-f]{32}\.stamp$ ]] || fail "state dir holds '$files'" || return
	mode=$(stat -c %a "$state/$files")
	[ "$mode" = 600 ] || fail "$files has mode $mode" || return
	kill9_and_wait "$STAMP_PID" || fail "our device outlived kill -9" || return
	stamp_dev "$state" $((365 * 86400)) && ping_ok "$NS_US" 10.224.0.2 ||
		fail "no handshake after a restart with the clock back: $(tail -n 2 "$PXP_TMP/go-stamp.log")" ||
		return
	# The control: the same without the file.
	kill9_and_wait "$STAMP_PID" || fail "our device outlived kill -9" || return
	: >"$PXP_TMP/go-stamp.log"
	stamp_dev "$PXP_TMP/state-empty" $((365 * 86400)) || return
	us ping -c 1 -W 1 10.224.0.2 >/dev/null 2>&1
	wait_for 10 grep -q "invalid initiation" "$PXP_TMP/go-stamp.log" ||
		fail "the control: wireguard-go took a stale stamp (no 'invalid initiation' logged)" ||
		return
	kill9_and_wait "$STAMP_PID"
}

# A host without IPv6: a third namespace with IPv6 disabled (disable_ipv6=1) and our device
# seeing socket(AF_INET6) fail with EAFNOSUPPORT (no_ipv6.so, as under ipv6.disable=1). It
# falls back to an IPv4 socket, as wireguard-go does, and handshakes with a wireguard-go of
# its own from each side:
#   v4 v40 10.226.0.1 ---- gv40 10.226.0.2 go;  wgv<pid> 10.227.0.1 <-> wgw<pid> 10.227.0.2
test_ipv4_only() {
	local ns=${PXP_NS_PREFIX}v4 v=wgv$$ g=wgw$$ pub gpub
	[ -r "$NO_IPV6" ] || fail "$NO_IPV6 is missing (run make)" || return
	ip netns add "$ns" && on_cleanup "ip netns del $ns" &&
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 &&
		_veth "$ns" v40 "$NS_GO" gv40 && ip -n "$ns" addr add 10.226.0.1/24 dev v40 &&
		ip -n "$NS_GO" addr add 10.226.0.2/24 dev gv40 || fail "no third namespace" || return
	wg genkey >"$KEYS/v.key" && pub=$(wg pubkey <"$KEYS/v.key") &&
		gpub=$(cat "$KEYS/go.pub") && start_go "$g" || fail "wireguard-go $g did not start" ||
		return
	ip netns exec "$ns" env LD_PRELOAD="$NO_IPV6" PPPOE_XP_RUN_DIR="$RUN_DIR" \
		"$PXP_BIN" wg "$v" --foreground >"$PXP_TMP/v4.log" 2>&1 &
	on_cleanup "kill $! 2>/dev/null"
	wait_for 10 ip netns exec "$ns" wg show "$v" ||
		fail "the device did not start: $(tail -n 3 "$PXP_TMP/v4.log")" || return
	grep -q "IPv4 only" "$PXP_TMP/v4.log" || fail "no fallback logged: $(cat "$PXP_TMP/v4.log")" ||
		return
	ip netns exec "$ns" wg set "$v" private-key "$KEYS/v.key" listen-port 51840 \
		peer "$gpub" allowed-ips 10.227.0.2/32 endpoint 10.226.0.2:51841 &&
		ip -n "$ns" addr add 10.227.0.1/24 dev "$v" && ip -n "$ns" link set "$v" up &&
		go wg set "$g" private-key "$KEYS/go.key" listen-port 51841 \
			peer "$pub" allowed-ips 10.227.0.1/32 &&
		ip -n "$NS_GO" addr add 10.227.0.2/24 dev "$g" && ip -n "$NS_GO" link set "$g" up ||
		fail "cannot configure $v and $g" || return
	# The rebind to the listen port stays IPv4 too.
	ip netns exec "$ns" ss -uln | grep -q '0\.0\.0\.0:51840 ' ||
		fail "no IPv4 socket on 51840: $(ip netns exec "$ns" ss -uln | tr '\n' ' ')" || return
	ping_ok "$ns" 10.227.0.2 && ping_ok "$NS_GO" 10.227.0.1 || return
	# From wireguard-go's side: both ends forget the session, it initiates.
	ip netns exec "$ns" wg set "$v" peer "$gpub" remove &&
		ip netns exec "$ns" wg set "$v" peer "$gpub" allowed-ips 10.227.0.2/32 &&
		go wg set "$g" peer "$pub" remove &&
		go wg set "$g" peer "$pub" allowed-ips 10.227.0.1/32 endpoint 10.226.0.1:51840 ||
		return
	ping_ok "$NS_GO" 10.227.0.1 && ping_ok "$ns" 10.227.0.2
}

# pppoe-xp status --json: the interface and its peer as wg show reads them over the UAPI
# socket (keys, endpoint, allowed-IPs, latest handshake), bytes both ways, never the private
# key; `status --json` of all lists it; `pppoe-xp down` on another device ends it.
test_status_json() {
	local out t=wgn$$ pid
	handshaken || peers_fresh || return
	ping_ok "$NS_US" 10.222.0.2 || return
	out=$(us env PPPOE_XP_RUN_DIR="$RUN_DIR" "$PXP_BIN" status "$WG_US" --json) ||
		fail "status $WG_US --json failed: $out" || return
	grep -qF "$(cat "$KEYS/us.key")" <<<"$out" && fail "status shows the private key" && return
	python3 - "$out" "$(us wg show "$WG_US" public-key)" "$(cat "$KEYS/go.pub")" \
		"$(us wg show "$WG_US" dump | awk 'NR == 2 { print $3, $4, $5 }')" \
		<<-'PY' 2>"$PXP_TMP/status.why" ||
		import json, sys
		s, pub, peer, dump = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
		endpoint, aips, hs = dump.split()
		p = s["peers"][0]
		want = {"role": "wireguard", "state": "up", "public_key": pub, "listen_port": 51820,
		        "socket": "dual-stack"}
		bad = [f"{k}={s.get(k)!r}, want {v!r}" for k, v in want.items() if s.get(k) != v]
		bad += [f"peer {k}={p.get(k)!r}, want {v!r}" for k, v in
		        {"public_key": peer, "endpoint": endpoint, "allowed_ips": aips.split(","),
		         "latest_handshake": int(hs)}.items() if p.get(k) != v]
		if not (p["rx_bytes"] > 0 and p["tx_bytes"] > 0 and 0 <= p["handshake_age_s"] < 180):
		    bad.append(f"rx {p['rx_bytes']} tx {p['tx_bytes']} age {p['handshake_age_s']}")
		sys.exit("; ".join(bad) or None)
	PY
		fail "status --json differs from wg show: $(cat "$PXP_TMP/status.why")" || return
	out=$(us env PPPOE_XP_RUN_DIR="$RUN_DIR" "$PXP_BIN" status --json) &&
		python3 -c 'import json, sys; sys.exit(sys.argv[2] not in [s["iface"] for s in json.loads(sys.argv[1])])' \
			"$out" "$WG_US" || fail "status --json of all does not list $WG_US: $out" || return
	PPPOE_XP_RUN_DIR=$RUN_DIR us "$PXP_WG" "$t" >/dev/null 2>&1 || fail "$t did not start" || return
	pid=$(sock_pid "$t")
	out=$(us env PPPOE_XP_RUN_DIR="$RUN_DIR" "$PXP_BIN" down "$t" 2>&1) || fail "down $t: $out" ||
		return
	wait_for 10 pid_is_gone "$pid" || fail "down did not end the device" || return
	! ip -n "$NS_US" link show "$t" >/dev/null 2>&1 || fail "the TUN outlived down"
}

# sj NS IF: `pppoe-xp stats IF --json`.
sj() {
	ip netns exec "$1" env PPPOE_XP_RUN_DIR="$RUN_DIR" "$PXP_BIN" stats "$2" --json
}

# tcp_push NS_FROM NS_TO ADDR: 4 MiB over one TCP connection to ADDR:5202, and the receiver
# read every byte (iperf3 -n counts what its client wrote: its server may stop before the
# last of it arrives).
tcp_push() {
	local got=$PXP_TMP/push.count pid
	rm -f "$got"
	ip netns exec "$2" timeout 60 python3 -c '
import socket, sys
s = socket.create_server((sys.argv[1], 5202))
c, _ = s.accept()
n = 0
while b := c.recv(1 << 16):
    n += len(b)
c.close()
open(sys.argv[2], "w").write(str(n))' "$3" "$got" &
	pid=$!
	wait_listening "$2" 5202 || fail "no receiver on $3:5202" || return
	ip netns exec "$1" timeout 60 python3 -c '
import socket, sys
s = socket.create_connection((sys.argv[1], 5202))
s.sendall(bytes(4 << 20))
s.shutdown(socket.SHUT_WR)
s.recv(1)' "$3" || fail "cannot send to $3:5202" || return
	wait "$pid"
	[ "$(cat "$got" 2>/dev/null)" = $((4 << 20)) ] || fail "the receiver read $(cat "$got")"
}

# pppoe-xp stats after a known transfer: 4 MiB of TCP from wireguard-go into our TUN and 7
# datagrams of an unknown message type. The TUN's row counts the segments and bytes, the UDP
# counters carry the tunnel's overhead on top, drop_type went up by exactly 7 (and
# RUN_DIR/IFNAME.wg agrees), nothing went back; the text view, stats of all, --watch --json,
# and `help` on the device's control socket.
test_stats() {
	local before after out file
	handshaken || peers_fresh || return
	before=$(sj "$NS_US" "$WG_US") || fail "stats $WG_US --json: $before" || return
	tcp_push "$NS_GO" "$NS_US" 10.222.0.1 && ping_ok "$NS_US" 10.222.0.2 || return
	go python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(7):
    s.sendto(b"\x09\0\0\0" + bytes(12), (sys.argv[1], 51820))' "${US_ADDR:-10.221.0.1}" ||
		fail "cannot send the unknown messages" || return
	drops_above type $(($(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["counters"]["drop_type"])' "$before") + 6)) ||
		fail "drop_type: $(drops type)" || return
	after=$(sj "$NS_US" "$WG_US") || fail "stats $WG_US --json: $after" || return
	file=$(cat "$RUN_DIR/$WG_US.wg")
	python3 - "$before" "$after" "$file" "$WG_US" <<-'PY' 2>"$PXP_TMP/stats.why" ||
		import json, sys
		b, a, file, dev = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3], sys.argv[4]
		bad = []
		want = {"iface": dev, "role": "wireguard", "state": "up", "mode": "tun-offload", "queues": []}
		bad += [f"{k}={a.get(k)!r}, want {v!r}" for k, v in want.items() if a.get(k) != v]
		(nb,), (na,) = b["netdevs"], a["netdevs"]
		n = {k: na[k] - nb[k] for k in ("rx_packets", "rx_bytes", "tx_packets", "tx_bytes")}
		c = {k: a["counters"][k] - b["counters"].get(k, 0) for k in a["counters"]}
		if na["ifname"] != dev: bad.append(f"netdev {na['ifname']}")
		# 4 MiB of TCP in segments of at most 1368 bytes of payload, and our acks out
		if not (n["rx_bytes"] >= 4 << 20 and n["rx_packets"] >= (4 << 20) // 1368):
		    bad.append(f"tun rx {n['rx_packets']} packets {n['rx_bytes']} bytes")
		if not (n["tx_packets"] >= 2 and n["tx_bytes"] >= 2 * 84): bad.append(f"tun tx {n}")
		# each data message: 16 bytes of header, 16 of tag, the inner packet padded to 16
		if c["udp_bytes_received"] < n["rx_bytes"] + 32 * n["rx_packets"] + 7 * 16:
		    bad.append(f"udp bytes received {c['udp_bytes_received']} for tun {n}")
		if c["udp_datagrams_received"] < n["rx_packets"] + 7:
		    bad.append(f"udp datagrams received {c['udp_datagrams_received']}")
		if not 0 < 32 * c["udp_datagrams_sent"] <= c["udp_bytes_sent"]:
		    bad.append(f"udp sent {c['udp_datagrams_sent']} {c['udp_bytes_sent']}")
		if c["udp_gro_datagrams"] > c["udp_datagrams_received"] or \
		   c["udp_gso_datagrams"] > c["udp_datagrams_sent"] or \
		   c["tun_segments_written"] > n["rx_packets"] or c["tun_superpackets_written"] < 10:
		    bad.append(f"batching {c}")
		if c["drop_type"] != 7: bad.append(f"drop_type +{c['drop_type']}, want +7")
		bad += [f"{k} went back" for k, v in c.items() if v < 0]
		lines = dict(l.split() for l in file.splitlines())
		drops = {k for k in a["counters"] if k.startswith("drop_")}
		if set(lines) != drops: bad.append(f"drops {sorted(drops ^ set(lines))} not in both")
		if int(lines["drop_type"]) != a["counters"]["drop_type"]: bad.append(f"file {lines['drop_type']}")
		sys.exit("; ".join(bad) or None)
	PY
		fail "stats: $(cat "$PXP_TMP/stats.why")" || return
	out=$(us env PPPOE_XP_RUN_DIR="$RUN_DIR" "$PXP_BIN" stats "$WG_US") &&
		grep -q "^$WG_US: wireguard, up, data path tun-offload$" <<<"$out" &&
		grep -q "^$WG_US  *[0-9]" <<<"$out" && grep -q '^udp_gso_sends  *[0-9]' <<<"$out" &&
		grep -q '^drops  *[0-9]' <<<"$out" && grep -q '^  drop_type  *[0-9]' <<<"$out" ||
		fail "stats $WG_US: $out" || return
	out=$(us env PPPOE_XP_RUN_DIR="$RUN_DIR" "$PXP_BIN" stats --json) &&
		python3 -c 'import json, sys; sys.exit(sys.argv[2] not in [s["iface"] for s in json.loads(sys.argv[1])])' \
			"$out" "$WG_US" || fail "stats --json of all does not list $WG_US: $out" || return
	out=$(us env PPPOE_XP_RUN_DIR="$RUN_DIR" timeout --preserve-status -s INT 2 \
		"$PXP_BIN" stats "$WG_US" --watch --interval 0.5 --json) ||
		fail "stats --watch ended with $?: $out" || return
	python3 -c '
import json, sys
views = [json.loads(l) for l in sys.argv[1].splitlines()]
sys.exit(not (len(views) >= 2 and all(v["interval_ms"] > 0 and "udp_bytes_sent" in v["counters"]
                                      and v["netdevs"][0]["ifname"] == sys.argv[2] for v in views)))' \
		"$out" "$WG_US" || fail "stats --watch --json: $out" || return
	out=$(us python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b"help\n")
print(b"".join(iter(lambda: s.recv(4096), b"")).decode(), end="")' "$RUN_DIR/$WG_US.ctl") &&
		[ "$(awk '{ print $1 }' <<<"$out" | tr '\n' ' ')" = "status status-json stats down help " ] ||
		fail "help on $WG_US.ctl: $out"
}

# One set=1 that adds a peer (whose keepalive starts a handshake at once) and removes it:
# the message queued to it goes out before the peer is freed (the san build checks).
test_set_then_remove() {
	local pub
	pub=$(wg genkey | wg pubkey)
	us wg set "$WG_US" peer "$pub" endpoint 10.221.0.9:9 allowed-ips 10.9.9.9/32 \
		persistent-keepalive 5 peer "$pub" remove || fail "wg set failed" || return
	kill -0 "$US_PID" 2>/dev/null || fail "the device died" || return
	! us wg show "$WG_US" peers | grep -qF "$pub" || fail "the peer is still there"
}

test_second_instance() {
	local out
	out=$(us "$PXP_BIN" wg "$WG_US" 2>&1) && fail "a second instance started: $out" && return
	[[ $out == *"another WireGuard instance"* ]] || fail "unclear error: $out"
}

# wg-quick with our binary as its userspace implementation (no kernel module here).
test_wg_quick() {
	local q=wgq$$ conf pid
	conf=$PXP_TMP/$q.conf
	{
		echo "[Interface]"
		echo "PrivateKey = $(wg genkey)"
		echo "Address = 10.223.0.1/24"
		echo "ListenPort = 51822"
		echo "[Peer]"
		echo "PublicKey = $(cat "$KEYS/go.pub")"
		echo "AllowedIPs = 10.223.0.2/32"
		echo "Endpoint = 10.221.0.2:51821"
	} >"$conf"
	out=$(PPPOE_XP_RUN_DIR=$RUN_DIR WG_QUICK_USERSPACE_IMPLEMENTATION=$PXP_WG \
		us wg-quick up "$conf" 2>&1) || fail "wg-quick up: $out" || return
	pid=$(sock_pid "$q")
	us wg show "$q" allowed-ips | grep -q 10.223.0.2/32 &&
		ip -n "$NS_US" addr show dev "$q" | grep -q 10.223.0.1/24 ||
		fail "wg-quick up left: $(us wg show "$q" 2>&1 | tr '\n' ' ')" || return
	out=$(us wg-quick down "$conf" 2>&1) || fail "wg-quick down: $out" || return
	wait_for 10 pid_is_gone "$pid" || fail "the device outlived wg-quick down" || return
	[ ! -e "/var/run/wireguard/$q.sock" ] || fail "the UAPI socket outlived the device"
}

# WireGuard inside one of our PPPoE sessions: our client in NS_US, our AC in NS_GO on a
# second veth pair (usp0 - gop0), wireguard-go reached at the AC's session address over pxp0.
test_in_pppoe_session() {
	local run_c=$PXP_TMP/run-c run_s=$PXP_TMP/run-s out
	_veth "$NS_US" usp0 "$NS_GO" gop0 || fail "no second veth pair" || return
	out=$(in_ns "$NS_GO" env PPPOE_XP_RUN_DIR="$run_s" "$PXP_BIN" server gop0 \
		--local 100.64.9.1 --pool 100.64.9.0/24 --auth none 2>&1) ||
		fail "our AC did not start: $out" || return
	on_cleanup "in_ns $NS_GO env PPPOE_XP_RUN_DIR=$run_s $PXP_BIN down gop0"
	out=$(in_ns "$NS_US" env PPPOE_XP_RUN_DIR="$run_c" "$PXP_BIN" up usp0 2>&1) ||
		fail "our client did not come up: $out" || return
	on_cleanup "in_ns $NS_US env PPPOE_XP_RUN_DIR=$run_c $PXP_BIN down usp0"
	# Our peer's endpoint is the AC's end of the session: WireGuard goes through pxp0.
	us wg set "$WG_US" peer "$(cat "$KEYS/go.pub")" endpoint 100.64.9.1:51820 || return
	ping_ok "$NS_US" 10.222.0.2 || return
	[ "$(field "$NS_GO" "$WG_GO" 3)" = "$(ip -n "$NS_US" -4 -o addr show dev pxp0 |
		awk '{ sub("/.*", "", $4); print $4 }'):51820" ] ||
		fail "wireguard-go's endpoint is $(field "$NS_GO" "$WG_GO" 3), not our session's" ||
		return
	ping_ok "$NS_GO" 10.222.0.1 && iperf_mb "$NS_US" "$NS_GO" 10.222.0.2 || return
	in_ns "$NS_US" env PPPOE_XP_RUN_DIR="$run_c" "$PXP_BIN" down usp0 >/dev/null 2>&1
	in_ns "$NS_GO" env PPPOE_XP_RUN_DIR="$run_s" "$PXP_BIN" down gop0 >/dev/null 2>&1
	us wg set "$WG_US" peer "$(cat "$KEYS/go.pub")" endpoint "${US_ADDR:-10.221.0.1}:51820" \
		>/dev/null 2>&1
	return 0
}

# st NS IF KEY...: those fields of `pppoe-xp status IF --json`, one a line.
st() {
	local ns=$1 dev=$2
	shift 2
	ip netns exec "$ns" env PPPOE_XP_RUN_DIR="$RUN_DIR" "$PXP_BIN" status "$dev" --json |
		python3 -c 'import json, sys; s = json.load(sys.stdin); [print(s.get(k)) for k in sys.argv[1:]]' "$@"
}

# TUN offloads against wireguard-go: iperf3 both ways, and our counters prove the TUN read
# TSO superpackets (split into more segments than reads) and the TCP segments from the peer
# went back into the TUN joined (more segments than writes), the sends used UDP GSO, and no
# superpacket was refused.
test_offload_superpackets() {
	local before after
	handshaken || peers_fresh || return
	[ "$(st "$NS_US" "$WG_US" tun_offload)" = on ] ||
		fail "tun_offload is $(st "$NS_US" "$WG_US" tun_offload)" || return
	before=$(st "$NS_US" "$WG_US" tun_superpackets_read tun_superpackets_written | tr '\n' ' ')
	iperf_mb "$NS_US" "$NS_GO" 10.222.0.2 && iperf_mb "$NS_GO" "$NS_US" 10.222.0.1 || return
	after=$(st "$NS_US" "$WG_US" tun_superpackets_read tun_segments_read \
		tun_superpackets_written tun_segments_written udp_gso_sends | tr '\n' ' ')
	python3 - "$before" "$after" <<-'PY' 2>"$PXP_TMP/offload.why" ||
		import sys
		r0, w0 = map(int, sys.argv[1].split())
		r, rs, w, ws, gso = map(int, sys.argv[2].split())
		bad = []
		if r - r0 < 10 or rs < 2 * r: bad.append(f"superpackets read {r0}->{r}, segments {rs}")
		if w - w0 < 10 or ws < 2 * w: bad.append(f"superpackets written {w0}->{w}, segments {ws}")
		if gso < 10: bad.append(f"UDP GSO sends {gso}")
		sys.exit("; ".join(bad) or None)
	PY
		fail "offload counters: $(cat "$PXP_TMP/offload.why")" || return
	for r in vnet_short vnet_csum vnet_gso_type vnet_gso_size vnet_hdr_len gso_ip gso_l4 gso_segs; do
		[ "$(drops "$r")" = 0 ] || fail "drop_$r is $(drops "$r")" || return
	done
}

# Two of ours, one with --no-tun-offload (the plain TUN, as where TUNSETOFFLOAD fails):
# iperf3 both ways between them over IPv4 and one way over IPv6 inside (TSO6 superpackets),
# the plain one counts no superpacket, the other both kinds (its UDP GSO sends reach the
# plain one's socket as UDP GRO reads).
test_offload_off() {
	local a=wgo$$ b=wgp$$ pa pb out v4
	wg genkey >"$KEYS/o.key" && wg genkey >"$KEYS/p.key" || return
	us env PPPOE_XP_RUN_DIR="$RUN_DIR" "$PXP_BIN" wg "$a" --no-tun-offload >/dev/null 2>&1 ||
		fail "$a did not start" || return
	pa=$(sock_pid "$a")
	on_cleanup "kill $pa 2>/dev/null"
	go env PPPOE_XP_RUN_DIR="$RUN_DIR" "$PXP_BIN" wg "$b" >/dev/null 2>&1 ||
		fail "$b did not start" || return
	pb=$(go ss -xlp 2>/dev/null | awk -v s="/var/run/wireguard/$b.sock" '$5 == s' |
		grep -o 'pid=[0-9]*' | head -n 1 | cut -d= -f2)
	on_cleanup "kill $pb 2>/dev/null"
	us wg set "$a" private-key "$KEYS/o.key" listen-port 51850 peer "$(wg pubkey <"$KEYS/p.key")" \
		allowed-ips 10.228.0.2/32,fd28::2/128 endpoint 10.221.0.2:51851 &&
		go wg set "$b" private-key "$KEYS/p.key" listen-port 51851 \
			peer "$(wg pubkey <"$KEYS/o.key")" allowed-ips 10.228.0.1/32,fd28::1/128 &&
		ip -n "$NS_US" addr add 10.228.0.1/24 dev "$a" && ip -n "$NS_US" link set "$a" up &&
		ip -n "$NS_US" addr add fd28::1/64 dev "$a" nodad &&
		ip -n "$NS_GO" addr add 10.228.0.2/24 dev "$b" && ip -n "$NS_GO" link set "$b" up &&
		ip -n "$NS_GO" addr add fd28::2/64 dev "$b" nodad ||
		fail "cannot configure $a and $b" || return
	[ "$(st "$NS_US" "$a" tun_offload)" = off ] && [ "$(st "$NS_GO" "$b" tun_offload)" = on ] ||
		fail "tun_offload: $a $(st "$NS_US" "$a" tun_offload), $b $(st "$NS_GO" "$b" tun_offload)" ||
		return
	ping_ok "$NS_US" 10.228.0.2 || return
	iperf_mb "$NS_US" "$NS_GO" 10.228.0.2 && iperf_mb "$NS_GO" "$NS_US" 10.228.0.1 || return
	v4=$(st "$NS_GO" "$b" tun_superpackets_read)
	iperf_mb "$NS_GO" "$NS_US" fd28::1 || return
	[ "$(st "$NS_GO" "$b" tun_superpackets_read)" -gt $((v4 + 10)) ] ||
		fail "IPv6 inside: superpackets read $v4 -> $(st "$NS_GO" "$b" tun_superpackets_read)" ||
		return
	out="$(st "$NS_US" "$a" tun_superpackets_read tun_superpackets_written udp_gro_reads | tr '\n' ' ')"
	out+="/ $(st "$NS_GO" "$b" tun_superpackets_read tun_superpackets_written udp_gso_sends | tr '\n' ' ')"
	python3 -c '
import sys
a, b = sys.argv[1].split("/")
ar, aw, agro = map(int, a.split()); br, bw, bgso = map(int, b.split())
sys.exit(not (ar == 0 and aw == 0 and agro > 0 and br > 0 and bw > 0 and bgso > 0))' "$out" ||
		fail "read written gro / read written gso: $out"
}

# nstat's counter NAME in NS (absolute, since the namespace began).
nstat_of() { # NS NAME
	ip netns exec "$1" nstat -az "$2" 2>/dev/null | awk -v k="$2" '$1 == k { print $2 }'
}

# Two of ours with two crypto threads each (wgk<pid> in NS_US, wgl<pid> in NS_GO): a TCP
# transfer of 24 MB each way arrives whole (md5); order kept: on the wire every sender's
# data counters rise in the order the datagrams went (tshark over a capture of go0), and,
# where nothing was lost on the way (no UDP receive-buffer drops, none of ours), the
# receiving TCP queued no segment out of order (TcpExtTCPOFOQueue) and we counted no replay,
# failed decryption or loss.
test_crypto_threads_order() {
	local a=wgk$$ b=wgl$$ pa pb f=$PXP_TMP/order.bin out ofo0 ofo1 rcv0 rcv1 bad dir src dst ip
	local ns dev
	wg genkey >"$KEYS/k.key" && wg genkey >"$KEYS/l.key" &&
		head -c $((24 << 20)) /dev/urandom >"$f" || return
	us env PPPOE_XP_RUN_DIR="$RUN_DIR" "$PXP_BIN" wg "$a" --crypto-threads 2 >/dev/null 2>&1 ||
		fail "$a did not start" || return
	pa=$(sock_pid "$a")
	on_cleanup "kill $pa 2>/dev/null"
	go env PPPOE_XP_RUN_DIR="$RUN_DIR" "$PXP_BIN" wg "$b" --crypto-threads 2 >/dev/null 2>&1 ||
		fail "$b did not start" || return
	pb=$(go ss -xlp 2>/dev/null | awk -v s="/var/run/wireguard/$b.sock" '$5 == s' |
		grep -o 'pid=[0-9]*' | head -n 1 | cut -d= -f2)
	on_cleanup "kill $pb 2>/dev/null"
	us wg set "$a" private-key "$KEYS/k.key" listen-port 51860 peer "$(wg pubkey <"$KEYS/l.key")" \
		allowed-ips 10.229.0.2/32 endpoint 10.221.0.2:51861 &&
		go wg set "$b" private-key "$KEYS/l.key" listen-port 51861 \
			peer "$(wg pubkey <"$KEYS/k.key")" allowed-ips 10.229.0.1/32 &&
		ip -n "$NS_US" addr add 10.229.0.1/24 dev "$a" && ip -n "$NS_US" link set "$a" up &&
		ip -n "$NS_GO" addr add 10.229.0.2/24 dev "$b" && ip -n "$NS_GO" link set "$b" up ||
		fail "cannot configure $a and $b" || return
	[ "$(st "$NS_US" "$a" crypto_threads)" = 2 ] && [ "$(st "$NS_GO" "$b" crypto_threads)" = 2 ] ||
		fail "crypto_threads: $(st "$NS_US" "$a" crypto_threads) $(st "$NS_GO" "$b" crypto_threads)" ||
		return
	ping_ok "$NS_US" 10.229.0.2 || return
	capture_start "$NS_GO" "$PXP_TMP/order.txt" -n -s 96 -B 16384 -i go0 -w "$PXP_TMP/order.pcap" \
		"udp and (port 51860 or port 51861)" || return
	ofo0=$(($(nstat_of "$NS_US" TcpExtTCPOFOQueue) + $(nstat_of "$NS_GO" TcpExtTCPOFOQueue)))
	rcv0=$(($(nstat_of "$NS_US" UdpRcvbufErrors) + $(nstat_of "$NS_GO" UdpRcvbufErrors)))
	for dir in "$NS_US $NS_GO 10.229.0.2" "$NS_GO $NS_US 10.229.0.1"; do
		read -r src dst ip <<<"$dir"
		rm -f "$f.got"
		ip netns exec "$dst" timeout 60 socat -u TCP-LISTEN:5301,reuseaddr \
			OPEN:"$f.got",creat,trunc &
		wait_listening "$dst" 5301 || fail "no listener in $dst" || return
		ip netns exec "$src" timeout 60 socat -u OPEN:"$f" TCP:"$ip":5301 ||
			fail "the transfer to $ip failed" || return
		wait $! 2>/dev/null
		[ "$(md5sum <"$f")" = "$(md5sum <"$f.got")" ] ||
			fail "to $ip: $(stat -c %s "$f.got" 2>/dev/null) bytes arrived, md5 differs" || return
	done
	sleep 0.5
	kill -INT "$CAPTURE_PID" 2>/dev/null
	wait "$CAPTURE_PID" 2>/dev/null
	ofo1=$(($(nstat_of "$NS_US" TcpExtTCPOFOQueue) + $(nstat_of "$NS_GO" TcpExtTCPOFOQueue)))
	rcv1=$(($(nstat_of "$NS_US" UdpRcvbufErrors) + $(nstat_of "$NS_GO" UdpRcvbufErrors)))
	# Data messages (type 4) of each receiver index: counters strictly rising, capture order
	# (veth carries a UDP GSO send whole: tshark reads the first datagram of each).
	out=$(tshark -n -r "$PXP_TMP/order.pcap" -d udp.port==51860,wg -d udp.port==51861,wg \
		-Y "wg.type == 4" -T fields -e wg.receiver -e wg.counter 2>"$PXP_TMP/tshark.err") ||
		fail "tshark: $(head -c 300 "$PXP_TMP/tshark.err")" || return
	bad=$(echo "$out" | awk 'NF == 2 { n++; if (($1 in last) && $2 + 0 <= last[$1]) bad++; last[$1] = $2 + 0 }
		END { if (n < 500) print "only " n " data messages captured"; else if (bad) print bad " out of order" }')
	# What tcpdump says it captured and dropped, for a count that comes out short (a clean
	# clone's make check once saw none, with the transfers whole: not understood).
	[ -z "$bad" ] || fail "on the wire: $bad (tcpdump: $(grep -E 'captured|dropped' \
		"$PXP_TMP/order.txt.err" | tr '\n' ' '); $(echo "$out" | grep -c .) lines from tshark)" ||
		return
	for dir in "$NS_US $a" "$NS_GO $b"; do
		read -r ns dev <<<"$dir"
		# (no_peer: the kernel's own IPv6 packets into a TUN with no route for them)
		out=$(st "$ns" "$dev" drops)
		! grep -Eq "'(replay|decrypt|internal|unknown_index|send|inner|source)'" <<<"$out" ||
			fail "$dev drops: $out" || return
	done
	# Lost datagrams make TCP queue out of order too: the check means something without.
	if [ "$rcv1" = "$rcv0" ]; then
		[ "$ofo1" = "$ofo0" ] ||
			fail "TCP queued $((ofo1 - ofo0)) segments out of order with nothing lost" || return
	else
		echo "# crypto_threads_order: $((rcv1 - rcv0)) UDP receive-buffer drops: OFO not checked"
	fi
}

# SIGTERM ends a device: its socket and its TUN go with it.
test_sigterm() {
	local t=wgt$$ pid
	us "$PXP_WG" "$t" >/dev/null 2>&1 || fail "$t did not start" || return
	pid=$(sock_pid "$t")
	[ -n "$pid" ] || fail "no process serves $t's socket" || return
	kill -TERM "$pid"
	wait_for 10 pid_is_gone "$pid" || fail "SIGTERM did not end the device" || return
	[ ! -e "/var/run/wireguard/$t.sock" ] || fail "the UAPI socket outlived the device" ||
		return
	! ip -n "$NS_US" link show "$t" >/dev/null 2>&1 || fail "the TUN outlived the device"
}

# ip link del: the device ends and takes its socket with it (last: it ends our device).
test_link_del() {
	ip -n "$NS_US" link del "$WG_US" || fail "cannot delete $WG_US" || return
	wait_for 10 pid_is_gone "$US_PID" || fail "the device outlived its TUN" || return
	[ ! -e "/var/run/wireguard/$WG_US.sock" ] || fail "the UAPI socket outlived the device"
}

cases_named "$@"
setup || {
	echo "FAIL wg_device/setup: namespaces or devices did not come up: $(cat "$PXP_TMP/us.start" 2>/dev/null) $(tail -n 3 "$PXP_TMP/wireguard-go.log" 2>/dev/null)"
	exit 1
}
case_ wg_device/handshake_from_us test_handshake_from_us
case_ wg_device/handshake_from_go test_handshake_from_go
case_ wg_device/psk test_psk
case_ wg_device/iperf_both_ways test_iperf_both_ways
case_ wg_device/dump_matches_go test_dump_matches_go
case_ wg_device/persistent_keepalive test_persistent_keepalive
case_ wg_device/tshark_formats test_tshark_formats
case_ wg_device/ipv6_endpoint test_ipv6_endpoint
case_ wg_device/ipv4_only test_ipv4_only
case_ wg_device/roaming test_roaming
case_ wg_device/hostile test_hostile
case_ wg_device/many_peers test_many_peers
case_ wg_device/status_json test_status_json
case_ wg_device/stats test_stats
case_ wg_device/offload_superpackets test_offload_superpackets
case_ wg_device/offload_off test_offload_off
case_ wg_device/crypto_threads_order test_crypto_threads_order
case_ wg_device/in_pppoe_session test_in_pppoe_session
case_ wg_device/stamp_after_restart test_stamp_after_restart
case_ wg_device/set_then_remove test_set_then_remove
case_ wg_device/second_instance test_second_instance
case_ wg_device/wg_quick test_wg_quick
case_ wg_device/sigterm test_sigterm
case_ wg_device/link_del test_link_del
tests_done
