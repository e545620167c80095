/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The struct that holds a member, from a pointer to that member: how a callback handed an
 * embedded part (an event handler, a session of the shell) finds its owner.
 */
#ifndef PXP_CONTAINER_OF_H
#define PXP_CONTAINER_OF_H

#include <stddef.h>

#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

#endif
