// SPDX-License-Identifier: GPL-2.0
/*
 * Members as rules see them: a path ("a.b") resolved to its absolute bytes,
 * and the list of members that could share a cache line with it. Members
 * of anonymous structs and unions are visible by their own names, as in C.
 */
#include "gate/gate_int.h"
#include "layout/layout.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The bytes a member covers, relative to its parent's start. */
static void member_extent(const struct type_member *m, uint64_t *start, uint64_t *size)
{
	uint64_t end;

	type_member_extent(m, start, &end);
	*size = end - *start;
}

static bool is_anonymous_aggregate(const struct type_member *m)
{
	return !m->name && type_is_aggregate(m->type);
}

void gate_set_lines(struct gate_member *gm, unsigned int cl)
{
	type_extent_lines(gm->offset, gm->offset + gm->size, cl, &gm->first_line, &gm->last_line);
}

/* PATH's member and bytes (type_member_path): 0, or -ENOENT with why said. */
static int lookup(const struct type *root, const char *path, struct type_path *p,
		  struct strbuf *why)
{
	if (!type_member_path(root, path, p))
		return 0;
	if (p->error == TYPE_PATH_NO_MEMBER) {
		strbuf_addf(why, "no member '%.*s' in ", (int)p->len, p->at);
		type_format_name(why, p->in);
	} else if (p->error == TYPE_PATH_NOT_AGGREGATE && p->member && p->member->name) {
		strbuf_addf(why, "'%s' in '%s' is not a struct or union", p->member->name, path);
	} else {
		strbuf_addf(why, "'%s': expected member names joined by '.' at '%s'", path, p->at);
	}
	return -ENOENT;
}

int gate_resolve(const struct type *root, const char *path, unsigned int cl,
		 struct gate_member *out, struct strbuf *why)
{
	struct type_path p;

	if (lookup(root, path, &p, why))
		return -ENOENT;
	out->name = xstrdup(path);
	out->offset = p.start;
	out->size = p.end - p.start;
	gate_set_lines(out, cl);
	return 0;
}

void gate_members_add(struct gate_members *list, const char *prefix, const char *name,
		      uint64_t offset, uint64_t size, unsigned int cl)
{
	struct gate_member *gm;
	struct strbuf sb = STRBUF_INIT;

	list->v = xgrow(list->v, &list->alloc, list->nr + 1, sizeof(*list->v));
	gm = &list->v[list->nr++];
	strbuf_addf(&sb, "%s%s", prefix, name);
	gm->name = strbuf_detach(&sb, NULL);
	gm->offset = offset;
	gm->size = size;
	gate_set_lines(gm, cl);
}

void gate_members_release(struct gate_members *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		free(list->v[i].name);
	free(list->v);
	memset(list, 0, sizeof(*list));
}

/* Every named member of t at base, anonymous aggregates expanded. */
static void flatten(struct gate_members *list, const struct type *t, uint64_t base,
		    const char *prefix, unsigned int cl, int depth)
{
	uint32_t i;

	t = type_strip(t);
	if (!t || depth > 32)
		return;
	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		uint64_t start, size;

		if (is_anonymous_aggregate(m)) {
			flatten(list, m->type, base + m->offset, prefix, cl, depth + 1);
			continue;
		}
		if (!m->name)
			continue;
		member_extent(m, &start, &size);
		gate_members_add(list, prefix, m->name, base + start, size, cl);
	}
}

static bool is_path_prefix(const char *prefix, const char *path)
{
	size_t n = strlen(prefix);

	return !strncmp(prefix, path, n) && (path[n] == '.' || !path[n]);
}

/*
 * The members that could share a line with PATH: the struct's own members
 * and, for a nested path, the members of each struct on the way, minus
 * PATH, what contains it and what it contains.
 */
void gate_neighbours(struct gate_members *list, const struct type *root, const char *path,
		     unsigned int cl)
{
	struct gate_members all = { 0 };
	struct strbuf sb = STRBUF_INIT;
	const char *dot;
	size_t i;

	flatten(&all, root, 0, "", cl, 0);
	for (dot = strchr(path, '.'); dot; dot = strchr(dot + 1, '.')) {
		struct type_path p;

		strbuf_reset(&sb);
		strbuf_add(&sb, path, dot - path);
		if (lookup(root, sb.buf, &p, &sb))
			break;
		strbuf_reset(&sb);
		strbuf_add(&sb, path, dot - path + 1);
		flatten(&all, p.type, p.start, sb.buf, cl, 0);
	}
	for (i = 0; i < all.nr; i++) {
		struct gate_member *gm = &all.v[i];

		if (!gm->size || is_path_prefix(gm->name, path) || is_path_prefix(path, gm->name))
			continue;
		gate_members_add(list, "", gm->name, gm->offset, gm->size, cl);
	}
	gate_members_release(&all);
	strbuf_release(&sb);
}

void gate_member_at(const struct type *t, uint32_t i, unsigned int cl, struct gate_member *out)
{
	const struct type_member *m = &type_strip(t)->members[i];
	uint64_t start, size;

	member_extent(m, &start, &size);
	out->name = xstrdup(m->name ? m->name : "<anonymous>");
	out->offset = start;
	out->size = size;
	gate_set_lines(out, cl);
}

/* The numbers the layout printer shows, so that rules and `layout` agree. */
int gate_stats(const struct type *t, unsigned int cl, struct gate_stats *st,
	       struct gate_members *holes)
{
	const struct layout_summary *sum;
	struct layout *l;
	uint32_t i;
	int ret = layout_analyze(t, cl, &l, NULL);

	memset(st, 0, sizeof(*st));
	if (ret)
		return ret;
	sum = layout_summary(l);
	st->size = sum->size;
	st->cachelines = sum->nr_cachelines;
	st->holes = sum->nr_holes;
	st->sum_holes = sum->sum_holes;
	st->padding = sum->padding;
	for (i = 0; holes && i < layout_nr_members(l); i++) {
		const struct layout_member *lm = layout_member(l, i);

		if (lm->hole)
			gate_members_add(holes, "", lm->name ? lm->name : "<anonymous>", lm->offset,
					 lm->size, cl);
	}
	layout_free(l);
	return 0;
}
