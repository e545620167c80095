/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frames a WAN port's driver refused after our XDP redirects (bpf/tp_xdp_xmit.bpf.c on
 * the kernel's xdp:xdp_devmap_xmit tracepoint), counted by the driver's errno.
 */
#ifndef PXP_XMIT_WATCH_H
#define PXP_XMIT_WATCH_H

#include <stdint.h>

struct pxp_xmit_watch;

/* Watches ifindex in our network namespace; 0 or -errno (no BTF, no tp_btf: old kernels). */
int pxp_xmit_watch_start(int ifindex, struct pxp_xmit_watch **out);
void pxp_xmit_watch_stop(struct pxp_xmit_watch *w);
/*
 * by_errno[e] = frames refused with errno e (0: without one), for e < n; the rest is added
 * into by_errno[0]. Returns 0 or -errno.
 */
int pxp_xmit_watch_read(const struct pxp_xmit_watch *w, uint64_t *by_errno, unsigned int n);

#endif
