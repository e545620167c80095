/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The syscall() of an LD_PRELOAD library that stands in for a kernel without something
 * (no_xsks.c, no_xdp_meta.c): a bpf() call that the including file's refused() names fails
 * with EINVAL, as on such a kernel; every other call goes to libc. libbpf makes all its bpf()
 * calls through libc's syscall(). The process's own code is unchanged: what it prints and
 * its exit code are a user's.
 */
#ifndef PXP_TESTS_BPF_REFUSE_H
#define PXP_TESTS_BPF_REFUSE_H

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bpf.h>

static bool refused(long cmd, const union bpf_attr *attr);

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
	if (nr == SYS_bpf && a[1] && refused(a[0], (const union bpf_attr *)a[1])) {
		errno = EINVAL;
		return -1;
	}
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

#endif
