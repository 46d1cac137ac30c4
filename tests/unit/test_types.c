// SPDX-License-Identifier: GPL-2.0
/* The type model's builder, index and helpers, on models built by hand. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "types/types.h"
#include "types/types_internal.h" /* type_db_alloc for hand-built arrays */

struct fixture {
	struct type_db *db;
	struct type *t_int, *t_uint, *t_char, *t_void_ptr, *t_list_head, *t_list_ptr;
};

static struct type *base(struct type_db *db, const char *name, uint64_t size,
			 enum base_encoding enc)
{
	struct type *t = type_db_add(db, TYPE_BASE, name);

	t->size = size;
	t->encoding = enc;
	return t;
}

static struct type *wrap(struct type_db *db, enum type_kind kind, const struct type *target)
{
	struct type *t = type_db_add(db, kind, NULL);

	t->target = target;
	if (kind == TYPE_POINTER)
		t->size = 8;
	return t;
}

static struct type *array(struct type_db *db, const struct type *elem, uint64_t n)
{
	struct type *t = wrap(db, TYPE_ARRAY, elem);

	t->nr_dims = 1;
	t->dims = type_db_alloc(db, sizeof(*t->dims));
	t->dims[0] = n;
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

static struct type *list_head(struct fixture *f)
{
	struct type *lh = type_db_add(f->db, TYPE_STRUCT, "list_head");
	struct type_member *m;

	f->t_list_ptr = wrap(f->db, TYPE_POINTER, lh);
	lh->size = 16;
	m = type_db_add_members(f->db, lh, 2);
	member(&m[0], "next", f->t_list_ptr, 0);
	member(&m[1], "prev", f->t_list_ptr, 8);
	return lh;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	f->db = type_db_new("JSON", "test.json");
	f->t_int = base(f->db, "int", 4, BASE_SIGNED);
	f->t_uint = base(f->db, "unsigned int", 4, BASE_UNSIGNED);
	f->t_char = base(f->db, "char", 1, BASE_SIGNED_CHAR);
	f->t_void_ptr = wrap(f->db, TYPE_POINTER, NULL);
	f->t_list_head = list_head(f);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	type_db_free(f->db);
	free(f);
	return 0;
}

static void expect_decl(const struct type *t, const char *name, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	type_format_decl(&sb, t, name);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void expect_name(const struct type *t, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	type_format_name(&sb, t);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void interning_returns_one_copy(void **state)
{
	struct fixture *f = *state;
	char buf[] = "list_head";
	const char *a = type_db_intern(f->db, buf);

	buf[0] = 'L';
	assert_string_equal(a, "list_head");
	assert_ptr_equal(a, type_db_intern(f->db, "list_head"));
	assert_ptr_equal(a, f->t_list_head->name);
	assert_null(type_db_intern(f->db, NULL));
	assert_string_equal(type_db_source(f->db), "JSON");
	assert_string_equal(type_db_path(f->db), "test.json");
}

static void formats_like_pahole(void **state)
{
	struct fixture *f = *state;
	struct type *cchar = wrap(f->db, TYPE_CONST, f->t_char);
	struct type *fn = wrap(f->db, TYPE_FUNC, f->t_int);
	struct type *u64 = type_db_add(f->db, TYPE_TYPEDEF, "u64");
	struct type *anon = type_db_add(f->db, TYPE_STRUCT, NULL);

	fn->nr_params = 2;
	fn->params = calloc(2, sizeof(*fn->params));
	fn->params[0] = f->t_void_ptr;
	fn->params[1] = f->t_int;
	u64->target = base(f->db, "long long unsigned int", 8, BASE_UNSIGNED);

	expect_decl(f->t_list_ptr, "next", "struct list_head *         next");
	expect_decl(wrap(f->db, TYPE_POINTER, fn), "fn",
		    "int                        (*fn)(void *, int)");
	expect_decl(array(f->db, f->t_char, 16), "name", "char                       name[16]");
	expect_decl(wrap(f->db, TYPE_POINTER, cchar), "p", "const char  *              p");
	expect_decl(f->t_uint, "u", "unsigned int               u");
	expect_decl(u64, "x", "u64                        x");
	expect_decl(anon, "a", "struct {...}               a");
	expect_decl(wrap(f->db, TYPE_POINTER, f->t_void_ptr), "pp",
		    "void * *                   pp");
	expect_decl(wrap(f->db, TYPE_CONST, f->t_void_ptr), "cp", "const void *               cp");
	expect_decl(array(f->db, f->t_int, 0), "flex", "int                        flex[]");

	expect_name(wrap(f->db, TYPE_POINTER, cchar), "const char *");
	expect_name(f->t_list_head, "struct list_head");
	expect_name(u64, "u64");
	expect_name(wrap(f->db, TYPE_POINTER, fn), "int (*)(void *, int)");
	expect_name(wrap(f->db, TYPE_POINTER, f->t_void_ptr), "void **");
	expect_decl(f->t_int, NULL, "int");
	free(fn->params);
}

static void member_arrays_follow_position(void **state)
{
	struct fixture *f = *state;
	struct type *s = type_db_add(f->db, TYPE_STRUCT, "with_flex");
	struct type *zero = array(f->db, f->t_char, 0);
	struct type_member *m = type_db_add_members(f->db, s, 3);
	struct strbuf sb = STRBUF_INIT;

	member(&m[0], "__cacheline_group_begin__hot", zero, 0);
	member(&m[1], "n", f->t_int, 0);
	member(&m[2], "data", zero, 4);
	s->size = 4;
	type_format_member(&sb, s, 0);
	assert_string_equal(sb.buf, "char                       __cacheline_group_begin__hot[0]");
	strbuf_reset(&sb);
	type_format_member(&sb, s, 2);
	assert_string_equal(sb.buf, "char                       data[]");
	strbuf_release(&sb);
}

/*
 * The member API: which members hold an offset (a union's alternatives,
 * bitfields sharing a byte, zero-size markers holding none, a trailing
 * flexible array with TYPE_AT_FLEX), what a path names (own members
 * before those of anonymous members, indexes, bitfields by their bytes)
 * and how a failing path says where, and the lines of an extent.
 */
static void member_at_and_paths(void **state)
{
	struct fixture *f = *state;
	struct type *outer = type_db_add(f->db, TYPE_STRUCT, "outer");
	struct type *anon = type_db_add(f->db, TYPE_UNION, NULL);
	struct type *zero = array(f->db, f->t_char, 0), *arr = array(f->db, f->t_list_head, 3);
	struct type_member *m = type_db_add_members(f->db, outer, 7), *u;
	const struct type_member *got;
	struct type_path p;
	uint64_t base = 0, first, last;

	anon->size = 8;
	u = type_db_add_members(f->db, anon, 2);
	member(&u[0], "word", f->t_list_ptr, 0);
	member(&u[1], "half", f->t_int, 0);
	member(&m[0], "__cacheline_group_begin__hot", zero, 0);
	member(&m[1], "a", f->t_int, 0);
	member(&m[2], NULL, anon, 8); /* union { ptr word; int half; } */
	member(&m[3], "bits1", f->t_uint, 16);
	m[3].bit_offset = 16 * 8, m[3].bit_size = 3;
	member(&m[4], "bits2", f->t_uint, 16);
	m[4].bit_offset = 16 * 8 + 3, m[4].bit_size = 9; /* bytes 16 and 17 */
	member(&m[5], "list", arr, 24);
	member(&m[6], "data", zero, 72);
	outer->size = 72;

	assert_ptr_equal(type_member_at(outer, 0, NULL, 0), &m[1]); /* the marker holds nothing */
	assert_null(type_member_at(outer, 0, &m[1], 0));
	assert_ptr_equal(type_member_at(outer, 12, NULL, 0), &m[2]);
	assert_ptr_equal(type_member_at(anon, 0, NULL, 0), &u[0]);
	assert_ptr_equal(type_member_at(anon, 0, &u[0], 0), &u[1]);
	assert_ptr_equal(type_member_at(outer, 16, NULL, 0), &m[3]);
	assert_ptr_equal(type_member_at(outer, 16, &m[3], 0), &m[4]);
	assert_ptr_equal(type_member_at(outer, 17, NULL, 0), &m[4]);
	assert_null(type_member_at(outer, 18, NULL, 0));
	assert_null(type_member_at(outer, 80, NULL, 0));
	assert_ptr_equal(type_member_at(outer, 80, NULL, TYPE_AT_FLEX), &m[6]);

	got = type_member_named(outer, "half", 4, &base);
	assert_ptr_equal(got, &u[1]);
	assert_int_equal(base, 8);

	assert_int_equal(type_member_path(outer, "half", &p), 0);
	assert_int_equal(p.start, 8);
	assert_int_equal(p.end, 12);
	assert_int_equal(type_member_path(outer, ".bits2", &p), 0);
	assert_int_equal(p.start, 16);
	assert_int_equal(p.end, 18);
	assert_int_equal(type_member_path(outer, "list[2].prev", &p), 0);
	assert_ptr_equal(p.type, f->t_list_ptr);
	assert_int_equal(p.start, 24 + 2 * 16 + 8);
	assert_int_equal(p.end, p.start + 8);
	assert_int_equal(p.parent, 24 + 2 * 16);
	assert_int_equal(type_member_path(outer, "list[3]", &p), -1);
	assert_int_equal(p.error, TYPE_PATH_INDEX_RANGE);
	assert_int_equal(type_member_path(outer, "a[1]", &p), -1);
	assert_int_equal(p.error, TYPE_PATH_NOT_ARRAY);
	assert_int_equal(type_member_path(outer, "a.b", &p), -1);
	assert_int_equal(p.error, TYPE_PATH_NOT_AGGREGATE);
	assert_ptr_equal(p.member, &m[1]);
	assert_int_equal(type_member_path(outer, "list[1].nope", &p), -1);
	assert_int_equal(p.error, TYPE_PATH_NO_MEMBER);
	assert_string_equal(p.at, "nope");
	assert_ptr_equal(p.in, f->t_list_head);
	assert_int_equal(type_member_path(outer, "list[x]", &p), -1);
	assert_int_equal(p.error, TYPE_PATH_EXPECTED_INDEX);
	assert_int_equal(type_member_path(outer, "a.", &p), -1);
	assert_int_equal(p.error, TYPE_PATH_EXPECTED_NAME);

	type_extent_lines(0, 0, 64, &first, &last); /* a marker: its line */
	assert_int_equal(first, 0);
	assert_int_equal(last, 0);
	type_extent_lines(60, 68, 64, &first, &last);
	assert_int_equal(first, 0);
	assert_int_equal(last, 1);
	type_extent_lines(64, 128, 64, &first, &last);
	assert_int_equal(first, 1);
	assert_int_equal(last, 1);
}

/*
 * Two copies of a struct whose array member has no dimension at all
 * (damaged DWARF: fuzz_dwarf found one) are compared without reading the
 * dims they do not have (memcmp of NULL: UBSan stopped the fuzzer).
 */
/*
 * Damaged DWARF where two structs each hold two of the other (fuzz_dwarf
 * found one): the alignment walks are bounded, not exponential. Without
 * the bound this takes 2^64 steps; alarm() turns a hang into a failure.
 */
static void alignment_of_mutual_structs_is_bounded(void **state)
{
	struct fixture *f = *state;
	struct type *a = type_db_add(f->db, TYPE_STRUCT, "a");
	struct type *b = type_db_add(f->db, TYPE_STRUCT, "b");
	struct type_member *ma = type_db_add_members(f->db, a, 2);
	struct type_member *mb = type_db_add_members(f->db, b, 3);

	member(&ma[0], "b0", b, 0);
	member(&ma[1], "b1", b, 8);
	member(&mb[0], "a0", a, 0);
	member(&mb[1], "a1", a, 8);
	member(&mb[2], "n", f->t_int, 16);
	alarm(10);
	assert_int_equal(type_alignment(a), 4);
	assert_int_equal(type_natural_alignment(b), 4);
	alarm(0);
}

/*
 * A struct that holds itself by value through a typedef and an array is
 * found (and named: the innermost container); pointers end the search.
 */
static void self_container_is_found(void **state)
{
	struct fixture *f = *state;
	struct type *outer = type_db_add(f->db, TYPE_STRUCT, "outer");
	struct type *inner = type_db_add(f->db, TYPE_STRUCT, "inner");
	struct type *td = wrap(f->db, TYPE_TYPEDEF, outer);
	struct type *arr = wrap(f->db, TYPE_ARRAY, td);
	struct type *ptr = wrap(f->db, TYPE_POINTER, outer);
	struct type_member *mo = type_db_add_members(f->db, outer, 2);
	struct type_member *mi = type_db_add_members(f->db, inner, 1);

	member(&mo[0], "next", ptr, 0);
	member(&mo[1], "in", inner, 8);
	member(&mi[0], "back", ptr, 0);
	assert_null(type_db_self_container(f->db));
	member(&mi[0], "back", arr, 0);
	assert_ptr_equal(type_db_self_container(f->db), inner);
}

static void index_dedupes_arrays_without_dims(void **state)
{
	struct fixture *f = *state;
	struct type *copies[2];
	int i;

	for (i = 0; i < 2; i++) {
		struct type *nodim = wrap(f->db, TYPE_ARRAY, f->t_int);
		struct type_member *m;

		copies[i] = type_db_add(f->db, TYPE_STRUCT, "nodims");
		copies[i]->size = 4;
		m = type_db_add_members(f->db, copies[i], 1);
		member(&m[0], "a", nodim, 0);
		assert_null(nodim->dims);
	}
	type_db_finish(f->db);
	assert_ptr_equal(type_db_find(f->db, "nodims"), copies[0]);
}

static void index_dedupes_and_keeps_variants(void **state)
{
	struct fixture *f = *state;
	struct type *copy, *other, *u;
	struct type_member *m;
	const struct type *all[4];

	copy = type_db_add(f->db, TYPE_STRUCT, "list_head");
	copy->size = 16;
	m = type_db_add_members(f->db, copy, 2);
	member(&m[0], "next", f->t_list_ptr, 0);
	member(&m[1], "prev", f->t_list_ptr, 8);

	other = type_db_add(f->db, TYPE_STRUCT, "list_head");
	other->size = 8;
	m = type_db_add_members(f->db, other, 2);
	member(&m[0], "next", f->t_int, 0);
	member(&m[1], "prev", f->t_int, 4);

	u = type_db_add(f->db, TYPE_UNION, "abc");
	u->size = 4;
	m = type_db_add_members(f->db, u, 1);
	member(&m[0], "i", f->t_int, 0);
	type_db_add(f->db, TYPE_FWD, "fwd_only");

	type_db_finish(f->db);
	assert_int_equal(type_db_nr_structs(f->db), 3);
	assert_string_equal(type_db_struct(f->db, 0)->name, "abc");
	assert_ptr_equal(type_db_struct(f->db, 1), f->t_list_head);
	assert_ptr_equal(type_db_struct(f->db, 2), other);
	assert_null(type_db_struct(f->db, 3));
	assert_ptr_equal(type_db_find(f->db, "list_head"), f->t_list_head);
	assert_null(type_db_find(f->db, "fwd_only"));
	assert_null(type_db_find(f->db, "nope"));
	assert_int_equal(type_db_find_all(f->db, "list_head", all, 4), 2);
	assert_ptr_equal(all[1], other);
	assert_int_equal(type_db_find_all(f->db, "list_head", all, 1), 2);
	assert_string_equal(type_db_suggest(f->db, "list_haed"), "list_head");
	assert_string_equal(type_db_suggest(f->db, "ab"), "abc");
	assert_null(type_db_suggest(f->db, "completely_different"));
}

static void helpers_strip_and_align(void **state)
{
	struct fixture *f = *state;
	struct type *td = type_db_add(f->db, TYPE_TYPEDEF, "lh_t");
	struct type *cv = wrap(f->db, TYPE_VOLATILE, td);
	struct type *aligned = type_db_add(f->db, TYPE_STRUCT, "aligned");
	struct type *packed = type_db_add(f->db, TYPE_STRUCT, "packed");
	struct type_member *m;

	td->target = f->t_list_head;
	assert_ptr_equal(type_strip(cv), f->t_list_head);
	assert_ptr_equal(type_strip_cv(cv), td);
	assert_int_equal(type_size(cv), 16);
	assert_true(type_is_aggregate(cv));
	assert_false(type_is_aggregate(f->t_list_ptr));
	assert_int_equal(type_alignment(cv), 8);
	assert_int_equal(type_alignment(f->t_char), 1);

	aligned->size = 64;
	aligned->alignment = 64;
	m = type_db_add_members(f->db, aligned, 1);
	member(&m[0], "x", f->t_int, 0);
	assert_int_equal(type_alignment(aligned), 64);
	assert_int_equal(type_alignment(array(f->db, aligned, 2)), 64);

	packed->size = 5;
	packed->packed = true;
	m = type_db_add_members(f->db, packed, 2);
	member(&m[0], "c", f->t_char, 0);
	member(&m[1], "i", f->t_int, 1);
	assert_int_equal(type_alignment(packed), 1);
	m[1].alignment = 4;
	assert_int_equal(type_alignment(packed), 4);
}

static void bitfield(struct type_member *m, const char *name, const struct type *t,
		     uint64_t bit_offset, uint32_t bit_size)
{
	m->name = name;
	m->type = t;
	m->offset = bit_offset / 8;
	m->bit_offset = bit_offset;
	m->bit_size = bit_size;
}

static void expect_extent(const struct type_member *m, uint64_t start, uint64_t end)
{
	uint64_t s, e;

	type_member_extent(m, &s, &e);
	assert_int_equal(s, start);
	assert_int_equal(e, end);
}

/* A bitfield covers the bytes that hold its bits, not its unit's size. */
static void extents_of_bitfields(void **state)
{
	struct fixture *f = *state;
	struct type_member m[5] = { 0 };

	bitfield(&m[0], "a", f->t_char, 0, 1); /* five 1-bit fields: byte 0 each */
	bitfield(&m[1], "e", f->t_char, 4, 1);
	bitfield(&m[2], "x", f->t_uint, 8, 7); /* bits 8..14: byte 1 */
	bitfield(&m[3], "y", f->t_uint, 15, 2); /* bits 15..16: bytes 1 and 2 */
	member(&m[4], "i", f->t_int, 4);
	expect_extent(&m[0], 0, 1);
	expect_extent(&m[1], 0, 1);
	expect_extent(&m[2], 1, 2);
	expect_extent(&m[3], 1, 3);
	expect_extent(&m[4], 4, 8);
}

static const struct type_group *group_named(const struct type_group *g, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(g[i].name, name))
			return &g[i];
	fail_msg("no group %s", name);
	return NULL;
}

/*
 * Group markers: one begin then one end make a group; a duplicate, a
 * missing end or a missing begin do not. Bytes used merge extents.
 */
static void group_markers(void **state)
{
	struct fixture *f = *state;
	struct type *s = type_db_add(f->db, TYPE_STRUCT, "grouped");
	struct type *mark = array(f->db, f->t_char, 0);
	static const char *const names[] = { "a", "b", "c", "d", "e" };
	const struct type_group *g;
	struct type_group *v;
	struct type_member *m;
	size_t n;
	int i;

	s->size = 16;
	m = type_db_add_members(f->db, s, 13);
	member(&m[0], TYPE_GROUP_BEGIN "ok", mark, 0);
	for (i = 0; i < 5; i++)
		bitfield(&m[1 + i], names[i], f->t_char, (uint64_t)i, 1);
	member(&m[6], TYPE_GROUP_END "ok", mark, 1);
	member(&m[7], TYPE_GROUP_BEGIN "dup", mark, 4);
	member(&m[8], TYPE_GROUP_BEGIN "dup", mark, 4);
	member(&m[9], "i", f->t_int, 4);
	member(&m[10], TYPE_GROUP_END "dup", mark, 8);
	member(&m[11], TYPE_GROUP_BEGIN "open", mark, 8);
	member(&m[12], TYPE_GROUP_END, mark, 8); /* no name: not a marker */
	assert_null(type_group_marker(&m[12], false));
	assert_string_equal(type_group_marker(&m[0], true), "ok");
	assert_null(type_group_marker(&m[0], false));

	n = type_find_groups(s, &v);
	assert_int_equal(n, 3);
	g = group_named(v, n, "ok");
	assert_true(type_group_ok(g));
	assert_int_equal(g->begin, 0);
	assert_int_equal(g->end, 6);
	assert_int_equal(g->start, 0);
	assert_int_equal(g->stop, 1);
	assert_int_equal(type_group_bytes_used(s, g), 1);
	g = group_named(v, n, "dup");
	assert_false(type_group_ok(g));
	assert_int_equal(g->nr_begin, 2);
	assert_int_equal(g->begin, 7);
	g = group_named(v, n, "open");
	assert_false(type_group_ok(g));
	assert_int_equal(g->end, -1);
	free(v);
}

/* "typedef struct {...} a_t;" is a_t: found by -C a_t and named so. */
static void typedef_names_anonymous_struct(void **state)
{
	struct type_db *db = type_db_new("DWARF", "test");
	struct type *anon = type_db_add(db, TYPE_STRUCT, NULL);
	struct type *named = type_db_add(db, TYPE_STRUCT, "named");
	struct type *u = type_db_add(db, TYPE_UNION, NULL);
	struct type *a_t = type_db_add(db, TYPE_TYPEDEF, "a_t");
	struct type *b_t = type_db_add(db, TYPE_TYPEDEF, "b_t");
	struct type *c_t = type_db_add(db, TYPE_TYPEDEF, "c_t");
	struct type *n_t = type_db_add(db, TYPE_TYPEDEF, "named_t");
	struct type *p_t = type_db_add(db, TYPE_TYPEDEF, "ptr_t");
	struct type *cv = type_db_add(db, TYPE_CONST, NULL);
	struct type *ptr = type_db_add(db, TYPE_POINTER, NULL);
	struct strbuf sb = STRBUF_INIT;

	a_t->target = anon;
	b_t->target = a_t; /* typedef a_t b_t: a_t stays the name */
	c_t->target = anon; /* a second typedef of the same body: the first wins */
	n_t->target = named;
	cv->target = u;
	ptr->target = u;
	p_t->target = ptr; /* a pointer does not name the union */
	type_db_finish(db);
	assert_string_equal(type_aggregate_name(anon), "a_t");
	assert_string_equal(type_aggregate_name(named), "named");
	assert_null(type_aggregate_name(u));
	assert_ptr_equal(type_db_find_aggregate(db, "a_t"), anon);
	assert_ptr_equal(type_db_find_aggregate(db, "b_t"), anon);
	assert_ptr_equal(type_db_find_aggregate(db, "named_t"), named);
	assert_ptr_equal(type_db_find_aggregate(db, "named"), named);
	assert_null(type_db_find_aggregate(db, "ptr_t"));
	assert_null(type_db_find_aggregate(db, "nope"));
	assert_null(type_db_find(db, "a_t")); /* the index keeps tagged structs only */
	type_format_aggregate(&sb, anon);
	strbuf_addch(&sb, '|');
	type_format_aggregate(&sb, named);
	strbuf_addch(&sb, '|');
	type_format_aggregate(&sb, u);
	assert_string_equal(sb.buf, "a_t|struct named|union (anonymous)");
	strbuf_release(&sb);
	type_db_free(db);
}

static void load_reports_bad_files(void **state)
{
	struct type_db *db = (void *)1;
	struct err_msg err = { 0 };
	int ret;

	ret = type_db_load("/nonexistent/file", NULL, &db, &err);
	assert_int_equal(ret, -ENOENT);
	assert_null(db);
	assert_non_null(strstr(err.msg, "/nonexistent/file"));
	ret = type_db_load("/proc/self/cmdline", NULL, &db, &err);
	assert_int_equal(ret, -ENOEXEC);
	assert_non_null(strstr(err.msg, "not an ELF"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(interning_returns_one_copy, setup, teardown),
		cmocka_unit_test_setup_teardown(formats_like_pahole, setup, teardown),
		cmocka_unit_test_setup_teardown(member_arrays_follow_position, setup, teardown),
		cmocka_unit_test_setup_teardown(alignment_of_mutual_structs_is_bounded, setup,
						teardown),
		cmocka_unit_test_setup_teardown(self_container_is_found, setup, teardown),
		cmocka_unit_test_setup_teardown(index_dedupes_arrays_without_dims, setup, teardown),
		cmocka_unit_test_setup_teardown(index_dedupes_and_keeps_variants, setup, teardown),
		cmocka_unit_test_setup_teardown(helpers_strip_and_align, setup, teardown),
		cmocka_unit_test_setup_teardown(extents_of_bitfields, setup, teardown),
		cmocka_unit_test_setup_teardown(group_markers, setup, teardown),
		cmocka_unit_test(typedef_names_anonymous_struct),
		cmocka_unit_test_setup_teardown(member_at_and_paths, setup, teardown),
		cmocka_unit_test(load_reports_bad_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
