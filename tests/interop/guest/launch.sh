#!/bin/bash
# Start one pppoe-xp guest under qemu (TCG) in the background, in the
# caller's network namespace; lib.sh's guest_start runs it via
# `ip netns exec`. Returns once qemu has written its pid file; readiness of the
# guest itself is checked by the caller through the control socket.
# qemu's own stderr goes to STATE_DIR/qemu.err and its CPU resets and guest
# errors to STATE_DIR/qemu.log: when a guest dies with nothing on its console,
# they tell a qemu crash from a guest reset (guest_last_words in lib.sh).
#
# Usage: launch.sh IMAGE_DIR STATE_DIR TAP MAC [SHARE_DIR]
#   IMAGE_DIR  output of build-image.sh (vmlinuz, initrd.img)
#   STATE_DIR  where qemu.pid, ctl.sock and console.log go
#   TAP        existing tap device in this namespace: the guest's eth0
#   MAC        MAC address of the guest's eth0
#   SHARE_DIR  host directory exported over 9p, mounted at /host in the guest
# Environment: PXG_SMP (2), PXG_MEM_MB (1024), PXG_APPEND (extra kernel
# command line, e.g. ignore_loglevel to see the boot on the console), PXG_ARCH (amd64, the
# default, or arm64: the image's architecture, built by build-image.sh --arch),
# PXG_NIC_PAIRS ("MODEL N[,MODEL N...]": N pairs of emulated NICs of qemu device MODEL,
# virtio-net-pci or e1000e, numbered on across the list, the two of pair I wired to each
# other through qemu hub I and nothing else, MACs 52:54:00:7e:II:01 and :02 with II the pair
# in hex; the benchmark's emulated-NIC WAN).
set -euo pipefail

[ $# -ge 4 ] || {
	echo "usage: launch.sh IMAGE_DIR STATE_DIR TAP MAC [SHARE_DIR]" >&2
	exit 2
}
image=$1 state=$2 tap=$3 mac=$4 share=${5:-}

# arm64: qemu's "virt" board (PCI, a PL011 serial port) with every feature TCG has; pointer
# authentication with qemu's own cheap algorithm, since emulating the architected one (QARMA)
# costs TCG much of its speed.
case ${PXG_ARCH:-amd64} in
amd64)
	qemu="qemu-system-x86_64"
	machine=(-machine pc -accel "tcg,thread=multi" -cpu max)
	console=ttyS0
	;;
arm64)
	qemu="qemu-system-aarch64"
	machine=(-machine virt -accel "tcg,thread=multi" -cpu "max,pauth-impdef=on")
	console=ttyAMA0
	;;
*)
	echo "launch.sh: unknown PXG_ARCH '$PXG_ARCH' (amd64 or arm64)" >&2
	exit 2
	;;
esac

append="console=$console loglevel=4 panic=-1 rdinit=/init mitigations=off ${PXG_APPEND:-}"
share_args=()
if [ -n "$share" ]; then
	share_args=(-virtfs "local,path=$share,mount_tag=host,security_model=none")
	append="$append pxg.share=host"
fi

# The same offloads off as eth0 below, on virtio-net: MTU-sized frames, full checksums, and
# no guest offloads, which virtio-net refuses XDP beside.
virtio_no_offloads="csum=off,gso=off,guest_csum=off,guest_tso4=off,guest_tso6=off,guest_ecn=off,guest_ufo=off,host_tso4=off,host_tso6=off,host_ecn=off,host_ufo=off"
nic_pair_args=()
pair=0
IFS=, read -r -a nic_groups <<<"${PXG_NIC_PAIRS:-}"
for group in "${nic_groups[@]}"; do
	read -r nic_model nic_pairs <<<"$group"
	case $nic_model in
	virtio-net-pci) nic_opts=",$virtio_no_offloads" ;;
	e1000e) nic_opts= ;;
	*)
		echo "launch.sh: PXG_NIC_PAIRS model '$nic_model' is neither virtio-net-pci nor e1000e" >&2
		exit 2
		;;
	esac
	[[ ${nic_pairs:-} =~ ^[1-9][0-9]?$ ]] && [ $((pair + nic_pairs)) -le 64 ] || {
		echo "launch.sh: PXG_NIC_PAIRS count '${nic_pairs:-}' is not 1-64 (64 pairs at most)" >&2
		exit 2
	}
	for ((i = 0; i < nic_pairs; i++, pair++)); do
		for side in 1 2; do
			# The bus has 32 slots and qemu's own devices take the first few: the pairs'
			# NICs are the 8 functions of slots 0x10-0x1f, so a case each fits (the
			# benchmark's --guest-wan gives every guest case a pair).
			nic=$((2 * pair + side - 1))
			addr=$(printf 'addr=0x%x.%x' $((0x10 + nic / 8)) $((nic % 8)))
			[ $((nic % 8)) = 0 ] && addr="$addr,multifunction=on"
			nic_pair_args+=(-netdev "hubport,id=pair$pair-$side,hubid=$((pair + 1))"
				-device "$nic_model,netdev=pair$pair-$side,mac=$(printf '52:54:00:7e:%02x:%02x' "$pair" "$side"),$addr$nic_opts")
		done
	done
done

# TCG only: the host's /dev/kvm cannot run a stock kernel. The NIC has every
# offload off so frames on the tap are what a real wire carries: full
# checksums, at most MTU-sized (no superpackets in either direction).
# Not -daemonize: that sends qemu's stderr to /dev/null; setsid detaches it alike.
rm -f "$state/qemu.pid"
setsid "$qemu" \
	-name "pxg-$(basename "$state")" \
	"${machine[@]}" \
	-smp "${PXG_SMP:-2}" -m "${PXG_MEM_MB:-1024}" \
	-kernel "$image/vmlinuz" -initrd "$image/initrd.img" -append "$append" \
	-display none -monitor none -serial "file:$state/console.log" \
	-no-reboot -pidfile "$state/qemu.pid" -d cpu_reset,guest_errors -D "$state/qemu.log" \
	-device virtio-rng-pci \
	-device virtio-serial-pci \
	-chardev "socket,id=ctl,path=$state/ctl.sock,server=on,wait=off" \
	-device virtserialport,chardev=ctl,name=pxp.ctl \
	-netdev "tap,id=wan,ifname=$tap,script=no,downscript=no,vhost=off" \
	-device "virtio-net-pci,netdev=wan,mac=$mac,$virtio_no_offloads" \
	"${share_args[@]}" "${nic_pair_args[@]}" </dev/null >"$state/qemu.err" 2>&1 &
qemu=$!
for _ in $(seq 100); do
	[ -s "$state/qemu.pid" ] && exit 0
	kill -0 "$qemu" 2>/dev/null || break
	sleep 0.1
done
echo "qemu did not start: $(tail -n 5 "$state/qemu.err" 2>/dev/null | tr '\n' '|')" >&2
kill "$qemu" 2>/dev/null
exit 1
