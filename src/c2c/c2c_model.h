/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The c2c model: samples aggregated per cache line, then per offset x
 * code-address keys inside each line, with cpu and node sets, mean cycles
 * per bucket, shared-line totals and perf c2c's sort and display filter.
 *
 * Lines are told apart as perf tells them apart (sort__dcacheline_cmp):
 * by cpumode, by the mapping's file identity, by pid for private anonymous
 * user memory, then by the line of the map-relative address. Ties in the
 * sort fall back to that same order, as perf's rb-tree insertion does.
 */
#ifndef C2C_C2C_MODEL_H
#define C2C_C2C_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "c2c/c2c_stats.h"
#include "symbols/addr_space.h"
#include "util/arena.h"

enum c2c_display {
	C2C_DISPLAY_TOT,
	C2C_DISPLAY_RMT,
	C2C_DISPLAY_LCL,
	C2C_DISPLAY_PEER,
};

/* Coalesce keys inside a line, after the offset (perf's -c). */
enum c2c_key {
	C2C_KEY_TID,
	C2C_KEY_PID,
	C2C_KEY_IADDR,
	C2C_KEY_DSO,
};

#define C2C_MAX_KEYS 4

struct c2c_mem_range { /* physical memory of a node (MEM_TOPOLOGY) */
	uint64_t start, end;
	uint32_t node;
};

struct c2c_model_opts {
	enum c2c_display display;
	enum mem_src_rules rules;
	enum c2c_key keys[C2C_MAX_KEYS]; /* in the order given (perf default: iaddr) */
	size_t nr_keys;
	bool double_cl; /* 128-byte lines */
	bool show_all;
	uint32_t nr_cpus; /* NRCPUS available: size of cpu sets */
	const int *cpu2node; /* nr_cpus entries, -1 when unknown; may be NULL */
	uint32_t nr_nodes;
	const struct c2c_mem_range *mem; /* sorted by start; may be NULL */
	size_t nr_mem;
	bool node_stats; /* keep per-node counters for each row (-N -N display) */
	bool no_source; /* no Source:Line column (--no-source) */
	uint32_t threads; /* aggregate on this many threads (0, 1: the caller's) */
};

/* One sample as the model needs it, with its maps already looked up. */
struct c2c_sample {
	uint64_t ip, addr, phys_addr, data_src, weight;
	uint32_t pid, tid, cpu; /* cpu UINT32_MAX when not sampled */
	uint16_t cpumode;
	const struct as_map *imap, *dmap;
};

struct c2c_mean { /* perf's struct stats, mean only (Welford, same order) */
	uint64_t n;
	double mean;
};

struct c2c_line_key {
	uint64_t cl; /* line of the map-relative address */
	uint64_t ino, ino_generation;
	uint32_t maj, min;
	int64_t pid; /* -1 unless private anonymous user memory */
	uint16_t cpumode;
	bool mapped;
};

/* What lines and rows share: counters, cpus, nodes, physical addresses. */
struct c2c_group {
	uint64_t paddr; /* first: lines touch only these per sample */
	uint32_t paddr_cnt;
	bool paddr_zero;
	/* nr_cpus bits, then those of c2c_group_nodeset (nodes of physical addresses) */
	uint64_t *cpuset;
	struct c2c_stats stats;
};

/*
 * One row of a line's distribution: offset x coalesce keys. What every
 * sample touches comes first and lies together (key, counters, means;
 * the cpu and node bits sit right in front of the row), the rest after.
 */
struct c2c_row {
	struct c2c_line *line;
	uint32_t offset; /* of the virtual address */
	uint32_t offset_shown; /* of the map-relative address of the first sample */
	uint64_t iaddr;
	uint32_t pid, tid;
	const char *dso_name; /* key for -c dso: the object's short name or NULL */
	/* what attribution reads of every row sits with the key (one cache line) */
	const struct as_map *imap; /* of the first sample: symbol, object */
	uint16_t cpumode;
	bool valid; /* shown in the Pareto (has stores or the display metric) */
	/*
	 * Set by c2c_attrib_session: n > 0, its entry n - 1; n < 0, nothing
	 * but reason -n - 1; 0, not attributed.
	 */
	int32_t attrib_ref;
	struct c2c_group g;
	struct c2c_mean cycles[C2C_NR_BUCKETS];
	/* with opts.node_stats, nr_nodes counters follow: c2c_row_node_stats */
};

/*
 * A line. Per sample only its key and physical-address tracking are
 * touched (one cache line); its counters, cpus and nodes are the sums of
 * its rows', made by c2c_model_finish.
 */
struct c2c_line {
	struct c2c_line_key key; /* with g's paddr fields, the first 64 bytes */
	struct c2c_group g;
	uint64_t addr; /* line of the first sample's virtual address (shown) */
	const struct as_map *dmap; /* of the first sample */
	struct c2c_row **rows; /* in the arena; sorted as perf sorts them after finish */
	size_t nr_rows, alloc_rows;
	uint32_t index; /* "Num": position among displayed lines */
	bool shared; /* any HITM or peer access */
	bool displayed; /* passes the 0.1% filter (or --show-all) */
};

struct c2c_class;
struct c2c_workers;

/* The key fields of a row (those not coalesced on stay 0). */
struct c2c_row_key {
	uint64_t offset, iaddr;
	uint32_t pid, tid;
	const char *dso_name;
};

/* A sample waiting its turn, with its keys computed (c2c_model_add). */
struct c2c_pending {
	struct c2c_sample s;
	struct c2c_line_key line_key;
	struct c2c_row_key row_key;
	uint64_t line_hash, row_hash;
};

#define C2C_PENDING 32

/*
 * Lines and rows by the hash of their key: open addressing over the
 * hashes themselves (already mixed), one cache line per probe; objects
 * with equal hashes take separate slots.
 */
struct c2c_slot {
	uint64_t hash;
	void *obj; /* NULL: empty */
};

struct c2c_table {
	struct c2c_slot *slots;
	size_t nr, cap; /* cap: a power of two */
};

struct c2c_model {
	struct c2c_model_opts opts;
	struct arena arena; /* rows (and row arrays) live here */
	struct arena line_arena; /* and lines here */
	uint64_t line_size;
	uint32_t key_mask; /* 1 << each enum c2c_key of opts.keys */
	struct c2c_stats totals;
	struct c2c_stats shared_totals;
	uint32_t nr_shared;
	struct c2c_table lines_tab, rows_tab;
	struct c2c_class *classes; /* decoded data sources, by data_src */
	struct c2c_line **lines; /* all lines; sorted after finish */
	size_t nr_lines, alloc_lines;
	size_t nr_displayed;
	bool finished;
	bool summed; /* lines and totals summed (on the worker threads) */
	struct c2c_line *last_line; /* cache: samples often hit the same line */
	uint64_t warned_no_cpu;
	uint64_t unknown_node; /* samples whose physical address has no node */
	struct c2c_pending pending[C2C_PENDING];
	uint64_t pending_head, pending_tail;
};

/* The node bits of a group, behind its cpu bits. */
static inline uint64_t *c2c_group_nodeset(const struct c2c_model *m, const struct c2c_group *g)
{
	return g->cpuset + (m->opts.nr_cpus + 63) / 64 + 1;
}

/* A row's counters per node of the sampling cpu (opts.node_stats), else NULL. */
static inline struct c2c_stats *c2c_row_node_stats(const struct c2c_model *m,
						   const struct c2c_row *r)
{
	return m->opts.node_stats ? (struct c2c_stats *)(uintptr_t)(r + 1) : NULL;
}

struct c2c_model *c2c_model_new(const struct c2c_model_opts *opts);
void c2c_model_free(struct c2c_model *m);
void c2c_model_add(struct c2c_model *m, const struct c2c_sample *s);
/* The hash that picks a sample's aggregation thread (same line, same thread). */
uint64_t c2c_model_shard(const struct c2c_model *m, const struct c2c_sample *s);
/*
 * Finish the samples still queued inside (c2c_model_finish does it too);
 * with threads, wait for them and gather their lines.
 */
void c2c_model_drain(struct c2c_model *m);
/* Lines' counters from their rows (part of c2c_model_finish). */
void c2c_model_sum_lines(struct c2c_model *m);
/* Line sums, shared-line totals, sort, 0.1% filter, line numbers, row order. */
void c2c_model_finish(struct c2c_model *m);
/*
 * Sort, filter and number the lines of a finished model again for another
 * display metric, as c2c_model_finish would have with opts.display set to
 * it (report -d). Rows' attributions stay; rows of lines shown only now
 * carry no mapping label (c2c_attrib_session labels the shown rows).
 */
void c2c_model_resort(struct c2c_model *m, enum c2c_display display);
/*
 * Order l's rows and mark the valid ones as c2c_model_finish does for the
 * displayed lines (only those: the others' rows are left as they came),
 * for a view that shows a line the table does not (Store Contention).
 */
void c2c_model_order_rows(struct c2c_model *m, struct c2c_line *l);

/* Aggregation threads (c2c_workers.c). */
struct c2c_workers *c2c_workers_new(const struct c2c_model_opts *opts);
/* A sample to the worker of hash, a function of its line key alone. */
void c2c_workers_add(struct c2c_workers *ws, uint64_t hash, const struct c2c_sample *s);
void c2c_workers_finish(struct c2c_workers *ws, struct c2c_model *m);
/* Move the lines and counters of sub (drained, not finished) into m; frees sub. */
void c2c_model_absorb(struct c2c_model *m, struct c2c_model *sub);

/* The display metric of a set of counters (tot/rmt/lcl HITM or peer). */
uint32_t c2c_metric(const struct c2c_stats *st, enum c2c_display d);
size_t c2c_group_cpu_count(const struct c2c_model *m, const struct c2c_group *g);
/* Nodes of the sampled cpus of g, ascending; returns how many. */
size_t c2c_group_cpu_nodes(const struct c2c_model *m, const struct c2c_group *g, uint32_t *nodes,
			   size_t max);
double c2c_mean_value(const struct c2c_mean *mean);

/* Parse "-d" and "-c" values; -EINVAL on a bad word. */
int c2c_parse_display(const char *s, enum c2c_display *out);
int c2c_parse_keys(const char *s, struct c2c_model_opts *opts);
const char *c2c_display_name(enum c2c_display d); /* "Total HITMs" ... */

#endif
