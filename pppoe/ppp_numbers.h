/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PPP's assigned numbers inside control packets (the protocol numbers themselves are in
 * include/pppoe_wire.h, the RFC 1661 packet codes in fsm.h): option types of LCP, IPCP and
 * IPv6CP, CHAP algorithms, PAP and CHAP codes. One list for the cores that build and judge
 * the packets and for the --debug decoder (ppp_decode.c) that prints them; the decoder
 * also names options the cores never negotiate.
 */
#ifndef PXP_PPP_NUMBERS_H
#define PXP_PPP_NUMBERS_H

/* LCP options (RFC 1661 section 6, RFC 1990, RFC 1570). */
#define LCP_OPT_MRU	 1
#define LCP_OPT_ACCM	 2
#define LCP_OPT_AUTH	 3
#define LCP_OPT_QUALITY	 4
#define LCP_OPT_MAGIC	 5
#define LCP_OPT_PFC	 7
#define LCP_OPT_ACFC	 8
#define LCP_OPT_CALLBACK 13
#define LCP_OPT_MRRU	 17
#define LCP_OPT_SSNHF	 18

/* LCP codes past the automaton's (fsm.h has 1-11). */
#define LCP_IDENTIFICATION 12
#define LCP_TIME_REMAINING 13

/* The algorithm byte after CHAP in LCP's Authentication-Protocol option (RFC 1994, 2433, 2759). */
#define CHAP_ALG_MD5	  5
#define CHAP_ALG_MSCHAP	  0x80
#define CHAP_ALG_MSCHAPV2 0x81

/* Protocols named inside LCP options: EAP (RFC 3748), Link Quality Report (RFC 1989). */
#define PPP_PROTO_EAP	  0xC227
#define PPP_PROTO_LQR	  0xC025
/* Callback operation 6: the Callback Control Protocol. */
#define LCP_CALLBACK_CBCP 6

/* IPCP options (RFC 1332, RFC 1877). */
#define IPCP_OPT_ADDRESSES   1 /* deprecated (RFC 1172) */
#define IPCP_OPT_COMPRESSION 2
#define IPCP_OPT_ADDRESS     3
#define IPCP_OPT_DNS1	     129
#define IPCP_OPT_WINS1	     130
#define IPCP_OPT_DNS2	     131
#define IPCP_OPT_WINS2	     132
/* IP-Compression-Protocol values: Van Jacobson, and the value of RFC 1172's era. */
#define IPCP_VJ		     0x002D
#define IPCP_VJ_OLD	     0x0037

/* IPv6CP options (RFC 5072). */
#define IPV6CP_OPT_IFID	       1
#define IPV6CP_OPT_COMPRESSION 2

/* PAP codes (RFC 1334). */
#define PAP_AUTH_REQ 1
#define PAP_AUTH_ACK 2
#define PAP_AUTH_NAK 3

/* CHAP codes (RFC 1994). */
#define CHAP_CHALLENGE 1
#define CHAP_RESPONSE  2
#define CHAP_SUCCESS   3
#define CHAP_FAILURE   4

#endif
