// SPDX-License-Identifier: GPL-2.0
/*
 * C declarations spelled exactly as pahole 1.24 spells them in member lines
 * (dwarves_fprintf.c: __tag__name, tag__ptr_name, type__fprintf,
 * array_type__fprintf, ftype__fprintf), quirks included: "const char  *",
 * "char * *", "int (*fn)(struct big *, const char  *, ...)". Users diff
 * this text against pahole's, so it must match byte for byte. The one
 * spelling engine behind type_format_decl/member and the layout printer.
 */
#include "types/types_internal.h"

#include <string.h>

const char *type_keyword(const struct type *t)
{
	switch (t->kind) {
	case TYPE_FWD:
		return t->fwd_union ? "union " : "struct ";
	case TYPE_STRUCT:
		return "struct ";
	case TYPE_UNION:
		return "union ";
	case TYPE_ENUM:
		return "enum ";
	default:
		return "";
	}
}

bool type_name_ends(struct strbuf *sb, const struct type *t, int depth)
{
	if (depth > TYPE_MAX_DEPTH) {
		strbuf_addstr(sb, "<loop>");
		return true;
	}
	if (!t || t->kind == TYPE_VOID) {
		strbuf_addstr(sb, "void");
		return true;
	}
	return false;
}

void type_params(struct strbuf *sb, const struct type *f,
		 void (*param)(struct strbuf *sb, const struct type *p, void *arg), void *arg)
{
	uint32_t i;

	strbuf_addch(sb, '(');
	for (i = 0; i < f->nr_params; i++) {
		if (i)
			strbuf_addstr(sb, ", ");
		param(sb, f->params[i], arg);
	}
	if (!f->nr_params)
		strbuf_addstr(sb, "void)");
	else if (f->variadic)
		strbuf_addstr(sb, ", ...)");
	else
		strbuf_addch(sb, ')');
}

static void type_name(struct strbuf *sb, const struct type *t, bool braces, int depth);
static void format_ftype(struct strbuf *sb, const struct type *f, const char *name, bool is_pointer,
			 int type_spacing, bool braces, int depth);

static void format_ptr_name(struct strbuf *sb, const struct type *t, const char *suffix,
			    bool braces, int depth)
{
	const struct type *target = t->target;
	const char *const_pointer = "";

	if (!target) {
		strbuf_addstr(sb, "void ");
		strbuf_addstr(sb, suffix);
		return;
	}
	if (target->kind == TYPE_CONST && target->target && target->target->kind == TYPE_POINTER) {
		const_pointer = "const ";
		target = target->target;
	}
	type_name(sb, target, braces, depth + 1);
	strbuf_addch(sb, ' ');
	strbuf_addstr(sb, const_pointer);
	strbuf_addstr(sb, suffix);
}

static void format_qualified(struct strbuf *sb, const struct type *t, bool braces, int depth)
{
	const char *prefix = "", *suffix = "";

	switch (t->kind) {
	case TYPE_CONST:
		prefix = "const ";
		break;
	case TYPE_VOLATILE:
		prefix = "volatile ";
		break;
	case TYPE_RESTRICT:
		suffix = " restrict";
		break;
	case TYPE_ATOMIC:
		prefix = "_Atomic ";
		break;
	default:
		break;
	}
	strbuf_addstr(sb, prefix);
	type_name(sb, t->target, braces, depth + 1);
	strbuf_addstr(sb, suffix);
	strbuf_addch(sb, ' ');
}

/* pahole's tag__name; braces: anonymous aggregates as "struct {...}". */
static void type_name(struct strbuf *sb, const struct type *t, bool braces, int depth)
{
	if (type_name_ends(sb, t, depth))
		return;
	switch (t->kind) {
	case TYPE_POINTER:
		format_ptr_name(sb, t, "*", braces, depth);
		break;
	case TYPE_CONST:
	case TYPE_VOLATILE:
	case TYPE_RESTRICT:
	case TYPE_ATOMIC:
		format_qualified(sb, t, braces, depth);
		break;
	case TYPE_ARRAY:
		type_name(sb, t->target, braces, depth + 1);
		break;
	case TYPE_FUNC:
		format_ftype(sb, t, NULL, false, 0, braces, depth);
		break;
	case TYPE_BASE:
		strbuf_addstr(sb, t->name ? t->name : "nameless base type!");
		break;
	default:
		strbuf_addstr(sb, type_keyword(t));
		strbuf_addstr(sb, t->name ? t->name : braces ? "{...}" : "");
		break;
	}
}

/* What the parameters of a function at depth are spelled with. */
struct param_spelling {
	bool braces;
	int depth;
};

static void format_param(struct strbuf *sb, const struct type *p, void *arg)
{
	const struct param_spelling *ps = arg;

	if (p && p->kind == TYPE_POINTER && p->target && p->target->kind == TYPE_FUNC)
		format_ftype(sb, p->target, NULL, true, 0, ps->braces, ps->depth + 1);
	else
		type_name(sb, p, ps->braces, ps->depth + 1);
}

/* "%-*s": a negative width pads the same as a positive one */
static size_t width(int type_spacing)
{
	return (size_t)(type_spacing < 0 ? -type_spacing : type_spacing);
}

/* ftype__fprintf with is_prototype set: "RET<pad> (*NAME)(PARAMS)". */
static void format_ftype(struct strbuf *sb, const struct type *f, const char *name, bool is_pointer,
			 int type_spacing, bool braces, int depth)
{
	size_t start = sb->len;

	type_name(sb, f->target, braces, depth + 1);
	strbuf_pad_to(sb, start, width(type_spacing));
	strbuf_addstr(sb, is_pointer ? " (*" : " (");
	strbuf_addstr(sb, name ? name : "");
	strbuf_addch(sb, ')');
	type_params(sb, f, format_param, &(struct param_spelling){ braces, depth });
}

void type_format_pahole_name(struct strbuf *sb, const struct type *t)
{
	type_name(sb, t, false, 0);
}

const struct type *type_array_elem(const struct type *t)
{
	const struct type *elem = t->target;

	/* pahole drops the const of a zero-sized array's element */
	if (t->nr_dims >= 1 && t->dims[0] == 0 && elem && elem->kind == TYPE_CONST)
		elem = elem->target;
	return elem;
}

void type_format_dims(struct strbuf *sb, const struct type *t, const struct type_decl_ctx *ctx)
{
	bool single = ctx->last_member && ctx->first_member;
	uint32_t i;

	for (i = 0; i < t->nr_dims; i++) {
		if (t->dims[i] != 0 || !ctx->last_member || single || ctx->union_member)
			strbuf_addf(sb, "[%u]", (unsigned int)t->dims[i]);
		else
			strbuf_addstr(sb, "[]");
	}
}

/* pad: type_spacing 0 asks for no padding at all (JSON's type spelling) */
static void format_decl(struct strbuf *sb, const struct type *t, const char *name, int type_spacing,
			const struct type_decl_ctx *ctx, int depth, bool pad)
{
	size_t tstart;

	while (t && t->kind == TYPE_CONST && t->target) {
		strbuf_addstr(sb, "const ");
		type_spacing -= 6;
		t = t->target;
	}
	if (t && t->kind == TYPE_POINTER && t->target && t->target->kind == TYPE_FUNC) {
		format_ftype(sb, t->target, name, true, type_spacing, ctx->anon_braces, depth);
	} else if (t && t->kind == TYPE_FUNC) {
		format_ftype(sb, t, name, false, type_spacing, ctx->anon_braces, depth);
	} else if (t && t->kind == TYPE_ARRAY && depth <= TYPE_MAX_DEPTH) {
		format_decl(sb, type_array_elem(t), name, type_spacing, ctx, depth + 1, pad);
		type_format_dims(sb, t, ctx);
	} else {
		tstart = sb->len;
		if (t && t->name && pad &&
		    (t->kind == TYPE_STRUCT || t->kind == TYPE_UNION || t->kind == TYPE_ENUM ||
		     t->kind == TYPE_FWD)) {
			/* pahole: "struct %-*s" with width type_spacing - 7, which
			 * differs from padding the whole once the width is negative */
			strbuf_addstr(sb, type_keyword(t));
			type_spacing -= (int)(sb->len - tstart);
			tstart = sb->len;
			strbuf_addstr(sb, t->name);
		} else {
			type_name(sb, t, ctx->anon_braces, depth + 1);
		}
		strbuf_pad_to(sb, tstart, width(type_spacing));
		strbuf_addch(sb, ' ');
		strbuf_addstr(sb, name);
	}
}

size_t type_format_pahole_decl(struct strbuf *sb, const struct type *t, const char *name,
			       int type_spacing, const struct type_decl_ctx *ctx)
{
	size_t start = sb->len;

	format_decl(sb, t, name ? name : "", type_spacing, ctx, 0, type_spacing != 0);
	return sb->len - start;
}
