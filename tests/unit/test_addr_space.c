// SPDX-License-Identifier: GPL-2.0
/* Address spaces from mmap records: lookup, overlap cuts, fork, kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "symbols/addr_space.h"

static void map(struct addr_spaces *as, uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		const char *name)
{
	struct perf_mmap m = { .pid = pid,
			       .tid = pid,
			       .start = start,
			       .len = len,
			       .pgoff = pgoff,
			       .filename = name,
			       .is_mmap2 = true,
			       .prot = 5,
			       .flags = 2,
			       .cpumode = AS_CPUMODE_USER,
			       .ino = 7,
			       .maj = 8 };

	addr_spaces_mmap(as, &m);
}

static void lookup_and_map_ip(void **state)
{
	struct addr_spaces *as = addr_spaces_new();
	const struct as_map *m;

	map(as, 10, 0x400000, 0x2000, 0x1000, "/usr/bin/app");
	map(as, 10, 0x10000000, 0x100000, 0, "[heap]");
	m = addr_spaces_find(as, 10, AS_CPUMODE_USER, 0x400010);
	assert_non_null(m);
	assert_string_equal(m->short_name, "app");
	assert_int_equal(as_map_ip(m, 0x400010), 0x1010); /* file offset */
	assert_false(as_map_is_private_anon(m));
	m = addr_spaces_find(as, 10, AS_CPUMODE_USER, 0x10000040);
	assert_non_null(m);
	assert_true(m->identity);
	assert_int_equal(as_map_ip(m, 0x10000040), 0x10000040);
	assert_null(addr_spaces_find(as, 10, AS_CPUMODE_USER, 0x402000)); /* end is exclusive */
	assert_null(addr_spaces_find(as, 11, AS_CPUMODE_USER, 0x400010)); /* other process */
	assert_null(addr_spaces_find(as, 10, AS_CPUMODE_KERNEL, 0x400010));
	addr_spaces_free(as);
}

static void new_mapping_cuts_old_ones(void **state)
{
	struct addr_spaces *as = addr_spaces_new();
	const struct as_map *m;

	map(as, 10, 0x400000, 0x3000, 0, "/lib/a.so");
	map(as, 10, 0x401000, 0x1000, 0, "/lib/b.so");
	m = addr_spaces_find(as, 10, AS_CPUMODE_USER, 0x400800);
	assert_string_equal(m->short_name, "a.so");
	m = addr_spaces_find(as, 10, AS_CPUMODE_USER, 0x401800);
	assert_string_equal(m->short_name, "b.so");
	m = addr_spaces_find(as, 10, AS_CPUMODE_USER, 0x402800);
	assert_string_equal(m->short_name, "a.so");
	assert_int_equal(m->start, 0x402000);
	assert_int_equal(as_map_ip(m, 0x402800), 0x2800); /* pgoff follows the cut */
	addr_spaces_free(as);
}

static void fork_copies_into_new_process(void **state)
{
	struct addr_spaces *as = addr_spaces_new();

	map(as, 10, 0x400000, 0x1000, 0, "/usr/bin/app");
	addr_spaces_fork(as, 20, 10);
	assert_non_null(addr_spaces_find(as, 20, AS_CPUMODE_USER, 0x400000));
	/* later mappings of the child stay its own */
	map(as, 20, 0x500000, 0x1000, 0, "/lib/c.so");
	assert_null(addr_spaces_find(as, 10, AS_CPUMODE_USER, 0x500000));
	/* a thread (same pid) shares, nothing to copy */
	addr_spaces_fork(as, 10, 10);
	assert_non_null(addr_spaces_find_any(as, 10, 0x400000));
	addr_spaces_comm(as, 21, "worker");
	assert_string_equal(addr_spaces_comm_of(as, 21), "worker");
	assert_null(addr_spaces_comm_of(as, 22));
	addr_spaces_free(as);
}

static void kernel_space(void **state)
{
	struct addr_spaces *as = addr_spaces_new();
	struct perf_mmap k = { .pid = UINT32_MAX,
			       .start = 0xffffffff81000000ULL,
			       .len = 0x1000000,
			       .filename = "[kernel.kallsyms]_text",
			       .cpumode = AS_CPUMODE_KERNEL };
	const struct as_map *m;

	addr_spaces_mmap(as, &k);
	m = addr_spaces_find(as, 1, AS_CPUMODE_KERNEL, 0xffffffff81000100ULL);
	assert_non_null(m);
	assert_true(m->kernel);
	assert_string_equal(m->short_name, "[kernel.kallsyms]");
	/* code addresses: user first, then kernel */
	assert_ptr_equal(addr_spaces_find_any(as, 1, 0xffffffff81000100ULL), m);
	addr_spaces_free(as);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lookup_and_map_ip),
		cmocka_unit_test(new_mapping_cuts_old_ones),
		cmocka_unit_test(fork_copies_into_new_process),
		cmocka_unit_test(kernel_space),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
