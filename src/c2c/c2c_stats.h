/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Data-source classification: one PERF_SAMPLE_DATA_SRC value (plus whether
 * the sample had a data address and whether both addresses were mapped)
 * becomes counters, exactly as perf 6.1's c2c_decode_stats() counts them.
 *
 * Two rule sets (enum mem_src_rules, perf/mem_src.h: the HITM predicates
 * there are the ones counted here):
 * - MEM_SRC_PERF61 (default): perf 6.1 as shipped. Only L3+HITM is a
 *   local HITM (L2+HITM counts as an L2 hit), and a load with the remote
 *   bit set and hops 0 ("mrem") that hits counts as remote DRAM as well as
 *   remote HIT/HITM (and as exclusive/shared).
 * - MEM_SRC_MODERN: what later perf versions and newer PMUs need. L2+HITM
 *   and lvl_num ANY_CACHE+HITM (not remote) are local HITMs; lvl_num L1/L2/
 *   L3/RAM stand in for missing legacy lvl bits; "mrem" no longer doubles
 *   as remote DRAM when the snoop says HIT or HITM.
 */
#ifndef C2C_C2C_STATS_H
#define C2C_C2C_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "perf/mem_src.h"

/* PERF_SAMPLE_DATA_SRC fields (include/uapi/linux/perf_event.h). */
#define C2C_MEM_OP_NA 0x01
#define C2C_MEM_OP_LOAD 0x02
#define C2C_MEM_OP_STORE 0x04
#define C2C_MEM_OP_PFETCH 0x08
#define C2C_MEM_OP_EXEC 0x10
#define C2C_MEM_OP_SHIFT 0

#define C2C_MEM_LVL_NA 0x01
#define C2C_MEM_LVL_HIT 0x02
#define C2C_MEM_LVL_MISS 0x04
#define C2C_MEM_LVL_L1 0x08
#define C2C_MEM_LVL_LFB 0x10
#define C2C_MEM_LVL_L2 0x20
#define C2C_MEM_LVL_L3 0x40
#define C2C_MEM_LVL_LOC_RAM 0x80
#define C2C_MEM_LVL_REM_RAM1 0x100
#define C2C_MEM_LVL_REM_RAM2 0x200
#define C2C_MEM_LVL_REM_CCE1 0x400
#define C2C_MEM_LVL_REM_CCE2 0x800
#define C2C_MEM_LVL_IO 0x1000
#define C2C_MEM_LVL_UNC 0x2000
#define C2C_MEM_LVL_SHIFT 5

#define C2C_MEM_SNOOP_NA 0x01
#define C2C_MEM_SNOOP_NONE 0x02
#define C2C_MEM_SNOOP_HIT 0x04
#define C2C_MEM_SNOOP_MISS 0x08
#define C2C_MEM_SNOOP_HITM 0x10
#define C2C_MEM_SNOOP_SHIFT 19

#define C2C_MEM_LOCK_NA 0x01
#define C2C_MEM_LOCK_LOCKED 0x02
#define C2C_MEM_LOCK_SHIFT 24

#define C2C_MEM_TLB_SHIFT 26

#define C2C_MEM_LVLNUM_L1 0x01
#define C2C_MEM_LVLNUM_L2 0x02
#define C2C_MEM_LVLNUM_L3 0x03
#define C2C_MEM_LVLNUM_L4 0x04
#define C2C_MEM_LVLNUM_ANY_CACHE 0x0b
#define C2C_MEM_LVLNUM_LFB 0x0c
#define C2C_MEM_LVLNUM_RAM 0x0d
#define C2C_MEM_LVLNUM_NA 0x0f
#define C2C_MEM_LVLNUM_SHIFT 33

#define C2C_MEM_REMOTE_SHIFT 37

#define C2C_MEM_SNOOPX_FWD 0x01
#define C2C_MEM_SNOOPX_PEER 0x02
#define C2C_MEM_SNOOPX_SHIFT 38

#define C2C_MEM_BLK_NA 0x01
#define C2C_MEM_BLK_DATA 0x02
#define C2C_MEM_BLK_ADDR 0x04
#define C2C_MEM_BLK_SHIFT 40

#define C2C_MEM_HOPS_SHIFT 43

/* Build a data_src value from its fields (tests, generators, simulators). */
uint64_t c2c_data_src(uint64_t op, uint64_t lvl, uint64_t snoop, uint64_t lock, uint64_t lvl_num,
		      bool remote, uint64_t snoopx, uint64_t blk, uint64_t hops);

/* The counters perf prints, named as in perf's struct c2c_stats. */
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
int c2c_decode(struct c2c_stats *st, uint64_t data_src, bool has_daddr, bool mapped,
	       enum mem_src_rules rules);
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
