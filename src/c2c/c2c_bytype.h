/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Attributed samples per struct type and field (report --by-type), and a
 * struct's access profile from them (layout --profile, suggest --profile).
 * Only rows whose outermost object is a named struct or union count.
 */
#ifndef C2C_C2C_BYTYPE_H
#define C2C_C2C_BYTYPE_H

#include "config.h"
#include "c2c/c2c_attrib.h"
#include "profile/profile.h"
#include "util/strbuf.h"

#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

struct c2c_bytype;

struct c2c_bytype *c2c_bytype_build(struct c2c_session *s, const struct c2c_attrib *ca);
void c2c_bytype_free(struct c2c_bytype *bt);
/* Keep only the types whose name matches the fnmatch(3) GLOB; how many fields are left. */
size_t c2c_bytype_filter(struct c2c_bytype *bt, const char *glob);
/* The text section: one table row per (type, field), types by name, fields by offset. */
void c2c_bytype_render(const struct c2c_bytype *bt, struct strbuf *out);
/* The rows of that table (after filter and sort), and the struct type of row i. */
size_t c2c_bytype_nr_rows(const struct c2c_bytype *bt);
const char *c2c_bytype_row_type(const struct c2c_bytype *bt, size_t i);
#ifdef HAVE_JANSSON
/* [{"type": "counters", "fields": [{"field": "a", "lcl_hitm": ...}]}] */
json_t *c2c_bytype_json(const struct c2c_bytype *bt);
#endif
/* The profile of T's top-level fields from bt (see c2c_profile_from_session). */
struct struct_profile *c2c_bytype_profile(const struct c2c_bytype *bt, const struct type *t,
					  const char *origin);

#endif
