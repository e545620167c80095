# SPDX-License-Identifier: GPL-2.0
#
# tests/netns/foreign.bpf.c: someone else's tc and XDP programs, which test_datapath.sh puts
# on the WAN port beside pppoe-xp's (the top Makefile's $(O)/%.bpf.o rule builds it).
all: $(O)/tests/netns/foreign.bpf.o
