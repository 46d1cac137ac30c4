// SPDX-License-Identifier: GPL-2.0
/*
 * Rule evaluation on a struct built by hand through the types builder API:
 * every rule kind holds once and fails once, with the exact message.
 *
 *	struct tg {				offset	size	line
 *		__cacheline_group_begin__hot	0	0	0
 *		u64 a				0	8	0
 *		u64 b				8	8	0
 *		__cacheline_group_end__hot	16	0	0
 *		u64 load_avg			64	8	1
 *		void *rt_se			72	8	1
 *		void *rt_rq			80	8	1
 *		union { u32 x; u64 y; }		96	8	1
 *		struct in { u32 p, q; } inner	104	8	1
 *		u32 c				128	4	2
 *		u64 d				136	8	2
 *	};	size 192: holes after end marker (48), rt_rq (8), inner (16), c (4)
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gate/gate.h"
#include "util/xalloc.h"

struct member_spec {
	const char *name;
	const struct type *type;
	uint64_t offset;
};

static struct type *base(struct type_db *db, const char *name, uint64_t size)
{
	struct type *t = type_db_add(db, TYPE_BASE, name);

	t->size = size;
	t->encoding = BASE_UNSIGNED;
	return t;
}

static struct type *aggregate(struct type_db *db, enum type_kind kind, const char *name,
			      uint64_t size, const struct member_spec *spec, uint32_t n)
{
	struct type *t = type_db_add(db, kind, name);
	struct type_member *m = type_db_add_members(db, t, n);
	uint32_t i;

	t->size = size;
	for (i = 0; i < n; i++) {
		m[i].name = spec[i].name ? type_db_intern(db, spec[i].name) : NULL;
		m[i].type = spec[i].type;
		m[i].offset = spec[i].offset;
		m[i].bit_offset = spec[i].offset * 8;
	}
	return t;
}

/* tg as above; broken: b moved behind the end marker (offset 16). */
static struct type_db *build_db(void)
{
	struct type_db *db = type_db_new("JSON", "test");
	struct type *u64 = base(db, "u64", 8), *u32 = base(db, "u32", 4);
	struct type *ptr = type_db_add(db, TYPE_POINTER, NULL);
	struct type *marker = type_db_add(db, TYPE_ARRAY, NULL);
	const struct member_spec un[] = { { "x", u32, 0 }, { "y", u64, 0 } };
	const struct member_spec in[] = { { "p", u32, 0 }, { "q", u32, 4 } };
	struct type *anon, *inner;

	ptr->size = 8;
	marker->target = u64; /* u64 marker[] with no dimension: size 0 */
	anon = aggregate(db, TYPE_UNION, NULL, 8, un, 2);
	inner = aggregate(db, TYPE_STRUCT, "in", 8, in, 2);
	{
		const struct member_spec tg[] = {
			{ "__cacheline_group_begin__hot", marker, 0 },
			{ "a", u64, 0 },
			{ "b", u64, 8 },
			{ "__cacheline_group_end__hot", marker, 16 },
			{ "load_avg", u64, 64 },
			{ "rt_se", ptr, 72 },
			{ "rt_rq", ptr, 80 },
			{ NULL, anon, 96 },
			{ "inner", inner, 104 },
			{ "c", u32, 128 },
			{ "d", u64, 136 },
		};
		const struct member_spec broken[] = {
			{ "__cacheline_group_begin__hot", marker, 0 },
			{ "a", u64, 0 },
			{ "b", u64, 16 },
			{ "__cacheline_group_end__hot", marker, 16 },
			{ "c", u64, 8 },
			{ "__cacheline_group_begin__cold", marker, 24 },
			{ "d", u64, 24 },
		};
		aggregate(db, TYPE_STRUCT, "tg", 192, tg, ARRAY_SIZE(tg));
		aggregate(db, TYPE_STRUCT, "broken", 32, broken, ARRAY_SIZE(broken));
	}
	type_db_finish(db);
	return db;
}

struct expect {
	const char *rule;
	enum gate_status status;
	const char *message; /* NULL when it passes */
};

static const struct expect tg_cases[] = {
	{ "size <= 192", GATE_PASS, NULL },
	{ "size <= 128", GATE_FAIL, "size is 192 bytes, more than 128" },
	{ "size == 192", GATE_PASS, NULL },
	{ "size == 100", GATE_FAIL, "size is 192 bytes, not 100" },
	{ "cachelines <= 3", GATE_PASS, NULL },
	{ "cachelines <= 2", GATE_FAIL, "spans 3 cache lines of 64 bytes, more than 2" },
	{ "isolated a.b", GATE_ERROR, "'a' in 'a.b' is not a struct or union" },
	{ "isolated d", GATE_FAIL,
	  "d (offset 136, line 2) shares a cache line with c (offset 128, line 2)" },
	{ "isolated load_avg", GATE_FAIL,
	  "load_avg (offset 64, line 1) shares a cache line with rt_se (offset 72, line 1), "
	  "rt_rq (offset 80, line 1), x (offset 96, line 1), y (offset 96, line 1), "
	  "inner (offset 104, line 1)" },
	{ "isolated inner.q", GATE_FAIL,
	  "inner.q (offset 108, line 1) shares a cache line with load_avg (offset 64, line 1), "
	  "rt_se (offset 72, line 1), rt_rq (offset 80, line 1), x (offset 96, line 1), "
	  "y (offset 96, line 1), inner.p (offset 104, line 1)" },
	{ "apart load_avg: a, c", GATE_PASS, NULL },
	{ "apart load_avg: rt_se, c, rt_rq", GATE_FAIL,
	  "rt_se (offset 72, line 1), rt_rq (offset 80, line 1) share a cache line with "
	  "load_avg (offset 64, line 1)" },
	{ "apart c: y, d", GATE_FAIL,
	  "d (offset 136, line 2) shares a cache line with c (offset 128, line 2)" },
	{ "apart c: nope", GATE_ERROR, "no member 'nope' in struct tg" },
	{ "together a, b", GATE_PASS, NULL },
	{ "together b, load_avg", GATE_FAIL,
	  "b (offset 8, line 0), load_avg (offset 64, line 1) span lines 0-1, not one line" },
	{ "offset load_avg == 64", GATE_PASS, NULL },
	{ "offset inner.q == 108", GATE_PASS, NULL },
	{ "offset y == 96", GATE_PASS, NULL },
	{ "offset rt_se == 64", GATE_FAIL, "rt_se is at offset 72 (line 1), not 64" },
	{ "aligned load_avg 64", GATE_PASS, NULL },
	{ "aligned rt_se 16", GATE_FAIL, "rt_se is at offset 72 (line 1), not a multiple of 16" },
	{ "holes <= 4", GATE_PASS, NULL },
	{ "holes <= 1", GATE_FAIL,
	  "has 4 holes (76 bytes), more than 1; holes after __cacheline_group_end__hot "
	  "(offset 16, line 0), rt_rq (offset 80, line 1), inner (offset 104, line 1), "
	  "c (offset 128, line 2)" },
	{ "padding <= 48", GATE_PASS, NULL },
	{ "padding <= 8", GATE_FAIL, "has 48 bytes of tail padding, more than 8" },
	{ "group hot: a, b", GATE_PASS, NULL },
	{ "group hot: a, load_avg", GATE_FAIL,
	  "load_avg (offset 64, line 1) lies outside group hot [0, 16)" },
	{ "group rt: rt_se, rt_rq", GATE_PASS, NULL },
	{ "group rt2: load_avg, rt_rq", GATE_FAIL,
	  "rt_se (offset 72, line 1) sits inside group rt2 [64, 88) but not in it" },
	{ "group hot fits 1 line", GATE_PASS, NULL },
	{ "group rt fits 1 line", GATE_PASS, NULL },
	{ "group hot size <= 16", GATE_PASS, NULL },
	{ "group hot size <= 8", GATE_FAIL, "group hot [0, 16) is 16 bytes, more than 8" },
	{ "group wide: a, d", GATE_FAIL, NULL /* not pinned here: many members */ },
	{ "group wide fits 2 lines", GATE_FAIL,
	  "group wide [0, 144) spans 3 cache lines (0-2), more than 2" },
	{ "group nope fits 1 line", GATE_ERROR,
	  "no group nope: neither a 'group nope:' rule nor __cacheline_group_begin__nope/"
	  "__cacheline_group_end__nope markers" },
};

static void run_cases(const char *name, const struct expect *cases, size_t n,
		      unsigned int cacheline_size)
{
	struct type_db *db = build_db();
	struct ruleset *rs = ruleset_new();
	struct gate_opts opts = { .cacheline_size = cacheline_size };
	struct strbuf text = STRBUF_INIT;
	struct err_msg err = { 0 };
	struct gate_result res;
	size_t i;

	strbuf_addf(&text, "struct %s {\n", name);
	for (i = 0; i < n; i++)
		strbuf_addf(&text, "\t%s\n", cases[i].rule);
	strbuf_addstr(&text, "}\n");
	assert_int_equal(ruleset_parse_string(rs, "t.rules", text.buf, &err), 0);
	assert_int_equal(gate_check(rs, db, &opts, &res, &err), 0);
	assert_int_equal(res.nr, n);
	for (i = 0; i < n; i++) {
		const struct gate_outcome *o = &res.outcomes[i];

		assert_int_equal(o->rule->line, i + 2);
		if (o->status != cases[i].status)
			fail_msg("%s: status %d, wanted %d (%s)", cases[i].rule, o->status,
				 cases[i].status, o->message ? o->message : "");
		if (cases[i].status == GATE_PASS)
			assert_null(o->message);
		else if (cases[i].message && strcmp(o->message, cases[i].message))
			fail_msg("%s:\n got    \"%s\"\n wanted \"%s\"", cases[i].rule, o->message,
				 cases[i].message);
	}
	gate_result_release(&res);
	ruleset_free(rs);
	strbuf_release(&text);
	type_db_free(db);
}

static void every_rule_kind_holds_and_fails(void **state)
{
	run_cases("tg", tg_cases, ARRAY_SIZE(tg_cases), 64);
}

static const struct expect wide_lines[] = {
	{ "cachelines <= 2", GATE_PASS, NULL },
	{ "apart load_avg: rt_se", GATE_FAIL,
	  "rt_se (offset 72, line 0) shares a cache line with load_avg (offset 64, line 0)" },
	{ "apart load_avg: c", GATE_PASS, NULL },
	{ "together b, load_avg", GATE_PASS, NULL },
};

static void cacheline_size_is_a_parameter(void **state)
{
	run_cases("tg", wide_lines, ARRAY_SIZE(wide_lines), 128);
}

static const struct expect broken_groups[] = {
	{ "group hot: a, b", GATE_FAIL, "b (offset 16, line 0) lies outside group hot [0, 16)" },
};

static void kernel_groups_catch_broken_markers(void **state)
{
	struct type_db *db = build_db();
	struct ruleset *rs = ruleset_new();
	const char *const only[] = { "b*", "tg", NULL };
	struct err_msg err = { 0 };
	struct gate_result res;

	run_cases("broken", broken_groups, ARRAY_SIZE(broken_groups), 64);
	assert_int_equal(gate_add_kernel_groups(rs, db, only), 3);
	assert_int_equal(gate_check(rs, db, NULL, &res, &err), 0);
	assert_int_equal(res.nr, 3);
	assert_int_equal(res.nr_fail, 2);
	assert_string_equal(res.outcomes[0].block->struct_name, "broken");
	assert_string_equal(res.outcomes[0].rule->subject, "hot");
	assert_string_equal(res.outcomes[0].message,
			    "b (offset 16, line 0) lies outside group hot [0, 16); c (offset 8, "
			    "line 0) lies inside group hot [0, 16) but is declared outside its "
			    "markers");
	assert_string_equal(res.outcomes[1].message,
			    "group cold has __cacheline_group_begin__cold but no "
			    "__cacheline_group_end__cold");
	assert_string_equal(res.outcomes[2].block->struct_name, "tg");
	assert_int_equal(res.outcomes[2].status, GATE_PASS);
	gate_result_release(&res);
	ruleset_free(rs);
	type_db_free(db);
}

static void missing_struct_suggests_a_name(void **state)
{
	struct type_db *db = build_db();
	struct ruleset *rs = ruleset_new();
	struct err_msg err = { 0 };
	struct gate_result res;

	assert_int_equal(ruleset_parse_string(rs, "t.rules", "struct tgg { size <= 1 }", &err), 0);
	assert_int_equal(gate_check(rs, db, NULL, &res, &err), 0);
	assert_int_equal(res.nr_error, 1);
	assert_string_equal(res.outcomes[0].message,
			    "test: no struct or union tgg; did you mean tg?");
	gate_result_release(&res);
	assert_int_equal(gate_check(rs, db, &(struct gate_opts){ .cacheline_size = 96 }, &res,
				    &err),
			 -EINVAL);
	ruleset_free(rs);
	type_db_free(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_rule_kind_holds_and_fails),
		cmocka_unit_test(cacheline_size_is_a_parameter),
		cmocka_unit_test(kernel_groups_catch_broken_markers),
		cmocka_unit_test(missing_struct_suggests_a_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
