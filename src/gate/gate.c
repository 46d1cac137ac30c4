// SPDX-License-Identifier: GPL-2.0
/*
 * Rule evaluation. Each rule kind is one small function that resolves the
 * members it names, decides, and on failure says in one sentence which
 * members at which offsets and cache lines broke it.
 */
#include "gate/gate_int.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct eval {
	unsigned int cl;
	const struct type *type;
	const struct rule_block *block;
	struct type_group *groups;
	size_t nr_groups;
	struct gate_outcome *o;
	struct strbuf msg;
};

/* ------------------------------------------------------------ outcomes */

static void note_member(struct gate_outcome *o, const struct gate_member *gm)
{
	struct gate_member *copy;

	o->members = xrealloc(o->members, (o->nr_members + 1) * sizeof(*o->members));
	copy = &o->members[o->nr_members++];
	*copy = *gm;
	copy->name = xstrdup(gm->name);
	if (!o->has_lines || gm->first_line < o->first_line)
		o->first_line = gm->first_line;
	if (!o->has_lines || gm->last_line > o->last_line)
		o->last_line = gm->last_line;
	o->has_lines = true;
}

static void note_lines(struct gate_outcome *o, uint64_t first, uint64_t last)
{
	if (!o->has_lines || first < o->first_line)
		o->first_line = first;
	if (!o->has_lines || last > o->last_line)
		o->last_line = last;
	o->has_lines = true;
}

/* "rt_se (offset 264, line 4)" */
static void describe(struct strbuf *sb, const struct gate_member *gm)
{
	strbuf_addf(sb, "%s (offset %llu, ", gm->name, (unsigned long long)gm->offset);
	if (gm->last_line != gm->first_line)
		strbuf_addf(sb, "lines %llu-%llu)", (unsigned long long)gm->first_line,
			    (unsigned long long)gm->last_line);
	else
		strbuf_addf(sb, "line %llu)", (unsigned long long)gm->first_line);
}

static void describe_list(struct strbuf *sb, const struct gate_members *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++) {
		if (i)
			strbuf_addstr(sb, ", ");
		describe(sb, &list->v[i]);
	}
}

static void set_status(struct eval *ev, enum gate_status st)
{
	ev->o->status = st;
	ev->o->message = strbuf_detach(&ev->msg, NULL);
}

/* Resolve PATH or mark the outcome as an error. */
static int resolve(struct eval *ev, const char *path, struct gate_member *gm)
{
	struct strbuf why = STRBUF_INIT;
	int ret = gate_resolve(ev->type, path, ev->cl, gm, &why);

	if (ret) {
		strbuf_reset(&ev->msg);
		strbuf_addstr(&ev->msg, why.buf);
		set_status(ev, GATE_ERROR);
	}
	strbuf_release(&why);
	return ret;
}

static bool lines_overlap(const struct gate_member *a, const struct gate_member *b)
{
	return a->first_line <= b->last_line && b->first_line <= a->last_line;
}

static void free_member(struct gate_member *gm)
{
	free(gm->name);
	gm->name = NULL;
}

/* ----------------------------------------------------- whole-struct rules */

static void eval_size(struct eval *ev, const struct rule *r)
{
	struct gate_members at = { 0 };
	struct gate_stats s;
	unsigned long long v = r->value;
	size_t i;

	if (gate_stats(ev->type, ev->cl, &s, &at)) {
		strbuf_addstr(&ev->msg, "cannot analyse the layout");
		set_status(ev, GATE_ERROR);
		return;
	}
	if (r->kind == RULE_SIZE_LE && s.size > v)
		strbuf_addf(&ev->msg, "size is %llu bytes, more than %llu",
			    (unsigned long long)s.size, v);
	if (r->kind == RULE_SIZE_EQ && s.size != v)
		strbuf_addf(&ev->msg, "size is %llu bytes, not %llu", (unsigned long long)s.size,
			    v);
	if (r->kind == RULE_CACHELINES_LE && s.cachelines > v)
		strbuf_addf(&ev->msg, "spans %llu cache lines of %u bytes, more than %llu",
			    (unsigned long long)s.cachelines, ev->cl, v);
	if (r->kind == RULE_PADDING_LE && s.padding > v) {
		strbuf_addf(&ev->msg, "has %llu bytes of tail padding, more than %llu",
			    (unsigned long long)s.padding, v);
		note_lines(ev->o, (s.size - 1) / ev->cl, (s.size - 1) / ev->cl);
	}
	if (r->kind == RULE_HOLES_LE && s.holes > v) {
		strbuf_addf(&ev->msg, "has %llu holes (%llu bytes), more than %llu",
			    (unsigned long long)s.holes, (unsigned long long)s.sum_holes, v);
		if (at.nr)
			strbuf_addstr(&ev->msg, "; holes after ");
		describe_list(&ev->msg, &at);
		for (i = 0; i < at.nr; i++)
			note_member(ev->o, &at.v[i]);
	}
	if (ev->msg.len)
		set_status(ev, GATE_FAIL);
	gate_members_release(&at);
}

/* ----------------------------------------------------------- member rules */

static void eval_offset(struct eval *ev, const struct rule *r)
{
	struct gate_member f = { 0 };
	unsigned long long v = r->value;

	if (resolve(ev, r->subject, &f))
		return;
	if (r->kind == RULE_OFFSET_EQ && f.offset != v)
		strbuf_addf(&ev->msg, "%s is at offset %llu (line %llu), not %llu", f.name,
			    (unsigned long long)f.offset, (unsigned long long)f.first_line, v);
	if (r->kind == RULE_ALIGNED && f.offset % v)
		strbuf_addf(&ev->msg, "%s is at offset %llu (line %llu), not a multiple of %llu",
			    f.name, (unsigned long long)f.offset, (unsigned long long)f.first_line,
			    v);
	if (ev->msg.len) {
		note_member(ev->o, &f);
		set_status(ev, GATE_FAIL);
	}
	free_member(&f);
}

static void eval_isolated(struct eval *ev, const struct rule *r)
{
	struct gate_members near = { 0 }, sharing = { 0 };
	struct gate_member f = { 0 };
	size_t i;

	if (resolve(ev, r->subject, &f))
		return;
	gate_neighbours(&near, ev->type, r->subject, ev->cl);
	for (i = 0; i < near.nr; i++)
		if (lines_overlap(&f, &near.v[i]))
			gate_members_add(&sharing, "", near.v[i].name, near.v[i].offset,
					 near.v[i].size, ev->cl);
	if (sharing.nr) {
		describe(&ev->msg, &f);
		strbuf_addstr(&ev->msg, " shares a cache line with ");
		describe_list(&ev->msg, &sharing);
		note_member(ev->o, &f);
		for (i = 0; i < sharing.nr; i++)
			note_member(ev->o, &sharing.v[i]);
		set_status(ev, GATE_FAIL);
	}
	gate_members_release(&near);
	gate_members_release(&sharing);
	free_member(&f);
}

/* Resolve every name of r into list; false (outcome set) on an error. */
static bool resolve_names(struct eval *ev, const struct rule *r, struct gate_members *list)
{
	size_t i;

	for (i = 0; i < r->nr_names; i++) {
		struct gate_member gm = { 0 };

		if (resolve(ev, r->names[i], &gm))
			return false;
		gate_members_add(list, "", gm.name, gm.offset, gm.size, ev->cl);
		free_member(&gm);
	}
	return true;
}

static void eval_apart(struct eval *ev, const struct rule *r)
{
	struct gate_members names = { 0 }, bad = { 0 };
	struct gate_member f = { 0 };
	size_t i;

	if (resolve(ev, r->subject, &f) || !resolve_names(ev, r, &names))
		goto out;
	for (i = 0; i < names.nr; i++)
		if (lines_overlap(&f, &names.v[i]))
			gate_members_add(&bad, "", names.v[i].name, names.v[i].offset,
					 names.v[i].size, ev->cl);
	if (bad.nr) {
		describe_list(&ev->msg, &bad);
		strbuf_addf(&ev->msg, " share%s a cache line with ", bad.nr == 1 ? "s" : "");
		describe(&ev->msg, &f);
		note_member(ev->o, &f);
		for (i = 0; i < bad.nr; i++)
			note_member(ev->o, &bad.v[i]);
		set_status(ev, GATE_FAIL);
	}
out:
	gate_members_release(&names);
	gate_members_release(&bad);
	free_member(&f);
}

static void eval_together(struct eval *ev, const struct rule *r)
{
	struct gate_members names = { 0 };
	uint64_t first = UINT64_MAX, last = 0;
	size_t i;

	if (!resolve_names(ev, r, &names))
		goto out;
	for (i = 0; i < names.nr; i++) {
		if (names.v[i].first_line < first)
			first = names.v[i].first_line;
		if (names.v[i].last_line > last)
			last = names.v[i].last_line;
	}
	if (names.nr && first != last) {
		describe_list(&ev->msg, &names);
		strbuf_addf(&ev->msg, " span lines %llu-%llu, not one line",
			    (unsigned long long)first, (unsigned long long)last);
		for (i = 0; i < names.nr; i++)
			note_member(ev->o, &names.v[i]);
		set_status(ev, GATE_FAIL);
	}
out:
	gate_members_release(&names);
}

/* ------------------------------------------------------------ group rules */

static const struct type_group *marker_group(struct eval *ev, const char *name)
{
	size_t i;

	for (i = 0; i < ev->nr_groups; i++)
		if (!strcmp(ev->groups[i].name, name))
			return &ev->groups[i];
	return NULL;
}

static bool group_usable(const struct type_group *g)
{
	return g && g->begin >= 0 && g->end >= 0 && g->start <= g->stop;
}

/* Members of list outside [start, stop) go to bad. */
static void outside_span(struct eval *ev, const struct gate_members *list, uint64_t start,
			 uint64_t stop, struct gate_members *bad)
{
	size_t i;

	for (i = 0; i < list->nr; i++) {
		const struct gate_member *gm = &list->v[i];

		if (gm->offset < start || gm->offset + gm->size > stop)
			gate_members_add(bad, "", gm->name, gm->offset, gm->size, ev->cl);
	}
}

static void fail_with(struct eval *ev, const struct gate_members *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		note_member(ev->o, &list->v[i]);
	set_status(ev, GATE_FAIL);
}

static bool listed(const struct rule *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nr_names; i++) {
		size_t n = strlen(r->names[i]);

		if (!strncmp(r->names[i], name, n) && (!name[n] || name[n] == '.'))
			return true;
		n = strlen(name);
		if (!strncmp(r->names[i], name, n) && r->names[i][n] == '.')
			return true;
	}
	return false;
}

/* A group without markers: the listed members must be contiguous. */
static void eval_group_contiguous(struct eval *ev, const struct rule *r,
				  const struct gate_members *names)
{
	struct gate_members near = { 0 }, foreign = { 0 };
	uint64_t start = UINT64_MAX, stop = 0;
	size_t i;

	for (i = 0; i < names->nr; i++) {
		if (names->v[i].offset < start)
			start = names->v[i].offset;
		if (names->v[i].offset + names->v[i].size > stop)
			stop = names->v[i].offset + names->v[i].size;
	}
	gate_neighbours(&near, ev->type, r->names[0], ev->cl);
	for (i = 0; i < near.nr; i++) {
		const struct gate_member *gm = &near.v[i];

		if (!listed(r, gm->name) && gm->offset < stop && gm->offset + gm->size > start)
			gate_members_add(&foreign, "", gm->name, gm->offset, gm->size, ev->cl);
	}
	if (foreign.nr) {
		describe_list(&ev->msg, &foreign);
		strbuf_addf(&ev->msg, " %s inside group %s [%llu, %llu) but not in it",
			    foreign.nr == 1 ? "sits" : "sit", r->subject, (unsigned long long)start,
			    (unsigned long long)stop);
		fail_with(ev, &foreign);
	}
	gate_members_release(&near);
	gate_members_release(&foreign);
}

static void eval_group(struct eval *ev, const struct rule *r)
{
	const struct type_group *g = marker_group(ev, r->subject);
	struct gate_members names = { 0 }, bad = { 0 };

	if (!resolve_names(ev, r, &names))
		goto out;
	if (!group_usable(g)) {
		eval_group_contiguous(ev, r, &names);
		goto out;
	}
	/* CACHELINE_ASSERT_GROUP_MEMBER: inside the markers */
	outside_span(ev, &names, g->start, g->stop, &bad);
	if (bad.nr) {
		describe_list(&ev->msg, &bad);
		strbuf_addf(&ev->msg, " %s outside group %s [%llu, %llu)",
			    bad.nr == 1 ? "lies" : "lie", g->name, (unsigned long long)g->start,
			    (unsigned long long)g->stop);
		fail_with(ev, &bad);
	}
out:
	gate_members_release(&names);
	gate_members_release(&bad);
}

/* The bytes of group NAME: from its markers, else from its group rule. */
static bool group_span(struct eval *ev, const char *name, uint64_t *start, uint64_t *stop)
{
	const struct type_group *g = marker_group(ev, name);
	size_t i, j;

	if (group_usable(g)) {
		*start = g->start;
		*stop = g->stop;
		return true;
	}
	for (i = 0; i < ev->block->nr_rules; i++) {
		const struct rule *r = &ev->block->rules[i];

		if (r->kind != RULE_GROUP || strcmp(r->subject, name))
			continue;
		*start = UINT64_MAX;
		*stop = 0;
		for (j = 0; j < r->nr_names; j++) {
			struct gate_member gm = { 0 };

			if (resolve(ev, r->names[j], &gm))
				return false;
			if (gm.offset < *start)
				*start = gm.offset;
			if (gm.offset + gm.size > *stop)
				*stop = gm.offset + gm.size;
			free_member(&gm);
		}
		return true;
	}
	strbuf_addf(&ev->msg, "no group %s: neither a 'group %s:' rule nor %s%s/%s%s markers", name,
		    name, TYPE_GROUP_BEGIN, name, TYPE_GROUP_END, name);
	set_status(ev, GATE_ERROR);
	return false;
}

static void eval_group_budget(struct eval *ev, const struct rule *r)
{
	uint64_t start, stop, first, last, lines;
	unsigned long long v = r->value;

	if (!group_span(ev, r->subject, &start, &stop))
		return;
	first = start / ev->cl;
	last = stop > start ? (stop - 1) / ev->cl : first;
	lines = stop > start ? last - first + 1 : 0;
	if (r->kind == RULE_GROUP_FITS && lines > v)
		strbuf_addf(&ev->msg,
			    "group %s [%llu, %llu) spans %llu cache lines (%llu-%llu), "
			    "more than %llu",
			    r->subject, (unsigned long long)start, (unsigned long long)stop,
			    (unsigned long long)lines, (unsigned long long)first,
			    (unsigned long long)last, v);
	if (r->kind == RULE_GROUP_SIZE_LE && stop - start > v)
		strbuf_addf(&ev->msg, "group %s [%llu, %llu) is %llu bytes, more than %llu",
			    r->subject, (unsigned long long)start, (unsigned long long)stop,
			    (unsigned long long)(stop - start), v);
	if (ev->msg.len) {
		note_lines(ev->o, first, last);
		set_status(ev, GATE_FAIL);
	}
}

/* The markers themselves: present, paired, in order. */
static bool markers_hold(struct eval *ev, const struct type_group *g)
{
	const char *name = g->name;

	if (g->begin < 0 || g->end < 0) {
		strbuf_addf(&ev->msg, "group %s has %s%s but no %s%s", name,
			    g->begin < 0 ? TYPE_GROUP_END : TYPE_GROUP_BEGIN, name,
			    g->begin < 0 ? TYPE_GROUP_BEGIN : TYPE_GROUP_END, name);
	} else if (g->nr_begin > 1 || g->nr_end > 1) {
		strbuf_addf(&ev->msg, "group %s has %d begin and %d end markers, not one of each",
			    name, g->nr_begin, g->nr_end);
	} else if (g->end < g->begin || g->stop < g->start) {
		strbuf_addf(&ev->msg, "group %s ends (offset %llu) before it begins (offset %llu)",
			    name, (unsigned long long)g->stop, (unsigned long long)g->start);
	}
	if (!ev->msg.len)
		return true;
	note_lines(ev->o, g->start / ev->cl, g->stop / ev->cl);
	set_status(ev, GATE_FAIL);
	return false;
}

/*
 * --kernel-groups: what CACHELINE_ASSERT_GROUP_MEMBER asserts for every
 * member declared between the markers (it lies inside them), and that no
 * member declared elsewhere lies inside: the group is contiguous.
 */
static void eval_kernel_group(struct eval *ev, const struct rule *r)
{
	const struct type_group *g = marker_group(ev, r->subject);
	struct gate_members inside = { 0 }, foreign = { 0 }, bad = { 0 };
	const struct type *t = type_strip(ev->type);
	uint32_t i;

	if (!g) {
		strbuf_addf(&ev->msg, "no %s%s/%s%s markers", TYPE_GROUP_BEGIN, r->subject,
			    TYPE_GROUP_END, r->subject);
		set_status(ev, GATE_ERROR);
		return;
	}
	if (!markers_hold(ev, g) || t->kind == TYPE_UNION)
		return;
	for (i = 0; i < t->nr_members; i++) {
		struct gate_member gm = { 0 };
		bool declared_inside = (int)i > g->begin && (int)i < g->end;

		gate_member_at(t, i, ev->cl, &gm);
		if (gm.size && declared_inside)
			gate_members_add(&inside, "", gm.name, gm.offset, gm.size, ev->cl);
		else if (gm.size && !declared_inside && gm.offset < g->stop &&
			 gm.offset + gm.size > g->start)
			gate_members_add(&foreign, "", gm.name, gm.offset, gm.size, ev->cl);
		free_member(&gm);
	}
	outside_span(ev, &inside, g->start, g->stop, &bad);
	if (bad.nr) {
		describe_list(&ev->msg, &bad);
		strbuf_addf(&ev->msg, " %s outside group %s [%llu, %llu)",
			    bad.nr == 1 ? "lies" : "lie", g->name, (unsigned long long)g->start,
			    (unsigned long long)g->stop);
	}
	if (foreign.nr) {
		strbuf_addstr(&ev->msg, bad.nr ? "; " : "");
		describe_list(&ev->msg, &foreign);
		strbuf_addf(&ev->msg,
			    " %s inside group %s [%llu, %llu) but %s declared outside "
			    "its markers",
			    foreign.nr == 1 ? "lies" : "lie", g->name, (unsigned long long)g->start,
			    (unsigned long long)g->stop, foreign.nr == 1 ? "is" : "are");
	}
	if (ev->msg.len) {
		fail_with(ev, &bad);
		for (i = 0; i < foreign.nr; i++)
			note_member(ev->o, &foreign.v[i]);
	}
	gate_members_release(&inside);
	gate_members_release(&foreign);
	gate_members_release(&bad);
}

/* ------------------------------------------------------------- dispatch */

static void eval_rule(struct eval *ev, const struct rule *r)
{
	switch (r->kind) {
	case RULE_SIZE_LE:
	case RULE_SIZE_EQ:
	case RULE_CACHELINES_LE:
	case RULE_PADDING_LE:
	case RULE_HOLES_LE:
		return eval_size(ev, r);
	case RULE_OFFSET_EQ:
	case RULE_ALIGNED:
		return eval_offset(ev, r);
	case RULE_ISOLATED:
		return eval_isolated(ev, r);
	case RULE_APART:
		return eval_apart(ev, r);
	case RULE_TOGETHER:
		return eval_together(ev, r);
	case RULE_GROUP:
		return eval_group(ev, r);
	case RULE_GROUP_FITS:
	case RULE_GROUP_SIZE_LE:
		return eval_group_budget(ev, r);
	case RULE_GROUP_MARKERS:
		return eval_kernel_group(ev, r);
	}
}

static struct gate_outcome *new_outcome(struct gate_result *res, const struct rule_block *b,
					const struct rule *r, const struct type *t)
{
	struct gate_outcome *o;

	res->outcomes = xgrow(res->outcomes, &res->alloc, res->nr + 1, sizeof(*res->outcomes));
	o = &res->outcomes[res->nr++];
	memset(o, 0, sizeof(*o));
	o->rule = r;
	o->block = b;
	o->type = t;
	return o;
}

static void count(struct gate_result *res, const struct gate_outcome *o)
{
	if (o->status == GATE_PASS)
		res->nr_pass++;
	else if (o->status == GATE_FAIL)
		res->nr_fail++;
	else
		res->nr_error++;
}

static void check_missing_struct(struct gate_result *res, const struct rule_block *b,
				 const struct type_db *db)
{
	size_t i;

	for (i = 0; i < b->nr_rules; i++) {
		struct gate_outcome *o = new_outcome(res, b, &b->rules[i], NULL);
		struct strbuf sb = STRBUF_INIT;

		type_db_describe_missing(&sb, type_db_path(db) ? type_db_path(db) : "the types",
					 b->struct_name, db);
		o->status = GATE_ERROR;
		o->message = strbuf_detach(&sb, NULL);
		count(res, o);
	}
}

void gate_check_block(struct gate_result *res, const struct rule_block *b, const struct type *t)
{
	struct eval ev = { .cl = res->cacheline_size, .type = t, .block = b };
	size_t i;

	strbuf_init(&ev.msg, 0);
	ev.nr_groups = type_find_groups(t, &ev.groups);
	for (i = 0; i < b->nr_rules; i++) {
		ev.o = new_outcome(res, b, &b->rules[i], t);
		strbuf_reset(&ev.msg);
		eval_rule(&ev, &b->rules[i]);
		count(res, ev.o);
	}
	strbuf_release(&ev.msg);
	free(ev.groups);
}

#define MAX_DEFINITIONS 64

int gate_check(const struct ruleset *rs, const struct type_db *db, const struct gate_opts *opts,
	       struct gate_result *res, struct err_msg *err)
{
	unsigned int cl = opts && opts->cacheline_size ? opts->cacheline_size : 64;
	const struct type *defs[MAX_DEFINITIONS];
	size_t i, j, n;

	memset(res, 0, sizeof(*res));
	if (cl & (cl - 1))
		return err_set(err, EINVAL, "cache-line size %u is not a power of two", cl);
	res->cacheline_size = cl;
	for (i = 0; i < ruleset_nr_blocks(rs); i++) {
		const struct rule_block *b = ruleset_block(rs, i);

		n = type_db_find_all(db, b->struct_name, defs, MAX_DEFINITIONS);
		if (!n && (defs[0] = type_db_find_aggregate(db, b->struct_name)))
			n = 1; /* "typedef struct {...} NAME;" */
		if (!n)
			check_missing_struct(res, b, db);
		for (j = 0; j < n && j < MAX_DEFINITIONS; j++)
			gate_check_block(res, b, defs[j]);
	}
	return 0;
}

void gate_result_release(struct gate_result *res)
{
	size_t i, j;

	for (i = 0; i < res->nr; i++) {
		for (j = 0; j < res->outcomes[i].nr_members; j++)
			free(res->outcomes[i].members[j].name);
		free(res->outcomes[i].members);
		free(res->outcomes[i].message);
	}
	free(res->outcomes);
	memset(res, 0, sizeof(*res));
}

size_t gate_add_kernel_groups(struct ruleset *rs, const struct type_db *db, const char *const *only)
{
	const char *last = NULL;
	size_t i, j, added = 0;

	for (i = 0; i < type_db_nr_structs(db); i++) {
		const struct type *t = type_db_struct(db, i);
		struct type_group *groups;
		size_t n;

		if ((last && !strcmp(last, t->name)) || !type_name_wanted(only, t->name))
			continue;
		last = t->name;
		n = type_find_groups(t, &groups);
		for (j = 0; j < n; j++)
			ruleset_add_rule(rs, t->name, RULE_GROUP_MARKERS, groups[j].name, NULL, 0,
					 0);
		added += n;
		free(groups);
	}
	return added;
}

const char **gate_rule_structs(const struct ruleset *rs)
{
	size_t i, n = ruleset_nr_blocks(rs);
	const char **names = xcalloc(n + 1, sizeof(*names));

	for (i = 0; i < n; i++)
		names[i] = ruleset_block(rs, i)->struct_name;
	return names;
}
