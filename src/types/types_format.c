// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers over the type model: stripping, sizes, alignment, structural
 * equality, and C declarations spelled the way pahole 1.24 prints member
 * types (its quirks included: "const char  *", "void * *", the return type
 * of a function pointer padded to the type column).
 */
#include <string.h>

#include "types/types_internal.h"

#define TYPE_SPACING 26

const struct type *type_strip(const struct type *t)
{
	int depth = 0;

	while (t && depth++ < TYPE_MAX_DEPTH) {
		switch (t->kind) {
		case TYPE_TYPEDEF:
		case TYPE_CONST:
		case TYPE_VOLATILE:
		case TYPE_RESTRICT:
		case TYPE_ATOMIC:
			t = t->target;
			break;
		default:
			return t;
		}
	}
	return t;
}

static bool is_qualifier(const struct type *t)
{
	return t->kind == TYPE_CONST || t->kind == TYPE_VOLATILE || t->kind == TYPE_RESTRICT ||
	       t->kind == TYPE_ATOMIC;
}

const struct type *type_strip_cv(const struct type *t)
{
	int depth = 0;

	while (t && is_qualifier(t) && depth++ < TYPE_MAX_DEPTH)
		t = t->target;
	return t;
}

uint64_t type_size(const struct type *t)
{
	t = type_strip(t);
	return t ? t->size : 0;
}

bool type_is_aggregate(const struct type *t)
{
	t = type_strip(t);
	return t && (t->kind == TYPE_STRUCT || t->kind == TYPE_UNION);
}

/*
 * The walks below have no memory of what they computed: a damaged file
 * whose struct holds many members of a struct that holds many of the first
 * (fuzz_dwarf found one) makes them exponential even under the depth bound.
 * Each top-level question gets this many steps; real types need far fewer
 * (the kernel's task_struct, all nested members walked, a few thousand).
 */
#define ALIGN_WALK_STEPS (1u << 20)

static uint32_t alignment_of(const struct type *t, int depth, uint32_t *steps);

static uint32_t aggregate_alignment(const struct type *t, int depth, uint32_t *steps)
{
	uint32_t align = 1, i;

	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		uint32_t a = m->alignment;

		if (!a)
			a = t->packed ? 1 : alignment_of(m->type, depth + 1, steps);
		if (a > align)
			align = a;
	}
	return align;
}

static uint32_t alignment_of(const struct type *t, int depth, uint32_t *steps)
{
	if (!t || depth > TYPE_MAX_DEPTH || !*steps)
		return 1;
	--*steps;
	if (t->alignment)
		return t->alignment;
	switch (t->kind) {
	case TYPE_BASE:
	case TYPE_ENUM:
	case TYPE_POINTER:
		/* Power-of-two sizes up to 16 align to themselves on the ABIs we read. */
		if (t->size && !(t->size & (t->size - 1)) && t->size <= 16)
			return (uint32_t)t->size;
		return t->size > 16 ? 16 : 1;
	case TYPE_ARRAY:
	case TYPE_TYPEDEF:
	case TYPE_CONST:
	case TYPE_VOLATILE:
	case TYPE_RESTRICT:
	case TYPE_ATOMIC:
		return alignment_of(t->target, depth + 1, steps);
	case TYPE_STRUCT:
	case TYPE_UNION:
		return aggregate_alignment(t, depth, steps);
	default:
		return 1;
	}
}

/* depth: a damaged file may make a struct hold itself (BTF fuzzing found one) */
static uint32_t natural_alignment(const struct type *t, int depth, uint32_t *steps)
{
	uint32_t a = 1, i;

	t = type_strip(t);
	if (!t || depth > TYPE_MAX_DEPTH || !*steps)
		return 1;
	--*steps;
	switch (t->kind) {
	case TYPE_POINTER:
		return 8;
	case TYPE_BASE:
	case TYPE_ENUM:
		return t->size ? (uint32_t)t->size : 1;
	case TYPE_ARRAY:
		return natural_alignment(t->target, depth + 1, steps);
	case TYPE_STRUCT:
	case TYPE_UNION:
		for (i = 0; i < t->nr_members; i++) {
			uint32_t ma = natural_alignment(t->members[i].type, depth + 1, steps);

			if (ma > a)
				a = ma;
		}
		return a;
	default:
		return 1;
	}
}

uint32_t type_natural_alignment(const struct type *t)
{
	uint32_t steps = ALIGN_WALK_STEPS;

	return natural_alignment(t, 0, &steps);
}

uint32_t type_alignment(const struct type *t)
{
	uint32_t steps = ALIGN_WALK_STEPS;

	return alignment_of(t, 0, &steps);
}

bool type_infer_packed(const struct type *t, bool own_alignment)
{
	uint32_t i, max_align = 1;

	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		uint32_t a = type_alignment(m->type);

		if (m->alignment > a)
			a = m->alignment;
		if (a > max_align)
			max_align = a;
		if (!m->bit_size && a && m->offset % a)
			return true;
	}
	if (own_alignment && t->alignment > max_align)
		max_align = t->alignment;
	return t->nr_members && t->size % max_align;
}

/* --- structural equality (dedupe across compilation units) ------------- */

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool type_equal(const struct type *a, const struct type *b, int depth);

static bool members_equal(const struct type *a, const struct type *b, int depth)
{
	uint32_t i;

	if (a->nr_members != b->nr_members)
		return false;
	for (i = 0; i < a->nr_members; i++) {
		const struct type_member *x = &a->members[i], *y = &b->members[i];

		if (!str_eq(x->name, y->name) || x->bit_offset != y->bit_offset ||
		    x->bit_size != y->bit_size || x->alignment != y->alignment ||
		    x->offset != y->offset || !type_equal(x->type, y->type, depth + 1))
			return false;
	}
	return true;
}

static bool func_equal(const struct type *a, const struct type *b, int depth)
{
	uint32_t i;

	if (a->nr_params != b->nr_params || a->variadic != b->variadic ||
	    !type_equal(a->target, b->target, depth + 1))
		return false;
	for (i = 0; i < a->nr_params; i++)
		if (!type_equal(a->params[i], b->params[i], depth + 1))
			return false;
	return true;
}

static bool enum_equal(const struct type *a, const struct type *b)
{
	uint32_t i;

	if (a->nr_enumerators != b->nr_enumerators)
		return false;
	for (i = 0; i < a->nr_enumerators; i++)
		if (!str_eq(a->enumerators[i].name, b->enumerators[i].name) ||
		    a->enumerators[i].value != b->enumerators[i].value)
			return false;
	return true;
}

static bool is_named_leaf(const struct type *t)
{
	return t->name && (t->kind == TYPE_STRUCT || t->kind == TYPE_UNION || t->kind == TYPE_FWD ||
			   t->kind == TYPE_ENUM);
}

/*
 * Types are equal when they would print and lay out the same. A named struct
 * met through a member is compared by name and size only: its own
 * definition is indexed (and compared) separately.
 */
static bool type_equal(const struct type *a, const struct type *b, int depth)
{
	if (a == b)
		return true;
	if (!a || !b || depth > TYPE_MAX_DEPTH)
		return false;
	if (is_named_leaf(a) && is_named_leaf(b))
		return (a->kind == b->kind || a->kind == TYPE_FWD || b->kind == TYPE_FWD) &&
		       !strcmp(a->name, b->name) &&
		       (a->kind == TYPE_FWD || b->kind == TYPE_FWD || a->size == b->size);
	if (a->kind != b->kind || !str_eq(a->name, b->name) || a->size != b->size ||
	    a->alignment != b->alignment || a->packed != b->packed)
		return false;
	switch (a->kind) {
	case TYPE_BASE:
		return a->encoding == b->encoding;
	case TYPE_STRUCT:
	case TYPE_UNION:
		return members_equal(a, b, depth);
	case TYPE_ENUM:
		return enum_equal(a, b);
	case TYPE_ARRAY:
		/* an array of no dimension (damaged DWARF) has no dims to compare */
		if (a->nr_dims != b->nr_dims ||
		    (a->nr_dims && memcmp(a->dims, b->dims, a->nr_dims * sizeof(*a->dims))))
			return false;
		return type_equal(a->target, b->target, depth + 1);
	case TYPE_FUNC:
		return func_equal(a, b, depth);
	case TYPE_TYPEDEF:
		/* Same name: same meaning unless the size differs. */
		return type_size(a) == type_size(b);
	default:
		return type_equal(a->target, b->target, depth + 1);
	}
}

bool type_struct_equal(const struct type *a, const struct type *b)
{
	if (a->kind != b->kind || !str_eq(a->name, b->name) || a->size != b->size ||
	    a->alignment != b->alignment || a->packed != b->packed)
		return false;
	return members_equal(a, b, 0);
}

/* --- names and declarations -------------------------------------------- */

/*
 * type_format_name's C spelling ("const char *", "int (*)(void *)");
 * the pahole spelling of declarations is types_decl.c's.
 */
static void name_of(struct strbuf *sb, const struct type *t, int depth);

static const char *qualifier_of(const struct type *t)
{
	switch (t->kind) {
	case TYPE_CONST:
		return "const";
	case TYPE_VOLATILE:
		return "volatile";
	case TYPE_ATOMIC:
		return "_Atomic";
	default:
		return "";
	}
}

static void param_of(struct strbuf *sb, const struct type *p, void *depth)
{
	name_of(sb, p, *(const int *)depth);
}

/* The parameters of a function met at depth: each one a level deeper. */
static void params_of(struct strbuf *sb, const struct type *f, int depth)
{
	int param_depth = depth + 1;

	type_params(sb, f, param_of, &param_depth);
}

static void pointer_name(struct strbuf *sb, const struct type *t, int depth)
{
	const struct type *target = t->target;

	if (!target || target->kind == TYPE_VOID) {
		strbuf_addstr(sb, "void *");
	} else if (target->kind == TYPE_FUNC) {
		name_of(sb, target->target, depth + 1);
		strbuf_addstr(sb, " (*)");
		params_of(sb, target, depth + 1);
	} else {
		name_of(sb, target, depth + 1);
		strbuf_addstr(sb, sb->len && sb->buf[sb->len - 1] == '*' ? "*" : " *");
	}
}

static void name_of(struct strbuf *sb, const struct type *t, int depth)
{
	uint32_t i;

	if (type_name_ends(sb, t, depth))
		return;
	switch (t->kind) {
	case TYPE_POINTER:
		pointer_name(sb, t, depth);
		break;
	case TYPE_CONST:
	case TYPE_VOLATILE:
	case TYPE_ATOMIC:
	case TYPE_RESTRICT:
		if (t->target && t->target->kind == TYPE_POINTER) {
			name_of(sb, t->target, depth + 1);
			strbuf_addch(sb, ' ');
			strbuf_addstr(sb, t->kind == TYPE_RESTRICT ? "restrict" : qualifier_of(t));
			break;
		}
		if (t->kind != TYPE_RESTRICT) {
			strbuf_addstr(sb, qualifier_of(t));
			strbuf_addch(sb, ' ');
		}
		name_of(sb, t->target, depth + 1);
		if (t->kind == TYPE_RESTRICT)
			strbuf_addstr(sb, " restrict");
		break;
	case TYPE_ARRAY:
		name_of(sb, t->target, depth + 1);
		for (i = 0; i < t->nr_dims; i++) {
			if (t->dims[i])
				strbuf_addf(sb, "[%llu]", (unsigned long long)t->dims[i]);
			else
				strbuf_addstr(sb, "[]");
		}
		break;
	case TYPE_FUNC:
		name_of(sb, t->target, depth + 1);
		strbuf_addch(sb, ' ');
		params_of(sb, t, depth + 1);
		break;
	default:
		strbuf_addstr(sb, type_keyword(t));
		strbuf_addstr(sb, t->name ? t->name : "{...}");
		break;
	}
}

void type_format_name(struct strbuf *sb, const struct type *t)
{
	name_of(sb, t, 0);
}

void type_format_decl(struct strbuf *sb, const struct type *t, const char *name)
{
	/* a lone declaration: a zero-length array is flexible */
	static const struct type_decl_ctx ctx = { .last_member = true, .anon_braces = true };

	if (!name) {
		type_format_name(sb, t);
		return;
	}
	type_format_pahole_decl(sb, t, name, TYPE_SPACING, &ctx);
}

void type_format_member(struct strbuf *sb, const struct type *parent, uint32_t i)
{
	const struct type_member *m = &parent->members[i];
	struct type_decl_ctx ctx = {
		.first_member = i == 0,
		.last_member = i + 1 == parent->nr_members,
		.union_member = parent->kind == TYPE_UNION,
		.anon_braces = true,
	};

	type_format_pahole_decl(sb, m->type, m->name, TYPE_SPACING, &ctx);
}
