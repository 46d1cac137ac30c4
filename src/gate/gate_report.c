// SPDX-License-Identifier: GPL-2.0
/* Gate outcomes as text, JSON, JUnit XML, SARIF and GitHub annotations. */
#include "config.h"
#include "gate/gate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_word(const struct gate_outcome *o)
{
	const struct type *t = o->type ? type_strip(o->type) : NULL;

	return t && t->kind == TYPE_UNION ? "union" : "struct";
}

void gate_outcome_title(struct strbuf *sb, const struct gate_outcome *o)
{
	const struct rule *r = o->rule;

	if (r->line)
		strbuf_addf(sb, "%s:%u: ", r->file, r->line);
	else
		strbuf_addf(sb, "%s: ", r->file);
	strbuf_addf(sb, "%s %s: ", kind_word(o), o->block->struct_name);
	rule_format(sb, r);
}

void gate_outcome_location(const struct gate_outcome *o, const char **file, unsigned int *line)
{
	if (o->type && o->type->decl_file) {
		*file = o->type->decl_file;
		*line = o->type->decl_line;
	} else {
		*file = o->rule->file;
		*line = o->rule->line;
	}
}

static void add_indented(struct strbuf *sb, const char *text, const char *indent)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		strbuf_addstr(sb, indent);
		strbuf_add(sb, p, len);
		strbuf_addch(sb, '\n');
		p += len + (nl ? 1 : 0);
	}
}

void gate_report_text(struct strbuf *sb, const struct gate_result *res,
		      const struct gate_report_opts *opts)
{
	size_t i;

	for (i = 0; i < res->nr; i++) {
		const struct gate_outcome *o = &res->outcomes[i];

		if (o->status == GATE_PASS && !opts->show_passed)
			continue;
		gate_outcome_title(sb, o);
		if (o->status == GATE_PASS) {
			strbuf_addstr(sb, ": holds\n");
			continue;
		}
		strbuf_addf(sb, ": %s\n", o->status == GATE_FAIL ? "VIOLATED" : "cannot check");
		strbuf_addf(sb, "    %s\n", o->message);
		if (o->status == GATE_FAIL && o->has_lines && opts->excerpt) {
			struct strbuf ex = STRBUF_INIT;

			opts->excerpt(&ex, o, res->cacheline_size, opts->excerpt_arg);
			add_indented(sb, ex.buf, "    ");
			strbuf_release(&ex);
		}
	}
	strbuf_addf(sb, "%zu rule%s checked against %s: %zu hold, %zu violated", res->nr,
		    res->nr == 1 ? "" : "s", opts->target, res->nr_pass, res->nr_fail);
	if (res->nr_error)
		strbuf_addf(sb, ", %zu cannot be checked", res->nr_error);
	strbuf_addch(sb, '\n');
}

static const char *status_word(enum gate_status st)
{
	return st == GATE_PASS ? "pass" : st == GATE_FAIL ? "fail" : "error";
}

static void junit_case(struct strbuf *sb, const struct gate_outcome *o,
		       const struct gate_report_opts *opts, unsigned int cl)
{
	struct strbuf title = STRBUF_INIT, rule = STRBUF_INIT;

	gate_outcome_title(&title, o);
	strbuf_addstr(sb, "    <testcase classname=\"");
	strbuf_add_xml(sb, kind_word(o));
	strbuf_addch(sb, '.');
	strbuf_add_xml(sb, o->block->struct_name);
	strbuf_addstr(sb, "\" name=\"");
	strbuf_add_xml(sb, title.buf);
	strbuf_addch(sb, '"');
	if (o->status == GATE_PASS) {
		strbuf_addstr(sb, "/>\n");
		goto out;
	}
	strbuf_addf(sb, ">\n      <%s message=\"", o->status == GATE_FAIL ? "failure" : "error");
	strbuf_add_xml(sb, o->message);
	strbuf_addf(sb, "\" type=\"%s\">", rule_kind_name(o->rule->kind));
	strbuf_add_xml(sb, title.buf);
	strbuf_addch(sb, '\n');
	strbuf_add_xml(sb, o->message);
	strbuf_addch(sb, '\n');
	if (o->status == GATE_FAIL && o->has_lines && opts->excerpt) {
		opts->excerpt(&rule, o, cl, opts->excerpt_arg);
		strbuf_add_xml(sb, rule.buf);
	}
	strbuf_addf(sb, "</%s>\n    </testcase>\n", o->status == GATE_FAIL ? "failure" : "error");
out:
	strbuf_release(&title);
	strbuf_release(&rule);
}

void gate_report_junit(struct strbuf *sb, const struct gate_result *res,
		       const struct gate_report_opts *opts)
{
	size_t i;

	strbuf_addstr(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	strbuf_addf(sb, "<testsuites tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n", res->nr,
		    res->nr_fail, res->nr_error);
	strbuf_addstr(sb, "  <testsuite name=\"c2cscope check ");
	strbuf_add_xml(sb, opts->target);
	strbuf_addf(sb, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\">\n",
		    res->nr, res->nr_fail, res->nr_error);
	for (i = 0; i < res->nr; i++)
		junit_case(sb, &res->outcomes[i], opts, res->cacheline_size);
	strbuf_addstr(sb, "  </testsuite>\n</testsuites>\n");
}

static void github_escape(struct strbuf *sb, const char *s, bool property)
{
	for (; *s; s++) {
		if (*s == '%')
			strbuf_addstr(sb, "%25");
		else if (*s == '\r')
			strbuf_addstr(sb, "%0D");
		else if (*s == '\n')
			strbuf_addstr(sb, "%0A");
		else if (property && *s == ':')
			strbuf_addstr(sb, "%3A");
		else if (property && *s == ',')
			strbuf_addstr(sb, "%2C");
		else
			strbuf_addch(sb, *s);
	}
}

void gate_report_github(struct strbuf *sb, const struct gate_result *res)
{
	size_t i;

	for (i = 0; i < res->nr; i++) {
		const struct gate_outcome *o = &res->outcomes[i];
		struct strbuf title = STRBUF_INIT;
		const char *file;
		unsigned int line;

		if (o->status == GATE_PASS)
			continue;
		gate_outcome_location(o, &file, &line);
		gate_outcome_title(&title, o);
		strbuf_addstr(sb, "::error file=");
		github_escape(sb, file, true);
		strbuf_addf(sb, ",line=%u,title=", line ? line : 1);
		github_escape(sb, "c2cscope check", true);
		strbuf_addstr(sb, "::");
		github_escape(sb, title.buf, false);
		strbuf_addstr(sb, ": ");
		github_escape(sb, o->message, false);
		strbuf_addch(sb, '\n');
		strbuf_release(&title);
	}
}

#ifndef HAVE_JANSSON
int gate_report_json(struct strbuf *sb, const struct gate_result *res,
		     const struct gate_report_opts *opts)
{
	return -ENOTSUP;
}

int gate_report_sarif(struct strbuf *sb, const struct gate_result *res,
		      const struct gate_report_opts *opts)
{
	return -ENOTSUP;
}
#else
#include <jansson.h>

static void add_json(struct strbuf *sb, json_t *root)
{
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

	strbuf_addstr(sb, text);
	strbuf_addch(sb, '\n');
	free(text);
	json_decref(root);
}

static json_t *member_json(const struct gate_member *gm)
{
	return json_pack("{s:s, s:I, s:I, s:I, s:I}", "name", gm->name, "offset",
			 (json_int_t)gm->offset, "size", (json_int_t)gm->size, "first_line",
			 (json_int_t)gm->first_line, "last_line", (json_int_t)gm->last_line);
}

static json_t *outcome_json(const struct gate_outcome *o)
{
	struct strbuf rule = STRBUF_INIT;
	json_t *jo, *members = json_array();
	size_t i;

	rule_format(&rule, o->rule);
	jo = json_pack("{s:s, s:i, s:i, s:s, s:s, s:s, s:s}", "file", o->rule->file, "line",
		       (int)o->rule->line, "column", (int)o->rule->col, "struct",
		       o->block->struct_name, "rule", rule.buf, "kind",
		       rule_kind_name(o->rule->kind), "status", status_word(o->status));
	if (o->type && o->type->decl_file) {
		json_object_set_new(jo, "decl_file", json_string(o->type->decl_file));
		json_object_set_new(jo, "decl_line", json_integer(o->type->decl_line));
	}
	if (o->message)
		json_object_set_new(jo, "message", json_string(o->message));
	for (i = 0; i < o->nr_members; i++)
		json_array_append_new(members, member_json(&o->members[i]));
	json_object_set_new(jo, "members", members);
	if (o->has_lines)
		json_object_set_new(jo, "lines",
				    json_pack("[I, I]", (json_int_t)o->first_line,
					      (json_int_t)o->last_line));
	strbuf_release(&rule);
	return jo;
}

/* An array of one(outcome) for every outcome, or every one that did not pass. */
static json_t *outcomes_json(const struct gate_result *res, bool not_passed,
			     json_t *(*one)(const struct gate_outcome *o))
{
	json_t *results = json_array();
	size_t i;

	for (i = 0; i < res->nr; i++)
		if (!not_passed || res->outcomes[i].status != GATE_PASS)
			json_array_append_new(results, one(&res->outcomes[i]));
	return results;
}

int gate_report_json(struct strbuf *sb, const struct gate_result *res,
		     const struct gate_report_opts *opts)
{
	json_t *results = outcomes_json(res, false, outcome_json);

	add_json(sb,
		 json_pack("{s:s, s:i, s:I, s:I, s:I, s:I, s:o}", "target", opts->target,
			   "cacheline_size", (int)res->cacheline_size, "rules", (json_int_t)res->nr,
			   "passed", (json_int_t)res->nr_pass, "failed", (json_int_t)res->nr_fail,
			   "errors", (json_int_t)res->nr_error, "results", results));
	return 0;
}

static json_t *sarif_location(const char *file, unsigned int line)
{
	return json_pack("{s:{s:{s:s}, s:{s:i}}}", "physicalLocation", "artifactLocation", "uri",
			 file, "region", "startLine", (int)(line ? line : 1));
}

static json_t *sarif_result(const struct gate_outcome *o)
{
	struct strbuf text = STRBUF_INIT;
	const char *file;
	unsigned int line;
	json_t *jr;

	gate_outcome_location(o, &file, &line);
	gate_outcome_title(&text, o);
	strbuf_addf(&text, ": %s", o->message);
	jr = json_pack("{s:s, s:s, s:{s:s}, s:[o]}", "ruleId", rule_kind_name(o->rule->kind),
		       "level", "error", "message", "text", text.buf, "locations",
		       sarif_location(file, line));
	if (o->rule->line)
		json_object_set_new(jr, "relatedLocations",
				    json_pack("[o]", sarif_location(o->rule->file, o->rule->line)));
	strbuf_release(&text);
	return jr;
}

static json_t *sarif_rules(void)
{
	json_t *rules = json_array();
	int k;

	for (k = RULE_SIZE_LE; k <= RULE_GROUP_MARKERS; k++) {
		const char *id = rule_kind_name(k);

		if (k == RULE_SIZE_EQ)
			continue; /* shares its id with size <= */
		json_array_append_new(rules, json_pack("{s:s, s:{s:s}}", "id", id,
						       "shortDescription", "text", id));
	}
	return rules;
}

int gate_report_sarif(struct strbuf *sb, const struct gate_result *res,
		      const struct gate_report_opts *opts)
{
	json_t *results = outcomes_json(res, true, sarif_result);

	add_json(sb, json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:o}}, s:o}]}", "$schema",
			       "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0",
			       "runs", "tool", "driver", "name", "c2cscope", "version",
			       PACKAGE_VERSION, "rules", sarif_rules(), "results", results));
	return 0;
}
#endif
