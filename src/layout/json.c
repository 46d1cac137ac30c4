// SPDX-License-Identifier: GPL-2.0
/*
 * `c2cscope layout --format json`: the v1 schema of doc/layout-json.md,
 * written with jansson. c2cscope check/diff read it back as a baseline.
 */
#include "config.h"

#include "layout/layout_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_JANSSON
#include <jansson.h>

static const char *kind_name(const struct type *t)
{
	static const char *const names[] = {
		[TYPE_VOID] = "void",	      [TYPE_BASE] = "base",
		[TYPE_ENUM] = "enum",	      [TYPE_POINTER] = "pointer",
		[TYPE_ARRAY] = "array",	      [TYPE_STRUCT] = "struct",
		[TYPE_UNION] = "union",	      [TYPE_TYPEDEF] = "typedef",
		[TYPE_CONST] = "const",	      [TYPE_VOLATILE] = "volatile",
		[TYPE_RESTRICT] = "restrict", [TYPE_ATOMIC] = "atomic",
		[TYPE_FUNC] = "func",	      [TYPE_FWD] = "fwd",
	};

	if (!t)
		return "void";
	if ((size_t)t->kind < sizeof(names) / sizeof(names[0]) && names[t->kind])
		return names[t->kind];
	return "unknown";
}

/* The member's type as pahole spells it, without a name: "struct inner[3]". */
static void type_spelling(struct strbuf *sb, const struct type *t)
{
	struct type_decl_ctx ctx = { false, false, false, false };

	if (t && (t->kind == TYPE_STRUCT || t->kind == TYPE_UNION) && !t->name) {
		strbuf_addstr(sb, t->kind == TYPE_STRUCT ? "struct {...}" : "union {...}");
		return;
	}
	if (t && t->kind == TYPE_ENUM && !t->name) {
		strbuf_addstr(sb, "enum {...}");
		return;
	}
	type_format_pahole_decl(sb, t, "", 0, &ctx);
	/* "%-*s %s" leaves the separator before the (empty) name. */
	while (sb->len && sb->buf[sb->len - 1] == ' ')
		strbuf_setlen(sb, sb->len - 1);
}

static json_t *json_member(const struct layout_member *lm)
{
	struct strbuf sb = STRBUF_INIT;
	const struct type *t = lm->member->type;
	json_t *o;

	type_spelling(&sb, t);
	o = json_pack("{s:o, s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "name",
		      lm->name ? json_string(lm->name) : json_null(), "type", sb.buf, "type_kind",
		      kind_name(t), "offset", (json_int_t)lm->offset, "size", (json_int_t)lm->size,
		      "bit_offset", (json_int_t)lm->bit_offset, "bit_size",
		      (json_int_t)lm->bit_size, "alignment", (json_int_t)lm->alignment,
		      "forced_alignment", (json_int_t)lm->forced_alignment, "cacheline",
		      (json_int_t)lm->cacheline, "hole_after", (json_int_t)lm->hole,
		      "bit_hole_after", (json_int_t)lm->bit_hole);
	strbuf_release(&sb);
	return o;
}

static json_t *json_struct(const struct layout *l)
{
	const struct layout_summary *s = layout_summary(l);
	const struct type *t = layout_type(l);
	json_t *o, *members = json_array();
	uint32_t i;

	for (i = 0; i < s->nr_members; i++)
		json_array_append_new(members, json_member(layout_member(l, i)));
	o = json_pack("{s:s?, s:s, s:I, s:I, s:I, s:b, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
		      "name", type_aggregate_name(t), "kind",
		      t->kind == TYPE_UNION ? "union" : "struct", "size", (json_int_t)s->size,
		      "alignment", (json_int_t)s->alignment, "forced_alignment",
		      (json_int_t)t->alignment, "packed", s->packed, "cachelines",
		      (json_int_t)s->nr_cachelines, "nr_members", (json_int_t)s->nr_members,
		      "holes", (json_int_t)s->nr_holes, "sum_holes", (json_int_t)s->sum_holes,
		      "bit_holes", (json_int_t)s->nr_bit_holes, "sum_bit_holes",
		      (json_int_t)s->sum_bit_holes, "padding", (json_int_t)s->padding,
		      "last_cacheline", (json_int_t)s->last_cacheline);
	json_object_set_new(o, "decl_file", t->decl_file ? json_string(t->decl_file) : json_null());
	json_object_set_new(o, "decl_line",
			    t->decl_file ? json_integer(t->decl_line) : json_null());
	json_object_set_new(o, "members", members);
	return o;
}

int layout_json_emit(struct strbuf *sb, json_t *root, struct err_msg *err)
{
	char *text;

	if (!root)
		return err_set(err, ENOMEM, "cannot build the JSON document");
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!text)
		return err_set(err, ENOMEM, "cannot write the JSON document");
	strbuf_addstr(sb, text);
	strbuf_addch(sb, '\n');
	free(text);
	return 0;
}

json_t *layout_json_struct(const struct type *t, unsigned int cacheline_size)
{
	struct layout *l;
	json_t *o;

	if (layout_analyze(t, cacheline_size ? cacheline_size : 64, &l, NULL))
		return NULL;
	o = json_struct(l);
	/* -C foo_t of "typedef struct {...} foo_t": the struct goes by foo_t */
	if (t->kind == TYPE_TYPEDEF && t->name && !layout_type(l)->name)
		json_object_set_new(o, "name", json_string(t->name));
	layout_free(l);
	return o;
}

int layout_json_print(struct strbuf *sb, const struct layout_json_doc *doc, struct err_msg *err)
{
	unsigned int cl = doc->cacheline_size ? doc->cacheline_size : 64;
	json_t *root, *structs = json_array();
	size_t i;

	for (i = 0; i < doc->nr_structs; i++) {
		json_t *o = layout_json_struct(doc->structs[i], cl);

		if (o)
			json_array_append_new(structs, o);
	}
	root = json_pack("{s:i, s:s, s:s, s:i, s:o}", "c2cscope_layout", 1, "source",
			 doc->source ? doc->source : "DWARF", "file", doc->file ? doc->file : "",
			 "cacheline_size", (int)cl, "structs", structs);
	return layout_json_emit(sb, root, err);
}
#else
int layout_json_print(struct strbuf *sb, const struct layout_json_doc *doc, struct err_msg *err)
{
	return err_set(err, ENOTSUP, "built without jansson: no JSON output");
}
#endif
