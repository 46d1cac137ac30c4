// SPDX-License-Identifier: GPL-2.0
/*
 * C declarations spelled exactly as pahole 1.24 spells them in member lines
 * (dwarves_fprintf.c: __tag__name, tag__ptr_name, type__fprintf,
 * array_type__fprintf, ftype__fprintf), quirks included: "const char  *",
 * "char * *", "int (*fn)(struct big *, const char  *, ...)". Users diff
 * this text against pahole's, so it must match byte for byte.
 */
#include "layout/layout_int.h"

#include <string.h>

static const char *kind_prefix(const struct type *t)
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

static void format_ftype(struct strbuf *sb, const struct type *f, const char *name, bool is_pointer,
			 int type_spacing);

static void format_ptr_name(struct strbuf *sb, const struct type *t, const char *suffix)
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
	layout_format_type_name(sb, target);
	strbuf_addch(sb, ' ');
	strbuf_addstr(sb, const_pointer);
	strbuf_addstr(sb, suffix);
}

static void format_qualified(struct strbuf *sb, const struct type *t)
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
	layout_format_type_name(sb, t->target);
	strbuf_addstr(sb, suffix);
	strbuf_addch(sb, ' ');
}

void layout_format_type_name(struct strbuf *sb, const struct type *t)
{
	if (!t || t->kind == TYPE_VOID) {
		strbuf_addstr(sb, "void");
		return;
	}
	switch (t->kind) {
	case TYPE_POINTER:
		format_ptr_name(sb, t, "*");
		break;
	case TYPE_CONST:
	case TYPE_VOLATILE:
	case TYPE_RESTRICT:
	case TYPE_ATOMIC:
		format_qualified(sb, t);
		break;
	case TYPE_ARRAY:
		layout_format_type_name(sb, t->target);
		break;
	case TYPE_FUNC:
		format_ftype(sb, t, NULL, false, 0);
		break;
	case TYPE_BASE:
		strbuf_addstr(sb, t->name ? t->name : "nameless base type!");
		break;
	default:
		strbuf_addstr(sb, kind_prefix(t));
		strbuf_addstr(sb, t->name ? t->name : "");
		break;
	}
}

static void format_params(struct strbuf *sb, const struct type *f)
{
	uint32_t i;

	strbuf_addch(sb, '(');
	for (i = 0; i < f->nr_params; i++) {
		const struct type *p = f->params[i];

		if (i)
			strbuf_addstr(sb, ", ");
		if (p && p->kind == TYPE_POINTER && p->target && p->target->kind == TYPE_FUNC)
			format_ftype(sb, p->target, NULL, true, 0);
		else
			layout_format_type_name(sb, p);
	}
	if (!f->nr_params)
		strbuf_addstr(sb, "void)");
	else if (f->variadic)
		strbuf_addstr(sb, ", ...)");
	else
		strbuf_addch(sb, ')');
}

/* ftype__fprintf with is_prototype set: "RET<pad> (*NAME)(PARAMS)". */
static void format_ftype(struct strbuf *sb, const struct type *f, const char *name, bool is_pointer,
			 int type_spacing)
{
	size_t start = sb->len;

	/* "%-*s": a negative width pads the same */
	layout_format_type_name(sb, f->target);
	strbuf_pad_to(sb, start, (size_t)(type_spacing < 0 ? -type_spacing : type_spacing));
	strbuf_addstr(sb, is_pointer ? " (*" : " (");
	strbuf_addstr(sb, name ? name : "");
	strbuf_addch(sb, ')');
	format_params(sb, f);
}

const struct type *layout_array_elem(const struct type *t)
{
	const struct type *elem = t->target;

	/* pahole drops the const of a zero-sized array's element */
	if (t->nr_dims >= 1 && t->dims[0] == 0 && elem && elem->kind == TYPE_CONST)
		elem = elem->target;
	return elem;
}

void layout_format_dims(struct strbuf *sb, const struct type *t, const struct decl_ctx *ctx)
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

static void format_array(struct strbuf *sb, const struct type *t, const char *name,
			 int type_spacing, const struct decl_ctx *ctx)
{
	layout_format_decl(sb, layout_array_elem(t), name, type_spacing, ctx);
	layout_format_dims(sb, t, ctx);
}

size_t layout_format_decl(struct strbuf *sb, const struct type *t, const char *name,
			  int type_spacing, const struct decl_ctx *ctx)
{
	size_t start = sb->len, tstart;

	if (!name)
		name = "";
	while (t && t->kind == TYPE_CONST && t->target) {
		strbuf_addstr(sb, "const ");
		type_spacing -= 6;
		t = t->target;
	}
	if (t && t->kind == TYPE_POINTER && t->target && t->target->kind == TYPE_FUNC) {
		format_ftype(sb, t->target, name, true, type_spacing);
	} else if (t && t->kind == TYPE_FUNC) {
		format_ftype(sb, t, name, false, type_spacing);
	} else if (t && t->kind == TYPE_ARRAY) {
		format_array(sb, t, name, type_spacing, ctx);
	} else {
		tstart = sb->len;
		if (t && t->name &&
		    (t->kind == TYPE_STRUCT || t->kind == TYPE_UNION || t->kind == TYPE_ENUM ||
		     t->kind == TYPE_FWD)) {
			/* pahole: "struct %-*s" with width type_spacing - 7, which
			 * differs from padding the whole once the width is negative */
			strbuf_addstr(sb, kind_prefix(t));
			type_spacing -= (int)(sb->len - tstart);
			tstart = sb->len;
			strbuf_addstr(sb, t->name);
		} else {
			layout_format_type_name(sb, t);
		}
		strbuf_pad_to(sb, tstart,
			      (size_t)(type_spacing < 0 ? -type_spacing : type_spacing));
		strbuf_addch(sb, ' ');
		strbuf_addstr(sb, name);
	}
	return sb->len - start;
}
