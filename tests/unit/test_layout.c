// SPDX-License-Identifier: GPL-2.0
/*
 * Layout analysis and the pahole-compatible printer on models built by hand.
 * Expected texts are pahole 1.24's output for the same structs compiled with
 * gcc -g (the C source is quoted above each test), so a person can check
 * every number with offsetof/sizeof.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "layout/layout.h"

struct fx {
	struct type_db *db;
	struct type *t_int, *t_uint, *t_char, *t_long, *t_ulong, *t_short, *t_void_ptr;
	struct type *inner;
};

static struct fx *F;

static struct type *base(const char *name, uint64_t size, enum base_encoding enc)
{
	struct type *t = type_db_add(F->db, TYPE_BASE, name);

	t->size = size;
	t->encoding = enc;
	return t;
}

static struct type *wrap(enum type_kind kind, const struct type *target)
{
	struct type *t = type_db_add(F->db, kind, NULL);

	t->target = target;
	if (kind == TYPE_POINTER)
		t->size = 8;
	else if (target && kind != TYPE_FUNC)
		t->size = type_size(target);
	return t;
}

static uint64_t dims_pool[64];
static size_t dims_used;

static struct type *array(const struct type *elem, uint64_t n0, uint64_t n1)
{
	struct type *t = wrap(TYPE_ARRAY, elem);

	t->nr_dims = n1 ? 2 : 1;
	t->dims = &dims_pool[dims_used];
	dims_used += t->nr_dims;
	t->dims[0] = n0;
	if (n1)
		t->dims[1] = n1;
	t->size = n0 * (n1 ? n1 : 1) * type_size(elem);
	return t;
}

static struct type *aggregate(enum type_kind kind, const char *name, uint64_t size, uint32_t n,
			      struct type_member **m)
{
	struct type *t = type_db_add(F->db, kind, name);

	t->size = size;
	*m = type_db_add_members(F->db, t, n);
	return t;
}

static void mem(struct type_member *m, const char *name, const struct type *t, uint64_t off)
{
	m->name = name ? type_db_intern(F->db, name) : NULL;
	m->type = t;
	m->offset = off;
	m->bit_offset = off * 8;
}

static void bitfield(struct type_member *m, const char *name, const struct type *t,
		     uint64_t bit_off, uint32_t bits)
{
	mem(m, name, t, bit_off / 8);
	m->bit_offset = bit_off;
	m->bit_size = bits;
}

/* struct inner { long a; char b; }; */
static struct type *make_inner(void)
{
	struct type_member *m;
	struct type *t = aggregate(TYPE_STRUCT, "inner", 16, 2, &m);

	mem(&m[0], "a", F->t_long, 0);
	mem(&m[1], "b", F->t_char, 8);
	return t;
}

static int setup(void **state)
{
	F = calloc(1, sizeof(*F));
	F->db = type_db_new("DWARF", "test.o");
	F->t_int = base("int", 4, BASE_SIGNED);
	F->t_uint = base("unsigned int", 4, BASE_UNSIGNED);
	F->t_char = base("char", 1, BASE_SIGNED_CHAR);
	F->t_long = base("long int", 8, BASE_SIGNED);
	F->t_ulong = base("long unsigned int", 8, BASE_UNSIGNED);
	F->t_short = base("short int", 2, BASE_SIGNED);
	F->t_void_ptr = wrap(TYPE_POINTER, NULL);
	F->inner = make_inner();
	dims_used = 0;
	*state = F;
	return 0;
}

static int teardown(void **state)
{
	type_db_free(F->db);
	free(F);
	return 0;
}

static void expect_text(const struct type *t, const struct layout_print_opts *o, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	layout_print(&sb, t, o);
	if (strcmp(sb.buf, want)) {
		print_error("--- got ---\n%s--- want ---\n%s", sb.buf, want);
		fail();
	}
	strbuf_release(&sb);
}

/*
 * struct al { char c; int x __attribute__((aligned(64))); char d;
 *             struct inner in; long z; };  (gcc: DW_AT_alignment 64 on al)
 */
static struct type *make_al(void)
{
	struct type_member *m;
	struct type *t = aggregate(TYPE_STRUCT, "al", 128, 5, &m);

	t->alignment = 64;
	mem(&m[0], "c", F->t_char, 0);
	mem(&m[1], "x", F->t_int, 64);
	m[1].alignment = 64;
	mem(&m[2], "d", F->t_char, 68);
	mem(&m[3], "in", F->inner, 72);
	mem(&m[4], "z", F->t_long, 88);
	return t;
}

static const char al_text[] =
	"struct al {\n"
	"\tchar                       c;                    /*     0     1 */\n"
	"\n"
	"\t/* XXX 63 bytes hole, try to pack */\n"
	"\n"
	"\t/* --- cacheline 1 boundary (64 bytes) --- */\n"
	"\tint                        x __attribute__((__aligned__(64))); /*    64     4 */\n"
	"\tchar                       d;                    /*    68     1 */\n"
	"\n"
	"\t/* XXX 3 bytes hole, try to pack */\n"
	"\n"
	"\tstruct inner               in;                   /*    72    16 */\n"
	"\n"
	"\t/* XXX last struct has 7 bytes of padding */\n"
	"\n"
	"\tlong int                   z;                    /*    88     8 */\n"
	"\n"
	"\t/* size: 128, cachelines: 2, members: 5 */\n"
	"\t/* sum members: 30, holes: 2, sum holes: 66 */\n"
	"\t/* padding: 32 */\n"
	"\t/* paddings: 1, sum paddings: 7 */\n"
	"\t/* forced alignments: 1, forced holes: 1, sum forced holes: 63 */\n"
	"} __attribute__((__aligned__(64)));\n";

static void test_aligned(void **state)
{
	struct type *t = make_al();
	struct layout *l;
	const struct layout_summary *s;
	const struct layout_member *x;

	expect_text(t, NULL, al_text);
	assert_int_equal(layout_analyze(t, 64, &l, NULL), 0);
	s = layout_summary(l);
	assert_int_equal(s->size, 128);
	assert_int_equal(s->nr_cachelines, 2);
	assert_int_equal(s->nr_holes, 2);
	assert_int_equal(s->sum_holes, 66);
	assert_int_equal(s->padding, 32);
	assert_int_equal(s->nr_forced_alignments, 1);
	assert_int_equal(s->nr_forced_holes, 1);
	assert_int_equal(s->sum_forced_holes, 63);
	assert_int_equal(s->nr_paddings, 1);
	assert_int_equal(s->sum_paddings, 7);
	assert_int_equal(s->last_cacheline, 0);
	assert_false(s->packed);
	x = layout_member(l, 1);
	assert_int_equal(x->cacheline, 1);
	assert_true(x->forced_hole);
	assert_int_equal(layout_member(l, 0)->hole, 63);
	assert_int_equal(layout_member(l, 3)->struct_padding, 7);
	assert_int_equal(layout_find_member(l, "z"), 4);
	assert_int_equal(layout_find_member(l, "nope"), -1);
	layout_free(l);
}

/*
 * struct bits { unsigned a:3; unsigned b:5; char c; unsigned long d:40;
 *               unsigned long e:30; int f; };
 */
static struct type *make_bits(void)
{
	struct type_member *m;
	struct type *t = aggregate(TYPE_STRUCT, "bits", 16, 6, &m);

	bitfield(&m[0], "a", F->t_uint, 0, 3);
	bitfield(&m[1], "b", F->t_uint, 3, 5);
	mem(&m[2], "c", F->t_char, 1);
	bitfield(&m[3], "d", F->t_ulong, 16, 40);
	bitfield(&m[4], "e", F->t_ulong, 64, 30);
	mem(&m[5], "f", F->t_int, 12);
	return t;
}

static const char bits_text[] =
	"struct bits {\n"
	"\tunsigned int               a:3;                  /*     0: 0  4 */\n"
	"\tunsigned int               b:5;                  /*     0: 3  4 */\n"
	"\n"
	"\t/* Bitfield combined with next fields */\n"
	"\n"
	"\tchar                       c;                    /*     1     1 */\n"
	"\n"
	"\t/* Bitfield combined with previous fields */\n"
	"\n"
	"\tlong unsigned int          d:40;                 /*     0:16  8 */\n"
	"\n"
	"\t/* XXX 8 bits hole, try to pack */\n"
	"\n"
	"\t/* Force alignment to the next boundary: */\n"
	"\tlong unsigned int          :0;\n"
	"\n"
	"\tlong unsigned int          e:30;                 /*     8: 0  8 */\n"
	"\n"
	"\t/* XXX 2 bits hole, try to pack */\n"
	"\t/* Bitfield combined with next fields */\n"
	"\n"
	"\tint                        f;                    /*    12     4 */\n"
	"\n"
	"\t/* size: 16, cachelines: 1, members: 6 */\n"
	"\t/* sum members: 5 */\n"
	"\t/* sum bitfield members: 78 bits, bit holes: 2, sum bit holes: 10 bits */\n"
	"\t/* last cacheline: 16 bytes */\n"
	"};\n";

static void test_bitfields(void **state)
{
	struct type *t = make_bits();
	struct layout *l;

	expect_text(t, NULL, bits_text);
	assert_int_equal(layout_analyze(t, 64, &l, NULL), 0);
	assert_int_equal(layout_summary(l)->sum_bits, 78);
	assert_int_equal(layout_summary(l)->nr_bit_holes, 2);
	assert_int_equal(layout_member(l, 3)->offset, 0);
	assert_int_equal(layout_member(l, 3)->bitfield_offset, 16);
	assert_int_equal(layout_member(l, 3)->bit_hole, 8);
	layout_free(l);
}

/* union u { int i; char c[5]; struct inner in; }; */
static void test_union(void **state)
{
	struct type_member *m;
	struct type *t = aggregate(TYPE_UNION, "u", 16, 3, &m);

	mem(&m[0], "i", F->t_int, 0);
	mem(&m[1], "c", array(F->t_char, 5, 0), 0);
	mem(&m[2], "in", F->inner, 0);
	expect_text(t, NULL,
		    "union u {\n"
		    "\tint                        i;                  /*     0     4 */\n"
		    "\tchar                       c[5];               /*     0     5 */\n"
		    "\tstruct inner               in;                 /*     0    16 */\n"
		    "};\n");
}

/* struct pk { char a; int b; short c; } __attribute__((packed)); */
static void test_packed(void **state)
{
	struct type_member *m;
	struct type *t = aggregate(TYPE_STRUCT, "pk", 7, 3, &m);

	mem(&m[0], "a", F->t_char, 0);
	mem(&m[1], "b", F->t_int, 1);
	mem(&m[2], "c", F->t_short, 5);
	expect_text(t, NULL,
		    "struct pk {\n"
		    "\tchar                       a;                    /*     0     1 */\n"
		    "\tint                        b;                    /*     1     4 */\n"
		    "\tshort int                  c;                    /*     5     2 */\n"
		    "\n"
		    "\t/* size: 7, cachelines: 1, members: 3 */\n"
		    "\t/* last cacheline: 7 bytes */\n"
		    "} __attribute__((__packed__));\n");
}

/*
 * struct big { const char *name; char * const *pp; int m[2][3];
 *   int (*fn)(struct big *, const char *, ...); void (*v)(void);
 *   union { int ui; long ul; }; struct { char x; long y; } anon; char flex[]; };
 */
static struct type *make_big(void)
{
	struct type_member *m, *um, *sm;
	struct type *t = aggregate(TYPE_STRUCT, "big", 96, 8, &m);
	struct type *cchar = wrap(TYPE_CONST, F->t_char);
	struct type *cstr = wrap(TYPE_POINTER, cchar);
	struct type *fn = wrap(TYPE_FUNC, F->t_int);
	struct type *vfn = wrap(TYPE_FUNC, NULL);
	struct type *un = aggregate(TYPE_UNION, NULL, 8, 2, &um);
	struct type *st = aggregate(TYPE_STRUCT, NULL, 16, 2, &sm);
	static const struct type *params[2];

	params[0] = wrap(TYPE_POINTER, t);
	params[1] = cstr;
	fn->params = params;
	fn->nr_params = 2;
	fn->variadic = true;
	mem(&m[0], "name", cstr, 0);
	mem(&m[1], "pp", wrap(TYPE_POINTER, wrap(TYPE_CONST, wrap(TYPE_POINTER, F->t_char))), 8);
	mem(&m[2], "m", array(F->t_int, 2, 3), 16);
	mem(&m[3], "fn", wrap(TYPE_POINTER, fn), 40);
	mem(&m[4], "v", wrap(TYPE_POINTER, vfn), 48);
	mem(&um[0], "ui", F->t_int, 0);
	mem(&um[1], "ul", F->t_long, 0);
	mem(&m[5], NULL, un, 56);
	mem(&sm[0], "x", F->t_char, 0);
	mem(&sm[1], "y", F->t_long, 8);
	mem(&m[6], "anon", st, 64);
	mem(&m[7], "flex", array(F->t_char, 0, 0), 80);
	return t;
}

static const char big_text[] =
	"struct big {\n"
	"\tconst char  *              name;                 /*     0     8 */\n"
	"\tchar * const *             pp;                   /*     8     8 */\n"
	"\tint                        m[2][3];              /*    16    24 */\n"
	"\tint                        (*fn)(struct big *, const char  *, ...); /*    40     8 */\n"
	"\tvoid                       (*v)(void);           /*    48     8 */\n"
	"\tunion {\n"
	"\t\tint                ui;                   /*    56     4 */\n"
	"\t\tlong int           ul;                   /*    56     8 */\n"
	"\t};                                               /*    56     8 */\n"
	"\t/* --- cacheline 1 boundary (64 bytes) --- */\n"
	"\tstruct {\n"
	"\t\tchar               x;                    /*    64     1 */\n"
	"\n"
	"\t\t/* XXX 7 bytes hole, try to pack */\n"
	"\n"
	"\t\tlong int           y;                    /*    72     8 */\n"
	"\t} anon;                                          /*    64    16 */\n"
	"\tchar                       flex[];               /*    80     0 */\n"
	"\n"
	"\t/* size: 96, cachelines: 2, members: 8 */\n"
	"\t/* padding: 16 */\n"
	"\t/* last cacheline: 32 bytes */\n"
	"};\n";

static void test_nested_and_decls(void **state)
{
	expect_text(make_big(), NULL, big_text);
}

/* Kernel cache-line groups, an excerpt and the annotation hook. */
static void annotate(struct strbuf *sb, const struct type_member *m, uint64_t off, uint64_t size,
		     unsigned int depth, void *arg)
{
	(*(int *)arg)++;
	strbuf_addf(sb, " <%s@%llu>", m->name ? m->name : "?", (unsigned long long)off);
}

static struct type *make_grouped(void)
{
	struct type_member *m;
	struct type *t = aggregate(TYPE_STRUCT, "grp", 192, 7, &m);
	struct type *marker = array(F->t_char, 0, 0);

	mem(&m[0], "__cacheline_group_begin__hot", marker, 0);
	mem(&m[1], "a", F->t_long, 0);
	mem(&m[2], "b", F->t_long, 8);
	mem(&m[3], "__cacheline_group_end__hot", marker, 16);
	mem(&m[4], "__cacheline_group_begin__cold", marker, 64);
	mem(&m[5], "big", array(F->t_long, 12, 0), 64);
	mem(&m[6], "__cacheline_group_end__cold", marker, 160);
	return t;
}

static void test_groups(void **state)
{
	struct type *t = make_grouped();
	struct layout *l;
	const struct layout_group *g;
	struct layout_print_opts o = { .groups = true };
	struct strbuf sb = STRBUF_INIT;
	uint32_t n;
	int calls = 0;

	assert_int_equal(layout_analyze(t, 64, &l, NULL), 0);
	g = layout_groups(l, &n);
	assert_int_equal(n, 2);
	assert_string_equal(g[0].name, "hot");
	assert_int_equal(g[0].bytes_used, 16);
	assert_int_equal(g[0].nr_lines, 1);
	assert_string_equal(g[1].name, "cold");
	assert_int_equal(g[1].start, 64);
	assert_int_equal(g[1].end, 160);
	assert_int_equal(g[1].bytes_used, 96);
	assert_int_equal(g[1].first_line, 1);
	assert_int_equal(g[1].last_line, 2);
	assert_int_equal(g[1].nr_lines, 2);
	layout_free(l);

	layout_print(&sb, t, &o);
	assert_non_null(strstr(sb.buf,
			       "\t/* === cacheline group hot: 16 bytes used of 16, "
			       "1 cacheline (0) === */\n"
			       "\tchar                       __cacheline_group_begin__hot[0];"));
	assert_non_null(strstr(sb.buf, "/* === cacheline group cold: 96 bytes used of 96, "
				       "2 cachelines (1-2) === */"));
	assert_non_null(strstr(sb.buf, "/* === end of cacheline group cold === */"));

	/* Only line 0: members in lines 1-2 become one "..." line. */
	strbuf_reset(&sb);
	memset(&o, 0, sizeof(o));
	layout_lines_range(&o, 64, 0, 0);
	o.annotate = annotate;
	o.annotate_arg = &calls;
	layout_print(&sb, t, &o);
	assert_non_null(strstr(sb.buf, "\tlong int                   b;                    "
				       "/*     8     8 */ <b@8>\n"));
	assert_non_null(strstr(sb.buf, "/* ... */\n\n\t/* size: 192, cachelines: 3"));
	assert_null(strstr(sb.buf, "big"));
	assert_int_equal(calls, 4);
	strbuf_release(&sb);
}

static void test_hex_and_sizes(void **state)
{
	struct layout_print_opts o = { .hex = true };
	struct strbuf sb = STRBUF_INIT;

	layout_print(&sb, make_al(), &o);
	assert_non_null(strstr(sb.buf, "x __attribute__((__aligned__(64))); /*  0x40   0x4 */\n"));
	assert_non_null(strstr(
		sb.buf, "\tchar                       c;                    /*     0   0x1 */\n"));
	strbuf_reset(&sb);
	layout_print_sizes(&sb, make_al());
	assert_string_equal(sb.buf, "al\t128\t2\n");
	strbuf_release(&sb);
}

static void test_not_aggregate(void **state)
{
	struct layout *l = (void *)1;
	struct err_msg err;

	assert_int_equal(layout_analyze(F->t_int, 64, &l, &err), -EINVAL);
	assert_null(l);
	assert_non_null(strstr(err.msg, "not a struct"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_aligned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bitfields, setup, teardown),
		cmocka_unit_test_setup_teardown(test_union, setup, teardown),
		cmocka_unit_test_setup_teardown(test_packed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nested_and_decls, setup, teardown),
		cmocka_unit_test_setup_teardown(test_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hex_and_sizes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_aggregate, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
