/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layout baselines: a saved `c2cscope layout --format json` (v1, see
 * doc/layout-json.md) read back into a type model through the types
 * builder API, so that check and diff treat it like DWARF or BTF.
 *
 * What a baseline cannot give back: nested types are not expanded (member
 * types are placeholders with the right size and spelling, or the saved
 * struct of that name when the baseline has it), so "a.b" paths reach only
 * into structs the baseline also lists.
 */
#ifndef C2C_LAYOUT_BASELINE_H
#define C2C_LAYOUT_BASELINE_H

#include <stdbool.h>

#include "types/types.h"
#include "util/err.h"

/* Whether PATH holds JSON (its first non-blank byte is '{'). */
bool baseline_is_json(const char *path);

/* Load a JSON baseline; errors name the file and the JSON path of the fault. */
int baseline_load(const char *path, struct type_db **out, struct c2c_err *err);

/*
 * Load any target: a JSON baseline, or an ELF/BTF file through
 * type_db_load(), or the running kernel's BTF when path is NULL.
 */
int baseline_load_any(const char *path, const struct type_load_opts *opts, struct type_db **out,
		      struct c2c_err *err);

#endif
