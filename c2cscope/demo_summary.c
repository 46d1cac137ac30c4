// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope demo's summary of the contention the record + report steps
 * measured, per build: HITMs on task_group's lines, HITMs and simulated
 * stall cycles of set_task_cpu and update_cfs_group, load_avg's own
 * (true-sharing) HITMs; then which remedy removes which kind of sharing.
 * Only numbers the steps computed from the reports are printed.
 */
#include "config.h"
#include "demo.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

enum { UPSTREAM, REORDERED, ALIGNED, RATELIMITED };

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* "-34.2%": how far n moved from base. */
static double change(uint64_t n, uint64_t base)
{
	return base ? 100.0 * ((double)n - (double)base) / (double)base : 0.0;
}

static void print_build(const struct demo *d, int run)
{
	const struct demo_line_facts *f = &d->facts[run], *up = &d->facts[UPSTREAM];
	size_t i;

	printf("  %-11s  lines %" PRIu64 " HITMs", demo_runs[run], f->hitm_lines);
	if (run != UPSTREAM && up->valid)
		printf(" (%+.1f%%)", change(f->hitm_lines, up->hitm_lines));
	for (i = 0; i < DEMO_NR_FNS; i++)
		printf("; %s %" PRIu64 " HITMs, %" PRIu64 " cycles (%.2f%%)", demo_fn_names[i],
		       f->fn[i].hitm, f->fn[i].cycles, pct(f->fn[i].cycles, f->cycles_total));
	printf("; load_avg %" PRIu64 " HITMs\n", f->hitm_load_avg);
}

/* The builds that ran the same work as upstream, by their model's lines. */
static bool same_work(const struct demo *d, int run)
{
	return !strcmp(d->facts[run].work.buf, d->facts[UPSTREAM].work.buf);
}

static void print_work(const struct demo *d, int *verdict)
{
	const char *work = d->facts[UPSTREAM].work.buf;
	const char *w = strstr(work, " pipe pairs, "), *l = strstr(work, ": load_avg ");
	unsigned long wakeups = 0;
	long load_avg = 0;
	const char *sep = " ";
	int run;

	if (!w || !l || sscanf(w, " pipe pairs, %lu", &wakeups) != 1 ||
	    sscanf(l, ": load_avg %ld", &load_avg) != 1)
		return;
	printf("  same work        upstream %lu wakeups, load_avg %ld at the end;", wakeups,
	       load_avg);
	for (run = REORDERED; run <= ALIGNED; run++) {
		if (!d->facts[run].valid)
			continue;
		printf("%s%s: %s", sep, demo_runs[run],
		       same_work(d, run) ? "the same" : "DIFFERENT");
		sep = ", ";
		if (!same_work(d, run))
			*verdict = 1;
	}
	printf("\n");
}

static void print_remedies(const struct demo *d, int *verdict)
{
	const struct demo_line_facts *up = &d->facts[UPSTREAM], *re = &d->facts[REORDERED];
	const struct demo_line_facts *al = &d->facts[ALIGNED], *rl = &d->facts[RATELIMITED];
	const struct demo_fn_facts *stc = &up->fn[DEMO_FN_SET_TASK_CPU];

	if (re->valid) {
		printf("  set_task_cpu     share of the stall cycles: upstream %.2f%% -> reordered "
		       "%.2f%% (the seed patch, hackbench/pipe: 1.67%% -> 0.51%% of cycles)\n",
		       pct(stc->cycles, up->cycles_total),
		       pct(re->fn[DEMO_FN_SET_TASK_CPU].cycles, re->cycles_total));
		printf("  reorder          removes the false sharing: set_task_cpu %" PRIu64
		       " -> %" PRIu64 " HITMs; task_group's lines %" PRIu64 " -> %" PRIu64
		       " HITMs (%+.1f%%); load_avg's own HITMs stay (true sharing, %" PRIu64
		       " -> %" PRIu64 ")\n",
		       stc->hitm, re->fn[DEMO_FN_SET_TASK_CPU].hitm, up->hitm_lines, re->hitm_lines,
		       change(re->hitm_lines, up->hitm_lines), up->hitm_load_avg,
		       re->hitm_load_avg);
		if (re->fn[DEMO_FN_SET_TASK_CPU].hitm * 3 > stc->hitm)
			*verdict = 1;
	}
	if (al->valid)
		printf("  aligned wrapper  removes it too: set_task_cpu %" PRIu64 " -> %" PRIu64
		       " HITMs, lines %+.1f%%, for %u -> %u bytes\n",
		       stc->hitm, al->fn[DEMO_FN_SET_TASK_CPU].hitm,
		       change(al->hitm_lines, up->hitm_lines), d->size[0], d->size[2]);
	if (rl->valid)
		printf("  ratelimit        cuts the true sharing: load_avg's HITMs %" PRIu64
		       " -> %" PRIu64 " (%+.1f%%); the false sharing stays (set_task_cpu %" PRIu64
		       " HITMs)\n",
		       up->hitm_load_avg, rl->hitm_load_avg,
		       change(rl->hitm_load_avg, up->hitm_load_avg),
		       rl->fn[DEMO_FN_SET_TASK_CPU].hitm);
}

void demo_summary_contention(const struct demo *d, int *verdict)
{
	int run;

	if (!d->facts[UPSTREAM].valid)
		return;
	printf("  contention       (%s; cycles: simulated stall cycles of the loads, share of "
	       "all the report's)\n",
	       d->facts[UPSTREAM].source);
	for (run = UPSTREAM; run <= RATELIMITED; run++)
		if (d->facts[run].valid)
			print_build(d, run);
	print_work(d, verdict);
	print_remedies(d, verdict);
}
