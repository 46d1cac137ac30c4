// SPDX-License-Identifier: GPL-2.0
/* Layout diff between two type models, in cache-line terms. */
#include "gate/gate_int.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A struct's top-level members with their diff names and bytes. */
static void top_members(const struct type *t, unsigned int cl, struct gate_members *list)
{
	const struct type *s = type_strip(t);
	unsigned int anon = 0;
	uint32_t i;

	for (i = 0; s && i < s->nr_members; i++) {
		struct gate_member gm = { 0 };
		char buf[40];

		gate_member_at(s, i, cl, &gm);
		if (!s->members[i].name) {
			snprintf(buf, sizeof(buf), "<anonymous #%u>", ++anon);
			gate_members_add(list, "", buf, gm.offset, gm.size, cl);
		} else {
			gate_members_add(list, "", gm.name, gm.offset, gm.size, cl);
		}
		free(gm.name);
	}
}

static const struct gate_member *find_named(const struct gate_members *list, const char *name)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		if (!strcmp(list->v[i].name, name))
			return &list->v[i];
	return NULL;
}

static void add_change(struct diff_struct *s, enum diff_change change, const struct gate_member *o,
		       const struct gate_member *n)
{
	const struct gate_member *any = n ? n : o;
	struct diff_member *dm;

	s->members = xrealloc(s->members, (s->nr_members + 1) * sizeof(*s->members));
	dm = &s->members[s->nr_members++];
	memset(dm, 0, sizeof(*dm));
	dm->change = change;
	dm->name = xstrdup(any->name);
	if (o) {
		dm->old_offset = o->offset;
		dm->old_size = o->size;
		dm->old_line = o->first_line;
	}
	if (n) {
		dm->new_offset = n->offset;
		dm->new_size = n->size;
		dm->new_line = n->first_line;
	}
}

static bool share(const struct gate_member *a, const struct gate_member *b)
{
	return a->size && b->size && a->first_line <= b->last_line && b->first_line <= a->last_line;
}

static void add_shared(struct diff_struct *s, const struct gate_member *na,
		       const struct gate_member *nb, const struct gate_member *oa,
		       const struct gate_member *ob)
{
	struct diff_shared *ds;

	s->shared = xrealloc(s->shared, (s->nr_shared + 1) * sizeof(*s->shared));
	ds = &s->shared[s->nr_shared++];
	ds->a = xstrdup(na->name);
	ds->b = xstrdup(nb->name);
	ds->line = na->first_line > nb->first_line ? na->first_line : nb->first_line;
	ds->old_line_a = oa->first_line;
	ds->old_line_b = ob->first_line;
}

static void diff_members(struct diff_struct *s, const struct gate_members *old,
			 const struct gate_members *new)
{
	size_t i, j;

	for (i = 0; i < old->nr; i++)
		if (!find_named(new, old->v[i].name))
			add_change(s, DIFF_REMOVED, &old->v[i], NULL);
	for (i = 0; i < new->nr; i++) {
		const struct gate_member *n = &new->v[i], *o = find_named(old, n->name);

		if (!o)
			add_change(s, DIFF_ADDED, NULL, n);
		else if (o->offset != n->offset)
			add_change(s, DIFF_MOVED, o, n);
		else if (o->size != n->size)
			add_change(s, DIFF_RESIZED, o, n);
	}
	for (i = 0; i < new->nr; i++) {
		const struct gate_member *na = &new->v[i], *oa = find_named(old, na->name);

		for (j = i + 1; oa && j < new->nr; j++) {
			const struct gate_member *nb = &new->v[j], *ob = find_named(old, nb->name);

			if (ob && share(na, nb) && !share(oa, ob))
				add_shared(s, na, nb, oa, ob);
		}
	}
}

static void add_group(struct diff_struct *s, const char *name, const char *message)
{
	s->groups = xrealloc(s->groups, (s->nr_groups + 1) * sizeof(*s->groups));
	s->groups[s->nr_groups].name = xstrdup(name);
	s->groups[s->nr_groups].message = xstrdup(message);
	s->nr_groups++;
}

static void add_group_rules(struct ruleset *rs, const char *name, const struct type *t)
{
	struct type_group *groups;
	size_t n = type_find_groups(t, &groups), i, j;
	const struct rule_block *b = ruleset_nr_blocks(rs) ? ruleset_block(rs, 0) : NULL;

	for (i = 0; i < n; i++) {
		bool seen = false;

		for (j = 0; b && j < b->nr_rules; j++)
			seen |= !strcmp(b->rules[j].subject, groups[i].name);
		if (!seen)
			ruleset_add_rule(rs, name, RULE_GROUP_MARKERS, groups[i].name, NULL, 0, 0);
		b = ruleset_block(rs, 0);
	}
	free(groups);
}

/* Kernel cache-line groups that held in OLD and do not in NEW. */
static void diff_groups(struct diff_struct *s, unsigned int cl)
{
	struct ruleset *rs = ruleset_new();
	struct gate_result ro = { .cacheline_size = cl }, rn = { .cacheline_size = cl };
	size_t i;

	add_group_rules(rs, s->name, s->old);
	add_group_rules(rs, s->name, s->new);
	if (ruleset_nr_blocks(rs)) {
		gate_check_block(&ro, ruleset_block(rs, 0), s->old);
		gate_check_block(&rn, ruleset_block(rs, 0), s->new);
	}
	for (i = 0; i < rn.nr && i < ro.nr; i++) {
		const struct gate_outcome *o = &ro.outcomes[i], *n = &rn.outcomes[i];

		if (o->status != GATE_PASS || n->status == GATE_PASS)
			continue;
		add_group(s, n->rule->subject,
			  n->status == GATE_ERROR ? "its markers are gone" : n->message);
	}
	gate_result_release(&ro);
	gate_result_release(&rn);
	ruleset_free(rs);
}

static void fill_stats(struct diff_struct *s, unsigned int cl)
{
	struct gate_stats st;

	if (s->old && !gate_stats(s->old, cl, &st, NULL))
		s->old_stats = st;
	if (s->new && !gate_stats(s->new, cl, &st, NULL))
		s->new_stats = st;
}

static bool changed(const struct diff_struct *s)
{
	return s->status != DIFF_STRUCT_CHANGED || s->nr_members || s->nr_shared || s->nr_groups ||
	       s->old_stats.size != s->new_stats.size || s->old_stats.holes != s->new_stats.holes ||
	       s->old_stats.sum_holes != s->new_stats.sum_holes ||
	       s->old_stats.padding != s->new_stats.padding;
}

static void diff_one(struct layout_diff *d, const char *name, const struct type *old,
		     const struct type *new)
{
	struct diff_struct s = { .name = name, .old = old, .new = new };
	struct gate_members om = { 0 }, nm = { 0 };
	unsigned int cl = d->cacheline_size;

	s.status = !old ? DIFF_STRUCT_ONLY_NEW : !new ? DIFF_STRUCT_ONLY_OLD : DIFF_STRUCT_CHANGED;
	fill_stats(&s, cl);
	if (old && new) {
		top_members(old, cl, &om);
		top_members(new, cl, &nm);
		diff_members(&s, &om, &nm);
		diff_groups(&s, cl);
		gate_members_release(&om);
		gate_members_release(&nm);
	}
	if (!changed(&s))
		return;
	d->structs = xgrow(d->structs, &d->alloc, d->nr + 1, sizeof(*d->structs));
	d->structs[d->nr++] = s;
}

/*
 * -C NAME where NAME is a typedef of an anonymous struct ("typedef struct
 * {...} NAME;") on both sides: the index walk knows tagged structs only.
 */
static void diff_typedefs(struct layout_diff *d, const struct type_db *old,
			  const struct type_db *new, const char *const *only)
{
	const struct type *o, *n;

	for (; only && *only; only++) {
		if (type_name_is_glob(*only) || type_db_find(old, *only) ||
		    type_db_find(new, *only))
			continue;
		o = type_db_find_aggregate(old, *only);
		n = type_db_find_aggregate(new, *only);
		if (o || n)
			diff_one(d, *only, o, n);
	}
}

int gate_diff_compute(const struct type_db *old, const struct type_db *new,
		      const struct layout_diff_opts *opts, struct layout_diff *out,
		      struct err_msg *err)
{
	unsigned int cl = opts && opts->cacheline_size ? opts->cacheline_size : 64;
	const char *const *only = opts ? opts->only : NULL;
	size_t i = 0, j = 0, no = type_db_nr_structs(old), nn = type_db_nr_structs(new);

	memset(out, 0, sizeof(*out));
	if (cl & (cl - 1))
		return err_set(err, EINVAL, "cache-line size %u is not a power of two", cl);
	out->cacheline_size = cl;
	/* both indexes are sorted by name: walk them together */
	while (i < no || j < nn) {
		const struct type *o = i < no ? type_db_struct(old, i) : NULL;
		const struct type *n = j < nn ? type_db_struct(new, j) : NULL;
		int c = !o ? 1 : !n ? -1 : strcmp(o->name, n->name);
		const char *name = c <= 0 ? o->name : n->name;

		/* one side's NAME may be the other's "typedef struct {...} NAME;" */
		if (type_name_wanted(only, name))
			diff_one(out, name, c <= 0 ? o : type_db_find_aggregate(old, name),
				 c >= 0 ? n : type_db_find_aggregate(new, name));
		/* skip further definitions of the same name */
		if (c <= 0)
			while (i < no && !strcmp(type_db_struct(old, i)->name, name))
				i++;
		if (c >= 0)
			while (j < nn && !strcmp(type_db_struct(new, j)->name, name))
				j++;
	}
	diff_typedefs(out, old, new, only);
	return 0;
}

void gate_diff_release(struct layout_diff *d)
{
	size_t i, j;

	for (i = 0; i < d->nr; i++) {
		struct diff_struct *s = &d->structs[i];

		for (j = 0; j < s->nr_members; j++)
			free(s->members[j].name);
		for (j = 0; j < s->nr_shared; j++) {
			free(s->shared[j].a);
			free(s->shared[j].b);
		}
		for (j = 0; j < s->nr_groups; j++) {
			free(s->groups[j].name);
			free(s->groups[j].message);
		}
		free(s->members);
		free(s->shared);
		free(s->groups);
	}
	free(d->structs);
	memset(d, 0, sizeof(*d));
}

unsigned int diff_struct_trips(const struct diff_struct *s, unsigned int mask)
{
	unsigned int trips = 0;
	size_t i;

	if (s->status != DIFF_STRUCT_CHANGED)
		return 0;
	if (s->new_stats.size > s->old_stats.size)
		trips |= DIFF_FAIL_SIZE_GROWTH;
	if (s->nr_shared)
		trips |= DIFF_FAIL_NEW_SHARED_LINE;
	if (s->new_stats.holes > s->old_stats.holes ||
	    s->new_stats.sum_holes > s->old_stats.sum_holes)
		trips |= DIFF_FAIL_HOLE_GROWTH;
	for (i = 0; i < s->nr_members; i++)
		if (s->members[i].change == DIFF_MOVED)
			trips |= DIFF_FAIL_MOVED;
	return trips & mask;
}
