// SPDX-License-Identifier: GPL-2.0
/*
 * The watch session: the target (started or attached), its fields, the run
 * loop that reads the rings until the target exits, the duration ends or
 * the caller says stop.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/progress.h"
#include "util/xalloc.h"
#include "watch/watch_int.h"

static uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The executable's types and variables; without DWARF only ADDR/LEN works. */
static int open_exe(struct watch *w, struct err_msg *err)
{
	char link[64], path[PATH_MAX];
	struct attrib_opts ao = { 0 };
	ssize_t n;
	int ret;

	snprintf(link, sizeof(link), "/proc/%d/exe", w->pid);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return err_set(err, errno, "%s: %s", link, strerror(errno));
	path[n] = '\0';
	w->exe = xstrdup(path);
	if (type_db_load(w->exe, NULL, &w->types, NULL) == 0)
		ao.types = w->types;
	ret = attrib_open(w->exe, &ao, &w->attrib, NULL);
	if (ret)
		w->attrib = NULL;
	return watch_target_maps(w, err);
}

/* Kernel sites resolve through kallsyms (the writer maps the kernel itself). */
static void map_kernel(struct watch *w)
{
	struct perf_mmap m = { .pid = UINT32_MAX,
			       .tid = UINT32_MAX,
			       .start = 0xffff800000000000ULL,
			       .len = 0x00007fffffffffffULL,
			       .filename = "[kernel.kallsyms]_text",
			       .cpumode = AS_CPUMODE_KERNEL };

	m.pgoff = m.start;
	addr_spaces_mmap(w->as, &m);
}

int watch_open(const struct watch_opts *opts, struct watch **out, struct err_msg *err)
{
	struct sym_resolver_opts so = { 0 };
	struct watch *w = xcalloc(1, sizeof(*w));
	int ret = 0;

	w->opts = *opts;
	w->pid = opts->pid;
	hashmap_init(&w->ids);
	strpool_init(&w->strings);
	w->as = addr_spaces_new();
	w->syms = sym_resolver_new(&so);
	w->sum.pid = opts->pid;
	if (opts->kernel || opts->all)
		map_kernel(w);
	if (opts->kernel) {
		if (type_db_load_kernel(NULL, &w->types, NULL))
			w->types = NULL;
	} else {
		if (opts->argv)
			ret = watch_target_start(w, err);
		else if (kill(w->pid, 0) < 0)
			ret = err_set(err, errno, "process %d: %s", w->pid, strerror(errno));
		if (!ret)
			ret = open_exe(w, err);
		w->sum.pid = w->pid;
	}
	if (ret) {
		watch_close(w);
		return ret;
	}
	*out = w;
	return 0;
}

int watch_add_field(struct watch *w, const char *spec, struct err_msg *err)
{
	struct watch_field_int *f;
	unsigned int regs = watch_debug_registers();
	int ret;

	if (w->nr_fields >= regs)
		return err_set(err, ENOSPC,
			       "%s: %zu fields need %zu breakpoints; this cpu has %u debug "
			       "registers (one breakpoint per field)",
			       spec, w->nr_fields + 1, w->nr_fields + 1, regs);
	w->fields = xgrow(w->fields, &w->alloc_fields, w->nr_fields + 1, sizeof(*w->fields));
	f = &w->fields[w->nr_fields];
	memset(f, 0, sizeof(*f));
	ret = watch_resolve(w, spec, &f->pub, &f->name, err);
	if (ret)
		return ret;
	w->nr_fields++;
	return 0;
}

static bool run_over(struct watch *w, volatile sig_atomic_t *stop)
{
	if (stop && *stop)
		return true;
	if (w->opts.duration > 0 && clock_ns() - w->start_ns >= w->opts.duration * 1e9)
		return true;
	return !watch_target_alive(w);
}

static void poll_rings(struct watch *w)
{
	struct pollfd *fds = xcalloc(w->nr_rings ? w->nr_rings : 1, sizeof(*fds));
	size_t i;

	for (i = 0; i < w->nr_rings; i++)
		fds[i] = (struct pollfd){ .fd = w->rings[i].fd, .events = POLLIN };
	poll(fds, w->nr_rings, 50);
	free(fds);
	watch_drain(w);
}

/* A target we started that outlives the watch (--duration, Ctrl-C) is ended. */
static void end_target(struct watch *w)
{
	int status;

	if (!w->started)
		return;
	if (waitpid(w->pid, &status, WNOHANG) == 0) {
		kill(w->pid, SIGTERM);
		if (waitpid(w->pid, &status, 0) != w->pid)
			return;
	}
	w->started = false;
	w->sum.exited = true;
	w->sum.exit_status = status;
}

int watch_run(struct watch *w, volatile sig_atomic_t *stop, struct err_msg *err)
{
	int ret;

	if (watch_calibrate(&w->sum.cost_ns))
		w->sum.cost_ns = 0;
	ret = watch_arm(w, err);
	if (ret) {
		watch_disarm(w);
		if (w->started) {
			kill(w->pid, SIGKILL);
			watch_target_release(w);
			end_target(w);
		}
		return ret;
	}
	w->start_ns = clock_ns();
	watch_target_release(w);
	while (!run_over(w, stop)) {
		poll_rings(w);
		progress_update(w->opts.progress, w->nr_acc);
	}
	w->end_ns = clock_ns();
	watch_disarm(w);
	end_target(w);
	w->sum.seconds = (w->end_ns - w->start_ns) / 1e9;
	return 0;
}

size_t watch_nr_fields(const struct watch *w)
{
	return w->nr_fields;
}

const struct watch_field *watch_field(const struct watch *w, size_t i)
{
	return &w->fields[i].pub;
}

const struct watch_summary *watch_summary(const struct watch *w)
{
	return &w->sum;
}

static void free_results(struct watch *w)
{
	size_t i, j;

	for (i = 0; i < w->nr_fields; i++) {
		struct watch_field_int *f = &w->fields[i];

		for (j = 0; j < f->pub.nr_sites; j++) {
			free((char *)f->sites[j].symbol);
			free((char *)f->sites[j].srcline);
		}
		free(f->sites);
		free(f->name);
		free((char *)f->pub.type_name);
	}
	for (i = 0; i < w->sum.nr_lines; i++)
		free((void *)w->lines[i].pairs);
	free(w->lines);
}

void watch_close(struct watch *w)
{
	if (!w)
		return;
	if (w->rings)
		watch_disarm(w);
	if (w->started && w->stopped) {
		kill(w->pid, SIGKILL);
		watch_target_release(w);
	}
	end_target(w);
	free_results(w);
	free(w->fields);
	free(w->maps);
	free(w->comms);
	strpool_release(&w->strings);
	free(w->forks);
	free(w->acc);
	hashmap_release(&w->ids);
	watch_libs_free(w);
	attrib_close(w->attrib);
	type_db_free(w->types);
	sym_resolver_free(w->syms);
	addr_spaces_free(w->as);
	free(w->exe);
	free(w);
}
