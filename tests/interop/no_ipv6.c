// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD=no_ipv6.so makes a process see a host without IPv6 (booted with ipv6.disable=1,
 * or a kernel built without CONFIG_IPV6, as small OpenWrt images can be): socket(AF_INET6)
 * fails with EAFNOSUPPORT, as there. Every other call goes to libc.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sys/socket.h>

int socket(int domain, int type, int protocol)
{
	static int (*real)(int, int, int);

	if (domain == AF_INET6) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	if (!real)
		real = (int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");
	return real(domain, type, protocol);
}
