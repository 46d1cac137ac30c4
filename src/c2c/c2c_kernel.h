/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel code for attribution (c2c_attrib.c's helper): a kernel sample's
 * code address, named symbol+offset by kallsyms (or the vmlinux), is found
 * at the same offset of the same function in a debug file: --vmlinux, the
 * --kernel-debug files (modules, single objects), else the first vmlinux
 * found where distributions and perf keep them. A file is only trusted for
 * the running kernel when its build-id matches the recording's, or else
 * when the function's size agrees with the kernel's; otherwise the sample
 * is refused with its reason.
 */
#ifndef C2C_C2C_KERNEL_H
#define C2C_C2C_KERNEL_H

#include <stdint.h>

#include "attrib/attrib.h"
#include "c2c/c2c_session.h"

struct c2c_kernel;

/* The debug files of s's options, opened on first use. Never NULL. */
struct c2c_kernel *c2c_kernel_new(const struct c2c_session *s);
void c2c_kernel_free(struct c2c_kernel *k);

/*
 * Where kernel row r's code is: *a and the binary-relative *pc, and
 * ATTRIB_OK; else the C2C_ATTRIB_KERNEL_* reason it is refused for. *addr
 * is the row's data address in the file's terms (a vmlinux's, through the
 * kernel map's _text), 0 when unknown (a module or object: per-cpu and
 * relocated data have no known runtime address).
 */
int c2c_kernel_locate(struct c2c_kernel *k, struct c2c_session *s, const struct c2c_row *r,
		      struct attrib **a, uint64_t *pc, uint64_t *addr);
/* Debug files opened (for --stats). */
size_t c2c_kernel_nr_opened(const struct c2c_kernel *k);
/* What went wrong, one line each: files that did not open, none found (what to install). */
const char *c2c_kernel_problems(const struct c2c_kernel *k);

#endif
