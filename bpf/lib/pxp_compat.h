/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lets the packet transforms in bpf/lib/ compile both as BPF (clang -target bpf) and as
 * plain userspace C (gcc), so the AF_XDP engine runs the very same parser as the XDP programs.
 */
#ifndef PXP_COMPAT_H
#define PXP_COMPAT_H

#include <linux/types.h>
#include <bpf/bpf_endian.h>

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

#ifndef __bpf__
#include <string.h>
#endif

#endif
