/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PMU recorder: events named the way perf record -e names them (sysfs
 * PMUs with their event aliases and format/ bit fields, generic hardware
 * and software names, tracepoints, breakpoints, libpfm4 names), the
 * per-vendor memory-sampling defaults perf c2c uses, and a session that
 * opens them with perf_event_open, drains their ring buffers and writes
 * perf.data through the perf writer, with the metadata of processes that
 * already exist synthesized from /proc.
 *
 * PMU discovery reads $C2CSCOPE_SYSFS_ROOT (a fake
 * /sys/bus/event_source/devices tree, for tests) when it is set.
 * Functions return 0 or -errno and fill struct err_msg; nothing prints.
 */
#ifndef C2C_RECORD_RECORD_H
#define C2C_RECORD_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "util/err.h"
#include "util/strbuf.h"

enum record_event_flags {
	RECORD_EV_MEMORY = 1 << 0, /* samples data addresses with a data source */
	RECORD_EV_CPU_WIDE = 1 << 1, /* cannot follow a task (AMD IBS): per cpu only */
	RECORD_EV_AUX = 1 << 2, /* samples arrive in an AUX area (Arm SPE) */
	RECORD_EV_TRACEPOINT = 1 << 3,
	RECORD_EV_MAX_PRECISE = 1 << 4, /* P: the highest precise_ip the event takes */
};

struct record_event {
	char *name; /* as perf would print it */
	char *pmu; /* sysfs PMU name ("cpu", "ibs_op", "software", ...) */
	struct perf_event_attr attr;
	int leader; /* index of its group leader in the list, -1 when none */
	unsigned int flags; /* enum record_event_flags */
};

struct record_evlist {
	struct record_event *ev;
	size_t nr, alloc;
};

/* "/sys/bus/event_source/devices" or $C2CSCOPE_SYSFS_ROOT. */
const char *record_sysfs_root(void);

/*
 * Adds the events of one -e argument (a comma-separated list, groups in
 * braces). A bad term names itself and lists what the PMU's format/ and
 * events/ accept.
 */
int record_evlist_parse(struct record_evlist *l, const char *spec, struct err_msg *err);

/*
 * The perf c2c defaults of this machine: Intel mem-loads (ldlat) and
 * mem-stores from the sysfs aliases, in a group led by mem-loads-aux where
 * the PMU has one, else from libpfm4; AMD ibs_op; Arm SPE. notes gets one
 * line per choice made; -ENODEV with a message naming what exists when the
 * machine has no memory-sampling PMU.
 */
int record_evlist_add_defaults(struct record_evlist *l, unsigned int ldlat, struct strbuf *notes,
			       struct err_msg *err);

struct record_sampling {
	uint64_t freq; /* -F (0: not given) */
	uint64_t period; /* -c (0: not given) */
	bool user_only, kernel_only; /* -u, -k */
	bool no_phys_addr; /* leave PHYS_ADDR out */
};

/* Sampling settings, sample_type and flags for every event (call once). */
void record_evlist_configure(struct record_evlist *l, const struct record_sampling *s);

/* perf -vv style: one "NAME: type=.. config=.. ..." line per event, groups. */
void record_evlist_describe(const struct record_evlist *l, struct strbuf *out);
/* "IP|TID|TIME|..." */
void record_sample_type_str(uint64_t sample_type, struct strbuf *out);
void record_evlist_release(struct record_evlist *l);

/* --list: the PMUs, the memory-sampling events and why a default is missing. */
int record_list(struct strbuf *out, struct err_msg *err);

/* --- Recording -------------------------------------------------------- */

struct record_target {
	bool system_wide; /* -a (also implied by -C) */
	const char *cpus; /* -C list, or NULL: all online */
	const char *pids; /* -p list */
	const char *tids; /* -t list */
	char *const *argv; /* -- CMD: started once the counters are armed */
};

struct record_opts {
	const char *path;
	const char *const *cmdline; /* CMDLINE feature */
	struct record_target target;
	unsigned int mmap_pages; /* data pages per ring buffer (power of 2; 0: default) */
	struct progress *progress; /* samples written so far, or NULL */
};

struct record_stats {
	uint64_t samples; /* written */
	uint64_t lost; /* from LOST records */
	uint64_t lost_samples; /* from LOST_SAMPLES records */
	uint64_t throttles, unthrottles;
	uint64_t filtered; /* samples of other tasks dropped (cpu-wide events) */
	uint64_t mmaps, comms, tasks;
	uint64_t bytes; /* ring-buffer bytes read */
	bool child_started, child_exited;
	int wait_status; /* of the -- CMD child */
	const char *note; /* a line to show (e.g. IBS records system-wide) or NULL */
	/*
	 * cut: EFBIG or ENOSPC when the output filled up; then close returns
	 * that -errno, err says what was kept, and the file holds the first
	 * kept_samples samples.
	 */
	int cut;
	uint64_t kept_samples;
};

struct progress;
struct record_session;

/*
 * Opens the counters (the -- CMD child is forked and held before exec),
 * maps the ring buffers, creates the output and writes the metadata of the
 * target's existing tasks. Nothing is left behind on failure.
 */
int record_session_open(const struct record_evlist *l, const struct record_opts *o,
			struct record_session **out, struct err_msg *err);
/*
 * Starts the child (enable_on_exec) or enables the counters, then drains
 * the ring buffers until the child exits or *stop becomes non-zero.
 */
int record_session_run(struct record_session *s, volatile sig_atomic_t *stop, struct err_msg *err);
/*
 * Finishes the file and frees s; st gets the counts (may be NULL). After a
 * full disk or file size limit the file is cut back, kept, and st->cut set.
 */
int record_session_close(struct record_session *s, struct record_stats *st, struct err_msg *err);
/*
 * perf_event_open(2), close-on-exec: the one wrapper of the syscall, for
 * the recorder's counters and watch's breakpoints. The fd or -1 (errno).
 */
long record_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd,
		       unsigned long flags);

/* Kills a child not yet started, removes the output, frees s. */
void record_session_abort(struct record_session *s);

/*
 * One /proc/PID/maps line into m (start, len, pgoff, device, inode, prot,
 * flags, filename: "//anon" when none, else pointing into line, whose
 * newline is cut): the one reader of that format, for record's and
 * watch's synthesized mappings. pid, tid and cpumode are left as they
 * were. False when the line is not one.
 */
struct perf_mmap;
bool record_maps_line(char *line, struct perf_mmap *m);

#endif
