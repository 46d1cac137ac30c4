// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope watch: exact access traces of named fields from hardware
 * breakpoints, per field and per cache line, as text or JSON. See
 * c2cscope-watch(1) and doc/watch-json.md.
 */
#include "config.h"
#include "cmd.h"
#include "options.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#ifdef HAVE_JANSSON
#include "fmt/json_out.h"
#endif
#include "util/progress.h"
#include "watch/watch.h"

#define CMD "watch"

struct watch_args {
	struct cmd_strlist fields;
	unsigned int pid;
	unsigned int mmap_pages;
	const char *duration;
	const char *output;
	const char *format;
	const char *record;
	bool kernel, all, write_only;
};

static const struct cmd_usage usage = {
	.synopsis = "c2cscope watch -e FIELD [-e FIELD]... [-p PID | -- CMD [ARGS]]\n"
		    "               [--duration S] [-o FILE] [--format text|json]\n"
		    "               [--record FILE] [-m PAGES] [--all] [-W] [--kernel]",
	.description = "FIELD: var.field[.sub] or var[3].field (a global or static of the\n"
		       "target's executable or its libraries), TYPE.field@ADDR, ADDR/LEN;\n"
		       "with --kernel, TYPE.field@ADDR (BTF) or SYMBOL[/LEN] (kallsyms).",
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int parse_args(int argc, char **argv, struct watch_args *a)
{
	const struct cmd_option opts[] = {
		OPT_STRING_LIST('e', "field", &a->fields, "FIELD",
				"a field to watch (repeatable; one debug register each)"),
		OPT_UINT('p', "pid", &a->pid, "PID", "attach to this running process", 1, 4194304),
		OPT_STRING(0, "duration", &a->duration, "S",
			   "stop after S seconds (default: until the target exits or Ctrl-C)"),
		OPT_STRING('o', "output", &a->output, "FILE",
			   "write the report here (default stdout)"),
		OPT_STRING(0, "format", &a->format, "FMT", "text (default) or json"),
		OPT_STRING(0, "record", &a->record, "FILE",
			   "also write the hits as perf.data (perf script, c2cscope report)"),
		OPT_UINT('m', "mmap-pages", &a->mmap_pages, "N",
			 "data pages per cpu's ring, a power of two (default 1024)", 8, 65536),
		OPT_FLAG(0, "all", &a->all, "kernel accesses too (needs privileges)"),
		OPT_FLAG('W', "write-only", &a->write_only,
			 "write breakpoints only: every hit is a write, reads unseen"),
		OPT_FLAG(0, "kernel", &a->kernel,
			 "the fields are kernel data: every cpu, TYPE from BTF"),
		OPT_END(),
	};

	return cmd_parse_options(CMD, &usage, opts, a, argc, argv, CMD_PARSE_STOP_AT_NON_OPTION);
}

static int check_args(const struct watch_args *a, int argc, int argi, double *duration)
{
	char *end;

	*duration = 0;
	if (a->duration) {
		*duration = strtod(a->duration, &end);
		if (end == a->duration || *end || !(*duration > 0) || *duration > 1e6)
			return cmd_error(CMD, "--duration expects seconds (> 0), not '%s'",
					 a->duration);
	}
	if (!a->fields.nr)
		return cmd_error(CMD, "no field to watch: -e FIELD");
	if (a->mmap_pages & (a->mmap_pages - 1))
		return cmd_error(CMD, "--mmap-pages expects a power of two, not %u", a->mmap_pages);
	if (a->format && strcmp(a->format, "text") && strcmp(a->format, "json"))
		return cmd_error(CMD, "--format expects text or json, not '%s'", a->format);
	if (a->kernel && (a->pid || argi < argc))
		return cmd_error(CMD, "--kernel watches every cpu: no -p and no command");
	if (!a->kernel && !a->pid && argi >= argc)
		return cmd_error(CMD, "nothing to watch: -p PID or -- CMD [ARGS]");
	if (a->pid && argi < argc)
		return cmd_error(CMD, "-p and a command exclude each other");
	if (a->kernel && !a->duration)
		return cmd_error(CMD, "--kernel needs --duration");
	return 0;
}

static void print_sites(FILE *out, const struct watch_field *f)
{
	size_t i;

	if (!f->nr_sites)
		return;
	fprintf(out, "  %10s %10s %10s  %-24s %s\n", "reads", "writes", "unknown", "function",
		"source:line");
	for (i = 0; i < f->nr_sites; i++) {
		const struct watch_site *s = &f->sites[i];

		fprintf(out, "  %10llu %10llu %10llu  %-24s %s\n", (unsigned long long)s->reads,
			(unsigned long long)s->writes, (unsigned long long)s->unknown,
			s->symbol ? s->symbol : "[unknown]", s->srcline ? s->srcline : "??:0");
	}
}

static void print_field(FILE *out, const struct watch_field *f)
{
	fprintf(out, "\n%s  (%s, %llu bytes at %#llx; breakpoint %#llx/%u%s)\n", f->name,
		f->type_name ? f->type_name : "no type", (unsigned long long)f->size,
		(unsigned long long)f->addr, (unsigned long long)f->bp_addr, f->bp_len,
		f->partial ? ", the field's first bytes only" : "");
	fprintf(out,
		"  hits %llu  samples %llu  lost %llu  reads %llu  writes %llu (rmw %llu)"
		"  unknown %llu  threads %u  cpus %u\n",
		(unsigned long long)f->count, (unsigned long long)f->samples,
		(unsigned long long)f->lost, (unsigned long long)f->reads,
		(unsigned long long)f->writes, (unsigned long long)f->rmw,
		(unsigned long long)f->unknown, f->nr_threads, f->nr_cpus);
	print_sites(out, f);
}

static void print_lines(FILE *out, const struct watch *w, const struct watch_summary *s)
{
	size_t i, j;

	fprintf(out, "\nMESI replay per cache line (only the watched fields' accesses):\n");
	for (i = 0; i < s->nr_lines; i++) {
		const struct watch_line *l = &s->lines[i];

		fprintf(out, "  line %#llx: %llu accesses, replayed_hitm %llu\n",
			(unsigned long long)l->addr, (unsigned long long)l->accesses,
			(unsigned long long)l->replayed_hitm);
		for (j = 0; j < l->nr_pairs; j++)
			fprintf(out, "    %10llu  %s found the line dirty from a write to %s\n",
				(unsigned long long)l->pairs[j].hitm,
				watch_field(w, l->pairs[j].field)->name,
				watch_field(w, l->pairs[j].writer)->name);
	}
	fprintf(out, "replayed_hitm %llu\n", (unsigned long long)s->replayed_hitm);
}

static void print_text(FILE *out, const struct watch *w)
{
	const struct watch_summary *s = watch_summary(w);
	size_t i;

	fprintf(out, "watch: pid %d, %.3f s, %llu hits (%.0f/s), %llu samples, %llu lost\n", s->pid,
		s->seconds, (unsigned long long)s->hits, s->rate, (unsigned long long)s->samples,
		(unsigned long long)s->lost);
	if (s->throttles || s->unsampled)
		fprintf(out, "throttled %llu times, %llu hits neither sampled nor lost\n",
			(unsigned long long)s->throttles, (unsigned long long)s->unsampled);
	fprintf(out, "cost %.2f us per hit (measured at start) -> overhead %.3f s\n",
		s->cost_ns / 1000, s->overhead_s);
	fprintf(out, "reads and writes told apart by %s\n", s->method);
	for (i = 0; i < watch_nr_fields(w); i++)
		print_field(out, watch_field(w, i));
	print_lines(out, w, s);
}

#ifdef HAVE_JANSSON
/* Addresses as hexadecimal strings: JSON numbers lose 64-bit precision. */
static json_t *json_hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%#llx", (unsigned long long)v);
	return json_string(buf);
}

static json_t *json_field(const struct watch_field *f)
{
	json_t *o = json_object(), *sites = json_array();
	size_t i;

	json_object_set_new(o, "name", json_string(f->name));
	json_object_set_new(o, "type", f->type_name ? json_string(f->type_name) : json_null());
	json_object_set_new(o, "address", json_hex(f->addr));
	json_object_set_new(o, "size", json_integer(f->size));
	json_object_set_new(o, "bp_address", json_hex(f->bp_addr));
	json_object_set_new(o, "bp_len", json_integer(f->bp_len));
	json_object_set_new(o, "hits", json_integer(f->count));
	json_object_set_new(o, "samples", json_integer(f->samples));
	json_object_set_new(o, "lost", json_integer(f->lost));
	json_object_set_new(o, "reads", json_integer(f->reads));
	json_object_set_new(o, "writes", json_integer(f->writes));
	json_object_set_new(o, "rmw", json_integer(f->rmw));
	json_object_set_new(o, "unknown", json_integer(f->unknown));
	json_object_set_new(o, "threads", json_integer(f->nr_threads));
	json_object_set_new(o, "cpus", json_integer(f->nr_cpus));
	for (i = 0; i < f->nr_sites; i++) {
		const struct watch_site *s = &f->sites[i];
		json_t *js = json_object();

		json_object_set_new(js, "ip", json_hex(s->ip));
		json_object_set_new(js, "symbol", s->symbol ? json_string(s->symbol) : json_null());
		json_object_set_new(js, "srcline",
				    s->srcline ? json_string(s->srcline) : json_null());
		json_object_set_new(js, "reads", json_integer(s->reads));
		json_object_set_new(js, "writes", json_integer(s->writes));
		json_object_set_new(js, "unknown", json_integer(s->unknown));
		json_array_append_new(sites, js);
	}
	json_object_set_new(o, "sites", sites);
	return o;
}

static json_t *json_lines(const struct watch *w, const struct watch_summary *s)
{
	json_t *lines = json_array();
	size_t i, j;

	for (i = 0; i < s->nr_lines; i++) {
		const struct watch_line *l = &s->lines[i];
		json_t *o = json_object(), *pairs = json_array();

		json_object_set_new(o, "address", json_hex(l->addr));
		json_object_set_new(o, "accesses", json_integer(l->accesses));
		json_object_set_new(o, "replayed_hitm", json_integer(l->replayed_hitm));
		for (j = 0; j < l->nr_pairs; j++) {
			json_t *p = json_object();

			json_object_set_new(p, "field",
					    json_string(watch_field(w, l->pairs[j].field)->name));
			json_object_set_new(p, "writer",
					    json_string(watch_field(w, l->pairs[j].writer)->name));
			json_object_set_new(p, "hitm", json_integer(l->pairs[j].hitm));
			json_array_append_new(pairs, p);
		}
		json_object_set_new(o, "pairs", pairs);
		json_array_append_new(lines, o);
	}
	return lines;
}

static int write_json(const struct watch *w, const char *path)
{
	const struct watch_summary *s = watch_summary(w);
	json_t *root = json_object(), *fields = json_array();
	struct err_msg err = { 0 };
	size_t i;
	int ret;

	json_object_set_new(root, "schema", json_string("c2cscope-watch/1"));
	json_object_set_new(root, "pid", json_integer(s->pid));
	json_object_set_new(root, "seconds", json_real(s->seconds));
	json_object_set_new(root, "method", json_string(s->method));
	json_object_set_new(root, "hits", json_integer(s->hits));
	json_object_set_new(root, "samples", json_integer(s->samples));
	json_object_set_new(root, "lost", json_integer(s->lost));
	json_object_set_new(root, "lost_exact", json_boolean(s->lost_exact));
	json_object_set_new(root, "throttles", json_integer(s->throttles));
	json_object_set_new(root, "unsampled", json_integer(s->unsampled));
	json_object_set_new(root, "rate_per_s", json_real(s->rate));
	json_object_set_new(root, "cost_ns_per_hit", json_real(s->cost_ns));
	json_object_set_new(root, "overhead_s", json_real(s->overhead_s));
	for (i = 0; i < watch_nr_fields(w); i++)
		json_array_append_new(fields, json_field(watch_field(w, i)));
	json_object_set_new(root, "fields", fields);
	json_object_set_new(root, "lines", json_lines(w, s));
	json_object_set_new(root, "replayed_hitm", json_integer(s->replayed_hitm));
	ret = json_out_write(root, path ? path : "-", &err);
	json_decref(root);
	return ret ? cmd_report_err(CMD, &err) : EXIT_OK;
}
#else
static int write_json(const struct watch *w, const char *path)
{
	(void)w;
	(void)path;
	return cmd_error(CMD, "--format json: this build has no jansson");
}
#endif

static int write_report(const struct watch *w, const struct watch_args *a)
{
	FILE *out = stdout;

	if (a->format && !strcmp(a->format, "json"))
		return write_json(w, a->output);
	if (a->output && !(out = fopen(a->output, "w")))
		return cmd_error(CMD, "%s: cannot write: %m", a->output);
	print_text(out, w);
	if (out != stdout && fclose(out))
		return cmd_error(CMD, "%s: write failed: %m", a->output);
	return EXIT_OK;
}

/* The command's own exit status passes through; a signal is 128 + its number. */
static int target_exit(const struct watch_summary *s, bool started)
{
	if (!started || !s->exited)
		return EXIT_OK;
	if (WIFEXITED(s->exit_status))
		return WEXITSTATUS(s->exit_status);
	if (WIFSIGNALED(s->exit_status))
		return 128 + WTERMSIG(s->exit_status);
	return EXIT_OK;
}

/* What the sites and the replay miss; the counts stay exact. */
static void warn_loss(const struct watch_summary *s)
{
	if (s->lost)
		cmd_warn(CMD,
			 "%llu samples lost (the counts are exact; sites and replay miss them)",
			 (unsigned long long)s->lost);
	if (s->unsampled && s->throttles)
		cmd_warn(CMD,
			 "%llu hits not sampled: the kernel throttled the breakpoints %llu times "
			 "(kernel.perf_event_max_sample_rate, perf_cpu_time_max_percent)",
			 (unsigned long long)s->unsampled, (unsigned long long)s->throttles);
	else if (s->unsampled)
		cmd_warn(CMD, "%llu hits neither sampled nor reported lost by the kernel%s",
			 (unsigned long long)s->unsampled,
			 s->lost_exact ? "" : " (this kernel has no PERF_FORMAT_LOST)");
}

static int run_watch(const struct watch_args *a, struct watch_opts *o)
{
	struct err_msg err = { 0 };
	struct watch *w = NULL;
	size_t i;
	int ret;

	o->progress = progress_new("Watching (hits)", 0);
	ret = watch_open(o, &w, &err);
	for (i = 0; !ret && i < a->fields.nr; i++)
		ret = watch_add_field(w, a->fields.items[i], &err);
	if (!ret) {
		signal(SIGINT, on_signal);
		signal(SIGTERM, on_signal);
		ret = watch_run(w, &stop, &err);
	}
	progress_free(o->progress);
	if (!ret)
		ret = watch_analyze(w, &err);
	if (ret && w && watch_summary(w)->record_cut) { /* a readable file, cut: go on */
		cmd_warn(CMD, "%s", err.msg);
		ret = 0;
	}
	if (ret) {
		watch_close(w);
		return cmd_report_err(CMD, &err);
	}
	warn_loss(watch_summary(w));
	ret = write_report(w, a);
	if (ret == EXIT_OK && watch_summary(w)->record_cut)
		ret = EXIT_FAILURE; /* the report is whole; the --record file holds the first hits */
	if (ret == EXIT_OK)
		ret = target_exit(watch_summary(w), o->argv != NULL);
	watch_close(w);
	return ret;
}

int cmd_watch(int argc, char **argv)
{
	struct watch_args a = { 0 };
	struct watch_opts o = { 0 };
	int argi = parse_args(argc, argv, &a), ret;

	if (argi < 0) {
		free(a.fields.items);
		return cmd_options_exit(argi);
	}
	ret = check_args(&a, argc, argi, &o.duration);
	if (ret) {
		free(a.fields.items);
		return ret;
	}
	o.argv = argi < argc ? (const char *const *)argv + argi : NULL;
	o.pid = (int)a.pid;
	o.all = a.all;
	o.kernel = a.kernel;
	o.write_only = a.write_only;
	o.ring_pages = a.mmap_pages;
	o.record = a.record;
	o.record_argv = (const char *const *)argv;
	ret = run_watch(&a, &o);
	free(a.fields.items);
	return ret;
}
