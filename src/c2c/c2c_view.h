/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cells of the two c2c tables (lines, and rows of a line's Pareto) as
 * text, in perf's column order and number formats; shared by the text
 * report and the TUI.
 */
#ifndef C2C_C2C_VIEW_H
#define C2C_C2C_VIEW_H

#include "c2c/c2c_session.h"
#include "fmt/table.h"
#include "util/strbuf.h"

struct type;

#define C2C_VIEW_MAX_CELLS 32
#define C2C_SYMBOL_WIDTH 30 /* perf's SYMBOL_WIDTH without --full-symbols */

struct c2c_line_view {
	struct strbuf cells[C2C_VIEW_MAX_CELLS];
	size_t nr;
};

void c2c_view_line_columns(struct table *t, bool peer);
void c2c_view_line(const struct c2c_model *m, const struct c2c_line *l, struct c2c_line_view *v);
/* A row's columns, perf's; the offset (its "Data address") is column 5. */
#define C2C_VIEW_OFFSET_COLUMN 5
void c2c_view_row_columns(const struct c2c_model *m, struct table *t);
void c2c_view_row(struct c2c_session *s, const struct c2c_row *r, struct c2c_line_view *v);
void c2c_view_line_release(struct c2c_line_view *v);

/* "offset,iaddr": perf's "Cacheline data grouping". */
void c2c_view_grouping(const struct c2c_model *m, struct strbuf *out);
/* Nodes of the physical addresses, "0-1,3", or "N/A" (perf's nodestr). */
void c2c_view_nodeset(const struct c2c_model *m, const struct c2c_group *g, struct strbuf *out);
/* Share of the display metric of st among all samples (perf's "Hitm %"). */
double c2c_view_costly_percent(const struct c2c_model *m, const struct c2c_stats *st,
			       const struct c2c_stats *total);
double c2c_view_percent(uint32_t part, uint32_t total);
/* The counter of s at offset, an offsetof(struct c2c_stats, ...): for tables of columns. */
static inline uint32_t c2c_stat_at(const struct c2c_stats *s, size_t offset)
{
	return *(const uint32_t *)((const char *)s + offset);
}
/* "[.] name" or "[.] 0x..." with perf's 30-column cut unless full. */
void c2c_view_symbol(const struct sym_info *si, bool kernel, bool full, struct strbuf *out);
bool c2c_view_has_key(const struct c2c_model *m, enum c2c_key key);
/* Set bits of an n-bit set as ranges, "0-3,5", or "none". */
void c2c_view_bits(const uint64_t *bits, uint32_t n, struct strbuf *out);

/*
 * The report's two tables as the text prints them (c2c_text.c), for any
 * renderer (the TUI, the HTML page): the Shared Data Cache Line Table (one
 * row per displayed line, in order; "Objects" last when rows are
 * attributed) and a line's Pareto (one row per valid row, in order;
 * "Field" last when attributed, or with field_by_offset right after
 * "Offset", in its "Data address" group, where a narrow screen shows it).
 * The caller frees them (table_free).
 */
struct table *c2c_view_lines_table(struct c2c_session *s);
struct table *c2c_view_pareto_table(struct c2c_session *s, const struct c2c_line *l,
				    bool field_by_offset);
/* "Line 0  0x...  HITM: rmt 1 lcl 2  Store refs: L1 hit 3, L1 miss 4, N/A 0" */
void c2c_view_line_title(const struct c2c_model *m, const struct c2c_line *l, struct strbuf *out);

/*
 * Who writes and who reads a line, over all its rows: the sampled cpus and
 * the functions (with iaddr rows) of the rows that write (c2c_writes:
 * locked RMWs included) and of those that load, functions in row order,
 * each once. stores counts the writes.
 */
struct c2c_line_access {
	uint64_t *writer_cpus, *reader_cpus; /* nr_cpus bits each */
	const char **writers, **readers;
	size_t nr_writers, nr_readers;
	uint64_t stores, loads;
};
void c2c_line_access_build(struct c2c_session *s, const struct c2c_line *l,
			   struct c2c_line_access *a);
void c2c_line_access_release(struct c2c_line_access *a);
/* "Writers: cpus 0,2 (fa, fb)  Readers: cpus 1,3 (fc)" */
void c2c_view_line_access(struct c2c_session *s, const struct c2c_line *l, struct strbuf *out);

/*
 * Store contention (c2c_contention.c), c2cscope's own and outside perf's
 * tables: the lines perf does not count as shared (no load HITM or peer
 * hit) that more than one cpu writes and whose stores miss L1 (RFO
 * ping-pong), most L1-missing stores first; without show_all only those
 * with at least 0.1% of all the file's L1-missing stores, as the Shared
 * Data Cache Line Table filters. *out: free() it.
 */
struct c2c_store_line {
	const struct c2c_line *line;
	uint64_t writes; /* c2c_writes */
	uint64_t l1_miss; /* st_l1miss */
	uint32_t nr_cpus; /* the cpus that write it */
};
size_t c2c_store_contention(struct c2c_session *s, struct c2c_store_line **out);
/* The fields the writing rows name, "pair.a, pair.b" (nothing unattributed). */
void c2c_store_line_fields(const struct c2c_session *s, const struct c2c_line *l,
			   struct strbuf *out);
/*
 * Why the section is there, in the text report's lines (the HTML report
 * joins them with spaces): C2C_STORE_NOTE_LINES of them.
 */
#define C2C_STORE_NOTE_LINES 3
extern const char *const c2c_store_note[C2C_STORE_NOTE_LINES];
/* The section's table: Num, Address, Writes, L1Miss, Loads, Cpus, Writers, Fields. */
struct table *c2c_view_store_table(struct c2c_session *s, const struct c2c_store_line *v, size_t n);

/*
 * A line's shown Pareto rows (valid ones) per byte offset of the line
 * (their offset_shown), c2c_offsets.c: what a heatmap cell of that offset
 * shows. c2c_view_line_offsets fills o->at[0 .. line_size) (reusing o's
 * memory from line to line; start from a zeroed o, release it once).
 */
#define C2C_OFFSET_SITES 6
struct c2c_offset_view {
	struct c2c_stats stats; /* the rows' counters added up */
	size_t nr_rows; /* 0 where no row starts */
	const struct c2c_row *rows[C2C_OFFSET_SITES]; /* the first rows, in row order */
	size_t nr_sites;
	const uint64_t *cpus; /* the cpus sampled at those rows (nr_cpus bits) */
};
struct c2c_line_offsets {
	struct c2c_offset_view *at;
	uint64_t line_size;
	uint64_t *cpus;
	size_t words;
};
void c2c_view_line_offsets(const struct c2c_model *m, const struct c2c_line *l,
			   struct c2c_line_offsets *o);
void c2c_line_offsets_release(struct c2c_line_offsets *o);

/*
 * The objects a line's attributed rows land in (a struct type at a start,
 * in bytes from the line's start, below 0 when it starts on an earlier
 * line), hottest first (HITMs, then records), at most max; an object that
 * overlaps a hotter one (another reading of the same bytes, such as an
 * allocator's chunk header) is left out. None without attribution.
 */
struct c2c_line_object {
	const struct type *type;
	int64_t start;
	uint64_t hitm, records; /* of its rows */
};
size_t c2c_view_line_objects(struct c2c_session *s, const struct c2c_line *l,
			     struct c2c_line_object *objs, size_t max);

#endif
