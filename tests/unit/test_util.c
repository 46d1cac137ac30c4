// SPDX-License-Identifier: GPL-2.0
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

#include "util/arena.h"
#include "util/hashmap.h"
#include "util/intlist.h"
#include "util/strbuf.h"
#include "util/strpool.h"

static void strbuf_grows_and_formats(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	assert_string_equal(sb.buf, "");
	for (i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%d,", i % 10);
	assert_int_equal(sb.len, 2000);
	assert_memory_equal(sb.buf, "0,1,2,", 6);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "ab");
	strbuf_pad_to(&sb, 0, 5);
	strbuf_addch(&sb, '|');
	assert_string_equal(sb.buf, "ab   |");
	strbuf_release(&sb);
}

static void strbuf_escapes_xml(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	strbuf_add_xml(&sb, "a<b>&\"c\" 'd'\n\te\x01\x1f\x7f\xc3\xa9");
	assert_string_equal(sb.buf, "a&lt;b&gt;&amp;&quot;c&quot; &apos;d&apos;\n\te\x7f\xc3\xa9");
	strbuf_release(&sb);
}

static size_t nr_freed;

static void count_and_free(void *val)
{
	nr_freed++;
	free(val);
}

static void hashmap_frees_every_value(void **state)
{
	struct hashmap map;
	uint64_t k;

	(void)state;
	hashmap_init(&map);
	for (k = 0; k < 100; k++)
		hashmap_put(&map, k * 4096, malloc(8));
	nr_freed = 0;
	hashmap_free_values(&map, count_and_free);
	assert_int_equal(nr_freed, 100);
	assert_int_equal(map.nr, 0);
	assert_null(hashmap_get(&map, 4096));
	hashmap_put(&map, 1, malloc(8));
	hashmap_free_values(&map, NULL); /* plain free(); ASan sees a leak otherwise */
	assert_int_equal(map.nr, 0);
}

static void hashmap_holds_many_keys(void **state)
{
	struct hashmap map;
	uint64_t i, key;
	size_t iter = 0, seen = 0;
	void *val;

	hashmap_init(&map);
	for (i = 0; i < 10000; i++)
		hashmap_put(&map, i * 64, (void *)(uintptr_t)(i + 1));
	assert_int_equal(map.nr, 10000);
	for (i = 0; i < 10000; i++)
		assert_ptr_equal(hashmap_get(&map, i * 64), (void *)(uintptr_t)(i + 1));
	assert_null(hashmap_get(&map, 1));
	hashmap_put(&map, 0, (void *)(uintptr_t)7);
	assert_int_equal(map.nr, 10000);
	while (hashmap_next(&map, &iter, &key, &val))
		seen++;
	assert_int_equal(seen, 10000);
	hashmap_release(&map);
}

/* Zeroed, aligned blocks; a big one does not waste the current chunk. */
static void arena_aligns_zeroes_and_splices(void **state)
{
	struct arena a = ARENA_INIT(1024, false), b = ARENA_INIT(1024, false);
	unsigned char *p, *q, *big, *after;
	size_t i;

	p = arena_alloc(&a, 3, 8);
	q = arena_alloc(&a, 10, 64);
	assert_int_equal(((uintptr_t)q - (uintptr_t)p) % 64, 0);
	assert_true(q >= p + 3);
	for (i = 0; i < 10; i++)
		assert_int_equal(q[i], 0);
	memset(q, 0xff, 10);
	big = arena_alloc(&a, 4096, 8); /* over a quarter: a chunk of its own */
	for (i = 0; i < 4096; i++)
		assert_int_equal(big[i], 0);
	after = arena_alloc(&a, 8, 8); /* still from q's chunk */
	assert_ptr_equal(after, q + 16);
	arena_alloc(&b, 100, 8);
	arena_splice(&a, &b);
	assert_null(b.chunks);
	arena_release(&a);
	arena_release(&b);
	assert_null(a.chunks);
}

/* One copy per string, whatever buffer it came from. */
static void strpool_keeps_one_copy(void **state)
{
	struct strpool p;
	char a[] = "task_group", b[] = "task_group";
	const char *x, *y, *z;

	strpool_init(&p);
	x = strpool_intern(&p, a);
	y = strpool_intern(&p, b);
	z = strpool_intern(&p, "load_avg");
	assert_ptr_equal(x, y);
	assert_ptr_not_equal(x, a);
	assert_string_equal(z, "load_avg");
	assert_int_equal(p.nr, 2);
	strpool_release(&p);
}

static void int_list_parses_ranges_and_refuses_garbage(void **state)
{
	static const char *const bad[] = { "", "x", "3-1", "-1", "1,", "1,,2", "0-3 ", "0-70000" };
	struct err_msg err = { 0 };
	size_t nr, i;
	int *v;

	assert_int_equal(int_list_parse("0-3,8,6", "-C", &v, &nr, &err), 0);
	assert_int_equal(nr, 6);
	assert_int_equal(v[0], 0);
	assert_int_equal(v[3], 3);
	assert_int_equal(v[4], 8);
	assert_int_equal(v[5], 6);
	free(v);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(int_list_parse(bad[i], "-C", &v, &nr, &err), -EINVAL);
		assert_null(v);
		assert_non_null(strstr(err.msg, "expected numbers and ranges"));
	}
	(void)state;
}

/* A sysfs cpu list file (its newline), and the fallback without one. */
static void cpu_list_reads_sysfs_form(void **state)
{
	char path[] = "/tmp/c2c-cpulist-XXXXXX";
	int fd = mkstemp(path), *v;
	struct err_msg err = { 0 };
	size_t nr;
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("0-1,4-5\n", f);
	fclose(f);
	assert_int_equal(cpu_list_read(path, 99, &v, &nr, &err), 0);
	assert_int_equal(nr, 4);
	assert_int_equal(v[2], 4);
	free(v);
	unlink(path);
	assert_int_equal(cpu_list_read(path, 3, &v, &nr, &err), 0);
	assert_int_equal(nr, 3);
	assert_int_equal(v[2], 2);
	free(v);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strbuf_grows_and_formats),
		cmocka_unit_test(strbuf_escapes_xml),
		cmocka_unit_test(hashmap_holds_many_keys),
		cmocka_unit_test(hashmap_frees_every_value),
		cmocka_unit_test(arena_aligns_zeroes_and_splices),
		cmocka_unit_test(strpool_keeps_one_copy),
		cmocka_unit_test(int_list_parses_ranges_and_refuses_garbage),
		cmocka_unit_test(cpu_list_reads_sysfs_form),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
