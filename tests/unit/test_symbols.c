// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol resolution: this test program's own functions through libdwfl
 * (by path, then by build id from a ~/.debug-style cache), kallsyms files,
 * and the per-address cache.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "perf/perf_data.h"
#include "symbols/kallsyms.h"
#include "symbols/resolve.h"

__attribute__((noinline)) void symbols_test_target(void);
__attribute__((noinline)) void symbols_test_target(void)
{
	__asm__ volatile("nop; nop; nop; nop" ::: "memory");
}

/* The executable mapping holding fn, as an MMAP2 record would give it. */
static int self_map(struct as_map *m, char *path, size_t len)
{
	unsigned long long start, end, pgoff;
	uint64_t fn = (uint64_t)(uintptr_t)symbols_test_target;
	char line[4096], perms[8];
	FILE *f = fopen("/proc/self/maps", "r");
	int pos, found = -1;

	while (f && found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &pgoff,
			   &pos) < 4 ||
		    fn < start || fn >= end)
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(path, len, "%s", line + pos);
		memset(m, 0, sizeof(*m));
		m->start = start;
		m->end = end;
		m->pgoff = pgoff;
		m->filename = path;
		m->short_name = strrchr(path, '/') + 1;
		m->dso_id = 1;
		found = 0;
	}
	if (f)
		fclose(f);
	return found;
}

static void resolves_own_function(void **state)
{
	struct sym_resolver_opts opts = { 0 };
	struct sym_resolver *r = sym_resolver_new(&opts);
	uint64_t ip = (uint64_t)(uintptr_t)symbols_test_target + 1;
	const struct sym_info *si, *again;
	static char path[4096];
	struct as_map m;

	assert_int_equal(self_map(&m, path, sizeof(path)), 0);
	si = sym_resolve(r, &m, ip);
	assert_non_null(si->symbol);
	assert_string_equal(si->symbol, "symbols_test_target");
	assert_int_equal(si->sym_offset, 1);
	assert_string_equal(si->dso, "test_symbols");
	assert_non_null(strstr(si->srcline, "test_symbols.c:"));
	again = sym_resolve(r, &m, ip);
	assert_ptr_equal(si, again); /* resolved once, cached */
	/* no map at all */
	si = sym_resolve(r, NULL, ip);
	assert_null(si->symbol);
	assert_string_equal(si->dso, "[unknown]");
	sym_resolver_free(r);
}

static void finds_object_by_build_id(void **state)
{
	char dir[] = "/tmp/c2c-symtest.XXXXXX", cmd[8192], hex[41];
	struct sym_resolver_opts opts = { 0 };
	uint64_t ip = (uint64_t)(uintptr_t)symbols_test_target;
	static char path[4096];
	struct sym_resolver *r;
	struct err_msg err;
	struct as_map m;
	unsigned int i;

	assert_int_equal(self_map(&m, path, sizeof(path)), 0);
	if (perf_build_id_of_file(path, m.build_id, &m.build_id_size, &err))
		skip();
	assert_non_null(mkdtemp(dir));
	for (i = 0; i < m.build_id_size; i++)
		sprintf(hex + 2 * i, "%02x", m.build_id[i]);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/.build-id/%.2s && cp '%s' %s/.build-id/%.2s/%s",
		 dir, hex, path, dir, hex, hex + 2);
	assert_int_equal(system(cmd), 0);
	m.filename = "/nonexistent/moved/test_symbols";
	opts.debug_dir = dir;
	r = sym_resolver_new(&opts);
	assert_string_equal(sym_resolve(r, &m, ip)->symbol, "symbols_test_target");
	sym_resolver_free(r);
	/* a wrong build id finds nothing: perf's fallback text */
	m.build_id[0] ^= 0xff;
	m.dso_id = 2;
	r = sym_resolver_new(&opts);
	assert_null(sym_resolve(r, &m, ip)->symbol);
	assert_non_null(strstr(sym_resolve(r, &m, ip)->srcline, "test_symbols["));
	sym_resolver_free(r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void kallsyms_file(void **state)
{
	char path[] = "/tmp/c2c-kallsyms.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct kallsyms *k;
	uint64_t off = 0;

	fprintf(f, "ffffffff81000000 T _text\nffffffff81001000 t do_thing\n"
		   "ffffffff81002000 D some_data\nffffffff81003000 T other_thing\n");
	fclose(f);
	k = kallsyms_load(path);
	assert_non_null(k);
	assert_string_equal(kallsyms_lookup(k, 0xffffffff81001010ULL, &off), "do_thing");
	assert_int_equal(off, 0x10);
	/* data symbols are skipped: still inside do_thing's range */
	assert_string_equal(kallsyms_lookup(k, 0xffffffff81002010ULL, &off), "do_thing");
	assert_null(kallsyms_lookup(k, 0xffffffff80000000ULL, &off));
	/* the extent runs to the next text symbol; the last has none */
	assert_int_equal(kallsyms_extent(k, 0xffffffff81001010ULL), 0x2000);
	assert_int_equal(kallsyms_extent(k, 0xffffffff81000000ULL), 0x1000);
	assert_int_equal(kallsyms_extent(k, 0xffffffff81003000ULL), 0);
	assert_int_equal(kallsyms_extent(k, 0xffffffff80000000ULL), 0);
	kallsyms_free(k);
	/* hidden addresses (all zero) are no kallsyms */
	f = fopen(path, "w");
	fprintf(f, "0000000000000000 T _text\n0000000000000000 t do_thing\n");
	fclose(f);
	assert_null(kallsyms_load(path));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(resolves_own_function),
		cmocka_unit_test(finds_object_by_build_id),
		cmocka_unit_test(kallsyms_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
