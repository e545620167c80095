#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Our aarch64 build on an arm64 kernel: Debian 12's linux-image-arm64 (6.1) under
# qemu-system-aarch64 (-M virt -cpu max, TCG), the image of tests/interop/guest/build-image.sh
# --arch arm64 (cached in /var/cache/pppoe-xp/guest-arm64-6.1/). One boot for all cases:
#
#   qemu guest (arm64, 6.1, TCG)      build-aarch64/ of the host over 9p at /host
#   netns pxaA  --- veth vA|vB ---  netns pxaB
#   pppoe-xp server                 pppoe-xp up
#
#   guest_arm64/build              make CROSS=aarch64-linux-gnu O=build-aarch64: the daemon and
#                                  the BPF test programs (dynamic, against the arm64 libraries
#                                  of Debian 12 that the guest's userland has)
#   guest_arm64/boot               the guest answers on its control channel
#   guest_arm64/kernel             it is an aarch64 6.1 kernel (PXG_KERNEL=6.12: 6.12), with
#                                  the BPF JIT on
#   guest_arm64/libraries          every library the daemon needs resolves in the guest
#   guest_arm64/bpf/...            tests/bpf's programs run in the guest: the BPF objects
#                                  (clang -target bpf, skeletons from the host's bpftool)
#                                  through the arm64 verifier and JIT, each BPF_PROG_TEST_RUN
#                                  case's own PASS/FAIL line, prefixed
#   guest_arm64/session_MODE       for xdp, tc, generic and afxdp: AC and client come up, ping both
#                                  ways, status --json of both is sane, down ends it
# A program that fails to load is a FAIL quoting the daemon's log, where libbpf's verifier
# message is. Needs root, qemu-system-aarch64 (qemu-system-arm), qemu-aarch64 (qemu-user:
# the image build runs the image's busybox and kmod) and make deps-cross's libraries;
# without them every case SKIPs saying what is missing.
#
# usage: tests/cross/test_guest_arm64.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
repo=$(pwd)
TRIPLET=aarch64-linux-gnu
DYN=build-aarch64
JOBS=${JOBS:-2}
# shellcheck source=tests/interop/lib.sh
source tests/interop/lib.sh
export PXG_ARCH=arm64
# PXG_KERNEL=6.12 runs the same on bookworm-security's linux-image-6.12-arm64.
series=${PXG_KERNEL:-6.1}

name=pxa$$
netns=pxan$$
tap=pxat$$
TMP=$(mktemp -d)
rc=0

pass() { echo "PASS guest_arm64/$1"; }
fail() {
	echo "FAIL guest_arm64/$1: $2"
	rc=1
}
modes=(xdp tc generic afxdp)
cases=(build boot kernel libraries bpf "${modes[@]/#/session_}")
skip_all() {
	local c
	for c in "${cases[@]}"; do echo "SKIP guest_arm64/$c: $1"; done
	exit 0
}

# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	[ "$BASHPID" = "$$" ] || return 0
	guest_stop "$name"
	rm -rf "$TMP"
}
trap cleanup EXIT

[ "$(id -u)" = 0 ] || skip_all "needs root"
need=""
for tool in "$TRIPLET-gcc:gcc-$TRIPLET" qemu-aarch64:qemu-user \
	qemu-system-aarch64:qemu-system-arm python3:python3 cpio:cpio; do
	command -v "${tool%%:*}" >/dev/null || need+=" ${tool#*:}"
done
for pc in libbpf libxdp libnl-3.0 libnl-route-3.0 nettle; do
	[ -f "/usr/lib/$TRIPLET/pkgconfig/$pc.pc" ] || need+=" $pc.pc:arm64"
done
[ -z "$need" ] || skip_all "missing$need (make deps-cross installs them)"
kernel_meta=linux-image-arm64
[ "$series" = 6.1 ] || kernel_meta=linux-image-$series-arm64
apt-cache show "$kernel_meta:arm64" >/dev/null 2>&1 ||
	skip_all "apt knows no $kernel_meta:arm64 (dpkg --add-architecture arm64; apt-get update)"

bpf_tests=$(for c in tests/bpf/test_*.c; do echo "$DYN/${c%.c}"; done)
# shellcheck disable=SC2086 # one word per program
if make -j"$JOBS" --no-print-directory CROSS=$TRIPLET O=$DYN $DYN/pppoe-xp $bpf_tests \
	>"$TMP/build" 2>&1; then
	pass build
else
	fail build "make CROSS=$TRIPLET O=$DYN failed: $(tail -n 20 "$TMP/build")"
	exit 1
fi

# TCG boots this in ~30 s on an idle host, minutes on a loaded one; the first boot after an
# input of the image changed builds it too (~1 min), and the boot's time here includes that.
start=$SECONDS
if ! PXG_BOOT_TIMEOUT=${PXG_BOOT_TIMEOUT:-300} guest_start "$name" "$netns" "$tap" "$repo/$DYN" 2>"$TMP/boot"; then
	fail boot "the arm64 guest did not come up: $(tail -n 20 "$TMP/boot")"
	exit 1
fi
pass "boot ($((SECONDS - start)) s)"

# shellcheck disable=SC2016 # expands in the guest
out=$(guest_exec "$name" 'echo "$(uname -m) $(uname -r) jit=$(cat /proc/sys/net/core/bpf_jit_enable)"')
case $out in
"aarch64 $series."*" jit=1") pass "kernel ($out)" ;;
*) fail kernel "uname -m, uname -r and bpf_jit_enable say '$out', want aarch64 $series.* jit=1" ;;
esac

if out=$(guest_exec "$name" '/lib/ld-linux-aarch64.so.1 --list /host/pppoe-xp 2>&1') &&
	! grep -q 'not found' <<<"$out"; then
	pass libraries
else
	fail libraries "$(grep 'not found' <<<"$out" | tr '\n' ' ')$out"
fi

# Each program's own lines, prefixed; a program that dies without a FAIL line fails here.
for t in $bpf_tests; do
	prog=$(basename "$t")
	out=$(guest_exec "$name" "/host/${t#"$DYN"/} 2>&1; echo \"exit=\$?\"" 300)
	sed -nE 's/^(PASS|FAIL|SKIP) /\1 guest_arm64\//p' <<<"$out"
	grep -q '^FAIL ' <<<"$out" && rc=1
	if ! grep -qx 'exit=0' <<<"$out"; then
		grep -q '^FAIL ' <<<"$out" ||
			fail "bpf/$prog" "$(grep -v '^PASS ' <<<"$out" | tail -n 20 | tr '\n' '|')"
	elif ! grep -q '^PASS ' <<<"$out"; then
		fail "bpf/$prog" "ran no case: $(tail -n 5 <<<"$out" | tr '\n' '|')"
	fi
done

# The namespaces, the secrets and the password file, once.
# shellcheck disable=SC2016 # expands in the guest
if ! out=$(guest_exec "$name" "
	ip netns add pxaA && ip netns add pxaB &&
	ip link add vA netns pxaA type veth peer name vB netns pxaB &&
	ip -n pxaA link set vA up && ip -n pxaB link set vB up &&
	ip -n pxaA link set lo up && ip -n pxaB link set lo up &&
	printf 'ua64 * pw-$$ *\n' >/tmp/pxa-secrets && chmod 600 /tmp/pxa-secrets &&
	printf 'pw-$$\n' >/tmp/pxa-pass && chmod 600 /tmp/pxa-pass &&
	mkdir -p /tmp/pxa-runA /tmp/pxa-runB" 2>&1); then
	for m in "${modes[@]}"; do fail "session_$m" "cannot build the in-guest namespaces: $out"; done
	exit 1
fi

# The client's and the AC's status --json, from a session case's output.
json_check=$(
	cat <<-'EOF'
		import json, sys
		mode, net = sys.argv[1], sys.argv[2]
		text = sys.stdin.read()
		client = json.loads(text.split("--- client json")[1].split("--- server json")[0])
		server = json.loads(text.split("--- server json")[1])
		assert client["state"] == "up", client
		assert client["local_ip"] == net + ".2" and client["peer_ip"] == net + ".1", client
		assert 0 < client["session_id"] < 65535 and client["mtu"] == 1492, client
		assert client["datapath"]["attached"] and client["datapath"]["mode"] == mode, client
		assert len(server["sessions"]) == 1, server
	EOF
)

# $1 mode, $2 third octet of the session's addresses. The AC is .1, the client .2.
session_case() {
	local mode=$1 net=10.79.$2 out status
	# Functions, not env: busybox env would run its own ip applet.
	out=$(guest_exec "$name" "
		runA() { PPPOE_XP_RUN_DIR=/tmp/pxa-runA ip netns exec pxaA /host/pppoe-xp \"\$@\"; }
		runB() { PPPOE_XP_RUN_DIR=/tmp/pxa-runB ip netns exec pxaB /host/pppoe-xp \"\$@\"; }
		# What a failed case before may have left.
		runB down vB >/dev/null 2>&1; runA down vA >/dev/null 2>&1
		(runA server vA --local $net.1 --pool $net.0/30 --auth chap --secrets /tmp/pxa-secrets \
			--mode $mode --foreground >/tmp/pxa-server-$mode.log 2>&1 </dev/null &)
		for i in \$(seq 50); do [ -e /tmp/pxa-runA/vA.pid ] && break; sleep 0.2; done
		# vB lost its carrier for a while after the AC started in mode xdp in two clean-clone
		# runs (7 December 2026). up waits for a carrier as long as its first PADI (5 s) since
		# 8 December; how long the loss lasted is not known, so a refusal for it is still
		# tried again, up to 20 s; any other failure ends the case.
		ok=0
		for i in \$(seq 20); do
			runB up vB --user ua64 --password-file /tmp/pxa-pass --mode $mode \
				>/tmp/pxa-client-$mode.log 2>&1 && { ok=1; break; }
			grep -q 'no carrier' /tmp/pxa-client-$mode.log || break
			sleep 1
		done
		[ \$ok = 1 ] || {
			echo '--- client'; tail -n 15 /tmp/pxa-client-$mode.log
			echo '--- vB'; ip netns exec pxaB ip link show vB
			echo '--- server'; tail -n 15 /tmp/pxa-server-$mode.log; exit 1; }
		ip netns exec pxaB ping -c 3 -W 3 $net.1 >/dev/null || exit 2
		ip netns exec pxaA ping -c 3 -W 3 $net.2 >/dev/null || exit 3
		echo '--- client json'; runB status vB --json || exit 4
		echo; echo '--- server json'; runA status vA --json || exit 4
		echo; runB down vB || exit 5
		runA down vA || exit 5" 240)
	status=$?
	case $status in
	0) ;;
	1) fail "session_$mode" "pppoe-xp up --mode $mode failed in the guest: $out" && return ;;
	2) fail "session_$mode" "no ping from the client to the AC ($net.1)" && return ;;
	3) fail "session_$mode" "no ping from the AC to the client ($net.2)" && return ;;
	4) fail "session_$mode" "status --json failed: $out" && return ;;
	5) fail "session_$mode" "down failed: $out" && return ;;
	*) fail "session_$mode" "guest_exec failed ($status): $out" && return ;;
	esac
	if out=$(python3 -c "$json_check" "$mode" "$net" <<<"$out" 2>&1); then
		pass "session_$mode"
	else
		fail "session_$mode" "status --json: $(tail -n 3 <<<"$out" | tr '\n' '|')"
	fi
}

for i in "${!modes[@]}"; do
	session_case "${modes[$i]}" $((i + 1))
done
echo "# guest_arm64: ${SECONDS} s in all" >&2
exit $rc
