// SPDX-License-Identifier: GPL-2.0
/*
 * Domain rules about members that every view shares, written once: the
 * bytes a member covers, the kernel's cache-line group markers, and the
 * wording for a struct that is not there.
 */
#include "types/types.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void type_member_extent(const struct type_member *m, uint64_t *start, uint64_t *end)
{
	if (m->bit_size) {
		*start = m->bit_offset / 8;
		*end = (m->bit_offset + m->bit_size + 7) / 8;
		return;
	}
	*start = m->offset;
	*end = m->offset + type_size(m->type);
}

const char *type_group_marker(const struct type_member *m, bool begin)
{
	const char *prefix = begin ? TYPE_GROUP_BEGIN : TYPE_GROUP_END;
	size_t n = strlen(prefix);

	if (!m->name || strncmp(m->name, prefix, n) || !m->name[n])
		return NULL;
	return m->name + n;
}

static struct type_group *group_get(struct type_group **v, size_t *nr, const char *name)
{
	size_t i, alloc = *nr;

	for (i = 0; i < *nr; i++)
		if (!strcmp((*v)[i].name, name))
			return &(*v)[i];
	*v = xgrow(*v, &alloc, *nr + 1, sizeof(**v));
	memset(&(*v)[*nr], 0, sizeof(**v));
	(*v)[*nr].name = name;
	(*v)[*nr].begin = -1;
	(*v)[*nr].end = -1;
	return &(*v)[(*nr)++];
}

size_t type_find_groups(const struct type *t, struct type_group **out)
{
	struct type_group *v = NULL, *g;
	const char *name;
	size_t nr = 0;
	uint32_t i;

	t = type_strip(t);
	for (i = 0; t && i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];

		if ((name = type_group_marker(m, true))) {
			g = group_get(&v, &nr, name);
			if (!g->nr_begin++) {
				g->begin = (int)i;
				g->start = m->offset + type_size(m->type);
			}
		} else if ((name = type_group_marker(m, false))) {
			g = group_get(&v, &nr, name);
			if (!g->nr_end++) {
				g->end = (int)i;
				g->stop = m->offset;
			}
		}
	}
	*out = v;
	return nr;
}

bool type_group_ok(const struct type_group *g)
{
	return g->nr_begin == 1 && g->nr_end == 1 && g->begin < g->end && g->start <= g->stop;
}

uint64_t type_group_bytes_used(const struct type *t, const struct type_group *g)
{
	uint64_t used = 0, covered = 0, s, e;
	int i;

	t = type_strip(t);
	for (i = g->begin + 1; t && i >= 1 && i < g->end; i++) {
		type_member_extent(&t->members[i], &s, &e);
		if (s < covered)
			s = covered;
		if (e > s)
			used += e - s;
		if (e > covered)
			covered = e;
	}
	return used;
}

void type_db_describe_missing(struct strbuf *sb, const char *file, const char *name,
			      const struct type_db *hints)
{
	const char *near = hints ? type_db_suggest(hints, name) : NULL;

	strbuf_addf(sb, "%s: no struct or union %s", file, name);
	if (near)
		strbuf_addf(sb, "; did you mean %s?", near);
}
