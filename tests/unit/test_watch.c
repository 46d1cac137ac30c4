// SPDX-License-Identifier: GPL-2.0
/*
 * watch's FIELD parser and breakpoint windows on a model built by hand:
 * nested and anonymous members, array indexes, ADDR/LEN, the errors with
 * their did-you-mean; the MESI replay on a sequence worked out by hand.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perf/mem_src.h"
#include "watch/watch_int.h"

static struct type_db *db;
static uint64_t dims3[] = { 3 };

static struct type *base(const char *name, uint64_t size)
{
	struct type *t = type_db_add(db, TYPE_BASE, name);

	t->size = size;
	return t;
}

static void member(struct type_member *m, const char *name, const struct type *t, uint64_t off)
{
	m->name = name;
	m->type = t;
	m->offset = off;
	m->bit_offset = off * 8;
}

/*
 * struct in { int p; int q; };
 * struct s { int x; struct { long y; }; struct in z[3]; char c; };
 */
static int setup(void **state)
{
	struct type *i32, *i64, *chr, *in, *anon, *arr, *s;
	struct type_member *m;

	(void)state;
	db = type_db_new("JSON", "test");
	i32 = base("int", 4);
	i64 = base("long", 8);
	chr = base("char", 1);
	in = type_db_add(db, TYPE_STRUCT, "in");
	in->size = 8;
	m = type_db_add_members(db, in, 2);
	member(&m[0], "p", i32, 0);
	member(&m[1], "q", i32, 4);
	anon = type_db_add(db, TYPE_STRUCT, NULL);
	anon->size = 8;
	m = type_db_add_members(db, anon, 1);
	member(&m[0], "y", i64, 0);
	arr = type_db_add(db, TYPE_ARRAY, NULL);
	arr->target = in;
	arr->dims = dims3;
	arr->nr_dims = 1;
	arr->size = 24;
	s = type_db_add(db, TYPE_STRUCT, "s");
	s->size = 48;
	m = type_db_add_members(db, s, 4);
	member(&m[0], "x", i32, 0);
	member(&m[1], NULL, anon, 8);
	member(&m[2], "z", arr, 16);
	member(&m[3], "c", chr, 40);
	type_db_finish(db);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	type_db_free(db);
	return 0;
}

static void window(uint64_t addr, uint64_t size, uint64_t want_addr, uint32_t want_len,
		   bool want_partial)
{
	uint64_t a;
	uint32_t len;
	bool partial;

	watch_bp_window(addr, size, &a, &len, &partial);
	assert_int_equal(a, want_addr);
	assert_int_equal(len, want_len);
	assert_int_equal(partial, want_partial);
}

static void test_windows(void **state)
{
	(void)state;
	window(0x1000, 8, 0x1000, 8, false);
	window(0x1004, 4, 0x1004, 4, false);
	window(0x1001, 1, 0x1001, 1, false);
	window(0x1001, 2, 0x1000, 4, false); /* 2 bytes across a 2-byte boundary */
	window(0x1002, 4, 0x1000, 8, false);
	window(0x1006, 4, 0x1000, 8, true); /* crosses 8: the first bytes only */
	window(0x1000, 16, 0x1000, 8, true);
	window(0x1003, 0, 0x1003, 1, false);
}

struct want {
	const char *spec;
	int ret;
	uint64_t addr, size;
	const char *msg; /* a part of the error */
};

static void resolve(const struct want *wt)
{
	struct watch w = { .types = db, .exe = "test" };
	struct err_msg err = { 0 };
	struct watch_field f;
	char *name = NULL;
	int ret = watch_resolve(&w, wt->spec, &f, &name, &err);

	if (ret != wt->ret)
		fail_msg("%s: %d (%s), expected %d", wt->spec, ret, err.msg, wt->ret);
	if (!ret) {
		assert_int_equal(f.addr, wt->addr);
		assert_int_equal(f.size, wt->size);
		assert_string_equal(f.name, wt->spec);
		free((char *)f.type_name);
		free(name);
	} else if (!strstr(err.msg, wt->msg)) {
		fail_msg("%s: '%s' lacks '%s'", wt->spec, err.msg, wt->msg);
	}
}

static void test_specs(void **state)
{
	static const struct want cases[] = {
		{ "s.x@0x1000", 0, 0x1000, 4, NULL },
		{ "struct s.y@0x1000", 0, 0x1008, 8, NULL }, /* through the anonymous struct */
		{ "s.z[2].q@4096", 0, 0x1000 + 16 + 2 * 8 + 4, 4, NULL },
		{ "s.z[0]@0x1000", 0, 0x1010, 8, NULL },
		{ "s.c@0x1000", 0, 0x1028, 1, NULL },
		{ "s@0x1000", 0, 0x1000, 48, NULL },
		{ "0x2000/4", 0, 0x2000, 4, NULL },
		{ "s.xx@0x1000", -ENOENT, 0, 0, "struct s has no field 'xx'; did you mean 'x'?" },
		{ "s.yy@0x1000", -ENOENT, 0, 0, "did you mean 'y'?" },
		{ "ss.x@0x1000", -ENOENT, 0, 0, "no struct or union ss; did you mean s?" },
		{ "s.z[3].p@0x1000", -ERANGE, 0, 0, "index 3 is past the array's 3 elements" },
		{ "s.x[1]@0x1000", -EINVAL, 0, 0, "not a one-dimensional array" },
		{ "s.z[x]@0x1000", -EINVAL, 0, 0, "expected [NUMBER]" },
		{ "s.x.p@0x1000", -EINVAL, 0, 0, "'p' is not inside a struct or union" },
		{ "s.x@", -EINVAL, 0, 0, "expected an address after '@'" },
		{ "s.x@0x10zz", -EINVAL, 0, 0, "expected an address after '@'" },
		{ "0x2000/0", -EINVAL, 0, 0, "LEN must be 1 to 8 bytes" },
		{ "0x2000/9", -EINVAL, 0, 0, "LEN must be 1 to 8 bytes" },
		{ "0x2000", -EINVAL, 0, 0, "expected ADDR/LEN" },
		{ "counter.x", -EINVAL, 0, 0, "variables need a target's executable" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		resolve(&cases[i]);
}

static struct watch_access acc(uint64_t time, uint32_t cpu, uint16_t field,
			       enum attrib_access access)
{
	return (struct watch_access){ .time = time, .cpu = cpu, .field = field, .access = access };
}

/*
 * a and b share the line at 0x1000, c is alone at 0x1040. Each step's
 * comment is what MESI says; the replay must count exactly those.
 */
static void test_replay(void **state)
{
	struct watch_field_int fields[3] = { 0 };
	struct watch_access seq[] = {
		acc(1, 0, 0, ATTRIB_ACCESS_WRITE), /* cold: cpu0 M */
		acc(2, 1, 1, ATTRIB_ACCESS_WRITE), /* b meets a's dirty line: HITM */
		acc(3, 1, 0, ATTRIB_ACCESS_READ), /* cpu1 has it M: L1 hit */
		acc(4, 0, 0, ATTRIB_ACCESS_READ), /* a meets b's write: HITM, both S */
		acc(5, 0, 0, ATTRIB_ACCESS_WRITE), /* S to M, no dirty copy elsewhere */
		acc(6, 1, 1, ATTRIB_ACCESS_RMW), /* b meets a's write: HITM */
		acc(7, 0, 2, ATTRIB_ACCESS_WRITE), /* c: cold */
		acc(8, 1, 2, ATTRIB_ACCESS_READ), /* c meets c's write: HITM */
	};
	static const uint8_t codes[] = {
		MEM_SRC_CODE_STORE | MEM_SRC_CLS_LCL_DRAM,
		MEM_SRC_CODE_STORE | MEM_SRC_CLS_LCL_HITM,
		MEM_SRC_CLS_L1,
		MEM_SRC_CLS_LCL_HITM,
		MEM_SRC_CODE_STORE | MEM_SRC_CLS_LCL_PEER,
		MEM_SRC_CODE_LOCKED | MEM_SRC_CLS_LCL_HITM,
		MEM_SRC_CODE_STORE | MEM_SRC_CLS_LCL_DRAM,
		MEM_SRC_CLS_LCL_HITM,
	};
	struct watch w = { .fields = fields, .nr_fields = 3, .acc = seq, .nr_acc = 8 };
	const struct watch_line *l;
	size_t i;

	(void)state;
	fields[0].pub.bp_addr = 0x1000;
	fields[1].pub.bp_addr = 0x1008;
	fields[2].pub.bp_addr = 0x1040;
	watch_replay(&w);
	assert_int_equal(w.sum.replayed_hitm, 4);
	assert_int_equal(w.sum.nr_lines, 2);
	l = &w.sum.lines[0];
	assert_int_equal(l->addr, 0x1000);
	assert_int_equal(l->accesses, 6);
	assert_int_equal(l->replayed_hitm, 3);
	assert_int_equal(l->nr_pairs, 2);
	assert_int_equal(l->pairs[0].field, 1); /* b after a's writes, twice */
	assert_int_equal(l->pairs[0].writer, 0);
	assert_int_equal(l->pairs[0].hitm, 2);
	assert_int_equal(l->pairs[1].field, 0);
	assert_int_equal(l->pairs[1].writer, 1);
	assert_int_equal(l->pairs[1].hitm, 1);
	l = &w.sum.lines[1];
	assert_int_equal(l->addr, 0x1040);
	assert_int_equal(l->replayed_hitm, 1);
	assert_int_equal(l->pairs[0].field, 2);
	assert_int_equal(l->pairs[0].writer, 2);
	for (i = 0; i < 8; i++)
		if (seq[i].code != codes[i])
			fail_msg("access %zu: code %#x, expected %#x", i, seq[i].code, codes[i]);
	for (i = 0; i < w.sum.nr_lines; i++)
		free((void *)w.lines[i].pairs);
	free(w.lines);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_specs),
		cmocka_unit_test(test_replay),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
