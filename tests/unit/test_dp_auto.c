// SPDX-License-Identifier: GPL-2.0
/*
 * The --mode auto table (user/datapath/dp_auto.c): what each kind of WAN port gets. When the
 * benchmark changes the table, change the expectations here with it.
 */
#include <string.h>

#include "check.h"
#include "dp_auto.h"

struct want {
	const char *driver;
	int native_xdp; /* -1: not probed */
	int netkit;	/* may the session netdevs be netkits? -1: not probed */
	enum pxp_dp_mode mode;
	enum pxp_dp_half rx, tx;
	bool makes_netkit; /* --netdev auto makes netkits (the kernel has them) */
};

#define AUTO_NETKIT true
#define AUTO_VETH   false

static const struct want wants[] = {
	/* veth on a kernel with netkit: XDP strips PPPoE and passes for GRO, tc transmits on
	 * the netkit (the 6.12 guest's fastest); no XDP probe needed (it would touch the peer) */
	{ "veth", -1, 1, PXP_DP_TC, PXP_DP_HALF_XDP_PASS, PXP_DP_HALF_TC, AUTO_NETKIT },
	{ "veth", 1, 1, PXP_DP_TC, PXP_DP_HALF_XDP_PASS, PXP_DP_HALF_TC, AUTO_NETKIT },
	/* veth without netkit (or --netdev veth): XDP both ways (the host bench's fastest) */
	{ "veth", -1, 0, PXP_DP_XDP, PXP_DP_HALF_XDP, PXP_DP_HALF_XDP, AUTO_VETH },
	{ "veth", 1, 0, PXP_DP_XDP, PXP_DP_HALF_XDP, PXP_DP_HALF_XDP, AUTO_VETH },
	/* native XDP (virtio-net, stmmac): XDP both ways, netkit or not (the virtio-net bench) */
	{ "virtio_net", 1, 1, PXP_DP_XDP, PXP_DP_HALF_XDP, PXP_DP_HALF_XDP, AUTO_VETH },
	{ "stmmac", 1, 1, PXP_DP_XDP, PXP_DP_HALF_XDP, PXP_DP_HALF_XDP, AUTO_VETH },
	{ "virtio_net", 1, 0, PXP_DP_XDP, PXP_DP_HALF_XDP, PXP_DP_HALF_XDP, AUTO_VETH },
	{ "stmmac", 1, 0, PXP_DP_XDP, PXP_DP_HALF_XDP, PXP_DP_HALF_XDP, AUTO_VETH },
	/* no native XDP (r8169, e1000e): tc both ways on a veth (its GRO), netkit or not */
	{ "r8169", 0, 1, PXP_DP_TC, PXP_DP_HALF_TC, PXP_DP_HALF_TC, AUTO_VETH },
	{ "e1000e", 0, 0, PXP_DP_TC, PXP_DP_HALF_TC, PXP_DP_HALF_TC, AUTO_VETH },
	{ "r8169", 0, -1, PXP_DP_TC, PXP_DP_HALF_TC, PXP_DP_HALF_TC, AUTO_VETH },
	/* a port with no driver name is judged by its XDP alone */
	{ "", 0, 1, PXP_DP_TC, PXP_DP_HALF_TC, PXP_DP_HALF_TC, AUTO_VETH },
	{ "", 1, 0, PXP_DP_XDP, PXP_DP_HALF_XDP, PXP_DP_HALF_XDP, AUTO_VETH },
	{ "", 1, 1, PXP_DP_XDP, PXP_DP_HALF_XDP, PXP_DP_HALF_XDP, AUTO_VETH },
};

TEST(each_kind_of_port)
{
	for (unsigned int i = 0; i < sizeof(wants) / sizeof(wants[0]); i++) {
		const struct want *w = &wants[i];
		const struct pxp_dp_auto *a = pxp_dp_auto_pick(w->driver, w->native_xdp, w->netkit);

		CHECK(a != NULL);
		CHECK_EQ(a->mode, w->mode);
		CHECK_EQ(a->rx, w->rx);
		CHECK_EQ(a->tx, w->tx);
		CHECK_EQ(pxp_dp_auto_netkit(a->mode, a->rx, a->tx), w->makes_netkit);
	}
}

/* A pick that needs a probe not made says so instead of guessing. */
TEST(unprobed_answers_give_no_pick)
{
	CHECK(pxp_dp_auto_pick("r8169", -1, 0) == NULL);
	CHECK(pxp_dp_auto_pick("", -1, 0) == NULL);
	CHECK(pxp_dp_auto_pick("veth", -1, -1) == NULL);
	CHECK(pxp_dp_auto_pick("r8169", -1, 1) == NULL);
	/* native XDP takes XDP both ways on any kernel: no netkit probe needed */
	const struct pxp_dp_auto *a = pxp_dp_auto_pick("virtio_net", 1, -1);
	CHECK(a != NULL && a->mode == PXP_DP_XDP);
}

/*
 * Every row can run: a transmit half is xdp or tc, a row for kernels with netkit makes
 * netkits, mode xdp or tc (afxdp is never automatic), a reason to print,
 * and the two classes come last, native before any, the last fitting every kernel.
 */
TEST(every_row_can_run)
{
	unsigned int n, i;
	const struct pxp_dp_auto *t = pxp_dp_auto_table(&n);

	CHECK(n >= 2);
	for (i = 0; i < n; i++) {
		CHECK(t[i].tx == PXP_DP_HALF_XDP || t[i].tx == PXP_DP_HALF_TC);
		CHECK(t[i].rx != PXP_DP_HALF_DEFAULT);
		CHECK(t[i].mode == PXP_DP_XDP || t[i].mode == PXP_DP_TC);
		CHECK(t[i].why && strlen(t[i].why) > 10 && !strchr(t[i].why, '\n'));
		/* a netkit row makes netkits; XDP receives only where it is native */
		CHECK(!t[i].netkit || pxp_dp_auto_netkit(t[i].mode, t[i].rx, t[i].tx));
		CHECK(t[i].rx == PXP_DP_HALF_TC || strcmp(t[i].driver, PXP_AUTO_ANY));
	}
	CHECK(!strcmp(t[n - 2].driver, PXP_AUTO_NATIVE_XDP));
	CHECK(!strcmp(t[n - 1].driver, PXP_AUTO_ANY));
	/* the last row fits every port on every kernel: a pick with both probes made is never
	 * NULL */
	CHECK(!t[n - 1].netkit);
}

/*
 * --netdev auto outside mode auto: a netkit only for rx xdp-pass + tx tc (GRO happened on the
 * WAN port); tc's receive half wants a veth's GRO; XDP halves and the engine cannot use one.
 */
TEST(netdev_auto_by_halves)
{
	CHECK(pxp_dp_auto_netkit(PXP_DP_TC, PXP_DP_HALF_XDP_PASS, PXP_DP_HALF_TC));
	CHECK(!pxp_dp_auto_netkit(PXP_DP_TC, PXP_DP_HALF_TC, PXP_DP_HALF_TC));
	CHECK(!pxp_dp_auto_netkit(PXP_DP_TC, PXP_DP_HALF_XDP_PASS, PXP_DP_HALF_XDP));
	CHECK(!pxp_dp_auto_netkit(PXP_DP_XDP, PXP_DP_HALF_XDP, PXP_DP_HALF_XDP));
	CHECK(!pxp_dp_auto_netkit(PXP_DP_AFXDP, PXP_DP_HALF_XDP_PASS, PXP_DP_HALF_TC));
}

int main(void)
{
	check_prefix = "dp_auto";
	RUN(each_kind_of_port);
	RUN(unprobed_answers_give_no_pick);
	RUN(every_row_can_run);
	RUN(netdev_auto_by_halves);
	return check_summary();
}
