/* SPDX-License-Identifier: GPL-2.0 */
/*
 * c2cscope demo: shared state of the steps (demo.c), the helpers that run
 * the other commands and read what they print (demo_run.c) and the record
 * and report step (demo_c2c.c).
 */
#ifndef C2C_DEMO_H
#define C2C_DEMO_H

#include <stdbool.h>
#include <stdint.h>

#include "util/strbuf.h"

/* HITMs and simulated stall cycles of one function on task_group's lines. */
struct demo_fn_facts {
	uint64_t hitm, cycles;
};

enum { DEMO_FN_SET_TASK_CPU, DEMO_FN_UPDATE_CFS_GROUP, DEMO_NR_FNS };

/* What a run of the model under record + report found on task_group's lines. */
struct demo_line_facts {
	bool valid;
	uint64_t tg, tg_size; /* where task_group is, and its size */
	uint64_t line; /* address of load_avg's cache line */
	int rank; /* its place among the report's lines, 0 = hottest */
	uint64_t hitm_total; /* HITMs on load_avg's line */
	uint64_t hitm_load_avg; /* rows on load_avg (offset 0x0) */
	uint64_t hitm_other; /* rows at any other offset of that line */
	uint64_t hitm_lines; /* HITMs on every line task_group spans */
	/* sum of the load samples' weights (count x mean per bucket), all rows */
	uint64_t cycles_total;
	struct demo_fn_facts fn[DEMO_NR_FNS];
	struct strbuf load_avg_fns; /* "update_cfs_group, update_tg_load_avg" */
	struct strbuf other_rows; /* "0x8 set_task_cpu, 0x10 set_task_cpu" */
	struct strbuf work; /* the model's "N wakeups" and load_avg checksum lines */
	const char *source; /* "PMU" or "simulator" */
};

struct demo {
	char *self; /* this c2cscope */
	char *samples; /* folder with sched-core-{upstream,reordered,aligned} */
	char *srcdir; /* the source tree (rules, verify.sh) */
	char *workdir; /* where outputs go */
	char *html_dir; /* --html DIR: the report and suggest pages, or NULL */
	bool keep, kernel, run_bench;
	unsigned int threads, iterations;
	int step, nr_steps;
	double started;

	/* for the summary */
	struct strbuf kernel_layout; /* "704 bytes; load_avg @256 rt_se @264 rt_rq @272" */
	int rules_rc[3]; /* check on upstream, reordered, aligned; -1 not run */
	unsigned int size[3];
	struct demo_line_facts facts[4]; /* demo_runs[]: the recorded builds */
	int verify_rc; /* -1 not run */
	struct strbuf verify_lines; /* verify.sh's verdict lines */
	struct strbuf bench; /* bench.sh's output */
	struct strbuf suggestion; /* suggest's output */
};

/* The three layouts; the recorded builds add the ratelimited upstream one. */
extern const char *const demo_builds[3];
extern const char *const demo_runs[4];
extern const char *const demo_fn_names[DEMO_NR_FNS];

/* Seconds since an arbitrary point (monotonic). */
double demo_now(void);
/* "[n/N] TITLE" and the time the step starts. */
void demo_step(struct demo *d, const char *title);
/* "    skipped: WHY" */
void demo_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whether this c2cscope has COMMAND (stubs answer --help with exit 2). */
bool demo_have(struct demo *d, const char *command);

/*
 * Run argv (NULL-terminated; argv[0] looked up in PATH unless it has a
 * slash) with stdout and stderr into the file log; when echo, also print
 * each line indented. Returns the exit status, 127 if it could not start,
 * 128 + signal if killed.
 */
int demo_run(const char *log, bool echo, const char *const argv[]);
/* Run this c2cscope with args (NULL-terminated). */
int demo_c2c(struct demo *d, const char *log, bool echo, const char *const args[]);

/* Read a whole file into sb (reset first); -errno on failure. */
int demo_slurp(const char *path, struct strbuf *sb);
/* Print the lines of text that contain needle, indented; returns how many. */
int demo_print_matching(const char *text, const char *needle, int max);
/* One needle for demo_print_each: the lines holding it, at most max. */
struct demo_match {
	const char *needle;
	int max;
};
/* demo_print_matching for each of matches, in order, up to one with no needle. */
void demo_print_each(const char *text, const struct demo_match *matches);
/*
 * struct task_group of FILE (NULL: the running kernel's BTF), from the
 * type model rather than from layout's text: "704 bytes; load_avg @256
 * rt_se @264 rt_rq @272 parent @408" (-1 for a member it has not; members
 * of its anonymous structs count, as C names them), its size and
 * load_avg's offset when asked. 0, or -1 when there is no task_group.
 */
int demo_describe_task_group(struct strbuf *sb, const char *file, unsigned int *size,
			     long *load_avg);

/* DIR/NAME.html for --html DIR into sb (reset first); false without --html. */
bool demo_html_path(const struct demo *d, const char *name, struct strbuf *sb);

/* The record + report step for demo_runs[run] (demo_c2c.c). */
void demo_record_and_report(struct demo *d, int run);
/* The summary's contention table and verdicts; sets *verdict on a contradiction. */
void demo_summary_contention(const struct demo *d, int *verdict);
/* The watch step: breakpoints on the two builds (demo_watch.c). */
void demo_watch_step(struct demo *d);

#endif
