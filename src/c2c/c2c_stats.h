/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf's totals over the counters of struct c2c_stats (which perf/mem_src.h
 * defines and fills, as perf's util/mem-events does), and c2cscope's own
 * reading of them: writes, the cycles buckets.
 */
#ifndef C2C_C2C_STATS_H
#define C2C_C2C_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "perf/mem_src.h"

void c2c_stats_add(struct c2c_stats *dst, const struct c2c_stats *add);

/* Derived totals, as perf computes them. */
uint64_t c2c_llc_misses(const struct c2c_stats *st); /* lcl+rmt dram, rmt hitm, rmt hit */
uint64_t c2c_cache_hits(const struct c2c_stats *st); /* fb, l1, l2, llc, lcl hitm */
uint64_t c2c_stores(const struct c2c_stats *st); /* st l1hit + l1miss + na */
uint64_t c2c_total_records(const struct c2c_stats *st);
uint64_t c2c_total_loads(const struct c2c_stats *st);
/*
 * The writes c2cscope's own views count (report --by-type's writers and
 * "writes", layout --profile's and suggest's "st"): every store sample,
 * and every locked RMW sampled as its load (a LOCKED load; a LOCKED store
 * is a store already). perf's tables keep perf's store and lock counts.
 */
uint64_t c2c_writes(const struct c2c_stats *st);

/*
 * Which cycles bucket a classified load falls in (each load in exactly
 * one, in perf's order), or -1 for none (a store or unparsable sample).
 */
enum c2c_bucket {
	C2C_BUCKET_RMT_HITM,
	C2C_BUCKET_LCL_HITM,
	C2C_BUCKET_RMT_PEER,
	C2C_BUCKET_LCL_PEER,
	C2C_BUCKET_LOAD,
	C2C_NR_BUCKETS,
};
int c2c_bucket_of(const struct c2c_stats *one);

#endif
