// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD=no_xdp_meta.so makes a process see a kernel that refuses XDP programs the
 * helper bpf_xdp_adjust_meta (a sandbox's 6.18 build did: "program of this type cannot use
 * helper"), on a kernel that has it. Such a kernel refuses a call the verifier reaches; the
 * only reachable one pppoe-xp loads there is its probe (pxp_dp_kernel_has_xdp_meta, a few
 * instructions), since the probe's answer prunes the calls of the real objects. So a small
 * XDP program that calls the helper fails with EINVAL, as there.
 */
#define _GNU_SOURCE
#include <stdint.h>

#include "bpf_refuse.h"

/* Larger programs are the data path's objects, whose calls the probe's answer prunes. */
#define PROBE_MAX_INSNS 16

static bool refused(long cmd, const union bpf_attr *attr)
{
	const struct bpf_insn *insn = (const struct bpf_insn *)(uintptr_t)attr->insns;

	if (cmd != BPF_PROG_LOAD || attr->prog_type != BPF_PROG_TYPE_XDP ||
	    attr->insn_cnt > PROBE_MAX_INSNS)
		return false;
	for (uint32_t i = 0; i < attr->insn_cnt; i++) {
		if (insn[i].code == (BPF_JMP | BPF_CALL) && insn[i].src_reg == 0 &&
		    insn[i].imm == BPF_FUNC_xdp_adjust_meta)
			return true;
	}
	return false;
}
