// SPDX-License-Identifier: GPL-2.0
/*
 * JSON layout baselines → type model. Two passes: first every saved struct
 * (so that members can point at the saved struct of their type), then the
 * members, whose types are rebuilt from their C spelling just far enough
 * for sizes, names and printing.
 */
#include "config.h"
#include "gate/gate.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool baseline_is_json(const char *path)
{
	FILE *f = fopen(path, "r");
	int c;

	if (!f)
		return false;
	do {
		c = fgetc(f);
	} while (c != EOF && isspace(c));
	fclose(f);
	return c == '{';
}

int baseline_load_any(const char *path, const struct type_load_opts *opts, struct type_db **out,
		      struct err_msg *err)
{
	if (!path)
		return type_db_load_kernel(opts, out, err);
	if (baseline_is_json(path))
		return baseline_load(path, out, err);
	return type_db_load(path, opts, out, err);
}

#ifndef HAVE_JANSSON
int baseline_load(const char *path, struct type_db **out, struct err_msg *err)
{
	return err_set(err, ENOTSUP, "%s: JSON baselines need jansson (built without it)", path);
}
#else
#include <jansson.h>

#include "util/xalloc.h"

#define BASELINE_MAX (1ULL << 40)

struct loader {
	const char *path;
	struct type_db *db;
	struct err_msg *err;
	struct strbuf where; /* "structs[3].members[2]" */
};

static int bad(struct loader *ld, const char *field, const char *what)
{
	return err_set(ld->err, EINVAL, "%s: %s%s%s: expected %s", ld->path, ld->where.buf,
		       ld->where.len && *field ? "." : "", field, what);
}

static int get_u64(struct loader *ld, json_t *obj, const char *field, bool required, uint64_t *out)
{
	json_t *v = json_object_get(obj, field);

	*out = 0;
	if ((!v || json_is_null(v)) && !required)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return bad(ld, field, "a whole number >= 0");
	/* no C object is a terabyte: bounds keep every later sum from overflowing */
	if ((uint64_t)json_integer_value(v) > BASELINE_MAX)
		return bad(ld, field, "a number below 2^40");
	*out = json_integer_value(v);
	return 0;
}

/* A string; or, when not required, null or absent (*out NULL). */
static int get_str(struct loader *ld, json_t *obj, const char *field, bool required,
		   const char **out)
{
	json_t *v = json_object_get(obj, field);

	*out = NULL;
	if ((!v || json_is_null(v)) && !required)
		return 0;
	if (!json_is_string(v))
		return bad(ld, field, "a string");
	*out = json_string_value(v);
	return 0;
}

/* A field of a JSON object: a string into str, else a number into num. */
struct json_field {
	const char *name;
	bool required;
	const char **str;
	uint64_t *num;
};

/* Read the fields in order; the first one that is wrong ends it. */
static int get_fields(struct loader *ld, json_t *obj, const struct json_field *f, size_t nr)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < nr && !ret; i++)
		ret = f[i].str ? get_str(ld, obj, f[i].name, f[i].required, f[i].str) :
				 get_u64(ld, obj, f[i].name, f[i].required, f[i].num);
	return ret;
}

static struct type *placeholder(struct loader *ld, enum type_kind kind, const char *name,
				uint64_t size)
{
	struct type *t = type_db_add(ld->db, kind, name);

	t->size = size;
	return t;
}

static const struct type *aggregate_named(struct loader *ld, const char *spelling, size_t len,
					  uint64_t size)
{
	static const struct {
		const char *prefix;
		enum type_kind kind;
	} kinds[] = { { "struct ", TYPE_STRUCT },
		      { "union ", TYPE_UNION },
		      { "enum ", TYPE_ENUM } };
	struct strbuf name = STRBUF_INIT;
	const struct type *t = NULL;
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]) && !t; i++) {
		size_t n = strlen(kinds[i].prefix);

		if (len <= n || strncmp(spelling, kinds[i].prefix, n))
			continue;
		strbuf_add(&name, spelling + n, len - n);
		if (kinds[i].kind == TYPE_ENUM) {
			t = placeholder(ld, TYPE_ENUM, name.buf, size);
		} else if (strchr(name.buf, '{')) {
			/* "union {...}": an anonymous aggregate we know only by size */
			t = placeholder(ld, kinds[i].kind, NULL, size);
		} else {
			t = type_db_find(ld->db, name.buf);
			/* declared only here: a forward declaration keeps it out of the index */
			if (!t || type_size(t) != size)
				t = placeholder(ld, TYPE_FWD, name.buf, size);
		}
	}
	strbuf_release(&name);
	return t;
}

static const struct type *spelled(struct loader *ld, const char *s, size_t len, uint64_t size,
				  int depth);

/* "char [2][16]": one ARRAY with every dimension, as DWARF has it. */
static const struct type *array_spelled(struct loader *ld, const char *s, size_t len, uint64_t size,
					int depth)
{
	uint64_t dims[8], elems = 1;
	uint32_t n = 0, i;
	struct type *t;
	uint64_t *d;

	while (len && s[len - 1] == ']' && n < 8) {
		size_t open = len - 1;

		while (open && s[open] != '[')
			open--;
		dims[n] = strtoull(s + open + 1, NULL, 10);
		elems *= dims[n] ? dims[n] : 1;
		n++;
		len = open;
		while (len && s[len - 1] == ' ')
			len--;
	}
	t = placeholder(ld, TYPE_ARRAY, NULL, size);
	d = type_db_add_dims(ld->db, t, n);
	for (i = 0; i < n; i++)
		d[i] = dims[n - 1 - i];
	t->target = spelled(ld, s, len, size / elems, depth + 1);
	return t;
}

/* "int (*)(void *, long)": a pointer to a function prototype. */
static const struct type *func_pointer_spelled(struct loader *ld, const char *s, size_t len,
					       uint64_t size, int depth)
{
	const char *star = memmem(s, len, "(*)(", 4), *p = star + 4, *end = s + len - 1;
	struct type *ptr = placeholder(ld, TYPE_POINTER, NULL, size);
	struct type *fn = placeholder(ld, TYPE_FUNC, NULL, 0);
	const struct type **params;
	uint32_t n = 0, i;
	const char *q;

	ptr->target = fn;
	if (!(star - s == 4 && !memcmp(s, "void", 4)))
		fn->target = spelled(ld, s, star - s, 0, depth + 1);
	if (end - p == 4 && !memcmp(p, "void", 4))
		return ptr;
	for (q = p; q < end; q++)
		n += *q == ',';
	params = type_db_add_params(ld->db, fn, n + (end > p));
	for (i = 0; p < end; i++) {
		const char *comma = memchr(p, ',', end - p);
		const char *stop = comma ? comma : end;

		while (p < stop && *p == ' ')
			p++;
		if (stop - p == 3 && !memcmp(p, "...", 3)) {
			fn->variadic = true;
			fn->nr_params--;
		} else {
			params[i] = spelled(ld, p, stop - p, 0, depth + 1);
		}
		p = comma ? comma + 1 : end;
	}
	return ptr;
}

/* Rebuild a type from its C spelling: "struct x *", "char [16]", "u64". */
static const struct type *spelled(struct loader *ld, const char *s, size_t len, uint64_t size,
				  int depth)
{
	const struct type *agg;
	struct strbuf name = STRBUF_INIT;
	struct type *t;

	while (len && s[len - 1] == ' ')
		len--;
	if (depth < 16 && len > 1 && s[len - 1] == '*' && !memchr(s, '(', len)) {
		t = placeholder(ld, TYPE_POINTER, NULL, size);
		t->target = spelled(ld, s, len - 1, 0, depth + 1);
		return t;
	}
	if (depth < 16 && len > 2 && s[len - 1] == ']' && !memchr(s, '(', len))
		return array_spelled(ld, s, len, size, depth);
	if (depth < 16 && memmem(s, len, "(*)(", 4) && s[len - 1] == ')')
		return func_pointer_spelled(ld, s, len, size, depth);
	agg = aggregate_named(ld, s, len, size);
	if (agg)
		return agg;
	strbuf_add(&name, s, len);
	t = placeholder(ld, TYPE_BASE, name.buf, size);
	strbuf_release(&name);
	return t;
}

static int load_member(struct loader *ld, json_t *jm, struct type_member *m)
{
	const char *name, *spelling;
	uint64_t size, offset, bit_offset, bit_size, forced;
	const struct json_field fields[] = {
		{ "name", false, .str = &name },
		{ "type", true, .str = &spelling },
		{ "offset", true, .num = &offset },
		{ "size", true, .num = &size },
		{ "bit_offset", false, .num = &bit_offset },
		{ "bit_size", false, .num = &bit_size },
		{ "forced_alignment", false, .num = &forced },
	};
	int ret;

	if (!json_is_object(jm))
		return bad(ld, "", "an object");
	ret = get_fields(ld, jm, fields, ARRAY_SIZE(fields));
	if (ret)
		return ret;
	m->name = name ? type_db_intern(ld->db, name) : NULL;
	m->type = spelled(ld, spelling, strlen(spelling), size, 0);
	m->bit_size = bit_size;
	m->bit_offset = json_object_get(jm, "bit_offset") ? bit_offset : offset * 8;
	/* the model's bitfield offset is the byte of its first bit, not the unit */
	m->offset = bit_size ? m->bit_offset / 8 : offset;
	m->alignment = forced;
	return 0;
}

static int load_members(struct loader *ld, json_t *js, struct type *t)
{
	json_t *members = json_object_get(js, "members");
	size_t len = ld->where.len, i;
	struct type_member *m;
	int ret = 0;

	if (!json_is_array(members))
		return bad(ld, "members", "an array");
	m = type_db_add_members(ld->db, t, json_array_size(members));
	for (i = 0; i < json_array_size(members) && !ret; i++) {
		strbuf_setlen(&ld->where, len);
		strbuf_addf(&ld->where, ".members[%zu]", i);
		ret = load_member(ld, json_array_get(members, i), &m[i]);
	}
	strbuf_setlen(&ld->where, len);
	return ret;
}

static int load_struct(struct loader *ld, json_t *js, struct type **out)
{
	const char *name, *kind, *file;
	uint64_t size, forced, line;
	const struct json_field head[] = {
		{ "name", false, .str = &name }, /* null: an anonymous struct */
		{ "kind", false, .str = &kind },
	};
	const struct json_field rest[] = {
		{ "size", true, .num = &size },
		{ "forced_alignment", false, .num = &forced },
		{ "decl_file", false, .str = &file },
		{ "decl_line", false, .num = &line },
	};
	struct type *t;
	int ret;

	if (!json_is_object(js))
		return bad(ld, "", "an object");
	ret = get_fields(ld, js, head, ARRAY_SIZE(head));
	if (!ret && kind && strcmp(kind, "struct") && strcmp(kind, "union"))
		ret = bad(ld, "kind", "\"struct\" or \"union\"");
	if (!ret)
		ret = get_fields(ld, js, rest, ARRAY_SIZE(rest));
	if (ret)
		return ret;
	t = type_db_add(ld->db, kind && !strcmp(kind, "union") ? TYPE_UNION : TYPE_STRUCT, name);
	t->size = size;
	t->alignment = forced;
	t->packed = json_is_true(json_object_get(js, "packed"));
	t->decl_file = file ? type_db_intern(ld->db, file) : NULL;
	t->decl_line = line;
	*out = t;
	return 0;
}

static int load_structs(struct loader *ld, json_t *root)
{
	json_t *structs = json_object_get(root, "structs");
	struct type **types;
	size_t i, n;
	int ret = 0;

	if (!json_is_array(structs))
		return bad(ld, "structs", "an array");
	n = json_array_size(structs);
	types = calloc(n + 1, sizeof(*types));
	for (i = 0; i < n && !ret; i++) {
		strbuf_reset(&ld->where);
		strbuf_addf(&ld->where, "structs[%zu]", i);
		ret = load_struct(ld, json_array_get(structs, i), &types[i]);
	}
	if (!ret)
		type_db_finish(ld->db); /* so members can find saved structs by name */
	for (i = 0; i < n && !ret; i++) {
		strbuf_reset(&ld->where);
		strbuf_addf(&ld->where, "structs[%zu]", i);
		ret = load_members(ld, json_array_get(structs, i), types[i]);
	}
	free(types);
	return ret;
}

int baseline_load(const char *path, struct type_db **out, struct err_msg *err)
{
	struct loader ld = { .path = path, .err = err };
	json_error_t jerr;
	json_t *root, *version;
	int ret;

	*out = NULL;
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return err_set(err, jerr.line < 0 ? errno ? errno : EIO : EINVAL, "%s:%d:%d: %s",
			       path, jerr.line, jerr.column, jerr.text);
	strbuf_init(&ld.where, 0);
	version = json_object_get(root, "c2cscope_layout");
	if (!json_is_integer(version) || json_integer_value(version) != 1) {
		ret = bad(&ld, "c2cscope_layout", "1 (a c2cscope layout JSON v1 baseline)");
		goto out;
	}
	ld.db = type_db_new("JSON", path);
	ret = load_structs(&ld, root);
	if (ret) {
		type_db_free(ld.db);
		goto out;
	}
	type_db_finish(ld.db);
	*out = ld.db;
out:
	strbuf_release(&ld.where);
	json_decref(root);
	return ret;
}
#endif
