// SPDX-License-Identifier: GPL-2.0
#include "run_dir.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

const char *pxp_run_dir(void)
{
	const char *dir = getenv(PXP_RUN_DIR_ENV);

	return dir && dir[0] == '/' ? dir : PXP_RUN_DIR;
}

int pxp_run_dir_create(void)
{
	if (mkdir(pxp_run_dir(), 0700) && errno != EEXIST)
		return -errno;
	return 0;
}
