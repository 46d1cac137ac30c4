// SPDX-License-Identifier: GPL-2.0
/*
 * Members, asked the three ways every view asks: which bytes a member
 * covers (type_member_extent, types_rules.c), which members hold a byte
 * offset (type_member_at) and what a path of names and indexes names
 * (type_member_path), with one search order for names: a struct's own
 * members first, then those of its anonymous structs and unions in
 * declaration order, as C makes them visible.
 */
#include "types/types.h"

#include <stdlib.h>
#include <string.h>

void type_member_extent_at(const struct type_member *m, uint64_t bit_offset, uint64_t *start,
			   uint64_t *end)
{
	*start = bit_offset / 8;
	*end = m->bit_size ? (bit_offset + m->bit_size + 7) / 8 : *start + type_size(m->type);
}

void type_extent_lines(uint64_t start, uint64_t end, unsigned int cl, uint64_t *first,
		       uint64_t *last)
{
	*first = start / cl;
	*last = end > start ? (end - 1) / cl : *first;
}

static bool is_flexible_array(const struct type_member *m)
{
	const struct type *t = type_strip(m->type);

	return t && t->kind == TYPE_ARRAY && (t->nr_dims == 0 || t->dims[0] == 0);
}

const struct type_member *type_member_at(const struct type *t, uint64_t off,
					 const struct type_member *prev, unsigned int flags)
{
	uint32_t i;

	t = type_strip(t);
	if (!type_is_aggregate(t))
		return NULL;
	for (i = prev ? (uint32_t)(prev - t->members) + 1 : 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		uint64_t start, end;

		type_member_extent(m, &start, &end);
		if ((flags & TYPE_AT_FLEX) && i == t->nr_members - 1 && is_flexible_array(m))
			end = UINT64_MAX;
		if (off >= start && off < end)
			return m;
	}
	return NULL;
}

static bool is_anonymous_aggregate(const struct type_member *m)
{
	return !m->name && type_is_aggregate(m->type);
}

/* NAME (len bytes) among t's members, then inside its anonymous ones; *base gains their offsets. */
static const struct type_member *find_named(const struct type *t, const char *name, size_t len,
					    uint64_t *base, int depth)
{
	uint32_t i;

	t = type_strip(t);
	if (!type_is_aggregate(t) || depth > 32)
		return NULL;
	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];

		if (m->name && strlen(m->name) == len && !memcmp(m->name, name, len))
			return m;
	}
	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i], *found;
		uint64_t inner = *base + m->offset;

		if (!is_anonymous_aggregate(m))
			continue;
		found = find_named(m->type, name, len, &inner, depth + 1);
		if (found) {
			*base = inner;
			return found;
		}
	}
	return NULL;
}

const struct type_member *type_member_named(const struct type *t, const char *name, size_t len,
					    uint64_t *base)
{
	return find_named(t, name, len, base, 0);
}

static int path_fail(struct type_path *p, enum type_path_error e, const char *at, size_t len,
		     const struct type *in)
{
	p->error = e;
	p->at = at;
	p->len = len;
	p->in = in;
	return -1;
}

/* "[N]" at *s on p's array type. */
static int path_index(struct type_path *p, const char **s)
{
	const struct type *arr = type_strip(p->type);
	const char *at = *s;
	char *end;
	unsigned long long idx = strtoull(at + 1, &end, 0);
	uint64_t stride;

	if (!arr || arr->kind != TYPE_ARRAY || arr->nr_dims != 1)
		return path_fail(p, TYPE_PATH_NOT_ARRAY, at, 0, p->type);
	if (end == at + 1 || *end != ']')
		return path_fail(p, TYPE_PATH_EXPECTED_INDEX, at, 0, p->type);
	p->index = idx;
	if (arr->dims[0] && idx >= arr->dims[0])
		return path_fail(p, TYPE_PATH_INDEX_RANGE, at, (size_t)(end + 1 - at), arr);
	stride = type_size(arr->target);
	p->member = NULL;
	p->type = arr->target;
	p->start += idx * stride;
	p->end = p->start + stride;
	*s = end + 1;
	return 0;
}

/* ".name" (or "name" at the path's start) at *s on p's aggregate type. */
static int path_name(struct type_path *p, const char **s)
{
	const char *at = *s, *name = *at == '.' ? at + 1 : at;
	const struct type *agg = type_strip(p->type);
	size_t len = strcspn(name, ".[");
	const struct type_member *m;
	uint64_t base = p->start, ms, me;

	if (!len)
		return path_fail(p, TYPE_PATH_EXPECTED_NAME, at, 0, p->type);
	if (!type_is_aggregate(agg))
		return path_fail(p, TYPE_PATH_NOT_AGGREGATE, name, len, p->type);
	m = type_member_named(agg, name, len, &base);
	if (!m)
		return path_fail(p, TYPE_PATH_NO_MEMBER, name, len, p->type);
	type_member_extent(m, &ms, &me);
	p->member = m;
	p->type = m->type;
	p->start = base + ms;
	p->end = base + me;
	p->parent = base;
	*s = name + len;
	return 0;
}

int type_member_path(const struct type *root, const char *path, struct type_path *p)
{
	const char *s = path;

	memset(p, 0, sizeof(*p));
	p->type = root;
	p->end = type_size(root);
	while (*s) {
		int ret;

		if (*s == '[')
			ret = path_index(p, &s);
		else if (*s == '.' || s == path)
			ret = path_name(p, &s);
		else
			ret = path_fail(p, TYPE_PATH_EXPECTED_STEP, s, 0, p->type);
		if (ret)
			return ret;
	}
	return 0;
}
