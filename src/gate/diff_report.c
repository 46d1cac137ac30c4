// SPDX-License-Identifier: GPL-2.0
/*
 * Layout diffs for people and machines, next to check's reports: the text
 * c2cscope diff prints, its JSON document, and the --fail-on policies.
 */
#include "config.h"
#include "gate/gate.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	unsigned int bit;
} policies[] = {
	{ "size-growth", DIFF_FAIL_SIZE_GROWTH },
	{ "new-shared-line", DIFF_FAIL_NEW_SHARED_LINE },
	{ "hole-growth", DIFF_FAIL_HOLE_GROWTH },
	{ "moved", DIFF_FAIL_MOVED },
};

int diff_parse_fail_on(const char *arg, unsigned int *mask, struct err_msg *err)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	size_t i;
	int ret = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		bool found = !strcmp(tok, "all");

		if (found)
			*mask |= DIFF_FAIL_SIZE_GROWTH | DIFF_FAIL_NEW_SHARED_LINE |
				 DIFF_FAIL_HOLE_GROWTH | DIFF_FAIL_MOVED;
		for (i = 0; i < ARRAY_SIZE(policies) && !found; i++) {
			if (!strcmp(tok, policies[i].name)) {
				*mask |= policies[i].bit;
				found = true;
			}
		}
		if (!found)
			ret = err_set(err, EINVAL,
				      "--fail-on: '%s' is not size-growth, new-shared-line, "
				      "hole-growth, moved or all",
				      tok);
	}
	free(copy);
	return ret;
}

static long long delta(uint64_t old, uint64_t new)
{
	return (long long)new - (long long)old;
}

static void text_member(struct strbuf *sb, const struct diff_member *m)
{
	unsigned long long oo = m->old_offset, no = m->new_offset, ol = m->old_line,
			   nl = m->new_line, os = m->old_size, ns = m->new_size;

	switch (m->change) {
	case DIFF_ADDED:
		strbuf_addf(sb, "    added    %s: offset %llu (line %llu), size %llu\n", m->name,
			    no, nl, ns);
		break;
	case DIFF_REMOVED:
		strbuf_addf(sb, "    removed  %s: offset %llu (line %llu), size %llu\n", m->name,
			    oo, ol, os);
		break;
	case DIFF_MOVED:
		strbuf_addf(sb, "    moved    %s: offset %llu (line %llu) -> %llu (line %llu)",
			    m->name, oo, ol, no, nl);
		if (os != ns)
			strbuf_addf(sb, ", size %llu -> %llu", os, ns);
		strbuf_addch(sb, '\n');
		break;
	case DIFF_RESIZED:
		strbuf_addf(sb, "    resized  %s: offset %llu (line %llu), size %llu -> %llu\n",
			    m->name, no, nl, os, ns);
		break;
	}
}

static void text_struct(struct strbuf *sb, const struct diff_struct *s)
{
	const char *kind = type_strip(s->new ? s->new : s->old)->kind == TYPE_UNION ? "union" :
										      "struct";
	size_t i;

	if (s->status != DIFF_STRUCT_CHANGED) {
		strbuf_addf(sb, "%s %s: only in %s\n", kind, s->name,
			    s->status == DIFF_STRUCT_ONLY_OLD ? "OLD" : "NEW");
		return;
	}
	strbuf_addf(sb, "%s %s: size %llu -> %llu (%+lld), cachelines %llu -> %llu (%+lld)\n", kind,
		    s->name, (unsigned long long)s->old_stats.size,
		    (unsigned long long)s->new_stats.size,
		    delta(s->old_stats.size, s->new_stats.size),
		    (unsigned long long)s->old_stats.cachelines,
		    (unsigned long long)s->new_stats.cachelines,
		    delta(s->old_stats.cachelines, s->new_stats.cachelines));
	for (i = 0; i < s->nr_members; i++)
		text_member(sb, &s->members[i]);
	if (s->old_stats.holes != s->new_stats.holes ||
	    s->old_stats.sum_holes != s->new_stats.sum_holes ||
	    s->old_stats.padding != s->new_stats.padding)
		strbuf_addf(sb,
			    "    holes %llu -> %llu (%llu -> %llu bytes), padding %llu -> %llu\n",
			    (unsigned long long)s->old_stats.holes,
			    (unsigned long long)s->new_stats.holes,
			    (unsigned long long)s->old_stats.sum_holes,
			    (unsigned long long)s->new_stats.sum_holes,
			    (unsigned long long)s->old_stats.padding,
			    (unsigned long long)s->new_stats.padding);
	for (i = 0; i < s->nr_shared; i++)
		strbuf_addf(
			sb,
			"    shared   %s and %s now share line %llu (were on lines %llu and %llu)\n",
			s->shared[i].a, s->shared[i].b, (unsigned long long)s->shared[i].line,
			(unsigned long long)s->shared[i].old_line_a,
			(unsigned long long)s->shared[i].old_line_b);
	for (i = 0; i < s->nr_groups; i++)
		strbuf_addf(sb, "    group    %s broken: %s\n", s->groups[i].name,
			    s->groups[i].message);
}

/* "fail-on moved: a, b" for each policy that tripped. */
static void text_policies(struct strbuf *sb, const struct layout_diff *d, unsigned int mask)
{
	struct strbuf names = STRBUF_INIT;
	size_t p, i;

	for (p = 0; p < ARRAY_SIZE(policies); p++) {
		strbuf_reset(&names);
		for (i = 0; i < d->nr; i++)
			if (diff_struct_trips(&d->structs[i], mask & policies[p].bit))
				strbuf_addf(&names, "%s%s", names.len ? ", " : "",
					    d->structs[i].name);
		if (names.len)
			strbuf_addf(sb, "fail-on %s: %s\n", policies[p].name, names.buf);
	}
	strbuf_release(&names);
}

bool diff_any_trips(const struct layout_diff *d, unsigned int mask)
{
	size_t i;

	for (i = 0; i < d->nr; i++)
		if (diff_struct_trips(&d->structs[i], mask))
			return true;
	return false;
}

#ifdef HAVE_JANSSON
#include <jansson.h>

static json_t *side_json(const struct gate_stats *st)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I}", "size", (json_int_t)st->size, "cachelines",
			 (json_int_t)st->cachelines, "holes", (json_int_t)st->holes, "sum_holes",
			 (json_int_t)st->sum_holes, "padding", (json_int_t)st->padding);
}

static json_t *struct_json(const struct diff_struct *s, unsigned int mask)
{
	static const char *const changes[] = { "added", "removed", "moved", "resized" };
	static const char *const status[] = { "changed", "only_old", "only_new" };
	json_t *js, *members = json_array(), *shared = json_array(), *groups = json_array(),
		    *trips = json_array();
	size_t i;

	for (i = 0; i < s->nr_members; i++) {
		const struct diff_member *m = &s->members[i];

		json_array_append_new(
			members,
			json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I}", "change",
				  changes[m->change], "name", m->name, "old_offset",
				  (json_int_t)m->old_offset, "new_offset",
				  (json_int_t)m->new_offset, "old_size", (json_int_t)m->old_size,
				  "new_size", (json_int_t)m->new_size, "old_line",
				  (json_int_t)m->old_line, "new_line", (json_int_t)m->new_line));
	}
	for (i = 0; i < s->nr_shared; i++)
		json_array_append_new(shared, json_pack("{s:[s, s], s:I, s:[I, I]}", "members",
							s->shared[i].a, s->shared[i].b, "line",
							(json_int_t)s->shared[i].line, "old_lines",
							(json_int_t)s->shared[i].old_line_a,
							(json_int_t)s->shared[i].old_line_b));
	for (i = 0; i < s->nr_groups; i++)
		json_array_append_new(groups, json_pack("{s:s, s:s}", "name", s->groups[i].name,
							"message", s->groups[i].message));
	for (i = 0; i < ARRAY_SIZE(policies); i++)
		if (diff_struct_trips(s, mask & policies[i].bit))
			json_array_append_new(trips, json_string(policies[i].name));
	js = json_pack("{s:s, s:s}", "name", s->name, "status", status[s->status]);
	if (s->old)
		json_object_set_new(js, "old", side_json(&s->old_stats));
	if (s->new)
		json_object_set_new(js, "new", side_json(&s->new_stats));
	json_object_set_new(js, "members", members);
	json_object_set_new(js, "shared", shared);
	json_object_set_new(js, "groups_broken", groups);
	json_object_set_new(js, "fail_on", trips);
	return js;
}

int diff_report_json(struct strbuf *sb, const struct layout_diff *d,
		     const struct diff_report_opts *o)
{
	const struct gate_result *rules = o->rules;
	json_t *structs = json_array(), *root;
	char *text;
	size_t i;

	for (i = 0; i < d->nr; i++)
		json_array_append_new(structs, struct_json(&d->structs[i], o->fail_on));
	root = json_pack("{s:s, s:s, s:i, s:o}", "old", o->old, "new", o->new, "cacheline_size",
			 (int)d->cacheline_size, "structs", structs);
	if (rules)
		json_object_set_new(root, "rules",
				    json_pack("{s:I, s:I, s:I}", "passed",
					      (json_int_t)rules->nr_pass, "failed",
					      (json_int_t)rules->nr_fail, "errors",
					      (json_int_t)rules->nr_error));
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	strbuf_addstr(sb, text);
	strbuf_addch(sb, '\n');
	free(text);
	json_decref(root);
	return 0;
}
#else
int diff_report_json(struct strbuf *sb, const struct layout_diff *d,
		     const struct diff_report_opts *o)
{
	return -ENOTSUP;
}
#endif

void diff_report_text(struct strbuf *sb, const struct layout_diff *d,
		      const struct diff_report_opts *o)
{
	struct gate_report_opts ro = { .target = o->new };
	size_t i;

	for (i = 0; i < d->nr; i++)
		text_struct(sb, &d->structs[i]);
	if (!d->nr)
		strbuf_addstr(sb, "no layout changes\n");
	if (o->rules)
		gate_report_text(sb, o->rules, &ro);
	text_policies(sb, d, o->fail_on);
}
