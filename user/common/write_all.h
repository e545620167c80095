/* SPDX-License-Identifier: GPL-2.0 */
/* A whole buffer written to a blocking descriptor (control replies, UAPI replies, files). */
#ifndef PXP_WRITE_ALL_H
#define PXP_WRITE_ALL_H

#include <stddef.h>

/* Writes all len bytes of buf, retrying on EINTR and short writes. 0 or -errno. */
int pxp_write_all(int fd, const void *buf, size_t len);

#endif
