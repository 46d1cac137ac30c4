// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope demo: the task_group story end to end on the bundled sched-core
 * model (doc/c2cscope-demo.1). Each step runs the real command a user
 * would; a step whose command is not built says so and is skipped, never
 * imitated. The closing summary only repeats numbers the steps printed.
 */
#include "config.h"
#include "cmd.h"
#include "options.h"
#include "demo.h"

#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xalloc.h"

#define CMD "demo"
#define KERNEL_BTF "/sys/kernel/btf/vmlinux"

static const struct cmd_usage usage = {
	.synopsis = "c2cscope demo [--keep DIR] [--no-kernel] [--no-bench] [--threads N]\n"
		    "              [--iterations N] [--samples DIR] [--srcdir DIR] [--html DIR]",
	.description =
		"The task_group story on the bundled sched-core model: layouts (running\n"
		"kernel's BTF, the model's DWARF), the layout rules, record + report of the\n"
		"upstream, reordered, aligned and ratelimited builds, the patched Linux 6.1\n"
		"object, a summary.",
	.epilogue = "Exit status: 0 the story ran (skipped steps say why), 1 a verification\n"
		    "contradicted it, 2 bad usage or the samples are missing.",
};

/* Returns 0 to go on, 1 after --help, -1 on a usage error (already said). */
static int parse_args(int argc, char **argv, struct demo *d)
{
	const char *keep = NULL, *samples = NULL, *srcdir = NULL, *html = NULL;
	const struct cmd_option opts[] = {
		OPT_STRING(0, "keep", &keep, "DIR",
			   "keep every output (perf.data, reports, logs) in DIR"),
		OPT_CLEAR(0, "no-kernel", &d->kernel,
			  "skip building and checking Linux's kernel/sched/core.o"),
		OPT_CLEAR(0, "no-bench", &d->run_bench,
			  "skip the (informational) benchmark of the four builds"),
		OPT_UINT(0, "threads", &d->threads, "N", "model cpus, one thread each (default 4)",
			 1, 64),
		OPT_UINT(0, "iterations", &d->iterations, "N",
			 "wakeups per cpu under the simulator\n"
			 "(default 20000; x100 with a PMU)",
			 1, 100000000),
		OPT_STRING(0, "samples", &samples, "DIR",
			   "where sched-core-{upstream,reordered,aligned,ratelimited}\n"
			   "are (default: the installed ones, or this c2cscope's build's)"),
		OPT_STRING(0, "srcdir", &srcdir, "DIR",
			   "the c2cscope source tree (layout.rules, verify.sh;\n"
			   "default: the installed copy, or this build's source)"),
		OPT_STRING(0, "html", &html, "DIR",
			   "write the reports and the suggestion as HTML pages in DIR"),
		OPT_END(),
	};
	int argi = cmd_parse_options(CMD, &usage, opts, d, argc, argv, CMD_PARSE_NO_ARGS);

	if (argi < 0)
		return argi == CMD_PARSE_HELP ? 1 : -1;
	if (keep) {
		d->workdir = xstrdup(keep);
		d->keep = true;
	}
	d->samples = samples ? xstrdup(samples) : NULL;
	d->srcdir = srcdir ? xstrdup(srcdir) : NULL;
	d->html_dir = html ? xstrdup(html) : NULL;
	return 0;
}

/* Whether this program is the installed one: $(bindir)/c2cscope. */
static bool installed(const char *self)
{
	char *bindir = realpath(C2C_BINDIR, NULL);
	size_t n = bindir ? strlen(bindir) : 0;
	bool yes = bindir && !strncmp(self, bindir, n) && !strcmp(self + n, "/c2cscope");

	free(bindir);
	return yes;
}

/*
 * This c2cscope, and unless told otherwise the samples: those make install
 * put beside it when it is the installed program, else its build tree's.
 */
static int locate(struct demo *d)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct strbuf sb = STRBUF_INIT, bin = STRBUF_INIT;
	char *slash;

	if (n <= 0)
		return cmd_error(CMD, "cannot find this program (/proc/self/exe): %s",
				 strerror(errno)),
		       -1;
	self[n] = '\0';
	d->self = xstrdup(self);
	if (installed(self)) {
		if (!d->samples)
			d->samples = xstrdup(C2C_PKGLIBEXECDIR "/samples/sched-core");
		if (!d->srcdir)
			d->srcdir = xstrdup(C2C_PKGDATADIR);
	}
	if (!d->samples) {
		slash = strrchr(self, '/');
		*slash = '\0';
		strbuf_addf(&sb, "%s/../samples/sched-core", self);
		strbuf_addf(&bin, "%s/sched-core-upstream", sb.buf);
		if (access(bin.buf, X_OK)) {
			strbuf_reset(&sb);
			strbuf_addstr(&sb, C2C_ABS_BUILDDIR "/samples/sched-core");
		}
		d->samples = realpath(sb.buf, NULL);
		if (!d->samples)
			d->samples = strbuf_detach(&sb, NULL);
	}
	if (!d->srcdir)
		d->srcdir = xstrdup(C2C_ABS_SRCDIR);
	strbuf_release(&sb);
	strbuf_release(&bin);
	return 0;
}

static int check_samples(struct demo *d)
{
	struct strbuf path = STRBUF_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(demo_runs) && !ret; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/sched-core-%s", d->samples, demo_runs[i]);
		if (access(path.buf, X_OK))
			ret = cmd_error(CMD, "%s: %s (build the tree, or pass --samples DIR)",
					path.buf, strerror(errno));
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/samples/sched-core/layout.rules", d->srcdir);
	if (!ret && access(path.buf, R_OK))
		ret = cmd_error(CMD, "%s: %s (pass --srcdir DIR)", path.buf, strerror(errno));
	strbuf_release(&path);
	return ret ? -1 : 0;
}

bool demo_html_path(const struct demo *d, const char *name, struct strbuf *sb)
{
	strbuf_reset(sb);
	if (!d->html_dir)
		return false;
	strbuf_addf(sb, "%s/%s.html", d->html_dir, name);
	return true;
}

static int make_workdir(struct demo *d)
{
	char tmpl[] = "/tmp/c2cscope-demo.XXXXXX";

	if (d->html_dir && mkdir(d->html_dir, 0777) && errno != EEXIST)
		return cmd_error(CMD, "--html %s: %s", d->html_dir, strerror(errno)), -1;

	if (d->keep) {
		if (mkdir(d->workdir, 0777) && errno != EEXIST)
			return cmd_error(CMD, "--keep %s: %s", d->workdir, strerror(errno)), -1;
		return 0;
	}
	if (!mkdtemp(tmpl))
		return cmd_error(CMD, "cannot create a folder in /tmp: %s", strerror(errno)), -1;
	d->workdir = xstrdup(tmpl);
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

/* Print the member lines of layout's text on load_avg's cache line (load_avg at offset). */
static void print_load_avg_line(const char *text, long load_avg)
{
	long line = load_avg / 64;
	const char *p = text;

	while (*p) {
		const char *eol = strchrnul(p, '\n'), *c = strstr(p, "/*");
		unsigned long off;

		if (c && c < eol && p[0] == '\t' && p[1] != '/' && sscanf(c, "/* %lu", &off) == 1 &&
		    (long)(off / 64) == line)
			printf("    %.*s\n", (int)(eol - p), p);
		p = *eol ? eol + 1 : eol;
	}
}

/* Lay out task_group from FILE (NULL: the running kernel) into text. */
static int layout_task_group(struct demo *d, const char *file, const char *name,
			     struct strbuf *text)
{
	struct strbuf log = STRBUF_INIT;
	const char *args[] = { "layout", "-C", "task_group", file, NULL };
	int rc;

	strbuf_addf(&log, "%s/layout-%s.txt", d->workdir, name);
	rc = demo_c2c(d, log.buf, false, args);
	demo_slurp(log.buf, text);
	if (!rc && !strstr(text->buf, "struct task_group {"))
		rc = -1;
	if (rc) {
		printf("    c2cscope layout failed (exit %d):\n", rc);
		demo_print_matching(text->buf, "", 4);
	}
	strbuf_release(&log);
	return rc;
}

static void step_kernel_layout(struct demo *d)
{
	struct strbuf text = STRBUF_INIT;

	demo_step(d, "The running kernel's struct task_group, from its BTF");
	if (!demo_have(d, "layout"))
		demo_skip("c2cscope layout is not built yet");
	else if (access(KERNEL_BTF, R_OK))
		demo_skip("this kernel has no BTF (%s)", KERNEL_BTF);
	else if (!layout_task_group(d, NULL, "kernel", &text)) {
		long load_avg = -1;

		demo_describe_task_group(&d->kernel_layout, NULL, NULL, &load_avg);
		printf("    load_avg's cache line:\n");
		print_load_avg_line(text.buf, load_avg);
		printf("    => %s\n", d->kernel_layout.buf);
	}
	strbuf_release(&text);
}

static void step_model_layout(struct demo *d)
{
	struct strbuf text = STRBUF_INIT, bin = STRBUF_INIT, what = STRBUF_INIT;
	long load_avg = -1;
	size_t i;

	demo_step(d, "The sched-core model's struct task_group, from its DWARF");
	if (!demo_have(d, "layout")) {
		demo_skip("c2cscope layout is not built yet");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(demo_builds); i++) {
		strbuf_reset(&bin);
		strbuf_addf(&bin, "%s/sched-core-%s", d->samples, demo_builds[i]);
		if (layout_task_group(d, bin.buf, demo_builds[i], &text))
			continue;
		strbuf_reset(&what);
		demo_describe_task_group(&what, bin.buf, &d->size[i], &load_avg);
		printf("    %-9s %s\n", demo_builds[i], what.buf);
		if (i == 0) {
			printf("    upstream, load_avg's cache line:\n");
			print_load_avg_line(text.buf, load_avg);
		}
	}
	strbuf_release(&text);
	strbuf_release(&bin);
	strbuf_release(&what);
}

/* What check's output says about each build's rules. */
static const struct demo_match violations[] = {
	{ "VIOLATED", 4 },
	{ "share a cache line", 4 },
	{ "size is", 2 },
	{ NULL, 0 },
};

static void step_rules(struct demo *d)
{
	struct strbuf rules = STRBUF_INIT, bin = STRBUF_INIT, log = STRBUF_INIT, out = STRBUF_INIT;
	size_t i;

	demo_step(d, "The layout rules (samples/sched-core/layout.rules) on the model");
	if (!demo_have(d, "check")) {
		demo_skip("c2cscope check is not built yet");
		return;
	}
	strbuf_addf(&rules, "%s/samples/sched-core/layout.rules", d->srcdir);
	for (i = 0; i < ARRAY_SIZE(demo_builds); i++) {
		const char *args[] = { "check", "--rules", rules.buf, NULL, NULL };

		strbuf_reset(&bin);
		strbuf_reset(&log);
		strbuf_addf(&bin, "%s/sched-core-%s", d->samples, demo_builds[i]);
		strbuf_addf(&log, "%s/check-%s.txt", d->workdir, demo_builds[i]);
		args[3] = bin.buf;
		d->rules_rc[i] = demo_c2c(d, log.buf, false, args);
		demo_slurp(log.buf, &out);
		printf("    %s: exit %d\n", demo_builds[i], d->rules_rc[i]);
		demo_print_each(out.buf, violations);
	}
	strbuf_release(&rules);
	strbuf_release(&bin);
	strbuf_release(&log);
	strbuf_release(&out);
}

static void step_record(struct demo *d, int run)
{
	struct strbuf title = STRBUF_INIT;

	strbuf_addf(&title, "Record and report the %s build (%u cpus)", demo_runs[run], d->threads);
	demo_step(d, title.buf);
	strbuf_release(&title);
	demo_record_and_report(d, run);
}

/* suggest's words around the two proposed layouts, without the layouts. */
static void print_outside_layouts(const char *text)
{
	const char *p = text;
	bool inside = false;

	while (*p) {
		const char *eol = strchrnul(p, '\n');

		if (!strncmp(p, "struct ", 7) && eol > p && eol[-1] == '{')
			inside = true;
		else if (!inside && eol > p)
			printf("    %.*s\n", (int)(eol - p), p);
		else if (p[0] == '}')
			inside = false;
		p = *eol ? eol + 1 : eol;
	}
}

static void step_suggest(struct demo *d)
{
	struct strbuf bin = STRBUF_INIT, log = STRBUF_INIT, hot = STRBUF_INIT, html = STRBUF_INIT;
	const char *args[9] = { "suggest", "-C", "task_group", "--hotness" }; /* NULLs after */
	int rc;

	demo_step(d, "A better layout for task_group (c2cscope suggest)");
	if (!demo_have(d, "suggest")) {
		demo_skip("c2cscope suggest is not built yet (the reordered and aligned builds "
			  "are the two fixes, written by hand)");
		return;
	}
	strbuf_addf(&bin, "%s/sched-core-upstream", d->samples);
	strbuf_addf(&log, "%s/suggest.txt", d->workdir);
	strbuf_addf(&hot, "%s/samples/sched-core/task_group.hotness", d->srcdir);
	args[4] = hot.buf;
	args[5] = bin.buf;
	if (demo_html_path(d, "suggest-task_group", &html)) {
		args[6] = "--html";
		args[7] = html.buf;
	}
	rc = demo_c2c(d, log.buf, false, args);
	demo_slurp(log.buf, &d->suggestion);
	print_outside_layouts(d->suggestion.buf);
	if (rc)
		printf("    c2cscope suggest exited %d\n", rc);
	else
		printf("    (both layouts in full: %s)\n", d->keep ? log.buf : "use --keep DIR");
	strbuf_release(&bin);
	strbuf_release(&log);
	strbuf_release(&hot);
	strbuf_release(&html);
}

static void step_verify(struct demo *d)
{
	struct strbuf script = STRBUF_INIT, log = STRBUF_INIT, keep = STRBUF_INIT;
	const char *argv[] = { NULL,	   "--c2cscope", d->self, "--model",
			       d->samples, "--keep",	 NULL,	  NULL };

	demo_step(d, "Linux 6.1's kernel/sched/core.o, unpatched and patched "
		     "(samples/linux/verify.sh)");
	if (!d->kernel) {
		demo_skip("--no-kernel");
		return;
	}
	strbuf_addf(&script, "%s/samples/linux/verify.sh", d->srcdir);
	strbuf_addf(&log, "%s/verify.log", d->workdir);
	strbuf_addf(&keep, "%s/linux", d->workdir);
	argv[0] = script.buf;
	argv[6] = keep.buf;
	d->verify_rc = demo_run(log.buf, true, argv);
	if (d->verify_rc == 77)
		demo_skip("linux-source-6.1 is not installed");
	demo_slurp(log.buf, &d->verify_lines);
	strbuf_release(&script);
	strbuf_release(&log);
	strbuf_release(&keep);
}

static void step_bench(struct demo *d)
{
	struct strbuf script = STRBUF_INIT, log = STRBUF_INIT;
	const char *argv[] = { NULL, "--dir", d->samples, "--rounds", "5", NULL };
	int rc;

	demo_step(d, "Operations per second of the four builds (informational on a VM)");
	if (!d->run_bench) {
		demo_skip("--no-bench");
		return;
	}
	strbuf_addf(&script, "%s/samples/sched-core/bench.sh", d->srcdir);
	strbuf_addf(&log, "%s/bench.txt", d->workdir);
	argv[0] = script.buf;
	rc = demo_run(log.buf, true, argv);
	if (rc)
		printf("    bench.sh exited %d\n", rc);
	else
		demo_slurp(log.buf, &d->bench);
	strbuf_release(&script);
	strbuf_release(&log);
}

static void summary_line_facts(struct demo *d, int build, int *verdict)
{
	const struct demo_line_facts *f = &d->facts[build];
	const struct demo_line_facts *up = &d->facts[0];

	if (!f->valid) {
		printf("  %-9s  contention: not measured (see step %d)\n", demo_runs[build],
		       4 + build);
		return;
	}
	printf("  %-9s  line 0x%" PRIx64 " (#%d in the report, %s): %" PRIu64 " HITMs; "
	       "load_avg %" PRIu64 " (%s); other fields %" PRIu64 "%s%s%s\n",
	       demo_runs[build], f->line, f->rank, f->source, f->hitm_total, f->hitm_load_avg,
	       f->load_avg_fns.len ? f->load_avg_fns.buf : "-", f->hitm_other,
	       f->other_rows.len ? " (" : "", f->other_rows.buf, f->other_rows.len ? ")" : "");
	if (build == 1 && up->valid && up->hitm_other) {
		double drop = 100.0 * (1.0 - (double)f->hitm_other / (double)up->hitm_other);

		printf("  %-9s  HITMs on fields other than load_avg: %.1f%% fewer; load_avg's own "
		       "stay (true sharing)\n",
		       "", drop);
		if (drop < 95.0)
			*verdict = 1;
	}
}

/* verify.sh's verdict lines, each once, in its order. */
static void summary_verify(const char *text)
{
	static const char *const keys[] = { " the rules", "size ", "model: ", "OK:", "FAILED" };
	const char *p = text;
	size_t i;

	while (*p) {
		const char *eol = strchrnul(p, '\n');
		size_t len = (size_t)(eol - p);

		for (i = 0; i < ARRAY_SIZE(keys) && !strncmp(p, "verify: ", 8); i++) {
			if (memmem(p, len, keys[i], strlen(keys[i]))) {
				printf("  kernel           %.*s\n", (int)len - 8, p + 8);
				break;
			}
		}
		p = *eol ? eol + 1 : eol;
	}
}

static void summary(struct demo *d, int *verdict)
{
	printf("\nSummary  (%.0f s)\n", demo_now() - d->started);
	if (d->kernel_layout.len)
		printf("  running kernel   struct task_group %s\n", d->kernel_layout.buf);
	if (d->size[0])
		printf("  model sizes      upstream %u, reordered %u, aligned-wrapper %u bytes\n",
		       d->size[0], d->size[1], d->size[2]);
	if (d->rules_rc[0] >= 0) {
		printf("  layout.rules     upstream %s, reordered %s, aligned-wrapper %s\n",
		       d->rules_rc[0] == 1 ? "violated" : "HOLDS?",
		       d->rules_rc[1] == 0 ? "holds" : "VIOLATED?",
		       d->rules_rc[2] == 1 ? "violated (size)" : "holds");
		if (d->rules_rc[0] != 1 || d->rules_rc[1] != 0)
			*verdict = 1;
	}
	summary_line_facts(d, 0, verdict);
	summary_line_facts(d, 1, verdict);
	demo_summary_contention(d, verdict);
	if (d->suggestion.len) {
		printf("  suggest:\n");
		demo_print_matching(d->suggestion.buf, "verdict:", 1);
	}
	summary_verify(d->verify_lines.buf);
	if (d->verify_rc == 1)
		*verdict = 1;
	if (d->bench.len) {
		printf("  bench (informational on a VM; median of 5 rounds, spread = slowest..fastest):\n");
		demo_print_matching(d->bench.buf, "ops/s", 4);
	}
	printf("  outputs          %s\n", d->keep ? d->workdir : "removed (use --keep DIR)");
	if (d->html_dir)
		printf("  HTML pages       %s (report-upstream.html: the heatmap and task_group)\n",
		       d->html_dir);
}

static void demo_release(struct demo *d)
{
	size_t i;

	if (d->workdir && !d->keep)
		nftw(d->workdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	for (i = 0; i < ARRAY_SIZE(d->facts); i++) {
		strbuf_release(&d->facts[i].load_avg_fns);
		strbuf_release(&d->facts[i].other_rows);
		strbuf_release(&d->facts[i].work);
	}
	strbuf_release(&d->kernel_layout);
	strbuf_release(&d->verify_lines);
	strbuf_release(&d->bench);
	strbuf_release(&d->suggestion);
	free(d->self);
	free(d->samples);
	free(d->srcdir);
	free(d->workdir);
	free(d->html_dir);
}

int cmd_demo(int argc, char **argv)
{
	struct demo d = { .kernel = true,
			  .run_bench = true,
			  .threads = 4,
			  .iterations = 20000,
			  .nr_steps = 11,
			  .rules_rc = { -1, -1, -1 },
			  .verify_rc = -1 };
	int ret, verdict = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(d.facts); i++) {
		strbuf_init(&d.facts[i].load_avg_fns, 0);
		strbuf_init(&d.facts[i].other_rows, 0);
		strbuf_init(&d.facts[i].work, 0);
	}
	strbuf_init(&d.kernel_layout, 0);
	strbuf_init(&d.verify_lines, 0);
	strbuf_init(&d.bench, 0);
	strbuf_init(&d.suggestion, 0);
	ret = parse_args(argc, argv, &d);
	if (!ret && (locate(&d) || check_samples(&d) || make_workdir(&d)))
		ret = -1;
	if (ret) {
		demo_release(&d);
		return ret > 0 ? EXIT_OK : EXIT_BAD_INPUT;
	}
	d.started = demo_now();
	printf("c2cscope demo: struct task_group's load_avg line (Linux 6.1), on the sched-core "
	       "model in %s\n",
	       d.samples);
	step_kernel_layout(&d);
	step_model_layout(&d);
	step_rules(&d);
	for (i = 0; i < ARRAY_SIZE(demo_runs); i++)
		step_record(&d, (int)i);
	demo_watch_step(&d);
	step_suggest(&d);
	step_verify(&d);
	step_bench(&d);
	summary(&d, &verdict);
	demo_release(&d);
	return verdict ? EXIT_CHECK_FAILED : EXIT_OK;
}
