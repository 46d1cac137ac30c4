// SPDX-License-Identifier: GPL-2.0
/*
 * Layout analysis: holes, padding, cache lines, forced alignments and
 * cache-line groups of one struct, with pahole 1.24's definitions (see
 * dwarves.c: class__find_holes, class__infer_packed_attributes).
 */
#include "layout/layout_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void layout_member_geometry(const struct type_member *m, uint64_t *offset, uint64_t *size,
			    uint32_t *bitfield_offset)
{
	uint64_t unit = type_size(m->type);

	*size = unit;
	*bitfield_offset = 0;
	*offset = m->offset;
	if (m->bit_size == 0 || unit == 0)
		return;
	/* pahole aligns a bitfield on its storage unit's natural boundary. */
	*offset = m->bit_offset / (unit * 8) * unit;
	*bitfield_offset = (uint32_t)(m->bit_offset - *offset * 8);
}

struct hole_state {
	uint64_t cur_bitfield_end, cur_bitfield_size, last_seen_bit;
	bool in_bitfield;
};

/* One step of class__find_holes: the holes that precede member m. */
static void holes_before(struct hole_state *s, const struct type_member *m, int64_t *byte_holes,
			 int64_t *bit_holes)
{
	uint64_t offset, size, bit_start, bit_end;
	uint32_t bf_off;

	layout_member_geometry(m, &offset, &size, &bf_off);
	bit_start = m->bit_size ? m->bit_offset : offset * 8;
	bit_end = bit_start + (m->bit_size ? m->bit_size : size * 8);
	*bit_holes = 0;
	*byte_holes = 0;
	if (s->in_bitfield) {
		uint64_t bitfield_end = bit_start < s->cur_bitfield_end ? bit_start :
									  s->cur_bitfield_end;

		*bit_holes = (int64_t)bitfield_end - (int64_t)s->last_seen_bit;
		s->last_seen_bit = bitfield_end;
	}
	if (m->bit_size) {
		uint64_t aligned_start = offset * 8;

		if (s->last_seen_bit < aligned_start && aligned_start <= bit_start) {
			*byte_holes = (int64_t)offset - (int64_t)(s->last_seen_bit / 8);
			s->last_seen_bit = aligned_start;
		}
		*bit_holes += (int64_t)bit_start - (int64_t)s->last_seen_bit;
	} else {
		*byte_holes = (int64_t)(bit_start / 8) - (int64_t)(s->last_seen_bit / 8);
	}
	s->last_seen_bit = bit_end;
	if (m->bit_size) {
		s->in_bitfield = true;
		if (bit_end > s->cur_bitfield_end || size * 8 > s->cur_bitfield_size) {
			s->cur_bitfield_size = size * 8;
			s->cur_bitfield_end = offset * 8 + s->cur_bitfield_size;
			if (bit_end > s->cur_bitfield_end)
				s->cur_bitfield_end += s->cur_bitfield_size;
		}
	} else {
		s->in_bitfield = false;
		s->cur_bitfield_size = 0;
		s->cur_bitfield_end = bit_end;
	}
	/* Overlapping members (bad input) make no hole, not a huge one. */
	if (*byte_holes < 0)
		*byte_holes = 0;
	if (*bit_holes < 0)
		*bit_holes = 0;
}

void layout_find_holes(const struct type *t, struct layout_member *members,
		       struct layout_summary *sum)
{
	struct hole_state s = { 0 };
	int64_t byte_holes, bit_holes;
	uint64_t size;
	uint32_t i;

	t = type_strip(t);
	sum->nr_holes = sum->nr_bit_holes = 0;
	sum->sum_holes = sum->sum_bit_holes = 0;
	sum->pre_hole = sum->pre_bit_hole = 0;
	sum->padding = sum->bit_padding = 0;
	if (!t || t->kind != TYPE_STRUCT)
		return;
	size = t->size;
	s.cur_bitfield_end = size * 8;
	for (i = 0; i < t->nr_members; i++) {
		holes_before(&s, &t->members[i], &byte_holes, &bit_holes);
		if (i == 0) {
			sum->pre_hole = (uint64_t)byte_holes;
			sum->pre_bit_hole = (uint32_t)bit_holes;
		} else if (members) {
			members[i - 1].hole = (uint64_t)byte_holes;
			members[i - 1].bit_hole = (uint32_t)bit_holes;
		}
		sum->nr_bit_holes += bit_holes != 0;
		sum->nr_holes += byte_holes != 0;
		sum->sum_holes += (uint64_t)byte_holes;
		sum->sum_bit_holes += (uint64_t)bit_holes;
	}
	if (s.in_bitfield) {
		uint64_t end = size * 8 < s.cur_bitfield_end ? size * 8 : s.cur_bitfield_end;

		sum->bit_padding = end > s.last_seen_bit ? (uint32_t)(end - s.last_seen_bit) : 0;
		s.last_seen_bit = end;
	}
	sum->padding = size > s.last_seen_bit / 8 ? size - s.last_seen_bit / 8 : 0;
}

uint64_t layout_struct_padding(const struct type *t)
{
	struct layout_summary sum;

	if (!t || t->kind != TYPE_STRUCT)
		return 0;
	layout_find_holes(t, NULL, &sum);
	return sum.padding;
}

bool layout_infer_packed(const struct type *t)
{
	struct layout_summary sum;
	uint32_t max_align = 1, i;

	t = type_strip(t);
	if (!t || t->kind != TYPE_STRUCT)
		return false;
	layout_find_holes(t, NULL, &sum);
	if (sum.padding != 0 || sum.nr_holes != 0)
		return false;
	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		uint32_t a = type_natural_alignment(m->type), bf;
		uint64_t offset, size;

		if (a == 1)
			continue;
		if (a > max_align)
			max_align = a;
		layout_member_geometry(m, &offset, &size, &bf);
		if (offset % a)
			return true;
	}
	return (max_align != 1 && t->alignment == 1) || t->size % max_align != 0;
}

static uint32_t cacheline_of(uint64_t offset, unsigned int cl)
{
	return (uint32_t)(offset / cl);
}

static void fill_member(struct layout *l, uint32_t i)
{
	const struct type_member *m = &l->type->members[i];
	struct layout_member *lm = &l->members[i];
	unsigned int cl = l->cacheline_size;

	lm->member = m;
	lm->name = m->name;
	layout_member_geometry(m, &lm->offset, &lm->size, &lm->bitfield_offset);
	lm->bit_offset = m->bit_size ? m->bit_offset : lm->offset * 8;
	lm->bit_size = m->bit_size;
	lm->alignment = type_alignment(m->type);
	lm->forced_alignment = m->alignment;
	lm->cacheline = cacheline_of(lm->offset, cl);
	lm->last_cacheline = lm->size ? cacheline_of(lm->offset + lm->size - 1, cl) : lm->cacheline;
	/* pahole looks at the member's type itself: typedefs don't count. */
	if (m->type && m->type->kind == TYPE_STRUCT)
		lm->struct_padding = layout_struct_padding(m->type);
}

static void sum_members(struct layout *l)
{
	struct layout_summary *s = &l->sum;
	uint32_t i;

	for (i = 0; i < s->nr_members; i++) {
		struct layout_member *lm = &l->members[i];

		if (lm->bit_size)
			s->sum_bits += lm->bit_size;
		else
			s->sum_bytes += lm->size;
		if (lm->struct_padding) {
			s->nr_paddings++;
			s->sum_paddings += lm->struct_padding;
		}
		if (lm->forced_alignment) {
			uint64_t before = i ? l->members[i - 1].hole : s->pre_hole;

			s->nr_forced_alignments++;
			if (before) {
				lm->forced_hole = true;
				s->nr_forced_holes++;
				s->sum_forced_holes += before;
			}
		}
	}
}

static void add_group(struct layout *l, const struct type_group *tg, uint32_t *alloc)
{
	unsigned int cl = l->cacheline_size;
	struct layout_group *g;

	if (l->nr_groups == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 4;
		l->groups = xrealloc(l->groups, *alloc * sizeof(*l->groups));
	}
	g = &l->groups[l->nr_groups++];
	memset(g, 0, sizeof(*g));
	g->name = tg->name;
	g->first_member = (uint32_t)tg->begin;
	g->end_member = (uint32_t)tg->end;
	g->start = tg->start;
	g->end = tg->stop;
	g->bytes_used = type_group_bytes_used(l->type, tg);
	g->first_line = g->last_line = cacheline_of(g->start, cl);
	if (g->end > g->start) {
		g->last_line = cacheline_of(g->end - 1, cl);
		g->nr_lines = g->last_line - g->first_line + 1;
	}
}

/* The well-formed groups (one begin, then one end: type_group_ok). */
static void find_groups(struct layout *l)
{
	struct type_group *tg;
	size_t n = type_find_groups(l->type, &tg), i;
	uint32_t alloc = 0;

	for (i = 0; i < n; i++)
		if (type_group_ok(&tg[i]))
			add_group(l, &tg[i], &alloc);
	free(tg);
}

int layout_analyze(const struct type *t, unsigned int cacheline_size, struct layout **out,
		   struct err_msg *err)
{
	const struct type *st = type_strip(t);
	struct layout *l;
	uint32_t i, cl = cacheline_size ? cacheline_size : 64;

	*out = NULL;
	if (!st || (st->kind != TYPE_STRUCT && st->kind != TYPE_UNION))
		return err_set(err, EINVAL, "%s is not a struct or union",
			       t && t->name ? t->name : "type");
	l = xcalloc(1, sizeof(*l));
	l->type = st;
	l->cacheline_size = cl;
	l->sum.size = st->size;
	l->sum.alignment = type_alignment(st);
	l->sum.nr_members = st->nr_members;
	l->sum.nr_cachelines = (uint32_t)((st->size + cl - 1) / cl);
	l->sum.last_cacheline = (uint32_t)(st->size % cl);
	l->members = xcalloc(st->nr_members ? st->nr_members : 1, sizeof(*l->members));
	for (i = 0; i < st->nr_members; i++)
		fill_member(l, i);
	layout_find_holes(st, l->members, &l->sum);
	sum_members(l);
	l->sum.packed = layout_infer_packed(st);
	find_groups(l);
	*out = l;
	return 0;
}

void layout_free(struct layout *l)
{
	if (!l)
		return;
	free(l->members);
	free(l->groups);
	free(l);
}

const struct type *layout_type(const struct layout *l)
{
	return l->type;
}

unsigned int layout_cacheline_size(const struct layout *l)
{
	return l->cacheline_size;
}

const struct layout_summary *layout_summary(const struct layout *l)
{
	return &l->sum;
}

uint32_t layout_nr_members(const struct layout *l)
{
	return l->sum.nr_members;
}

const struct layout_member *layout_member(const struct layout *l, uint32_t i)
{
	return i < l->sum.nr_members ? &l->members[i] : NULL;
}

int layout_find_member(const struct layout *l, const char *name)
{
	uint32_t i;

	for (i = 0; i < l->sum.nr_members; i++)
		if (l->members[i].name && !strcmp(l->members[i].name, name))
			return (int)i;
	return -1;
}

const struct layout_group *layout_groups(const struct layout *l, uint32_t *nr)
{
	*nr = l->nr_groups;
	return l->groups;
}

void layout_lines_range(struct layout_print_opts *o, unsigned int cacheline_size, uint32_t first,
			uint32_t last)
{
	unsigned int cl = cacheline_size ? cacheline_size : 64;

	o->range_start = (uint64_t)first * cl;
	o->range_end = ((uint64_t)last + 1) * cl;
}
