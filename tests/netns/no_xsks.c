// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD=no_xsks.so makes a process see a kernel without XDP sockets (CONFIG_XDP_SOCKETS
 * off, as in OpenWrt's stock kernels): creating an XSKMAP fails with EINVAL, as there (the
 * kernel has no ops for that map type). Every other call goes to libc. libbpf makes all its
 * bpf() calls through libc's syscall(), so its probe and its map creation both meet this.
 * The process's own code is unchanged: what it prints and its exit code are a user's.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bpf.h>

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
	if (nr == SYS_bpf && a[0] == BPF_MAP_CREATE && a[1] &&
	    ((const union bpf_attr *)a[1])->map_type == BPF_MAP_TYPE_XSKMAP) {
		errno = EINVAL;
		return -1;
	}
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
