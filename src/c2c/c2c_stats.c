// SPDX-License-Identifier: GPL-2.0
/* perf's totals over its counters (perf/mem_src.c counts them). */
#include "c2c/c2c_stats.h"

void c2c_stats_add(struct c2c_stats *dst, const struct c2c_stats *add)
{
	uint32_t *d = (uint32_t *)dst;
	const uint32_t *a = (const uint32_t *)add;
	unsigned int i;

	/* Every member is a uint32_t counter: add them all. */
	for (i = 0; i < sizeof(*dst) / sizeof(uint32_t); i++)
		d[i] += a[i];
}

uint64_t c2c_llc_misses(const struct c2c_stats *st)
{
	return (uint64_t)st->lcl_dram + st->rmt_dram + st->rmt_hitm + st->rmt_hit;
}

uint64_t c2c_writes(const struct c2c_stats *st)
{
	return (uint64_t)st->store + st->lock_loads;
}

uint64_t c2c_cache_hits(const struct c2c_stats *st)
{
	return (uint64_t)st->ld_fbhit + st->ld_l1hit + st->ld_l2hit + st->ld_llchit + st->lcl_hitm;
}

uint64_t c2c_stores(const struct c2c_stats *st)
{
	return (uint64_t)st->st_l1hit + st->st_l1miss + st->st_na;
}

uint64_t c2c_total_records(const struct c2c_stats *st)
{
	return c2c_llc_misses(st) + c2c_cache_hits(st) + c2c_stores(st);
}

uint64_t c2c_total_loads(const struct c2c_stats *st)
{
	return c2c_llc_misses(st) + c2c_cache_hits(st);
}

int c2c_bucket_of(const struct c2c_stats *one)
{
	if (one->rmt_hitm)
		return C2C_BUCKET_RMT_HITM;
	if (one->lcl_hitm)
		return C2C_BUCKET_LCL_HITM;
	if (one->rmt_peer)
		return C2C_BUCKET_RMT_PEER;
	if (one->lcl_peer)
		return C2C_BUCKET_LCL_PEER;
	if (one->load)
		return C2C_BUCKET_LOAD;
	return -1;
}
