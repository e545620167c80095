// SPDX-License-Identifier: GPL-2.0
#include "mac.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int pxp_mac_parse(const char *s, uint8_t mac[PXP_MAC_LEN])
{
	unsigned int b[PXP_MAC_LEN];
	char tail;
	int i;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
		   &tail) != PXP_MAC_LEN ||
	    strlen(s) != 17)
		return -EINVAL;
	for (i = 0; i < PXP_MAC_LEN; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}
