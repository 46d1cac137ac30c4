// SPDX-License-Identifier: GPL-2.0
/*
 * `c2cscope layout --profile DATA -C STRUCT --format json`: the struct in
 * the v1 layout schema, each field's profile and the findings that the
 * text form prints as marks and verdict lines (doc/layout-json.md,
 * "Profiled layouts").
 */
#include "config.h"

#include "layout/layout_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_JANSSON
#include <jansson.h>

/* A context mask as an array: cpu numbers, or the names a hotness file gave. */
static json_t *json_contexts(const struct struct_profile *p, uint64_t mask)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < PROFILE_MAX_CONTEXTS; i++) {
		if (!(mask >> i & 1))
			continue;
		json_array_append_new(a, p->contexts[i] ? json_string(p->contexts[i]) :
							  json_integer(i));
	}
	return a;
}

/* "a, b" -> ["a", "b"]; NULL -> []. */
static json_t *json_funcs(const char *list)
{
	json_t *a = json_array();
	const char *s = list;

	while (s && *s) {
		const char *e = strstr(s, ", ");
		size_t n = e ? (size_t)(e - s) : strlen(s);

		json_array_append_new(a, json_stringn(s, n));
		s = e ? e + 2 : NULL;
	}
	return a;
}

static const char *class_name(enum field_class c)
{
	return c == FIELD_WRITE_HOT ? "write_hot" : c == FIELD_READ_MOSTLY ? "read_mostly" : "cold";
}

static json_t *json_field(const struct struct_profile *p, const struct profile_findings *fs,
			  size_t i)
{
	const struct field_profile *f = &p->fields[i];
	json_t *o;

	o = json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o}", "name", f->name,
		      "class", class_name(f->cls), "hitm_local", (json_int_t)f->hitm_local,
		      "hitm_remote", (json_int_t)f->hitm_remote, "loads", (json_int_t)f->loads,
		      "stores", (json_int_t)f->stores, "readers", json_contexts(p, f->readers),
		      "writers", json_contexts(p, f->writers), "reader_funcs",
		      json_funcs(f->reader_funcs), "writer_funcs", json_funcs(f->writer_funcs));
	json_object_set_new(o, "object_writers",
			    f->object_writers ? json_integer(f->object_writers) : json_null());
	json_object_set_new(o, "hitm_true",
			    f->hitm_true_known ? json_integer((json_int_t)f->hitm_true) :
						 json_null());
	json_object_set_new(o, "hitm_between",
			    f->hitm_true_known ? json_integer((json_int_t)f->hitm_between) :
						 json_null());
	json_object_set_new(o, "hitm_elements",
			    f->hitm_true_known ? json_integer((json_int_t)f->hitm_elements) :
						 json_null());
	json_object_set_new(o, "false_sharing", json_boolean(fs->false_sharing[i]));
	json_object_set_new(o, "true_sharing", json_boolean(fs->true_sharing[i]));
	json_object_set_new(o, "between_objects", json_boolean(fs->between_objects[i]));
	return o;
}

/* The pairs grouped by written field, as the text's verdict lines. */
static json_t *json_false_sharing(const struct struct_profile *p, const struct profile_findings *fs)
{
	json_t *a = json_array(), *with = NULL;
	size_t i;

	for (i = 0; i < fs->nr_pairs; i++) {
		const struct profile_pair *pr = &fs->pairs[i];
		const struct field_profile *w = &p->fields[pr->written];
		const struct field_profile *o = &p->fields[pr->other];

		if (!i || pr->written != fs->pairs[i - 1].written) {
			with = json_array();
			json_array_append_new(a, json_pack("{s:I, s:s, s:o, s:o}", "line",
							   (json_int_t)pr->line, "field", w->name,
							   "writers", json_contexts(p, w->writers),
							   "with", with));
		}
		json_array_append_new(with, json_pack("{s:s, s:o}", "field", o->name, "contexts",
						      json_contexts(p, field_accessors(o))));
	}
	return a;
}

static json_t *json_findings(const struct struct_profile *p, const struct profile_findings *fs)
{
	json_t *truly = json_array(), *between = json_null(), *elements = json_array();
	size_t i;

	for (i = 0; i < p->nr_fields; i++)
		if (p->fields[i].hitm_elements)
			json_array_append_new(elements,
					      json_pack("{s:s, s:I}", "field", p->fields[i].name,
							"hitm",
							(json_int_t)p->fields[i].hitm_elements));

	for (i = 0; i < p->nr_fields; i++)
		if (fs->true_sharing[i])
			json_array_append_new(truly,
					      json_pack("{s:s, s:o}", "field", p->fields[i].name,
							"writers",
							json_contexts(p, p->fields[i].writers)));
	if (fs->nr_between) {
		json_t *fields = json_array();

		for (i = 0; i < p->nr_fields; i++)
			if (fs->between_objects[i])
				json_array_append_new(fields, json_string(p->fields[i].name));
		between = json_pack("{s:o, s:I, s:I}", "fields", fields, "objects",
				    (json_int_t)p->nr_objects, "hitm",
				    (json_int_t)fs->between_hitm);
	}
	return json_pack("{s:o, s:o, s:o, s:o}", "false_sharing", json_false_sharing(p, fs),
			 "between_objects", between, "between_elements", elements, "true_sharing",
			 truly);
}

int layout_profile_json(struct strbuf *sb, const struct type *t, const struct struct_profile *p,
			const char *file, unsigned int cacheline_size, struct err_msg *err)
{
	unsigned int cl = cacheline_size ? cacheline_size : 64;
	struct profile_findings fs;
	json_t *root, *st, *fields = json_array();
	size_t i;

	t = type_strip(t);
	st = layout_json_struct(t, cl);
	if (!st) {
		json_decref(fields);
		return err_set(err, EINVAL, "struct %s cannot be laid out",
			       type_aggregate_name(t) ? type_aggregate_name(t) : "(anonymous)");
	}
	layout_profile_find(&fs, t, p, cl);
	for (i = 0; i < p->nr_fields; i++)
		json_array_append_new(fields, json_field(p, &fs, i));
	root = json_pack("{s:i, s:s, s:o, s:i, s:I, s:o, s:o, s:o}", "c2cscope_layout_profile", 1,
			 "profile", p->origin ? p->origin : "perf.data", "file",
			 file ? json_string(file) : json_null(), "cacheline_size", (int)cl,
			 "objects", (json_int_t)p->nr_objects, "struct", st, "fields", fields,
			 "findings", json_findings(p, &fs));
	layout_profile_findings_free(&fs);
	return layout_json_emit(sb, root, err);
}
#else
int layout_profile_json(struct strbuf *sb, const struct type *t, const struct struct_profile *p,
			const char *file, unsigned int cacheline_size, struct err_msg *err)
{
	(void)sb;
	(void)t;
	(void)p;
	(void)file;
	(void)cacheline_size;
	return err_set(err, ENOTSUP, "built without jansson: no JSON output");
}
#endif
