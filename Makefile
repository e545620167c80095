# SPDX-License-Identifier: GPL-2.0
#
# pppoe-xp build. One non-recursive Makefile: sources are found by wildcard, so a new file
# in pppoe/, user/, bpf/ or tests/ needs no rule. A part that needs more adds a module.mk.
#
#   make            build everything into build/
#   make deps       install the Debian packages the build, tests, demo and bench need
#   make check      every test tier; ends with one line "N passed, N failed, N skipped"
#   make check-fast unit and bpf tiers only
#   make demo       a whole PPPoE session and traffic through it, in network namespaces
#   make bench      the open benchmark (bench/run)
#   V=1             show commands
#
# Cross builds: override CC, PKG_CONFIG and SYSROOT (BPF objects are the same on every CPU).

.DELETE_ON_ERROR:
.SUFFIXES:
# Keep intermediate objects: a second make with nothing changed must do nothing.
.SECONDARY:
.DEFAULT_GOAL := all

V ?= 0
ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-7s %s\n' '$(1)' '$(2)'
endif

O ?= build
CC := $(if $(filter default,$(origin CC)),gcc,$(CC))
CLANG ?= clang
BPFTOOL ?= bpftool
CLANG_FORMAT ?= clang-format
PKG_CONFIG ?= pkg-config
SYSROOT ?=
FUZZ_SECONDS ?= 5

PKGS := libbpf libxdp libnl-3.0 libnl-route-3.0 nettle
PKG_CFLAGS := $(shell PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)

WARNINGS := -Wall -Wextra -Werror
CFLAGS ?= -O2 -g
ALL_CFLAGS := -std=gnu11 $(WARNINGS) $(CFLAGS) $(if $(SYSROOT),--sysroot=$(SYSROOT)) \
	-Iinclude -Ipppoe -Iuser -Ibpf -I$(O)/skel $(PKG_CFLAGS) -MMD -MP
LDLIBS := $(PKG_LIBS) -lelf -lz -lpthread

# clang -target bpf does not search the host's multiarch include directory for <asm/...>.
BPF_SYS_INCLUDES := $(shell $(CLANG) -v -E - </dev/null 2>&1 | \
	sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')
BPF_CFLAGS := -g -O2 -target bpf $(WARNINGS) -Iinclude -Ibpf $(BPF_SYS_INCLUDES) -MMD -MP

PPPOE_SRCS := $(wildcard pppoe/*.c)
USER_SRCS := $(filter-out user/main.c,$(wildcard user/*.c))
LIB_OBJS := $(patsubst %.c,$(O)/%.o,$(PPPOE_SRCS) $(USER_SRCS))
LIB := $(O)/libpxp.a
BIN := $(O)/pppoe-xp

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(O)/bpf/%.bpf.o,$(BPF_SRCS))
SKELS := $(patsubst bpf/%.bpf.c,$(O)/skel/%.skel.h,$(BPF_SRCS))

UNIT_BINS := $(patsubst %.c,$(O)/%,$(wildcard tests/unit/test_*.c))
BPF_TEST_BINS := $(patsubst %.c,$(O)/%,$(wildcard tests/bpf/test_*.c))
TOOL_BINS := $(patsubst %.c,$(O)/%,$(wildcard tests/tools/*.c))
FUZZ_BINS := $(patsubst %.c,$(O)/%,$(wildcard tests/fuzz/fuzz_*.c))
TEST_BINS := $(UNIT_BINS) $(BPF_TEST_BINS) $(TOOL_BINS)

.PHONY: all
all: $(BIN) $(BPF_OBJS) $(TEST_BINS)

# bpf/ and the benchmark's bench/veth_hop.bpf.c alike.
$(O)/%.bpf.o: %.bpf.c
	$(call msg,BPF,$@)
	@mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(O)/skel/%.skel.h: $(O)/bpf/%.bpf.o
	$(call msg,SKEL,$@)
	@mkdir -p $(@D)
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst -,_,$*) > $@

# Userspace includes skeletons: generate them all before compiling anything.
$(O)/%.o: %.c | $(SKELS)
	$(call msg,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN): $(O)/user/main.o $(LIB)
	$(call msg,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(LDLIBS) -o $@

$(O)/tests/%: $(O)/tests/%.o $(LIB)
	$(call msg,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(LDLIBS) -o $@

# Fuzzers: the pure protocol cores rebuilt with sanitizers; libFuzzer from clang.
FUZZ_CFLAGS := -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -Iinclude -Ipppoe -Ibpf $(PKG_CFLAGS)
FUZZ_LIB_SRCS := $(PPPOE_SRCS)

$(O)/tests/fuzz/%: tests/fuzz/%.c $(FUZZ_LIB_SRCS) $(wildcard pppoe/*.h include/*.h tests/fuzz/*.h tests/unit/*.h user/*.h) \
	$(wildcard user/*.c)
	$(call msg,FUZZ,$@)
	@mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) $< $(FUZZ_LIB_SRCS) $(PKG_LIBS) -o $@

-include $(shell find $(O) -name '*.d' 2>/dev/null)
-include $(wildcard */module.mk tests/*/module.mk)

# ---- set-up -------------------------------------------------------------------------
DEB_PACKAGES := make gcc clang llvm libbpf-dev libxdp-dev bpftool libelf-dev zlib1g-dev \
	pkg-config nettle-dev libnl-3-dev libnl-route-3-dev libclang-rt-14-dev clang-format \
	iproute2 iputils-ping iperf3 ethtool tcpdump nftables python3 procps socat \
	qemu-system-x86 cpio lz4 binutils ppp pppoe gnuplot-nox \
	$(EXTRA_DEB_PACKAGES)

.PHONY: deps
deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "installing: $$missing"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# ---- tests --------------------------------------------------------------------------
# The entry points install what they need first, then re-run make so that the
# pkg-config flags are read after the packages exist.
.PHONY: check check-fast demo bench
check: deps
	$(Q)$(MAKE) --no-print-directory all $(FUZZ_BINS)
	$(Q)tests/run.sh format unit fuzz bpf netns interop

check-fast: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tests/run.sh unit bpf

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tests/netns/demo.sh

bench: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)bench/run $(BENCH_ARGS)

.PHONY: check-unit check-fuzz check-bpf check-netns check-interop check-format
check-unit check-bpf check-netns check-interop check-format: all
	$(Q)tests/run.sh $(patsubst check-%,%,$@)
check-fuzz: $(FUZZ_BINS)
	$(Q)tests/run.sh fuzz

.PHONY: format
format:
	$(Q)$(CLANG_FORMAT) -i $$(tests/format-files.sh)

.PHONY: clean
clean:
	rm -rf $(O)
