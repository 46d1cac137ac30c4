/* SPDX-License-Identifier: GPL-2.0 */
/* Task placement internals. */
#ifndef C2C_PLACEMENT_PLACEMENT_INT_H
#define C2C_PLACEMENT_PLACEMENT_INT_H

#include "placement/placement.h"
#include "util/hashmap.h"

struct tep_handle;

struct thread_model {
	struct task_placement_thread pub;
	char *comm;
	uint64_t *cpus, *nodes;
	size_t cpu_words, node_words;
	struct hashmap lines; /* line -> struct task_placement_line * */
};

/* What the model knows of one cpu. */
struct cpu_state {
	int node; /* -1 unknown */
	uint32_t cur_tid; /* who was switched in last, and when */
	uint64_t cur_since;
};

struct task_placement {
	struct thread_model *threads;
	size_t nr_threads, alloc_threads;
	struct hashmap by_tid; /* tid -> index + 1 */
	size_t *order; /* indexes by tid */
	uint32_t nr_cpus, nr_nodes;
	struct cpu_state *cpus; /* nr_cpus entries */
	uint64_t nr_switch, nr_migrate;
	unsigned int line_size;
	enum mem_src_rules rules; /* what a HITM is: the report's */
	struct tep_handle *tep;
};

/* Parses perf's TRACING_DATA blob into a new tep handle. */
int placement_tracing_blob_parse(const void *blob, size_t size, const char *path,
				 struct tep_handle **out, struct err_msg *err);
/* A thread's model, created on first sight. */
struct thread_model *task_placement_thread_of(struct task_placement *p, uint32_t pid, uint32_t tid);
/* Room for cpu in p->cpus (new cpus: node unknown). */
void task_placement_grow_cpus(struct task_placement *p, uint32_t cpu);

struct perf_sample;
struct perf_comm;
struct perf_task;
struct tep_event;
void task_placement_on_memory(struct task_placement *p, const struct perf_sample *s);
void task_placement_on_switch(struct task_placement *p, struct tep_event *ev,
			      const struct perf_sample *s);
void task_placement_on_migrate(struct task_placement *p, struct tep_event *ev,
			       const struct perf_sample *s);
void task_placement_on_comm(struct task_placement *p, const struct perf_comm *c);
void task_placement_on_fork(struct task_placement *p, const struct perf_task *f);
/* Top lines and the tid order: call once, after the last record. */
void task_placement_finish(struct task_placement *p);

#endif
