#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# wg-bridge's handshake core against Debian's wireguard-go, on the host, no guest:
#
#   probe ========================================= go
#   pr0 10.201.0.1 (wg_probe, UDP 51821)           go0 10.201.0.2 (wireguard-go, UDP 51820)
#   tunnel 10.202.0.1                              tunnel 10.202.0.2 (its TUN)
#
# tests/tools/wg_probe drives the pure core over a UDP socket: as initiator it sends the
# initiation, takes wireguard-go's response and pings wireguard-go's tunnel address through
# the keys; as responder it answers the initiation that a ping from wireguard-go's side
# starts, and echoes that ping back. Each with and without a preshared key. Not a data path
# or a `wg` interface of ours yet: the handshake, the transport keys and the data message
# format, checked against another implementation.
PXP_NS_PREFIX=wgc$$-
. "$(dirname "$0")/../netns/lib.sh"

NS_PR=${PXP_NS_PREFIX}pr
NS_GO=${PXP_NS_PREFIX}go
WG_IF=wgc$$
PROBE=$PXP_TOOLS/wg_probe
KEYS=$PXP_TMP/keys

missing=$(require_cmds ip ping wg wireguard-go) || {
	skip_test wg_handshake "missing commands:$missing (make deps installs them)"
	exit 0
}
[ -x "$PROBE" ] || {
	echo "FAIL wg_handshake/build: $PROBE is missing (run make)"
	exit 1
}

setup() {
	ip netns add "$NS_PR" && ip netns add "$NS_GO" &&
		_veth "$NS_PR" pr0 "$NS_GO" go0 &&
		ip -n "$NS_PR" addr add 10.201.0.1/24 dev pr0 &&
		ip -n "$NS_GO" addr add 10.201.0.2/24 dev go0 || return 1
	umask 077 # the keys, and the probe's key file peer_fresh writes
	mkdir "$KEYS" &&
		wg genkey >"$KEYS/pr.key" && wg pubkey <"$KEYS/pr.key" >"$KEYS/pr.pub" &&
		wg genkey >"$KEYS/go.key" && wg pubkey <"$KEYS/go.key" >"$KEYS/go.pub" &&
		wg genpsk >"$KEYS/psk" || return 1
	WG_PROCESS_FOREGROUND=1 ip netns exec "$NS_GO" wireguard-go "$WG_IF" \
		>"$PXP_TMP/wireguard-go.log" 2>&1 &
	GO_PID=$!
	on_cleanup "kill $GO_PID; wait $GO_PID; rm -f /var/run/wireguard/$WG_IF.sock"
	wait_for 10 ip -n "$NS_GO" link show "$WG_IF" || return 1
	wait_for 10 ip netns exec "$NS_GO" wg show "$WG_IF" || return 1
	ip netns exec "$NS_GO" wg set "$WG_IF" private-key "$KEYS/go.key" listen-port 51820 &&
		ip -n "$NS_GO" addr add 10.202.0.2/24 dev "$WG_IF" &&
		ip -n "$NS_GO" link set "$WG_IF" up
}

# peer_fresh PSK(yes|no): wireguard-go's peer (us) anew, so no session of a previous case
# lingers; the probe's key file to match.
peer_fresh() {
	local pub
	pub=$(cat "$KEYS/pr.pub")
	ip netns exec "$NS_GO" wg set "$WG_IF" peer "$pub" remove
	{
		echo "private=$(cat "$KEYS/pr.key")"
		echo "peer=$(cat "$KEYS/go.pub")"
		[ "$1" = yes ] && echo "psk=$(cat "$KEYS/psk")"
	} >"$KEYS/probe"
	if [ "$1" = yes ]; then
		ip netns exec "$NS_GO" wg set "$WG_IF" peer "$pub" preshared-key "$KEYS/psk" \
			allowed-ips 10.202.0.1/32 endpoint 10.201.0.1:51821
	else
		ip netns exec "$NS_GO" wg set "$WG_IF" peer "$pub" \
			allowed-ips 10.202.0.1/32 endpoint 10.201.0.1:51821
	fi
}

# wireguard-go's record of the peer: a handshake and bytes both ways.
go_saw_handshake() {
	local dump
	dump=$(ip netns exec "$NS_GO" wg show "$WG_IF" dump | awk 'NR == 2')
	# public-key psk endpoint allowed-ips latest-handshake rx tx keepalive
	echo "$dump" | awk '{ exit !($5 > 0 && $6 > 0 && $7 > 0) }' ||
		fail "wireguard-go shows no handshake or no traffic: $dump"
}

# We initiate, then ping wireguard-go's tunnel address through the new keys.
initiate() {
	local out
	peer_fresh "$1" || return
	out=$(ip netns exec "$NS_PR" "$PROBE" initiate "$KEYS/probe" 10.201.0.2 51820 51821 \
		10.202.0.1 10.202.0.2 2>&1) || {
		fail "wg_probe initiate: $out; wireguard-go: $(tail -n 3 "$PXP_TMP/wireguard-go.log")"
		return
	}
	go_saw_handshake
}

# wireguard-go initiates (a ping from its side to ours) and gets its echo reply.
respond() {
	local out probe
	peer_fresh "$1" || return
	ip netns exec "$NS_PR" "$PROBE" respond "$KEYS/probe" 51821 10.202.0.1 10.202.0.2 \
		>"$PXP_TMP/probe.out" 2>&1 &
	probe=$!
	wait_for 10 ip netns exec "$NS_PR" sh -c "ss -lun | grep -q ':51821 '" ||
		fail "wg_probe does not listen: $(cat "$PXP_TMP/probe.out")" || return
	out=$(ip netns exec "$NS_GO" ping -c 1 -W 15 10.202.0.1 2>&1) || {
		kill "$probe" 2>/dev/null
		wait "$probe"
		fail "no echo reply through the tunnel: $out; wg_probe: $(cat "$PXP_TMP/probe.out")"
		return
	}
	wait "$probe" || {
		fail "wg_probe respond: $(cat "$PXP_TMP/probe.out")"
		return
	}
	go_saw_handshake
}

test_initiate_psk() { initiate yes; }
test_initiate_nopsk() { initiate no; }
test_respond_psk() { respond yes; }
test_respond_nopsk() { respond no; }

cases_named "$@"
setup || {
	echo "FAIL wg_handshake/setup: namespaces or wireguard-go did not come up: $(tail -n 3 "$PXP_TMP/wireguard-go.log" 2>/dev/null)"
	exit 1
}
case_ wg_handshake/initiate_psk test_initiate_psk
case_ wg_handshake/initiate_nopsk test_initiate_nopsk
case_ wg_handshake/respond_psk test_respond_psk
case_ wg_handshake/respond_nopsk test_respond_nopsk
tests_done
