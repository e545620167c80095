// SPDX-License-Identifier: GPL-2.0
#include "run_dir.h"

#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef PXP_RUN_DIR
#error "PXP_RUN_DIR comes from the Makefile's RUN_DIR"
#endif
#ifndef PXP_STATE_DIR
#error "PXP_STATE_DIR comes from the Makefile's STATE_DIR"
#endif

const char *pxp_run_dir(void)
{
	const char *dir = getenv(PXP_RUN_DIR_ENV);

	return dir && dir[0] == '/' ? dir : PXP_RUN_DIR;
}

const char *pxp_state_dir(void)
{
	const char *dir = getenv(PXP_STATE_DIR_ENV);

	return dir && dir[0] == '/' ? dir : PXP_STATE_DIR;
}

int pxp_run_dir_create(void)
{
	if (mkdir(pxp_run_dir(), 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

int pxp_run_dir_for_each(const char *suffix, void (*fn)(void *ctx, const char *iface), void *ctx)
{
	size_t suffix_len = strlen(suffix);
	struct dirent *de;
	DIR *dir;

	dir = opendir(pxp_run_dir());
	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(dir))) {
		char iface[IF_NAMESIZE];
		size_t len = strlen(de->d_name);

		if (len <= suffix_len || len - suffix_len >= IF_NAMESIZE ||
		    strcmp(de->d_name + len - suffix_len, suffix))
			continue;
		memcpy(iface, de->d_name, len - suffix_len);
		iface[len - suffix_len] = '\0';
		fn(ctx, iface);
	}
	closedir(dir);
	return 0;
}
