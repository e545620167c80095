# SPDX-License-Identifier: GPL-2.0
#
# tests/netns/foreign.bpf.c: someone else's tc and XDP programs, which test_datapath.sh puts
# on the WAN port beside pppoe-xp's (the top Makefile's $(O)/%.bpf.o rule builds it).
# tests/netns/no_xsks.c: an LD_PRELOAD library that hides the XSKMAP from a process, as a
# kernel without XDP sockets does (test_session.sh no_xsk_kernel).
# tests/netns/no_xdp_meta.c: one that refuses the probe for bpf_xdp_adjust_meta, as a kernel
# that refuses XDP programs that helper does (test_session.sh no_xdp_meta_kernel,
# test_guest_612.sh guest612_pppoe_xp_no_xdp_meta).
all: $(O)/tests/netns/foreign.bpf.o $(O)/tests/netns/no_xsks.so $(O)/tests/netns/no_xdp_meta.so

$(O)/tests/netns/%.so: tests/netns/%.c tests/netns/bpf_refuse.h
	$(call msg,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) -std=gnu11 $(WARNINGS) $(CFLAGS) -fPIC -shared $(LDFLAGS) $< -ldl -o $@
