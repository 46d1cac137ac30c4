// SPDX-License-Identifier: GPL-2.0
/*
 * The proposer's entry point: check that the struct can be re-laid, weigh
 * field conflicts from the profile, and build the "reorder only" and
 * "isolate with alignment" options with their moves and predicted effect.
 */
#include "suggest/propose_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static uint64_t field_hitm(const struct field_profile *f)
{
	return f->hitm_local + f->hitm_remote;
}

/* A field's HITMs are true sharing when it alone ping-pongs (written by some, touched by others). */
static bool true_sharing(const struct field_profile *f)
{
	uint64_t all = f->writers | field_accessors(f);

	return f->cls == FIELD_WRITE_HOT && (all & (all - 1)) != 0;
}

/*
 * Measured HITMs between objects: what they weigh while objects share
 * lines, and, since the field masks then mix the objects' writers, pairs
 * weigh only by the HITMs the other fields of one object explain.
 */
static void setup_between(struct proposer *pr, const struct struct_profile *p)
{
	uint32_t i;

	pr->profile = p;
	if (!profile_objects_share_lines(p))
		return;
	for (i = 0; i < pr->nr_fields; i++) {
		if (!pr->fields[i].hitm_between)
			continue;
		pr->between_hitm += pr->fields[i].hitm_between;
		pr->between_conflicts += 1 + pr->fields[i].hitm_between;
	}
}

/*
 * Fields the same contexts write and the same contexts read (Huron's
 * grouping): one line for both moves no more than each moves alone, so
 * the pair is no conflict. Two locks taken by the same two threads share
 * a line; their readers' fields go on another.
 */
static bool same_contexts(const struct field_profile *a, const struct field_profile *b)
{
	return a->cls == FIELD_WRITE_HOT && b->cls == FIELD_WRITE_HOT && a->writers == b->writers &&
	       a->readers == b->readers;
}

static void setup_weights(struct proposer *pr)
{
	uint32_t a, b, n = pr->nr_fields;

	pr->weight = propose_alloc(pr, (size_t)n * n + 1, sizeof(*pr->weight));
	for (b = 0; b < n; b++) {
		uint64_t h = profile_hitm_inside(pr->profile, &pr->fields[b]);

		if (pr->between_hitm && !profile_pairs_inside(pr->profile, &pr->fields[b]))
			continue; /* one writer per object: a pair only by HITMs */
		for (a = 0; a < n; a++)
			if (profile_field_conflict(&pr->fields[a], &pr->fields[b]) &&
			    !same_contexts(&pr->fields[a], &pr->fields[b]))
				pr->weight[a * n + b] = 1 + h;
	}
}

static int setup_members(struct proposer *pr, const struct struct_profile *p,
			 const struct propose_opts *opts, struct err_msg *err)
{
	const char *const *pinned = opts ? opts->pinned : NULL;
	const struct type *t = pr->t;
	uint32_t i;

	pr->members = propose_alloc(pr, t->nr_members + 1, sizeof(*pr->members));
	pr->fields = p->fields;
	pr->nr_fields = p->nr_fields;
	if (opts) {
		pr->glue = opts->glue;
		pr->nr_glue = opts->nr_glue;
	}
	for (i = 0; i < t->nr_members; i++) {
		const struct field_profile *f = profile_member_field(p, &t->members[i]);

		pr->members[i].field = f ? (int32_t)(f - p->fields) : -1;
	}
	propose_build_blocks(pr);
	propose_build_groups(pr, opts ? opts->groups : NULL, opts ? opts->nr_groups : 0);
	for (; pinned && *pinned; pinned++) {
		for (i = 0; i < t->nr_members; i++)
			if (t->members[i].name && !strcmp(t->members[i].name, *pinned))
				break;
		if (i == t->nr_members)
			return err_set(
				err, EINVAL, "--pin %s: struct %s has no such member", *pinned,
				type_aggregate_name(t) ? type_aggregate_name(t) : "(anonymous)");
		pr->blocks[pr->members[i].block].pinned = true;
	}
	return 0;
}

static const char *member_name(const struct type *t, uint32_t i)
{
	return t->members[i].name ? t->members[i].name : "(anonymous)";
}

/* Whether objects of the struct can share no line: it is aligned to one. */
static bool objects_apart(const struct proposer *pr, uint32_t align)
{
	return align >= pr->cl;
}

/* The input must follow the placement rules we use, or we cannot reason about it. */
static int check_identity(struct proposer *pr, struct err_msg *err)
{
	uint32_t *order = xmalloc((pr->nr_blocks + 1) * sizeof(*order));
	struct placement *pl = propose_placement_new(pr);
	const char *sname = type_aggregate_name(pr->t) ? type_aggregate_name(pr->t) : "(anonymous)";
	struct score sc;
	uint32_t i;
	int ret = 0;

	for (i = 0; i < pr->nr_blocks; i++)
		order[i] = i;
	propose_evaluate(pr, order, NULL, &sc, pl);
	pr->input_conflicts = sc.conflicts;
	if (!objects_apart(pr, pr->struct_align))
		pr->input_conflicts += pr->between_conflicts;
	for (i = 0; i < pr->t->nr_members && !ret; i++) {
		if (pl->mbit[i] == pr->t->members[i].bit_offset)
			continue;
		ret = err_set(err, EINVAL,
			      "struct %s: member %s sits at bit %llu where the alignment rules "
			      "put it at bit %llu; refusing to re-lay a struct whose layout "
			      "cannot be reproduced",
			      sname, member_name(pr->t, i),
			      (unsigned long long)pr->t->members[i].bit_offset,
			      (unsigned long long)pl->mbit[i]);
	}
	if (!ret && sc.size != pr->t->size)
		ret = err_set(
			err, EINVAL,
			"struct %s: size %llu differs from the %llu the alignment rules give; "
			"refusing to re-lay it",
			sname, (unsigned long long)pr->t->size, (unsigned long long)sc.size);
	free(order);
	propose_placement_free(pl);
	return ret;
}

static bool share_line(uint64_t s1, uint64_t e1, uint64_t s2, uint64_t e2, unsigned int cl)
{
	return s1 / cl <= (e2 - 1) / cl && s2 / cl <= (e1 - 1) / cl;
}

/*
 * A field's HITMs under a placement: all of them while it stays (a
 * conflicting field shares one of its lines, or it is truly shared), else
 * its true sharing when that is known. Those between objects stay while
 * objects share lines and go once they are apart.
 */
static uint64_t field_hitm_placed(const struct field_profile *f, bool stays, bool apart)
{
	uint64_t with_between;

	if (!stays && !f->hitm_true_known)
		return 0;
	with_between = stays ? field_hitm(f) : f->hitm_true + f->hitm_between;
	if (apart && f->hitm_true_known && f->hitm_between <= with_between)
		return with_between - f->hitm_between;
	return with_between;
}

/*
 * Per-line predicted HITMs and conflicts under a placement: a field's HITMs
 * stay when it is truly shared, or while a conflicting writer still shares
 * one of its lines; they are counted on the line the field starts on.
 */
static void predict_lines(struct proposer *pr, const struct placement *pl, uint64_t size,
			  bool apart, struct proposal_line **out, uint32_t *nr_out,
			  uint64_t *hitm_total)
{
	uint32_t nr_lines = (uint32_t)((size + pr->cl - 1) / pr->cl), i, j;
	struct proposal_line *lines = propose_alloc(pr, nr_lines + 1, sizeof(*lines));

	for (i = 0; i < nr_lines; i++)
		lines[i].line = i;
	*hitm_total = 0;
	for (i = 0; i < pr->t->nr_members; i++) {
		const struct field_profile *f;
		uint64_t s, e, s2, e2;
		uint32_t line;
		bool stays;

		if (pr->members[i].field < 0)
			continue;
		f = &pr->fields[pr->members[i].field];
		propose_member_span(pr, pl, i, &s, &e);
		line = (uint32_t)(s / pr->cl);
		stays = !f->hitm_true_known && true_sharing(f);
		for (j = 0; j < pr->t->nr_members; j++) {
			const struct field_profile *o;

			if (j == i || pr->members[j].field < 0)
				continue;
			o = &pr->fields[pr->members[j].field];
			propose_member_span(pr, pl, j, &s2, &e2);
			if (!share_line(s, e, s2, e2, pr->cl) ||
			    !pr->weight[(size_t)(o - pr->fields) * pr->nr_fields +
					(size_t)(f - pr->fields)])
				continue;
			stays = true;
			if (line < nr_lines)
				lines[line].nr_conflicts++;
		}
		if (line < nr_lines) {
			uint64_t h = field_hitm_placed(f, stays, apart);

			lines[line].hitm += h;
			*hitm_total += h;
		}
	}
	*out = lines;
	*nr_out = nr_lines;
}

static const char *block_label(struct proposer *pr, const struct block *b)
{
	const struct type_member *m = &pr->t->members[b->first];
	struct strbuf sb = STRBUF_INIT;

	if (b->first == b->last)
		return type_db_intern(pr->db, m->name ? m->name : "(anonymous)");
	if (type_group_marker(m, true))
		strbuf_addf(&sb, "group %s", type_group_marker(m, true));
	else
		strbuf_addf(&sb, "%s..%s", m->name ? m->name : "(anonymous)",
			    pr->t->members[b->last].name ? pr->t->members[b->last].name :
							   "(anonymous)");
	{
		const char *s = type_db_intern(pr->db, sb.buf);

		strbuf_release(&sb);
		return s;
	}
}

/*
 * Mark the positions of a run of blocks that kept their relative order,
 * preferring runs of blocks that also kept their offsets (weight 3 against
 * 1), so that "moved" names what a reader would say moved.
 */
static void kept_order(const struct proposer *pr, const uint32_t *order, const struct placement *pl,
		       bool *kept)
{
	uint32_t n = pr->nr_blocks, i, j, best = 0;
	uint64_t *score = xcalloc(n + 1, sizeof(*score));
	uint32_t *prev = xcalloc(n + 1, sizeof(*prev));

	for (i = 0; i < n; i++) {
		uint64_t w = pl->boff[order[i]] == pr->blocks[order[i]].start ? 3 : 1;

		score[i] = w;
		prev[i] = UINT32_MAX;
		for (j = 0; j < i; j++) {
			if (order[j] < order[i] && score[j] + w > score[i]) {
				score[i] = score[j] + w;
				prev[i] = j;
			}
		}
		if (score[i] > score[best])
			best = i;
	}
	memset(kept, 0, n * sizeof(*kept));
	for (i = n ? best : UINT32_MAX; i != UINT32_MAX; i = prev[i])
		kept[i] = true;
	free(score);
	free(prev);
}

/*
 * Moves in plain words: the blocks that left their relative order (reorder),
 * or that were wrapped in an aligned struct (isolate). Blocks that only
 * shifted because others moved are not moves.
 */
static void describe_moves(struct proposer *pr, struct proposal *p, const uint32_t *order,
			   const struct placement *pl, const bool *isolated)
{
	bool *kept = xcalloc(pr->nr_blocks + 1, sizeof(*kept));
	uint32_t k;

	kept_order(pr, order, pl, kept);
	p->moves = propose_alloc(pr, pr->nr_blocks + 1, sizeof(*p->moves));
	for (k = 0; k < pr->nr_blocks; k++) {
		const struct block *b = &pr->blocks[order[k]];
		struct proposal_move *mv;

		if (kept[k] && !(isolated && isolated[order[k]]))
			continue;
		mv = &p->moves[p->nr_moves++];
		mv->name = block_label(pr, b);
		mv->old_offset = b->start;
		mv->new_offset = pl->boff[order[k]];
		mv->old_line = (uint32_t)(b->start / pr->cl);
		mv->new_line = (uint32_t)(pl->boff[order[k]] / pr->cl);
	}
	free(kept);
}

/* Copy members first..last of the input, at their placed offsets minus base bytes. */
static void copy_members(const struct proposer *pr, struct type_member *dst, uint32_t first,
			 uint32_t last, const struct placement *pl, uint64_t base)
{
	uint32_t i;

	for (i = first; i <= last; i++, dst++) {
		*dst = pr->t->members[i];
		dst->bit_offset = pl->mbit[i] - base * 8;
		dst->offset = dst->bit_offset / 8;
	}
}

/* How many blocks from position K of ORDER go in the wrapper K opens. */
static uint32_t wrapper_span(const struct proposer *pr, const uint32_t *order, const bool *isolated,
			     uint32_t k)
{
	uint32_t n = 1;

	while (k + n < pr->nr_blocks && isolated[order[k + n]] &&
	       propose_joins_wrapper(pr, order, isolated, k + n))
		n++;
	return n;
}

/* MEM: the anonymous aligned struct holding the SPAN blocks at ORDER. */
static void add_wrapper(struct proposer *pr, struct type_member *mem, const uint32_t *order,
			uint32_t span, const struct placement *pl)
{
	struct type *w = type_db_add(pr->db, TYPE_STRUCT, NULL);
	uint64_t at = pl->boff[order[0]], s, e, end = 0;
	struct type_member *dst;
	uint32_t k, i, cnt = 0;

	for (k = 0; k < span; k++) {
		const struct block *b = &pr->blocks[order[k]];

		cnt += b->last - b->first + 1;
		for (i = b->first; i <= b->last; i++) {
			propose_member_span(pr, pl, i, &s, &e);
			if (e > end)
				end = e;
		}
	}
	w->size = (end - at + pr->cl - 1) / pr->cl * pr->cl;
	w->alignment = pr->cl;
	dst = type_db_add_members(pr->db, w, cnt);
	for (k = 0; k < span; k++) {
		const struct block *b = &pr->blocks[order[k]];

		copy_members(pr, dst, b->first, b->last, pl, at);
		dst += b->last - b->first + 1;
	}
	mem->type = w;
	mem->offset = at;
	mem->bit_offset = at * 8;
	mem->alignment = pr->cl;
}

/* The proposed struct as a model type, so the printer and the gate read it. */
static const struct type *build_type(struct proposer *pr, const uint32_t *order,
				     const bool *isolated, const struct placement *pl,
				     uint64_t size, uint32_t align_to)
{
	const struct type *t = pr->t;
	struct type *nt = type_db_add(pr->db, t->kind, t->name);
	struct type_member *mem;
	uint32_t k, n = 0, span;

	nt->size = size;
	nt->alignment = align_to > t->alignment ? align_to : t->alignment;
	nt->packed = t->packed;
	nt->decl_file = t->decl_file ? type_db_intern(pr->db, t->decl_file) : NULL;
	nt->decl_line = t->decl_line;
	if (t->typedef_name) /* "typedef struct {...} args_t;" stays args_t */
		nt->typedef_name = type_db_intern(pr->db, t->typedef_name);
	for (k = 0; k < pr->nr_blocks; k += span) {
		const struct block *b = &pr->blocks[order[k]];
		bool iso = isolated && isolated[order[k]];

		span = iso ? wrapper_span(pr, order, isolated, k) : 1;
		n += iso ? 1 : b->last - b->first + 1;
	}
	mem = type_db_add_members(pr->db, nt, n);
	for (k = 0; k < pr->nr_blocks; k += span) {
		const struct block *b = &pr->blocks[order[k]];

		span = 1;
		if (!isolated || !isolated[order[k]]) {
			copy_members(pr, mem, b->first, b->last, pl, 0);
			mem += b->last - b->first + 1;
			continue;
		}
		span = wrapper_span(pr, order, isolated, k);
		add_wrapper(pr, mem++, order + k, span, pl);
	}
	return nt;
}

/* The struct's alignment under a proposal: a wrapper's, or the option's. */
static uint32_t proposal_align(const struct proposer *pr, const struct proposal *p,
			       const bool *isolated)
{
	uint32_t i, a = pr->struct_align > p->align_to ? pr->struct_align : p->align_to;

	for (i = 0; isolated && i < pr->nr_blocks; i++)
		if (isolated[i] && pr->cl > a)
			a = pr->cl;
	return a;
}

static void finish_proposal(struct proposer *pr, struct proposal *p, const uint32_t *order,
			    const bool *isolated)
{
	struct placement *pl = propose_placement_new(pr), *orig = propose_placement_new(pr);
	uint32_t *identity = xcalloc(pr->nr_blocks + 1, sizeof(*identity));
	uint32_t i, k, m, pos = 0, align = proposal_align(pr, p, isolated);
	struct score sc;
	bool apart = objects_apart(pr, align);

	for (i = 0; i < pr->nr_blocks; i++)
		identity[i] = i;
	propose_place(pr, identity, NULL, orig);
	propose_evaluate(pr, order, isolated, &sc, pl);
	p->old_size = pr->t->size;
	p->new_size = align > 1 ? (sc.size + align - 1) / align * align : sc.size;
	p->old_lines = (uint32_t)((p->old_size + pr->cl - 1) / pr->cl);
	p->new_lines = (uint32_t)((p->new_size + pr->cl - 1) / pr->cl);
	p->conflicts_before = pr->input_conflicts;
	p->conflicts_after = sc.conflicts + (apart ? 0 : pr->between_conflicts);
	predict_lines(pr, orig, p->old_size, objects_apart(pr, pr->struct_align), &p->lines_before,
		      &p->nr_lines_before, &p->hitm_before);
	predict_lines(pr, pl, p->new_size, apart, &p->lines_after, &p->nr_lines_after,
		      &p->hitm_after);
	describe_moves(pr, p, order, pl, isolated);
	p->type = build_type(pr, order, isolated, pl, p->new_size, p->align_to);
	p->nr_order = pr->t->nr_members;
	p->order = propose_alloc(pr, pr->t->nr_members + 1, sizeof(*p->order));
	p->isolated = propose_alloc(pr, pr->t->nr_members + 1, sizeof(*p->isolated));
	p->wrappers = propose_alloc(pr, pr->t->nr_members + 1, sizeof(*p->wrappers));
	p->offsets = propose_alloc(pr, pr->t->nr_members + 1, sizeof(*p->offsets));
	p->blocks = propose_alloc(pr, pr->t->nr_members + 1, sizeof(*p->blocks));
	for (k = 0; k < pr->nr_blocks; k++) {
		const struct block *b = &pr->blocks[order[k]];

		for (m = b->first; m <= b->last; m++) {
			p->order[pos++] = m;
			p->isolated[m] = isolated && isolated[order[k]];
			p->wrappers[m] = pr->wrap_with && p->isolated[m] ? pr->wrap_with[order[k]] :
									   pr->members[m].block;
			p->offsets[m] = pl->mbit[m] / 8;
			p->blocks[m] = pr->members[m].block;
		}
	}
	free(identity);
	propose_placement_free(pl);
	propose_placement_free(orig);
}

/* The best block order that keeps the size (the caller frees it). */
static uint32_t *best_order(struct proposer *pr)
{
	uint32_t *order = xcalloc(pr->nr_blocks + 1, sizeof(*order)), i;

	for (i = 0; i < pr->nr_blocks; i++)
		order[i] = i;
	propose_search_reorder(pr, order, pr->t->size);
	return order;
}

static void propose_reorder(struct proposer *pr)
{
	struct proposal *p = &pr->proposals[pr->nr_proposals++];
	uint32_t *order = best_order(pr);

	p->kind = PROPOSAL_REORDER;
	p->title = "reorder only";
	finish_proposal(pr, p, order, NULL);
	if (!pr->input_conflicts)
		p->note = "no line holds a write-hot field with a field other contexts touch";
	else if (p->conflicts_after == pr->input_conflicts)
		p->note = "no order of the members separates them without growing the struct";
	else if (p->conflicts_after)
		p->note = "separates part of the sharing; the rest needs the struct to grow";
	free(order);
}

/* The profile field of block b's first profiled member, or NULL. */
static const struct field_profile *block_field(const struct proposer *pr, uint32_t b)
{
	uint32_t i;

	for (i = pr->blocks[b].first; i <= pr->blocks[b].last; i++)
		if (pr->members[i].field >= 0)
			return &pr->fields[pr->members[i].field];
	return NULL;
}

/*
 * One wrapper for the isolated blocks whose fields the same contexts
 * write and read (pr->wrap_with), the later ones moved up behind the
 * first in ORDER; every other block keeps its place.
 */
static void group_wrappers(struct proposer *pr, const bool *iso, uint32_t *order)
{
	uint32_t n = pr->nr_blocks, b, l, k = 0;
	bool *placed = xcalloc(n + 1, sizeof(*placed));

	pr->wrap_with = propose_alloc(pr, n + 1, sizeof(*pr->wrap_with));
	for (b = 0; b < n; b++) {
		pr->wrap_with[b] = iso[b] ? b : UINT32_MAX;
		for (l = 0; iso[b] && l < b; l++)
			if (pr->wrap_with[l] == l && block_field(pr, l) && block_field(pr, b) &&
			    same_contexts(block_field(pr, l), block_field(pr, b))) {
				pr->wrap_with[b] = l;
				break;
			}
	}
	for (b = 0; b < n; b++) {
		if (placed[b])
			continue;
		order[k++] = b;
		placed[b] = true;
		for (l = b + 1; pr->wrap_with[b] == b && l < n; l++)
			if (pr->wrap_with[l] == b) {
				order[k++] = l;
				placed[l] = true;
			}
	}
	free(placed);
}

/* Set the isolation of every block in the wrapper LEAD opens. */
static void set_wrapper(const struct proposer *pr, bool *iso, uint32_t lead, bool on)
{
	uint32_t b;

	for (b = 0; b < pr->nr_blocks; b++)
		if (pr->wrap_with[b] == lead)
			iso[b] = on;
}

/*
 * Weigh lines added against conflicts removed: drop each wrapper whose
 * fields, left unwrapped, conflict with nothing more while the struct
 * gets smaller (a written field beside cold bytes needs no line of its
 * own). Not where objects share lines: the wrappers' alignment is what
 * keeps them apart.
 */
static void drop_needless_wrappers(struct proposer *pr, bool *iso, const uint32_t *order)
{
	struct placement *pl = propose_placement_new(pr);
	struct score best, sc;
	uint32_t lead, b;

	propose_evaluate(pr, order, iso, &best, pl);
	for (lead = 0; lead < pr->nr_blocks && !pr->between_hitm; lead++) {
		if (!iso[lead] || pr->wrap_with[lead] != lead)
			continue;
		set_wrapper(pr, iso, lead, false);
		propose_evaluate(pr, order, iso, &sc, pl);
		if (sc.conflicts > best.conflicts || sc.size >= best.size) {
			set_wrapper(pr, iso, lead, true);
			continue;
		}
		best = sc;
		for (b = 0; b < pr->nr_blocks; b++)
			if (b != lead && pr->wrap_with[b] == lead)
				pr->wrap_with[b] = UINT32_MAX;
		pr->wrap_with[lead] = UINT32_MAX;
	}
	propose_placement_free(pl);
}

static void propose_isolate(struct proposer *pr)
{
	struct proposal *p = &pr->proposals[pr->nr_proposals++];
	uint32_t *order = xcalloc(pr->nr_blocks + 1, sizeof(*order));
	bool *iso = xcalloc(pr->nr_blocks + 1, sizeof(*iso)), any = false;
	uint32_t i, j;

	for (i = 0; i < pr->nr_blocks; i++)
		order[i] = i;
	for (i = 0; i < pr->t->nr_members && !pr->t->packed; i++) {
		int32_t f = pr->members[i].field;

		if (f < 0 || pr->fields[f].cls != FIELD_WRITE_HOT)
			continue;
		/* A flexible array cannot be wrapped, and a zero-size field holds no data. */
		if (pr->blocks[pr->members[i].block].fixed_last ||
		    !pr->blocks[pr->members[i].block].size)
			continue;
		for (j = 0; j < pr->nr_fields; j++) {
			if (pr->weight[(uint32_t)f * pr->nr_fields + j]) {
				iso[pr->members[i].block] = true;
				any = true;
				break;
			}
		}
	}
	group_wrappers(pr, iso, order);
	drop_needless_wrappers(pr, iso, order);
	p->kind = PROPOSAL_ISOLATE;
	p->title = "isolate with alignment";
	finish_proposal(pr, p, order, iso);
	if (pr->t->packed)
		p->note = "a packed struct ignores the alignment isolation needs: use reorder";
	else if (!any && pr->between_hitm)
		p->note = "no write-hot field shares a line with fields of its own object that "
			  "other contexts touch: the sharing is between objects (align)";
	else if (!any)
		p->note = "no write-hot field shares with other contexts: nothing to isolate";
	free(order);
	free(iso);
}

/*
 * Objects of the struct share lines (an array of per-thread structs): the
 * struct aligned to the cache line, its members in the best order that
 * keeps the size (usually none moves), the tail padded to whole lines.
 */
static void propose_align(struct proposer *pr)
{
	struct proposal *p = &pr->proposals[pr->nr_proposals++];
	uint32_t *order = best_order(pr);

	p->kind = PROPOSAL_ALIGN;
	p->title = "align the element";
	p->align_to = pr->cl;
	finish_proposal(pr, p, order, NULL);
	if (p->conflicts_after)
		p->note = "objects no longer share lines, but fields of one object still do: "
			  "isolate them too";
	free(order);
}

int suggest_propose(const struct type *t, const struct struct_profile *p,
		    const struct propose_opts *opts, struct proposer **out, struct err_msg *err)
{
	struct proposer *pr;
	size_t pairs;
	int ret;

	t = type_strip(t);
	if (!t || t->kind != TYPE_STRUCT)
		return err_set(err, EINVAL,
			       "%s is not a struct: only struct members can be reordered",
			       t && t->name ? t->name : "the type");
	pr = xcalloc(1, sizeof(*pr));
	pr->arena = (struct arena)ARENA_INIT(64 << 10, false);
	pr->t = t;
	pr->cl = opts && opts->cacheline_size ? opts->cacheline_size : 64;
	pr->struct_align = t->alignment ? t->alignment : 1;
	pr->db = type_db_new("proposal", t->name ? t->name : "");
	ret = setup_members(pr, p, opts, err);
	if (ret)
		goto out_free;
	pairs = 0;
	for (uint32_t i = 0; i < t->nr_members; i++)
		pairs += type_size(t->members[i].type) / pr->cl + 2;
	pr->scratch_lf = propose_alloc(pr, pairs + 1, 2 * sizeof(uint64_t));
	setup_between(pr, p);
	setup_weights(pr);
	ret = check_identity(pr, err);
	if (ret)
		goto out_free;
	propose_reorder(pr);
	propose_isolate(pr);
	if (pr->between_hitm && !t->packed && !objects_apart(pr, pr->struct_align))
		propose_align(pr);
	type_db_finish(pr->db);
	*out = pr;
	return 0;
out_free:
	proposer_free(pr);
	return ret;
}

uint32_t proposer_nr(const struct proposer *pr)
{
	return pr->nr_proposals;
}

const struct proposal *proposer_get(const struct proposer *pr, uint32_t i)
{
	return i < pr->nr_proposals ? &pr->proposals[i] : NULL;
}

static const char *const kind_names[] = {
	[PROPOSAL_REORDER] = "reorder",
	[PROPOSAL_ISOLATE] = "isolate",
	[PROPOSAL_ALIGN] = "align",
};

const char *propose_kind_name(enum proposal_kind kind)
{
	return (size_t)kind < ARRAY_SIZE(kind_names) ? kind_names[kind] : "align";
}

bool propose_kind_known(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kind_names); i++)
		if (!strcmp(name, kind_names[i]))
			return true;
	return false;
}

/* Whether A leaves fewer conflicts than B, or as few in fewer bytes. */
static bool fewer_conflicts(const struct proposal *a, const struct proposal *b)
{
	if (a->conflicts_after != b->conflicts_after)
		return a->conflicts_after < b->conflicts_after;
	return a->new_size < b->new_size;
}

const struct proposal *proposer_choose(const struct proposer *pr, const char *choose)
{
	const struct proposal *best = NULL;
	uint32_t i;

	if (choose) {
		for (i = 0; i < pr->nr_proposals; i++)
			if (!strcmp(choose, propose_kind_name(pr->proposals[i].kind)))
				return &pr->proposals[i];
		return NULL;
	}
	/* the smallest complete fix */
	for (i = 0; i < pr->nr_proposals; i++)
		if (!pr->proposals[i].conflicts_after &&
		    (!best || pr->proposals[i].new_size < best->new_size))
			best = &pr->proposals[i];
	if (best || pr->nr_proposals < 2)
		return best ? best : proposer_get(pr, 0);
	if (!pr->between_hitm)
		return &pr->proposals[1]; /* isolate leaves the least */
	best = &pr->proposals[0];
	for (i = 1; i < pr->nr_proposals; i++)
		if (fewer_conflicts(&pr->proposals[i], best))
			best = &pr->proposals[i];
	return best;
}

uint64_t proposer_between_hitm(const struct proposer *pr)
{
	return pr->between_hitm;
}

uint64_t proposer_conflicts(const struct proposer *pr)
{
	return pr->input_conflicts;
}

unsigned int proposer_cacheline_size(const struct proposer *pr)
{
	return pr->cl;
}

void proposer_free(struct proposer *pr)
{
	if (!pr)
		return;
	free(pr->blocks);
	if (pr->db)
		type_db_free(pr->db);
	arena_release(&pr->arena);
	free(pr);
}
