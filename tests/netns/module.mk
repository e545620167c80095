# SPDX-License-Identifier: GPL-2.0
#
# tests/netns/foreign.bpf.c: someone else's tc and XDP programs, which test_datapath.sh puts
# on the WAN port beside pppoe-xp's (the top Makefile's $(O)/%.bpf.o rule builds it).
# tests/netns/no_xsks.c: an LD_PRELOAD library that hides the XSKMAP from a process, as a
# kernel without XDP sockets does (test_session.sh no_xsk_kernel).
all: $(O)/tests/netns/foreign.bpf.o $(O)/tests/netns/no_xsks.so

$(O)/tests/netns/no_xsks.so: tests/netns/no_xsks.c
	$(call msg,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) -std=gnu11 $(WARNINGS) $(CFLAGS) -fPIC -shared $(LDFLAGS) $< -ldl -o $@
