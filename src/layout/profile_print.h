/* SPDX-License-Identifier: GPL-2.0 */
/*
 * layout --profile: pahole's layout of a struct with each top-level
 * member's access profile beside it (" hitm L/R ld N st N r:funcs w:funcs"),
 * "<- false sharing" on members of a line where a field some contexts write
 * sits with a field other contexts touch, "<- true
 * sharing" on a field several contexts write, and one verdict line per
 * finding after the layout.
 */
#ifndef C2C_LAYOUT_PROFILE_PRINT_H
#define C2C_LAYOUT_PROFILE_PRINT_H

#include "layout/layout.h"
#include "layout/profile.h"

/* opts may be NULL; its annotate hook is replaced. */
void profile_print_layout(struct strbuf *sb, const struct type *t, const struct struct_profile *p,
			  const struct layout_print_opts *opts);

#endif
