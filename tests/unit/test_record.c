// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's event parsing and encodings, against fake sysfs trees
 * (tests/record/sysfs/) and libpfm4's forced Ice Lake PMU. The expected
 * values are Intel's and the kernel's: mem-loads is event 0xcd umask 0x1
 * with the load latency in config1 (arch/x86/events/intel/core.c,
 * "event=0xcd,umask=0x1,ldlat=3"), mem-stores event 0xd0 umask 0x82
 * (MEM_INST_RETIRED.ALL_STORES), mem-loads-aux event 0x03 umask 0x82;
 * Arm SPE's format/ bits are those of drivers/perf/arm_spe_pmu.c.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/hw_breakpoint.h>

#include <cmocka.h>

#include "config.h"
#ifdef HAVE_LIBTRACEEVENT
#include <traceevent/event-parse.h>
#endif

#include "perf/perf_data.h"
#include "placement/placement_int.h"
#include "util/xalloc.h"
#include "record/record.h"
#include "record/record_int.h"

static void use_tree(const char *name)
{
	const char *top = getenv("TOP_SRCDIR");
	char path[4096];

	snprintf(path, sizeof(path), "%s/tests/record/sysfs/%s", top ? top : ".", name);
	setenv("C2CSCOPE_SYSFS_ROOT", path, 1);
}

static void defaults_of(const char *tree, unsigned int ldlat, struct record_evlist *l)
{
	struct strbuf notes = STRBUF_INIT;
	struct err_msg err = { 0 };

	use_tree(tree);
	record_evlist_release(l);
	assert_int_equal(record_evlist_add_defaults(l, ldlat, &notes, &err), 0);
	strbuf_release(&notes);
}

static void intel_loads_stores(const struct record_evlist *l, size_t loads, uint64_t ldlat)
{
	assert_int_equal(l->ev[loads].attr.type, PERF_TYPE_RAW);
	assert_int_equal(l->ev[loads].attr.config, 0x1cd);
	assert_int_equal(l->ev[loads].attr.config1, ldlat);
	assert_true(l->ev[loads].flags & RECORD_EV_MEMORY);
	assert_true(l->ev[loads].flags & RECORD_EV_MAX_PRECISE);
	assert_int_equal(l->ev[loads + 1].attr.config, 0x82d0);
	assert_int_equal(l->ev[loads + 1].attr.config1, 0);
	assert_true(l->ev[loads + 1].flags & RECORD_EV_MEMORY);
}

static void icl_defaults(void **state)
{
	struct record_evlist l = { 0 };

	defaults_of("icl", 30, &l);
	assert_int_equal(l.nr, 2);
	intel_loads_stores(&l, 0, 0x1e);
	assert_int_equal(l.ev[0].leader, -1);
	assert_int_equal(l.ev[1].leader, -1);
	assert_string_equal(l.ev[0].name, "cpu/mem-loads,ldlat=30/P");
	record_evlist_release(&l);
}

static void skx_defaults_ldlat(void **state)
{
	struct record_evlist l = { 0 };

	defaults_of("skx", 50, &l);
	assert_int_equal(l.nr, 2);
	intel_loads_stores(&l, 0, 50);
	record_evlist_release(&l);
}

static void spr_aux_group(void **state)
{
	struct record_evlist l = { 0 };

	defaults_of("spr", 30, &l);
	assert_int_equal(l.nr, 3);
	assert_int_equal(l.ev[0].attr.config, 0x8203);
	assert_int_equal(l.ev[0].leader, -1);
	assert_false(l.ev[0].flags & RECORD_EV_MEMORY);
	intel_loads_stores(&l, 1, 0x1e);
	assert_int_equal(l.ev[1].leader, 0);
	assert_int_equal(l.ev[2].leader, -1);
	record_evlist_release(&l);
}

/* Alder Lake: both core types, as perf records them (the atom's events from its own aliases). */
static void adl_hybrid(void **state)
{
	struct record_evlist l = { 0 };

	defaults_of("adl", 30, &l);
	assert_int_equal(l.nr, 5);
	assert_string_equal(l.ev[0].name, "cpu_core/mem-loads-aux/");
	assert_int_equal(l.ev[0].attr.config, 0x8203);
	intel_loads_stores(&l, 1, 0x1e);
	assert_int_equal(l.ev[1].leader, 0);
	assert_int_equal(l.ev[3].attr.type, 10);
	assert_int_equal(l.ev[3].attr.config, 0x5d0); /* event 0xd0 umask 0x5 */
	assert_int_equal(l.ev[3].attr.config1, 0x1e);
	assert_int_equal(l.ev[3].leader, -1);
	assert_int_equal(l.ev[4].attr.config, 0x6d0);
	record_evlist_release(&l);
}

static void amd_ibs(void **state)
{
	struct record_evlist l = { 0 };

	defaults_of("amd", 30, &l);
	assert_int_equal(l.nr, 1);
	assert_int_equal(l.ev[0].attr.type, 11);
	assert_int_equal(l.ev[0].attr.config, 0);
	assert_true(l.ev[0].flags & RECORD_EV_CPU_WIDE);
	assert_true(l.ev[0].flags & RECORD_EV_MEMORY);
	record_evlist_release(&l);
}

static void arm_spe(void **state)
{
	struct record_evlist l = { 0 };

	defaults_of("arm", 64, &l);
	assert_int_equal(l.nr, 1);
	assert_int_equal(l.ev[0].attr.type, 12);
	/* ts_enable bit 0, pa_enable bit 1, load_filter bit 33, store_filter bit 34 */
	assert_int_equal(l.ev[0].attr.config,
			 (1ULL << 0) | (1ULL << 1) | (1ULL << 33) | (1ULL << 34));
	assert_int_equal(l.ev[0].attr.config2, 64); /* min_latency: config2:0-11 */
	assert_true(l.ev[0].flags & RECORD_EV_AUX);
	record_evlist_release(&l);
}

static int parse_in(const char *tree, const char *spec, struct record_evlist *l,
		    struct err_msg *err)
{
	use_tree(tree);
	record_evlist_release(l);
	memset(err, 0, sizeof(*err));
	return record_evlist_parse(l, spec, err);
}

/* AMD's event field is config:0-7,32-35: the high nibble lands at bit 32. */
static void split_format(void **state)
{
	struct record_evlist l = { 0 };
	struct err_msg err;

	assert_int_equal(parse_in("amd", "cpu/event=0x1d4,umask=0x2/", &l, &err), 0);
	assert_int_equal(l.ev[0].attr.config, 0xd4 | (0x2 << 8) | (0x1ULL << 32));
	record_evlist_release(&l);
	assert_int_equal(parse_in("amd", "cpu/event=0x1000/", &l, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "too big"));
	record_evlist_release(&l);
}

static void bad_terms(void **state)
{
	struct record_evlist l = { 0 };
	struct err_msg err;

	assert_int_equal(parse_in("icl", "cpu/mem-loads,ldlatx=3/P", &l, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'ldlatx'"));
	assert_non_null(strstr(err.msg, "ldlat"));
	assert_non_null(strstr(err.msg, "umask"));
	assert_non_null(strstr(err.msg, "mem-stores"));
	assert_int_equal(l.nr, 0);
	assert_int_equal(parse_in("icl", "cpu/ldlat=70000/", &l, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "too big"));
	assert_int_equal(parse_in("icl", "cpu/umask=x/", &l, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "needs a number"));
	assert_int_equal(parse_in("icl", "nope/event=1/", &l, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "PMUs here: breakpoint, cpu, software, tracepoint"));
	assert_int_equal(parse_in("icl", "cpu/event=1", &l, &err), -EINVAL);
	assert_int_equal(parse_in("icl", "cycles:z", &l, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'z'"));
	assert_int_equal(parse_in("icl", "no-such-event", &l, &err), -ENOENT);
	record_evlist_release(&l);
}

static void alias_override_and_terms(void **state)
{
	struct record_evlist l = { 0 };
	struct err_msg err;

	/* the alias's ldlat=3 first, then the user's; name= renames */
	assert_int_equal(parse_in("icl", "cpu/mem-loads,ldlat=100,name=lat/pp", &l, &err), 0);
	assert_int_equal(l.ev[0].attr.config, 0x1cd);
	assert_int_equal(l.ev[0].attr.config1, 100);
	assert_int_equal(l.ev[0].attr.precise_ip, 2);
	assert_string_equal(l.ev[0].name, "lat");
	record_evlist_release(&l);
	/* -e mem-loads finds the cpu PMU's alias, as perf does */
	assert_int_equal(parse_in("icl", "mem-loads:P", &l, &err), 0);
	assert_int_equal(l.ev[0].attr.config, 0x1cd);
	assert_int_equal(l.ev[0].attr.config1, 3);
	assert_true(l.ev[0].flags & RECORD_EV_MAX_PRECISE);
	record_evlist_release(&l);
	assert_int_equal(parse_in("icl", "cpu/config=0x1234,config1=5,period=1000/", &l, &err), 0);
	assert_int_equal(l.ev[0].attr.config, 0x1234);
	assert_int_equal(l.ev[0].attr.config1, 5);
	assert_int_equal(l.ev[0].attr.sample_period, 1000);
	record_evlist_release(&l);
}

static void generic_and_breakpoints(void **state)
{
	struct record_evlist l = { 0 };
	struct err_msg err;

	assert_int_equal(parse_in("icl", "page-faults,cycles:u,mem:0x1000/8:w", &l, &err), 0);
	assert_int_equal(l.nr, 3);
	assert_int_equal(l.ev[0].attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(l.ev[0].attr.config, PERF_COUNT_SW_PAGE_FAULTS);
	assert_string_equal(l.ev[0].name, "page-faults");
	assert_int_equal(l.ev[1].attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(l.ev[1].attr.exclude_kernel, 1);
	assert_int_equal(l.ev[1].attr.exclude_user, 0);
	assert_int_equal(l.ev[2].attr.type, PERF_TYPE_BREAKPOINT);
	assert_int_equal(l.ev[2].attr.bp_type, HW_BREAKPOINT_W);
	assert_int_equal(l.ev[2].attr.bp_addr, 0x1000);
	assert_int_equal(l.ev[2].attr.bp_len, 8);
	record_evlist_release(&l);
	assert_int_equal(parse_in("icl", "mem:0x2000", &l, &err), 0);
	assert_int_equal(l.ev[0].attr.bp_type, HW_BREAKPOINT_R | HW_BREAKPOINT_W);
	assert_int_equal(l.ev[0].attr.bp_len, 4); /* perf's default for data */
	record_evlist_release(&l);
	assert_int_equal(parse_in("icl", "mem:0x2000/9", &l, &err), -EINVAL);
	record_evlist_release(&l);
}

static void groups(void **state)
{
	struct record_evlist l = { 0 };
	struct err_msg err;

	assert_int_equal(parse_in("icl", "{cpu/mem-loads-aux/,cpu/event=0xcd,umask=1/}:k,cpu-clock",
				  &l, &err),
			 -EINVAL); /* icl has no mem-loads-aux alias */
	assert_int_equal(l.nr, 0);
	assert_int_equal(parse_in("spr", "{cpu/mem-loads-aux/,cpu/event=0xcd,umask=1/}:k,cpu-clock",
				  &l, &err),
			 0);
	assert_int_equal(l.nr, 3);
	assert_int_equal(l.ev[0].leader, -1);
	assert_int_equal(l.ev[1].leader, 0);
	assert_int_equal(l.ev[2].leader, -1);
	assert_int_equal(l.ev[1].attr.config, 0x1cd);
	assert_int_equal(l.ev[1].attr.exclude_user, 1);
	assert_int_equal(l.ev[2].attr.exclude_user, 0);
	assert_string_equal(l.ev[1].name, "cpu/event=0xcd,umask=1/");
	record_evlist_release(&l);
}

/* Garbage never crashes: each refusal says what it expected. */
static void garbage_specs(void **state)
{
	static const char *const bad[] = {
		"",
		",",
		"{",
		"}",
		"{}",
		"{}:u",
		"cpu/",
		"cpu//x",
		"/",
		"//",
		"mem:",
		"mem:/",
		"mem:0x1:q",
		"::",
		"a:b:c",
		"{cycles,{cycles}}",
		"cpu/event/",
		"cpu/=1/",
		"cpu/event==1/",
		"cycles:",
		"sched:",
		":sched",
		"cpu/event=0x1ffffffffffffffff/",
	};
	struct record_evlist l = { 0 };
	char longname[5000];
	struct err_msg err;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = parse_in("icl", bad[i], &l, &err);

		if (ret) {
			assert_true(ret < 0);
			assert_true(err.msg[0] != 0);
		}
	}
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	assert_true(parse_in("icl", longname, &l, &err) < 0);
	record_evlist_release(&l);
}

/* DIR/REL := text */
static void put_file(const char *dir, const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A format/ file that is not "configN:LO-HI", or a type that is no number, names itself. */
static void bad_sysfs_format(void **state)
{
	char dir[] = "/tmp/c2c-sysfs-XXXXXX", path[256];
	struct record_evlist l = { 0 };
	struct err_msg err = { 0 };

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/cpu", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/cpu/format", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	put_file(dir, "cpu/type", "4\n");
	put_file(dir, "cpu/format/event", "config:7-0\n");
	setenv("C2CSCOPE_SYSFS_ROOT", dir, 1);
	assert_int_equal(record_evlist_parse(&l, "cpu/event=1/", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "cpu/format/event: expected configN:LO-HI"));
	assert_non_null(strstr(err.msg, "'config:7-0'"));
	put_file(dir, "cpu/format/event", "config:0-7\n");
	put_file(dir, "cpu/type", "four\n");
	assert_int_equal(record_evlist_parse(&l, "cpu/event=1/", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "cpu/type: expected a number, found 'four'"));
	record_evlist_release(&l);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

/* LIBPFM_FORCE_PMU=icl (set in main) where sysfs has no alias. */
static void pfm_icl(void **state)
{
	struct record_evlist l = { 0 };

	defaults_of("none", 30, &l);
	assert_int_equal(l.nr, 2);
	intel_loads_stores(&l, 0, 0x1e);
	assert_string_equal(l.ev[0].name, "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30");
	record_evlist_release(&l);
}

static void configure_and_describe(void **state)
{
	struct record_sampling samp = { .period = 5000, .user_only = true };
	struct strbuf out = STRBUF_INIT;
	struct record_evlist l = { 0 };

	defaults_of("spr", 30, &l);
	record_evlist_configure(&l, &samp);
	assert_int_equal(l.ev[1].attr.sample_period, 5000);
	assert_int_equal(l.ev[1].attr.freq, 0);
	assert_int_equal(l.ev[1].attr.exclude_kernel, 1);
	assert_true(l.ev[1].attr.sample_type & PERF_SAMPLE_DATA_SRC);
	assert_false(l.ev[0].attr.sample_type & PERF_SAMPLE_DATA_SRC);
	record_evlist_describe(&l, &out);
	assert_non_null(strstr(out.buf,
			       "cpu/mem-loads,ldlat=30/: type=4 config=0x1cd config1=0x1e "
			       "config2=0x0 sample_type=IP|TID|TIME|ADDR|CPU|PERIOD|WEIGHT|"
			       "DATA_SRC|IDENTIFIER|PHYS_ADDR precise_ip=3"));
	assert_non_null(strstr(out.buf, "cpu/mem-loads-aux/: type=4 config=0x8203 "));
	assert_non_null(strstr(out.buf, "group: {cpu/mem-loads-aux/, cpu/mem-loads,ldlat=30/}"));
	strbuf_release(&out);
	record_evlist_release(&l);
}

/*
 * The TRACING_DATA blob the recorder writes reads back; cut at every
 * length or with any byte flipped it is refused or read, never overrun
 * (the ASan build checks that).
 */
static void tracing_blob_damage(void **state)
{
	struct record_evlist l = { 0 };
	struct strbuf blob = STRBUF_INIT;
	struct err_msg err = { 0 };
	struct tep_handle *tep;
	size_t n;

	if (!record_tracefs_root()) {
		skip();
		return;
	}
	assert_int_equal(
		record_evlist_parse(&l, "sched:sched_switch,sched:sched_migrate_task", &err), 0);
	assert_int_equal(record_tracing_data_build(l.ev, l.nr, &blob, &err), 0);
#ifdef HAVE_LIBTRACEEVENT
	assert_int_equal(placement_tracing_blob_parse(blob.buf, blob.len, "t", &tep, &err), 0);
	tep_free(tep);
	for (n = 0; n < blob.len; n++) {
		char *cut = malloc(n + 1);
		char saved = blob.buf[n];

		memcpy(cut, blob.buf, n);
		if (!placement_tracing_blob_parse(cut, n, "t", &tep, &err))
			tep_free(tep);
		free(cut);
		blob.buf[n] ^= 0x5a;
		if (!placement_tracing_blob_parse(blob.buf, blob.len, "t", &tep, &err))
			tep_free(tep);
		blob.buf[n] = saved;
	}
	assert_int_equal(placement_tracing_blob_parse(blob.buf, 12, "t", &tep, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "t: TRACING_DATA at +0x"));
#endif
	strbuf_release(&blob);
	record_evlist_release(&l);
}

/* libtraceevent leaks on its error paths: the damage test's refusals are its own. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

/* A thread forked while recording has its parent's comm until it sets its own. */
static void placement_fork_inherits_comm(void **state)
{
	struct task_placement *p = xcalloc(1, sizeof(*p));
	struct perf_comm parent = { .pid = 10, .tid = 10, .comm = "placed" };
	struct perf_comm renamed = { .pid = 10, .tid = 12, .comm = "worker" };
	struct perf_task fork1 = { .pid = 10, .ppid = 10, .tid = 11, .ptid = 10 };
	struct perf_task fork2 = { .pid = 10, .ppid = 10, .tid = 12, .ptid = 10 };
	struct perf_task orphan = { .pid = 20, .ppid = 1, .tid = 20, .ptid = 1 };

	hashmap_init(&p->by_tid);
	task_placement_on_comm(p, &parent);
	task_placement_on_fork(p, &fork1);
	task_placement_on_comm(p, &renamed);
	task_placement_on_fork(p, &fork2); /* its own comm came first: it stays */
	task_placement_on_fork(p, &orphan); /* a parent never seen: no name made up */
	assert_int_equal(p->nr_threads, 4);
	assert_string_equal(task_placement_thread_of(p, 0, 11)->comm, "placed");
	assert_string_equal(task_placement_thread_of(p, 0, 12)->comm, "worker");
	assert_null(task_placement_thread_of(p, 0, 20)->comm);
	task_placement_free(p);
}

/* Per line, the HITMs a thread took: by the rules the report counts with (perf 6.1: L2+HITM is an L2 hit). */
static void placement_hitms_by_the_rules(void **state)
{
	struct task_placement *p = xcalloc(1, sizeof(*p));
	const uint64_t load = PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT);
	const uint64_t l3_hitm = load | PERF_MEM_S(LVL, L3) | PERF_MEM_S(SNOOP, HITM);
	const uint64_t l2_hitm = load | PERF_MEM_S(LVL, L2) | PERF_MEM_S(SNOOP, HITM);
	const uint64_t rmt_hitm = load | PERF_MEM_S(LVL, REM_CCE1) | PERF_MEM_S(SNOOP, HITM);
	const uint64_t l1_hit = load | PERF_MEM_S(LVL, L1) | PERF_MEM_S(SNOOP, NONE);
	const uint64_t ds[] = { l3_hitm, l2_hitm, rmt_hitm, l1_hit };
	struct perf_sample s = { .pid = 10, .tid = 11, .cpu = 1, .addr = 0x1008 };
	struct task_placement_line *l;
	size_t i;

	hashmap_init(&p->by_tid);
	p->line_size = 64;
	p->rules = MEM_SRC_PERF61;
	for (i = 0; i < sizeof(ds) / sizeof(ds[0]); i++) {
		s.data_src = ds[i];
		task_placement_on_memory(p, &s);
	}
	l = hashmap_get(&task_placement_thread_of(p, 10, 11)->lines, 0x1000);
	assert_non_null(l);
	assert_int_equal(l->samples, 4);
	assert_int_equal(l->hitms, 2); /* L3 and remote: the L2 one is an L2 hit */
	p->rules = MEM_SRC_MODERN;
	s.data_src = l2_hitm;
	task_placement_on_memory(p, &s);
	assert_int_equal(l->hitms, 3); /* newer perf: a local HITM */
	task_placement_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(icl_defaults),
		cmocka_unit_test(skx_defaults_ldlat),
		cmocka_unit_test(spr_aux_group),
		cmocka_unit_test(adl_hybrid),
		cmocka_unit_test(amd_ibs),
		cmocka_unit_test(arm_spe),
		cmocka_unit_test(split_format),
		cmocka_unit_test(bad_terms),
		cmocka_unit_test(alias_override_and_terms),
		cmocka_unit_test(generic_and_breakpoints),
		cmocka_unit_test(groups),
		cmocka_unit_test(garbage_specs),
		cmocka_unit_test(bad_sysfs_format),
		cmocka_unit_test(pfm_icl),
		cmocka_unit_test(configure_and_describe),
		cmocka_unit_test(tracing_blob_damage),
		cmocka_unit_test(placement_fork_inherits_comm),
		cmocka_unit_test(placement_hitms_by_the_rules),
	};

	setenv("LIBPFM_FORCE_PMU", "icl", 1); /* before libpfm4 initializes */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
