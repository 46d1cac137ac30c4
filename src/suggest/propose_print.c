// SPDX-License-Identifier: GPL-2.0
/*
 * Rendering of re-layout proposals: text with pahole-style layouts and
 * heat, JSON, and the check rules that lock a proposal in.
 */
#include "config.h"
#include "suggest/propose_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

#include "layout/layout.h"
#include "util/xalloc.h"

static const char *class_name(enum field_class c)
{
	switch (c) {
	case FIELD_WRITE_HOT:
		return "write-hot";
	case FIELD_READ_MOSTLY:
		return "read-mostly";
	default:
		return "cold";
	}
}

static void annotate_heat(struct strbuf *sb, const struct type_member *m, uint64_t abs_offset,
			  uint64_t size, unsigned int depth, void *arg)
{
	const struct struct_profile *p = arg;
	const struct field_profile *f = depth ? NULL : profile_member_field(p, m);

	if (!f || f->cls == FIELD_COLD)
		return;
	strbuf_addf(sb, " [%s", class_name(f->cls));
	if (f->hitm_local + f->hitm_remote)
		strbuf_addf(sb, " hitm %llu", (unsigned long long)(f->hitm_local + f->hitm_remote));
	if (f->loads > 1 || f->stores > 1)
		strbuf_addf(sb, " ld %llu st %llu", (unsigned long long)f->loads,
			    (unsigned long long)f->stores);
	strbuf_addch(sb, ']');
}

/* Whether write-hot field W and field O conflict, as the proposer weighs them. */
static bool weighed_conflict(const struct proposer *pr, const struct field_profile *w,
			     const struct field_profile *o)
{
	return pr->weight[(size_t)(w - pr->fields) * pr->nr_fields + (size_t)(o - pr->fields)] != 0;
}

/* The fields with HITMs between objects: "objects share lines: ... (sum, count)". */
static void describe_between(struct strbuf *sb, const struct struct_profile *p,
			     const struct proposer *pr)
{
	uint32_t i, n = 0;

	strbuf_addf(sb,
		    "  objects share lines: %llu objects, %llu HITMs from outside each object (",
		    (unsigned long long)p->nr_objects, (unsigned long long)pr->between_hitm);
	for (i = 0; i < p->nr_fields; i++)
		if (p->fields[i].hitm_between)
			strbuf_addf(sb, "%s%s %llu", n++ ? ", " : "", p->fields[i].name,
				    (unsigned long long)p->fields[i].hitm_between);
	strbuf_addstr(sb, "): no order of the members removes them\n");
}

/* Which fields each line of T holds: "line 4: load_avg [write-hot] with rt_se, rt_rq". */
static void describe_sharing(struct strbuf *sb, const struct type *t,
			     const struct struct_profile *p, const struct proposer *pr)
{
	unsigned int cl = pr->cl;
	uint32_t i, j, nr = 0;

	for (i = 0; i < t->nr_members; i++) {
		const struct field_profile *w = profile_member_field(p, &t->members[i]);
		uint64_t ws = t->members[i].offset, we = ws + type_size(t->members[i].type);
		bool first = true;

		if (!w || w->cls != FIELD_WRITE_HOT)
			continue;
		for (j = 0; j < t->nr_members; j++) {
			const struct field_profile *o = profile_member_field(p, &t->members[j]);
			uint64_t os = t->members[j].offset, oe = os + type_size(t->members[j].type);

			if (!o || !weighed_conflict(pr, w, o))
				continue;
			if (ws / cl > (oe ? oe - 1 : 0) / cl || os / cl > (we ? we - 1 : 0) / cl)
				continue;
			if (first)
				strbuf_addf(sb, "  line %llu: %s (write-hot) shares with %s",
					    (unsigned long long)(ws / cl), w->name, o->name);
			else
				strbuf_addf(sb, ", %s", o->name);
			first = false;
			nr++;
		}
		if (!first)
			strbuf_addch(sb, '\n');
	}
	if (pr->between_hitm)
		describe_between(sb, p, pr);
	else if (!nr)
		strbuf_addstr(
			sb,
			"  no line holds a write-hot field with a field other contexts touch\n");
}

static void format_lines(struct strbuf *sb, const struct proposal *p)
{
	uint32_t n = p->nr_lines_before > p->nr_lines_after ? p->nr_lines_before :
							      p->nr_lines_after;
	uint32_t i;
	bool any = false;

	for (i = 0; i < n; i++) {
		uint64_t b = i < p->nr_lines_before ? p->lines_before[i].hitm : 0;
		uint64_t a = i < p->nr_lines_after ? p->lines_after[i].hitm : 0;

		if (!a && !b)
			continue;
		strbuf_addf(sb, "%s line %u: %llu -> %llu", any ? "," : "  HITMs per line:", i,
			    (unsigned long long)b, (unsigned long long)a);
		any = true;
	}
	if (any)
		strbuf_addch(sb, '\n');
}

static void format_option(struct strbuf *sb, const struct proposal *p,
			  const struct struct_profile *prof, unsigned int cl, uint32_t idx,
			  bool between)
{
	struct layout_print_opts o = { .cacheline_size = cl,
				       .annotate = annotate_heat,
				       .annotate_arg = (void *)prof };
	uint32_t i;

	strbuf_addf(sb, "\noption %u: %s\n", idx + 1, p->title);
	strbuf_addf(sb, "  size %llu -> %llu (%+lld bytes), cache lines %u -> %u\n",
		    (unsigned long long)p->old_size, (unsigned long long)p->new_size,
		    (long long)p->new_size - (long long)p->old_size, p->old_lines, p->new_lines);
	if (p->note)
		strbuf_addf(sb, "  note: %s\n", p->note);
	if (!p->nr_moves)
		strbuf_addstr(sb, "  moves: none\n");
	for (i = 0; i < p->nr_moves; i++) {
		const struct proposal_move *m = &p->moves[i];

		strbuf_addf(sb, "  %s %s: offset %llu -> %llu (line %u -> %u)\n",
			    p->kind == PROPOSAL_ISOLATE && p->isolated ? "isolate" : "move",
			    m->name, (unsigned long long)m->old_offset,
			    (unsigned long long)m->new_offset, m->old_line, m->new_line);
	}
	strbuf_addf(sb, "  predicted: conflicting field pairs %llu -> %llu",
		    (unsigned long long)p->conflicts_before,
		    (unsigned long long)p->conflicts_after);
	if (p->hitm_before)
		strbuf_addf(sb, "; HITMs %llu -> %llu (%s)", (unsigned long long)p->hitm_before,
			    (unsigned long long)p->hitm_after,
			    between && p->type->alignment < cl ?
				    "objects still share lines: the HITMs between them stay" :
				    "HITMs on a field several contexts write stay: that is true "
				    "sharing");
	strbuf_addch(sb, '\n');
	format_lines(sb, p);
	strbuf_addch(sb, '\n');
	layout_print(sb, p->type, &o);
}

void propose_format_text(struct strbuf *sb, const struct type *t, const struct struct_profile *p,
			 const struct proposer *pr)
{
	uint32_t i;

	type_format_aggregate(sb, t);
	strbuf_addf(sb, ": %llu bytes, %llu cache lines of %u bytes; profile: %s\n",
		    (unsigned long long)t->size,
		    (unsigned long long)((t->size + pr->cl - 1) / pr->cl), pr->cl,
		    p->origin ? p->origin : "counts");
	describe_sharing(sb, t, p, pr);
	propose_format_elements(sb, t, p, pr->cl);
	propose_format_true_sharing(sb, p);
	for (i = 0; i < pr->nr_proposals; i++)
		format_option(sb, &pr->proposals[i], p, pr->cl, i, pr->between_hitm != 0);
}

/* Whether members A and B of T (type_member_path) are on no common cache line. */
static bool apart_in(const struct type *t, const char *a, const char *b, unsigned int cl)
{
	uint64_t af, al, bf, bl;
	struct type_path pa, pb;

	if (type_member_path(t, a, &pa) || type_member_path(t, b, &pb))
		return false;
	type_extent_lines(pa.start, pa.end, cl, &af, &al);
	type_extent_lines(pb.start, pb.end, cl, &bf, &bl);
	return al < bf || bl < af;
}

/*
 * Rules that hold for the chosen proposal: each write-hot field apart from
 * the conflicting fields the proposal moved off its lines, and the size.
 */
void propose_format_rules(struct strbuf *sb, const struct type *t, const struct struct_profile *p,
			  const struct proposal *chosen, unsigned int cl)
{
	uint32_t i, j;

	strbuf_addf(sb, "# Written by c2cscope suggest (%s) from %s.\n", chosen->title,
		    p->origin ? p->origin : "a profile");
	strbuf_addf(sb, "struct %s {\n", type_aggregate_name(t));
	for (i = 0; i < p->nr_fields; i++) {
		const struct field_profile *w = &p->fields[i];
		bool first = true;

		for (j = 0; j < p->nr_fields; j++) {
			if (!profile_field_conflict(w, &p->fields[j]) ||
			    !apart_in(chosen->type, w->name, p->fields[j].name, cl))
				continue;
			if (first)
				strbuf_addf(sb, "\tapart %s: %s", w->name, p->fields[j].name);
			else
				strbuf_addf(sb, ", %s", p->fields[j].name);
			first = false;
		}
		if (!first)
			strbuf_addch(sb, '\n');
	}
	/* an aligned element separates objects only at its full size */
	strbuf_addf(sb, "\tsize %s %llu\n}\n",
		    chosen->align_to ? "==" : "<=", (unsigned long long)chosen->new_size);
}

#ifdef HAVE_JANSSON
static json_t *moves_json(const struct proposal *p)
{
	json_t *arr = json_array();
	uint32_t i;

	for (i = 0; i < p->nr_moves; i++) {
		const struct proposal_move *m = &p->moves[i];

		json_array_append_new(arr, json_pack("{s:s, s:I, s:I, s:I, s:I}", "member", m->name,
						     "old_offset", (json_int_t)m->old_offset,
						     "new_offset", (json_int_t)m->new_offset,
						     "old_line", (json_int_t)m->old_line,
						     "new_line", (json_int_t)m->new_line));
	}
	return arr;
}

static json_t *lines_json(const struct proposal_line *lines, uint32_t n)
{
	json_t *arr = json_array();
	uint32_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(arr, json_pack("{s:I, s:I, s:I}", "line",
						     (json_int_t)lines[i].line, "hitm",
						     (json_int_t)lines[i].hitm, "conflicts",
						     (json_int_t)lines[i].nr_conflicts));
	return arr;
}

static json_t *order_json(const struct type *t, const struct proposal *p)
{
	json_t *arr = json_array();
	uint32_t i;

	for (i = 0; i < p->nr_order; i++) {
		const struct type_member *m = &t->members[p->order[i]];

		json_array_append_new(arr, json_pack("{s:s?, s:i, s:i, s:i, s:I, s:I, s:i, s:b}",
						     "member", m->name, "index", (int)p->order[i],
						     "block", (int)p->blocks[p->order[i]],
						     "wrapper", (int)p->wrappers[p->order[i]],
						     "old_offset", (json_int_t)m->offset, "offset",
						     (json_int_t)p->offsets[p->order[i]],
						     "bit_size", (int)m->bit_size, "isolated",
						     p->isolated[p->order[i]]));
	}
	return arr;
}

static json_t *proposal_json(const struct type *t, const struct proposal *p)
{
	return json_pack(
		"{s:s, s:s?, s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o}",
		"option", propose_kind_name(p->kind), "note", p->note, "align", (int)p->align_to,
		"old_size", (json_int_t)p->old_size, "new_size", (json_int_t)p->new_size,
		"old_cachelines", (json_int_t)p->old_lines, "new_cachelines",
		(json_int_t)p->new_lines, "conflicts_before", (json_int_t)p->conflicts_before,
		"conflicts_after", (json_int_t)p->conflicts_after, "hitm_before",
		(json_int_t)p->hitm_before, "hitm_after", (json_int_t)p->hitm_after, "moves",
		moves_json(p), "order", order_json(t, p), "lines_before",
		lines_json(p->lines_before, p->nr_lines_before), "lines_after",
		lines_json(p->lines_after, p->nr_lines_after));
}

static json_t *fields_json(const struct struct_profile *p)
{
	json_t *arr = json_array();
	uint32_t i;

	for (i = 0; i < p->nr_fields; i++) {
		const struct field_profile *f = &p->fields[i];

		json_array_append_new(arr, json_pack("{s:s, s:s, s:I, s:I, s:I, s:I}", "name",
						     f->name, "class", class_name(f->cls), "loads",
						     (json_int_t)f->loads, "stores",
						     (json_int_t)f->stores, "hitm_local",
						     (json_int_t)f->hitm_local, "hitm_remote",
						     (json_int_t)f->hitm_remote));
	}
	return arr;
}

int propose_format_json(struct strbuf *sb, const struct type *t, const struct struct_profile *p,
			const struct proposer *pr, struct err_msg *err)
{
	json_t *options = json_array(), *doc;
	uint32_t i;

	for (i = 0; i < pr->nr_proposals; i++)
		json_array_append_new(options, proposal_json(t, &pr->proposals[i]));
	doc = json_pack("{s:i, s:s, s:I, s:i, s:s?, s:o, s:o, s:s, s:I}", "c2cscope_suggest", 1,
			"struct", type_aggregate_name(t) ? type_aggregate_name(t) : "", "size",
			(json_int_t)t->size, "cacheline_size", (int)pr->cl, "profile", p->origin,
			"fields", fields_json(p), "options", options, "default",
			propose_kind_name(proposer_choose(pr, NULL)->kind), "between_hitm",
			(json_int_t)pr->between_hitm);
	json_object_set_new(doc, "true_sharing", propose_true_sharing_json(p));
	return layout_json_emit(sb, doc, err);
}
#else
int propose_format_json(struct strbuf *sb, const struct type *t, const struct struct_profile *p,
			const struct proposer *pr, struct err_msg *err)
{
	return err_set(err, ENOTSUP, "built without jansson: JSON output is not available");
}
#endif
