/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checks the command line makes before it starts anything, so that a user reads the cause
 * ("no such interface eth9", "eth0: link is down (no carrier)") instead of an errno from
 * deep inside, or a wait for PADOs that cannot come.
 *
 * Concurrency: called once at start-up, before the daemon forks.
 */
#ifndef PXP_PREFLIGHT_H
#define PXP_PREFLIGHT_H

/* What a down link means to the command. */
enum preflight_link {
	PREFLIGHT_LINK_ANY,  /* nothing: an access concentrator waits for PADIs anyway */
	PREFLIGHT_LINK_WARN, /* a warning: up --persist retries discovery until it is up */
	PREFLIGHT_LINK_UP,   /* an error: up and discover would wait for PADOs in vain */
};

/*
 * 0 if IFACE exists and its link is as the command needs. With PREFLIGHT_LINK_UP an
 * interface that is up without a carrier is given carrier_wait_ms to get one (a port just
 * set up negotiates its link for a second or more; pppd would send its first PADI into it
 * and wait as long). -ENODEV if there is no such interface, -ENETDOWN if its link is down
 * (not up, or no carrier) and must be up; each after logging it.
 */
int preflight_iface(const char *iface, enum preflight_link need, unsigned int carrier_wait_ms);

#endif
