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
 * Which perf's rules classify a data source (mem_src_decode_stats() below
 * says what each counts):
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

/*
 * Where a simulated access found its line: the verdict of c2csim's caches
 * and of watch's MESI replay, which each encodes as the data source a PMU
 * would have reported.
 */
enum mem_src_class {
	MEM_SRC_CLS_L1, /* in my cache; a store: I owned it (M or E) */
	MEM_SRC_CLS_LCL_PEER, /* clean copies, one on my node */
	MEM_SRC_CLS_RMT_PEER,
	MEM_SRC_CLS_LCL_HITM, /* Modified in a cpu of my node */
	MEM_SRC_CLS_RMT_HITM,
	MEM_SRC_CLS_LCL_DRAM, /* no cache has it; the page is my node's */
	MEM_SRC_CLS_RMT_DRAM,
	MEM_SRC_NR_CLASSES,
};

/* A simulated access in a byte (c2csim's stream carries it): class, store, locked. */
#define MEM_SRC_CODE_CLASS 0x07u /* enum mem_src_class */
#define MEM_SRC_CODE_STORE 0x08u /* else a load (atomics are loads) */
#define MEM_SRC_CODE_LOCKED 0x10u

/*
 * The data source of a simulated access, from its code: loads by class
 * (a remote node is another socket, hops 2: a remote bit with hops 0 would
 * make perf 6.1 count the access as remote DRAM too); a store at L1, a hit
 * when it owned the line, else the miss that is an RFO.
 */
static inline uint64_t mem_src_of_code(uint32_t code)
{
#define MEM_SRC_LD_(lvl, snoop, lnum)                                             \
	(PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, lvl) | PERF_MEM_S(SNOOP, snoop) | \
	 PERF_MEM_S(LVLNUM, lnum))
#define MEM_SRC_RMT_ (PERF_MEM_S(REMOTE, REMOTE) | PERF_MEM_S(HOPS, 2))
	static const uint64_t load_src[MEM_SRC_NR_CLASSES] = {
		[MEM_SRC_CLS_L1] = MEM_SRC_LD_(L1, NONE, L1),
		[MEM_SRC_CLS_LCL_PEER] = MEM_SRC_LD_(L3, HIT, L3) | PERF_MEM_S(SNOOPX, PEER),
		[MEM_SRC_CLS_RMT_PEER] = MEM_SRC_LD_(REM_CCE1, HIT, ANY_CACHE) |
					 PERF_MEM_S(SNOOPX, PEER) | MEM_SRC_RMT_,
		[MEM_SRC_CLS_LCL_HITM] = MEM_SRC_LD_(L3, HITM, L3),
		[MEM_SRC_CLS_RMT_HITM] = MEM_SRC_LD_(REM_CCE1, HITM, ANY_CACHE) | MEM_SRC_RMT_,
		[MEM_SRC_CLS_LCL_DRAM] = MEM_SRC_LD_(LOC_RAM, MISS, RAM),
		[MEM_SRC_CLS_RMT_DRAM] = MEM_SRC_LD_(REM_RAM1, MISS, RAM) | MEM_SRC_RMT_,
	};
#undef MEM_SRC_LD_
#undef MEM_SRC_RMT_
	uint32_t cls = code & MEM_SRC_CODE_CLASS;

	if (code & MEM_SRC_CODE_STORE)
		return PERF_MEM_S(OP, STORE) | PERF_MEM_S(LVL, L1) |
		       (cls == MEM_SRC_CLS_L1 ? PERF_MEM_S(LVL, HIT) : PERF_MEM_S(LVL, MISS)) |
		       PERF_MEM_S(SNOOP, NA) | PERF_MEM_S(LVLNUM, L1) | PERF_MEM_S(TLB, NA) |
		       PERF_MEM_S(LOCK, NA);
	return PERF_MEM_S(OP, LOAD) | load_src[cls < MEM_SRC_NR_CLASSES ? cls : 0] |
	       PERF_MEM_S(TLB, NA) |
	       (code & MEM_SRC_CODE_LOCKED ? PERF_MEM_S(LOCK, LOCKED) : PERF_MEM_S(LOCK, NA));
}

/*
 * The period of a simulated sample: the accesses it stands for. Sampled
 * ones are 1 in sample_rate (HITMs and store misses are all kept), and
 * past a size budget every kept sample is 1 in thin_rate of those.
 */
static inline uint32_t mem_src_sim_period(bool sampled, uint32_t sample_rate, uint32_t thin_rate)
{
	return (sampled ? sample_rate : 1) * thin_rate;
}

/*
 * perf's c2c counters (mem_src.c), named as in perf's struct c2c_stats
 * (util/mem-events.h, beside the decoder that fills them): one
 * PERF_SAMPLE_DATA_SRC value, plus whether the sample had a data address
 * and whether both its addresses were mapped, becomes counts exactly as
 * perf 6.1's c2c_decode_stats() makes them. The rules differ beyond the
 * HITMs (enum mem_src_rules): under MEM_SRC_PERF61 a load with the remote
 * bit set and hops 0 ("mrem") that hits counts as remote DRAM as well as
 * remote HIT/HITM (and as exclusive/shared); MEM_SRC_MODERN's lvl_num
 * L1/L2/L3/RAM stand in for missing legacy lvl bits, and "mrem" no longer
 * doubles as remote DRAM when the snoop says HIT or HITM.
 */
struct c2c_stats {
	uint32_t nr_entries; /* every sample */
	uint32_t locks; /* LOCKED */
	uint32_t store; /* all stores */
	uint32_t st_uncache;
	uint32_t st_noadrs;
	uint32_t st_l1hit;
	uint32_t st_l1miss;
	uint32_t st_na;
	uint32_t load; /* all loads */
	uint32_t ld_excl;
	uint32_t ld_shared;
	uint32_t ld_uncache;
	uint32_t ld_io;
	uint32_t ld_miss;
	uint32_t ld_noadrs;
	uint32_t ld_fbhit;
	uint32_t ld_l1hit;
	uint32_t ld_l2hit;
	uint32_t ld_llchit; /* LLC hits that were not HITM */
	uint32_t lcl_hitm;
	uint32_t rmt_hitm;
	uint32_t tot_hitm;
	uint32_t lcl_peer;
	uint32_t rmt_peer;
	uint32_t tot_peer;
	uint32_t rmt_hit;
	uint32_t lcl_dram;
	uint32_t rmt_dram;
	uint32_t blk_data;
	uint32_t blk_addr;
	uint32_t nomap; /* data or code address outside every mapping */
	uint32_t noparse; /* neither load nor store */
	/* c2cscope's own, never in perf's tables: LOCKED loads (c2c_writes) */
	uint32_t lock_loads;
};

/*
 * Classify one sample into *st (adds to it). has_daddr: the sample's data
 * address is not 0; mapped: both the data and the code address fell in a
 * known mapping. Returns 0, or -1 where perf's decoder returns -1 (no
 * address, no mapping, unparsable): the sample still counts as a record.
 */
int mem_src_decode_stats(struct c2c_stats *st, uint64_t data_src, bool has_daddr, bool mapped,
			 enum mem_src_rules rules);

/* A data source from its fields, for tests and generators (mem_src.c). */
uint64_t mem_src_make(uint64_t op, uint64_t lvl, uint64_t snoop, uint64_t lock, uint64_t lvl_num,
		      bool remote, uint64_t snoopx, uint64_t blk, uint64_t hops);

#endif
