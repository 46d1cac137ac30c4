/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_record: turns the c2csim tool's record stream
 * (plugins/valgrind/c2csim_proto.h) into perf.data through the perf writer:
 * COMM, MMAP2 for every mapping the tool saw, one SAMPLE per simulated
 * sample (mem-loads or mem-stores style event), NRCPUS and NUMA_TOPOLOGY
 * from the virtual topology, CMDLINE, EVENT_DESC, and the heap blocks of
 * the ALLOC and FREE records in c2cscope's PERF_FEAT_C2C_HEAP_BLOCKS.
 *
 * Feed it the stream in any chunks as it arrives; a stream cut short is
 * converted up to its last whole record and still gives a valid file.
 */
#ifndef C2C_SIM_SIM_RECORD_H
#define C2C_SIM_SIM_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "../../plugins/valgrind/c2csim_proto.h"

struct sim_record_opts {
	const char *path; /* perf.data to write */
	const char *const *cmdline; /* CMDLINE feature (NULL-terminated) */
	const char *comm; /* the program's name for COMM records */
	uint64_t max_size; /* bytes: no sample is written past it (0: no limit) */
};

struct sim_record_stats {
	bool have_header;
	bool have_totals; /* the tool ended normally and sent its totals */
	uint64_t totals[C2CSIM_NR_STATS]; /* valid when have_totals */
	uint64_t samples, hitm_samples, store_miss_samples;
	uint64_t mmaps, threads;
	uint64_t stream_bytes;
	uint64_t truncated_bytes; /* a partial record at the end, dropped */
	/*
	 * cut: EFBIG or ENOSPC when the output filled up; then close returns
	 * that -errno, err says what was kept, and the file is readable with
	 * kept_samples of the samples.
	 */
	int cut;
	uint64_t kept_samples;
	uint32_t nr_cpus, nr_nodes, line_size, sample_rate;
	uint32_t hitm_rate; /* thinning at the end: every sample kept 1 in this */
	uint64_t thin_passes; /* times the samples written were thinned */
	uint64_t thinned; /* samples written, then taken out by a thinning */
	uint64_t over_size; /* samples not written: the file had reached max_size */
	/* heap blocks (stream version 4): allocations, frees, frees of no live block */
	uint64_t allocs, frees, heap_unmatched;
};

struct sim_record;

/*
 * The samples (perf.data bytes each, as this converter writes them) that
 * fit a file of max_size with room for everything else: the tool's
 * --sim-max-samples budget. With thinning the file holds between half of
 * it and all of it.
 */
uint64_t sim_record_budget_samples(uint64_t max_size);

int sim_record_open(const struct sim_record_opts *opts, struct sim_record **out,
		    struct err_msg *err);
int sim_record_feed(struct sim_record *r, const void *buf, size_t len, struct err_msg *err);
/*
 * Finishes the file and frees r; st (may be NULL) gets the totals. A full
 * disk or file size limit is not the end: the samples after it are counted
 * and dropped, and close cuts the file back to a readable one (st->cut).
 */
int sim_record_close(struct sim_record *r, struct sim_record_stats *st, struct err_msg *err);
/* Frees r after an error without finishing the file. */
void sim_record_abort(struct sim_record *r);

#endif
