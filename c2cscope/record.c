// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope record: memory samples into perf.data. With --sim the program
 * runs under the c2csim Valgrind tool (simulated coherence, no PMU needed).
 * The PMU recorder is not built yet: without --sim this command says what
 * the machine offers and points to --sim.
 */
#include "config.h"
#include "cmd.h"
#include "options.h"

#include <dirent.h>
#include <errno.h>
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

#include "sim/sim_record.h"
#include "sim/sim_run.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define CMD "record"
#define PMU_DIR "/sys/bus/event_source/devices"

struct record_opts {
	bool sim;
	const char *output;
	uint64_t cpus, nodes, rate, seed, line, lead;
	char **argv;
};

static const struct cmd_usage usage = {
	.synopsis =
		"c2cscope record --sim [-o FILE] [--sim-cpus N] [--sim-nodes N]\n"
		"                [--sample-rate N] [--seed N] [--line-size 64|128] -- CMD [ARGS]",
	.description = "Runs CMD and records memory samples into perf.data (default ./perf.data).",
	.epilogue = "Without --sim, samples come from the PMU; machines without a memory-sampling\n"
		    "PMU (most VMs) need --sim. See c2cscope-record(1).",
};

static int opt_line_size(const struct cmd_option *opt, const char *arg, void *ctx)
{
	struct record_opts *o = ctx;

	if (strcmp(arg, "64") && strcmp(arg, "128"))
		return cmd_error(CMD, "--line-size expects 64 or 128, not '%s'", arg);
	o->line = strtoull(arg, NULL, 10);
	return 0;
}

static int parse_args(int argc, char **argv, struct record_opts *o)
{
	const struct cmd_option opts[] = {
		OPT_FLAG(0, "sim", &o->sim, "simulate the caches with the c2csim Valgrind tool"),
		OPT_STRING('o', "output", &o->output, "FILE", "the perf.data to write"),
		OPT_U64(0, "sim-cpus", &o->cpus, "N",
			"virtual cpus (1-64, default 8); thread i runs on cpu i%N\n"
			"unless it pins itself with sched_setaffinity",
			1, 64),
		OPT_U64(0, "sim-nodes", &o->nodes, "N",
			"virtual NUMA nodes (default 1); cpu c is on node c%N", 1, 8),
		OPT_U64(0, "sample-rate", &o->rate, "N",
			"keep 1 in N accesses besides HITMs and store misses,\n"
			"which are all kept (default 1000)",
			1, 1000000000),
		OPT_U64(0, "seed", &o->seed, "N", "seed of the sampling (default 1)", 0, INT64_MAX),
		OPT_CALLBACK(0, "line-size", "N", "cache line size, 64 or 128 (default 64)",
			     opt_line_size),
		OPT_U64(0, "lead", &o->lead, "N",
			"instructions a thread may run ahead of the slowest (100000)", 1000,
			1000000000),
		OPT_END(),
	};
	int argi;

	*o = (struct record_opts){ .output = "perf.data",
				   .cpus = 8,
				   .nodes = 1,
				   .rate = 1000,
				   .seed = 1,
				   .line = 64,
				   .lead = 100000 };
	argi = cmd_parse_options(CMD, &usage, opts, o, argc, argv, CMD_PARSE_STOP_AT_NON_OPTION);
	if (argi < 0)
		return argi;
	if (argi >= argc) {
		cmd_error(CMD, "no command to run: c2cscope record --sim -- CMD [ARGS]");
		return CMD_PARSE_ERROR;
	}
	if (o->nodes > o->cpus) {
		cmd_error(CMD, "--sim-nodes %llu: more nodes than the %llu cpus",
			  (unsigned long long)o->nodes, (unsigned long long)o->cpus);
		return CMD_PARSE_ERROR;
	}
	o->argv = argv + argi;
	return 0;
}

/* A memory-sampling PMU: Intel PEBS mem events, AMD IBS op, Arm SPE. */
static bool pmu_samples_memory(const char *name)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	bool yes;

	if (!strcmp(name, "ibs_op") || !strncmp(name, "arm_spe", 7))
		return true;
	strbuf_addf(&p, PMU_DIR "/%s/events/mem-loads", name);
	yes = stat(p.buf, &st) == 0;
	strbuf_release(&p);
	return yes;
}

static int no_pmu(void)
{
	struct strbuf list = STRBUF_INIT;
	struct dirent **names;
	bool found = false;
	int i, n = scandir(PMU_DIR, &names, NULL, alphasort);

	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			found |= pmu_samples_memory(names[i]->d_name);
			strbuf_addf(&list, "%s%s", list.len ? ", " : "", names[i]->d_name);
		}
		free(names[i]);
	}
	if (n > 0)
		free(names);
	if (found)
		cmd_error(CMD, "this build records from the PMU only through perf for now "
			       "(perf c2c record); use --sim to simulate");
	else
		cmd_error(CMD,
			  "this machine has no memory-sampling PMU (no cpu/mem-loads, ibs_op or "
			  "arm_spe); PMUs found in " PMU_DIR ": %s\n"
			  "  use --sim to simulate the caches: c2cscope record --sim -- CMD",
			  list.len ? list.buf : "none");
	strbuf_release(&list);
	return EXIT_BAD_INPUT;
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

static const char **tool_args(const struct record_opts *o, struct strbuf *bufs)
{
	static const char *const fmt[] = { "--sim-cpus=%llu",	     "--sim-nodes=%llu",
					   "--sim-sample-rate=%llu", "--sim-seed=%llu",
					   "--sim-line-size=%llu",   "--sim-lead=%llu" };
	const uint64_t v[] = { o->cpus, o->nodes, o->rate, o->seed, o->line, o->lead };
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

static void summary(const struct record_opts *o, const struct sim_record_stats *st, double secs)
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
			(unsigned long long)t[C2CSIM_ST_RMT_HITM], (unsigned long long)st->samples,
			o->output, secs);
	if (st->have_totals && t[C2CSIM_ST_GAVE_UP])
		fallback_note(t);
	if (!st->have_totals)
		fprintf(stderr,
			"c2cscope record: the simulation was cut short; %llu samples (%llu HITMs) "
			"written to %s in %.2f s\n",
			(unsigned long long)st->samples, (unsigned long long)st->hitm_samples,
			o->output, secs);
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

static int record_sim(const struct record_opts *o, int argc, char **argv)
{
	struct strbuf bufs[6];
	const char *base = strrchr(o->argv[0], '/');
	struct sim_record_opts ro = { .path = o->output,
				      .cmdline = (const char *const *)argv,
				      .comm = base ? base + 1 : o->argv[0] };
	struct sim_run_opts run = { .argv = o->argv };
	struct sim_run_result res;
	struct sim_record_stats st;
	struct sim_record *rec;
	struct c2c_err err = { 0 };
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
	if (rec && sim_record_close(rec, &st, &err) < 0)
		return cmd_report_err(CMD, &err);
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
	rc = exit_code_of(res.wait_status);
	return rc;
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o;
	int ret = parse_args(argc, argv, &o);

	if (ret)
		return cmd_options_exit(ret);
	if (!o.sim)
		return no_pmu();
	return record_sim(&o, argc, argv);
}
