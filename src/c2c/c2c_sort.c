// SPDX-License-Identifier: GPL-2.0
/*
 * perf c2c's resort: shared-line totals, lines by the display metric, the
 * 0.1% display filter, line numbers, and each line's rows by offset then
 * metric. perf inserts into rb-trees where equal keys go right, so ties
 * keep the order of the tree they are read from: lines in
 * sort__dcacheline_cmp order, rows in the coalesce-key order. The stable
 * sorts below reproduce exactly that.
 */
#include "c2c/c2c_model.h"
#include "util/bitmap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DISPLAY_LINE_LIMIT 0.001

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* Ascending sort__dcacheline_cmp order (perf's entries_in tree). */
static int line_key_cmp(const struct c2c_line_key *a, const struct c2c_line_key *b)
{
	int c;

	if ((c = cmp_u64(a->cpumode, b->cpumode)))
		return c;
	if (a->mapped != b->mapped)
		return a->mapped ? -1 : 1;
	if (a->mapped) {
		if ((c = cmp_u64(a->maj, b->maj)) || (c = cmp_u64(a->min, b->min)) ||
		    (c = cmp_u64(a->ino, b->ino)) ||
		    (c = cmp_u64(a->ino_generation, b->ino_generation)))
			return c;
		if (a->pid != b->pid)
			return a->pid < b->pid ? -1 : 1;
	}
	return cmp_u64(a->cl, b->cl);
}

static enum c2c_display sort_display; /* qsort has no context argument */
static const struct c2c_model *sort_model;

/* perf's top-level sort keys: tot_hitm, rmt_hitm, lcl_hitm or tot_peer. */
static uint64_t line_sort_value(const struct c2c_stats *st)
{
	if (sort_display == C2C_DISPLAY_TOT)
		return (uint64_t)st->lcl_hitm + st->rmt_hitm;
	return c2c_metric(st, sort_display);
}

static int line_cmp(const void *pa, const void *pb)
{
	const struct c2c_line *a = *(const struct c2c_line *const *)pa;
	const struct c2c_line *b = *(const struct c2c_line *const *)pb;
	uint64_t va = line_sort_value(&a->g.stats), vb = line_sort_value(&b->g.stats);

	if (va != vb)
		return va > vb ? -1 : 1;
	return line_key_cmp(&a->key, &b->key);
}

/* The coalesce keys in the user's order (perf's cl_sort after "offset"). */
static int row_key_cmp(const struct c2c_row *a, const struct c2c_row *b)
{
	size_t i;
	int c;

	if ((c = cmp_u64(a->offset, b->offset)))
		return c;
	for (i = 0; i < sort_model->opts.nr_keys; i++) {
		switch (sort_model->opts.keys[i]) {
		case C2C_KEY_TID:
			c = cmp_u64(a->tid, b->tid);
			break;
		case C2C_KEY_PID: /* pid_cmp() sorts the other way round */
			c = cmp_u64(b->pid, a->pid);
			break;
		case C2C_KEY_IADDR: /* sort__iaddr_cmp(): a signed difference */
			c = a->iaddr == b->iaddr ? 0 : (int64_t)(b->iaddr - a->iaddr) > 0 ? -1 : 1;
			break;
		case C2C_KEY_DSO:
			if (!a->dso_name || !b->dso_name)
				c = a->dso_name == b->dso_name ? 0 : a->dso_name ? -1 : 1;
			else
				c = strcmp(a->dso_name, b->dso_name);
			break;
		}
		if (c)
			return c;
	}
	return 0;
}

static int row_metric_cmp(const struct c2c_stats *a, const struct c2c_stats *b)
{
	switch (sort_display) {
	case C2C_DISPLAY_RMT:
		if (a->rmt_hitm != b->rmt_hitm)
			return a->rmt_hitm > b->rmt_hitm ? -1 : 1;
		return a->lcl_hitm == b->lcl_hitm ? 0 : a->lcl_hitm > b->lcl_hitm ? -1 : 1;
	case C2C_DISPLAY_LCL:
		if (a->lcl_hitm != b->lcl_hitm)
			return a->lcl_hitm > b->lcl_hitm ? -1 : 1;
		return a->rmt_hitm == b->rmt_hitm ? 0 : a->rmt_hitm > b->rmt_hitm ? -1 : 1;
	default: {
		uint32_t va = c2c_metric(a, sort_display), vb = c2c_metric(b, sort_display);

		return va == vb ? 0 : va > vb ? -1 : 1;
	}
	}
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct c2c_row *a = *(const struct c2c_row *const *)pa;
	const struct c2c_row *b = *(const struct c2c_row *const *)pb;
	int c;

	if ((c = cmp_u64(a->offset, b->offset)))
		return c;
	if ((c = row_metric_cmp(&a->g.stats, &b->g.stats)))
		return c;
	return row_key_cmp(a, b);
}

static bool row_valid(const struct c2c_row *r, enum c2c_display d)
{
	return r->g.stats.store || c2c_metric(&r->g.stats, d);
}

static bool line_passes(const struct c2c_model *m, const struct c2c_line *l)
{
	uint32_t sum = c2c_metric(&m->shared_totals, m->opts.display);
	uint32_t val = c2c_metric(&l->g.stats, m->opts.display);

	if (m->opts.show_all)
		return true;
	return sum && (double)val / sum >= DISPLAY_LINE_LIMIT;
}

void c2c_model_order_rows(struct c2c_model *m, struct c2c_line *l)
{
	size_t j;

	sort_display = m->opts.display;
	sort_model = m;
	qsort(l->rows, l->nr_rows, sizeof(*l->rows), row_cmp);
	for (j = 0; j < l->nr_rows; j++)
		l->rows[j]->valid = row_valid(l->rows[j], m->opts.display);
}

/* Sort lines by the display metric, filter them, number them, order their rows. */
static void order_lines(struct c2c_model *m)
{
	size_t i;

	sort_display = m->opts.display;
	sort_model = m;
	m->nr_displayed = 0;
	if (m->nr_lines) /* no line: m->lines is NULL, which qsort may not see */
		qsort(m->lines, m->nr_lines, sizeof(*m->lines), line_cmp);
	for (i = 0; i < m->nr_lines; i++) {
		struct c2c_line *l = m->lines[i];

		l->displayed = line_passes(m, l);
		if (!l->displayed)
			continue;
		l->index = (uint32_t)m->nr_displayed++;
		c2c_model_order_rows(m, l);
	}
}

void c2c_model_finish(struct c2c_model *m)
{
	size_t i;

	if (m->finished)
		return;
	c2c_model_drain(m);
	c2c_model_sum_lines(m);
	m->finished = true;
	for (i = 0; i < m->nr_lines; i++) {
		struct c2c_line *l = m->lines[i];
		const struct c2c_stats *st = &l->g.stats;

		l->shared = st->lcl_hitm || st->rmt_hitm || st->lcl_peer || st->rmt_peer;
		if (l->shared) {
			m->nr_shared++;
			c2c_stats_add(&m->shared_totals, st);
		}
	}
	order_lines(m);
}

void c2c_model_resort(struct c2c_model *m, enum c2c_display display)
{
	if (!m->finished)
		c2c_model_finish(m);
	m->opts.display = display;
	order_lines(m);
}

size_t c2c_group_cpu_count(const struct c2c_model *m, const struct c2c_group *g)
{
	size_t i, n = 0;

	for (i = 0; i < (m->opts.nr_cpus + 63) / 64; i++)
		n += (size_t)__builtin_popcountll(g->cpuset[i]);
	return n;
}

size_t c2c_group_cpu_nodes(const struct c2c_model *m, const struct c2c_group *g, uint32_t *nodes,
			   size_t max)
{
	uint64_t seen[4] = { 0 };
	size_t n = 0;
	uint32_t cpu, node;

	if (!m->opts.cpu2node)
		return 0;
	for (cpu = 0; cpu < m->opts.nr_cpus; cpu++) {
		int nd = m->opts.cpu2node[cpu];

		if (nd >= 0 && nd < 256 && bitmap_test(g->cpuset, cpu))
			bitmap_set(seen, (size_t)nd);
	}
	for (node = 0; node < 256 && n < max; node++)
		if (bitmap_test(seen, node))
			nodes[n++] = node;
	return n;
}

int c2c_parse_display(const char *s, enum c2c_display *out)
{
	static const char *const names[] = { "tot", "rmt", "lcl", "peer" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*out = (enum c2c_display)i;
			return 0;
		}
	}
	return -EINVAL;
}

int c2c_parse_keys(const char *s, struct c2c_model_opts *opts)
{
	static const char *const names[] = { "tid", "pid", "iaddr", "dso" };
	const char *p = s;

	opts->nr_keys = 0;
	while (*p) {
		size_t len = strcspn(p, ","), i;
		bool known = len == 6 && !strncmp(p, "offset", 6);

		for (i = 0; !known && i < sizeof(names) / sizeof(names[0]); i++) {
			if (strlen(names[i]) != len || strncmp(p, names[i], len))
				continue;
			known = true;
			if (opts->nr_keys < C2C_MAX_KEYS)
				opts->keys[opts->nr_keys++] = (enum c2c_key)i;
		}
		if (!known)
			return -EINVAL;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

const char *c2c_display_name(enum c2c_display d)
{
	switch (d) {
	case C2C_DISPLAY_RMT:
		return "Remote HITMs";
	case C2C_DISPLAY_LCL:
		return "Local HITMs";
	case C2C_DISPLAY_PEER:
		return "Peer Snoop";
	case C2C_DISPLAY_TOT:
	default:
		return "Total HITMs";
	}
}
