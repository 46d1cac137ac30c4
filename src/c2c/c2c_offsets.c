// SPDX-License-Identifier: GPL-2.0
/*
 * Per-offset and per-object views of one line, for pictures of it (the
 * HTML heatmap): what the line's shown rows add up to at each byte offset,
 * and which objects (a struct type at a start) those rows land in.
 */
#include <stdlib.h>
#include <string.h>

#include "c2c/c2c_attrib.h"
#include "c2c/c2c_view.h"
#include "util/bitmap.h"
#include "util/xalloc.h"

void c2c_view_line_offsets(const struct c2c_model *m, const struct c2c_line *l,
			   struct c2c_line_offsets *o)
{
	size_t words = bitmap_words(m->opts.nr_cpus), i;

	if (!o->at || o->line_size != m->line_size || o->words != words) {
		c2c_line_offsets_release(o);
		o->line_size = m->line_size;
		o->words = words;
		o->at = xcalloc(o->line_size, sizeof(*o->at));
		o->cpus = xcalloc(o->line_size * words, sizeof(*o->cpus));
	}
	memset(o->at, 0, o->line_size * sizeof(*o->at));
	memset(o->cpus, 0, o->line_size * words * sizeof(*o->cpus));
	for (i = 0; i < o->line_size; i++)
		o->at[i].cpus = o->cpus + i * words;
	for (i = 0; i < l->nr_rows; i++) {
		const struct c2c_row *r = l->rows[i];
		uint64_t off = r->offset_shown & (o->line_size - 1);
		struct c2c_offset_view *v = &o->at[off];

		if (!r->valid)
			continue;
		c2c_stats_add(&v->stats, &r->g.stats);
		if (v->nr_sites < C2C_OFFSET_SITES)
			v->rows[v->nr_sites++] = r;
		v->nr_rows++;
		bitmap_or(o->cpus + off * words, r->g.cpuset, words);
	}
}

void c2c_line_offsets_release(struct c2c_line_offsets *o)
{
	free(o->at);
	free(o->cpus);
	memset(o, 0, sizeof(*o));
}

/* Whether o's bytes overlap those of one of the n objects. */
static bool overlaps(const struct c2c_line_object *objs, size_t n, const struct c2c_line_object *o)
{
	int64_t a = o->start, e = a + (int64_t)type_size(o->type);
	size_t k;

	for (k = 0; k < n; k++) {
		int64_t ka = objs[k].start, ke = ka + (int64_t)type_size(objs[k].type);

		if (a < ke && ka < e)
			return true;
	}
	return false;
}

static int cmp_hotter(const void *pa, const void *pb)
{
	const struct c2c_line_object *a = pa, *b = pb;

	if (a->hitm != b->hitm)
		return a->hitm > b->hitm ? -1 : 1;
	if (a->records != b->records)
		return a->records > b->records ? -1 : 1;
	return 0;
}

/* Row r's object in the line, added to (or summed into) the candidates. */
static size_t add_candidate(struct c2c_line_object *c, size_t n, const struct c2c_row *r,
			    const struct attrib_result *res, uint64_t line_size)
{
	int64_t start = (int64_t)(r->offset_shown & (line_size - 1)) - (int64_t)res->outer_offset;
	size_t k;

	for (k = 0; k < n; k++)
		if (c[k].type == res->outer_type && c[k].start == start)
			break;
	if (k == n)
		c[n++] = (struct c2c_line_object){ .type = res->outer_type, .start = start };
	c[k].hitm += r->g.stats.tot_hitm;
	c[k].records += r->g.stats.nr_entries;
	return n;
}

size_t c2c_view_line_objects(struct c2c_session *s, const struct c2c_line *l,
			     struct c2c_line_object *objs, size_t max)
{
	struct c2c_line_object *cand = xcalloc(4 * max + 1, sizeof(*cand));
	size_t i, nc = 0, n = 0;

	for (i = 0; s->attrib && i < l->nr_rows && nc < 4 * max; i++) {
		const struct c2c_row *r = l->rows[i];
		const struct attrib_result *res;

		if (r->valid && (res = c2c_attrib_row(s->attrib, r)->res) && res->outer_type)
			nc = add_candidate(cand, nc, r, res, s->model->line_size);
	}
	qsort(cand, nc, sizeof(*cand), cmp_hotter);
	for (i = 0; i < nc && n < max; i++)
		if (!overlaps(objs, n, &cand[i]))
			objs[n++] = cand[i];
	free(cand);
	return n;
}
