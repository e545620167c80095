/* SPDX-License-Identifier: GPL-2.0 */
/* Types shared by the PPP link and the authentication core (kept apart to avoid a cycle). */
#ifndef PXP_PPP_TYPES_H
#define PXP_PPP_TYPES_H

enum ppp_auth_proto {
	PPP_AUTH_NONE,
	PPP_AUTH_PAP,
	PPP_AUTH_CHAP_MD5,
	PPP_AUTH_MSCHAPV2,
};

#define PPP_NAME_MAX   255
#define PPP_SECRET_MAX 255

#endif
