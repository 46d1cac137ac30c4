// SPDX-License-Identifier: GPL-2.0
/*
 * Data sources: what only c2cscope needs (c2csim takes mem_src.h's inline
 * part), perf 6.1's c2c_decode_stats() rule for rule, plus the newer rules
 * as an option. The order of the tests matters: perf counts a sample in
 * several counters at once (e.g. an "mrem" HITM is both a remote HITM and
 * a remote DRAM access in 6.1), and so do we.
 */
#include "perf/mem_src.h"

uint64_t mem_src_make(uint64_t op, uint64_t lvl, uint64_t snoop, uint64_t lock, uint64_t lvl_num,
		      bool remote, uint64_t snoopx, uint64_t blk, uint64_t hops)
{
	struct mem_src f = { .op = op,
			     .lvl = lvl,
			     .snoop = snoop,
			     .lock = lock,
			     .lvl_num = lvl_num,
			     .remote = remote,
			     .snoopx = snoopx,
			     .blk = blk,
			     .hops = hops };

	return mem_src_encode(&f);
}

static void dram_state(struct c2c_stats *st, const struct mem_src *f)
{
	if (f->snoop & PERF_MEM_SNOOP_HIT)
		st->ld_shared++;
	else
		st->ld_excl++;
}

static void hitm_inc(struct c2c_stats *st, uint32_t *counter)
{
	(*counter)++;
	st->tot_hitm++;
}

static void peer_inc(struct c2c_stats *st, uint32_t *counter)
{
	(*counter)++;
	st->tot_peer++;
}

/* The cache levels of a load that hit (lvl HIT); HITMs by mem_src's rules. */
static void decode_load_hit(struct c2c_stats *st, const struct mem_src *f, bool mrem,
			    enum mem_src_rules rules)
{
	bool modern = rules == MEM_SRC_MODERN;
	bool hitm = f->snoop & PERF_MEM_SNOOP_HITM;
	bool peer = f->snoopx & PERF_MEM_SNOOPX_PEER;
	uint64_t lvl = f->lvl;

	if (lvl & PERF_MEM_LVL_UNC)
		st->ld_uncache++;
	if (lvl & PERF_MEM_LVL_IO)
		st->ld_io++;
	if (lvl & PERF_MEM_LVL_LFB)
		st->ld_fbhit++;
	if (mem_src_at_level(f, PERF_MEM_LVL_L1, PERF_MEM_LVLNUM_L1, rules))
		st->ld_l1hit++;
	if (mem_src_lcl_hitm(f, rules))
		hitm_inc(st, &st->lcl_hitm);
	if (mem_src_at_level(f, PERF_MEM_LVL_L2, PERF_MEM_LVLNUM_L2, rules)) {
		if (!(modern && hitm))
			st->ld_l2hit++; /* perf 6.1: L2+HITM is an L2 hit */
		if (peer)
			peer_inc(st, &st->lcl_peer);
	}
	if (mem_src_at_level(f, PERF_MEM_LVL_L3, PERF_MEM_LVLNUM_L3, rules)) {
		if (!hitm)
			st->ld_llchit++;
		if (peer)
			peer_inc(st, &st->lcl_peer);
	}
	if ((lvl & PERF_MEM_LVL_LOC_RAM) ||
	    (modern && f->lvl_num == PERF_MEM_LVLNUM_RAM && !f->remote)) {
		st->lcl_dram++;
		dram_state(st, f);
	}
	if (modern && mrem && (f->snoop & (PERF_MEM_SNOOP_HIT | PERF_MEM_SNOOP_HITM)))
		mrem = false; /* a remote cache hit, not also remote DRAM */
	if ((lvl & (PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_REM_RAM2)) || mrem ||
	    (modern && f->lvl_num == PERF_MEM_LVLNUM_RAM && f->remote)) {
		st->rmt_dram++;
		dram_state(st, f);
	}
}

static int decode_load(struct c2c_stats *st, const struct mem_src *f, bool has_daddr,
		       enum mem_src_rules rules)
{
	bool mrem = mem_src_mrem(f);

	st->load++;
	if (!has_daddr) {
		st->ld_noadrs++;
		return -1;
	}
	if (f->lvl & PERF_MEM_LVL_HIT)
		decode_load_hit(st, f, mrem, rules);
	if (mem_src_rmt_hitm(f)) {
		hitm_inc(st, &st->rmt_hitm);
	} else if ((f->lvl & (PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_REM_CCE2)) || mrem) {
		if (f->snoop & PERF_MEM_SNOOP_HIT) {
			st->rmt_hit++;
		} else if (f->snoopx & PERF_MEM_SNOOPX_PEER) {
			st->rmt_hit++;
			peer_inc(st, &st->rmt_peer);
		}
	}
	if (f->lvl & PERF_MEM_LVL_MISS)
		st->ld_miss++;
	return 0;
}

static int decode_store(struct c2c_stats *st, const struct mem_src *f, bool has_daddr)
{
	st->store++;
	if (!has_daddr) {
		st->st_noadrs++;
		return -1;
	}
	if (f->lvl & PERF_MEM_LVL_HIT) {
		if (f->lvl & PERF_MEM_LVL_UNC)
			st->st_uncache++;
		if (f->lvl & PERF_MEM_LVL_L1)
			st->st_l1hit++;
	}
	if ((f->lvl & PERF_MEM_LVL_MISS) && (f->lvl & PERF_MEM_LVL_L1))
		st->st_l1miss++;
	if (f->lvl & PERF_MEM_LVL_NA)
		st->st_na++;
	return 0;
}

int mem_src_decode_stats(struct c2c_stats *st, uint64_t data_src, bool has_daddr, bool mapped,
			 enum mem_src_rules rules)
{
	struct mem_src f = mem_src_decode(data_src);
	int ret;

	st->nr_entries++;
	if (f.lock & PERF_MEM_LOCK_LOCKED) {
		st->locks++;
		if (f.op & PERF_MEM_OP_LOAD)
			st->lock_loads++;
	}
	if (f.blk & PERF_MEM_BLK_DATA)
		st->blk_data++;
	if (f.blk & PERF_MEM_BLK_ADDR)
		st->blk_addr++;

	if (mem_src_is_load(&f)) {
		ret = decode_load(st, &f, has_daddr, rules);
	} else if (f.op & PERF_MEM_OP_STORE) {
		ret = decode_store(st, &f, has_daddr);
	} else {
		st->noparse++;
		return -1;
	}
	if (ret)
		return ret;
	if (!mapped) {
		st->nomap++;
		return -1;
	}
	return 0;
}
