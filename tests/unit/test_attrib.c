// SPDX-License-Identifier: GPL-2.0
/* attrib_field_path on models built by hand: nesting, arrays, unions, padding. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "attrib/attrib.h"

static struct type_db *db;
static const struct type *outer, *padded, *flex, *anon_holder;
static uint64_t dims4[] = { 4 }, dims2[] = { 2 }, dims0[] = { 0 }, dims23[] = { 2, 3 };

static struct type *base(const char *name, uint64_t size)
{
	struct type *t = type_db_add(db, TYPE_BASE, name);

	t->size = size;
	return t;
}

static struct type *array(const struct type *elem, uint64_t *dims, uint32_t nr)
{
	struct type *t = type_db_add(db, TYPE_ARRAY, NULL);
	uint64_t n = 1;
	uint32_t i;

	t->target = elem;
	t->dims = dims;
	t->nr_dims = nr;
	for (i = 0; i < nr; i++)
		n *= dims[i];
	t->size = n * type_size(elem);
	return t;
}

static void member(struct type_member *m, const char *name, const struct type *t, uint64_t off)
{
	m->name = name;
	m->type = t;
	m->offset = off;
	m->bit_offset = off * 8;
}

static void bitfield(struct type_member *m, const char *name, const struct type *t,
		     uint64_t bit_off, uint32_t bits)
{
	member(m, name, t, bit_off / 8);
	m->bit_offset = bit_off;
	m->bit_size = bits;
}

/*
 * struct inner { int x; int y; long z; };                       16 bytes
 * struct outer { long hdr; struct inner in; struct inner arr[4];
 *                union { long u_l; int u_i[2]; } u;
 *                unsigned flag:8, cnt:8; int grid[2][3]; };     128 bytes
 */
static int setup(void **state)
{
	struct type *t_int, *t_long, *t_uint, *t_char, *inner, *u, *o, *p, *f, *anon, *h;
	struct type_member *m;

	db = type_db_new("JSON", "test");
	t_int = base("int", 4);
	t_long = base("long", 8);
	t_uint = base("unsigned int", 4);
	t_char = base("char", 1);

	inner = type_db_add(db, TYPE_STRUCT, "inner");
	inner->size = 16;
	m = type_db_add_members(db, inner, 3);
	member(&m[0], "x", t_int, 0);
	member(&m[1], "y", t_int, 4);
	member(&m[2], "z", t_long, 8);

	u = type_db_add(db, TYPE_UNION, NULL);
	u->size = 8;
	m = type_db_add_members(db, u, 2);
	member(&m[0], "u_l", t_long, 0);
	member(&m[1], "u_i", array(t_int, dims2, 1), 0);

	o = type_db_add(db, TYPE_STRUCT, "outer");
	o->size = 128;
	m = type_db_add_members(db, o, 7);
	member(&m[0], "hdr", t_long, 0);
	member(&m[1], "in", inner, 8);
	member(&m[2], "arr", array(inner, dims4, 1), 24);
	member(&m[3], "u", u, 88);
	bitfield(&m[4], "flag", t_uint, 96 * 8, 8);
	bitfield(&m[5], "cnt", t_uint, 96 * 8 + 8, 8);
	member(&m[6], "grid", array(t_int, dims23, 2), 100);
	outer = o;

	p = type_db_add(db, TYPE_STRUCT, "padded");
	p->size = 16;
	m = type_db_add_members(db, p, 2);
	member(&m[0], "c", t_char, 0);
	member(&m[1], "l", t_long, 8);
	padded = p;

	f = type_db_add(db, TYPE_STRUCT, "flex");
	f->size = 4;
	m = type_db_add_members(db, f, 2);
	member(&m[0], "n", t_int, 0);
	member(&m[1], "data", array(t_int, dims0, 1), 4);
	flex = f;

	anon = type_db_add(db, TYPE_STRUCT, NULL);
	anon->size = 8;
	m = type_db_add_members(db, anon, 2);
	member(&m[0], "a", t_int, 0);
	member(&m[1], "b", t_int, 4);
	h = type_db_add(db, TYPE_STRUCT, "holder");
	h->size = 16;
	m = type_db_add_members(db, h, 2);
	member(&m[0], "lock", t_long, 0);
	member(&m[1], NULL, anon, 8);
	anon_holder = h;
	type_db_finish(db);
	return 0;
}

static int teardown(void **state)
{
	type_db_free(db);
	return 0;
}

static void expect_path(const struct type *t, uint64_t off, int ret, const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(attrib_field_path(t, off, &sb), ret);
	assert_string_equal(sb.buf, path);
	strbuf_release(&sb);
}

static void test_nested(void **state)
{
	expect_path(outer, 0, 0, "hdr");
	expect_path(outer, 7, 0, "hdr+7");
	expect_path(outer, 8, 0, "in.x");
	expect_path(outer, 12, 0, "in.y");
	expect_path(outer, 13, 0, "in.y+1");
	expect_path(outer, 16, 0, "in.z");
}

static void test_arrays(void **state)
{
	expect_path(outer, 24, 0, "arr[0].x");
	expect_path(outer, 24 + 2 * 16 + 8, 0, "arr[2].z");
	expect_path(outer, 24 + 3 * 16 + 4, 0, "arr[3].y");
	/* grid[1][2]: 100 + (1 * 3 + 2) * 4 */
	expect_path(outer, 120, 0, "grid[1][2]");
	expect_path(outer, 100, 0, "grid[0][0]");
	expect_path(flex, 4 + 5 * 4, 0, "data[5]");
}

static void test_unions_bitfields(void **state)
{
	expect_path(outer, 88, 0, "u.u_l");
	expect_path(outer, 96, 0, "flag");
	expect_path(outer, 97, 0, "cnt");
	expect_path(anon_holder, 12, 0, "b");
}

static void test_outside(void **state)
{
	expect_path(padded, 3, -ERANGE, "");
	expect_path(padded, 8, 0, "l");
	expect_path(padded, 16, -ERANGE, "");
	expect_path(outer, 99, -ERANGE, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_arrays),
		cmocka_unit_test(test_unions_bitfields),
		cmocka_unit_test(test_outside),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
