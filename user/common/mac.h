/* SPDX-License-Identifier: GPL-2.0 */
/* MAC addresses as text: "aa:bb:cc:dd:ee:ff", as ip(8) and pppd print them. */
#ifndef PXP_MAC_H
#define PXP_MAC_H

#include <stdint.h>

#define PXP_MAC_LEN 6

/* Exactly six two-digit hex bytes separated by ':'. 0 or -EINVAL. */
int pxp_mac_parse(const char *s, uint8_t mac[PXP_MAC_LEN]);

#endif
