/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task placement: where each thread of a recording ran. From the
 * sched:sched_switch and sched:sched_migrate_task samples of a perf.data
 * (decoded with libtraceevent from the file's TRACING_DATA formats): each
 * thread's comm, the cpus and NUMA nodes it ran on, its migrations, its
 * switches and run time; from the memory samples: the cache lines it
 * touched most (HITMs first, by the report's rules). The report prints it; the TUI and HTML views
 * read the same model through task_placement_thread().
 */
#ifndef C2C_PLACEMENT_PLACEMENT_H
#define C2C_PLACEMENT_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/mem_src.h"
#include "util/err.h"
#include "util/strbuf.h"

#define TASK_PLACEMENT_TOP_LINES 3

struct task_placement_line {
	uint64_t line; /* cache-line address */
	uint64_t samples, hitms;
};

struct task_placement_thread {
	uint32_t pid, tid;
	const char *comm;
	const uint64_t *cpus; /* bitmap of nr_cpus bits */
	const uint64_t *nodes; /* bitmap of nr_nodes bits */
	uint64_t migrations; /* sched_migrate_task events of this thread */
	uint64_t switches_in; /* times it was switched in */
	uint64_t run_ns; /* time between its switch-ins and switch-outs */
	size_t nr_lines; /* of lines[] filled, hottest first */
	struct task_placement_line lines[TASK_PLACEMENT_TOP_LINES];
};

struct task_placement;

/*
 * Reads path: 0 with *out NULL when it has no sched tracepoints, 0 with
 * the model, or -errno (damaged TRACING_DATA, formats libtraceevent
 * cannot read, a build without libtraceevent).
 */
int task_placement_load(const char *path, unsigned int line_size, enum mem_src_rules rules,
			struct task_placement **out, struct err_msg *err);
size_t task_placement_nr_threads(const struct task_placement *p);
/* Threads by tid; valid until task_placement_free(). */
const struct task_placement_thread *task_placement_thread(const struct task_placement *p, size_t i);
uint32_t task_placement_nr_cpus(const struct task_placement *p);
uint32_t task_placement_nr_nodes(const struct task_placement *p);
/* A thread's cpus and nodes as the section writes them: "0-3,8", "-" when none. */
void task_placement_thread_sets(const struct task_placement_thread *pt, struct strbuf *cpus,
				struct strbuf *nodes);
/* The "Task placement" report section: its banner, then the three below. */
void task_placement_render(const struct task_placement *p, struct strbuf *out);
/* "  N sched_switch and M sched_migrate_task samples, T threads\n" */
void task_placement_format_summary(const struct task_placement *p, struct strbuf *out);
/* The column headers, "     Tid      Pid  Command ...\n" */
void task_placement_format_columns(struct strbuf *out);
/* Thread i's row (in task_placement_thread()'s order), "\n"-terminated. */
void task_placement_format_thread(const struct task_placement *p, size_t i, struct strbuf *out);
void task_placement_free(struct task_placement *p);

#endif
