# SPDX-License-Identifier: GPL-2.0
#
# The benchmark's compiled helpers, called by bench/run. They use libbpf only, not libpxp.a.
#   bpf_ns    ns/packet of every XDP and tc program in build/bpf/*.bpf.o (BPF_PROG_TEST_RUN);
#             its object file comes from the top Makefile's $(O)/%.o rule
#   veth_hop  loads bench/veth_hop.bpf.c for the veth-hop case; its BPF object (the top
#             Makefile's $(O)/%.bpf.o rule) lands in build/bench/, out of build/bpf/, so that
#             bpf_ns does not take it for a data path program
#   netkit_hop  creates the netkit pair and loads bench/netkit_hop.bpf.c for the netkit-hop
#             case (its object in build/bench/ too, for the same reason)
BENCH_TOOLS := $(O)/bench/bpf_ns $(O)/bench/veth_hop $(O)/bench/netkit_hop

all: $(BENCH_TOOLS)

# The top Makefile's skeleton rule is for bpf/*.bpf.c; make falls through to this one for
# the bench's programs, which have no source there.
$(O)/skel/%.skel.h: $(O)/bench/%.bpf.o
	$(call msg,SKEL,$@)
	@mkdir -p $(@D)
	$(Q)$(BPFTOOL) gen skeleton $< name $* > $@

$(O)/bench/veth_hop.o: $(O)/skel/veth_hop.skel.h
$(O)/bench/netkit_hop.o: $(O)/skel/netkit_hop.skel.h

$(O)/bench/%: $(O)/bench/%.o
	$(call msg,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@
