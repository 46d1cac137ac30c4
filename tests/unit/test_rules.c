// SPDX-License-Identifier: GPL-2.0
/* The rules parser: every rule kind, round trip through rule_format, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "gate/gate.h"
#include "util/xalloc.h"
#include <errno.h>

static const char all_rules[] = "# every kind of rule\n"
				"struct task_group {\n"
				"\tsize <= 704\n"
				"\tsize == 704 // trailing comment\n"
				"\tcachelines <= 11\n"
				"\tisolated load_avg\n"
				"\tapart load_avg: rt_se, rt_rq\n"
				"\ttogether rcu, list; together a.b, c\n"
				"\toffset load_avg == 0x100\n"
				"\taligned load_avg 64\n"
				"\tholes <= 2\n"
				"\tpadding <= 0\n"
				"\tgroup hot: a, b.c\n"
				"\tgroup hot fits 1 line\n"
				"\tgroup hot size <= 32\n"
				"}\n"
				"\n"
				"union u\n{ size == 8 }\n";

static const char *const formatted[] = {
	"size <= 704",
	"size == 704",
	"cachelines <= 11",
	"isolated load_avg",
	"apart load_avg: rt_se, rt_rq",
	"together rcu, list",
	"together a.b, c",
	"offset load_avg == 256",
	"aligned load_avg 64",
	"holes <= 2",
	"padding <= 0",
	"group hot: a, b.c",
	"group hot fits 1 line",
	"group hot size <= 32",
};

static void parses_every_rule_kind(void **state)
{
	struct ruleset *rs = ruleset_new();
	struct err_msg err = { 0 };
	const struct rule_block *b;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	assert_int_equal(ruleset_parse_string(rs, "t.rules", all_rules, &err), 0);
	assert_int_equal(ruleset_nr_blocks(rs), 2);
	b = ruleset_block(rs, 0);
	assert_string_equal(b->struct_name, "task_group");
	assert_int_equal(b->line, 2);
	assert_int_equal(b->nr_rules, ARRAY_SIZE(formatted));
	for (i = 0; i < b->nr_rules; i++) {
		strbuf_reset(&sb);
		rule_format(&sb, &b->rules[i]);
		assert_string_equal(sb.buf, formatted[i]);
		assert_string_equal(b->rules[i].file, "t.rules");
	}
	assert_int_equal(b->rules[4].line, 7);
	assert_int_equal(b->rules[4].col, 2);
	assert_int_equal(b->rules[6].line, 8); /* second rule on one line */
	assert_int_equal(b->rules[6].col, 22);
	assert_int_equal(b->rules[4].kind, RULE_APART);
	assert_string_equal(b->rules[4].subject, "load_avg");
	assert_int_equal(b->rules[4].nr_names, 2);
	assert_string_equal(b->rules[4].names[1], "rt_rq");
	assert_int_equal(ruleset_block(rs, 1)->nr_rules, 1);
	assert_int_equal(ruleset_nr_rules(rs), ARRAY_SIZE(formatted) + 1);
	strbuf_release(&sb);
	ruleset_free(rs);
}

struct bad_case {
	const char *text;
	const char *msg;
};

static const struct bad_case bad_cases[] = {
	{ "strukt x {}", "b.rules:1:1: expected 'struct', 'union' or 'include', found 'strukt'" },
	{ "struct {\n}", "b.rules:1:8: expected a struct name, found '{'" },
	{ "struct x\n  size <= 1\n}", "b.rules:2:3: expected '{', found 'size'" },
	{ "struct x {\n  size < 4\n}", "b.rules:2:8: expected '<=' or '==', found '<'" },
	{ "struct x {\n  size <= big\n}", "b.rules:2:11: expected a number, found 'big'" },
	{ "struct x {\n  size <= 12kb\n}", "b.rules:2:11: expected a number, found '12kb'" },
	{ "struct x {\n  apart a b\n}", "b.rules:2:11: expected ':', found 'b'" },
	{ "struct x {\n  apart a: b c\n}", "b.rules:2:14: expected ',' or end of line, found 'c'" },
	{ "struct x {\n  apart a:\n}", "b.rules:2:11: expected a member name, found end of line" },
	{ "struct x {\n  together a,,b\n}", "b.rules:2:14: expected a member name, found ','" },
	{ "struct x {\n  isolated a..b\n}", "b.rules:2:12: expected a member name, found 'a..b'" },
	{ "struct x {\n  aligned f 0\n}", "b.rules:2:13: expected a positive number, found '0'" },
	{ "struct x {\n  group g fits 2\n}", "b.rules:2:17: expected 'lines', found end of line" },
	{ "struct x {\n  group g.h: a\n}", "b.rules:2:9: expected a group name, found 'g.h'" },
	{ "struct x {\n  group g a\n}", "b.rules:2:11: expected ':', 'fits' or 'size', found 'a'" },
	{ "struct x {\n  bogus 1\n}",
	  "b.rules:2:3: expected a rule (size, cachelines, isolated, apart, together, offset, "
	  "aligned, holes, padding or group), found 'bogus'" },
	{ "struct x {\n  size <= 1\n", "b.rules:3:1: expected '}', found end of file" },
	{ "struct x { size <= 1 } y", "b.rules:1:24: expected end of line, found 'y'" },
	{ "include nope", "b.rules:1:9: expected a quoted file name, found 'nope'" },
	{ "include \"x", "b.rules:1:11: expected '\"' to close the string" },
};

static void reports_errors_with_positions(void **state)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		struct ruleset *rs = ruleset_new();
		struct err_msg err = { 0 };

		assert_int_equal(ruleset_parse_string(rs, "b.rules", bad_cases[i].text, &err),
				 -EINVAL);
		if (strcmp(err.msg, bad_cases[i].msg))
			fail_msg("case %zu: got \"%s\"\nwanted \"%s\"", i, err.msg,
				 bad_cases[i].msg);
		ruleset_free(rs);
	}
}

static void includes_resolve_relative_and_catch_cycles(void **state)
{
	char dir[] = "/tmp/test_rules.XXXXXX";
	char a[128], b[128];
	struct ruleset *rs = ruleset_new();
	struct err_msg err = { 0 };
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a.rules", dir);
	snprintf(b, sizeof(b), "%s/b.rules", dir);
	f = fopen(a, "w");
	fputs("include \"b.rules\"\nstruct a { size <= 1 }\n", f);
	fclose(f);
	f = fopen(b, "w");
	fputs("struct b { size <= 2 }\n", f);
	fclose(f);
	assert_int_equal(ruleset_parse_file(rs, a, &err), 0);
	assert_int_equal(ruleset_nr_blocks(rs), 2);
	assert_string_equal(ruleset_block(rs, 0)->struct_name, "b");
	assert_string_equal(ruleset_block(rs, 0)->file, b);
	ruleset_free(rs);

	f = fopen(b, "w");
	fputs("include \"a.rules\"\n", f);
	fclose(f);
	rs = ruleset_new();
	assert_int_equal(ruleset_parse_file(rs, a, &err), -ELOOP);
	assert_non_null(strstr(err.msg, "a.rules: includes itself"));
	ruleset_free(rs);

	rs = ruleset_new();
	f = fopen(b, "w");
	fputs("include \"missing.rules\"\n", f);
	fclose(f);
	assert_int_equal(ruleset_parse_file(rs, b, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "b.rules:1:9: in include: "));
	assert_non_null(strstr(err.msg, "missing.rules: No such file or directory"));
	ruleset_free(rs);
	unlink(a);
	unlink(b);
	rmdir(dir);
}

/* Mutated and truncated input never crashes and always says where. */
static void garbage_never_crashes(void **state)
{
	static const char alphabet[] = "{}:,;#\"\\\n <=.0x9azstruct group fits";
	unsigned int seed = 12345, i, j;
	size_t len = strlen(all_rules);
	char *text = malloc(len + 1);

	for (i = 0; i < 3000; i++) {
		struct ruleset *rs = ruleset_new();
		struct err_msg err = { 0 };
		int ret;

		memcpy(text, all_rules, len + 1);
		for (j = 0; j < 1 + i % 4; j++) {
			seed = seed * 1103515245 + 12345;
			text[(seed >> 8) % len] = alphabet[(seed >> 20) % (sizeof(alphabet) - 1)];
		}
		if (i % 5 == 0)
			text[(seed >> 4) % len] = '\0';
		ret = ruleset_parse_string(rs, "g.rules", text, &err);
		if (ret)
			assert_non_null(strstr(err.msg, "g.rules"));
		ruleset_free(rs);
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_every_rule_kind),
		cmocka_unit_test(reports_errors_with_positions),
		cmocka_unit_test(includes_resolve_relative_and_catch_cycles),
		cmocka_unit_test(garbage_never_crashes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
