// SPDX-License-Identifier: GPL-2.0
/* The c2c model on synthetic sample arrays: lines, rows, sort, filter. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "c2c/c2c_model.h"

#define LD_L1 (0x2ULL | (0x2ULL | 0x8) << 5)
#define LD_LCL_HITM (0x2ULL | (0x2ULL | 0x40) << 5 | 0x10ULL << 19)
#define LD_RMT_HITM (0x2ULL | (0x2ULL | 0x400) << 5 | 0x10ULL << 19)
#define ST_L1 (0x4ULL | (0x2ULL | 0x8) << 5)

static const int cpu2node[4] = { 0, 0, 1, 1 };
static struct as_map heap = { .start = 0x10000,
			      .end = 0x900000,
			      .identity = true,
			      .filename = "[heap]",
			      .short_name = "[heap]" };
static struct as_map text = { .start = 0x400000,
			      .end = 0x401000,
			      .filename = "/bin/app",
			      .short_name = "app",
			      .maj = 8,
			      .ino = 42 };

static struct c2c_model_opts base_opts(void)
{
	struct c2c_model_opts o = {
		.display = C2C_DISPLAY_TOT,
		.keys = { C2C_KEY_IADDR },
		.nr_keys = 1,
		.nr_cpus = 4,
		.cpu2node = cpu2node,
		.nr_nodes = 2,
	};
	return o;
}

static void add(struct c2c_model *m, uint64_t addr, uint64_t ip, uint64_t ds, uint64_t weight,
		uint32_t cpu, uint32_t pid)
{
	struct c2c_sample s = {
		.ip = ip,
		.addr = addr,
		.data_src = ds,
		.weight = weight,
		.cpu = cpu,
		.pid = pid,
		.tid = pid,
		.cpumode = AS_CPUMODE_USER,
		.imap = &text,
		.dmap = &heap,
	};
	c2c_model_add(m, &s);
}

static void lines_rows_and_order(void **state)
{
	struct c2c_model_opts o = base_opts();
	struct c2c_model *m = c2c_model_new(&o);
	struct c2c_line *a, *b;

	/* line 0x20000: 3 remote + 1 local HITM, 2 stores */
	add(m, 0x20008, 0x400100, LD_RMT_HITM, 300, 0, 1);
	add(m, 0x20008, 0x400100, LD_RMT_HITM, 100, 2, 1);
	add(m, 0x20010, 0x400200, LD_RMT_HITM, 200, 3, 1);
	add(m, 0x20008, 0x400100, LD_LCL_HITM, 50, 1, 1);
	add(m, 0x20000, 0x400300, ST_L1, 0, 0, 1);
	add(m, 0x20000, 0x400300, ST_L1, 0, 2, 1);
	add(m, 0x20008, 0x400100, LD_L1, 7, 0, 1);
	/* line 0x30000: 1 local HITM; line 0x40000: loads only */
	add(m, 0x30004, 0x400100, LD_LCL_HITM, 80, 1, 1);
	add(m, 0x40000, 0x400100, LD_L1, 5, 1, 1);
	c2c_model_finish(m);

	assert_int_equal(m->nr_lines, 3);
	assert_int_equal(m->nr_shared, 2);
	assert_int_equal(m->totals.nr_entries, 9);
	assert_int_equal(m->shared_totals.tot_hitm, 5);
	assert_int_equal(m->nr_displayed, 2);
	a = m->lines[0];
	b = m->lines[1];
	assert_int_equal(a->addr, 0x20000);
	assert_int_equal(a->g.stats.rmt_hitm, 3);
	assert_int_equal(a->g.stats.lcl_hitm, 1);
	assert_int_equal(a->index, 0);
	assert_int_equal(b->addr, 0x30000);
	assert_int_equal(b->index, 1);
	assert_false(m->lines[2]->displayed);
	assert_int_equal(c2c_group_cpu_count(m, &a->g), 4);

	/* rows: offset ascending, then by HITMs */
	assert_int_equal(a->nr_rows, 3);
	assert_int_equal(a->rows[0]->offset, 0x0);
	assert_true(a->rows[0]->valid); /* stores */
	assert_int_equal(a->rows[1]->offset, 0x8);
	assert_int_equal(a->rows[1]->g.stats.tot_hitm, 3);
	assert_int_equal(a->rows[2]->offset, 0x10);
	/* mean cycles: each load in exactly one bucket */
	assert_int_equal(a->rows[1]->cycles[C2C_BUCKET_RMT_HITM].n, 2);
	assert_true(c2c_mean_value(&a->rows[1]->cycles[C2C_BUCKET_RMT_HITM]) == 200.0);
	assert_true(c2c_mean_value(&a->rows[1]->cycles[C2C_BUCKET_LCL_HITM]) == 50.0);
	assert_true(c2c_mean_value(&a->rows[1]->cycles[C2C_BUCKET_LOAD]) == 7.0);
	{
		uint32_t nodes[4];

		assert_int_equal(c2c_group_cpu_nodes(m, &a->rows[1]->g, nodes, 4), 2);
		assert_int_equal(nodes[0], 0);
		assert_int_equal(nodes[1], 1);
	}
	c2c_model_free(m);
}

static void threshold_is_one_in_a_thousand(void **state)
{
	struct c2c_model_opts o = base_opts();
	struct c2c_model *m = c2c_model_new(&o);
	int i;

	for (i = 0; i < 999; i++)
		add(m, 0x20000, 0x400100, LD_RMT_HITM, 1, 0, 1);
	add(m, 0x30000, 0x400100, LD_RMT_HITM, 1, 0, 1);
	add(m, 0x40000, 0x400100, LD_LCL_HITM, 1, 0, 1);
	c2c_model_finish(m);
	/* 1/1001 < 0.1%: the last two lines are hidden */
	assert_int_equal(m->nr_displayed, 1);
	c2c_model_free(m);

	m = c2c_model_new(&o);
	for (i = 0; i < 999; i++)
		add(m, 0x20000, 0x400100, LD_RMT_HITM, 1, 0, 1);
	add(m, 0x30000, 0x400100, LD_RMT_HITM, 1, 0, 1);
	c2c_model_finish(m);
	/* 1/1000 is exactly 0.1%: shown */
	assert_int_equal(m->nr_displayed, 2);
	c2c_model_free(m);

	o.show_all = true;
	m = c2c_model_new(&o);
	add(m, 0x20000, 0x400100, LD_RMT_HITM, 1, 0, 1);
	add(m, 0x30000, 0x400100, LD_L1, 1, 0, 1);
	c2c_model_finish(m);
	assert_int_equal(m->nr_displayed, 2);
	c2c_model_free(m);
}

static void display_metric_orders_lines(void **state)
{
	struct c2c_model_opts o = base_opts();
	struct c2c_model *m;

	o.display = C2C_DISPLAY_LCL;
	m = c2c_model_new(&o);
	add(m, 0x20000, 0x400100, LD_RMT_HITM, 1, 0, 1);
	add(m, 0x20000, 0x400100, LD_RMT_HITM, 1, 0, 1);
	add(m, 0x30000, 0x400100, LD_LCL_HITM, 1, 0, 1);
	c2c_model_finish(m);
	assert_int_equal(m->lines[0]->addr, 0x30000);
	assert_int_equal(m->nr_displayed, 1); /* no local HITM on 0x20000 */
	c2c_model_free(m);

	o.display = C2C_DISPLAY_RMT;
	m = c2c_model_new(&o);
	add(m, 0x20000, 0x400100, LD_RMT_HITM, 1, 0, 1);
	add(m, 0x30000, 0x400100, LD_LCL_HITM, 1, 0, 1);
	add(m, 0x30000, 0x400100, LD_LCL_HITM, 1, 0, 1);
	c2c_model_finish(m);
	assert_int_equal(m->lines[0]->addr, 0x20000);
	c2c_model_free(m);
}

static void ties_follow_line_address(void **state)
{
	struct c2c_model_opts o = base_opts();
	struct c2c_model *m = c2c_model_new(&o);

	add(m, 0x50000, 0x400100, LD_RMT_HITM, 1, 0, 1);
	add(m, 0x30000, 0x400100, LD_RMT_HITM, 1, 0, 1);
	add(m, 0x40000, 0x400100, LD_RMT_HITM, 1, 0, 1);
	c2c_model_finish(m);
	assert_int_equal(m->lines[0]->addr, 0x30000);
	assert_int_equal(m->lines[1]->addr, 0x40000);
	assert_int_equal(m->lines[2]->addr, 0x50000);
	c2c_model_free(m);
}

static void double_cl_and_anon_pid_keys(void **state)
{
	struct c2c_model_opts o = base_opts();
	struct c2c_model *m;

	o.double_cl = true;
	m = c2c_model_new(&o);
	add(m, 0x20000, 0x400100, LD_RMT_HITM, 1, 0, 1);
	add(m, 0x20040, 0x400100, LD_RMT_HITM, 1, 0, 1);
	add(m, 0x20080, 0x400100, LD_RMT_HITM, 1, 0, 1);
	c2c_model_finish(m);
	assert_int_equal(m->nr_lines, 2);
	assert_int_equal(m->lines[0]->g.stats.rmt_hitm, 2);
	assert_int_equal(m->lines[0]->rows[1]->offset, 0x40);
	c2c_model_free(m);

	/* private anonymous memory: the same address in two processes differs */
	o.double_cl = false;
	m = c2c_model_new(&o);
	add(m, 0x20000, 0x400100, LD_RMT_HITM, 1, 0, 1);
	add(m, 0x20000, 0x400100, LD_RMT_HITM, 1, 0, 2);
	c2c_model_finish(m);
	assert_int_equal(m->nr_lines, 2);
	c2c_model_free(m);

	/* no mapping at all: keyed by address only */
	m = c2c_model_new(&o);
	{
		struct c2c_sample s = { .ip = 1,
					.addr = 0x20000,
					.data_src = LD_RMT_HITM,
					.cpumode = AS_CPUMODE_USER,
					.pid = 1 };

		c2c_model_add(m, &s);
		s.pid = 2;
		c2c_model_add(m, &s);
	}
	c2c_model_finish(m);
	assert_int_equal(m->nr_lines, 1);
	assert_int_equal(m->totals.nomap, 2);
	c2c_model_free(m);
}

static void coalesce_keys(void **state)
{
	struct c2c_model_opts o = base_opts();
	struct c2c_model *m;

	assert_int_equal(c2c_parse_keys("tid,pid", &o), 0);
	assert_int_equal(o.nr_keys, 2);
	assert_int_equal(c2c_parse_keys("tid,bogus", &o), -EINVAL);
	assert_int_equal(c2c_parse_keys("pid", &o), 0);
	m = c2c_model_new(&o);
	add(m, 0x20008, 0x400100, LD_RMT_HITM, 1, 0, 1);
	add(m, 0x20008, 0x400200, LD_RMT_HITM, 1, 0, 1);
	add(m, 0x20008, 0x400100, LD_RMT_HITM, 1, 0, 3);
	c2c_model_finish(m);
	/* by pid (shared memory would merge these lines; rows split by pid) */
	assert_int_equal(m->lines[0]->nr_rows, 1);
	assert_int_equal(m->lines[0]->rows[0]->g.stats.rmt_hitm, 2);
	c2c_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lines_rows_and_order),
		cmocka_unit_test(threshold_is_one_in_a_thousand),
		cmocka_unit_test(display_metric_orders_lines),
		cmocka_unit_test(ties_follow_line_address),
		cmocka_unit_test(double_cl_and_anon_pid_keys),
		cmocka_unit_test(coalesce_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
