// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope diff: compare struct layouts between two builds, or a build and
 * a saved JSON baseline, in cache-line terms. Exit 1 when a --fail-on
 * policy trips or a --rules rule is violated in NEW, else 0; 2 on bad input.
 */
#include "config.h"
#include "cmd.h"
#include "gate/gate.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct diff_args {
	const char *old, *new;
	const char **only;
	size_t nr_only;
	const char **rules;
	size_t nr_rules;
	unsigned int fail_on;
	unsigned int cacheline_size;
	bool json;
};

static const struct {
	const char *name;
	unsigned int bit;
} policies[] = {
	{ "size-growth", DIFF_FAIL_SIZE_GROWTH },
	{ "new-shared-line", DIFF_FAIL_NEW_SHARED_LINE },
	{ "hole-growth", DIFF_FAIL_HOLE_GROWTH },
	{ "moved", DIFF_FAIL_MOVED },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: c2cscope diff [OPTIONS] OLD NEW\n"
		     "\n"
		     "OLD and NEW are ELF files with DWARF, BTF files or saved 'c2cscope layout\n"
		     "--format json' baselines, in any combination.\n"
		     "\n"
		     "  -C, --struct GLOB         compare only these structs; repeatable\n"
		     "  -F, --fail-on LIST        exit 1 on: size-growth, new-shared-line,\n"
		     "                            hole-growth, moved (comma-separated) or all\n"
		     "  -r, --rules FILE          also check these rules on NEW; repeatable\n"
		     "  -l, --cacheline-size N    cache-line size in bytes (default 64)\n"
		     "  -f, --format FMT          text (default) or json\n"
		     "  -h, --help                this help\n");
}

static int parse_fail_on(const char *arg, unsigned int *mask)
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
			ret = cmd_error("diff",
					"--fail-on: '%s' is not size-growth, new-shared-line, "
					"hole-growth, moved or all",
					tok);
	}
	free(copy);
	return ret;
}

static int parse_args(int argc, char **argv, struct diff_args *a)
{
	static const struct option longopts[] = {
		{ "struct", required_argument, NULL, 'C' },
		{ "fail-on", required_argument, NULL, 'F' },
		{ "rules", required_argument, NULL, 'r' },
		{ "cacheline-size", required_argument, NULL, 'l' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "C:F:r:l:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'C':
			cmd_add_arg(&a->only, &a->nr_only, optarg);
			break;
		case 'r':
			cmd_add_arg(&a->rules, &a->nr_rules, optarg);
			break;
		case 'F':
			if (parse_fail_on(optarg, &a->fail_on))
				return EXIT_BAD_INPUT;
			break;
		case 'l':
			if (cmd_parse_cacheline_size("diff", optarg, &a->cacheline_size))
				return EXIT_BAD_INPUT;
			break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return cmd_error("diff", "--format expects text or json, not '%s'",
						 optarg);
			a->json = !strcmp(optarg, "json");
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (argc - optind != 2)
		return cmd_error("diff", "expected two layouts, OLD and NEW; see --help");
	a->old = argv[optind];
	a->new = argv[optind + 1];
	return 0;
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
		    s->name, (unsigned long long)s->old_size, (unsigned long long)s->new_size,
		    delta(s->old_size, s->new_size), (unsigned long long)s->old_lines,
		    (unsigned long long)s->new_lines, delta(s->old_lines, s->new_lines));
	for (i = 0; i < s->nr_members; i++)
		text_member(sb, &s->members[i]);
	if (s->old_holes != s->new_holes || s->old_sum_holes != s->new_sum_holes ||
	    s->old_padding != s->new_padding)
		strbuf_addf(sb,
			    "    holes %llu -> %llu (%llu -> %llu bytes), padding %llu -> %llu\n",
			    (unsigned long long)s->old_holes, (unsigned long long)s->new_holes,
			    (unsigned long long)s->old_sum_holes,
			    (unsigned long long)s->new_sum_holes,
			    (unsigned long long)s->old_padding, (unsigned long long)s->new_padding);
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

static bool any_trips(const struct layout_diff *d, unsigned int mask)
{
	size_t i;

	for (i = 0; i < d->nr; i++)
		if (diff_struct_trips(&d->structs[i], mask))
			return true;
	return false;
}

#ifdef HAVE_JANSSON
#include <jansson.h>

static json_t *side_json(uint64_t size, uint64_t lines, uint64_t holes, uint64_t sum_holes,
			 uint64_t padding)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I}", "size", (json_int_t)size, "cachelines",
			 (json_int_t)lines, "holes", (json_int_t)holes, "sum_holes",
			 (json_int_t)sum_holes, "padding", (json_int_t)padding);
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
		json_object_set_new(js, "old",
				    side_json(s->old_size, s->old_lines, s->old_holes,
					      s->old_sum_holes, s->old_padding));
	if (s->new)
		json_object_set_new(js, "new",
				    side_json(s->new_size, s->new_lines, s->new_holes,
					      s->new_sum_holes, s->new_padding));
	json_object_set_new(js, "members", members);
	json_object_set_new(js, "shared", shared);
	json_object_set_new(js, "groups_broken", groups);
	json_object_set_new(js, "fail_on", trips);
	return js;
}

static int json_report(struct strbuf *sb, const struct diff_args *a, const struct layout_diff *d,
		       const struct gate_result *rules)
{
	json_t *structs = json_array(), *root;
	char *text;
	size_t i;

	for (i = 0; i < d->nr; i++)
		json_array_append_new(structs, struct_json(&d->structs[i], a->fail_on));
	root = json_pack("{s:s, s:s, s:i, s:o}", "old", a->old, "new", a->new, "cacheline_size",
			 (int)d->cacheline_size, "structs", structs);
	if (a->nr_rules)
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
static int json_report(struct strbuf *sb, const struct diff_args *a, const struct layout_diff *d,
		       const struct gate_result *rules)
{
	return -1;
}
#endif

static int check_rules(const struct diff_args *a, const struct type_db *db, struct gate_result *res,
		       struct ruleset *rs)
{
	struct gate_opts go = { .cacheline_size = a->cacheline_size };
	struct c2c_err err = { 0 };
	size_t i;

	for (i = 0; i < a->nr_rules; i++)
		if (ruleset_parse_file(rs, a->rules[i], &err))
			return cmd_report_err("diff", &err);
	if (gate_check(rs, db, &go, res, &err))
		return cmd_report_err("diff", &err);
	return 0;
}

static int output(const struct diff_args *a, const struct layout_diff *d,
		  const struct gate_result *rules)
{
	struct gate_report_opts ro = { .target = a->new };
	struct strbuf sb = STRBUF_INIT;
	bool tripped = any_trips(d, a->fail_on);
	size_t i;

	if (a->json) {
		if (json_report(&sb, a, d, rules))
			return cmd_error("diff", "--format json needs jansson (built without it)");
	} else {
		for (i = 0; i < d->nr; i++)
			text_struct(&sb, &d->structs[i]);
		if (!d->nr)
			strbuf_addstr(&sb, "no layout changes\n");
		if (a->nr_rules)
			gate_report_text(&sb, rules, &ro);
		text_policies(&sb, d, a->fail_on);
	}
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
	if (rules->nr_error)
		return EXIT_BAD_INPUT;
	return tripped || rules->nr_fail ? EXIT_CHECK_FAILED : EXIT_OK;
}

static int run_diff(const struct diff_args *a)
{
	struct type_load_opts lo = { .source = TYPE_SOURCE_AUTO, .only = a->only };
	struct layout_diff_opts dopts = { .cacheline_size = a->cacheline_size, .only = a->only };
	struct type_db *old = NULL, *new = NULL;
	struct gate_result rules = { 0 };
	struct ruleset *rs = ruleset_new();
	struct layout_diff d = { 0 };
	struct c2c_err err = { 0 };
	int ret;

	if (a->nr_rules)
		lo.only = NULL; /* the rules may name any struct */
	ret = baseline_load_any(a->old, &lo, &old, &err);
	if (!ret)
		ret = baseline_load_any(a->new, &lo, &new, &err);
	if (!ret)
		ret = layout_diff_compute(old, new, &dopts, &d, &err);
	if (ret) {
		ret = cmd_report_err("diff", &err);
		goto out;
	}
	ret = a->nr_rules ? check_rules(a, new, &rules, rs) : 0;
	if (!ret)
		ret = output(a, &d, &rules);
out:
	gate_result_release(&rules);
	layout_diff_release(&d);
	ruleset_free(rs);
	type_db_free(old);
	type_db_free(new);
	return ret;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_args a = { 0 };
	int ret = parse_args(argc, argv, &a);

	if (!ret)
		ret = run_diff(&a);
	free(a.only);
	free(a.rules);
	return ret < 0 ? EXIT_OK : ret;
}
