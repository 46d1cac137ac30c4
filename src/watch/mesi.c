// SPDX-License-Identifier: GPL-2.0
/*
 * A MESI replay of each watched cache line: the hits in time order, each
 * cpu's copy of the line Modified, Exclusive, Shared or Invalid. A read or
 * write that finds the line Modified in another cpu's cache is a transfer
 * of a dirty line, what a PMU would report as a HITM; the pair (field
 * accessed, field whose write left the line dirty) says who causes it.
 * Only the watched fields' accesses are seen: other data on the line, and
 * evictions, are not modelled. Each access also gets the class a PMU
 * would have given it (a mem_src code, as c2csim's), which --record writes as its
 * data source, so that c2cscope report and layout --profile read a watch
 * like a c2c recording.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "perf/mem_src.h"
#include "util/xalloc.h"
#include "watch/watch_int.h"

#define LINE_SIZE 64

enum mesi { MESI_I, MESI_S, MESI_E, MESI_M };

struct line_state {
	uint8_t *st; /* per cpu */
	uint32_t nr_cpus;
	int64_t owner; /* the cpu holding it Modified or Exclusive, -1: none */
	size_t last_writer;
	struct watch_line *out;
	size_t alloc_pairs;
};

static void count_pair(struct line_state *ls, size_t field)
{
	struct watch_pair *p = (struct watch_pair *)ls->out->pairs;
	size_t i;

	ls->out->replayed_hitm++;
	for (i = 0; i < ls->out->nr_pairs; i++)
		if (p[i].field == field && p[i].writer == ls->last_writer) {
			p[i].hitm++;
			return;
		}
	p = xgrow(p, &ls->alloc_pairs, ls->out->nr_pairs + 1, sizeof(*p));
	p[ls->out->nr_pairs++] =
		(struct watch_pair){ .field = field, .writer = ls->last_writer, .hitm = 1 };
	ls->out->pairs = p;
}

/* What a PMU would say of the access: mem_src's classes (one node). */
static uint8_t classify(const struct line_state *ls, uint32_t cpu, bool write, bool dirty)
{
	bool mine = write ? ls->st[cpu] == MESI_M || ls->st[cpu] == MESI_E : ls->st[cpu] != MESI_I;
	uint32_t c;

	if (mine)
		return MEM_SRC_CLS_L1;
	if (dirty)
		return MEM_SRC_CLS_LCL_HITM;
	for (c = 0; c < ls->nr_cpus; c++)
		if (c != cpu && ls->st[c] != MESI_I)
			return MEM_SRC_CLS_LCL_PEER;
	return MEM_SRC_CLS_LCL_DRAM;
}

static void replay_read(struct line_state *ls, uint32_t cpu, size_t field, bool dirty)
{
	uint32_t c;

	if (ls->st[cpu] != MESI_I)
		return;
	if (dirty)
		count_pair(ls, field);
	if (ls->owner >= 0 && ls->owner != cpu) {
		ls->st[ls->owner] = MESI_S;
		ls->owner = -1;
	}
	for (c = 0; c < ls->nr_cpus && ls->st[cpu] == MESI_I; c++)
		if (c != cpu && ls->st[c] != MESI_I)
			ls->st[cpu] = MESI_S;
	if (ls->st[cpu] == MESI_I) {
		ls->st[cpu] = MESI_E;
		ls->owner = cpu;
	}
}

static void replay_write(struct line_state *ls, uint32_t cpu, size_t field, bool dirty)
{
	if (ls->st[cpu] != MESI_M) {
		if (dirty)
			count_pair(ls, field);
		memset(ls->st, MESI_I, ls->nr_cpus);
		ls->st[cpu] = MESI_M;
		ls->owner = cpu;
	}
	ls->last_writer = field;
}

/*
 * One access; returns its mem_src code for --record. A read-modify-write
 * moves the line as a write and is recorded as a locked load, as c2csim
 * records atomics.
 */
static uint8_t replay_one(struct line_state *ls, const struct watch_access *a)
{
	bool rmw = a->access == ATTRIB_ACCESS_RMW;
	bool write = rmw || a->access == ATTRIB_ACCESS_WRITE;
	bool dirty = ls->owner >= 0 && ls->owner != a->cpu && ls->st[ls->owner] == MESI_M;
	uint8_t code = classify(ls, a->cpu, write, dirty);

	ls->out->accesses++;
	if (write)
		replay_write(ls, a->cpu, a->field, dirty);
	else
		replay_read(ls, a->cpu, a->field, dirty);
	if (rmw)
		return code | MEM_SRC_CODE_LOCKED;
	return write ? code | MEM_SRC_CODE_STORE : code;
}

static int by_hitm(const void *x, const void *y)
{
	const struct watch_pair *a = x, *b = y;

	return a->hitm != b->hitm ? (a->hitm > b->hitm ? -1 : 1) : 0;
}

static void replay_line(struct watch *w, uint64_t line, uint32_t nr_cpus, struct watch_line *out)
{
	struct line_state ls = { .nr_cpus = nr_cpus, .owner = -1, .out = out };
	size_t i;

	ls.st = xcalloc(nr_cpus, 1);
	out->addr = line;
	for (i = 0; i < w->nr_acc; i++) {
		struct watch_access *a = &w->acc[i];

		if (w->fields[a->field].pub.bp_addr / LINE_SIZE * LINE_SIZE != line)
			continue;
		a->code = replay_one(&ls, a);
	}
	if (out->nr_pairs)
		qsort((void *)out->pairs, out->nr_pairs, sizeof(*out->pairs), by_hitm);
	free(ls.st);
}

void watch_replay(struct watch *w)
{
	uint32_t nr_cpus = 1;
	size_t i, j;

	for (i = 0; i < w->nr_acc; i++)
		if (w->acc[i].cpu + 1 > nr_cpus)
			nr_cpus = w->acc[i].cpu + 1;
	w->lines = xcalloc(w->nr_fields ? w->nr_fields : 1, sizeof(*w->lines));
	for (i = 0; i < w->nr_fields; i++) {
		uint64_t line = w->fields[i].pub.bp_addr / LINE_SIZE * LINE_SIZE;

		for (j = 0; j < w->sum.nr_lines && w->lines[j].addr != line; j++)
			;
		if (j < w->sum.nr_lines)
			continue;
		replay_line(w, line, nr_cpus, &w->lines[w->sum.nr_lines++]);
		w->sum.replayed_hitm += w->lines[w->sum.nr_lines - 1].replayed_hitm;
	}
	w->sum.lines = w->lines;
}
