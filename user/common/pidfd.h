/* SPDX-License-Identifier: GPL-2.0 */
/* pidfd_open(2), which glibc 2.36 wraps but musl does not: the raw system call, once. */
#ifndef PXP_PIDFD_H
#define PXP_PIDFD_H

#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434 /* the same number on every architecture */
#endif

/* A descriptor that polls readable once pid has exited; -1 with errno set. */
static inline int pxp_pidfd_open(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

#endif
