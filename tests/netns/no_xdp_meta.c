// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD=no_xdp_meta.so makes a process see a kernel that refuses XDP programs the
 * helper bpf_xdp_adjust_meta (a sandbox's 6.18 build did: "program of this type cannot use
 * helper"), on a kernel that has it. Such a kernel refuses a call the verifier reaches; the
 * only reachable one pppoe-xp loads there is its probe (pxp_dp_kernel_has_xdp_meta, a few
 * instructions), since the probe's answer prunes the calls of the real objects. So a small
 * XDP program that calls the helper fails with EINVAL, as there; every other call goes to
 * libc (libbpf and the probe call bpf() through syscall()).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bpf.h>

/* Larger programs are the data path's objects, whose calls the probe's answer prunes. */
#define PROBE_MAX_INSNS 16

static bool calls_adjust_meta(const union bpf_attr *attr)
{
	const struct bpf_insn *insn = (const struct bpf_insn *)(uintptr_t)attr->insns;

	if (attr->prog_type != BPF_PROG_TYPE_XDP || attr->insn_cnt > PROBE_MAX_INSNS)
		return false;
	for (uint32_t i = 0; i < attr->insn_cnt; i++) {
		if (insn[i].code == (BPF_JMP | BPF_CALL) && insn[i].src_reg == 0 &&
		    insn[i].imm == BPF_FUNC_xdp_adjust_meta)
			return true;
	}
	return false;
}

long syscall(long nr, ...)
{
	static long (*real)(long, ...);
	long a[6];
	va_list ap;

	/* As libc's syscall() does: six arguments, whether the call has them or not. */
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_bpf && a[0] == BPF_PROG_LOAD && a[1] &&
	    calls_adjust_meta((const union bpf_attr *)a[1])) {
		errno = EINVAL;
		return -1;
	}
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
