/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Data sources (PERF_SAMPLE_DATA_SRC, union perf_mem_data_src): the one
 * place that encodes and decodes them, on the kernel's own PERF_MEM_*
 * definitions, and that says what a data source is: a HITM (by perf's
 * rules of the chosen version), a store that missed L1, a write.
 *
 * c2csim (plugins/valgrind, built by Valgrind's rules, without libc)
 * includes this header too: everything it uses is an inline function or a
 * constant here, on fixed-size integers only. mem_src.c holds what only
 * c2cscope needs.
 */
#ifndef PERF_MEM_SRC_H
#define PERF_MEM_SRC_H

#include <linux/perf_event.h> /* PERF_MEM_* */
#include <stdbool.h>
#include <stdint.h>

/*
 * Which perf's rules classify a data source (c2c_stats.h says what each
 * counts):
 * - MEM_SRC_PERF61: perf 6.1 as shipped. Only L3+HITM is a local HITM
 *   (L2+HITM is an L2 hit).
 * - MEM_SRC_MODERN: later perf versions. L2+HITM and lvl_num ANY_CACHE+
 *   HITM (not remote) are local HITMs too; lvl_num stands in for missing
 *   legacy level bits.
 */
enum mem_src_rules {
	MEM_SRC_PERF61,
	MEM_SRC_MODERN,
};

/* The fields of a data source, each shifted down to its own bits. */
struct mem_src {
	uint64_t op, lvl, snoop, lock, dtlb, lvl_num, snoopx, blk, hops;
	bool remote;
};

/* Field widths, as union perf_mem_data_src declares them. */
#define MEM_SRC_OP_MASK 0x1fULL
#define MEM_SRC_LVL_MASK 0x3fffULL
#define MEM_SRC_SNOOP_MASK 0x1fULL
#define MEM_SRC_LOCK_MASK 0x3ULL
#define MEM_SRC_DTLB_MASK 0x7fULL
#define MEM_SRC_LVLNUM_MASK 0xfULL
#define MEM_SRC_SNOOPX_MASK 0x3ULL
#define MEM_SRC_BLK_MASK 0x7ULL
#define MEM_SRC_HOPS_MASK 0x7ULL

static inline struct mem_src mem_src_decode(uint64_t v)
{
	struct mem_src f = {
		.op = (v >> PERF_MEM_OP_SHIFT) & MEM_SRC_OP_MASK,
		.lvl = (v >> PERF_MEM_LVL_SHIFT) & MEM_SRC_LVL_MASK,
		.snoop = (v >> PERF_MEM_SNOOP_SHIFT) & MEM_SRC_SNOOP_MASK,
		.lock = (v >> PERF_MEM_LOCK_SHIFT) & MEM_SRC_LOCK_MASK,
		.dtlb = (v >> PERF_MEM_TLB_SHIFT) & MEM_SRC_DTLB_MASK,
		.lvl_num = (v >> PERF_MEM_LVLNUM_SHIFT) & MEM_SRC_LVLNUM_MASK,
		.remote = (v >> PERF_MEM_REMOTE_SHIFT) & 1,
		.snoopx = (v >> PERF_MEM_SNOOPX_SHIFT) & MEM_SRC_SNOOPX_MASK,
		.blk = (v >> PERF_MEM_BLK_SHIFT) & MEM_SRC_BLK_MASK,
		.hops = (v >> PERF_MEM_HOPS_SHIFT) & MEM_SRC_HOPS_MASK,
	};
	return f;
}

static inline uint64_t mem_src_encode(const struct mem_src *f)
{
	return (f->op & MEM_SRC_OP_MASK) << PERF_MEM_OP_SHIFT |
	       (f->lvl & MEM_SRC_LVL_MASK) << PERF_MEM_LVL_SHIFT |
	       (f->snoop & MEM_SRC_SNOOP_MASK) << PERF_MEM_SNOOP_SHIFT |
	       (f->lock & MEM_SRC_LOCK_MASK) << PERF_MEM_LOCK_SHIFT |
	       (f->dtlb & MEM_SRC_DTLB_MASK) << PERF_MEM_TLB_SHIFT |
	       (f->lvl_num & MEM_SRC_LVLNUM_MASK) << PERF_MEM_LVLNUM_SHIFT |
	       (uint64_t)f->remote << PERF_MEM_REMOTE_SHIFT |
	       (f->snoopx & MEM_SRC_SNOOPX_MASK) << PERF_MEM_SNOOPX_SHIFT |
	       (f->blk & MEM_SRC_BLK_MASK) << PERF_MEM_BLK_SHIFT |
	       (f->hops & MEM_SRC_HOPS_MASK) << PERF_MEM_HOPS_SHIFT;
}

/* A load (a load and store at once, as some PMUs report RMWs, is a load). */
static inline bool mem_src_is_load(const struct mem_src *f)
{
	return f->op & PERF_MEM_OP_LOAD;
}

static inline bool mem_src_is_store(const struct mem_src *f)
{
	return !(f->op & PERF_MEM_OP_LOAD) && (f->op & PERF_MEM_OP_STORE);
}

/* perf's cache levels: the legacy lvl bit, or (modern rules) the lvl_num. */
static inline bool mem_src_at_level(const struct mem_src *f, uint64_t lvl, uint64_t lvl_num,
				    enum mem_src_rules rules)
{
	return (f->lvl & lvl) || (rules == MEM_SRC_MODERN && f->lvl_num == lvl_num);
}

/*
 * "mrem": Skylake may report an unknown remote level through the remote
 * bit alone; on Power the remote bit with hops also marks another core of
 * the same node, hence "remote and no hops".
 */
static inline bool mem_src_mrem(const struct mem_src *f)
{
	return f->remote && !f->hops;
}

/* A load that perf counts as a local HITM (in its lcl_hitm). */
static inline bool mem_src_lcl_hitm(const struct mem_src *f, enum mem_src_rules rules)
{
	bool modern = rules == MEM_SRC_MODERN;

	if (!mem_src_is_load(f) || !(f->lvl & PERF_MEM_LVL_HIT) ||
	    !(f->snoop & PERF_MEM_SNOOP_HITM))
		return false;
	return mem_src_at_level(f, PERF_MEM_LVL_L3, PERF_MEM_LVLNUM_L3, rules) ||
	       (modern && mem_src_at_level(f, PERF_MEM_LVL_L2, PERF_MEM_LVLNUM_L2, rules)) ||
	       (modern && f->lvl_num == PERF_MEM_LVLNUM_ANY_CACHE && !f->remote);
}

/* A load that perf counts as a remote HITM (in its rmt_hitm): the same in every version. */
static inline bool mem_src_rmt_hitm(const struct mem_src *f)
{
	return mem_src_is_load(f) &&
	       ((f->lvl & (PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_REM_CCE2)) || mem_src_mrem(f)) &&
	       !(f->snoop & PERF_MEM_SNOOP_HIT) && (f->snoop & PERF_MEM_SNOOP_HITM);
}

/* A HITM as perf's c2c counts it (tot_hitm), by rules. */
static inline bool mem_src_is_hitm(uint64_t data_src, enum mem_src_rules rules)
{
	struct mem_src f = mem_src_decode(data_src);

	return mem_src_lcl_hitm(&f, rules) || mem_src_rmt_hitm(&f);
}

/* A store that missed L1 (perf's st_l1miss): the RFOs of a contended line. */
static inline bool mem_src_is_store_miss(uint64_t data_src)
{
	struct mem_src f = mem_src_decode(data_src);

	return mem_src_is_store(&f) && (f.lvl & PERF_MEM_LVL_MISS) && (f.lvl & PERF_MEM_LVL_L1);
}

/*
 * A write, as c2cscope's own views count writers: a store, or a locked
 * RMW sampled as its load (a locked store is a store already).
 */
static inline bool mem_src_is_write(uint64_t data_src)
{
	struct mem_src f = mem_src_decode(data_src);

	return mem_src_is_store(&f) || (mem_src_is_load(&f) && (f.lock & PERF_MEM_LOCK_LOCKED));
}

#endif
