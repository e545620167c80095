/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AF_XDP sockets of the engine (mode afxdp), for the two XDP programs only. A kernel
 * without CONFIG_XDP_SOCKETS (OpenWrt's stock config) has no XSKMAP: in every other mode
 * userspace clears pxp_xsks before load and does not create xsks_map, the verifier prunes
 * the redirect below (pxp_xsks is read-only data it knows), and libbpf's poisoned reference
 * to the missing map is never reached. BPF only.
 */
#ifndef PXP_XSK_BPF_H
#define PXP_XSK_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "pxp_maps.bpf.h"

/* Set by user/datapath/dp_load.c before load: xsks_map exists (PXP_DP_LOAD_XSKS). */
const volatile __u8 pxp_xsks;

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, PXP_XSKS_MAX);
	__type(key, __u32);
	__type(value, __u32);
} xsks_map SEC(".maps");

/* Does this frame go to an AF_XDP socket? Only once the engine's sockets are in xsks_map. */
static __always_inline int pxp_to_xsk(const struct pxp_config *cfg)
{
	return pxp_xsks && cfg && (cfg->flags & PXP_CFG_F_AFXDP);
}

static __always_inline int pxp_redirect_xsk(__u32 key)
{
	if (pxp_record_redirects)
		pxp_last_redirect = PXP_REDIRECT_XSK_FLAG | key;
	return bpf_redirect_map(&xsks_map, key, XDP_PASS);
}

#endif
