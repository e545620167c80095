#!/bin/bash
# Build (or reuse) the qemu guest image that runs Debian's own kernel PPPoE:
# vmlinuz + a busybox/dash initramfs holding the Debian packages listed in
# packages.txt, the kernel modules listed in modules.txt (plus dependencies),
# and the overlay in rootfs/.
#
# The result lives outside the repository, in
#   ${PXG_CACHE_DIR:-/var/cache/pppoe-xp}/guest-<kernel series>/<sha256 of the inputs>/
# (guest-arm64-<kernel series>/ for arm64) so a fresh clone reuses it, any change of an
# input (a file here, a package version) builds a new one, and the images of each
# architecture and kernel series coexist.
# Prints that directory on stdout; all progress goes to stderr.
#
# Usage: build-image.sh [--force] [--kernel 6.1|6.12] [--arch amd64|arm64]
#   --kernel  the Debian kernel series (default $PXG_KERNEL, else 6.1): 6.1 is
#             bookworm's own (linux-image-ARCH), 6.12 the one bookworm-security
#             ships (linux-image-6.12-ARCH: netkit, the kernel OpenWrt 25.12 runs)
#   --arch    the guest's Debian architecture (default $PXG_ARCH, else amd64). arm64
#             takes the arm64 packages of the same list (dpkg must know arm64: make
#             deps-cross adds it) and runs the image's own aarch64 busybox and kmod
#             under qemu-aarch64 (qemu-user) while building.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
cache=${PXG_CACHE_DIR:-/var/cache/pppoe-xp}
debs="$cache/debs"
force=0
series=${PXG_KERNEL:-6.1}
arch=${PXG_ARCH:-amd64}
while [ $# -gt 0 ]; do
	case $1 in
	--force) force=1 ;;
	--kernel)
		series=${2:-}
		shift
		;;
	--arch)
		arch=${2:-}
		shift
		;;
	*)
		echo "build-image: unknown argument '$1' (--force, --kernel 6.1|6.12, --arch amd64|arm64)" >&2
		exit 2
		;;
	esac
	shift
done

log() { echo "build-image: $*" >&2; }
die() {
	log "error: $*"
	exit 1
}

# Per architecture: the multiarch triplet, the dynamic loader, and how to run one of the
# image's own programs on this host (directly, or under qemu-user rooted in the image).
case $arch in
amd64)
	triplet=x86_64-linux-gnu
	loader=usr/lib64/ld-linux-x86-64.so.2
	run_target() { "$@"; }
	images_prefix=guest-
	;;
arm64)
	triplet=aarch64-linux-gnu
	loader=usr/lib/ld-linux-aarch64.so.1
	command -v qemu-aarch64 >/dev/null || die "missing host tool 'qemu-aarch64' (package qemu-user)"
	run_target() { qemu-aarch64 -L "$root" "$@"; }
	images_prefix=guest-arm64-
	;;
*) die "unknown architecture '$arch' (amd64 or arm64)" ;;
esac

for tool in apt-cache apt-get dpkg-deb cpio readelf sha256sum flock; do
	command -v "$tool" >/dev/null || die "missing host tool '$tool'"
done

# First word of each line, comments and blank lines dropped.
list_of() { awk '{ sub(/#.*/, "") } NF { print $1 }' "$1"; }

# One apt-cache call for all packages (one call each costs a second apiece).
candidate_versions() {
	apt-cache policy "${@/%/:$arch}" 2>/dev/null | awk -v arch="$arch" '
		/^[^ ].*:$/ { name = substr($0, 1, length($0) - 1); sub(":" arch "$", "", name) }
		/^  Candidate:/ { print name "=" $2 }'
}

# Where apt-cache looks (named when a package is missing from it).
apt_lists=/var/lib/apt/lists/
eval "$(apt-config shell apt_lists Dir::State::Lists/d)"

# The kernel package is whatever the series' meta-package currently points at.
case $series in
6.1) kernel_meta=linux-image-$arch ;;
6.12) kernel_meta=linux-image-6.12-$arch ;;
*) die "unknown kernel series '$series' (6.1 or 6.12)" ;;
esac
# apt-cache fails on a package its lists lack: that is the die below, not set -e's bare exit.
kernel_pkg=$(apt-cache depends "$kernel_meta:$arch" 2>/dev/null |
	awk '/Depends: linux-image-[0-9]/ { sub(/:.*/, "", $2); print $2; exit }') || kernel_pkg=
[ -n "$kernel_pkg" ] ||
	die "apt's lists in $apt_lists have no $kernel_meta:$arch, so no kernel package (run apt-get update; 6.12 needs bookworm-security in the apt sources)"
[[ $kernel_pkg == linux-image-"$series".* ]] ||
	die "$kernel_meta points at $kernel_pkg, not a $series kernel"

pkgs=("$kernel_pkg")
while read -r p; do pkgs+=("$p"); done < <(list_of "$here/packages.txt")

declare -A version=()
while IFS='=' read -r name ver; do
	version[$name]=$ver
done < <(candidate_versions "${pkgs[@]}")
pins=()
for p in "${pkgs[@]}"; do
	v=${version[$p]:-}
	[ -n "$v" ] && [ "$v" != "(none)" ] ||
		die "apt's lists in $apt_lists have no installable version of Debian package '$p:$arch' (run apt-get update?)"
	pins+=("$p=$v")
done

# Every input that shapes the image, in a stable order.
inputs_digest() {
	printf '%s\n' "format 1" "arch $arch" "${pins[@]}"
	(
		cd "$repo"
		find tests/interop/guest/build-image.sh tests/interop/guest/*.txt \
			tests/interop/guest/rootfs -type f |
			LC_ALL=C sort | while read -r f; do
			printf '%s %s\n' "$(sha256sum <"$f" | cut -d' ' -f1)" "$f"
		done
	)
}
hash=$(inputs_digest | sha256sum | cut -c1-16)
images="$cache/$images_prefix$series"
out="$images/$hash"

if [ $force = 0 ] && [ -f "$out/ready" ]; then
	echo "$out"
	exit 0
fi

mkdir -p "$images" "$debs"
# Serialise concurrent builds (several tests may start at once); the loser
# of the race finds the finished image.
exec 9>"$images/.lock"
flock 9
if [ $force = 0 ] && [ -f "$out/ready" ]; then
	echo "$out"
	exit 0
fi

log "building image $hash"
work=$(mktemp -d "$images/.build.XXXXXX")
trap 'rm -rf "$work"' EXIT

# apt-get download, one package file per pinned version and architecture, kept across
# builds.
deb_file() {
	local name=${1%%=*} ver=${1#*=}
	local f
	for f in "$debs/${name}_${ver/:/%3a}_"{"$arch",all}.deb; do
		[ -e "$f" ] && echo "$f" && return
	done
	return 0
}
missing=()
for pin in "${pins[@]}"; do
	[ -n "$(deb_file "$pin")" ] || missing+=("$pin")
done
if [ ${#missing[@]} -gt 0 ]; then
	log "downloading ${#missing[@]} packages"
	(cd "$debs" && apt-get download -q -o APT::Sandbox::User=root \
		"${missing[@]/=/:$arch=}" >&2) || die "apt-get download failed (stale lists? run apt-get update)"
fi

root="$work/root"
kstage="$work/kernel"
mkdir -p "$root" "$kstage"
for pin in "${pins[@]}"; do
	f=$(deb_file "$pin")
	[ -n "$f" ] || die "package file for $pin not found in $debs"
	if [ "${pin%%=*}" = "$kernel_pkg" ]; then
		dpkg-deb -x "$f" "$kstage"
	else
		dpkg-deb -x "$f" "$root"
	fi
done

# Merged /usr, so that PATH order alone decides between a real tool and a
# busybox applet of the same name.
for d in bin sbin lib lib64; do
	if [ -d "$root/$d" ] && [ ! -L "$root/$d" ]; then
		mkdir -p "$root/usr/$d"
		cp -a "$root/$d/." "$root/usr/$d/"
		rm -rf "${root:?}/$d"
	fi
	mkdir -p "$root/usr/$d"
	ln -s "usr/$d" "$root/$d"
done

# Documentation, locales, charset converters and init-system files are dead
# weight in a RAM disk.
rm -rf "$root"/usr/share/{doc,man,info,locale,lintian,bug,bash-completion,zsh,menu} \
	"$root/usr/lib/$triplet/gconv" "$root"/usr/share/i18n \
	"$root"/usr/lib/systemd "$root"/etc/init.d "$root"/etc/systemd \
	"$root"/usr/share/ppp "$root"/etc/ppp/peers
# Tools we do not use whose libraries (SELinux, RPC, Berkeley DB, ATM) would
# double the image (tc's ATM qdisc needs libatm).
rm -f "$root"/usr/bin/ss "$root"/usr/sbin/arpd "$root/usr/lib/$triplet/tc/q_atm.so"

# Busybox fills in whatever the packages do not provide (sh stays dash).
bb="$root/usr/bin/busybox"
[ -x "$bb" ] || die "busybox-static did not provide /bin/busybox"
run_target "$bb" --list-full | while read -r applet; do
	name=${applet##*/}
	case $applet in
	sbin/* | usr/sbin/*) dir=usr/sbin ;;
	*) dir=usr/bin ;;
	esac
	[ -e "$root/usr/bin/$name" ] || [ -e "$root/usr/sbin/$name" ] ||
		[ -L "$root/usr/bin/$name" ] || [ -L "$root/usr/sbin/$name" ] ||
		ln -s /usr/bin/busybox "$root/$dir/$name"
done
ln -sf dash "$root/usr/bin/sh"
ln -sf usr/sbin/init "$root/init"
# The applet links point at /usr/bin/busybox inside the image: test the link, not its
# target on the host (which need not have busybox).
[ -L "$root/usr/sbin/init" ] || [ -e "$root/usr/sbin/init" ] || die "busybox has no init applet"

# Kernel and the closure of the wanted modules. depmod/modprobe come from
# the kmod package just unpacked, run through its own loader (and qemu-user for
# arm64), so the host needs no kmod.
kver=$(ls "$kstage/lib/modules")
[ -n "$kver" ] || die "kernel package has no modules directory"
kmod() {
	local tool=$1
	shift
	run_target "$root/$loader" --argv0 "$tool" --library-path \
		"$root/usr/lib/$triplet" "$root/usr/bin/kmod" "$@"
}
kmod depmod -b "$kstage" "$kver" || die "depmod on the kernel package failed"
mkdir -p "$root/usr/lib/modules/$kver" "$root/etc/pxp"
: >"$root/etc/pxp/modules.load"
while read -r m; do
	deps=$(kmod modprobe -d "$kstage" -S "$kver" --show-depends "$m" 2>&1) ||
		die "kernel module '$m': $deps"
	echo "$deps" | awk '$1 == "insmod" { print $2 }' | while read -r ko; do
		rel=${ko#"$kstage"/lib/modules/"$kver"/}
		mkdir -p "$root/usr/lib/modules/$kver/$(dirname "$rel")"
		cp -n "$ko" "$root/usr/lib/modules/$kver/$rel"
	done
done < <(list_of "$here/modules.txt")
awk '{ sub(/#.*/, "") } $2 == "boot" { print $1 }' "$here/modules.txt" \
	>"$root/etc/pxp/modules.load"
cp "$kstage/lib/modules/$kver"/modules.{builtin,builtin.modinfo,order} \
	"$root/usr/lib/modules/$kver/"
kmod depmod -b "$root/usr" "$kver" || die "depmod on the image failed"

# Our overlay: init scripts, control loop, role commands, ppp config.
cp -a "$here/rootfs/." "$root/"
mkdir -p "$root"/{proc,sys,dev,run,tmp,host,root,var/log,etc/netns}
ln -sfn /run "$root/var/run"
ln -sfn /run/lock "$root/var/lock"
chmod 1777 "$root/tmp"
echo pxg >"$root/etc/hostname"
# tcpdump drops privileges to its own user and exits if that user is missing.
printf '%s\n' "root:x:0:0:root:/root:/bin/sh" \
	"tcpdump:x:101:101::/nonexistent:/bin/false" \
	"nobody:x:65534:65534::/nonexistent:/bin/false" >"$root/etc/passwd"
printf '%s\n' "root:x:0:" "tcpdump:x:101:" "nogroup:x:65534:" >"$root/etc/group"
printf '127.0.0.1 localhost\n' >"$root/etc/hosts"
printf 'hosts: files\n' >"$root/etc/nsswitch.conf"
# ld.so.cache is not needed: every library sits in the default search path.

# Every dynamic ELF must find its libraries inside the image.
missing_libs=$(
	find "$root/usr" -type f \( -perm -u+x -o -name '*.so*' \) -print0 |
		{ xargs -0 readelf -d 2>/dev/null || true; } |
		awk -F'[][]' '/\(NEEDED\)/ { print $2 }' | sort -u |
		while read -r so; do
			[ -e "$root/usr/lib/$triplet/$so" ] ||
				[ -e "$root/$(dirname "$loader")/$so" ] || echo "$so"
		done
)
[ -z "$missing_libs" ] || die "libraries missing from the image (add their packages to packages.txt): $(echo "$missing_libs" | tr '\n' ' ')"

mkdir -p "$work/out"
# lz4 (legacy format, as the kernel wants it) when the host has it: inflating
# gzip took ~5 s of a TCG boot, lz4 well under one; else uncompressed.
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) \
	>"$work/initrd.cpio"
if command -v lz4 >/dev/null; then
	lz4 -l -9 -q "$work/initrd.cpio" "$work/out/initrd.img"
else
	mv "$work/initrd.cpio" "$work/out/initrd.img"
fi
cp "$kstage/boot/vmlinuz-$kver" "$work/out/vmlinuz"
{
	echo "kernel $kver"
	echo "arch $arch"
	printf '%s\n' "${pins[@]}"
} >"$work/out/manifest"
touch "$work/out/ready"
rm -rf "$out"
mv "$work/out" "$out"
# Keep the three newest images of the series: a running qemu has already read its files.
ls -1dt "$images"/*/ | tail -n +4 | while read -r old; do
	rm -rf "$old"
done
log "image $out: $(du -h "$out/initrd.img" | cut -f1) initramfs, kernel $kver"
echo "$out"
