// SPDX-License-Identifier: GPL-2.0
/*
 * The glibc entry points Debian's libxdp.a calls that musl does not have, for the musl build
 * only (tests/musl/sysroot.sh): that archive was compiled against glibc's headers, which
 * turn memset and the printf family into their _FORTIFY_SOURCE checking forms and fcntl into
 * fcntl64. Each does what glibc's does: check the destination's size, then call musl's.
 * Nothing of ours calls these: a libxdp built from source for musl needs none of them.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__memset_chk(void *dst, int c, size_t n, size_t dstlen);
int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *fmt, ...);
int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *fmt, va_list ap);
int __vfprintf_chk(FILE *fp, int flag, const char *fmt, va_list ap);
int fcntl64(int fd, int cmd, ...);

/* glibc's __chk_fail: a buffer overflow the compiler could see coming. */
static void chk_fail(void)
{
	fputs("*** buffer overflow detected ***: terminated\n", stderr);
	abort();
}

void *__memset_chk(void *dst, int c, size_t n, size_t dstlen)
{
	if (n > dstlen)
		chk_fail();
	return memset(dst, c, n);
}

int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *fmt, va_list ap)
{
	(void)flag;
	if (maxlen > slen)
		chk_fail();
	return vsnprintf(s, maxlen, fmt, ap);
}

int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = __vsnprintf_chk(s, maxlen, flag, slen, fmt, ap);
	va_end(ap);
	return n;
}

int __vfprintf_chk(FILE *fp, int flag, const char *fmt, va_list ap)
{
	(void)flag;
	return vfprintf(fp, fmt, ap);
}

/* Every fcntl command's argument fits a long (an int or a pointer) on Linux. */
int fcntl64(int fd, int cmd, ...)
{
	va_list ap;
	long arg;

	va_start(ap, cmd);
	arg = va_arg(ap, long);
	va_end(ap);
	return fcntl(fd, cmd, arg);
}
