/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DNS servers of a session (--usepeerdns) in a resolv.conf file, in one of two ways:
 * - our own file, RUN_DIR/IFACE.resolv.conf (no --resolv-file): it holds only our lines; it
 *   is replaced whole and deleted at the end;
 * - a shared file the user names (--resolv-file, e.g. /etc/resolv.conf or a file dnsmasq
 *   reads), edited as resolvconf would: our nameserver lines, each marked with a trailing
 *   "# pppoe-xp IFACE", go first (resolvers use only the first three); every other byte
 *   stays as it was; the file is never deleted. A symlink is followed (it stays a link).
 * Files are written whole to a temporary file, then renamed over, with the mode and owner
 * of the file they replace. A writer that edits the same file at the same moment without
 * a lock may lose its change or ours (as with resolvconf's users).
 */
#ifndef PXP_RESOLV_FILE_H
#define PXP_RESOLV_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "settings.h"

/* The largest shared file we edit; a larger one is refused with -EFBIG. */
#define RESOLV_FILE_MAX (1 << 20)
/* What our lines add at most: PXP_MAX_DNS lines of "nameserver ADDR # pppoe-xp IFACE\n". */
#define RESOLV_OURS_MAX (PXP_MAX_DNS * 64)

/*
 * Pure: text (len bytes) without the lines marked for iface, preceded by marked
 * nameserver lines for the non-zero addresses of dns[0..n-1] (network order; n = 0 only
 * removes), into out. Returns the new length, or -ENOSPC when cap is too small (len +
 * RESOLV_OURS_MAX always suffices).
 */
int resolv_edit(const char *text, size_t len, const char *iface, const uint32_t *dns,
		unsigned int n, char *out, size_t cap);

/* The file used: shared_path, or our own RUN_DIR/IFACE.resolv.conf when it is "". */
int resolv_file_path(const char *shared_path, const char *iface, char *path, size_t cap);
/*
 * Puts our lines for dns (PXP_MAX_DNS addresses, network order, 0 = none) in the file:
 * shared_path, or our own file when shared_path is "". Lines of ours already there (from
 * a crashed run) are replaced. 0 or -errno.
 */
int resolv_add(const char *shared_path, const char *iface, const uint32_t *dns);
/*
 * Takes our lines out of shared_path, leaving the rest and the file; deletes our own file
 * when shared_path is "". 0 (also when there was nothing of ours) or -errno.
 */
int resolv_remove(const char *shared_path, const char *iface);

#endif
