// SPDX-License-Identifier: GPL-2.0
/*
 * One pass over a recording for the placement model: which of its events
 * are sched_switch and sched_migrate_task (by EVENT_DESC name), their
 * formats from TRACING_DATA, the cpu -> node map from NUMA_TOPOLOGY.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBTRACEEVENT
#include <traceevent/event-parse.h>
#endif

#include "perf/perf_data.h"
#include "placement/placement_int.h"
#include "util/xalloc.h"

enum { ROLE_NONE, ROLE_SWITCH, ROLE_MIGRATE, ROLE_MEMORY };

static int role_of(const struct perf_attr_info *a)
{
	if (a->type == PERF_TYPE_TRACEPOINT && a->name && !strcmp(a->name, "sched:sched_switch"))
		return ROLE_SWITCH;
	if (a->type == PERF_TYPE_TRACEPOINT && a->name &&
	    !strcmp(a->name, "sched:sched_migrate_task"))
		return ROLE_MIGRATE;
	if (a->type != PERF_TYPE_TRACEPOINT && (a->sample_type & PERF_SAMPLE_ADDR))
		return ROLE_MEMORY;
	return ROLE_NONE;
}

/* "0-3,8" into the cpu -> node map. */
static void map_node(struct task_placement *p, const char *cpus, uint32_t node)
{
	const char *s = cpus;
	char *end;

	while (s && *s) {
		unsigned long lo = strtoul(s, &end, 10), hi = lo, c;

		if (end == s)
			return;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		for (c = lo; c <= hi && c < PERF_MAX_CPUS; c++) {
			task_placement_grow_cpus(p, (uint32_t)c);
			p->cpus[c].node = (int)node;
		}
		s = *end == ',' ? end + 1 : NULL;
	}
}

static struct task_placement *task_placement_new(const struct perf_header_info *h,
						 unsigned int line_size)
{
	struct task_placement *p = xcalloc(1, sizeof(*p));
	size_t i;

	hashmap_init(&p->by_tid);
	p->line_size = line_size ? line_size : 64;
	for (i = 0; i < h->nr_numa_nodes; i++) {
		map_node(p, h->numa_nodes[i].cpus, h->numa_nodes[i].node);
		if (h->numa_nodes[i].node + 1 > p->nr_nodes)
			p->nr_nodes = h->numa_nodes[i].node + 1;
	}
	return p;
}

#ifdef HAVE_LIBTRACEEVENT
static int feed(struct task_placement *p, struct perf_reader *r, const int *roles,
		struct tep_event *const *formats, struct err_msg *err)
{
	struct perf_event_rec ev;
	int ret;

	while ((ret = perf_reader_next(r, &ev, err)) > 0) {
		const struct perf_sample *s = &ev.sample;

		if (ev.kind == PERF_REC_COMM)
			task_placement_on_comm(p, &ev.comm);
		if (ev.kind == PERF_REC_FORK)
			task_placement_on_fork(p, &ev.task);
		if (ev.kind != PERF_REC_SAMPLE || s->attr_index >= perf_reader_nr_attrs(r))
			continue;
		switch (roles[s->attr_index]) {
		case ROLE_SWITCH:
			if (formats[s->attr_index])
				task_placement_on_switch(p, formats[s->attr_index], s);
			break;
		case ROLE_MIGRATE:
			if (formats[s->attr_index])
				task_placement_on_migrate(p, formats[s->attr_index], s);
			break;
		case ROLE_MEMORY:
			if (s->addr)
				task_placement_on_memory(p, s);
			break;
		}
	}
	return ret;
}

static int load_with(struct perf_reader *r, const char *path, int *roles, unsigned int line_size,
		     enum mem_src_rules rules, struct task_placement **out, struct err_msg *err)
{
	const struct perf_header_info *h = perf_reader_header(r);
	size_t i, nr = perf_reader_nr_attrs(r);
	struct tep_event **formats = xcalloc(nr + 1, sizeof(*formats));
	struct task_placement *p = task_placement_new(h, line_size);
	int ret;

	p->rules = rules;
	if (!h->tracing_data_size)
		ret = err_set(err, EINVAL,
			      "%s: sched tracepoints but no TRACING_DATA feature to decode "
			      "them with",
			      path);
	else
		ret = placement_tracing_blob_parse(h->tracing_data, h->tracing_data_size, path,
						   &p->tep, err);
	for (i = 0; i < nr && !ret; i++)
		if (roles[i] == ROLE_SWITCH || roles[i] == ROLE_MIGRATE)
			formats[i] = tep_find_event(p->tep, (int)perf_reader_attr(r, i)->config);
	if (!ret)
		ret = feed(p, r, roles, formats, err);
	free(formats);
	if (ret < 0) {
		task_placement_free(p);
		return ret;
	}
	task_placement_finish(p);
	*out = p;
	return 0;
}
#endif

int task_placement_load(const char *path, unsigned int line_size, enum mem_src_rules rules,
			struct task_placement **out, struct err_msg *err)
{
	struct perf_reader *r;
	size_t i, nr;
	int *roles, ret, sched = 0;

	*out = NULL;
	ret = perf_reader_open(path, &r, err);
	if (ret)
		return ret;
	nr = perf_reader_nr_attrs(r);
	roles = xcalloc(nr + 1, sizeof(*roles));
	for (i = 0; i < nr; i++) {
		roles[i] = role_of(perf_reader_attr(r, i));
		sched |= roles[i] == ROLE_SWITCH || roles[i] == ROLE_MIGRATE;
	}
#ifdef HAVE_LIBTRACEEVENT
	if (sched)
		ret = load_with(r, path, roles, line_size, rules, out, err);
#else
	if (sched)
		ret = placement_tracing_blob_parse(NULL, 0, path, NULL, err);
#endif
	free(roles);
	perf_reader_close(r);
	return ret;
}
