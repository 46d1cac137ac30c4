// SPDX-License-Identifier: GPL-2.0
/*
 * The placement model, built in one pass over a recording: sched_switch
 * says which thread a cpu switched to and when (so each thread's cpus,
 * nodes, switch-ins and run time), sched_migrate_task which thread moved,
 * memory samples which lines each thread touched.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBTRACEEVENT
#include <traceevent/event-parse.h>
#endif

#include "perf/mem_src.h"
#include "perf/perf_data.h"
#include "placement/placement_int.h"
#include "util/bitmap.h"
#include "util/xalloc.h"

struct thread_model *task_placement_thread_of(struct task_placement *p, uint32_t pid, uint32_t tid)
{
	uintptr_t at = (uintptr_t)hashmap_get(&p->by_tid, tid);
	struct thread_model *t;

	if (at) {
		t = &p->threads[at - 1];
		if (pid && !t->pub.pid)
			t->pub.pid = pid;
		return t;
	}
	p->threads = xgrow(p->threads, &p->alloc_threads, p->nr_threads + 1, sizeof(*p->threads));
	t = &p->threads[p->nr_threads++];
	memset(t, 0, sizeof(*t));
	t->pub.pid = pid;
	t->pub.tid = tid;
	hashmap_init(&t->lines);
	hashmap_put(&p->by_tid, tid, (void *)(uintptr_t)p->nr_threads);
	return t;
}

static void set_comm(struct thread_model *t, const char *comm, size_t max)
{
	free(t->comm);
	t->comm = xstrndup(comm, strnlen(comm, max));
}

/* The thread ran on cpu: its cpu and node bits. */
static void ran_on(struct task_placement *p, struct thread_model *t, uint32_t cpu)
{
	bitmap_set_grow(&t->cpus, &t->cpu_words, cpu);
	if (cpu < p->nr_cpus && p->cpus[cpu].node >= 0)
		bitmap_set_grow(&t->nodes, &t->node_words, (uint32_t)p->cpus[cpu].node);
}

void task_placement_grow_cpus(struct task_placement *p, uint32_t cpu)
{
	uint32_t n = p->nr_cpus, i;

	if (cpu < n)
		return;
	p->nr_cpus = cpu + 1;
	p->cpus = xrealloc(p->cpus, p->nr_cpus * sizeof(*p->cpus));
	for (i = n; i < p->nr_cpus; i++)
		p->cpus[i] = (struct cpu_state){ .node = -1 };
}

void task_placement_on_memory(struct task_placement *p, const struct perf_sample *s)
{
	struct thread_model *t;
	struct task_placement_line *l;
	uint64_t line = s->addr & ~(uint64_t)(p->line_size - 1);

	if (!s->tid)
		return;
	t = task_placement_thread_of(p, s->pid, s->tid);
	task_placement_grow_cpus(p, s->cpu);
	ran_on(p, t, s->cpu);
	l = hashmap_get(&t->lines, line);
	if (!l) {
		l = xcalloc(1, sizeof(*l));
		l->line = line;
		hashmap_put(&t->lines, line, l);
	}
	l->samples++;
	if (mem_src_is_hitm(s->data_src, p->rules))
		l->hitms++;
}

#ifdef HAVE_LIBTRACEEVENT
static bool field_u64(struct tep_event *ev, const struct perf_sample *s, const char *name,
		      unsigned long long *v)
{
	struct tep_record rec = { .data = (void *)s->raw, .size = (int)s->raw_size };

	return !tep_get_field_val(NULL, ev, name, &rec, v, 0);
}

/* The thread's comm from a char[16] (or __data_loc) field, unless it has one. */
static void comm_from_field(struct thread_model *t, struct tep_event *ev,
			    const struct perf_sample *s, const char *name)
{
	struct tep_record rec = { .data = (void *)s->raw, .size = (int)s->raw_size };
	int len = 0;
	const char *comm = t->comm ? NULL : tep_get_field_raw(NULL, ev, name, &rec, &len, 0);

	if (comm && len > 0)
		set_comm(t, comm, (size_t)len);
}

void task_placement_on_switch(struct task_placement *p, struct tep_event *ev,
			      const struct perf_sample *s)
{
	unsigned long long prev, next;
	struct thread_model *t;
	struct cpu_state *c;

	if (!field_u64(ev, s, "prev_pid", &prev) || !field_u64(ev, s, "next_pid", &next))
		return;
	p->nr_switch++;
	task_placement_grow_cpus(p, s->cpu);
	c = &p->cpus[s->cpu];
	if (prev && c->cur_tid == prev && s->time >= c->cur_since)
		task_placement_thread_of(p, 0, (uint32_t)prev)->pub.run_ns +=
			s->time - c->cur_since;
	c->cur_tid = (uint32_t)next;
	c->cur_since = s->time;
	if (!next)
		return; /* the idle task */
	t = task_placement_thread_of(p, 0, (uint32_t)next);
	t->pub.switches_in++;
	ran_on(p, t, s->cpu);
	comm_from_field(t, ev, s, "next_comm");
}

void task_placement_on_migrate(struct task_placement *p, struct tep_event *ev,
			       const struct perf_sample *s)
{
	unsigned long long pid, dest;
	struct thread_model *t;

	if (!field_u64(ev, s, "pid", &pid) || !field_u64(ev, s, "dest_cpu", &dest) || !pid)
		return;
	p->nr_migrate++;
	t = task_placement_thread_of(p, 0, (uint32_t)pid);
	t->pub.migrations++;
	task_placement_grow_cpus(p, (uint32_t)dest);
	ran_on(p, t, (uint32_t)dest);
	comm_from_field(t, ev, s, "comm");
}
#endif

void task_placement_on_comm(struct task_placement *p, const struct perf_comm *c)
{
	if (c->tid)
		set_comm(task_placement_thread_of(p, c->pid, c->tid), c->comm, 16);
}

/*
 * A new thread has its parent's comm until it sets its own, as perf's
 * thread model says: one whose first switch-in was not recorded (a lost
 * tracepoint sample) still has a name.
 */
void task_placement_on_fork(struct task_placement *p, const struct perf_task *f)
{
	struct thread_model *child = task_placement_thread_of(p, f->pid, f->tid);
	uintptr_t at = (uintptr_t)hashmap_get(&p->by_tid, f->ptid);

	if (!child->comm && at && p->threads[at - 1].comm && f->ptid != f->tid)
		child->comm = xstrdup(p->threads[at - 1].comm);
}

static int cmp_line(const void *a, const void *b)
{
	const struct task_placement_line *x = *(const struct task_placement_line *const *)a;
	const struct task_placement_line *y = *(const struct task_placement_line *const *)b;

	if (x->hitms != y->hitms)
		return x->hitms > y->hitms ? -1 : 1;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* The top lines of t into pub.lines, hottest first; frees the per-line counts. */
static void finish_lines(struct thread_model *t)
{
	struct task_placement_line **all = xcalloc(t->lines.nr + 1, sizeof(*all));
	size_t iter = 0, n = 0, i;
	uint64_t key;
	void *val;

	while (hashmap_next(&t->lines, &iter, &key, &val))
		all[n++] = val;
	qsort(all, n, sizeof(*all), cmp_line);
	for (i = 0; i < n && i < TASK_PLACEMENT_TOP_LINES; i++)
		t->pub.lines[i] = *all[i];
	t->pub.nr_lines = i;
	for (i = 0; i < n; i++)
		free(all[i]);
	free(all);
	hashmap_release(&t->lines);
}

static const struct task_placement *sort_ctx;

static int cmp_tid(const void *a, const void *b)
{
	uint32_t x = sort_ctx->threads[*(const size_t *)a].pub.tid;
	uint32_t y = sort_ctx->threads[*(const size_t *)b].pub.tid;

	return x < y ? -1 : x > y;
}

void task_placement_finish(struct task_placement *p)
{
	size_t i;

	p->order = xcalloc(p->nr_threads + 1, sizeof(*p->order));
	for (i = 0; i < p->nr_threads; i++) {
		struct thread_model *t = &p->threads[i];

		finish_lines(t);
		t->pub.comm = t->comm ? t->comm : "";
		t->pub.cpus = t->cpus;
		t->pub.nodes = t->nodes;
		p->order[i] = i;
	}
	sort_ctx = p;
	qsort(p->order, p->nr_threads, sizeof(*p->order), cmp_tid);
	sort_ctx = NULL;
}

size_t task_placement_nr_threads(const struct task_placement *p)
{
	return p->nr_threads;
}

const struct task_placement_thread *task_placement_thread(const struct task_placement *p, size_t i)
{
	return &p->threads[p->order[i]].pub;
}

uint32_t task_placement_nr_cpus(const struct task_placement *p)
{
	return p->nr_cpus;
}

uint32_t task_placement_nr_nodes(const struct task_placement *p)
{
	return p->nr_nodes;
}

void task_placement_free(struct task_placement *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nr_threads; i++) {
		size_t iter = 0;
		uint64_t key;
		void *val;

		while (hashmap_next(&p->threads[i].lines, &iter, &key, &val))
			free(val); /* not finished: the counts are still there */
		hashmap_release(&p->threads[i].lines);
		free(p->threads[i].comm);
		free(p->threads[i].cpus);
		free(p->threads[i].nodes);
	}
#ifdef HAVE_LIBTRACEEVENT
	if (p->tep)
		tep_free(p->tep);
#endif
	hashmap_release(&p->by_tid);
	free(p->threads);
	free(p->order);
	free(p->cpus);
	free(p);
}
