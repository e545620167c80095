# SPDX-License-Identifier: GPL-2.0
#
# pppoe-xp build. One non-recursive Makefile: sources are found by wildcard, so a new file
# in pppoe/, user/, bpf/ or tests/ needs no rule. A part that needs more adds a module.mk.
#
#   make            build everything into build/
#   make deps       install the Debian packages the build, tests, demo and bench need
#                   (make musl's own come with make deps-musl, cross builds' with deps-cross)
#   make check      every test tier; ends with one line "N passed, N failed, N skipped"
#   make check-fast rooms, unit, dist (--help, man page, install) and bpf tiers only
#   make check-long the full sizes of what make check runs smaller to fit its time (the
#                   benchmark smoke's whole plan: about 26 minutes)
#   make san        the daemon built with ASan+UBSan into build-san/ (same as make SAN=1);
#                   make check-san runs the san tier (netns suites against it)
#   make install    PREFIX (/usr/local), DESTDIR; make uninstall
#   make demo       a whole PPPoE session and traffic through it, in network namespaces
#   make bench      the open benchmark (bench/run)
#   make bench-ac   the AC at 1000 sessions, 200/s up and down with traffic (bench/ac_load)
#   make cross-aarch64  the daemon and its tests for aarch64 into build-aarch64/
#   make musl       the daemon and its unit tests against musl (static) into build-musl/, with
#                   the libraries built from Debian's sources once (build-musl/sysroot), and
#                   runs the unit tests; installs its packages first (make deps-musl)
#   V=1             show commands (and so every flag)
#
# A packager's flags are honoured: CC, AR, CPPFLAGS, CFLAGS, LDFLAGS, PKG_CONFIG, SYSROOT,
# CLANG and BPFTOOL from the command line or the environment; WERROR=0 drops -Werror;
# BPF_CPPFLAGS reach the BPF compiles (a toolchain's UAPI headers: -idirafter DIR);
# RUN_DIR (/run/pppoe-xp) is the daemon's run directory (OpenWrt: /var/run/pppoe-xp);
# STATE_DIR (/var/lib/pppoe-xp) what must outlive a reboot (OpenWrt: /etc/pppoe-xp).
# Cross builds: CROSS=aarch64-linux-gnu (a Debian multiarch triplet) picks that triplet's
# gcc, ar and pkg-config search path, or override those one by one; BPF objects are the same
# on every CPU (clang -target bpf, skeletons from the host's bpftool).

.DELETE_ON_ERROR:
.SUFFIXES:
# Keep intermediate objects: a second make with nothing changed must do nothing.
.SECONDARY:
.DEFAULT_GOAL := $(if $(filter 1,$(SAN)),san-bin,all)

V ?= 0
ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-7s %s\n' '$(1)' '$(2)'
endif

# SAN=1: the daemon and its libraries with AddressSanitizer and UBSan, in their own output
# directory; the BPF objects and skeletons stay the normal build's (BPF_O), since the
# sanitizers are for userspace and the programs must be the very ones the normal build loads.
SAN ?=
SAN_O ?= build-san
ifeq ($(SAN),1)
O ?= $(SAN_O)
BPF_O ?= build
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
O ?= build
BPF_O := $(O)
SAN_FLAGS :=
endif
CROSS ?=
CROSS_COMPILE ?= $(if $(CROSS),$(CROSS)-)
CC := $(if $(filter default,$(origin CC)),$(CROSS_COMPILE)gcc,$(CC))
AR := $(if $(filter default,$(origin AR)),$(CROSS_COMPILE)ar,$(AR))
CLANG ?= clang
ifeq ($(SAN),1)
# clang, whose one runtime writes UBSan's reports to log_path too; gcc 12's libubsan beside
# libasan writes them to stderr, which a detached daemon has on /dev/null. clang 14 also
# takes the tables' `{ NULL }` ends for missing fields; the gcc build keeps that warning.
CC := $(CLANG)
SAN_FLAGS += -Wno-missing-field-initializers
endif
BPFTOOL ?= bpftool
CLANG_FORMAT ?= clang-format
PKG_CONFIG ?= pkg-config
SYSROOT ?=
# The daemon's run directory and the state that outlives a reboot (user/common/run_dir.c;
# the man page says them too).
RUN_DIR ?= /run/pppoe-xp
STATE_DIR ?= /var/lib/pppoe-xp
RUN_DIR_CFLAGS := -DPXP_RUN_DIR='"$(RUN_DIR)"' -DPXP_STATE_DIR='"$(STATE_DIR)"'
FUZZ_SECONDS ?= 5
# make fuzz-long: seconds per harness and harnesses at once (tests/fuzz/long.sh).
FUZZ_LONG_SECONDS ?= 600
FUZZ_LONG_JOBS ?= 1

PKGS := libbpf libxdp libnl-3.0 libnl-route-3.0 nettle libcrypto
# A Debian multiarch triplet's .pc files, unless the caller chose a pkg-config of its own.
PKG_CONFIG_LIBDIR ?= $(if $(CROSS),/usr/lib/$(CROSS)/pkgconfig:/usr/share/pkgconfig)
PKG_ENV := PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) \
	$(if $(PKG_CONFIG_LIBDIR),PKG_CONFIG_LIBDIR=$(PKG_CONFIG_LIBDIR))
# Goals that need no library, or that install the packages first and run make again.
PKG_FREE_GOALS := deps deps-cross deps-musl clean format check check-fast check-long demo bench bench-ac cross-aarch64 \
	check-cross guest-image musl
ifneq ($(filter-out $(PKG_FREE_GOALS),$(or $(MAKECMDGOALS),all)),)
PKG_MISSING := $(strip $(foreach p,$(PKGS),$(if $(shell $(PKG_ENV) $(PKG_CONFIG) --exists $(p) \
	2>/dev/null && echo y),,$(p))))
ifneq ($(PKG_MISSING),)
$(error $(PKG_CONFIG) finds no $(addsuffix .pc,$(PKG_MISSING))$(if $(PKG_CONFIG_LIBDIR), in \
	$(PKG_CONFIG_LIBDIR)): install the libraries ($(if $(CROSS),make deps-cross,make deps) \
	on Debian) or point PKG_CONFIG or PKG_CONFIG_PATH at their .pc files)
endif
PKG_CFLAGS := $(shell $(PKG_ENV) $(PKG_CONFIG) --cflags $(PKGS))
# A static link (LDFLAGS=-static) needs the libraries' own dependencies too, in order.
PKG_LIBS := $(shell $(PKG_ENV) $(PKG_CONFIG) --libs $(if $(filter -static,$(LDFLAGS)),--static) \
	$(PKGS))
endif

WERROR ?= 1
WARNINGS := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror)
CFLAGS ?= -O2 -g
# The include path of each room (see user/README.md): a room sees its own headers and those
# of the rooms it may use, so an include the wrong way fails the build. Directions:
# cli -> shell -> datapath -> engine, every room of user/ -> common; pppoe/ (the pure
# protocol cores) and include/ (wire formats and map layouts) are open to every room that
# needs them (wg-bridge/, the WireGuard core, to shell and up); pppoe/ itself sees only
# include/, and so does wg-bridge/.
# tests/ and bench/ see everything.
INC_pppoe := -Iinclude -Ipppoe
INC_wg := -Iinclude -Iwg-bridge
INC_common := -Iinclude -Iuser/common
INC_engine := -Iuser/datapath/engine -Ibpf $(INC_common)
INC_datapath := -Iuser/datapath $(INC_engine) -I$(BPF_O)/skel
INC_shell := -Iuser/shell -Ipppoe -Iwg-bridge $(INC_datapath)
INC_cli := -Iuser/cli $(INC_shell)
INC_all := $(INC_cli)
ROOMS := pppoe wg common engine datapath shell cli

ROOM_INC = $(INC_all)
$(O)/pppoe/%.o: ROOM_INC = $(INC_pppoe)
$(O)/wg-bridge/%.o: ROOM_INC = $(INC_wg)
$(O)/user/common/%.o: ROOM_INC = $(INC_common)
$(O)/user/datapath/engine/%.o: ROOM_INC = $(INC_engine)
$(O)/user/datapath/%.o: ROOM_INC = $(INC_datapath)
$(O)/user/shell/%.o: ROOM_INC = $(INC_shell)
$(O)/user/cli/%.o: ROOM_INC = $(INC_cli)

BASE_CFLAGS := -std=gnu11 $(WARNINGS) $(CFLAGS) $(SAN_FLAGS) $(if $(SYSROOT),--sysroot=$(SYSROOT)) \
	$(PKG_CFLAGS) $(RUN_DIR_CFLAGS)
# Apart from BASE_CFLAGS: tests/rooms.sh compiles stdin with room-flags, and -MMD there would
# leave a dependency file (a--.d) in the tree's root.
ALL_CFLAGS = $(BASE_CFLAGS) -MMD -MP $(ROOM_INC)
LDLIBS := $(PKG_LIBS) -lelf -lz -lpthread

# clang -target bpf does not search the host's multiarch include directory for <asm/...>.
BPF_SYS_INCLUDES := $(shell $(CLANG) -v -E - </dev/null 2>&1 | \
	sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')
BPF_CPPFLAGS ?=
BPF_CFLAGS := -g -O2 -target bpf $(WARNINGS) -Iinclude -Ibpf $(BPF_CPPFLAGS) $(BPF_SYS_INCLUDES) \
	-MMD -MP

PPPOE_SRCS := $(wildcard pppoe/*.c)
WG_SRCS := $(wildcard wg-bridge/*.c)
USER_SRCS := $(filter-out user/cli/main.c,$(wildcard user/*/*.c user/*/*/*.c))
LIB_OBJS := $(patsubst %.c,$(O)/%.o,$(PPPOE_SRCS) $(WG_SRCS) $(USER_SRCS))
LIB := $(O)/libpxp.a
BIN := $(O)/pppoe-xp
# The same program under the name wg-quick's WG_QUICK_USERSPACE_IMPLEMENTATION runs.
WG_BIN := $(O)/pppoe-xp-wg

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(BPF_O)/bpf/%.bpf.o,$(BPF_SRCS))
SKELS := $(patsubst bpf/%.bpf.c,$(BPF_O)/skel/%.skel.h,$(BPF_SRCS))

UNIT_BINS := $(patsubst %.c,$(O)/%,$(wildcard tests/unit/test_*.c))
BPF_TEST_BINS := $(patsubst %.c,$(O)/%,$(wildcard tests/bpf/test_*.c))
TOOL_BINS := $(patsubst %.c,$(O)/%,$(wildcard tests/tools/*.c))
FUZZ_BINS := $(patsubst %.c,$(O)/%,$(wildcard tests/fuzz/fuzz_*.c))
TEST_BINS := $(UNIT_BINS) $(BPF_TEST_BINS) $(TOOL_BINS)

MAN := $(O)/pppoe-xp.8

.PHONY: all
all: $(BIN) $(WG_BIN) $(MAN) $(BPF_OBJS) $(TEST_BINS)

# bpf/ and the benchmark's bench/veth_hop.bpf.c alike.
$(BPF_O)/%.bpf.o: %.bpf.c
	$(call msg,BPF,$@)
	@mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BPF_O)/skel/%.skel.h: $(BPF_O)/bpf/%.bpf.o
	$(call msg,SKEL,$@)
	@mkdir -p $(@D)
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst -,_,$*) > $@

# Userspace includes skeletons: generate them all before compiling anything.
$(O)/%.o: %.c | $(SKELS)
	$(call msg,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# What --version prints: VERSION, and the git describe of the tree when built from git.
# main.o is rebuilt when that changes, not on every make.
VERSION := 0.1
GIT_DESCRIBE := $(shell git describe --tags --always --dirty 2>/dev/null)
PXP_VERSION := $(VERSION)$(if $(GIT_DESCRIBE), (git $(GIT_DESCRIBE)))

.PHONY: FORCE
$(O)/version.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(PXP_VERSION)' | cmp -s - $@ || echo '$(PXP_VERSION)' >$@

$(O)/user/cli/main.o: $(O)/version.txt
$(O)/user/cli/main.o: ALL_CFLAGS += -DPXP_VERSION='"$(PXP_VERSION)"'

$(BIN): $(O)/user/cli/main.o $(LIB)
	$(call msg,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# How to run what a cross build made: qemu-user with the triplet's Debian libraries.
CROSS_RUN ?= $(if $(CROSS),qemu-$(firstword $(subst -, ,$(CROSS))) -L /usr/$(CROSS))

$(WG_BIN): $(BIN)
	$(call msg,LN,$@)
	$(Q)ln -f $< $@

# What make SAN=1 builds: the daemon and the tools the data-path suites run.
.PHONY: san-bin
san-bin: $(BIN) $(WG_BIN) $(TOOL_BINS)

# The man page: the prose of dist/pppoe-xp.8.in around the options the binary's tables hold,
# so that an option is written once. A cross build runs its binary under CROSS_RUN, or a
# native build's binary: make MAN_GEN=path/to/native/pppoe-xp.
MAN_GEN ?= $(strip $(CROSS_RUN) $(BIN))
$(MAN): dist/pppoe-xp.8.in $(BIN)
	$(call msg,MAN,$@)
	$(Q)$(MAN_GEN) --man-sections >$@.sections
	$(Q)sed -e 's/@VERSION@/$(VERSION)/' -e 's|@RUN_DIR@|$(RUN_DIR)|' \
		-e 's|@STATE_DIR@|$(STATE_DIR)|' \
		-e '/^@SECTIONS@$$/{r $@.sections' -e 'd;}' $< >$@
	$(Q)rm -f $@.sections

$(O)/tests/%: $(O)/tests/%.o $(LIB)
	$(call msg,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The second libraries the WireGuard crypto is cross-checked against: test-only.
$(O)/tests/unit/test_wg_crypto: LDLIBS += -lb2 -lsodium

# Fuzzers: the pure protocol cores rebuilt with sanitizers; libFuzzer from clang.
# They see the pure rooms only: pppoe/, wg-bridge/, user/common/ and the engine's transforms.
FUZZ_CFLAGS := -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined $(INC_pppoe) -Iwg-bridge $(INC_engine) $(PKG_CFLAGS) \
	$(RUN_DIR_CFLAGS)
FUZZ_LIB_SRCS := $(PPPOE_SRCS) $(WG_SRCS) $(wildcard user/common/*.c)

FUZZ_DEPS := $(FUZZ_LIB_SRCS) $(wildcard pppoe/*.h wg-bridge/*.h include/*.h bpf/lib/*.h \
	tests/fuzz/*.h tests/unit/*.h user/common/*.h user/datapath/engine/*.h)

$(O)/tests/fuzz/%: tests/fuzz/%.c $(FUZZ_DEPS)
	$(call msg,FUZZ,$@)
	@mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) $< $(FUZZ_LIB_SRCS) $(PKG_LIBS) -o $@

# The configuration file's parser lives in the cli room but is pure: its fuzzer adds it.
$(O)/tests/fuzz/fuzz_conffile $(O)/tests/replay/fuzz_conffile: FUZZ_CFLAGS += -Iuser/cli
$(O)/tests/fuzz/fuzz_conffile $(O)/tests/replay/fuzz_conffile: FUZZ_LIB_SRCS += user/cli/conffile.c
$(O)/tests/fuzz/fuzz_conffile $(O)/tests/replay/fuzz_conffile: user/cli/conffile.c \
	user/cli/conffile.h

# The same harnesses with a main() that replays files (tests/cross/replay.c), built by $(CC)
# with UBSan instead of clang's libFuzzer and ASan: the seed corpora on a cross build's CPU.
$(O)/tests/replay/%: tests/fuzz/%.c tests/cross/replay.c $(FUZZ_DEPS)
	$(call msg,REPLAY,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(filter-out -fsanitize=% -fno-sanitize-recover=%,$(FUZZ_CFLAGS)) \
		-fsanitize=undefined -fno-sanitize-recover=undefined $(LDFLAGS) $< tests/cross/replay.c \
		$(FUZZ_LIB_SRCS) $(PKG_LIBS) -o $@

-include $(sort $(shell find $(O) $(BPF_O)/bpf -name "*.d" 2>/dev/null))
-include $(wildcard */module.mk tests/*/module.mk)

# ---- install ------------------------------------------------------------------------
# make install [PREFIX=/usr/local] [DESTDIR=staging]: the binary, the man page, the systemd
# unit template pppoe-xp@.service and the configuration directory (root's only; the unit
# reads IFACE.conf there). make uninstall removes them again but keeps the directory while
# it holds a configuration.
PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
SYSTEMD_UNITDIR ?= $(PREFIX)/lib/systemd/system
SYSCONFDIR ?= /etc
INSTALL ?= install
UNIT := pppoe-xp@.service
# Names our route protocol for ip(8) ("proto pppoe-xp"); the number is PXP_RTPROT's.
RT_PROTOS := $(O)/rt_protos.conf
RT_PROTOS_DIR = $(SYSCONFDIR)/iproute2/rt_protos.d

$(RT_PROTOS): user/datapath/netlink.h
	$(Q)awk '$$1 == "#define" && $$2 == "PXP_RTPROT" { print $$3 "\tpppoe-xp"; n++ } \
		END { exit n != 1 }' $< >$@

# What install puts where, one entry a file: source|destination|mode. The unit is made from
# dist/$(UNIT).in by install itself (its paths are PREFIX's); pppoe-xp-wg is a hard link to
# the installed pppoe-xp. uninstall removes the same list.
INSTALL_FILES = $(BIN)|$(SBINDIR)/pppoe-xp|0755 $(MAN)|$(MANDIR)/man8/pppoe-xp.8|0644 \
	$(O)/$(UNIT)|$(SYSTEMD_UNITDIR)/$(UNIT)|0644 \
	$(RT_PROTOS)|$(RT_PROTOS_DIR)/pppoe-xp.conf|0644
INSTALL_LINK = $(SBINDIR)/pppoe-xp-wg
install_field = $(word $(1),$(subst |, ,$(2)))
INSTALLED = $(foreach f,$(INSTALL_FILES),$(call install_field,2,$(f))) $(INSTALL_LINK)

.PHONY: install uninstall
install: $(BIN) $(MAN) $(RT_PROTOS)
	$(Q)$(INSTALL) -d -m 0755 $(addprefix $(DESTDIR),$(sort $(dir $(INSTALLED))))
	$(Q)sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
		dist/$(UNIT).in >$(O)/$(UNIT)
	$(Q)$(foreach f,$(INSTALL_FILES),$(INSTALL) -m $(call install_field,3,$(f)) \
		$(call install_field,1,$(f)) $(DESTDIR)$(call install_field,2,$(f)) &&) true
	$(Q)ln -f $(DESTDIR)$(SBINDIR)/pppoe-xp $(DESTDIR)$(INSTALL_LINK)
	$(Q)$(INSTALL) -d -m 0700 $(DESTDIR)$(SYSCONFDIR)/pppoe-xp

uninstall:
	$(Q)rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	$(Q)if [ -d $(DESTDIR)$(SYSCONFDIR)/pppoe-xp ]; then \
		rmdir --ignore-fail-on-non-empty $(DESTDIR)$(SYSCONFDIR)/pppoe-xp; fi

# ---- set-up -------------------------------------------------------------------------
# libb2-dev and libsodium-dev are the second libraries the WireGuard crypto is checked
# against (test binaries only); wireguard-go and wireguard-tools are its interop peer and,
# with openvpn and openssl (its run-time PKI), the benchmark's VPN rows; musl-dev's libc.a is
# what tests/dist/test_musl_symbols.sh looks the daemon's calls up in; valgrind runs
# session/valgrind (uninitialised reads ASan and UBSan cannot see); tshark's WireGuard
# dissector checks our messages (wg_device/tshark_formats).
DEB_PACKAGES := make gcc clang llvm libbpf-dev libxdp-dev bpftool libelf-dev zlib1g-dev \
	pkg-config nettle-dev libssl-dev libnl-3-dev libnl-route-3-dev libclang-rt-14-dev \
	clang-format iproute2 iputils-ping iperf3 ethtool tcpdump nftables python3 procps socat \
	qemu-system-x86 cpio lz4 binutils ppp pppoe gnuplot-nox dhcpcd-base musl-dev \
	libb2-dev libsodium-dev wireguard-go wireguard-tools jq shellcheck openvpn openssl \
	valgrind tshark \
	$(EXTRA_DEB_PACKAGES)

# apt_install: the packages of $(1) not installed yet, installed.
define apt_install
	@missing=$$(for p in $(1); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "installing: $$missing"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

.PHONY: deps
deps:
	$(call apt_install,$(DEB_PACKAGES))

# The aarch64 cross toolchain, qemu-user, qemu-system-aarch64 (the arm64 guest of
# tests/cross/test_guest_arm64.sh) and the arm64 multiarch libraries. Only this adds arm64 as
# a dpkg architecture (once); plain make deps leaves the machine's alone.
DEB_CROSS_PACKAGES := gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user qemu-system-arm \
	$(addsuffix :arm64,libbpf-dev libxdp-dev libnl-3-dev libnl-route-3-dev nettle-dev libssl-dev \
	libelf-dev zlib1g-dev libb2-dev libsodium-dev)

# make musl's alone (deps-musl): musl-tools (musl-gcc), dpkg-dev (dpkg-source), flex, bison,
# autoconf, automake and libtool build its libraries from Debian's sources (libnl's parsers;
# libsodium's tarball has no configure script).
DEB_MUSL_PACKAGES := musl-tools dpkg-dev flex bison autoconf automake libtool

.PHONY: deps-musl
deps-musl: deps
	$(call apt_install,$(DEB_MUSL_PACKAGES))

.PHONY: deps-cross cross-aarch64
deps-cross: deps
	$(Q)dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
	$(call apt_install,$(DEB_CROSS_PACKAGES))

# The daemon, its tests and tools for aarch64 (OpenWrt's R6S), in their own directory.
cross-aarch64: deps-cross
	$(Q)$(MAKE) --no-print-directory CROSS=aarch64-linux-gnu O=build-aarch64 all

# ---- musl ---------------------------------------------------------------------------
# OpenWrt's C library. tests/musl/sysroot.sh builds the libraries (static, musl-gcc, from
# Debian's source packages) into MUSL_SYSROOT once; then the daemon and the unit tests are
# linked statically against them and musl, and tests/run.sh's musl tier runs them (static
# musl binaries run on any Linux). Not in make check: the libraries take long to build the first time.
MUSL_O ?= build-musl
MUSL_SYSROOT := $(abspath $(MUSL_O))/sysroot
# The sysroot's headers (the kernel's UAPI ones among them) are system headers, as in a
# toolchain's sysroot: musl's <sys/ioctl.h> and <linux/sockios.h> both define SIOCGSTAMP.
MUSL_MAKE = $(MAKE) --no-print-directory O=$(MUSL_O) CC="musl-gcc -isystem $(MUSL_SYSROOT)/include" \
	LDFLAGS=-static PKG_CONFIG_LIBDIR=$(MUSL_SYSROOT)/lib/pkgconfig

.PHONY: musl
musl: deps-musl
	$(Q)tests/musl/sysroot.sh $(MUSL_SYSROOT)
	$(Q)$(MUSL_MAKE) daemon-man-unit
	$(Q)O=$(MUSL_O) tests/run.sh musl

# What the musl tier runs, in whichever O.
.PHONY: daemon-man-unit
daemon-man-unit: $(BIN) $(MAN) $(UNIT_BINS)

# ---- tests --------------------------------------------------------------------------
# The entry points install what they need first, then re-run make so that the
# pkg-config flags are read after the packages exist.
.PHONY: check check-fast check-long demo bench bench-ac san check-san
# The cross tier's packages add a dpkg architecture and come from another archive: a failure
# to install them is no failure of ours, and the tier then SKIPs saying what is missing.
check: deps
	$(Q)$(MAKE) --no-print-directory all $(FUZZ_BINS)
	$(Q)$(MAKE) --no-print-directory SAN=1
	-$(Q)$(MAKE) --no-print-directory deps-cross
	$(Q)tests/run.sh format rooms unit dist fuzz bpf netns san interop cross

check-fast: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tests/run.sh rooms unit dist bpf

# Not part of check: each of its runs is also in check at a smaller size (tests/run.sh long).
check-long: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tests/run.sh long

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tests/netns/demo.sh

bench: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)bench/run $(BENCH_ARGS)

bench-ac: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)bench/ac_load $(BENCH_AC_ARGS)

san:
	$(Q)$(MAKE) --no-print-directory SAN=1

# The san tier: netns suites against build-san/pppoe-xp (SAN_SUITES in tests/run.sh).
check-san: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(MAKE) --no-print-directory SAN=1
	$(Q)tests/run.sh san

.PHONY: check-unit check-fuzz check-bpf check-netns check-interop check-format check-rooms \
	check-dist check-cross
check-unit check-bpf check-netns check-interop check-format check-rooms check-dist: all
	$(Q)tests/run.sh $(patsubst check-%,%,$@)
check-cross: deps-cross
	$(Q)tests/run.sh cross
check-fuzz: $(FUZZ_BINS)
	$(Q)tests/run.sh fuzz

# Not in make check: each harness for FUZZ_LONG_SECONDS, what adds coverage merged into
# tests/fuzz/corpus/ (commit it).
.PHONY: fuzz-long
fuzz-long: $(FUZZ_BINS)
	$(Q)FUZZ_LONG_SECONDS=$(FUZZ_LONG_SECONDS) FUZZ_LONG_JOBS=$(FUZZ_LONG_JOBS) O=$(O) \
		tests/fuzz/long.sh

# The include flags of one room, for tests/rooms.sh: make -s room-flags ROOM=datapath
.PHONY: room-flags
room-flags:
	@echo $(BASE_CFLAGS) $(INC_$(ROOM))

.PHONY: format
format:
	$(Q)$(CLANG_FORMAT) -i $$(tests/format-files.sh)

# make musl's libraries (build-musl/sysroot) stay: they take long to build and never change.
.PHONY: clean
clean:
	rm -rf $(O) $(SAN_O) build-aarch64 build-aarch64-static
	find $(MUSL_O) -mindepth 1 -maxdepth 1 ! -name sysroot ! -name sysroot.work \
		-exec rm -rf {} + 2>/dev/null || true
