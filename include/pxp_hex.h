/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hex text from the wire or from a file: one digit's value. Shared by the pure cores that
 * parse hex (WireGuard keys over UAPI, the handshake stamp file, MS-CHAPv2's "S=").
 */
#ifndef PXP_HEX_H
#define PXP_HEX_H

/* The value of one hex digit, either case; -1 for anything else. */
static inline int pxp_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
