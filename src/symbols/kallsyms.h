/* SPDX-License-Identifier: GPL-2.0 */
/* /proc/kallsyms (or a saved copy): kernel address -> function name. */
#ifndef C2C_SYMBOLS_KALLSYMS_H
#define C2C_SYMBOLS_KALLSYMS_H

#include <stdint.h>

struct kallsyms;

/* NULL when the file is missing or every address is hidden (all zero). */
struct kallsyms *kallsyms_load(const char *path);
void kallsyms_free(struct kallsyms *k);
/* The symbol at or below addr (text symbols), offset into it; NULL if none. */
const char *kallsyms_lookup(const struct kallsyms *k, uint64_t addr, uint64_t *offset);
/*
 * The bytes from that symbol to the next text symbol: its size plus the
 * padding before the next (kallsyms has no sizes); 0 for the last or none.
 */
uint64_t kallsyms_extent(const struct kallsyms *k, uint64_t addr);

#endif
