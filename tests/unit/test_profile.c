// SPDX-License-Identifier: GPL-2.0
/*
 * profile_new, profile_field and profile_member_field on a struct with
 * anonymous members, and a hotness file that names a field inside one:
 *
 * struct s { long a; struct { long ab; long b; }; union { int u; }; long c; };
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "profile/profile.h"

static struct type_db *db;
static struct type *s;

static void member(struct type_member *m, const char *name, const struct type *t, uint64_t off)
{
	m->name = name;
	m->type = t;
	m->offset = off;
	m->bit_offset = off * 8;
}

/* A struct or union of size bytes with n members, to be filled. */
static struct type_member *aggregate(struct type **t, enum type_kind kind, const char *name,
				     uint64_t size, uint32_t n)
{
	*t = type_db_add(db, kind, name);
	(*t)->size = size;
	return type_db_add_members(db, *t, n);
}

static int setup(void **state)
{
	struct type *t_long = type_db_add(db = type_db_new("JSON", "test"), TYPE_BASE, "long");
	struct type *t_int = type_db_add(db, TYPE_BASE, "int"), *wrap, *u;
	struct type_member *m;

	(void)state;
	t_long->size = 8;
	t_int->size = 4;
	m = aggregate(&wrap, TYPE_STRUCT, NULL, 16, 2);
	member(&m[0], "ab", t_long, 0);
	member(&m[1], "b", t_long, 8);
	m = aggregate(&u, TYPE_UNION, NULL, 4, 1);
	member(&m[0], "u", t_int, 0);
	m = aggregate(&s, TYPE_STRUCT, "s", 40, 4);
	member(&m[0], "a", t_long, 0);
	member(&m[1], NULL, wrap, 8);
	member(&m[2], NULL, u, 24);
	member(&m[3], "c", t_long, 32);
	type_db_finish(db);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	type_db_free(db);
	return 0;
}

/* One field per top-level member; a wrapper is named after what it holds. */
static void test_fields(void **state)
{
	struct struct_profile *p = profile_new(s);

	(void)state;
	assert_int_equal(p->nr_fields, 4);
	assert_string_equal(p->fields[0].name, "a");
	assert_string_equal(p->fields[1].name, "{ab, b}");
	assert_string_equal(p->fields[2].name, "u");
	assert_string_equal(p->fields[3].name, "c");
	/* each name inside a wrapper finds it; a prefix does not */
	assert_ptr_equal(profile_field(p, "ab"), &p->fields[1]);
	assert_ptr_equal(profile_field(p, "b"), &p->fields[1]);
	assert_ptr_equal(profile_field(p, "a"), &p->fields[0]);
	assert_ptr_equal(profile_field(p, "u"), &p->fields[2]);
	assert_null(profile_field(p, "ab, b"));
	assert_null(profile_field(p, "{"));
	assert_null(profile_field(p, "x"));
	/* each top-level member maps to its field, the wrappers included */
	assert_ptr_equal(profile_member_field(p, &s->members[1]), &p->fields[1]);
	assert_ptr_equal(profile_member_field(p, &s->members[2]), &p->fields[2]);
	assert_ptr_equal(profile_member_field(p, &s->members[3]), &p->fields[3]);
	profile_free(p);
}

/* A hotness file names the field inside the wrapper; the wrapper gets it. */
static void test_hotness(void **state)
{
	char path[] = "/tmp/c2c-test-profile.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct struct_profile *p = NULL;
	struct err_msg err = { 0 };

	(void)state;
	assert_non_null(f);
	fputs("struct s\nab read_write\nc read_mostly\n* cold\n", f);
	fclose(f);
	assert_int_equal(profile_parse_hotness(path, s, &p, &err), 0);
	unlink(path);
	assert_non_null(p);
	assert_int_equal(profile_field(p, "b")->cls, FIELD_WRITE_HOT);
	assert_int_equal(profile_field(p, "c")->cls, FIELD_READ_MOSTLY);
	assert_int_equal(profile_field(p, "a")->cls, FIELD_COLD);
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_hotness),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
