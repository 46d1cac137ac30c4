// SPDX-License-Identifier: GPL-2.0
/* The "Task placement" report section. */
#include "config.h"

#include <string.h>

#include "placement/placement_int.h"
#include "util/bitmap.h"

/* A bitmap as "0-3,8" (or "-" when empty). */
static void put_set(struct strbuf *out, const uint64_t *map, uint32_t nr_bits)
{
	if (!bitmap_ranges(map, nr_bits, out))
		strbuf_addch(out, '-');
}

void task_placement_thread_sets(const struct task_placement_thread *pt, struct strbuf *cpus,
				struct strbuf *nodes)
{
	const struct thread_model *t = (const struct thread_model *)pt; /* pub comes first */

	put_set(cpus, pt->cpus, (uint32_t)(t->cpu_words * 64));
	put_set(nodes, pt->nodes, (uint32_t)(t->node_words * 64));
}

static void put_row(struct strbuf *out, const struct task_placement *p,
		    const struct thread_model *t)
{
	const struct task_placement_thread *pt = &t->pub;
	struct strbuf cpus = STRBUF_INIT, nodes = STRBUF_INIT;
	size_t i;

	task_placement_thread_sets(pt, &cpus, &nodes);
	strbuf_addf(out, "%8u %8u  %-16s %-12s %-6s %10llu %9llu %10.3f  ", pt->tid, pt->pid,
		    pt->comm, cpus.buf, nodes.buf, (unsigned long long)pt->migrations,
		    (unsigned long long)pt->switches_in, (double)pt->run_ns / 1e6);
	for (i = 0; i < pt->nr_lines; i++)
		strbuf_addf(out, "%s0x%llx (%llu/%llu)", i ? ", " : "",
			    (unsigned long long)pt->lines[i].line,
			    (unsigned long long)pt->lines[i].samples,
			    (unsigned long long)pt->lines[i].hitms);
	if (!pt->nr_lines)
		strbuf_addch(out, '-');
	strbuf_addch(out, '\n');
	strbuf_release(&cpus);
	strbuf_release(&nodes);
}

void task_placement_format_summary(const struct task_placement *p, struct strbuf *out)
{
	strbuf_addf(out, "  %llu sched_switch and %llu sched_migrate_task samples, %zu threads\n",
		    (unsigned long long)p->nr_switch, (unsigned long long)p->nr_migrate,
		    p->nr_threads);
}

void task_placement_format_columns(struct strbuf *out)
{
	strbuf_addf(out, "%8s %8s  %-16s %-12s %-6s %10s %9s %10s  %s\n", "Tid", "Pid", "Command",
		    "Cpus", "Nodes", "Migrations", "Switches", "Run ms",
		    "Lines touched most (samples/HITMs)");
}

void task_placement_format_thread(const struct task_placement *p, size_t i, struct strbuf *out)
{
	put_row(out, p, &p->threads[p->order[i]]);
}

void task_placement_render(const struct task_placement *p, struct strbuf *out)
{
	size_t i;

	strbuf_addstr(out, "\n=================================================\n"
			   "                 Task placement\n"
			   "=================================================\n");
	task_placement_format_summary(p, out);
	strbuf_addch(out, '\n');
	task_placement_format_columns(out);
	for (i = 0; i < p->nr_threads; i++)
		task_placement_format_thread(p, i, out);
}
