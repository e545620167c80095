// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD=clock_back.so with PXP_CLOCK_BACK_S=N makes a process's wall clock N seconds
 * behind the host's, as on a router without an RTC that booted at its firmware's build
 * time: CLOCK_REALTIME (and gettimeofday, time) minus N. The monotonic clocks are unchanged,
 * as there. Every call goes to libc with the time moved after it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static time_t back(void)
{
	const char *s = getenv("PXP_CLOCK_BACK_S");

	return s ? (time_t)strtoll(s, NULL, 10) : 0;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	static int (*real)(clockid_t, struct timespec *);
	int r;

	if (!real)
		real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
	r = real(id, ts);
	if (!r && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE))
		ts->tv_sec -= back();
	return r;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	struct timespec ts;

	(void)tz;
	if (clock_gettime(CLOCK_REALTIME, &ts))
		return -1;
	tv->tv_sec = ts.tv_sec;
	tv->tv_usec = ts.tv_nsec / 1000;
	return 0;
}

time_t time(time_t *t)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (t)
		*t = ts.tv_sec;
	return ts.tv_sec;
}
