/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the DWARF loader's files (dwarf.c, dwarf_die.c). */
#ifndef C2C_TYPES_DWARF_INTERNAL_H
#define C2C_TYPES_DWARF_INTERNAL_H

#include <elfutils/libdw.h>

#include "types/types_internal.h"
#include "util/hashmap.h"

#define DWARF_MAX_DEPTH 512

/* One worker's state while it converts a run of compilation units. */
struct dwarf_cu_ctx {
	Dwarf *dbg;
	struct type_db *db; /* the worker's own db, absorbed in CU order later */
	/* type_dwarf_type_at: the loaded model, asked before converting. */
	const struct type_db *model;
	const char *path;
	struct err_msg *err; /* the worker's own */
	uint8_t addr_size;
	bool lazy_pointees; /* loading a subset: pointed-to structs stay shallow */
	bool want_decl;
	bool dedupe; /* more than one unit: fingerprint structs to reuse them */
	bool failed;
	unsigned int depth;
	struct hashmap shallow; /* ref -> struct converted without members */
	struct hashmap seen; /* struct fingerprint -> struct already converted */
};

const struct type *type_dwarf_convert(struct dwarf_cu_ctx *ctx, Dwarf_Die *die, bool full);

#endif
