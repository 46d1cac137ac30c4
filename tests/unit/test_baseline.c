// SPDX-License-Identifier: GPL-2.0
/*
 * JSON baselines: a model written by the layout JSON writer and read back
 * prints the same pahole text; broken documents name file and JSON path.
 */
#include <errno.h>
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
#include "layout/layout.h"
#include "util/xalloc.h"

static struct type *named(struct type_db *db, enum type_kind kind, const char *name, uint64_t size,
			  const struct type *target)
{
	struct type *t = type_db_add(db, kind, name);

	t->size = size;
	t->target = target;
	return t;
}

static void member(struct type_member *m, struct type_db *db, const char *name,
		   const struct type *t, uint64_t offset)
{
	m->name = name ? type_db_intern(db, name) : NULL;
	m->type = t;
	m->offset = offset;
	m->bit_offset = offset * 8;
}

/*
 * struct inner { int p; };
 * struct outer {
 *	u8 __cacheline_group_begin__g[0];	0
 *	struct inner *next;			0
 *	char name[16];				8
 *	int (*fn)(void *, long);		24
 *	unsigned int flag:3;			32 (bitfield)
 *	union { int x; long y; };		40
 *	struct inner in;			48
 *	u8 __cacheline_group_end__g[0];		52
 * } size 64
 */
static struct type_db *build(void)
{
	struct type_db *db = type_db_new("DWARF", "orig");
	struct type *i32 = named(db, TYPE_BASE, "int", 4, NULL);
	struct type *u32 = named(db, TYPE_BASE, "unsigned int", 4, NULL);
	struct type *i64 = named(db, TYPE_BASE, "long", 8, NULL);
	struct type *chr = named(db, TYPE_BASE, "char", 1, NULL);
	struct type *u8 =
		named(db, TYPE_TYPEDEF, "u8", 0, named(db, TYPE_BASE, "unsigned char", 1, NULL));
	struct type *inner = named(db, TYPE_STRUCT, "inner", 4, NULL);
	struct type *outer = named(db, TYPE_STRUCT, "outer", 64, NULL);
	struct type *uni = named(db, TYPE_UNION, NULL, 8, NULL);
	struct type *arr = named(db, TYPE_ARRAY, NULL, 16, chr);
	struct type *marker = named(db, TYPE_ARRAY, NULL, 0, u8);
	struct type *fn = named(db, TYPE_FUNC, NULL, 0, i32);
	struct type *fnp = named(db, TYPE_POINTER, NULL, 8, fn);
	struct type *ptr = named(db, TYPE_POINTER, NULL, 8, inner);
	const struct type **params = type_db_add_params(db, fn, 2);
	struct type_member *m;

	params[0] = named(db, TYPE_POINTER, NULL, 8, NULL);
	params[1] = i64;
	type_db_add_dims(db, arr, 1)[0] = 16;
	type_db_add_dims(db, marker, 1)[0] = 0;
	m = type_db_add_members(db, inner, 1);
	member(&m[0], db, "p", i32, 0);
	m = type_db_add_members(db, uni, 2);
	member(&m[0], db, "x", i32, 0);
	member(&m[1], db, "y", i64, 0);
	m = type_db_add_members(db, outer, 8);
	member(&m[0], db, "__cacheline_group_begin__g", marker, 0);
	member(&m[1], db, "next", ptr, 0);
	member(&m[2], db, "name", arr, 8);
	member(&m[3], db, "fn", fnp, 24);
	member(&m[4], db, "flag", u32, 32);
	m[4].bit_size = 3;
	member(&m[5], db, NULL, uni, 40);
	member(&m[6], db, "in", inner, 48);
	member(&m[7], db, "__cacheline_group_end__g", marker, 52);
	outer->decl_file = type_db_intern(db, "outer.h");
	outer->decl_line = 7;
	type_db_finish(db);
	return db;
}

static char *save(const char *text)
{
	char *path = xstrdup("/tmp/test_baseline.XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void print_all(struct strbuf *sb, const struct type_db *db)
{
	size_t i;

	for (i = 0; i < type_db_nr_structs(db); i++)
		layout_print(sb, type_db_struct(db, i), &(struct layout_print_opts){ .btf = true });
}

static void drop_line(struct strbuf *sb, const char *start)
{
	char *p = strstr(sb->buf, start), *nl;

	assert_non_null(p);
	nl = strchr(p, '\n');
	memmove(p, nl + 1, strlen(nl + 1) + 1);
	sb->len = strlen(sb->buf);
}

static void round_trip_prints_the_same(void **state)
{
	struct type_db *db = build(), *back;
	const struct type *structs[2];
	struct layout_json_doc doc = { .source = "DWARF", .file = "orig", .cacheline_size = 64 };
	struct strbuf json = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	struct err_msg err = { 0 };
	const struct type *o;
	char *path;

	structs[0] = type_db_find(db, "inner");
	structs[1] = type_db_find(db, "outer");
	doc.structs = structs;
	doc.nr_structs = 2;
	assert_int_equal(layout_json_print(&json, &doc, &err), 0);
	path = save(json.buf);
	assert_true(baseline_is_json(path));
	if (baseline_load_any(path, NULL, &back, &err))
		fail_msg("%s\n%s", err.msg, json.buf);
	assert_string_equal(type_db_source(back), "JSON");
	assert_int_equal(type_db_nr_structs(back), 2);
	print_all(&a, db);
	print_all(&b, back);
	/* JSON v1 keeps top-level members only: the anonymous union's go */
	drop_line(&a, "\t\tint                x;");
	drop_line(&a, "\t\tlong               y;");
	if (strcmp(a.buf, b.buf))
		fail_msg("original:\n%s\nread back:\n%s", a.buf, b.buf);
	o = type_db_find(back, "outer");
	assert_string_equal(o->decl_file, "outer.h");
	assert_int_equal(o->decl_line, 7);
	/* members whose type the baseline lists point at the saved struct */
	assert_ptr_equal(type_strip(o->members[6].type), type_db_find(back, "inner"));
	assert_int_equal(o->members[4].bit_size, 3);
	type_db_free(back);
	unlink(path);
	free(path);
	strbuf_release(&json);
	strbuf_release(&a);
	strbuf_release(&b);
	type_db_free(db);
}

struct bad_doc {
	const char *text;
	const char *msg; /* after "PATH" */
};

static const struct bad_doc bad_docs[] = {
	{ "{\"c2cscope_layout\": 2, \"structs\": []}",
	  ": c2cscope_layout: expected 1 (a c2cscope layout JSON v1 baseline)" },
	{ "{\"c2cscope_layout\": 1}", ": structs: expected an array" },
	{ "{\"c2cscope_layout\": 1, \"structs\": [{\"name\": \"x\", \"members\": []}]}",
	  ": structs[0].size: expected a whole number >= 0" },
	{ "{\"c2cscope_layout\": 1, \"structs\": [{\"name\": \"x\", \"size\": 8, \"kind\": "
	  "\"class\", \"members\": []}]}",
	  ": structs[0].kind: expected \"struct\" or \"union\"" },
	{ "{\"c2cscope_layout\": 1, \"structs\": [{\"name\": \"x\", \"size\": 8, \"members\": "
	  "[{\"name\": \"a\", \"type\": \"int\", \"offset\": -4, \"size\": 4}]}]}",
	  ": structs[0].members[0].offset: expected a whole number >= 0" },
	{ "{\"c2cscope_layout\": 1, \"structs\": [{\"name\": \"x\", \"size\": 8, \"members\": "
	  "[{\"name\": \"a\", \"offset\": 0, \"size\": 4}]}]}",
	  ": structs[0].members[0].type: expected a string" },
	/* null where a string is required (strlen(NULL) before) */
	{ "{\"c2cscope_layout\": 1, \"structs\": [{\"name\": \"x\", \"size\": 8, \"members\": "
	  "[{\"name\": \"a\", \"type\": null, \"offset\": 0, \"size\": 4}]}]}",
	  ": structs[0].members[0].type: expected a string" },
	{ "{\"c2cscope_layout\": 1, \"structs\": [{\"name\": \"x\", \"size\": 8, \"members\": "
	  "[3]}]}",
	  ": structs[0].members[0]: expected an object" },
	/* the first wrong field is the one named, in the order the loader reads them */
	{ "{\"c2cscope_layout\": 1, \"structs\": [{\"name\": \"x\", \"kind\": \"class\", "
	  "\"members\": []}]}",
	  ": structs[0].kind: expected \"struct\" or \"union\"" },
	{ "{\"c2cscope_layout\": 1, \"structs\": [{\"name\": \"x\", \"size\": 8, "
	  "\"forced_alignment\": \"8\", \"decl_line\": -1, \"members\": []}]}",
	  ": structs[0].forced_alignment: expected a whole number >= 0" },
	{ "{\"c2cscope_layout\": 1, \"structs\": [{\"name\": \"x\", \"size\": 8, \"members\": "
	  "[{\"name\": \"a\", \"type\": \"int\", \"offset\": 0, \"size\": 4, \"bit_offset\": "
	  "\"0\", \"bit_size\": -1}]}]}",
	  ": structs[0].members[0].bit_offset: expected a whole number >= 0" },
	{ "{\"c2cscope_layout\": 1, \"structs\": [", ":1:" },
};

static void broken_documents_say_where(void **state)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad_docs); i++) {
		char *path = save(bad_docs[i].text);
		struct strbuf want = STRBUF_INIT;
		struct type_db *db = (void *)1;
		struct err_msg err = { 0 };

		assert_int_equal(baseline_load(path, &db, &err), -EINVAL);
		assert_null(db);
		strbuf_addf(&want, "%s%s", path, bad_docs[i].msg);
		if (strncmp(err.msg, want.buf, want.len))
			fail_msg("case %zu: got \"%s\"\nwanted \"%s...\"", i, err.msg, want.buf);
		unlink(path);
		free(path);
		strbuf_release(&want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip_prints_the_same),
		cmocka_unit_test(broken_documents_say_where),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
