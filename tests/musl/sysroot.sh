#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The libraries the daemon and its unit tests link, built static with musl-gcc from Debian's
# own source packages into SYSROOT (include/, lib/, lib/pkgconfig/), as OpenWrt builds them
# against musl. Each library is built once: SYSROOT/.built-NAME holds the source version it
# was built from, and a second run only checks those. The sources are fetched once with
# `apt-get source` (a deb-src list of our own, the machine's sources untouched) into
# PXP_MUSL_SRC.
#
#   kernel UAPI headers  copied from linux-libc-dev (musl's headers have none; Alpine's
#                        linux-headers and OpenWrt's toolchain ship them)
#   zlib, libelf         libelf alone from elfutils: lib/ and libelf/ need none of argp, fts
#                        and obstack, which configure looks for on behalf of the tools
#   libbpf, nettle, libnl (libnl-3, libnl-route-3), OpenSSL's libcrypto
#   libb2, libsodium     the second WireGuard crypto test_wg_crypto checks against
#   libxdp               NOT from source: the mirror here serves no xdp-tools source
#                        package, so Debian's own libxdp.a (glibc-built) is taken with
#                        tests/musl/glibc_compat.c for the five glibc entry points it calls
#
# usage: tests/musl/sysroot.sh SYSROOT
set -euo pipefail
cd "$(dirname "$0")/../.." || exit 2
TOP=$PWD
[ $# -eq 1 ] || {
	echo "usage: $0 SYSROOT" >&2
	exit 2
}
SYSROOT=$(realpath -m "$1")
SRC_CACHE=${PXP_MUSL_SRC:-/var/cache/pppoe-xp/musl-src}
SUITE=${PXP_MUSL_SUITE:-bookworm}
WORK=$SYSROOT.work
CC=${MUSL_CC:-musl-gcc}
JOBS=${JOBS:-2}
TRIPLET=$(gcc -dumpmachine)
LOG=$WORK/log
LIBS=(headers zlib libelf libbpf libxdp nettle libnl openssl libb2 libsodium)

mkdir -p "$SYSROOT/include" "$SYSROOT/lib/pkgconfig" "$WORK" "$SRC_CACHE"
export PKG_CONFIG_LIBDIR=$SYSROOT/lib/pkgconfig PKG_CONFIG_PATH=
# configure scripts run test programs: they must link against musl and what is built here.
export CC CFLAGS="-O2 -g -fPIC" CPPFLAGS="-I$SYSROOT/include" LDFLAGS="-L$SYSROOT/lib"

command -v "$CC" >/dev/null || {
	echo "$0: no $CC (Debian's musl-tools; make deps-musl installs it)" >&2
	exit 1
}

# fetch PKG: the .dsc of Debian source package PKG in SRC_CACHE, downloaded once.
fetch() {
	local pkg=$1 apt=$SRC_CACHE/apt dsc
	dsc=$(ls "$SRC_CACHE"/"${pkg}"_*.dsc 2>/dev/null | tail -n 1)
	if [ -z "$dsc" ]; then
		mkdir -p "$apt/lists/partial"
		echo "deb-src http://deb.debian.org/debian $SUITE main" >"$apt/sources.list"
		local opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
			-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
			-o APT::Sandbox::User=root)
		[ -f "$apt/lists/updated" ] || { apt-get "${opts[@]}" -qq update && touch "$apt/lists/updated"; }
		(cd "$SRC_CACHE" && apt-get "${opts[@]}" -qq source --download-only "$pkg") >&2
		dsc=$(ls "$SRC_CACHE"/"${pkg}"_*.dsc | tail -n 1)
	fi
	echo "$dsc"
}

# unpack PKG: a fresh tree of PKG with Debian's patches applied, in WORK/PKG; prints its path.
unpack() {
	local dsc dir
	dsc=$(fetch "$1")
	dir=$WORK/$1
	rm -rf "$dir"
	dpkg-source --no-check -x "$dsc" "$dir" >/dev/null
	settle_autotools "$dir"
	echo "$dir"
}

# settle_autotools DIR: the generated files of autotools made newer than their inputs again.
# Debian's patches change Makefile.am or aclocal.m4 (shared-library details: symbol
# versions) and its build regenerates with autoreconf; this build takes the tarball's
# generated files, so that make never wants automake or autoheader.
settle_autotools() {
	find "$1" \( -name configure.ac -o -name Makefile.am -o -name '*.m4' \) -exec touch {} +
	find "$1" \( -name configure -o -name '*.h.in' -o -name stamp-h.in \
		-o -name Makefile.in \) -exec touch {} +
}

version() { basename "$(fetch "$1")" .dsc; }

# deb_version PKG: the installed version of binary package PKG of this machine's architecture.
deb_version() { dpkg-query -W -f='${Version}' "$1:$(dpkg --print-architecture)"; }

build_headers() {
	local d
	for d in linux asm-generic; do
		cp -a "/usr/include/$d" "$SYSROOT/include/"
	done
	cp -a "/usr/include/$TRIPLET/asm" "$SYSROOT/include/"
}

build_zlib() {
	local src
	src=$(unpack zlib)
	(cd "$src" && ./configure --static --prefix="$SYSROOT" && make -j"$JOBS" libz.a &&
		make install)
}

# configure's checks for the tools' argp, fts and obstack are answered "built in": only
# libelf/ is built, which uses none of them (nor lib/'s libeu, which the tools link).
build_libelf() {
	local src
	src=$(unpack elfutils)
	(cd "$src" && ./configure --prefix="$SYSROOT" --disable-debuginfod --disable-libdebuginfod \
		--without-bzlib --without-lzma --without-zstd --disable-nls --disable-symbol-versioning \
		ac_cv_search_argp_parse='none required' ac_cv_search_fts_close='none required' \
		ac_cv_search__obstack_free='none required' ac_cv_bad_fts=no &&
		make -C libelf -j"$JOBS" libelf.a &&
		install -m 0644 libelf/libelf.a "$SYSROOT/lib/" &&
		install -m 0644 libelf/libelf.h libelf/gelf.h libelf/nlist.h "$SYSROOT/include/" &&
		mkdir -p "$SYSROOT/include/elfutils" &&
		install -m 0644 libelf/elf-knowledge.h version.h "$SYSROOT/include/elfutils/" &&
		install -m 0644 config/libelf.pc "$SYSROOT/lib/pkgconfig/")
}

build_libbpf() {
	local src
	src=$(unpack libbpf)
	# Its Makefile writes libbpf.pc into OBJDIR without making it first (a race under -j).
	mkdir -p "$src/obj"
	make -C "$src/src" -j"$JOBS" CC="$CC" BUILD_STATIC_ONLY=1 OBJDIR="$src/obj" \
		PREFIX="$SYSROOT" LIBDIR="$SYSROOT/lib" EXTRA_CFLAGS="$CFLAGS $CPPFLAGS" install
}

# Debian's libxdp.a was compiled against glibc's headers (_FORTIFY_SOURCE, LFS names): the
# musl build links it with tests/musl/glibc_compat.c, which gives it those entry points.
build_libxdp() {
	local lib=/usr/lib/$TRIPLET/libxdp.a ver
	ver=$(deb_version libxdp-dev)
	cp "$lib" "$SYSROOT/lib/libxdp.a"
	mkdir -p "$SYSROOT/include/xdp"
	cp /usr/include/xdp/*.h "$SYSROOT/include/xdp/"
	$CC $CFLAGS -Wall -Wextra -Werror -c "$TOP/tests/musl/glibc_compat.c" \
		-o "$WORK/glibc_compat.o"
	ar rcs "$SYSROOT/lib/libpxp_glibc_compat.a" "$WORK/glibc_compat.o"
	cat >"$SYSROOT/lib/pkgconfig/libxdp.pc" <<-EOF
		prefix=$SYSROOT
		libdir=\${prefix}/lib
		includedir=\${prefix}/include

		Name: libxdp
		Description: Debian's libxdp.a $ver (glibc-built) with tests/musl/glibc_compat.c
		Version: ${ver%%-*}
		Requires.private: libbpf
		Libs: -L\${libdir} -lxdp -lpxp_glibc_compat
		Cflags: -I\${includedir}
	EOF
}

build_nettle() {
	local src
	src=$(unpack nettle)
	(cd "$src" && ./configure --prefix="$SYSROOT" --libdir="$SYSROOT/lib" --disable-shared \
		--disable-public-key --disable-documentation --disable-openssl &&
		make -j"$JOBS" libnettle.a && make install-static install-headers &&
		install -m 0644 nettle.pc "$SYSROOT/lib/pkgconfig/")
}

build_libnl() {
	local src
	src=$(unpack libnl3)
	(cd "$src" && ./configure --prefix="$SYSROOT" --disable-shared --enable-static --disable-cli \
		--disable-debug && make -j"$JOBS" && make install)
}

# libcrypto only (no libssl); no-async: musl has no makecontext.
build_openssl() {
	local src
	src=$(unpack openssl)
	(cd "$src" && ./Configure "linux-$(uname -m)" --prefix="$SYSROOT" --libdir=lib no-shared \
		no-tests no-async no-engine no-afalgeng no-dso $CPPFLAGS &&
		make -j"$JOBS" build_generated && make -j"$JOBS" libcrypto.a libcrypto.pc &&
		install -m 0644 libcrypto.a "$SYSROOT/lib/" &&
		install -m 0644 libcrypto.pc "$SYSROOT/lib/pkgconfig/" &&
		mkdir -p "$SYSROOT/include/openssl" &&
		install -m 0644 include/openssl/*.h "$SYSROOT/include/openssl/")
}

# The reference implementations (libb2's non-native build without its CPU dispatch),
# compiled directly: libb2's tarball has no configure script. Of what configure would put in
# config.h only explicit_bzero matters here (musl has it); without NATIVE_LITTLE_ENDIAN the
# words are loaded byte by byte, right on any CPU.
build_libb2() {
	local src f
	src=$(unpack libb2)
	echo '#define HAVE_EXPLICIT_BZERO 1' >"$src/src/config.h"
	for f in blake2s-ref blake2b-ref blake2sp blake2bp; do
		$CC $CFLAGS -DSUFFIX= -c "$src/src/$f.c" -o "$src/src/$f.o"
	done
	ar rcs "$SYSROOT/lib/libb2.a" "$src"/src/*.o
	install -m 0644 "$src/src/blake2.h" "$SYSROOT/include/"
}

# Debian's libsodium tarball is a git snapshot: no configure script until autogen.sh.
build_libsodium() {
	local src
	src=$(unpack libsodium)
	(cd "$src" && ./autogen.sh -s && ./configure --prefix="$SYSROOT" --disable-shared --enable-static &&
		make -j"$JOBS" && make install)
}

for lib in "${LIBS[@]}"; do
	case $lib in
	headers) ver=linux-libc-dev_$(deb_version linux-libc-dev) ;;
	libxdp) ver=libxdp-dev_$(deb_version libxdp-dev) ;;
	libelf) ver=$(version elfutils) ;;
	libnl) ver=$(version libnl3) ;;
	*) ver=$(version "$lib") ;;
	esac
	stamp=$SYSROOT/.built-$lib
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$ver" ]; then
		continue
	fi
	echo "  MUSL    $lib ($ver)"
	start=$SECONDS
	# In a subshell of its own, outside any condition, so that set -e stops at the first error.
	set +e
	(
		set -e
		"build_$lib"
	) >"$LOG.$lib" 2>&1
	rc=$?
	set -e
	if [ $rc -ne 0 ]; then
		echo "$0: building $lib for musl failed; the end of $LOG.$lib:" >&2
		tail -n 30 "$LOG.$lib" >&2
		exit 1
	fi
	echo "$ver" >"$stamp"
	# The build trees are big (OpenSSL's: hundreds of MB) and never reused.
	find "$WORK" -mindepth 1 -maxdepth 1 ! -name 'log.*' -exec rm -rf {} +
	echo "  MUSL    $lib built in $((SECONDS - start)) s"
done
