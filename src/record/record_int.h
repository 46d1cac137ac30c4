/* SPDX-License-Identifier: GPL-2.0 */
/* The recorder's internals: sysfs PMUs, libpfm4, event lists. */
#ifndef C2C_RECORD_RECORD_INT_H
#define C2C_RECORD_RECORD_INT_H

#include "record/record.h"

/* One format/ file: "config1:0-15" or "config:0-7,32-35". */
struct record_pmu_format {
	char *name;
	int word; /* 0 config, 1 config1, 2 config2, 3 config3 */
	int nr_ranges;
	uint8_t lo[8], hi[8];
};

struct record_pmu {
	char *name;
	uint32_t type;
	struct record_pmu_format *formats;
	size_t nr_formats;
	char **events; /* events/ aliases (no .scale/.unit files), sorted */
	size_t nr_events;
};

/* Loads a PMU from the sysfs root: -ENOENT when there is no such PMU. */
int record_pmu_load(const char *name, struct record_pmu *pmu, struct err_msg *err);
void record_pmu_release(struct record_pmu *pmu);
bool record_pmu_exists(const char *name);
/* The PMU names under the sysfs root, sorted; NULL-terminated, free with record_pmu_names_free. */
char **record_pmu_names(size_t *nr);
void record_pmu_names_free(char **names);
bool record_pmu_has_event(const struct record_pmu *pmu, const char *event);
const struct record_pmu_format *record_pmu_format(const struct record_pmu *pmu, const char *name);
/* events/NAME's terms ("event=0xcd,umask=0x1,ldlat=3") into terms. */
int record_pmu_alias_terms(const struct record_pmu *pmu, const char *event, struct strbuf *terms,
			   struct err_msg *err);
/* Scatters value into the format's bits of attr; -ERANGE when it does not fit. */
int record_pmu_format_apply(const struct record_pmu_format *f, struct perf_event_attr *attr,
			    uint64_t value);
/* "event, umask, ldlat, ... (format/); mem-loads, mem-stores (events/)" */
void record_pmu_accepted_terms(const struct record_pmu *pmu, struct strbuf *out);
/* A whole file into out: 0 or -errno. */
int record_read_file(const char *path, struct strbuf *out);
/* A file under the sysfs root, trailing newline removed: -errno when unreadable. */
int record_sysfs_read(const char *rel, struct strbuf *out);

/* libpfm4: 0, -ENOENT (unknown name), -ENOSYS (built without it). */
int record_pfm_encode(const char *name, struct perf_event_attr *attr, struct strbuf *fstr,
		      struct err_msg *err);
/* The libpfm4 name of the machine's (or LIBPFM_FORCE_PMU's) core PMU, or NULL. */
const char *record_pfm_core_pmu(void);

/*
 * The tracefs events/SYS/NAME/id: 0, -ENOENT when there is no such
 * tracepoint (err untouched), other -errno with err filled.
 */
int record_tracepoint_id(const char *sys, const char *name, uint64_t *id, struct err_msg *err);
/* The tracefs root in use ("/sys/kernel/tracing"), or NULL when none is mounted. */
const char *record_tracefs_root(void);

/* perf's TRACING_DATA blob for the tracepoints among ev (libtraceevent checks each format). */
int record_tracing_data_build(const struct record_event *ev, size_t nr, struct strbuf *out,
			      struct err_msg *err);

/* Appends an event and returns it (zeroed attr of the right size, leader -1). */
struct record_event *record_evlist_new(struct record_evlist *l, const char *name, const char *pmu);
/* Frees what an event owns: its name and PMU name. */
void record_event_release(struct record_event *e);
/* Drops the events from index nr on. */
void record_evlist_truncate(struct record_evlist *l, size_t nr);

#endif
