/* SPDX-License-Identifier: GPL-2.0 */
/*
 * watch: exact access traces of named fields from hardware breakpoints
 * (PERF_TYPE_BREAKPOINT), where no memory-sampling PMU exists.
 *
 *	watch_open(&opts, &w, &err);          start CMD stopped at exec, or attach
 *	watch_add_field(w, "counters.a", &err) ...   resolve, one breakpoint each
 *	watch_run(w, &stop, &err);            arm, let the target run, read rings
 *	watch_analyze(w, &err);               reads/writes, sites, MESI replay
 *	... read w's results (watch_nr_fields, watch_field, watch_summary) ...
 *	watch_close(w);
 *
 * One breakpoint per field (x86-64 has 4 debug registers per thread),
 * inherited by the threads the target creates. Every hit is a sample
 * (sample_period 1) with ip, tid, time, cpu and the breakpoint's address.
 * x86 traps after the access: the instruction that ends at the sample's ip
 * is decoded (capstone, src/attrib) to tell a read from a write.
 */
#ifndef C2C_WATCH_WATCH_H
#define C2C_WATCH_WATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

#define WATCH_X86_64_DEBUG_REGS 4

struct watch_opts {
	const char *const *argv; /* -- CMD ARGS (NULL-terminated) or NULL */
	int pid; /* -p PID when argv is NULL */
	double duration; /* seconds; 0: until the target exits or stop is set */
	bool all; /* user and kernel accesses (default user only) */
	bool kernel; /* the fields are kernel addresses: per-cpu events, no target */
	bool write_only; /* W breakpoints (default RW) */
	size_t ring_pages; /* data pages per ring (power of two; 0: 512) */
	const char *record; /* write the accesses to this perf.data, or NULL */
	const char *const *record_argv; /* the command line for the perf.data header */
	struct progress *progress; /* hits so far, drawn on a terminal; may be NULL */
};

struct watch;
struct progress;

struct watch_site {
	uint64_t ip; /* the accessing instruction (runtime address) */
	const char *symbol; /* function, or NULL */
	const char *srcline; /* "file.c:12", or perf's fallback text */
	uint64_t reads, writes, unknown; /* unknown: not decoded (kernel code) */
};

struct watch_field {
	const char *name; /* as given: "counters.a", "struct pair.b@0x...", "0x.../8" */
	const char *type_name; /* C type of the field ("long"), or NULL */
	uint64_t addr, size; /* runtime address and size of the field */
	uint64_t bp_addr; /* the breakpoint: aligned, bp_len 1/2/4/8 */
	uint32_t bp_len;
	bool partial; /* the field is larger than the breakpoint covers */
	/* results */
	uint64_t count; /* the counter's value: every hit, even lost samples */
	uint64_t lost; /* samples the kernel could not write (PERF_FORMAT_LOST) */
	uint64_t samples, reads, writes, rmw, unknown; /* rmw counts in writes too */
	uint32_t nr_threads, nr_cpus;
	size_t nr_sites;
	const struct watch_site *sites; /* by hits, most first */
};

struct watch_pair {
	size_t field, writer; /* the field accessed, the field whose write it met */
	uint64_t hitm;
};

struct watch_line {
	uint64_t addr; /* cache line start */
	uint64_t accesses, replayed_hitm;
	size_t nr_pairs;
	const struct watch_pair *pairs; /* most first */
};

struct watch_summary {
	int pid;
	const char *method; /* how reads were told from writes */
	double seconds; /* watched for */
	uint64_t hits, samples, lost;
	bool lost_exact; /* lost: the events' own counts, else the LOST records' sum */
	uint64_t throttles; /* PERF_RECORD_THROTTLE records: the kernel stopped sampling */
	uint64_t unsampled; /* hits - samples - lost: counted, neither sampled nor lost */
	double rate; /* hits per second */
	double cost_ns; /* measured cost of one hit on this machine, this run */
	double overhead_s; /* hits x cost */
	uint64_t replayed_hitm;
	size_t nr_lines;
	const struct watch_line *lines;
	bool exited; /* the target exited (CMD: exit_status is its wait status) */
	int exit_status;
	/*
	 * --record filled the disk or the file size limit (EFBIG, ENOSPC):
	 * watch_analyze returned that -errno with err saying what was kept;
	 * the file holds the first record_kept samples and is readable.
	 */
	int record_cut;
	uint64_t record_kept;
};

int watch_open(const struct watch_opts *opts, struct watch **out, struct err_msg *err);
/*
 * Resolve one FIELD: var.field[.sub], var[3].field (a global or static of
 * the target's executable), TYPE.field@ADDR, ADDR/LEN; with opts->kernel
 * TYPE.field@ADDR from BTF or SYMBOL[/LEN] from /proc/kallsyms. -ENOENT
 * with a did-you-mean in err when the name is unknown, -ENOSPC past the
 * debug registers.
 */
int watch_add_field(struct watch *w, const char *spec, struct err_msg *err);
/*
 * Arm the breakpoints, let the target run, collect until it exits, the
 * duration ends or *stop becomes non-zero; then disarm (detach). A target
 * started by watch_open is killed when arming fails.
 */
int watch_run(struct watch *w, volatile sig_atomic_t *stop, struct err_msg *err);
int watch_analyze(struct watch *w, struct err_msg *err);

size_t watch_nr_fields(const struct watch *w);
const struct watch_field *watch_field(const struct watch *w, size_t i);
const struct watch_summary *watch_summary(const struct watch *w);
void watch_close(struct watch *w);

/* The number of debug registers of this machine for data breakpoints. */
unsigned int watch_debug_registers(void);

#endif
