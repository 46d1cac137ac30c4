// SPDX-License-Identifier: GPL-2.0
/*
 * The two summary sections, figure by figure, labelled and computed as
 * perf 6.1 prints them (print_c2c__display_stats and
 * print_shared_cacheline_info in builtin-c2c.c). The LLC-miss percentages
 * divide as perf divides, so an empty denominator gives perf's NaN.
 */
#include "c2c/c2c_session.h"

#define FIG(l, k, v)                                           \
	(struct c2c_figure)                                    \
	{                                                      \
		.label = (l), .key = (k), .value = (double)(v) \
	}
#define PCT(l, k, v)                                                    \
	(struct c2c_figure)                                             \
	{                                                               \
		.label = (l), .key = (k), .value = (v), .percent = true \
	}

static double llc_share(uint32_t part, uint64_t llc)
{
	return ((double)part / (double)(int)llc) * 100.;
}

size_t c2c_trace_figures(const struct c2c_model *m, struct c2c_figure *out, size_t max)
{
	const struct c2c_stats *s = &m->totals;
	uint64_t llc = c2c_llc_misses(s);
	struct c2c_figure f[] = {
		FIG("Total records", "total_records", s->nr_entries),
		FIG("Locked Load/Store Operations", "locks", s->locks),
		FIG("Load Operations", "loads", s->load),
		FIG("Loads - uncacheable", "ld_uncache", s->ld_uncache),
		FIG("Loads - IO", "ld_io", s->ld_io),
		FIG("Loads - Miss", "ld_miss", s->ld_miss),
		FIG("Loads - no mapping", "ld_noadrs", s->ld_noadrs),
		FIG("Load Fill Buffer Hit", "ld_fbhit", s->ld_fbhit),
		FIG("Load L1D hit", "ld_l1hit", s->ld_l1hit),
		FIG("Load L2D hit", "ld_l2hit", s->ld_l2hit),
		FIG("Load LLC hit", "ld_llchit", (uint64_t)s->ld_llchit + s->lcl_hitm),
		FIG("Load Local HITM", "lcl_hitm", s->lcl_hitm),
		FIG("Load Remote HITM", "rmt_hitm", s->rmt_hitm),
		FIG("Load Remote HIT", "rmt_hit", s->rmt_hit),
		FIG("Load Local DRAM", "lcl_dram", s->lcl_dram),
		FIG("Load Remote DRAM", "rmt_dram", s->rmt_dram),
		FIG("Load MESI State Exclusive", "ld_excl", s->ld_excl),
		FIG("Load MESI State Shared", "ld_shared", s->ld_shared),
		FIG("Load LLC Misses", "llc_misses", llc),
		FIG("Load access blocked by data", "blk_data", s->blk_data),
		FIG("Load access blocked by address", "blk_addr", s->blk_addr),
		FIG("Load HIT Local Peer", "lcl_peer", s->lcl_peer),
		FIG("Load HIT Remote Peer", "rmt_peer", s->rmt_peer),
		PCT("LLC Misses to Local DRAM", "llc_lcl_dram_pct", llc_share(s->lcl_dram, llc)),
		PCT("LLC Misses to Remote DRAM", "llc_rmt_dram_pct", llc_share(s->rmt_dram, llc)),
		PCT("LLC Misses to Remote cache (HIT)", "llc_rmt_hit_pct",
		    llc_share(s->rmt_hit, llc)),
		PCT("LLC Misses to Remote cache (HITM)", "llc_rmt_hitm_pct",
		    llc_share(s->rmt_hitm, llc)),
		FIG("Store Operations", "stores", s->store),
		FIG("Store - uncacheable", "st_uncache", s->st_uncache),
		FIG("Store - no mapping", "st_noadrs", s->st_noadrs),
		FIG("Store L1D Hit", "st_l1hit", s->st_l1hit),
		FIG("Store L1D Miss", "st_l1miss", s->st_l1miss),
		FIG("Store No available memory level", "st_na", s->st_na),
		FIG("No Page Map Rejects", "nomap", s->nomap),
		FIG("Unable to parse data source", "noparse", s->noparse),
	};
	size_t i, n = sizeof(f) / sizeof(f[0]);

	for (i = 0; i < n && i < max; i++)
		out[i] = f[i];
	return n < max ? n : max;
}

size_t c2c_shared_figures(const struct c2c_model *m, struct c2c_figure *out, size_t max)
{
	const struct c2c_stats *s = &m->shared_totals;
	struct c2c_figure f[] = {
		FIG("Total Shared Cache Lines", "shared_lines", m->nr_shared),
		FIG("Load HITs on shared lines", "loads", s->load),
		FIG("Fill Buffer Hits on shared lines", "ld_fbhit", s->ld_fbhit),
		FIG("L1D hits on shared lines", "ld_l1hit", s->ld_l1hit),
		FIG("L2D hits on shared lines", "ld_l2hit", s->ld_l2hit),
		FIG("LLC hits on shared lines", "ld_llchit", (uint64_t)s->ld_llchit + s->lcl_hitm),
		FIG("Load hits on peer cache or nodes", "peer",
		    (uint64_t)s->lcl_peer + s->rmt_peer),
		FIG("Locked Access on shared lines", "locks", s->locks),
		FIG("Blocked Access on shared lines", "blocked",
		    (uint64_t)s->blk_data + s->blk_addr),
		FIG("Store HITs on shared lines", "stores", s->store),
		FIG("Store L1D hits on shared lines", "st_l1hit", s->st_l1hit),
		FIG("Store No available memory level", "st_na", s->st_na),
		FIG("Total Merged records", "merged_records",
		    (uint64_t)s->lcl_hitm + s->rmt_hitm + s->store),
	};
	size_t i, n = sizeof(f) / sizeof(f[0]);

	for (i = 0; i < n && i < max; i++)
		out[i] = f[i];
	return n < max ? n : max;
}
