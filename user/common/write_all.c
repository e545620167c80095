// SPDX-License-Identifier: GPL-2.0
/* See write_all.h. */
#include <errno.h>
#include <unistd.h>

#include "write_all.h"

int pxp_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
