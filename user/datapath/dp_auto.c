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
	/* bench/run --quick --only guest --rounds 3 (6.12 guest, WAN GRO on), 1 Dec 2026, two
	 * series: netkit at both ends with rx xdp-pass + tx tc, median ~1.38x kernel PPPoE down,
	 * ~1.19x up; mode xdp on veths ~0.95x (docs/benchmark.md, netkit at both ends). */
	{ "veth", PXP_DP_TC, PXP_DP_HALF_XDP_PASS, PXP_DP_HALF_TC, true,
	  "netkit measured fastest (XDP strips PPPoE and passes for GRO, the netkit transmits in "
	  "tc: no veth hop)" },
	/* bench/run --rounds 2, 1 Dec 2026, TCP 1 stream down / up of the ceiling: mode xdp
	 * 0.65 / 0.80, rx xdp-pass + tx tc 0.71 / 0.77, mode tc 0.37 / 0.62; 3 Dec 2026 (the
	 * tc receive half with GRO since): mode xdp 0.64 / 0.64, mode tc 0.53 / 0.64. */
	{ "veth", PXP_DP_XDP, PXP_DP_HALF_XDP, PXP_DP_HALF_XDP, false,
	  "XDP measured fastest on a veth (its copy costs less than tc's skb helpers)" },
	/* bench/run --quick --only guest --guest-wan virtio --rounds 3 (6.12 guest, virtio-net
	 * WAN), 2 Dec 2026: mode xdp / the netkit row (rx xdp-pass + tx tc) 1.09x down, 1.31x
	 * up, ahead in 6 of 6 rounds. Not profiled: XDP's redirects reach the NIC in bulk
	 * (one ndo_xdp_xmit a batch) where tc's go an skb at a time, and each virtio
	 * notification is dear under TCG, so a real NIC may rank them closer. */
	{ PXP_AUTO_NATIVE_XDP, PXP_DP_XDP, PXP_DP_HALF_XDP, PXP_DP_HALF_XDP, false,
	  "native XDP copies no frame (measured ahead of the netkit row on virtio-net)" },
	/* bench/run --quick --only guest --guest-wan e1000e --rounds 3 (6.12 guest), 2 Dec 2026:
	 * tc both ways on a veth pxp0 / on a netkit 1.15-1.34x down, 1.04-1.47x up, ahead in 9
	 * of 9 rounds (1.23x / 1.28x kernel PPPoE): a veth's GRO takes what tc decapsulates,
	 * a netkit has none. Generic XDP copies every frame a stack sent. */
	{ PXP_AUTO_ANY, PXP_DP_TC, PXP_DP_HALF_TC, PXP_DP_HALF_TC, false,
	  "generic XDP copies every frame, tc copies none; a veth pxp0's GRO takes what tc "
	  "decapsulates (measured ahead of a netkit)" },
};

const struct pxp_dp_auto *pxp_dp_auto_table(unsigned int *n)
{
	*n = ROWS(table);
	return table;
}

/* Does row fit? 1 or 0, -1 if that depends on a probe not made. */
static int row_fits(const struct pxp_dp_auto *row, const char *driver, int native_xdp, int netkit)
{
	int port = 1, kernel = row->netkit ? netkit : 1;

	if (!strcmp(row->driver, PXP_AUTO_NATIVE_XDP))
		port = native_xdp;
	else if (strcmp(row->driver, PXP_AUTO_ANY) && strcmp(row->driver, driver))
		port = 0;
	if (!port || !kernel)
		return 0;
	return port < 0 || kernel < 0 ? -1 : 1;
}

const struct pxp_dp_auto *pxp_dp_auto_pick(const char *driver, int native_xdp, int netkit)
{
	for (unsigned int i = 0; i < ROWS(table); i++) {
		int fits = row_fits(&table[i], driver, native_xdp, netkit);

		if (fits)
			return fits > 0 ? &table[i] : NULL;
	}
	return NULL;
}

/*
 * A netkit only where its receive half is xdp-pass, whose packets the WAN port's GRO already
 * coalesced. What the tc receive half decapsulates is coalesced only by a veth pxp0's GRO (a
 * netkit has none): tc both ways on a veth measured ahead of the same on a netkit in 9 of 9
 * rounds (the 6.12 guest on e1000e, docs/operation.md). XDP halves cannot use a netkit.
 */
bool pxp_dp_auto_netkit(enum pxp_dp_mode mode, enum pxp_dp_half rx, enum pxp_dp_half tx)
{
	return mode != PXP_DP_AFXDP && rx == PXP_DP_HALF_XDP_PASS && tx == PXP_DP_HALF_TC;
}
