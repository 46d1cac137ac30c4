// SPDX-License-Identifier: GPL-2.0
/*
 * Classification against perf 6.1's c2c_decode_stats, one data_src class
 * at a time. Values are built by hand from the bit layout (op bits 0-4,
 * lvl 5-18, snoop 19-23, lock 24-25, lvl_num 33-36, remote 37, snoopx
 * 38-39, blk 40-42, hops 43-45) so the helper is checked too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "c2c/c2c_stats.h"

#define OP_LOAD (0x2ULL << 0)
#define OP_STORE (0x4ULL << 0)
#define OP_NA (0x1ULL << 0)
#define LVL(x) ((uint64_t)(x) << 5)
#define SNOOP(x) ((uint64_t)(x) << 19)
#define LOCKED (0x2ULL << 24)
#define LVLNUM(x) ((uint64_t)(x) << 33)
#define REMOTE (1ULL << 37)
#define PEER (0x2ULL << 38)
#define BLK(x) ((uint64_t)(x) << 40)
#define HOPS(x) ((uint64_t)(x) << 43)

enum {
	NA = 0x1,
	HIT = 0x2,
	MISS = 0x4,
	L1 = 0x8,
	LFB = 0x10,
	L2 = 0x20,
	L3 = 0x40,
	LOC_RAM = 0x80,
	REM_RAM1 = 0x100,
	REM_RAM2 = 0x200,
	REM_CCE1 = 0x400,
	REM_CCE2 = 0x800,
	IO = 0x1000,
	UNC = 0x2000
};
enum { SNP_NONE = 0x2, SNP_HIT = 0x4, SNP_MISS = 0x8, SNP_HITM = 0x10 };

static struct c2c_stats one(uint64_t ds, enum mem_src_rules rules)
{
	struct c2c_stats st;

	memset(&st, 0, sizeof(st));
	mem_src_decode_stats(&st, ds, true, true, rules);
	return st;
}

/* Every counter of got equals want except the ones listed (checked by caller). */
static void expect_stats(const struct c2c_stats *got, const struct c2c_stats *want)
{
	assert_memory_equal(got, want, sizeof(*got));
}

static void helper_matches_hand_built_bits(void **state)
{
	assert_int_equal(mem_src_make(PERF_MEM_OP_LOAD, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3,
				      PERF_MEM_SNOOP_HITM, PERF_MEM_LOCK_NA, 0, false, 0, 0, 0),
			 OP_LOAD | LVL(HIT | L3) | SNOOP(SNP_HITM) | (0x1ULL << 24));
	assert_int_equal(mem_src_make(PERF_MEM_OP_LOAD, PERF_MEM_LVL_HIT, PERF_MEM_SNOOP_HIT, 0,
				      PERF_MEM_LVLNUM_ANY_CACHE, true, PERF_MEM_SNOOPX_PEER,
				      PERF_MEM_BLK_ADDR, 2),
			 OP_LOAD | LVL(HIT) | SNOOP(SNP_HIT) | LVLNUM(0xb) | REMOTE | PEER |
				 BLK(4) | HOPS(2));
	/* the value perf documents for an L1 hit load on Intel: 0x68100142 */
	assert_int_equal(0x68100142ULL & 0x1f, OP_LOAD);
	assert_int_equal((0x68100142ULL >> 5) & 0x3fff, HIT | L1);
}

static void load_levels(void **state)
{
	struct c2c_stats st, want;
	static const struct {
		uint64_t lvl;
		size_t field;
	} cases[] = {
		{ HIT | L1, offsetof(struct c2c_stats, ld_l1hit) },
		{ HIT | LFB, offsetof(struct c2c_stats, ld_fbhit) },
		{ HIT | L2, offsetof(struct c2c_stats, ld_l2hit) },
		{ HIT | L3, offsetof(struct c2c_stats, ld_llchit) },
		{ HIT | UNC, offsetof(struct c2c_stats, ld_uncache) },
		{ HIT | IO, offsetof(struct c2c_stats, ld_io) },
		{ MISS | L3, offsetof(struct c2c_stats, ld_miss) },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		st = one(OP_LOAD | LVL(cases[i].lvl) | SNOOP(SNP_NONE), MEM_SRC_PERF61);
		memset(&want, 0, sizeof(want));
		want.nr_entries = 1;
		want.load = 1;
		*(uint32_t *)((char *)&want + cases[i].field) = 1;
		expect_stats(&st, &want);
	}
}

static void local_hitm_only_from_l3_in_61(void **state)
{
	struct c2c_stats st = one(OP_LOAD | LVL(HIT | L3) | SNOOP(SNP_HITM), MEM_SRC_PERF61);

	assert_int_equal(st.lcl_hitm, 1);
	assert_int_equal(st.tot_hitm, 1);
	assert_int_equal(st.ld_llchit, 0);
	assert_int_equal(c2c_cache_hits(&st), 1);
	/* 6.1: L2 + HITM is an L2 hit, not a HITM */
	st = one(OP_LOAD | LVL(HIT | L2) | SNOOP(SNP_HITM), MEM_SRC_PERF61);
	assert_int_equal(st.lcl_hitm, 0);
	assert_int_equal(st.ld_l2hit, 1);
	/* newer rules: it is a local HITM */
	st = one(OP_LOAD | LVL(HIT | L2) | SNOOP(SNP_HITM), MEM_SRC_MODERN);
	assert_int_equal(st.lcl_hitm, 1);
	assert_int_equal(st.tot_hitm, 1);
	assert_int_equal(st.ld_l2hit, 0);
	/* newer rules: lvl_num ANY_CACHE + HITM, not remote */
	st = one(OP_LOAD | LVL(HIT) | LVLNUM(0xb) | SNOOP(SNP_HITM), MEM_SRC_MODERN);
	assert_int_equal(st.lcl_hitm, 1);
	st = one(OP_LOAD | LVL(HIT) | LVLNUM(0xb) | SNOOP(SNP_HITM), MEM_SRC_PERF61);
	assert_int_equal(st.lcl_hitm, 0);
}

static void peers(void **state)
{
	struct c2c_stats st = one(OP_LOAD | LVL(HIT | L3) | SNOOP(SNP_NONE) | PEER, MEM_SRC_PERF61);

	assert_int_equal(st.ld_llchit, 1);
	assert_int_equal(st.lcl_peer, 1);
	assert_int_equal(st.tot_peer, 1);
	st = one(OP_LOAD | LVL(HIT | L2) | PEER, MEM_SRC_PERF61);
	assert_int_equal(st.ld_l2hit, 1);
	assert_int_equal(st.lcl_peer, 1);
	st = one(OP_LOAD | LVL(REM_CCE1) | SNOOP(SNP_NONE) | PEER, MEM_SRC_PERF61);
	assert_int_equal(st.rmt_hit, 1);
	assert_int_equal(st.rmt_peer, 1);
	assert_int_equal(st.tot_peer, 1);
	assert_int_equal(c2c_bucket_of(&st), C2C_BUCKET_RMT_PEER);
}

static void dram(void **state)
{
	struct c2c_stats st = one(OP_LOAD | LVL(HIT | LOC_RAM) | SNOOP(SNP_HIT), MEM_SRC_PERF61);

	assert_int_equal(st.lcl_dram, 1);
	assert_int_equal(st.ld_shared, 1);
	assert_int_equal(st.ld_excl, 0);
	st = one(OP_LOAD | LVL(HIT | LOC_RAM) | SNOOP(SNP_MISS), MEM_SRC_PERF61);
	assert_int_equal(st.ld_excl, 1);
	st = one(OP_LOAD | LVL(HIT | REM_RAM1) | SNOOP(SNP_NONE), MEM_SRC_PERF61);
	assert_int_equal(st.rmt_dram, 1);
	assert_int_equal(st.ld_excl, 1);
	st = one(OP_LOAD | LVL(HIT | REM_RAM2) | SNOOP(SNP_HIT), MEM_SRC_PERF61);
	assert_int_equal(st.rmt_dram, 1);
	assert_int_equal(st.ld_shared, 1);
	assert_int_equal(c2c_llc_misses(&st), 1);
	/* REM_RAM without HIT counts nothing but the load */
	st = one(OP_LOAD | LVL(REM_RAM1), MEM_SRC_PERF61);
	assert_int_equal(st.rmt_dram, 0);
	assert_int_equal(st.load, 1);
}

static void remote_cache(void **state)
{
	struct c2c_stats st = one(OP_LOAD | LVL(HIT | REM_CCE1) | SNOOP(SNP_HITM), MEM_SRC_PERF61);

	assert_int_equal(st.rmt_hitm, 1);
	assert_int_equal(st.tot_hitm, 1);
	assert_int_equal(st.rmt_dram, 0);
	st = one(OP_LOAD | LVL(HIT | REM_CCE2) | SNOOP(SNP_HIT), MEM_SRC_PERF61);
	assert_int_equal(st.rmt_hit, 1);
	assert_int_equal(c2c_llc_misses(&st), 1);
}

/* 6.1 quirk: remote bit + hops 0 that hits is also remote DRAM. */
static void mrem_doubles_as_remote_dram_in_61(void **state)
{
	uint64_t hitm = OP_LOAD | LVL(HIT) | LVLNUM(0xb) | REMOTE | SNOOP(SNP_HITM);
	uint64_t hit = OP_LOAD | LVL(HIT) | REMOTE | SNOOP(SNP_HIT);
	struct c2c_stats st = one(hitm, MEM_SRC_PERF61);

	assert_int_equal(st.rmt_hitm, 1);
	assert_int_equal(st.rmt_dram, 1);
	assert_int_equal(st.ld_excl, 1);
	assert_int_equal(c2c_llc_misses(&st), 2);
	st = one(hit, MEM_SRC_PERF61);
	assert_int_equal(st.rmt_hit, 1);
	assert_int_equal(st.rmt_dram, 1);
	assert_int_equal(st.ld_shared, 1);
	st = one(hitm, MEM_SRC_MODERN);
	assert_int_equal(st.rmt_hitm, 1);
	assert_int_equal(st.rmt_dram, 0);
	assert_int_equal(st.lcl_hitm, 0);
	/* hops set: not "mrem", so no remote counters at all */
	st = one(hitm | HOPS(2), MEM_SRC_PERF61);
	assert_int_equal(st.rmt_hitm, 0);
	assert_int_equal(st.rmt_dram, 0);
	/* mrem without HIT in lvl: only the remote-cache part */
	st = one(OP_LOAD | REMOTE | SNOOP(SNP_HITM), MEM_SRC_PERF61);
	assert_int_equal(st.rmt_hitm, 1);
	assert_int_equal(st.rmt_dram, 0);
}

static void stores(void **state)
{
	struct c2c_stats st = one(OP_STORE | LVL(HIT | L1), MEM_SRC_PERF61);

	assert_int_equal(st.store, 1);
	assert_int_equal(st.st_l1hit, 1);
	assert_int_equal(c2c_stores(&st), 1);
	assert_int_equal(c2c_bucket_of(&st), -1);
	st = one(OP_STORE | LVL(MISS | L1), MEM_SRC_PERF61);
	assert_int_equal(st.st_l1miss, 1);
	st = one(OP_STORE | LVL(NA), MEM_SRC_PERF61);
	assert_int_equal(st.st_na, 1);
	st = one(OP_STORE | LVL(HIT | UNC), MEM_SRC_PERF61);
	assert_int_equal(st.st_uncache, 1);
	assert_int_equal(c2c_stores(&st), 0);
	/* MISS without L1 is nothing but a store */
	st = one(OP_STORE | LVL(MISS | L2), MEM_SRC_PERF61);
	assert_int_equal(st.st_l1miss, 0);
	assert_int_equal(c2c_total_records(&st), 0);
}

static void no_address_no_map_no_parse(void **state)
{
	struct c2c_stats st;

	memset(&st, 0, sizeof(st));
	assert_int_equal(mem_src_decode_stats(&st, OP_LOAD | LVL(HIT | L1), false, true,
					      MEM_SRC_PERF61),
			 -1);
	assert_int_equal(st.ld_noadrs, 1);
	assert_int_equal(st.ld_l1hit, 0);
	assert_int_equal(mem_src_decode_stats(&st, OP_STORE | LVL(HIT | L1), false, true,
					      MEM_SRC_PERF61),
			 -1);
	assert_int_equal(st.st_noadrs, 1);
	assert_int_equal(mem_src_decode_stats(&st, OP_NA, true, true, MEM_SRC_PERF61), -1);
	assert_int_equal(st.noparse, 1);
	assert_int_equal(mem_src_decode_stats(&st, OP_LOAD | LVL(HIT | L1), true, false,
					      MEM_SRC_PERF61),
			 -1);
	assert_int_equal(st.nomap, 1);
	assert_int_equal(st.ld_l1hit, 1); /* classified, then rejected */
	assert_int_equal(st.nr_entries, 4);
	assert_int_equal(st.load, 2);
	assert_int_equal(st.store, 1);
}

static void lock_and_blocked(void **state)
{
	struct c2c_stats st = one(OP_LOAD | LVL(HIT | L1) | LOCKED | BLK(2 | 4), MEM_SRC_PERF61);

	assert_int_equal(st.locks, 1);
	assert_int_equal(st.blk_data, 1);
	assert_int_equal(st.blk_addr, 1);
	/* a locked RMW sampled as its load is one write; as a store, one too */
	assert_int_equal(st.lock_loads, 1);
	assert_int_equal(c2c_writes(&st), 1);
	st = one(OP_STORE | LVL(HIT | L1) | LOCKED, MEM_SRC_PERF61);
	assert_int_equal(st.locks, 1);
	assert_int_equal(st.lock_loads, 0);
	assert_int_equal(c2c_writes(&st), 1);
	/* lock NA is not a lock */
	st = one(OP_LOAD | LVL(HIT | L1) | (0x1ULL << 24), MEM_SRC_PERF61);
	assert_int_equal(st.locks, 0);
	assert_int_equal(c2c_writes(&st), 0);
}

static void totals_and_buckets(void **state)
{
	struct c2c_stats sum, a = one(OP_LOAD | LVL(HIT | REM_CCE1) | SNOOP(SNP_HITM), 0);
	struct c2c_stats b = one(OP_LOAD | LVL(HIT | L3) | SNOOP(SNP_HITM), 0);
	struct c2c_stats c = one(OP_LOAD | LVL(HIT | L1), 0);
	struct c2c_stats d = one(OP_STORE | LVL(HIT | L1), 0);

	assert_int_equal(c2c_bucket_of(&a), C2C_BUCKET_RMT_HITM);
	assert_int_equal(c2c_bucket_of(&b), C2C_BUCKET_LCL_HITM);
	assert_int_equal(c2c_bucket_of(&c), C2C_BUCKET_LOAD);
	memset(&sum, 0, sizeof(sum));
	c2c_stats_add(&sum, &a);
	c2c_stats_add(&sum, &b);
	c2c_stats_add(&sum, &c);
	c2c_stats_add(&sum, &d);
	assert_int_equal(sum.nr_entries, 4);
	assert_int_equal(c2c_llc_misses(&sum), 1);
	assert_int_equal(c2c_cache_hits(&sum), 2);
	assert_int_equal(c2c_total_loads(&sum), 3);
	assert_int_equal(c2c_total_records(&sum), 4);
	assert_int_equal(sum.tot_hitm, 2);
}

/*
 * mem_src's answers (what a HITM, a store miss, a write is) are the
 * decoder's counts, under both rule sets, on random data sources biased
 * toward loads and stores with the interesting bits set.
 */
static void mem_src_predicates_agree_with_the_decoder(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int i, rules;

	for (i = 0; i < 200000; i++) {
		uint64_t ds;

		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		ds = x * 0x2545f4914f6cdd1dULL;
		if (i % 2)
			ds = (ds & ~0x1fULL) | (i % 4 == 1 ? OP_LOAD : OP_STORE);
		for (rules = MEM_SRC_PERF61; rules <= MEM_SRC_MODERN; rules++) {
			struct c2c_stats st = one(ds, rules);

			assert_int_equal(mem_src_is_hitm(ds, rules), st.tot_hitm > 0);
			assert_int_equal(mem_src_is_store_miss(ds), st.st_l1miss > 0);
			assert_int_equal(mem_src_is_write(ds), c2c_writes(&st) > 0);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(helper_matches_hand_built_bits),
		cmocka_unit_test(mem_src_predicates_agree_with_the_decoder),
		cmocka_unit_test(load_levels),
		cmocka_unit_test(local_hitm_only_from_l3_in_61),
		cmocka_unit_test(peers),
		cmocka_unit_test(dram),
		cmocka_unit_test(remote_cache),
		cmocka_unit_test(mrem_doubles_as_remote_dram_in_61),
		cmocka_unit_test(stores),
		cmocka_unit_test(no_address_no_map_no_parse),
		cmocka_unit_test(lock_and_blocked),
		cmocka_unit_test(totals_and_buckets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
