/* SPDX-License-Identifier: GPL-2.0 */
/* The recording session's insides, shared by its files. */
#ifndef C2C_RECORD_SESSION_INT_H
#define C2C_RECORD_SESSION_INT_H

#include <sys/types.h>

#include "perf/perf_data.h"
#include "record/record_int.h"
#include "util/hashmap.h"

struct ring {
	struct perf_ring ring;
	int fd;
};

struct counter {
	int fd;
	uint64_t id;
	uint32_t event; /* index into the session's events */
	int output_fd; /* the ring owner it writes to once that is mapped; -1: owns one */
};

struct record_session {
	struct record_event *events; /* copies, attrs as opened */
	size_t nr_events;
	struct counter *counters;
	size_t nr_counters, alloc_counters;
	struct ring *rings;
	size_t nr_rings, alloc_rings;
	int *cpus; /* -1 alone: per task */
	size_t nr_cpus;
	pid_t *tasks; /* -1 alone: every task (system-wide) */
	size_t nr_tasks;
	bool per_task, inherit;
	pid_t child; /* -- CMD, held before exec until go_fd is written */
	const char *child_name;
	int go_fd, exec_err_fd;
	/* cpu-wide events following a task: the pids whose samples are kept */
	bool filter;
	struct hashmap keep_pids;
	struct perf_writer *w;
	char *path;
	const char *const *cmdline;
	struct record_stats st;
	struct hashmap ids; /* kernel event id -> event index + 1 */
	struct hashmap dsos; /* hash of mmap file names seen -> name, for build ids */
	unsigned int mmap_pages;
	struct progress *progress;
	struct strbuf tracing_data; /* TRACING_DATA feature; empty without tracepoints */
};

/* topology.c: the host's NUMA nodes and perf's CPU_TOPOLOGY section */
struct host_topology {
	struct perf_numa_node *nodes; /* none: no node folder, the writer's default */
	size_t nr_nodes;
	struct strbuf cpu_topology;
};
void record_host_topology_load(struct host_topology *t);
void record_host_topology_release(struct host_topology *t);
void record_host_cpu_topology(struct strbuf *sb);

/* target.c */
int record_session_targets(struct record_session *s, const struct record_opts *o,
			   struct err_msg *err);
int record_session_fork_child(struct record_session *s, char *const *argv, struct err_msg *err);
int record_session_start_child(struct record_session *s, struct err_msg *err);
void record_session_kill_child(struct record_session *s);

/* open.c */
int record_session_open_counters(struct record_session *s, struct err_msg *err);
void record_session_close_counters(struct record_session *s);
int record_session_enable(struct record_session *s, struct err_msg *err);
void record_session_disable(struct record_session *s);

/* ring.c */
int record_session_map_rings(struct record_session *s, struct err_msg *err);
void record_session_unmap_rings(struct record_session *s);
/* Drains every ring once; returns the bytes read or -errno. */
ssize_t record_session_drain(struct record_session *s, struct err_msg *err);
int record_session_event_of_id(const struct record_session *s, uint64_t id);

/* synth.c */
int record_session_synthesize(struct record_session *s, struct err_msg *err);
void record_session_note_dso(struct record_session *s, const char *filename);
void record_session_write_build_ids(struct record_session *s);

#endif
