/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PXP_CPU_RELAX_H
#define PXP_CPU_RELAX_H

/* Tell the CPU this is a spin-wait (saves power, yields to the sibling hyperthread). */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
	__asm__ volatile("yield" ::: "memory");
#else
	__asm__ volatile("" ::: "memory");
#endif
}

#endif
