/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixed-width types for blkgen's pure algorithm code (histogram, PRNG,
 * distributions, arrivals). Those files include only this header, so the
 * module and the host unit tests compile them unchanged.
 */
#ifndef _BLKGEN_PURE_H
#define _BLKGEN_PURE_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/string.h>
#include <linux/compiler.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <linux/types.h>	/* the UAPI __u64 family, as in the kernel */

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;

/* A shared byte another thread may change (the kernel's, simplified). */
#define READ_ONCE(x)	__atomic_load_n(&(x), __ATOMIC_RELAXED)
/* __always_inline: glibc's, from <sys/cdefs.h> through <string.h>. */
#endif

#endif /* _BLKGEN_PURE_H */
