/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Code addresses to symbol+offset, object and source:line. Each unique
 * (object, address) is resolved once and cached. User objects are found by
 * the mapped path (when its build id matches, if one is known), then in
 * perf's build-id cache under ~/.debug, then through debuginfod when
 * DEBUGINFOD_URLS is set (elfutils does the fetching); DWARF comes from
 * the object or its separate debug file. Kernel addresses resolve through
 * --vmlinux or kallsyms.
 */
#ifndef C2C_SYMBOLS_RESOLVE_H
#define C2C_SYMBOLS_RESOLVE_H

#include <stdbool.h>
#include <stdint.h>

#include "symbols/addr_space.h"

struct sym_info {
	const char *symbol; /* NULL when unknown */
	uint64_t sym_offset; /* ip - symbol start */
	/*
	 * The symbol's size from an ELF symbol table, or for kallsyms its
	 * extent (to the next symbol, padding included); 0 when unknown.
	 */
	uint64_t sym_size;
	bool sym_size_exact; /* from ELF, not a kallsyms extent */
	const char *dso; /* object short name, "[unknown]" without a map */
	const char *path; /* the file actually read, or NULL */
	const char *srcline; /* "file.c:12"; perf's fallback text when unknown */
	bool kernel;
};

struct sym_resolver_opts {
	const char *vmlinux; /* --vmlinux */
	const char *kallsyms; /* default /proc/kallsyms */
	const char *debug_dir; /* default $HOME/.debug */
	bool full_paths; /* source file with its directory */
};

struct sym_resolver;

struct sym_resolver *sym_resolver_new(const struct sym_resolver_opts *opts);
void sym_resolver_free(struct sym_resolver *r);
/* Never NULL; the result lives as long as the resolver. */
const struct sym_info *sym_resolve(struct sym_resolver *r, const struct as_map *map, uint64_t ip);
/*
 * The local file holding map's object, found as sym_resolve finds it (the
 * mapped path when its build id matches, ~/.debug's build-id cache,
 * debuginfod), or NULL: anonymous and kernel maps, or nothing found. Lives
 * as long as the resolver.
 */
const char *sym_resolver_object_path(struct sym_resolver *r, const struct as_map *map);

#endif
