// SPDX-License-Identifier: GPL-2.0
/*
 * perf 6.1's c2c_decode_stats(), rule for rule, plus the newer rules as an
 * option (see c2c_stats.h). The order of the tests matters: perf counts a
 * sample in several counters at once (e.g. an "mrem" HITM is both a remote
 * HITM and a remote DRAM access in 6.1), and so do we.
 */
#include "c2c/c2c_stats.h"

struct data_src_fields {
	uint64_t op, lvl, snoop, lock, lvl_num, snoopx, blk, hops;
	bool remote;
};

uint64_t c2c_data_src(uint64_t op, uint64_t lvl, uint64_t snoop, uint64_t lock, uint64_t lvl_num,
		      bool remote, uint64_t snoopx, uint64_t blk, uint64_t hops)
{
	return (op & 0x1f) << C2C_MEM_OP_SHIFT | (lvl & 0x3fff) << C2C_MEM_LVL_SHIFT |
	       (snoop & 0x1f) << C2C_MEM_SNOOP_SHIFT | (lock & 0x3) << C2C_MEM_LOCK_SHIFT |
	       (lvl_num & 0xf) << C2C_MEM_LVLNUM_SHIFT | (uint64_t)remote << C2C_MEM_REMOTE_SHIFT |
	       (snoopx & 0x3) << C2C_MEM_SNOOPX_SHIFT | (blk & 0x7) << C2C_MEM_BLK_SHIFT |
	       (hops & 0x7) << C2C_MEM_HOPS_SHIFT;
}

static struct data_src_fields split(uint64_t v)
{
	struct data_src_fields f = {
		.op = (v >> C2C_MEM_OP_SHIFT) & 0x1f,
		.lvl = (v >> C2C_MEM_LVL_SHIFT) & 0x3fff,
		.snoop = (v >> C2C_MEM_SNOOP_SHIFT) & 0x1f,
		.lock = (v >> C2C_MEM_LOCK_SHIFT) & 0x3,
		.lvl_num = (v >> C2C_MEM_LVLNUM_SHIFT) & 0xf,
		.remote = (v >> C2C_MEM_REMOTE_SHIFT) & 1,
		.snoopx = (v >> C2C_MEM_SNOOPX_SHIFT) & 0x3,
		.blk = (v >> C2C_MEM_BLK_SHIFT) & 0x7,
		.hops = (v >> C2C_MEM_HOPS_SHIFT) & 0x7,
	};
	return f;
}

static void dram_state(struct c2c_stats *st, const struct data_src_fields *f)
{
	if (f->snoop & C2C_MEM_SNOOP_HIT)
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

/* The cache levels of a load that hit (lvl HIT). */
static void decode_load_hit(struct c2c_stats *st, const struct data_src_fields *f, bool mrem,
			    bool modern)
{
	uint64_t lvl = f->lvl, lnum = modern ? f->lvl_num : 0;
	bool hitm = f->snoop & C2C_MEM_SNOOP_HITM;
	bool peer = f->snoopx & C2C_MEM_SNOOPX_PEER;
	bool counted_hitm = false;

	if (lvl & C2C_MEM_LVL_UNC)
		st->ld_uncache++;
	if (lvl & C2C_MEM_LVL_IO)
		st->ld_io++;
	if (lvl & C2C_MEM_LVL_LFB)
		st->ld_fbhit++;
	if ((lvl & C2C_MEM_LVL_L1) || lnum == C2C_MEM_LVLNUM_L1)
		st->ld_l1hit++;
	if ((lvl & C2C_MEM_LVL_L2) || lnum == C2C_MEM_LVLNUM_L2) {
		if (modern && hitm) {
			hitm_inc(st, &st->lcl_hitm);
			counted_hitm = true;
		} else {
			st->ld_l2hit++;
		}
		if (peer)
			peer_inc(st, &st->lcl_peer);
	}
	if ((lvl & C2C_MEM_LVL_L3) || lnum == C2C_MEM_LVLNUM_L3) {
		if (hitm && !counted_hitm) {
			hitm_inc(st, &st->lcl_hitm);
			counted_hitm = true;
		} else if (!hitm) {
			st->ld_llchit++;
		}
		if (peer)
			peer_inc(st, &st->lcl_peer);
	}
	if (modern && lnum == C2C_MEM_LVLNUM_ANY_CACHE && !f->remote && hitm && !counted_hitm)
		hitm_inc(st, &st->lcl_hitm);
	if ((lvl & C2C_MEM_LVL_LOC_RAM) || (lnum == C2C_MEM_LVLNUM_RAM && !f->remote)) {
		st->lcl_dram++;
		dram_state(st, f);
	}
	if (modern && mrem && (f->snoop & (C2C_MEM_SNOOP_HIT | C2C_MEM_SNOOP_HITM)))
		mrem = false; /* a remote cache hit, not also remote DRAM */
	if ((lvl & (C2C_MEM_LVL_REM_RAM1 | C2C_MEM_LVL_REM_RAM2)) || mrem ||
	    (lnum == C2C_MEM_LVLNUM_RAM && f->remote)) {
		st->rmt_dram++;
		dram_state(st, f);
	}
}

static int decode_load(struct c2c_stats *st, const struct data_src_fields *f, bool has_daddr,
		       bool modern)
{
	/*
	 * Skylake may report an unknown remote level through the remote bit
	 * alone; on Power the remote bit with hops also marks another core of
	 * the same node, hence "remote and no hops".
	 */
	bool mrem = f->remote && !f->hops;

	st->load++;
	if (!has_daddr) {
		st->ld_noadrs++;
		return -1;
	}
	if (f->lvl & C2C_MEM_LVL_HIT)
		decode_load_hit(st, f, mrem, modern);
	if ((f->lvl & (C2C_MEM_LVL_REM_CCE1 | C2C_MEM_LVL_REM_CCE2)) || mrem) {
		if (f->snoop & C2C_MEM_SNOOP_HIT) {
			st->rmt_hit++;
		} else if (f->snoop & C2C_MEM_SNOOP_HITM) {
			hitm_inc(st, &st->rmt_hitm);
		} else if (f->snoopx & C2C_MEM_SNOOPX_PEER) {
			st->rmt_hit++;
			peer_inc(st, &st->rmt_peer);
		}
	}
	if (f->lvl & C2C_MEM_LVL_MISS)
		st->ld_miss++;
	return 0;
}

static int decode_store(struct c2c_stats *st, const struct data_src_fields *f, bool has_daddr)
{
	st->store++;
	if (!has_daddr) {
		st->st_noadrs++;
		return -1;
	}
	if (f->lvl & C2C_MEM_LVL_HIT) {
		if (f->lvl & C2C_MEM_LVL_UNC)
			st->st_uncache++;
		if (f->lvl & C2C_MEM_LVL_L1)
			st->st_l1hit++;
	}
	if ((f->lvl & C2C_MEM_LVL_MISS) && (f->lvl & C2C_MEM_LVL_L1))
		st->st_l1miss++;
	if (f->lvl & C2C_MEM_LVL_NA)
		st->st_na++;
	return 0;
}

int c2c_decode(struct c2c_stats *st, uint64_t data_src, bool has_daddr, bool mapped,
	       enum c2c_rules rules)
{
	struct data_src_fields f = split(data_src);
	int ret;

	st->nr_entries++;
	if (f.lock & C2C_MEM_LOCK_LOCKED) {
		st->locks++;
		if (f.op & C2C_MEM_OP_LOAD)
			st->lock_loads++;
	}
	if (f.blk & C2C_MEM_BLK_DATA)
		st->blk_data++;
	if (f.blk & C2C_MEM_BLK_ADDR)
		st->blk_addr++;

	if (f.op & C2C_MEM_OP_LOAD) {
		ret = decode_load(st, &f, has_daddr, rules == C2C_RULES_MODERN);
	} else if (f.op & C2C_MEM_OP_STORE) {
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
