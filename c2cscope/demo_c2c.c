// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope demo, the record + report step: run one build of the sched-core
 * model under `c2cscope record` (the PMU when the machine has a
 * memory-sampling one, else the c2csim simulator), show the report's rows
 * for task_group's load_avg line and keep the numbers for the summary:
 * HITMs on every line task_group spans, on load_avg, and the HITMs and
 * simulated stall cycles of set_task_cpu and update_cfs_group there.
 */
#include "config.h"
#include "demo.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

/* Threads x iterations the PMU needs for a useful number of samples. */
#define PMU_ITERATION_FACTOR 100

static int record_build(struct demo *d, int run, const char *data, const char *log, bool sim)
{
	struct strbuf bin = STRBUF_INIT, threads = STRBUF_INIT, iters = STRBUF_INIT;
	const char *args[12];
	int n = 0, rc;

	strbuf_addf(&bin, "%s/sched-core-%s", d->samples, demo_runs[run]);
	strbuf_addf(&threads, "%u", d->threads);
	strbuf_addf(&iters, "%u", sim ? d->iterations : d->iterations * PMU_ITERATION_FACTOR);
	args[n++] = "record";
	if (sim)
		args[n++] = "--sim";
	args[n++] = "-o";
	args[n++] = data;
	args[n++] = "--";
	args[n++] = bin.buf;
	args[n++] = "--threads";
	args[n++] = threads.buf;
	args[n++] = "--iterations";
	args[n++] = iters.buf;
	args[n] = NULL;
	rc = demo_c2c(d, log, false, args);
	strbuf_release(&bin);
	strbuf_release(&threads);
	strbuf_release(&iters);
	return rc;
}

/*
 * The model prints "struct task_group N bytes", "task group at 0x...;
 * load_avg line at 0x..."; the report is keyed by them.
 */
static bool find_addresses(const char *log, struct demo_line_facts *f)
{
	const char *size = strstr(log, "struct task_group "), *at = strstr(log, "task group at 0x");

	return size && at && sscanf(size, "struct task_group %" SCNu64, &f->tg_size) == 1 &&
	       sscanf(at, "task group at 0x%" SCNx64 "; load_avg line at 0x%" SCNx64, &f->tg,
		      &f->line) == 2;
}

/* The model's lines that say how much work it did: wakeups, the checksum. */
static void keep_work(struct demo_line_facts *f, const char *log)
{
	static const char *const keys[] = { " wakeups (", ": load_avg " };
	const char *p = log;
	size_t i;

	strbuf_reset(&f->work);
	while (*p) {
		const char *eol = strchrnul(p, '\n');

		for (i = 0; i < ARRAY_SIZE(keys); i++)
			if (memmem(p, (size_t)(eol - p), keys[i], strlen(keys[i])))
				strbuf_addf(&f->work, "%.*s\n", (int)(eol - p), p);
		p = *eol ? eol + 1 : eol;
	}
}

/* Print the report's Pareto block of one line: its header and rows. */
static void print_line_rows(const char *report, uint64_t line)
{
	struct strbuf key = STRBUF_INIT;
	const char *p, *eol;
	int shown = 0;

	strbuf_addf(&key, "  0x%" PRIx64 "  HITM", line);
	p = strstr(report, key.buf);
	strbuf_release(&key);
	while (p && p > report && p[-1] != '\n')
		p--;
	for (; p && *p && shown < 14; p = *eol ? eol + 1 : eol, shown++) {
		eol = strchrnul(p, '\n');
		if (eol == p)
			break;
		printf("    %.*s\n", (int)(eol - p), p);
	}
	if (!shown)
		printf("    (the report has no block for line 0x%" PRIx64 ")\n", line);
}

#ifdef HAVE_JANSSON
static uint64_t json_u64(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) :
								 0;
}

static uint64_t json_hex(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? strtoull(s, NULL, 16) : UINT64_MAX;
}

/* task_group's member the report names for the row ("rt_se"), or NULL. */
static const char *row_field(json_t *row, struct strbuf *sb)
{
	json_t *a = json_object_get(row, "attribution");
	const char *type = json_string_value(json_object_get(a, "outer_type"));
	const char *field = json_string_value(json_object_get(a, "outer_field"));

	if (!type || !field || strcmp(type, "task_group"))
		return NULL;
	strbuf_add(sb, field, strcspn(field, ".["));
	return sb->buf;
}

/* Simulated stall cycles of a row's loads: count x mean weight per bucket. */
static uint64_t row_cycles(json_t *row)
{
	static const char *const buckets[] = { "rmt_hitm", "lcl_hitm", "rmt_peer", "lcl_peer" };
	json_t *st = json_object_get(row, "stats"), *mean = json_object_get(row, "mean_cycles");
	uint64_t loads = json_u64(st, "load"), rest = loads;
	double cycles = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(buckets); i++) {
		uint64_t n = json_u64(st, buckets[i]);

		cycles += (double)n * json_number_value(json_object_get(mean, buckets[i]));
		rest -= n < rest ? n : rest;
	}
	cycles += (double)rest * json_number_value(json_object_get(mean, "load"));
	return (uint64_t)(cycles + 0.5);
}

/* A row of load_avg's line: load_avg's own, or another field's. */
static void add_line_row(struct demo_line_facts *f, json_t *row)
{
	uint64_t off = json_hex(row, "offset");
	uint64_t hitm = json_u64(json_object_get(row, "stats"), "tot_hitm");
	const char *sym = json_string_value(json_object_get(row, "symbol"));
	struct strbuf item = STRBUF_INIT, fsb = STRBUF_INIT;
	const char *field = row_field(row, &fsb);
	bool load_avg = field ? !strcmp(field, "load_avg") : !off;
	struct strbuf *names = load_avg ? &f->load_avg_fns : &f->other_rows;

	if (!hitm)
		goto out;
	if (load_avg)
		f->hitm_load_avg += hitm;
	else
		f->hitm_other += hitm;
	strbuf_addstr(&item, sym ? sym : "?");
	if (!load_avg && field) /* "set_task_cpu on rt_se (0x8)" */
		strbuf_addf(&item, " on %s", field);
	if (!load_avg)
		strbuf_addf(&item, " (0x%" PRIx64 ")", off);
	if (!strstr(names->buf, item.buf))
		strbuf_addf(names, "%s%s", names->len ? ", " : "", item.buf);
out:
	strbuf_release(&item);
	strbuf_release(&fsb);
}

/* A row on any of task_group's lines: the functions the summary follows. */
static void add_tg_row(struct demo_line_facts *f, json_t *row, uint64_t cycles)
{
	const char *sym = json_string_value(json_object_get(row, "symbol"));
	size_t i;

	for (i = 0; sym && i < DEMO_NR_FNS; i++) {
		if (strcmp(sym, demo_fn_names[i]))
			continue;
		f->fn[i].hitm += json_u64(json_object_get(row, "stats"), "tot_hitm");
		f->fn[i].cycles += cycles;
	}
}

static void facts_from_json(struct demo_line_facts *f, const char *path)
{
	json_t *root = json_load_file(path, 0, NULL), *line, *row;
	uint64_t size = json_u64(root, "line_size");
	size_t i, j;

	json_array_foreach(json_object_get(root, "lines"), i, line)
	{
		uint64_t addr = json_hex(line, "address");
		bool tg = addr + size > f->tg && addr < f->tg + f->tg_size;

		if (tg)
			f->hitm_lines += json_u64(json_object_get(line, "stats"), "tot_hitm");
		if (addr == f->line) {
			f->rank = (int)json_u64(line, "index");
			f->hitm_total = json_u64(json_object_get(line, "stats"), "tot_hitm");
			f->valid = true;
		}
		json_array_foreach(json_object_get(line, "rows"), j, row)
		{
			uint64_t cycles = row_cycles(row);

			f->cycles_total += cycles;
			if (tg)
				add_tg_row(f, row, cycles);
			if (addr == f->line)
				add_line_row(f, row);
		}
	}
	json_decref(root);
}
#else
static void facts_from_json(struct demo_line_facts *f, const char *path)
{
}
#endif

/* record, falling back from the PMU to the simulator; 0 when recorded. */
static int record_any(struct demo *d, int run, const char *data, const char *log)
{
	struct demo_line_facts *f = &d->facts[run];
	int rc = record_build(d, run, data, log, false);

	f->source = "PMU";
	if (rc) {
		printf("    no memory-sampling PMU here (record exit %d): using the simulator, "
		       "record --sim\n",
		       rc);
		f->source = "simulator";
		rc = record_build(d, run, data, log, true);
	}
	return rc;
}

static void report_build(struct demo *d, int run, const char *data)
{
	struct demo_line_facts *f = &d->facts[run];
	struct strbuf json = STRBUF_INIT, log = STRBUF_INIT, text = STRBUF_INIT, html = STRBUF_INIT;
	/* --show-all: every line task_group spans counts, however cold */
	const char *args[] = { "report", "-i",	    data, "--show-all", "--json",
			       NULL,	 "--stdio", NULL, NULL,		NULL };
	int rc;

	strbuf_addf(&json, "%s/report-%s.json", d->workdir, demo_runs[run]);
	strbuf_addf(&log, "%s/report-%s.txt", d->workdir, demo_runs[run]);
	args[5] = json.buf;
	strbuf_addf(&text, "report-%s", demo_runs[run]);
	if (demo_html_path(d, text.buf, &html)) {
		args[7] = "--html";
		args[8] = html.buf;
	}
	rc = demo_c2c(d, log.buf, false, args);
	if (rc || demo_slurp(log.buf, &text)) {
		printf("    c2cscope report failed (exit %d); see %s\n", rc, log.buf);
	} else {
		print_line_rows(text.buf, f->line);
		facts_from_json(f, json.buf);
	}
	strbuf_release(&json);
	strbuf_release(&log);
	strbuf_release(&text);
	strbuf_release(&html);
}

/* What record's log says of the run. */
static const struct demo_match recorded[] = {
	{ "sched-core:", 8 },
	{ "c2cscope record:", 2 },
	{ NULL, 0 },
};

void demo_record_and_report(struct demo *d, int run)
{
	struct demo_line_facts *f = &d->facts[run];
	struct strbuf data = STRBUF_INIT, log = STRBUF_INIT, out = STRBUF_INIT;
	int rc;

	if (!demo_have(d, "record")) {
		demo_skip("c2cscope record is not built yet");
		return;
	}
	strbuf_addf(&data, "%s/sched-core-%s.data", d->workdir, demo_runs[run]);
	strbuf_addf(&log, "%s/record-%s.log", d->workdir, demo_runs[run]);
	rc = record_any(d, run, data.buf, log.buf);
	demo_slurp(log.buf, &out);
	if (rc) {
		printf("    c2cscope record failed (exit %d):\n", rc);
		demo_print_matching(out.buf, "", 8);
		goto out;
	}
	demo_print_each(out.buf, recorded);
	if (!find_addresses(out.buf, f)) {
		printf("    the model did not say where task_group is; see %s\n", log.buf);
		goto out;
	}
	keep_work(f, out.buf);
	if (!demo_have(d, "report")) {
		demo_skip("c2cscope report is not built yet (perf c2c report -i %s reads the file)",
			  data.buf);
		goto out;
	}
	report_build(d, run, data.buf);
out:
	strbuf_release(&data);
	strbuf_release(&log);
	strbuf_release(&out);
}
