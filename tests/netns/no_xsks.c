// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD=no_xsks.so makes a process see a kernel without XDP sockets (CONFIG_XDP_SOCKETS
 * off, as in OpenWrt's stock kernels): creating an XSKMAP fails with EINVAL, as there (the
 * kernel has no ops for that map type). libbpf's probe and its map creation both meet this.
 */
#define _GNU_SOURCE
#include "bpf_refuse.h"

static bool refused(long cmd, const union bpf_attr *attr)
{
	return cmd == BPF_MAP_CREATE && attr->map_type == BPF_MAP_TYPE_XSKMAP;
}
