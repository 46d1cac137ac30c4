/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the loaders (dwarf.c, btf.c) need from the db beyond the public
 * builder API: raw arena allocation, reference mapping, the -C filter, and
 * merging per-thread dbs. Private to src/types/.
 */
#ifndef C2C_TYPES_TYPES_INTERNAL_H
#define C2C_TYPES_TYPES_INTERNAL_H

#include "types/types.h"

/* Zeroed memory that lives as long as db (8-byte aligned). */
void *type_db_alloc(struct type_db *db, size_t size);
/* Intern a string of len bytes (not NUL-terminated). */
const char *type_db_intern_len(struct type_db *db, const char *s, size_t len);
/* A type not yet attached anywhere: like type_db_add, name NOT copied. */
struct type *type_db_add_raw(struct type_db *db, enum type_kind kind, const char *name);
void type_db_set_ref(struct type_db *db, uint64_t ref, const struct type *t);
/* Restrict type_db_struct's index to names matching these globs. */
void type_db_set_only(struct type_db *db, const char *const *only);
/* Whether NAME matches the only-list (true when there is none). */
bool type_db_wants(const struct type_db *db, const char *name);
/*
 * Whether to load the typedef NAME: only for an only-list that names it
 * exactly (pahole -C prints a typedef it is asked for by name).
 */
bool type_db_wants_typedef(const struct type_db *db, const char *name);
/*
 * The first struct or union that holds itself by value (through members,
 * arrays and typedefs), or NULL. Only a damaged file says so, and every
 * walk over the model would then recurse until its depth bound: the
 * loaders refuse such a file.
 */
const struct type *type_db_self_container(const struct type_db *db);
/* Move everything src owns into dst; src is freed. Order is kept. */
void type_db_absorb(struct type_db *dst, struct type_db *src);
void type_db_set_source(struct type_db *db, const char *source);
/* Call release(arg) when db is freed (memory that names point into). */
void type_db_keep(struct type_db *db, void (*release)(void *), void *arg);

/*
 * Whether a loaded struct must have been packed: a member below its
 * alignment, or a size that is not a multiple of the largest alignment
 * (with own_alignment, the struct's own forced alignment counts too, as
 * DW_AT_alignment does; BTF's is inferred from the same padding).
 */
bool type_infer_packed(const struct type *t, bool own_alignment);

/*
 * Called by the loaders once typedef td has its target, and for every
 * typedef by type_db_finish (models built by hand): an anonymous
 * struct or union it names (through qualifiers only) takes its name as
 * typedef_name, the first such typedef winning.
 */
void type_note_typedef(const struct type *td);

/* "struct ", "union " (union forward declarations too), "enum " or "". */
const char *type_keyword(const struct type *t);

/*
 * Where both spellings (pahole's and C's) of a type name stop: past
 * TYPE_MAX_DEPTH "<loop>", no type or void "void". True when it wrote one.
 */
bool type_name_ends(struct strbuf *sb, const struct type *t, int depth);

/*
 * Function f's parameter list, each parameter spelled by param(sb, p, arg):
 * "(a, b)", "(void)" when there are none, "(a, ...)" when variadic.
 */
void type_params(struct strbuf *sb, const struct type *f,
		 void (*param)(struct strbuf *sb, const struct type *p, void *arg), void *arg);

/* Structural equality used to deduplicate definitions across CUs. */
bool type_struct_equal(const struct type *a, const struct type *b);

int type_db_load_dwarf(const char *path, const struct type_load_opts *opts, struct type_db **out,
		       struct err_msg *err);
int type_db_load_btf(const char *path, const struct type_load_opts *opts, struct type_db **out,
		     struct err_msg *err);

#define TYPE_MAX_DEPTH 64

#endif
