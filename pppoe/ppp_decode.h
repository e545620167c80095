/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PPP control packets (LCP, PAP, CHAP, IPCP, IPv6CP) decoded into the text pppd's `debug`
 * prints, for the daemon's --debug lines: "[LCP ConfReq id=0x1 <mru 1492> <magic 0x...>]".
 * Pure: no sockets, no logging. Every length from the wire is checked against the packet;
 * a malformed packet is decoded as far as it is valid, then its remaining bytes are shown
 * in hex after "<malformed>". A PAP password is never shown ("<hidden>", as pppd's
 * hide-password); every string from the wire is escaped as pppd's print_string does.
 */
#ifndef PXP_PPP_DECODE_H
#define PXP_PPP_DECODE_H

#include <stddef.h>
#include <stdint.h>

/* Room for any decoded line: longer lines end in "...]". */
#define PPP_DECODE_MAX 512

/*
 * Writes the text of the PPP packet data[0 .. len) of protocol proto into out (always
 * NUL-terminated, cut at cap - 1 with "...]"). Returns 0, or -EINVAL if cap is below 8.
 */
int ppp_decode(uint16_t proto, const uint8_t *data, size_t len, char *out, size_t cap);

/*
 * A PPPoE discovery frame (PADI, PADO, PADR, PADS, PADT; from the Ethernet destination
 * MAC on, no VLAN tag) as the rp-pppoe plugin of pppd prints it with `debug`
 * (pppoe_printpkt), on one line: "PPPOE Discovery V1T1 PADI session 0x0 length 12
 * dst ff:ff:ff:ff:ff:ff src 02:00:00:00:00:01 [service-name] [host-uniq 01 02 ...]".
 * Text tags (names, errors) are quoted and escaped; an AC-Cookie shows only its length;
 * PPP-Max-Payload its value. Bytes past the PPPoE length (padding) are not shown; a tag
 * that overruns it is marked <malformed>. Same contract as ppp_decode().
 */
int pppoe_disc_decode(const uint8_t *frame, size_t len, char *out, size_t cap);

#endif
