/* SPDX-License-Identifier: GPL-2.0 */
/* Inside src/watch: the session, its rings and the accesses they gave. */
#ifndef C2C_WATCH_WATCH_INT_H
#define C2C_WATCH_WATCH_INT_H

#include <sys/types.h>

#include "attrib/attrib.h"
#include "perf/perf_data.h"
#include "symbols/addr_space.h"
#include "symbols/resolve.h"
#include "types/types.h"
#include "util/hashmap.h"
#include "util/strpool.h"
#include "watch/watch.h"

/* What every hit's sample carries, in the ring and in --record's perf.data. */
#define WATCH_SAMPLE_TYPE \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU)

/* One hit as its sample told it. */
struct watch_access {
	uint64_t time, ip;
	uint32_t pid, tid, cpu;
	uint16_t field;
	uint8_t access; /* enum attrib_access, after decoding */
	uint8_t kernel; /* the ip is kernel code */
	uint8_t code; /* the replay's verdict, a mem_src code (class, store, locked) */
	uint64_t site_ip; /* the instruction's start (ip when undecoded) */
};

/* One perf event: a breakpoint of one field on one thread (or cpu). */
struct watch_ring {
	int fd;
	size_t field;
	int cpu;
	struct perf_ring ring; /* mapped (ring.base) by the first event on its cpu */
	bool sideband; /* the dummy event of mmap, comm and task records */
};

struct watch_field_int {
	struct watch_field pub;
	char *name;
	struct watch_site *sites;
};

/* A shared library of the target (libs.c). */
struct watch_lib {
	char *path;
	struct type_db *types;
	struct attrib *attrib; /* NULL: no DWARF, or not mapped */
	uint64_t bias;
};

struct watch {
	struct watch_opts opts;
	pid_t pid;
	bool started; /* we forked it: it is ours to wait for */
	bool stopped; /* held at exec by ptrace until armed */
	char *exe; /* the target's executable */
	uint64_t bias; /* runtime - binary-relative address of exe */
	struct type_db *types; /* of exe, or the kernel's BTF */
	struct attrib *attrib; /* of exe; NULL for kernel-only fields */
	struct watch_lib *libs;
	size_t nr_libs, alloc_libs;
	bool at_entry; /* a started target was run to its entry point */

	struct watch_field_int *fields;
	size_t nr_fields, alloc_fields;

	struct watch_ring *rings; /* every event; those with ring.base own one */
	size_t nr_rings, alloc_rings;
	struct hashmap ids; /* event id -> field + 1 */
	bool no_fmt_lost; /* the kernel (< 6.0) refused PERF_FORMAT_LOST */
	uint64_t lost_records; /* the sum of PERF_RECORD_LOST */

	struct watch_access *acc;
	size_t nr_acc, alloc_acc;
	struct perf_mmap *maps; /* filename in strings */
	size_t nr_maps, alloc_maps;
	struct perf_comm *comms; /* comm in strings */
	size_t nr_comms, alloc_comms;
	struct strpool strings; /* the maps' and comms' names, for w's lifetime */

	struct perf_task *forks; /* new threads and processes, in order */
	size_t nr_forks, alloc_forks;

	struct addr_spaces *as;
	struct sym_resolver *syms;
	struct watch_summary sum;
	struct watch_line *lines;
	uint64_t start_ns, end_ns;
};

/* field.c */
int watch_resolve(struct watch *w, const char *spec, struct watch_field *f, char **name,
		  struct err_msg *err);
void watch_bp_window(uint64_t addr, uint64_t size, uint64_t *bp_addr, uint32_t *bp_len,
		     bool *partial);

/* libs.c */
struct watch_lib *watch_lib_get(struct watch *w, const char *path);
const struct watch_lib *watch_lib_find_global(struct watch *w, const char *var,
					      struct attrib_global *g);
void watch_libs_free(struct watch *w);

/* target.c */
int watch_target_to_entry(struct watch *w, struct err_msg *err);
int watch_target_start(struct watch *w, struct err_msg *err);
int watch_target_maps(struct watch *w, struct err_msg *err);
void watch_target_release(struct watch *w);
bool watch_target_alive(struct watch *w);
void watch_add_map(struct watch *w, const struct perf_mmap *m);
void watch_add_comm(struct watch *w, uint32_t pid, uint32_t tid, const char *comm);

/* ring.c */
int watch_arm(struct watch *w, struct err_msg *err);
int watch_drain(struct watch *w);
void watch_disarm(struct watch *w);
int watch_calibrate(double *ns_per_hit);

/* replay.c */
void watch_replay(struct watch *w);

/* wrecord.c */
int watch_write_record(struct watch *w, struct err_msg *err);

#endif
