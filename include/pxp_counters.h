/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The express data path's counters, once. Everything else is generated from this table:
 * enum pxp_counter (include/pxp_maps.h, what the XDP programs count), pxp_counter_name()
 * (tools' output), and the sums into the daemon's per-queue report (user/common/dp_stats.h).
 *
 * X(id, key, field, description):
 *   id     the slot is PXP_CNT_<id>, one u64 per CPU and RX queue in pxp_counters
 *   key    its name in tools' output ("rx=12", "drop_truncated 0")
 *   field  the field of struct pxp_dp_queue_stats it adds into, or none (tools only)
 */
#ifndef PXP_COUNTERS_H
#define PXP_COUNTERS_H

#define PXP_COUNTERS(X)                                                                \
	X(RX, "rx", rx, "frames the WAN program saw")                                  \
	X(TX, "tx", tx, "frames the session program saw (sent by the stack on pxp0)")  \
	X(DECAP, "decap", decap, "WAN -> pxp0, redirected")                            \
	X(ENCAP, "encap", encap, "pxp0 -> WAN, redirected")                            \
	X(PASS, "pass", none, "left to the stack: discovery, control, other sessions") \
	X(TO_XSK, "to_xsk", none, "handed to the AF_XDP engine")                       \
	X(MSS_CLAMPED, "mss_clamped", none, "SYNs whose MSS was lowered")              \
	X(DROP_TRUNCATED, "drop_truncated", drop_malformed, "headers cut short")       \
	X(DROP_BAD_LENGTH, "drop_bad_length", drop_malformed,                          \
	  "PPPoE or IP length claims more than the frame holds")                       \
	X(DROP_NO_SESSION, "drop_no_session", drop_no_session,                         \
	  "frame on a hidden peer with no session record")                             \
	X(DROP_TOO_BIG, "drop_too_big", drop_too_big, "larger than the session MTU")   \
	X(DROP_NOT_IP, "drop_not_ip", drop_malformed,                                  \
	  "pxp0 sent something that is neither IPv4 nor IPv6")                         \
	X(DROP_ADJUST, "drop_adjust", drop_other,                                      \
	  "bpf_xdp_adjust_head/tail (tc: skb helpers) refused")                        \
	X(CPU_FALLBACK, "cpu_fallback", none,                                          \
	  "CPU spreading found no cpumap entry: delivered locally")                    \
	X(PASS_REDIRECTED, "pass_redirected", none,                                    \
	  "rx xdp-pass: packets (after the WAN's GRO) tc redirected into pxp0")

#endif
