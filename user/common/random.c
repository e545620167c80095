// SPDX-License-Identifier: GPL-2.0
#include "random.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>

/* For kernels older than getrandom(2) (3.17) or seccomp sandboxes that refuse it. */
static void fill_from_urandom(uint8_t *p, size_t len)
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		abort();
	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			abort();
		p += n;
		len -= (size_t)n;
	}
	close(fd);
}

void pxp_random_fill(void *ctx, void *buf, size_t len)
{
	uint8_t *p = buf;

	(void)ctx;
	while (len) {
		ssize_t n = getrandom(p, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fill_from_urandom(p, len);
			return;
		}
		p += n;
		len -= (size_t)n;
	}
}
