// SPDX-License-Identifier: GPL-2.0
/* The --mode auto table; see dp_auto.h. */
#include <string.h>

#include "dp_auto.h"

#define ROWS(a) (sizeof(a) / sizeof((a)[0]))

/*
 * First match wins: named drivers, then the two classes. Edit from the benchmark's numbers
 * (docs/benchmark.md); tests/unit/test_dp_auto.c states what each row must give.
 */
static const struct pxp_dp_auto table[] = {
	/* bench/run --rounds 2, 1 Dec 2026, TCP 1 stream down / up of the ceiling: mode xdp
	 * 0.65 / 0.80, rx xdp-pass + tx tc 0.71 / 0.77, mode tc 0.37 / 0.62. */
	{ "veth", PXP_DP_XDP, PXP_DP_HALF_XDP, PXP_DP_HALF_XDP, PXP_DP_NETDEV_AUTO,
	  "XDP measured fastest on a veth (its copy costs less than tc's skb helpers)" },
	/* Not measured on a real NIC yet: native XDP copies nothing there, so it is the veth
	 * result without the copy. */
	{ PXP_AUTO_NATIVE_XDP, PXP_DP_XDP, PXP_DP_HALF_XDP, PXP_DP_HALF_XDP, PXP_DP_NETDEV_AUTO,
	  "native XDP copies no frame" },
	/* Generic XDP and tc measured alike on the host (0.38 / 0.63 and 0.37 / 0.62). */
	{ PXP_AUTO_ANY, PXP_DP_TC, PXP_DP_HALF_TC, PXP_DP_HALF_TC, PXP_DP_NETDEV_AUTO,
	  "generic XDP copies every frame, tc copies none" },
};

const struct pxp_dp_auto *pxp_dp_auto_table(unsigned int *n)
{
	*n = ROWS(table);
	return table;
}

const struct pxp_dp_auto *pxp_dp_auto_pick(const char *driver, int native_xdp)
{
	for (unsigned int i = 0; i < ROWS(table); i++) {
		const char *d = table[i].driver;

		if (!strcmp(d, PXP_AUTO_NATIVE_XDP)) {
			if (native_xdp < 0)
				return NULL;
			if (native_xdp)
				return &table[i];
		} else if (!strcmp(d, PXP_AUTO_ANY) || !strcmp(d, driver)) {
			return &table[i];
		}
	}
	return NULL;
}
