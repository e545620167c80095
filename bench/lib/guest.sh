# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Guest cases: one qemu guest (TCG) running Debian's own kernel, where kernel PPPoE exists:
# 6.12 (netkit) by default, 6.1 with bench/run --guest-kernel 6.1.
# Inside it the same lan - router - isp - net topology as on the host, once per case, all
# up together and measured interleaved by the same lines as the host (bench/lib/measure.sh):
#   ceiling       plain routing + NAT
#   veth-hop      the ceiling through a veth pair at the router (bench/lib/host.sh says why)
#   netkit-hop    the same through a netkit device (bench/lib/host.sh); 6.12 only
#   kernel-pppoe  pxp-ac (pppoe-server, pppd kernel mode) at isp, pxp-pppd-client at router
#   kernel-pppoe-flowtable  kernel-pppoe with the nftables flowtable OpenWrt's firewall4 sets
#                 up with flow_offloading=1 (software flow offloading) at the router
#   rp-pppoe      rp-pppoe user mode on both ends (pxp-ac/pxp-pppd-client --mode user)
#   pppoe-xp      pppoe-xp server at isp and client at router (build/ over 9p at /host), with
#                 no data path options: --mode auto, what a user gets (on 6.12 the netkit
#                 row, as pppoe-xp-netkit; on 6.1 XDP on veths)
#   pppoe-xp-netkit  the same with netkit session netdevs at both ends: client and server
#                 --mode tc --rx xdp-pass --netdev netkit (the tc transmit half on pxp0's /
#                 pxs<N>'s own transmit, XDP decap and the WAN's GRO before tc hands the
#                 packet to it); 6.12 only
#   pppoe-xp-xdp  the same with --mode xdp at both ends (XDP both halves, veth session
#                 netdevs): on a WAN with native XDP (--guest-wan virtio) the other row of
#                 --mode auto's choice
#   pppoe-xp-tc   the same with --mode tc --netdev veth at both ends (tc both halves, no XDP,
#                 veth session netdevs whose receive side has GRO): what a port without
#                 native XDP can run beside the netkit row
#   mixed         pxp-ac (kernel AC) at isp, pppoe-xp client at router in mode xdp
#   mixed-netkit  the same with the client as in pppoe-xp-netkit: our netkit client end
#                 alone against the kernel's AC; 6.12 only
#   kernel-wg     kernel WireGuard between router and isp over the plain WAN (bench/lib/wg.sh
#                 wg_guest_script), the router's traffic into it: against the ceiling
#   pppoe-xp-wg   the same with `pppoe-xp wg` (build/ over 9p) at both ends, configured by the
#                 same wg(8) lines: against kernel-wg
#   kernel-wg-over-kernel-pppoe  kernel-wg inside kernel-pppoe's session (over ppp0)
#   pppoe-xp-wg-over-pxp  pppoe-xp-wg inside a pppoe-xp session (pppoe-xp's, over pxp0): the
#                 whole stack ours against kernel-wg-over-kernel-pppoe
# The guest machinery and role commands are tests/interop/lib.sh and tests/interop/guest/.
# Under TCG only ratios inside the guest mean anything.
# With --guest-wan virtio or e1000e each case's wan0 and isp0 are two emulated NICs of qemu's
# wired to each other (launch.sh PXG_NIC_PAIRS), not a veth pair; everything else the same.

# The qemu device of each --guest-wan; the NIC pair of each case (side 1 the router's).
declare -A GUEST_NIC_MODEL=([virtio]=virtio-net-pci [e1000e]=e1000e)
declare -A CASE_WAN_PAIR

# The netkit cases' data path (both ends of pppoe-xp-netkit, the client of mixed-netkit); the
# receive half tc or xdp-pass, BENCH_NETKIT_RX to compare the two.
GUEST_NETKIT_DP=(--mode tc --rx "${BENCH_NETKIT_RX:-xdp-pass}" --netdev netkit)
GUEST_LIB=$PXP_ROOT/tests/interop/lib.sh
GUEST_NAME=pxb$$g
GUEST_USER=pxbench
GUEST_PASSWORD=pxb-guest-$$

guest_steps() {
	echo $((1 + ${#GUEST_CASES[@]} + $(matrix_steps guest "${GUEST_CASES[@]}")))
}

# Boot (about a minute under TCG on a busy machine), a topology and session per case, the
# warm-up, then the rounds.
guest_seconds() {
	echo $((60 + ${#GUEST_CASES[@]} * (45 + 8 * BENCH_WARMUP + BENCH_ROUNDS * $(bench_round_seconds guest))))
}

# x_guest SECONDS SCRIPT: runs SCRIPT with sh in the guest, outside any namespace.
x_guest() {
	guest_exec "$GUEST_NAME" "echo $(printf '%s' "$2" | base64 -w0) | base64 -d | sh" "$1"
}

# The sh lines that make the WAN ports of PREFIX: a veth pair, or NIC pair PAIR moved into
# the namespaces and renamed.
guest_wan_script() {
	local p=$1 pair=$2
	if [ "$BENCH_GUEST_WAN" = veth ]; then
		echo "ip link add wan0 netns ${p}router type veth peer name isp0 netns ${p}isp"
		return
	fi
	guest_nic_pair_script "$pair" "${p}router" wan0 "${p}isp" isp0
}

# The topology of one case inside the guest (POSIX sh: the guest has dash and busybox), on
# NIC pair PAIR with --guest-wan virtio or e1000e.
# Every process start costs most of a second under TCG, so ip runs in batches.
guest_topology_script() {
	local p=$1 mode=$2 pair=$3 wan_addr='' isp_addr='' default=''
	if [ "$mode" = plain ]; then
		wan_addr="addr add 100.64.0.1/30 dev wan0"
		isp_addr="addr add 100.64.0.2/30 dev isp0"
		default="route add default via 100.64.0.2"
	fi
	cat <<-EOF
		set -e
		for ns in lan router isp net; do ip netns add ${p}\$ns; done
		ip -batch - <<-'IP'
			link add lan0 netns ${p}lan type veth peer name lan1 netns ${p}router
			link add isp1 netns ${p}isp type veth peer name net0 netns ${p}net
		IP
		$(guest_wan_script "$p" "$pair")
		ip -n ${p}lan -batch - <<-'IP'
			link set lo up
			link set lan0 up
			addr add 192.168.100.2/24 dev lan0
			route add default via 192.168.100.1
		IP
		ip -n ${p}router -batch - <<-'IP'
			link set lo up
			link set lan1 up
			link set wan0 up
			addr add 192.168.100.1/24 dev lan1
			$wan_addr
			$default
		IP
		ip -n ${p}isp -batch - <<-'IP'
			link set lo up
			link set isp0 up
			link set isp1 up
			addr add 198.51.100.1/24 dev isp1
			$isp_addr
		IP
		ip -n ${p}net -batch - <<-'IP'
			link set lo up
			link set net0 up
			addr add $NET_IP/24 dev net0
			route add default via 198.51.100.1
		IP
		ip netns exec ${p}router sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward'
		ip netns exec ${p}isp sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward'
		$(wan_offload_script "$p")
		ip netns exec ${p}lan ethtool -K lan0 tx off >/dev/null 2>&1 || true
		ip netns exec ${p}net sh -c 'ethtool -K net0 tx off >/dev/null 2>&1 || true
			iperf3 -s -D -p 5201'
		printf '%s * %s *\n' $GUEST_USER $GUEST_PASSWORD >/tmp/${p}chap-secrets
		chmod 600 /tmp/${p}chap-secrets
	EOF
}

# NAT out of the router's WAN netdev IFNAME, as topo_nat_out does on the host.
guest_nat_script() {
	cat <<-EOF
		ip netns exec ${1}router nft -f - <<-'NFT'
			table ip pxb_nat {
				chain post {
					type nat hook postrouting priority srcnat; policy accept;
					oifname "$2" masquerade
				}
			}
		NFT
	EOF
}

# firewall4's flowtable (its ruleset.uc with flow_offloading=1: the WAN port, the PPP netdev
# over it and the LAN port; firewall4 writes the rule as "flow offload @ft", the same statement)
# in the router of PREFIX.
guest_flowtable_script() {
	cat <<-EOF
		ip netns exec ${1}router nft -f - <<-'NFT'
			table inet pxb_ft {
				flowtable ft {
					hook ingress priority 0; devices = { wan0, ppp0, lan1 };
				}
				chain forward {
					type filter hook forward priority filter; policy accept;
					meta l4proto { tcp, udp } flow add @ft
				}
			}
		NFT
	EOF
}

# Proves that the flowtable takes flows: conntrack marks a TCP flow [OFFLOAD] while it runs
# (a flow that ends leaves the flowtable, so the check runs during a transfer).
guest_flowtable_offloads() {
	local p=${CASE_PREFIX[$1]} n
	n=$(x_guest 60 "ip netns exec ${p}lan iperf3 -c $NET_IP -t 4 >/dev/null 2>&1 &
		sleep 2; ip netns exec ${p}router grep -c OFFLOAD /proc/net/nf_conntrack; wait")
	[ "${n:-0}" -gt 0 ] 2>/dev/null || {
		case_unavailable "$1" "the flowtable offloaded no flow (no [OFFLOAD] conntrack entry during a transfer)"
		return 1
	}
}

# guest_ac KEY kernel|user: the guest's AC (pxp-ac: pppoe-server + pppd) at isp.
guest_ac() {
	local key=$1 mode=$2 p=${CASE_PREFIX[$1]}
	x_sh "$key" isp 60 "pxp-ac start --iface isp0 --auth chap --user $GUEST_USER \
		--password $GUEST_PASSWORD --local 100.64.1.1 --pool 100.64.1.2 \
		--dns 198.51.100.1 --mode $mode --instance ${p}ac" >"$PXP_TMP/${p}ac.log" 2>&1 || {
		case_unavailable "$key" "pxp-ac start failed: $(log_reason "$PXP_TMP/${p}ac.log")"
		return 1
	}
}

# guest_pxp_client KEY [DATA PATH OPTIONS]: pppoe-xp up at the router (none: --mode auto).
guest_pxp_client() {
	local key=$1 log=/tmp/${CASE_PREFIX[$1]}client.log
	shift
	x_sh "$key" router 90 "$(pxp_cmd "$key" router up wan0 --user "$GUEST_USER" \
		--password "$GUEST_PASSWORD" "$@" --defaultroute) >$log 2>&1" >/dev/null || {
		case_unavailable "$key" "pppoe-xp up failed in the guest: $(x_guest 10 "tail -n 1 $log")"
		return 1
	}
}

# Ready when lan reaches net; the MTU of the router's WAN netdev sizes the UDP packets.
guest_ready() {
	local key=$1 wan=$2 mtu
	x_sh "$key" lan 30 "for i in 1 2 3 4 5 6 7 8 9 10; do
		ping -c 1 -W 1 $NET_IP >/dev/null 2>&1 && exit 0; sleep 1; done; exit 1" || {
		case_unavailable "$key" "no IPv4 connectivity lan -> net in the guest"
		guest_diagnose "$key"
		return 1
	}
	mtu=$(x_sh "$key" router 10 "cat /sys/class/net/$wan/mtu" 2>/dev/null)
	CASE_MTU[$key]=${mtu:-1492}
	echo "ok"
}

# What the router and isp of a failed case look like, into BENCH_OUT/logs/.
guest_diagnose() {
	local p=${CASE_PREFIX[$1]} f
	mkdir -p "$BENCH_OUT/logs"
	f=$BENCH_OUT/logs/${1//\//-}.txt
	x_guest 60 "for ns in ${p}router ${p}isp; do echo \"== \$ns\"; ip -n \$ns addr;
		ip -n \$ns route; ip netns exec \$ns nft list ruleset; done
		for f in /tmp/${p}*.log /tmp/run-${p}*/*; do echo \"== \$f\"; tail -n 30 \$f; done
		pxp-ac status --instance ${p}ac 2>&1 | tail -n 40
		pxp-pppd-client status --instance ${p}client 2>&1 | tail -n 40" >"$f" 2>&1
}

# The guest cases whose path is pxp-pppd-client's pppd session (ppp0 at the router).
declare -A CASE_PPPD

# guest_session_cause KEY: for a case over pxp-pppd-client whose ppp0 is gone, how its
# session ended, from the pppd log (e.g. "Modem hangup" after the pty's pppoe exited);
# nothing while ppp0 is there or for other cases.
guest_session_cause() {
	local key=$1 log=/run/pxp/client/${CASE_PREFIX[$1]}client/pppd.log
	[ -n "${CASE_PPPD[$key]:-}" ] || return 0
	x_sh "$key" router 20 "ip link show ppp0 >/dev/null 2>&1 && exit 0
		echo 'the PPP session had ended (no ppp0 at the router); pppd:' \$(grep -E \
			'echo-requests|disconnected|hangup|Terminat|pppoe.*finished' $log | tail -n 3 |
			sed 's/\$/;/')" 2>/dev/null | sed 's/;$//'
}

# guest_kernel_pppoe KEY kernel|user: pxp-ac at isp and pxp-pppd-client at router (ppp0).
guest_kernel_pppoe() {
	local key=$1 pmode=$2 p=${CASE_PREFIX[$1]}
	CASE_PPPD[$key]=1
	x_guest 10 "command -v pxp-ac && command -v pxp-pppd-client" >/dev/null || {
		case_unavailable "$key" "the guest image has no pxp-ac / pxp-pppd-client"
		return 1
	}
	guest_ac "$key" "$pmode" || return
	x_sh "$key" router 90 "pxp-pppd-client start --iface wan0 --user $GUEST_USER \
		--password $GUEST_PASSWORD --mode $pmode --ifname ppp0 --defaultroute \
		--instance ${p}client" >"$PXP_TMP/${p}client.log" 2>&1 || {
		case_unavailable "$key" "pxp-pppd-client failed: $(log_reason "$PXP_TMP/${p}client.log")"
		return 1
	}
}

# guest_wg KEY ENDPOINT WAN kernel|pppoe-xp: WireGuard (the kernel's or ours, bench/lib/wg.sh
# wg_guest_script) over the router's WAN netdev WAN (its MTU less WireGuard's overhead), NAT
# out of the router's tunnel netdev; then ready.
guest_wg() {
	local key=$1 ep=$2 wan=$3 impl=$4 p=${CASE_PREFIX[$1]} mtu ifname
	x_guest 10 "command -v wg" >/dev/null || {
		case_unavailable "$key" "the guest image has no wg (wireguard-tools)"
		return 1
	}
	if [ "$impl" = pppoe-xp ]; then
		x_guest 10 "/host/pppoe-xp wg --help" >/dev/null 2>&1 || {
			case_unavailable "$key" "build/pppoe-xp (with its wg command) is not there (or /host is not shared)"
			return 1
		}
	fi
	mtu=$(x_sh "$key" router 10 "cat /sys/class/net/$wan/mtu" 2>/dev/null)
	x_guest 60 "$(wg_guest_script "$key" "$ep" $((${mtu:-1500} - WG_OVERHEAD)) "$impl")" \
		>"$PXP_TMP/${p}wg.log" 2>&1 || {
		case_unavailable "$key" "$impl WireGuard failed: $(log_reason "$PXP_TMP/${p}wg.log")"
		return 1
	}
	ifname=$(wg_guest_ifname "$key" router)
	x_guest 30 "$(guest_nat_script "$p" "$ifname")" >/dev/null
	guest_ready "$key" "$ifname"
}

# guest_pxp_session KEY DATA PATH OPTIONS...: a pppoe-xp server at isp, the client at router.
guest_pxp_session() {
	local key=$1 p=${CASE_PREFIX[$1]}
	shift
	x_guest 10 "test -x /host/pppoe-xp" || {
		case_unavailable "$key" "build/pppoe-xp is not built (or /host is not shared)"
		return 1
	}
	x_sh "$key" isp 30 "($(pxp_cmd "$key" isp server isp0 --local 100.64.1.1 \
		--pool 100.64.1.0/30 --auth chap --secrets "/tmp/${p}chap-secrets" "$@" \
		--foreground)) >/tmp/${p}server.log 2>&1 </dev/null &" >/dev/null
	sleep 1
	guest_pxp_client "$key" "$@"
}

guest_setup_case() {
	local key=$1 c=${1#guest/} p=${CASE_PREFIX[$1]} mode=pppoe
	case $c in ceiling | veth-hop | netkit-hop | kernel-wg | pppoe-xp-wg) mode=plain ;; esac
	x_guest 60 "$(guest_topology_script "$p" "$mode" "${CASE_WAN_PAIR[$key]}")" >"$PXP_TMP/${p}topo.log" 2>&1 || {
		case_unavailable "$key" "guest topology failed: $(log_reason "$PXP_TMP/${p}topo.log")"
		return
	}
	case $c in
	ceiling)
		x_guest 30 "$(guest_nat_script "$p" wan0)" >/dev/null
		guest_ready "$key" wan0
		;;
	veth-hop)
		x_guest 10 "test -x /host/bench/veth_hop" || {
			case_unavailable "$key" "build/bench/veth_hop is not built (or /host is not shared)"
			return
		}
		x_guest 60 "$(veth_hop_script "$p" /host/bench/veth_hop)" >"$PXP_TMP/${p}hop.log" 2>&1 || {
			case_unavailable "$key" "setting up hop0 failed: $(log_reason "$PXP_TMP/${p}hop.log")"
			return
		}
		x_guest 30 "$(guest_nat_script "$p" hop0)" >/dev/null
		guest_ready "$key" hop0
		;;
	netkit-hop)
		x_guest 10 "test -x /host/bench/netkit_hop" || {
			case_unavailable "$key" "build/bench/netkit_hop is not built (or /host is not shared)"
			return
		}
		x_guest 60 "$(netkit_hop_script "$p" /host/bench/netkit_hop)" >"$PXP_TMP/${p}nk.log" 2>&1 || {
			case_unavailable "$key" "setting up nk0 failed: $(log_reason "$PXP_TMP/${p}nk.log")"
			return
		}
		x_guest 30 "$(guest_nat_script "$p" nk0)" >/dev/null
		guest_ready "$key" nk0
		;;
	kernel-wg) guest_wg "$key" 100.64.0.2 wan0 kernel ;;
	pppoe-xp-wg) guest_wg "$key" 100.64.0.2 wan0 pppoe-xp ;;
	kernel-wg-over-kernel-pppoe)
		guest_kernel_pppoe "$key" kernel || return
		guest_wg "$key" 100.64.1.1 ppp0 kernel
		;;
	pppoe-xp-wg-over-pxp)
		guest_pxp_session "$key" || return # --mode auto, as the pppoe-xp case
		guest_wg "$key" 100.64.1.1 pxp0 pppoe-xp
		;;
	kernel-pppoe | kernel-pppoe-flowtable | rp-pppoe)
		local pmode=kernel
		[ "$c" = rp-pppoe ] && pmode=user
		guest_kernel_pppoe "$key" $pmode || return
		x_guest 30 "$(guest_nat_script "$p" ppp0)" >/dev/null
		if [ "$c" = kernel-pppoe-flowtable ]; then
			x_guest 30 "$(guest_flowtable_script "$p")" >"$PXP_TMP/${p}ft.log" 2>&1 || {
				case_unavailable "$key" "the flowtable failed: $(log_reason "$PXP_TMP/${p}ft.log")"
				return
			}
		fi
		guest_ready "$key" ppp0 >/dev/null || {
			echo "unavailable: ${CASE_REASON[$key]}"
			return
		}
		[ "$c" = kernel-pppoe-flowtable ] && { guest_flowtable_offloads "$key" || return; }
		echo "ok"
		;;
	pppoe-xp | pppoe-xp-netkit | pppoe-xp-xdp | pppoe-xp-tc)
		local -a dp=() # --mode auto: what a user gets
		[ "$c" = pppoe-xp-netkit ] && dp=("${GUEST_NETKIT_DP[@]}")
		[ "$c" = pppoe-xp-xdp ] && dp=(--mode xdp)
		[ "$c" = pppoe-xp-tc ] && dp=(--mode tc --netdev veth)
		guest_pxp_session "$key" "${dp[@]}" || return
		x_guest 30 "$(guest_nat_script "$p" pxp0)" >/dev/null
		guest_ready "$key" pxp0
		;;
	mixed | mixed-netkit)
		x_guest 10 "test -x /host/pppoe-xp && command -v pxp-ac" >/dev/null || {
			case_unavailable "$key" "needs build/pppoe-xp and the guest's pxp-ac"
			return
		}
		guest_ac "$key" kernel || return
		if [ "$c" = mixed-netkit ]; then
			# An skb redirect (tc) into wan0: a veth takes it whatever its peer runs.
			guest_pxp_client "$key" "${GUEST_NETKIT_DP[@]}" || return
		else
			# pppoe-xp's XDP egress redirects into wan0; a veth drops redirected frames unless
			# its peer runs XDP or has GRO on, and the kernel AC's isp0 runs no XDP (DESIGN.md).
			x_guest 10 "$(bench_gro_for_redirect "${p}isp" isp0)" >/dev/null 2>&1
			guest_pxp_client "$key" --mode xdp || return
		fi
		x_guest 30 "$(guest_nat_script "$p" pxp0)" >/dev/null
		guest_ready "$key" pxp0
		;;
	esac
}

guest_run() {
	local c key i=0 why=
	local -a keys
	for c in "${GUEST_CASES[@]}"; do
		key=guest/$c
		keys+=("$key")
		CASE_ENV[$key]=guest
		CASE_PREFIX[$key]=g$i-
		CASE_WAN_PAIR[$key]=$i
		CASE_STATUS[$key]=ok
		i=$((i + 1))
	done

	progress "guest: boot"
	if [ ! -f "$GUEST_LIB" ]; then
		why="tests/interop/lib.sh (the qemu guest) does not exist"
	elif ! command -v qemu-system-x86_64 >/dev/null; then
		why="qemu-system-x86_64 is not installed"
	else
		# shellcheck source=../../tests/interop/lib.sh
		. "$GUEST_LIB"
		on_cleanup "guest_stop $GUEST_NAME"
		local nic_pairs=
		[ "$BENCH_GUEST_WAN" != veth ] && nic_pairs="${GUEST_NIC_MODEL[$BENCH_GUEST_WAN]} ${#keys[@]}"
		PXG_NIC_PAIRS=$nic_pairs PXG_KERNEL=$BENCH_GUEST_KERNEL guest_start "$GUEST_NAME" "${PXP_NS_PREFIX}gtap" \
			"pxb$$t" "$PXP_ROOT/build" >"$PXP_TMP/guest-start.log" 2>&1 ||
			why="the guest did not start: $(grep -m1 'pxg:' "$PXP_TMP/guest-start.log" | cut -c1-160)"
	fi
	if [ -n "$why" ]; then
		echo "unavailable: $why"
		for key in "${keys[@]}"; do
			CASE_STATUS[$key]=unavailable
			CASE_REASON[$key]=$why
		done
	else
		# The image loads modules on demand, and nothing in it binds a PCI device's driver
		# (no udev): e1000e's NICs have none until asked for.
		[ "$BENCH_GUEST_WAN" = e1000e ] && x_guest 30 "modprobe e1000e" >/dev/null
		echo "ok ($(x_guest 10 'uname -r'))"
	fi

	for key in "${keys[@]}"; do
		progress "$key: set up"
		if [ "${CASE_STATUS[$key]}" = ok ]; then
			guest_setup_case "$key"
		else
			echo "unavailable"
		fi
	done
	measure_matrix "${keys[@]}"
	[ -z "$why" ] && guest_stop "$GUEST_NAME"
}
