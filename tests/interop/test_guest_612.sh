#!/bin/bash
# The 6.12 guest (Debian bookworm-security's linux-image-6.12-amd64, the kernel OpenWrt 25.12
# runs): what the benchmark's 6.12-only cases and a netkit session netdev rely on, and one
# pppoe-xp session inside it. The 6.1 guest (test_guest_kernel.sh and the other interop
# tests) stays: the BPF objects must keep loading on an OpenWrt-era kernel.
#
#   qemu guest (6.12, TCG)
#   netns pxkA  --- veth ---  netns pxkB
#   AC side                   client side
#
# Cases: the kernel is 6.12, kernel PPPoE (pxp-ac / pxp-pppd-client, pppoe.ko) carries a
# ping, WireGuard and netkit links can be made, netem loads, an nftables flowtable over the session's
# devices loads (the flowtable baseline), a pppoe-xp server and client (build/ over 9p) with
# no data path options carry a ping and run --mode auto's netkit row (netkit, rx xdp-pass,
# tx tc); a pppoe-xp client with --netdev netkit (mode tc) against an AC in mode tc
# with --rx xdp-pass (the benchmark's pppoe-xp-netkit AC; its --netdev auto picks netkit)
# carries a ping and TCP both ways with 0x8864 framing on the wire, and after kill -9 `down`
# deletes its netkit pxp0; our `pppoe-xp wg` inside the guest (build/ over 9p, the guest's
# TUN) against the guest's kernel WireGuard, as the benchmark's guest pppoe-xp-wg case runs
# it: a handshake, a ping and TCP both ways, and its socket gone with its netdev; kernel
# WireGuard in the guest and our `pppoe-xp wg` on the host
# handshake (each side starting once) and carry pings and TCP both ways through the tap;
# a pppoe-xp server and client with no data path options on two virtio-net NICs of qemu's
# wired to each other (the benchmark's --guest-wan virtio) carry a ping and run --mode
# auto's native-XDP row (XDP both halves in native mode, veth session netdevs); the same on
# two e1000e NICs (no native XDP) run auto's last row (tc both ways, veth session netdevs).
# One boot for all of them: interop time is scarce.
# Output: one PASS/FAIL/SKIP line per case; exit 1 if anything failed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/interop/lib.sh
source "$here/lib.sh"

name=pxk$$
netns=pxkn$$
tap=pxkt$$
cases=(guest612_boot guest612_kernel guest612_kernel_pppoe guest612_wireguard guest612_netkit
	guest612_netem guest612_flowtable guest612_pppoe_xp_session guest612_pppoe_xp_no_xdp_meta
	guest612_pppoe_xp_netkit
	guest612_pppoe_xp_netkit_crash guest612_pppoe_xp_virtio guest612_pppoe_xp_e1000e
	guest612_wg_ours_in_guest guest612_wg_kernel_from_us
	guest612_wg_kernel_from_guest)
guest_suite "$name" "${cases[@]}"
apt-cache show linux-image-6.12-amd64 >/dev/null 2>&1 ||
	guest_suite_skip_all "apt knows no linux-image-6.12-amd64 (bookworm-security missing from the sources?)"

PXG_NIC_PAIRS="virtio-net-pci 1,e1000e 1" PXG_KERNEL=6.12 guest_suite_boot "$netns" "$tap" "$repo/build"

out=$(guest_exec "$name" 'uname -r')
case $out in
6.12.*) pass guest612_kernel ;;
*) fail guest612_kernel "uname -r says '$out', want 6.12.*" ;;
esac

guest_exec "$name" '
	ip netns add pxkA && ip netns add pxkB &&
	ip link add vA netns pxkA type veth peer name vB netns pxkB &&
	ip -n pxkA link set vA up && ip -n pxkB link set vB up' >&2 ||
	fail guest612_setup "cannot build the in-guest namespaces"

out=$(guest_exec "$name" "
	ip netns exec pxkA pxp-ac start --iface vA --auth chap --user u612 --password pw-$$ \
		--local 10.78.1.1 --pool 10.78.1.2 --mode kernel || exit 1
	ip netns exec pxkB pxp-pppd-client start --iface vB --user u612 --password pw-$$ \
		--mode kernel --ifname ppp0 --timeout 45 || exit 2
	ip netns exec pxkB ping -c 3 -W 3 10.78.1.1 >/dev/null || exit 3
	ip netns exec pxkB grep -q ' vB' /proc/net/pppoe || exit 4" 120)
case $? in
0) pass guest612_kernel_pppoe ;;
1) fail guest612_kernel_pppoe "pxp-ac start failed: $out" ;;
2) fail guest612_kernel_pppoe "the client session did not come up: $out" ;;
3) fail guest612_kernel_pppoe "no ping across the session" ;;
4) fail guest612_kernel_pppoe "the session is not in /proc/net/pppoe (not pppoe.ko?)" ;;
*) fail guest612_kernel_pppoe "guest_exec failed: $out" ;;
esac

if out=$(guest_exec "$name" 'ip netns exec pxkA ip link add wg612 type wireguard &&
	ip netns exec pxkA ip -d link show wg612' 2>&1) && echo "$out" | grep -q wireguard; then
	pass guest612_wireguard
else
	fail guest612_wireguard "ip link add type wireguard: $out"
fi

# iproute2 6.1 makes a netkit only with no options (L3 mode, pass): enough to prove the kind.
if out=$(guest_exec "$name" 'ip netns exec pxkA ip link add nk612 type netkit &&
	ip netns exec pxkA ip -d link show nk612' 2>&1) && echo "$out" | grep -q netkit; then
	pass guest612_netkit
else
	fail guest612_netkit "ip link add type netkit: $out"
fi

if out=$(guest_exec "$name" 'ip netns exec pxkA ip link add nm612 type dummy &&
	ip netns exec pxkA tc qdisc add dev nm612 root netem delay 1ms &&
	ip netns exec pxkA tc qdisc show dev nm612' 2>&1) && echo "$out" | grep -q 'netem'; then
	pass guest612_netem
else
	fail guest612_netem "tc qdisc add netem: $out"
fi

# The flowtable baseline's ruleset (bench/lib/guest.sh) over the live session's devices.
out=$(guest_exec "$name" "ip netns exec pxkB nft -f - <<-'NFT'
	table inet pxk_ft {
		flowtable ft {
			hook ingress priority 0; devices = { vB, ppp0 };
		}
		chain forward {
			type filter hook forward priority filter; policy accept;
			meta l4proto { tcp, udp } flow add @ft
		}
	}
	NFT
	ip netns exec pxkB nft list flowtable inet pxk_ft ft" 2>&1)
if [ $? = 0 ] && echo "$out" | grep -q 'flowtable ft'; then
	pass guest612_flowtable
else
	fail guest612_flowtable "nft flowtable over vB, ppp0: $out"
fi
guest_exec "$name" 'ip netns exec pxkB pxp-pppd-client stop; ip netns exec pxkA pxp-ac stop' >&2

# pppoe-xp on both ends with no data path options (--mode auto, what a user gets and what the
# benchmark's pppoe-xp case runs): on a veth WAN of a kernel with netkit, the auto table's
# netkit row at both ends: rx xdp-pass, tx tc, netkit session netdevs, and a reason saying so.
if [ ! -x "$repo/build/pppoe-xp" ]; then
	skip guest612_pppoe_xp_session "no build/pppoe-xp (run make first)"
else
	guest_pxp_auto_case guest612_pppoe_xp_session "$name" pxk u612 10.78.2 \
		"netkit + rx xdp-pass + tx tc" \
		"^  netdev_kind: netkit\$
^  halves: rx xdp-pass .*, tx tc (
^  mode_reason: auto: veth: netkit measured fastest" \
		"^netdev_kind: netkit\$
^datapath_halves: rx xdp-pass .*, tx tc (
^datapath_mode_reason: auto: veth: netkit measured fastest"
fi

# The same on a kernel that refuses XDP programs bpf_xdp_adjust_meta (both daemons under
# tests/netns/no_xdp_meta.so): the netkit row's receive half, xdp-pass, hands the session to
# tc in the frame's metadata, so it falls back to tc, and so pxp0 to a veth (what the tc
# receive half decapsulates needs a veth's GRO); the reason says why.
if [ ! -x "$repo/build/pppoe-xp" ] || [ ! -f "$repo/build/tests/netns/no_xdp_meta.so" ]; then
	skip guest612_pppoe_xp_no_xdp_meta "no build/pppoe-xp or build/tests/netns/no_xdp_meta.so (run make first)"
else
	PXG_PXP_ENV=LD_PRELOAD=/host/tests/netns/no_xdp_meta.so \
		guest_pxp_auto_case guest612_pppoe_xp_no_xdp_meta "$name" pxk u612 10.78.8 \
		"tc both ways on a veth (no XDP metadata)" \
		"^  netdev_kind: veth\$
^  halves: rx tc .*, tx tc (
^  mode_reason: auto: veth: netkit measured fastest.*; receive half tc: this kernel refuses bpf_xdp_adjust_meta" \
		"^netdev_kind: veth\$
^datapath_halves: rx tc .*, tx tc (
^datapath_mode_reason: auto: veth: netkit measured fastest.*; receive half tc: this kernel refuses bpf_xdp_adjust_meta"
fi

# The netkit session netdev: the client's pxp0 a netkit (--netdev netkit) whose primary
# program is the tc transmit half, receiving in tc, against the AC in mode tc receiving in
# XDP + GRO + tc (--rx xdp-pass), where --netdev auto makes its pxs<N> a netkit too: both
# receive halves on a netkit, one at each end.
# tcpdump on vB sees the ping and the TCP segments inside PPPoE session frames (0x8864).
if [ ! -x "$repo/build/pppoe-xp" ]; then
	skip guest612_pppoe_xp_netkit "no build/pppoe-xp (run make first)"
	skip guest612_pppoe_xp_netkit_crash "no build/pppoe-xp (run make first)"
else
	# Quoted: all of it runs in the guest, nothing expands here.
	netkit_session=$(
		cat <<-'EOF'
			# Functions, not env: busybox env would run its own ip applet.
			runA() { PPPOE_XP_RUN_DIR=/tmp/pxk-runA ip netns exec pxkA /host/pppoe-xp "$@"; }
			runB() { PPPOE_XP_RUN_DIR=/tmp/pxk-runB ip netns exec pxkB /host/pppoe-xp "$@"; }
			runB down vB; runA down vA
			(runA server vA --local 10.78.3.1 --pool 10.78.3.0/30 --auth chap \
				--secrets /tmp/pxk-secrets --mode tc --rx xdp-pass --foreground \
				>/tmp/pxk-nk-server.log 2>&1 </dev/null &)
			sleep 1
			runB up vB --user u612 --password-file /tmp/pxk-pass --mode tc --netdev netkit \
				>/tmp/pxk-nk-client.log 2>&1 ||
				{ tail -n 5 /tmp/pxk-nk-client.log /tmp/pxk-nk-server.log; exit 1; }
			ip -n pxkB -d link show pxp0 | grep -q netkit || { ip -n pxkB -d link show pxp0; exit 2; }
			runB status vB | grep -q "netdev_kind: netkit" || { runB status vB; exit 2; }
			runA status vA | grep -q "netdev_kind: netkit" || { runA status vA; exit 6; }
			runA status vA | grep -q "datapath_halves: rx xdp-pass" || { runA status vA; exit 6; }
			ip -n pxkA -d link show | grep -A2 "^[0-9]*: pxs[0-9]*@" | grep -q netkit ||
				{ ip -n pxkA -d link show; exit 6; }
			w=/tmp/pxk-nk-wire.txt
			p="ethertype PPPoE S (0x8864)"
			wire_ok() {
				grep -q "$p.*ICMP echo request" $w && grep -q "$p.*ICMP echo reply" $w &&
					grep -q "$p.*10.78.3.2.[0-9]* > 10.78.3.1.5612:" $w &&
					grep -q "$p.*10.78.3.1.5612 > 10.78.3.2.[0-9]*:" $w
			}
			# Fixed sleeps lose frames under TCG: the capture starts once tcpdump says it
			# listens, and ends once it has written (-l: a line a frame) what it saw.
			ip netns exec pxkB tcpdump -i vB -nn -e -l "ether proto 0x8864" \
				>$w 2>/tmp/pxk-nk-wire.err &
			dump=$!
			for i in $(seq 50); do grep -q "listening on" /tmp/pxk-nk-wire.err && break; sleep 0.2; done
			ip netns exec pxkB ping -c 3 -W 3 10.78.3.1 >/dev/null || { kill $dump; exit 3; }
			ip netns exec pxkA iperf3 -s -D -B 10.78.3.1 -p 5612 -I /tmp/pxk-iperf.pid
			guest_wait_listening pxkA 5612
			up=$(ip netns exec pxkB iperf3 -c 10.78.3.1 -p 5612 -n 4M 2>&1)
			down=$(ip netns exec pxkB iperf3 -c 10.78.3.1 -p 5612 -n 4M -R 2>&1)
			for i in $(seq 50); do wire_ok && break; sleep 0.2; done
			kill $dump "$(cat /tmp/pxk-iperf.pid)"
			echo "$up" | grep -q receiver || { echo "up: $up" | tail -n 4; exit 4; }
			echo "$down" | grep -q receiver || { echo "down: $down" | tail -n 4; exit 4; }
			wire_ok || { echo "wire: $(wc -l <$w) frames"; head -n 3 $w; exit 5; }
			echo "up: $(echo "$up" | grep receiver | tail -n 1)"
			echo "down: $(echo "$down" | grep receiver | tail -n 1)"
			runB status vB | grep -E "^  (encap|decap):"
		EOF
	)
	out=$(guest_exec "$name" "$GUEST_WAIT_LISTENING
$netkit_session" 240)
	case $? in
	0) pass guest612_pppoe_xp_netkit ;;
	1) fail guest612_pppoe_xp_netkit "pppoe-xp up --netdev netkit failed in the guest: $out" ;;
	2) fail guest612_pppoe_xp_netkit "pxp0 is no netkit, or status does not say so: $out" ;;
	3) fail guest612_pppoe_xp_netkit "no ping across the netkit session" ;;
	4) fail guest612_pppoe_xp_netkit "a TCP transfer across the netkit session failed: $out" ;;
	5) fail guest612_pppoe_xp_netkit "the wire did not carry ping and TCP both ways in 0x8864 frames: $out" ;;
	6) fail guest612_pppoe_xp_netkit "the AC's --netdev auto made no netkit pxs<N> on 6.12, or its receive half is not xdp-pass: $out" ;;
	*) fail guest612_pppoe_xp_netkit "guest_exec failed: $out" ;;
	esac
	echo "# guest612_pppoe_xp_netkit: $(echo "$out" | tr '\n' ' ')" >&2

	netkit_crash=$(
		cat <<-'EOF'
			pid=$(cat /tmp/pxk-runB/vB.pid) || exit 1
			kill -9 $pid
			for i in 1 2 3 4 5 6 7 8 9 10; do kill -0 $pid 2>/dev/null || break; sleep 1; done
			kill -0 $pid 2>/dev/null && exit 1
			ip -n pxkB link show pxp0 >/dev/null 2>&1 || exit 2
			grep -q "^netdev_kind netkit" /tmp/pxk-runB/vB.session || exit 3
			PPPOE_XP_RUN_DIR=/tmp/pxk-runB ip netns exec pxkB /host/pppoe-xp down vB
			! ip -n pxkB link show pxp0 >/dev/null 2>&1 || exit 4
			PPPOE_XP_RUN_DIR=/tmp/pxk-runA ip netns exec pxkA /host/pppoe-xp down vA
			exit 0
		EOF
	)
	out=$(guest_exec "$name" "$netkit_crash" 60)
	case $? in
	0) pass guest612_pppoe_xp_netkit_crash ;;
	1) fail guest612_pppoe_xp_netkit_crash "the client did not die of kill -9" ;;
	2) fail guest612_pppoe_xp_netkit_crash "pxp0 vanished with the client: nothing left to clean" ;;
	3) fail guest612_pppoe_xp_netkit_crash "the record does not name a netkit" ;;
	4) fail guest612_pppoe_xp_netkit_crash "down after kill -9 left the netkit pxp0" ;;
	*) fail guest612_pppoe_xp_netkit_crash "guest_exec failed: $out" ;;
	esac
fi

# nic_pair_case CASE PAIR DRIVER TAG NET WANT CLIENT_RES AC_RES: NIC pair PAIR (launch.sh
# PXG_NIC_PAIRS), whose driver is DRIVER, as vA in TAG"A" and vB in TAG"B"
# (guest_nic_pair_script), then guest_pxp_auto_case over it.
nic_pair_case() {
	local case=$1 pair=$2 driver=$3 tag=$4 out
	if [ ! -x "$repo/build/pppoe-xp" ]; then
		skip "$case" "no build/pppoe-xp (run make first)"
		return
	fi
	# The image binds no PCI driver by itself (no udev): e1000e's NICs wait for modprobe.
	if ! out=$(guest_exec "$name" "modprobe $driver 2>/dev/null
		ip netns add ${tag}A && ip netns add ${tag}B || exit 1
		$(guest_nic_pair_script "$pair" "${tag}A" vA "${tag}B" vB)
		ip netns exec ${tag}B ethtool -i vB | grep '^driver: $driver'" 2>&1); then
		fail "$case" "the $driver NIC pair is not there: $out"
		return
	fi
	guest_pxp_auto_case "$case" "$name" "$tag" u612 "$5" "$6" "$7" "$8"
}

# A WAN whose driver has native XDP, unlike the veths above: auto's native-XDP row.
nic_pair_case guest612_pppoe_xp_virtio 0 virtio_net pxv 10.78.6 "XDP both ways, native, veth" \
	"^  mode: xdp\$
^  netdev_kind: veth\$
^  halves: rx xdp (native), tx xdp (native)\$
^  mode_reason: auto: virtio_net has native XDP: " \
	"^netdev_kind: veth\$
^datapath_halves: rx xdp (native), tx xdp (native)\$
^datapath_mode_reason: auto: virtio_net has native XDP: "
# One without (the R6S's r8169 ports): tc both ways on veths, whose GRO takes what tc
# decapsulates, though this kernel has netkit.
nic_pair_case guest612_pppoe_xp_e1000e 1 e1000e pxe 10.78.7 "tc both ways, veth" \
	"^  mode: tc\$
^  netdev_kind: veth\$
^  halves: rx tc (tcx), tx tc (clsact)\$
^  mode_reason: auto: e1000e has no native XDP: " \
	"^netdev_kind: veth\$
^datapath_halves: rx tc (tcx), tx tc (clsact)\$
^datapath_mode_reason: auto: e1000e has no native XDP: "

# Our `pppoe-xp wg` in pxkB (detached: it returns once its socket answers) against kernel
# WireGuard in pxkA, over a veth of their own; we initiate (the kernel knows no endpoint).
#   pxkA: wA 10.78.4.1, wgk612 10.78.5.1 (kernel, UDP 51820)
#   pxkB: wB 10.78.4.2, wgx612 10.78.5.2 (pppoe-xp wg)
if [ ! -x "$repo/build/pppoe-xp" ]; then
	skip guest612_wg_ours_in_guest "no build/pppoe-xp (run make first)"
else
	wg_in_guest=$(
		cat <<-'EOF'
			ip link add wA netns pxkA type veth peer name wB netns pxkB || exit 1
			ip -n pxkA addr add 10.78.4.1/24 dev wA && ip -n pxkA link set wA up &&
				ip -n pxkB addr add 10.78.4.2/24 dev wB && ip -n pxkB link set wB up || exit 1
			(umask 077 && wg genkey >/tmp/pxk-wgA.key && wg genkey >/tmp/pxk-wgB.key) || exit 1
			ip -n pxkA link add wgk612 type wireguard &&
				ip netns exec pxkA wg set wgk612 private-key /tmp/pxk-wgA.key listen-port 51820 \
					peer "$(wg pubkey </tmp/pxk-wgB.key)" allowed-ips 10.78.5.2/32 || exit 1
			PPPOE_XP_RUN_DIR=/tmp/pxk-runW PPPOE_XP_STATE_DIR=/tmp/pxk-runW/state \
				ip netns exec pxkB /host/pppoe-xp wg wgx612 || exit 2
			ip netns exec pxkB wg set wgx612 private-key /tmp/pxk-wgB.key \
				peer "$(wg pubkey </tmp/pxk-wgA.key)" allowed-ips 10.78.5.1/32 \
				endpoint 10.78.4.1:51820 || exit 2
			ip -n pxkA addr add 10.78.5.1/24 dev wgk612 && ip -n pxkA link set wgk612 up &&
				ip -n pxkB addr add 10.78.5.2/24 dev wgx612 && ip -n pxkB link set wgx612 up ||
				exit 1
			ip netns exec pxkB ping -c 3 -W 10 10.78.5.1 >/dev/null || exit 3
			for side in "pxkA wgk612" "pxkB wgx612"; do
				set -- $side
				ip netns exec $1 wg show $2 latest-handshakes |
					awk '$2 > 0 { n++ } END { exit !n }' || { echo "$2: no handshake"; exit 3; }
			done
			ip netns exec pxkA iperf3 -s -D -B 10.78.5.1 -p 5614 -I /tmp/pxk-wg-iperf.pid
			guest_wait_listening pxkA 5614
			up=$(ip netns exec pxkB iperf3 -c 10.78.5.1 -p 5614 -n 1M 2>&1)
			down=$(ip netns exec pxkB iperf3 -c 10.78.5.1 -p 5614 -n 1M -R 2>&1)
			kill "$(cat /tmp/pxk-wg-iperf.pid)"
			echo "$up" | grep -q receiver || { echo "up: $up" | tail -n 3; exit 4; }
			echo "$down" | grep -q receiver || { echo "down: $down" | tail -n 3; exit 4; }
			echo "up: $(echo "$up" | grep receiver | tail -n 1)"
			echo "down: $(echo "$down" | grep receiver | tail -n 1)"
			# Deleting the netdev ends the daemon, which removes its socket.
			ip -n pxkB link del wgx612
			for i in 1 2 3 4 5 6 7 8 9 10; do
				[ -e /run/wireguard/wgx612.sock ] || exit 0
				sleep 1
			done
			exit 5
		EOF
	)
	out=$(guest_exec "$name" "$GUEST_WAIT_LISTENING
$wg_in_guest" 120)
	case $? in
	0) pass guest612_wg_ours_in_guest ;;
	1) fail guest612_wg_ours_in_guest "setting up the veth or kernel WireGuard failed: $out" ;;
	2) fail guest612_wg_ours_in_guest "pppoe-xp wg did not start or take its config in the guest: $out" ;;
	3) fail guest612_wg_ours_in_guest "no ping or handshake between our wg and the kernel's: $out" ;;
	4) fail guest612_wg_ours_in_guest "a TCP transfer through the tunnel failed: $out" ;;
	5) fail guest612_wg_ours_in_guest "the UAPI socket stayed after ip link del (daemon still up?)" ;;
	*) fail guest612_wg_ours_in_guest "guest_exec failed: $out" ;;
	esac
	echo "# guest612_wg_ours_in_guest: $(echo "$out" | tr '\n' ' ')" >&2
fi

# Kernel WireGuard (the guest's wireguard.ko) against our `pppoe-xp wg` on the host, through
# the guest's tap: a handshake started from each side, pings both ways, 2 MB of TCP each way.
#   host netns: tap 10.79.12.1, pxkw<pid> 10.79.13.1 (pppoe-xp wg, UDP 51820)
#   guest:      eth0 10.79.12.2, wgk 10.79.13.2 (kernel WireGuard, UDP 51820)
wg_if=pxkw$$
wg_pid=
wg_dir=
if [ ! -x "$repo/build/pppoe-xp" ] || ! command -v wg >/dev/null || ! command -v iperf3 >/dev/null; then
	skip guest612_wg_kernel_from_us "no build/pppoe-xp, wg or iperf3 on the host"
	skip guest612_wg_kernel_from_guest "no build/pppoe-xp, wg or iperf3 on the host"
else
	wg_dir=$(mktemp -d)
	trap '[ -n "$wg_pid" ] && kill "$wg_pid" 2>/dev/null; rm -rf "$wg_dir"; guest_suite_cleanup' EXIT
	hostns() { ip netns exec "$netns" "$@"; }
	eval "$GUEST_WAIT_LISTENING" # the guests' wait for a listener, here for the host's iperf3
	wg_ready=0
	(umask 077 && wg genkey >"$wg_dir/us.key") &&
		ip -n "$netns" addr add 10.79.12.1/24 dev "$tap" &&
		{
			ip netns exec "$netns" env PPPOE_XP_RUN_DIR="$wg_dir/run" \
				PPPOE_XP_STATE_DIR="$wg_dir/state" "$repo/build/pppoe-xp" wg "$wg_if" \
				--foreground >"$wg_dir/wg.log" 2>&1 &
			wg_pid=$!
		} &&
		for _ in $(seq 50); do hostns wg show "$wg_if" >/dev/null 2>&1 && break; sleep 0.2; done &&
		guest_pub=$(guest_exec "$name" '
			ip addr add 10.79.12.2/24 dev eth0 && ip link set eth0 up &&
			(umask 077 && wg genkey >/tmp/wgk.key) && ip link add wgk type wireguard &&
			wg set wgk private-key /tmp/wgk.key listen-port 51820 &&
			ip addr add 10.79.13.2/24 dev wgk && ip link set wgk up && wg pubkey </tmp/wgk.key') &&
		[ ${#guest_pub} = 44 ] && us_pub=$(wg pubkey <"$wg_dir/us.key") &&
		hostns wg set "$wg_if" private-key "$wg_dir/us.key" listen-port 51820 \
			peer "$guest_pub" allowed-ips 10.79.13.2/32 endpoint 10.79.12.2:51820 &&
		ip -n "$netns" addr add 10.79.13.1/24 dev "$wg_if" &&
		ip -n "$netns" link set "$wg_if" up &&
		guest_exec "$name" "wg set wgk peer $us_pub allowed-ips 10.79.13.1/32" >&2 &&
		wg_ready=1
	if [ "$wg_ready" != 1 ]; then
		why="setup failed: $(tail -n 3 "$wg_dir/wg.log" | tr '\n' ' ') ${guest_pub:-}"
		fail guest612_wg_kernel_from_us "$why"
		fail guest612_wg_kernel_from_guest "$why"
	else
		# From us: the kernel's peer has no endpoint yet, so only we can start.
		if ! out=$(hostns ping -c 3 -W 10 10.79.13.2 2>&1); then
			fail guest612_wg_kernel_from_us "no ping to the kernel's end: $(echo "$out" | tail -n 2 | tr '\n' ' ')"
		else
			out=$(guest_exec "$name" 'ping -c 3 -W 10 10.79.13.1 >/dev/null || exit 1
				wg show wgk latest-handshakes | awk "\$2 > 0 { n++ } END { exit n ? 0 : 2 }"' 60)
			case $? in
			0) pass guest612_wg_kernel_from_us ;;
			1) fail guest612_wg_kernel_from_us "no ping from the kernel's end back: $out" ;;
			2) fail guest612_wg_kernel_from_us "kernel wg shows no handshake" ;;
			*) fail guest612_wg_kernel_from_us "guest_exec failed: $out" ;;
			esac
		fi
		# From the guest: both ends forget the session; only the kernel has an endpoint.
		hostns wg set "$wg_if" peer "$guest_pub" remove &&
			hostns wg set "$wg_if" peer "$guest_pub" allowed-ips 10.79.13.2/32 &&
			hostns iperf3 -s -D -B 10.79.13.1 -p 5613 -I "$wg_dir/iperf.pid" &&
			guest_wait_listening "$netns" 5613 ||
			fail guest612_wg_kernel_from_guest "cannot reset our peer or start iperf3"
		out=$(guest_exec "$name" "wg set wgk peer $us_pub remove &&
			wg set wgk peer $us_pub allowed-ips 10.79.13.1/32 endpoint 10.79.12.1:51820 &&
			ping -c 3 -W 10 10.79.13.1 >/dev/null || exit 1
			up=\$(iperf3 -c 10.79.13.1 -p 5613 -n 2M 2>&1)
			down=\$(iperf3 -c 10.79.13.1 -p 5613 -n 2M -R 2>&1)
			echo \"\$up\" | grep -q receiver || { echo \"up: \$up\" | tail -n 3; exit 2; }
			echo \"\$down\" | grep -q receiver || { echo \"down: \$down\" | tail -n 3; exit 2; }
			echo \"up: \$(echo \"\$up\" | grep receiver | tail -n 1)\"
			echo \"down: \$(echo \"\$down\" | grep receiver | tail -n 1)\"" 180)
		rc=$?
		[ "$rc" = 0 ] && ! hostns wg show "$wg_if" latest-handshakes | awk '$2 > 0 { n++ } END { exit !n }' &&
			rc=3
		case $rc in
		0) pass guest612_wg_kernel_from_guest ;;
		1) fail guest612_wg_kernel_from_guest "no ping from the kernel's end: $out" ;;
		2) fail guest612_wg_kernel_from_guest "iperf3 through the tunnel failed: $out" ;;
		3) fail guest612_wg_kernel_from_guest "our device shows no handshake" ;;
		*) fail guest612_wg_kernel_from_guest "guest_exec failed: $out" ;;
		esac
		echo "# guest612_wg_kernel: $(echo "$out" | tr '\n' ' ')" >&2
		[ -s "$wg_dir/iperf.pid" ] && kill "$(cat "$wg_dir/iperf.pid")" 2>/dev/null
	fi
fi

exit $REPORT_FAILED

