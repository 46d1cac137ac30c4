// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope record: memory samples into perf.data. Without --sim from the
 * PMU (src/record: perf c2c's events for this CPU, or -e's), with --sim
 * from the c2csim Valgrind tool (simulated coherence, no PMU needed).
 */
#include "config.h"
#include "cmd.h"
#include "options.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record/record.h"
#include "sim/sim_record.h"
#include "sim/sim_run.h"
#include "util/progress.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define CMD "record"
#define PMU_DIR "/sys/bus/event_source/devices"

struct record_args {
	bool sim;
	const char *output;
	uint64_t cpus, nodes, rate, seed, line, lead;
	uint64_t max_size, hitm_rate; /* hitm_rate 0: chosen to stay under max_size */
	char **argv;
	/* the PMU recorder */
	struct cmd_strlist events;
	bool all_cpus, user, kernel, sched, dry_run, list;
	const char *cpu_list, *pids, *tids;
	uint64_t freq, period;
	unsigned int ldlat, mmap_pages;
};

static const struct cmd_usage usage = {
	.synopsis =
		"c2cscope record [-e EVENT]... [-a | -C CPUS | -p PID[,PID] | -t TID] [-o FILE]\n"
		"                [-F FREQ | -c PERIOD] [-l LDLAT] [-u | -k] [--sched] [--dry-run]\n"
		"                [--list] [-- CMD [ARGS]]\n"
		"c2cscope record --sim [-o FILE] [--sim-cpus N] [--sim-nodes N]\n"
		"                [--sample-rate N] [--seed N] [--cacheline-size 64|128]\n"
		"                [--max-size SIZE] [--hitm-rate N] -- CMD [ARGS]",
	.description = "Records memory samples into perf.data (default ./perf.data): from the PMU\n"
		       "(perf c2c's events for this CPU unless -e names others), or with --sim\n"
		       "from the c2csim Valgrind tool.",
	.epilogue = "Machines without a memory-sampling PMU (most VMs) need --sim; --list shows\n"
		    "what this one offers. See c2cscope-record(1).",
};

static int opt_freq(const struct cmd_option *opt, const char *arg, void *ctx)
{
	struct record_args *o = ctx;
	FILE *f;

	if (strcmp(arg, "max"))
		return cmd_parse_number(CMD, "-F", arg, 1, UINT32_MAX, &o->freq) < 0 ?
			       EXIT_BAD_INPUT :
			       0;
	f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re");
	if (!f || fscanf(f, "%" SCNu64, &o->freq) != 1 || !o->freq)
		o->freq = 1000; /* what perf assumes without the file */
	if (f)
		fclose(f);
	return 0;
}

/* --cacheline-size (and its alias --line-size): 64 or 128. */
static int opt_line_size(const struct cmd_option *opt, const char *arg, void *ctx)
{
	struct record_args *o = ctx;
	char name[64];

	if (strcmp(arg, "64") && strcmp(arg, "128"))
		return cmd_error(CMD, "%s expects 64 or 128, not '%s'", cmd_option_name(opt, name),
				 arg);
	o->line = strtoull(arg, NULL, 10);
	return 0;
}

#define DEFAULT_MAX_SIZE (256ULL << 20)
#define NR_TOOL_ARGS 8

/* perf record's --max-size: a number of bytes with an optional B, K, M, G or T. */
static int opt_max_size(const struct cmd_option *opt, const char *arg, void *ctx)
{
	static const char units[] = "BKMGT";
	struct record_args *o = ctx;
	char *end;
	const char *u;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (end == arg || errno || *arg == '-')
		goto bad;
	if (!*end) {
		o->max_size = v;
		return 0;
	}
	u = strchr(units, *end >= 'a' ? *end - 32 : *end);
	if (!u || !*u || end[1] || v > (UINT64_MAX >> (10 * (u - units))))
		goto bad;
	o->max_size = (uint64_t)v << (10 * (u - units));
	return 0;
bad:
	return cmd_error(CMD, "--max-size expects a size such as 256M (B, K, M, G or T), not '%s'",
			 arg);
}

/* --sim: a command, and no more nodes than cpus. */
static int check_sim_args(const struct record_args *o, int nr_args)
{
	if (!nr_args) {
		cmd_error(CMD, "no command to run: c2cscope record --sim -- CMD [ARGS]");
		return CMD_PARSE_ERROR;
	}
	if (o->nodes > o->cpus) {
		cmd_error(CMD, "--sim-nodes %llu: more nodes than the %llu cpus",
			  (unsigned long long)o->nodes, (unsigned long long)o->cpus);
		return CMD_PARSE_ERROR;
	}
	return 0;
}

/* The PMU recorder's options: one target, -F or -c, -u or -k. */
static int check_pmu_args(const struct record_args *o, int nr_args)
{
	/* -a/-C with -- CMD: every task on those cpus while CMD runs, as perf does */
	int targets = !!o->pids + !!o->tids + (nr_args > 0 || o->all_cpus || o->cpu_list);

	if (o->freq && o->period)
		return cmd_error(CMD, "-F and -c both given: sample by frequency or by period"),
		       CMD_PARSE_ERROR;
	if (o->user && o->kernel)
		return cmd_error(CMD, "-u and -k both given: leave both out for user and kernel"),
		       CMD_PARSE_ERROR;
	if (targets > 1)
		return cmd_error(CMD, "more than one target: give one of -p, -t, -a/-C or -- CMD"),
		       CMD_PARSE_ERROR;
	if (!targets && !o->dry_run && !o->list)
		return cmd_error(CMD, "nothing to record: give -- CMD, -p PID, -t TID, -a or -C "
				      "CPUS (or --sim -- CMD to simulate)"),
		       CMD_PARSE_ERROR;
	return 0;
}

static int parse_args(int argc, char **argv, struct record_args *o)
{
	const struct cmd_option opts[] = {
		OPT_STRING('o', "output", &o->output, "FILE", "the perf.data to write"),
		OPT_GROUP("PMU recording"),
		OPT_STRING_LIST('e', "event", &o->events, "EVENT",
				"an event as perf record -e takes it (repeatable; default:\n"
				"perf c2c's memory events for this CPU)"),
		OPT_FLAG('a', "all-cpus", &o->all_cpus, "system-wide, on every cpu"),
		OPT_STRING('C', "cpu", &o->cpu_list, "CPUS", "system-wide on these cpus (0-3,8)"),
		OPT_STRING('p', "pid", &o->pids, "PID[,PID]", "attach to these processes"),
		OPT_STRING('t', "tid", &o->tids, "TID[,TID]", "attach to these threads"),
		OPT_CALLBACK('F', "freq", "FREQ", "samples per second per event, or 'max'",
			     opt_freq),
		OPT_U64('c', "count", &o->period, "PERIOD", "one sample every PERIOD events", 1,
			UINT64_MAX),
		OPT_UINT('l', "ldlat", &o->ldlat, "LDLAT",
			 "load latency threshold of the default loads (cycles, default 30)", 1,
			 65535),
		OPT_FLAG('u', "user", &o->user, "user-space samples only"),
		OPT_FLAG('k', "kernel", &o->kernel, "kernel samples only"),
		OPT_UINT('m', "mmap-pages", &o->mmap_pages, "PAGES",
			 "data pages per ring buffer (a power of 2, default 128)", 1, 1u << 20),
		OPT_FLAG(0, "sched", &o->sched, "also sched:sched_switch and sched_migrate_task"),
		OPT_FLAG(0, "dry-run", &o->dry_run, "print the events as they would be opened"),
		OPT_FLAG(0, "list", &o->list,
			 "the PMUs and memory-sampling events of this machine"),
		OPT_GROUP("Simulation"),
		OPT_FLAG(0, "sim", &o->sim, "simulate the caches with the c2csim Valgrind tool"),
		OPT_U64(0, "sim-cpus", &o->cpus, "N",
			"virtual cpus (1-64, default 8); thread i runs on cpu i%N\n"
			"unless sched_setaffinity restricts it: then on the\n"
			"least-loaded cpu of its mask",
			1, 64),
		OPT_U64(0, "sim-nodes", &o->nodes, "N",
			"virtual NUMA nodes (default 1); cpu c is on node c%N", 1, 8),
		OPT_U64(0, "sample-rate", &o->rate, "N",
			"keep 1 in N accesses besides HITMs and store misses,\n"
			"which are all kept (default 1000)",
			1, 1000000000),
		OPT_U64(0, "seed", &o->seed, "N", "seed of the sampling (default 1)", 0, INT64_MAX),
		OPT_CALLBACK(0, "cacheline-size", "N", "cache line size, 64 or 128 (default 64)",
			     opt_line_size),
		OPT_CALLBACK(0, "line-size", "N", "the same as --cacheline-size", opt_line_size),
		OPT_U64(0, "lead", &o->lead, "N",
			"instructions a thread may run ahead of the slowest (100000)", 1000,
			1000000000),
		OPT_CALLBACK(0, "max-size", "SIZE",
			     "keep the file under SIZE (default 256M, 0: no limit)", opt_max_size),
		OPT_U64(0, "hitm-rate", &o->hitm_rate, "N",
			"keep 1 in N samples, HITMs too, whatever the size", 1, 1000000),
		OPT_END(),
	};
	int argi;

	*o = (struct record_args){ .output = "perf.data",
				   .cpus = C2CSIM_DEFAULT_CPUS,
				   .nodes = C2CSIM_DEFAULT_NODES,
				   .rate = C2CSIM_DEFAULT_SAMPLE_RATE,
				   .seed = C2CSIM_DEFAULT_SEED,
				   .line = C2CSIM_DEFAULT_LINE_SIZE,
				   .lead = C2CSIM_DEFAULT_LEAD,
				   .max_size = DEFAULT_MAX_SIZE,
				   .ldlat = 30 };
	argi = cmd_parse_options(CMD, &usage, opts, o, argc, argv, CMD_PARSE_STOP_AT_NON_OPTION);
	if (argi < 0)
		return argi;
	o->argv = argv + argi;
	return o->sim ? check_sim_args(o, argc - argi) : check_pmu_args(o, argc - argi);
}

static bool has_tool(const char *dir)
{
	struct strbuf p = STRBUF_INIT;
	bool yes;

	strbuf_addf(&p, "%s/c2csim-amd64-linux", dir);
	yes = access(p.buf, X_OK) == 0;
	strbuf_release(&p);
	return yes;
}

/* $C2CSIM_LIB, the build tree next to this binary, then the install dir. */
static char *find_sim_lib(void)
{
	const char *env = getenv("C2CSIM_LIB");
	char exe[PATH_MAX];
	ssize_t n;
	struct strbuf p = STRBUF_INIT;

	if (env && *env)
		return xstrdup(env);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		*strrchr(exe, '/') = 0;
		strbuf_addf(&p, "%s/../plugins/valgrind/lib", exe);
		if (has_tool(p.buf))
			return strbuf_detach(&p, NULL);
		strbuf_release(&p);
	}
#ifdef C2C_PKGLIBEXECDIR
	if (has_tool(C2C_PKGLIBEXECDIR))
		return xstrdup(C2C_PKGLIBEXECDIR);
#endif
	return NULL;
}

static const char **tool_args(const struct record_args *o, struct strbuf *bufs)
{
	static const char *const fmt[NR_TOOL_ARGS] = {
		"--sim-cpus=%llu",	"--sim-nodes=%llu",	  "--sim-sample-rate=%llu",
		"--sim-seed=%llu",	"--sim-line-size=%llu",	  "--sim-lead=%llu",
		"--sim-hitm-rate=%llu", "--sim-max-samples=%llu",
	};
	/* a forced rate stays; else the rate grows whenever the budget fills */
	const uint64_t budget =
		o->hitm_rate || !o->max_size ? 0 : sim_record_budget_samples(o->max_size);
	const uint64_t v[NR_TOOL_ARGS] = { o->cpus,
					   o->nodes,
					   o->rate,
					   o->seed,
					   o->line,
					   o->lead,
					   o->hitm_rate ? o->hitm_rate : 1,
					   budget };
	const char **args = xcalloc(ARRAY_SIZE(fmt) + 1, sizeof(*args));
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fmt); i++) {
		strbuf_init(&bufs[i], 32);
		strbuf_addf(&bufs[i], fmt[i], (unsigned long long)v[i]);
		args[i] = bufs[i].buf;
	}
	return args;
}

/*
 * Real-time fallbacks, by cause: each is a point where the scheduling
 * model could not tell who runs next and let real time decide.
 */
static void fallback_note(const uint64_t *t)
{
	static const struct {
		int stat;
		const char *what;
	} causes[] = {
		{ C2CSIM_ST_FB_HANG, "a thread stayed in a syscall past its allowance" },
		{ C2CSIM_ST_FB_ABSENT, "the thread whose turn it was did not run for 60 s" },
		{ C2CSIM_ST_FB_NOT_ASLEEP, "a waiting thread was never seen asleep" },
		{ C2CSIM_ST_FB_WOKE, "a timed wait timed out, a signal or input from outside" },
		{ C2CSIM_ST_FB_SWAPPED, "the kernel woke another waiter than the model" },
		{ C2CSIM_ST_FB_RAN_WAITING, "a thread ran while the model had it waiting" },
		{ C2CSIM_ST_FB_EXIT, "a thread's exit never finished in the kernel" },
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(causes); i++) {
		if (!t[causes[i].stat])
			continue;
		strbuf_addf(&sb, "%s%llu: %s", sb.len ? "; " : "",
			    (unsigned long long)t[causes[i].stat], causes[i].what);
		if (causes[i].stat == C2CSIM_ST_FB_HANG && t[C2CSIM_ST_FB_HANG_SYSNO])
			strbuf_addf(&sb, " (syscall %llu)",
				    (unsigned long long)t[C2CSIM_ST_FB_HANG_SYSNO] - 1);
	}
	fprintf(stderr,
		"c2cscope record: note: %llu times real time decided which thread ran (%s); "
		"the interleaving of this run may differ from another's\n",
		(unsigned long long)t[C2CSIM_ST_GAVE_UP], sb.len ? sb.buf : "cause unknown");
	strbuf_release(&sb);
}

/* What sampling did to the counts: a report's HITM counts are samples. */
static void thinning_note(const struct record_args *o, const struct sim_record_stats *st)
{
	if (st->hitm_rate > 1 && o->hitm_rate)
		fprintf(stderr,
			"c2cscope record: HITMs and store misses sampled 1 in %u (--hitm-rate; "
			"period %u): a report's counts are samples, x %u estimates the events\n",
			st->hitm_rate, st->hitm_rate, st->hitm_rate);
	else if (st->hitm_rate > 1)
		fprintf(stderr,
			"c2cscope record: HITMs and store misses sampled 1 in %u (period %u) to stay "
			"under --max-size %llu MiB (%llu samples thinned out in %llu passes): a "
			"report's counts are samples, x %u estimates the events\n",
			st->hitm_rate, st->hitm_rate, (unsigned long long)(o->max_size >> 20),
			(unsigned long long)st->thinned, (unsigned long long)st->thin_passes,
			st->hitm_rate);
	if (st->over_size)
		cmd_warn(CMD,
			 "%s reached --max-size %llu bytes: %llu samples after that were not "
			 "written",
			 o->output, (unsigned long long)o->max_size,
			 (unsigned long long)st->over_size);
}

static void summary(const struct record_args *o, const struct sim_record_stats *st, double secs)
{
	const uint64_t *t = st->totals;

	if (st->have_totals)
		fprintf(stderr,
			"c2cscope record: %llu memory events simulated, %llu HITMs (%llu local, "
			"%llu remote), %llu samples written to %s in %.2f s\n",
			(unsigned long long)(t[C2CSIM_ST_LOADS] + t[C2CSIM_ST_STORES] +
					     t[C2CSIM_ST_ATOMICS]),
			(unsigned long long)(t[C2CSIM_ST_LCL_HITM] + t[C2CSIM_ST_RMT_HITM]),
			(unsigned long long)t[C2CSIM_ST_LCL_HITM],
			(unsigned long long)t[C2CSIM_ST_RMT_HITM],
			(unsigned long long)(st->cut ? st->kept_samples : st->samples), o->output,
			secs);
	if (st->have_totals && t[C2CSIM_ST_GAVE_UP])
		fallback_note(t);
	thinning_note(o, st);
	if (!st->have_totals)
		fprintf(stderr,
			"c2cscope record: the simulation was cut short; %llu samples (%llu HITMs) "
			"simulated, %llu written to %s in %.2f s\n",
			(unsigned long long)st->samples, (unsigned long long)st->hitm_samples,
			(unsigned long long)(st->cut ? st->kept_samples : st->samples), o->output,
			secs);
}

/* The output filled up (the writer cut it back): what it holds; exit 1. */
static int output_cut(const char *output, uint64_t kept, uint64_t total)
{
	cmd_warn(CMD, "%s holds the first %llu of the %llu samples; %s", output,
		 (unsigned long long)kept, (unsigned long long)total,
		 "free space or raise the file size limit and record again for all");
	return EXIT_FAILURE;
}

static int exit_code_of(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_BAD_INPUT;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The output is opened once the tool is started (so that the writer's
 * set-up overlaps Valgrind's); that it can be created is checked first,
 * before anything runs.
 */
static bool output_creatable(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);

	if (fd < 0) {
		cmd_error(CMD, "%s: cannot create: %s", path, strerror(errno));
		return false;
	}
	close(fd);
	return true;
}

static int record_sim(const struct record_args *o, int argc, char **argv)
{
	struct strbuf bufs[NR_TOOL_ARGS];
	const char *base = strrchr(o->argv[0], '/');
	struct sim_record_opts ro = { .path = o->output,
				      .cmdline = (const char *const *)argv,
				      .comm = base ? base + 1 : o->argv[0],
				      .max_size = o->max_size };
	struct sim_run_opts run = { .argv = o->argv };
	struct sim_run_result res;
	struct sim_record_stats st;
	struct sim_record *rec;
	struct err_msg err = { 0 };
	double t0 = now();
	int ret, rc;
	size_t i;

	run.lib_dir = find_sim_lib();
	if (!run.lib_dir)
		return cmd_error(CMD, "the c2csim Valgrind tool is not installed (this build was "
				      "configured without valgrind, or set C2CSIM_LIB)");
	if (!output_creatable(o->output)) {
		free((char *)run.lib_dir);
		return EXIT_BAD_INPUT;
	}
	run.tool_args = tool_args(o, bufs);
	ret = sim_run(&run, &ro, &rec, &res, &err);
	if (ret < 0)
		cmd_report_err(CMD, &err);
	if (res.convert_error)
		cmd_report_err(CMD, &res.convert_err);
	if (rec && sim_record_close(rec, &st, &err) < 0 && !st.cut)
		return cmd_report_err(CMD, &err);
	if (rec && st.cut) /* full disk or file size limit: a readable file, cut */
		cmd_warn(CMD, "%s", err.msg);
	for (i = 0; i < ARRAY_SIZE(bufs); i++)
		strbuf_release(&bufs[i]);
	free((void *)run.tool_args);
	free((char *)run.lib_dir);
	if (!rec || ret < 0 || res.convert_error)
		return EXIT_BAD_INPUT;
	if (!st.have_header)
		return cmd_error(CMD,
				 "c2csim did not start (see Valgrind's message above); "
				 "%s has no samples",
				 o->output);
	summary(o, &st, now() - t0);
	if (st.cut)
		return output_cut(o->output, st.kept_samples, st.samples);
	rc = exit_code_of(res.wait_status);
	return rc;
}

static int build_events(const struct record_args *o, struct record_evlist *l, bool verbose)
{
	struct strbuf notes = STRBUF_INIT;
	struct err_msg err = { 0 };
	size_t i;
	int ret = 0;

	for (i = 0; i < o->events.nr && !ret; i++)
		ret = record_evlist_parse(l, o->events.items[i], &err);
	if (!ret && !o->events.nr)
		ret = record_evlist_add_defaults(l, o->ldlat, &notes, &err);
	if (!ret && o->sched)
		ret = record_evlist_parse(l, "sched:sched_switch,sched:sched_migrate_task", &err);
	if (ret) {
		strbuf_release(&notes);
		record_evlist_release(l);
		return cmd_report_err(CMD, &err);
	}
	if (verbose && notes.len)
		fputs(notes.buf, stdout);
	strbuf_release(&notes);
	return 0;
}

static volatile sig_atomic_t stop_flag;

static void on_stop_signal(int sig)
{
	stop_flag = 1;
}

static void pmu_summary(const struct record_args *o, const struct record_stats *st, double secs)
{
	uint64_t lost = st->lost + st->lost_samples;
	uint64_t all = st->samples + lost;

	if (st->note)
		fprintf(stderr, "c2cscope record: note: %s\n", st->note);
	fprintf(stderr, "c2cscope record: %llu samples written to %s in %.2f s",
		(unsigned long long)st->samples, o->output, secs);
	if (st->filtered)
		fprintf(stderr, " (%llu of other tasks left out)",
			(unsigned long long)st->filtered);
	fputc('\n', stderr);
	if (lost)
		fprintf(stderr, "c2cscope record: %llu samples lost (%.2f%%)\n",
			(unsigned long long)lost, 100.0 * (double)lost / (double)all);
	if (st->throttles)
		fprintf(stderr,
			"c2cscope record: the kernel throttled sampling %llu times "
			"(kernel.perf_event_max_sample_rate)\n",
			(unsigned long long)st->throttles);
}

static int start_session(const struct record_args *a, char **argv, const struct record_evlist *l,
			 struct progress *progress, struct record_session **s, struct err_msg *err)
{
	struct record_opts ro = {
		.path = a->output,
		.cmdline = (const char *const *)argv,
		.target = { .system_wide = a->all_cpus,
			    .cpus = a->cpu_list,
			    .pids = a->pids,
			    .tids = a->tids,
			    .argv = *a->argv ? a->argv : NULL },
		.mmap_pages = a->mmap_pages,
		.progress = progress,
	};
	struct sigaction sa = { .sa_handler = on_stop_signal };

	if (a->mmap_pages & (a->mmap_pages - 1))
		return err_set(err, EINVAL, "-m %u: expected a power of 2", a->mmap_pages);
	/*
	 * Before the set-up, so that Ctrl-C during it still ends with a whole
	 * file; no SA_RESTART, so that poll returns at once. The command gets
	 * the default handlers back when it execs.
	 */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	return record_session_open(l, &ro, s, err);
}

static int record_pmu(const struct record_args *o, int argc, char **argv)
{
	struct record_evlist l = { 0 };
	struct record_sampling samp = {
		.freq = o->freq, .period = o->period, .user_only = o->user, .kernel_only = o->kernel
	};
	struct err_msg err = { 0 };
	struct record_session *s;
	struct progress *progress;
	struct record_stats st;
	double t0 = now();
	int ret;

	ret = build_events(o, &l, o->dry_run);
	if (ret)
		return ret;
	record_evlist_configure(&l, &samp);
	if (o->dry_run) {
		struct strbuf out = STRBUF_INIT;

		record_evlist_describe(&l, &out);
		fputs(out.buf, stdout);
		strbuf_release(&out);
		record_evlist_release(&l);
		return EXIT_OK;
	}
	/* a command's own output shares the terminal: a counter only without one */
	progress = !*o->argv && progress_enabled() ? progress_new("Samples", 0) : NULL;
	ret = start_session(o, argv, &l, progress, &s, &err);
	record_evlist_release(&l);
	if (ret < 0) {
		progress_free(progress);
		return cmd_report_err(CMD, &err);
	}
	ret = record_session_run(s, &stop_flag, &err);
	progress_free(progress);
	if (ret < 0) {
		record_session_abort(s); /* the command did not run, or the file is broken */
		return cmd_report_err(CMD, &err);
	}
	if (record_session_close(s, &st, &err) < 0 && !st.cut)
		return cmd_report_err(CMD, &err);
	if (st.cut) { /* full disk or file size limit: a readable file, cut */
		cmd_warn(CMD, "%s", err.msg);
		return output_cut(o->output, st.kept_samples, st.samples);
	}
	pmu_summary(o, &st, now() - t0);
	return st.child_exited ? exit_code_of(st.wait_status) : EXIT_OK;
}

static int list_pmus(void)
{
	struct strbuf out = STRBUF_INIT;
	struct err_msg err = { 0 };

	if (record_list(&out, &err) < 0)
		return cmd_report_err(CMD, &err);
	fputs(out.buf, stdout);
	strbuf_release(&out);
	return EXIT_OK;
}

int cmd_record(int argc, char **argv)
{
	struct record_args o;
	int ret = parse_args(argc, argv, &o);

	if (ret)
		ret = cmd_options_exit(ret);
	else if (o.list)
		ret = list_pmus();
	else if (!o.sim)
		ret = record_pmu(&o, argc, argv);
	else
		ret = record_sim(&o, argc, argv);
	free(o.events.items);
	return ret;
}
