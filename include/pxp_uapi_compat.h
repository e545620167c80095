/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel uapi values newer than the build's headers (Debian 12's linux-libc-dev, Linux 6.1)
 * and libbpf 1.1: tcx attach types (Linux 6.6, include/uapi/linux/bpf.h) and netkit (Linux
 * 6.7, include/uapi/linux/bpf.h and include/uapi/linux/if_link.h). The values are the
 * kernel's ABI; a kernel without them refuses them (EINVAL, EOPNOTSUPP).
 */
#ifndef PXP_UAPI_COMPAT_H
#define PXP_UAPI_COMPAT_H

/* enum bpf_attach_type */
enum {
	PXP_BPF_TCX_INGRESS = 46,
	PXP_BPF_TCX_EGRESS = 47,
	PXP_BPF_NETKIT_PRIMARY = 54,
};

/* IFLA_NETKIT_*: the attributes in IFLA_INFO_DATA of a link of kind "netkit" */
enum {
	PXP_IFLA_NETKIT_PEER_INFO = 1, /* an ifinfomsg and the peer's IFLA_* attributes */
	PXP_IFLA_NETKIT_POLICY = 3,    /* what the device does with a frame no program decided */
	PXP_IFLA_NETKIT_PEER_POLICY = 4,
	PXP_IFLA_NETKIT_MODE = 5,
};

/* enum netkit_action (the policies; the values are tc's TC_ACT_OK and TC_ACT_SHOT) */
enum {
	PXP_NETKIT_PASS = 0,
	PXP_NETKIT_DROP = 2,
};

/* enum netkit_mode */
enum { PXP_NETKIT_L3 = 1 };

#endif
