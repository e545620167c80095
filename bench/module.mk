# SPDX-License-Identifier: GPL-2.0
#
# The benchmark's compiled helper: bpf_ns measures ns/packet of every XDP program in
# build/bpf/*.bpf.o with BPF_PROG_TEST_RUN. bench/run calls it; the object file comes from
# the top Makefile's $(O)/%.o rule. It uses libbpf only, not libpxp.a.
BENCH_TOOLS := $(O)/bench/bpf_ns

all: $(BENCH_TOOLS)

$(O)/bench/%: $(O)/bench/%.o
	$(call msg,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $^ $(LDLIBS) -o $@
