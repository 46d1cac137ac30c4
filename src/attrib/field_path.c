// SPDX-License-Identifier: GPL-2.0
/*
 * From (type, byte offset) to the path of the field at that offset, through
 * nested structs, unions and arrays.
 */
#include <errno.h>

#include "attrib/attrib_int.h"

/* Whether a scalar of exactly size bytes starts at off inside t. */
static bool exact_leaf(const struct type *t, uint64_t off, uint32_t size, int depth)
{
	const struct type_member *m = NULL;

	t = type_strip(t);
	if (!size || !t || depth > 16)
		return false;
	if (t->kind == TYPE_ARRAY) {
		uint64_t es = type_size(t->target);

		return es && exact_leaf(t->target, off % es, size, depth + 1);
	}
	if (!type_is_aggregate(t))
		return off == 0 && t->size == size;
	while ((m = type_member_at(t, off, m, 0)))
		if (!m->bit_size && exact_leaf(m->type, off - m->offset, size, depth + 1))
			return true;
	return false;
}

/*
 * The member holding OFFSET. In unions (and for bitfields sharing a byte)
 * several may: prefer a scalar of the access size starting exactly there.
 */
static const struct type_member *member_at(const struct type *t, uint64_t off, uint32_t size,
					   bool last_is_flexible)
{
	const struct type_member *best = NULL, *m = NULL;

	while ((m = type_member_at(t, off, m, last_is_flexible ? TYPE_AT_FLEX : 0))) {
		uint64_t start, end;

		type_member_extent(m, &start, &end);
		if (!best)
			best = m;
		if (!m->bit_size && t->kind == TYPE_UNION &&
		    exact_leaf(m->type, off - start, size, 0))
			return m;
		if (m->bit_size && start == off && type_size(m->type) == size)
			return m;
		if (t->kind == TYPE_STRUCT && !m->bit_size)
			return best;
	}
	return best;
}

/*
 * The one bitfield of t an access of size bytes at off touches: with bits
 * (the bits of the access its immediate picks, 0: all) the one holding
 * them, else the only one in those bytes; NULL when several are (a load or
 * store of the whole unit, as clang -O0 reads a bitfield's 16 or 32 bits,
 * then shifts: the instruction alone does not say which field it means).
 */
static const struct type_member *one_bitfield(const struct type *t, uint64_t off, uint32_t size,
					      uint64_t bits)
{
	const struct type_member *found = NULL;
	uint32_t i;

	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		uint64_t start, end, b, hit = 0;

		if (!m->bit_size)
			continue;
		type_member_extent(m, &start, &end);
		if (start >= off + size || off >= end)
			continue;
		for (b = m->bit_offset; b < m->bit_offset + m->bit_size; b++)
			if (b >= off * 8 && b < (off + size) * 8 && b - off * 8 < 64)
				hit |= !bits || (bits >> (b - off * 8) & 1);
		if (!hit)
			continue;
		if (found)
			return NULL;
		found = m;
	}
	return found;
}

static void add_name(struct field_walk *w, const char *name)
{
	struct strbuf *sb = w->sb;

	if (sb->len && sb->buf[sb->len - 1] != '>' && sb->buf[sb->len - 1] != '.') {
		strbuf_addch(sb, '.');
		/* The field inside the container starts after the dot. */
		if (w->field_pos == sb->len - 1)
			w->field_pos = sb->len;
	}
	strbuf_addstr(sb, name);
}

static int walk(struct field_walk *w, const struct type *t, uint64_t off, bool top);

static int walk_aggregate(struct field_walk *w, const struct type *t, uint64_t off, bool top)
{
	const struct type_member *m;

	/* The outermost aggregate names the access: "tg.cfs_bandwidth.period". */
	if (!w->container) {
		w->container = t;
		w->container_offset = off;
		w->field_pos = w->sb->len;
	}
	m = member_at(t, off, w->access_size, true);
	if (!m)
		return -ERANGE;
	if (m->bit_size && w->access_size) {
		m = one_bitfield(t, off, w->access_size, w->access_bits);
		if (!m)
			return -EDOM;
	}
	if (m->name)
		add_name(w, m->name);
	return walk(w, m->type, off - m->offset, false);
}

/* Stride of dimension k of an array of elements of elem_size bytes. */
static uint64_t dim_stride(const struct type *t, uint32_t k, uint64_t elem_size)
{
	uint64_t stride = elem_size;
	uint32_t j;

	for (j = k + 1; j < t->nr_dims; j++)
		stride *= t->dims[j] ? t->dims[j] : 1;
	return stride;
}

static int walk_array(struct field_walk *w, const struct type *t, uint64_t off, bool top)
{
	uint64_t elem_size = type_size(t->target);
	uint32_t k, nr_dims = t->nr_dims ? t->nr_dims : 1;

	if (!elem_size)
		return -ERANGE;
	for (k = 0; k < nr_dims; k++) {
		uint64_t stride = dim_stride(t, k, elem_size);
		uint64_t dim = t->nr_dims ? t->dims[k] : 0;
		uint64_t idx = off / stride;

		if (w->index_scale && k == nr_dims - 1 && w->index_scale % stride == 0) {
			/* The index register selects the element: unknown index. */
			strbuf_addstr(w->sb, "[]");
			w->index_scale = 0;
		} else {
			if (dim && idx >= dim)
				return -ERANGE;
			strbuf_addf(w->sb, "[%llu]", (unsigned long long)idx);
		}
		off -= idx * stride;
	}
	return walk(w, t->target, off, false);
}

static int walk(struct field_walk *w, const struct type *t, uint64_t off, bool top)
{
	t = type_strip(t);
	if (!t)
		return -ERANGE;
	switch (t->kind) {
	case TYPE_STRUCT:
	case TYPE_UNION:
		return walk_aggregate(w, t, off, top);
	case TYPE_ARRAY:
		return walk_array(w, t, off, top);
	default:
		if (off >= t->size && !(off == 0 && t->size == 0))
			return -ERANGE;
		if (off)
			strbuf_addf(w->sb, "+%llu", (unsigned long long)off);
		return 0;
	}
}

int attrib_field_walk(struct field_walk *w, const struct type *t, uint64_t offset)
{
	int ret;

	w->container = NULL;
	w->container_offset = 0;
	w->field_pos = w->sb->len;
	ret = walk(w, t, offset, true);
	/* An index register that no array explained leaves the field unknown. */
	if (!ret && w->index_scale)
		ret = -ENOENT;
	return ret;
}

int attrib_field_path(const struct type *t, uint64_t offset, struct strbuf *sb)
{
	struct field_walk w = { .sb = sb };

	return attrib_field_walk(&w, t, offset);
}
