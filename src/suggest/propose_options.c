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

static void setup_weights(struct proposer *pr)
{
	uint32_t a, b, n = pr->nr_fields;

	pr->weight = xcalloc((size_t)n * n + 1, sizeof(*pr->weight));
	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++)
			if (profile_field_conflict(&pr->fields[a], &pr->fields[b]))
				pr->weight[a * n + b] = 1 + field_hitm(&pr->fields[b]);
}

static int setup_members(struct proposer *pr, const struct struct_profile *p,
			 const struct propose_opts *opts, struct c2c_err *err)
{
	const char *const *pinned = opts ? opts->pinned : NULL;
	const struct type *t = pr->t;
	uint32_t i;

	pr->members = xcalloc(t->nr_members + 1, sizeof(*pr->members));
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
			return c2c_err_set(err, EINVAL, "--pin %s: struct %s has no such member",
					   *pinned, t->name ? t->name : "(anonymous)");
		pr->blocks[pr->members[i].block].pinned = true;
	}
	return 0;
}

static const char *member_name(const struct type *t, uint32_t i)
{
	return t->members[i].name ? t->members[i].name : "(anonymous)";
}

/* The input must follow the placement rules we use, or we cannot reason about it. */
static int check_identity(struct proposer *pr, struct c2c_err *err)
{
	uint32_t *order = xmalloc((pr->nr_blocks + 1) * sizeof(*order));
	struct placement *pl = propose_placement_new(pr);
	const char *sname = pr->t->name ? pr->t->name : "(anonymous)";
	struct score sc;
	uint32_t i;
	int ret = 0;

	for (i = 0; i < pr->nr_blocks; i++)
		order[i] = i;
	propose_evaluate(pr, order, NULL, &sc, pl);
	pr->input_conflicts = sc.conflicts;
	for (i = 0; i < pr->t->nr_members && !ret; i++) {
		if (pl->mbit[i] == pr->t->members[i].bit_offset)
			continue;
		ret = c2c_err_set(err, EINVAL,
				  "struct %s: member %s sits at bit %llu where the alignment rules "
				  "put it at bit %llu; refusing to re-lay a struct whose layout "
				  "cannot be reproduced",
				  sname, member_name(pr->t, i),
				  (unsigned long long)pr->t->members[i].bit_offset,
				  (unsigned long long)pl->mbit[i]);
	}
	if (!ret && sc.size != pr->t->size)
		ret = c2c_err_set(
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
 * Per-line predicted HITMs and conflicts under a placement: a field's HITMs
 * stay when it is truly shared, or while a conflicting writer still shares
 * one of its lines; they are counted on the line the field starts on.
 */
static void predict_lines(const struct proposer *pr, const struct placement *pl, uint64_t size,
			  struct proposal_line **out, uint32_t *nr_out, uint64_t *hitm_total)
{
	uint32_t nr_lines = (uint32_t)((size + pr->cl - 1) / pr->cl), i, j;
	struct proposal_line *lines = xcalloc(nr_lines + 1, sizeof(*lines));

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
			if (!share_line(s, e, s2, e2, pr->cl) || !profile_field_conflict(o, f))
				continue;
			stays = true;
			if (line < nr_lines)
				lines[line].nr_conflicts++;
		}
		if (stays && line < nr_lines) {
			lines[line].hitm += field_hitm(f);
			*hitm_total += field_hitm(f);
		} else if (f->hitm_true_known && line < nr_lines) {
			lines[line].hitm += f->hitm_true;
			*hitm_total += f->hitm_true;
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
	p->moves = xcalloc(pr->nr_blocks + 1, sizeof(*p->moves));
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

/* The proposed struct as a model type, so the printer and the gate read it. */
static const struct type *build_type(struct proposer *pr, const uint32_t *order,
				     const bool *isolated, const struct placement *pl,
				     uint64_t size)
{
	const struct type *t = pr->t;
	struct type *nt = type_db_add(pr->db, t->kind, t->name);
	struct type_member *mem;
	uint32_t k, n = 0;

	nt->size = size;
	nt->alignment = t->alignment;
	nt->packed = t->packed;
	nt->decl_file = t->decl_file ? type_db_intern(pr->db, t->decl_file) : NULL;
	nt->decl_line = t->decl_line;
	for (k = 0; k < pr->nr_blocks; k++) {
		const struct block *b = &pr->blocks[order[k]];

		n += isolated && isolated[order[k]] ? 1 : b->last - b->first + 1;
	}
	mem = type_db_add_members(pr->db, nt, n);
	for (k = 0; k < pr->nr_blocks; k++) {
		const struct block *b = &pr->blocks[order[k]];
		uint32_t cnt = b->last - b->first + 1;
		uint64_t at = pl->boff[order[k]];
		uint64_t s, e, end = 0;
		uint32_t i;
		struct type *w;

		if (!isolated || !isolated[order[k]]) {
			copy_members(pr, mem, b->first, b->last, pl, 0);
			mem += cnt;
			continue;
		}
		w = type_db_add(pr->db, TYPE_STRUCT, NULL);
		for (i = b->first; i <= b->last; i++) {
			propose_member_span(pr, pl, i, &s, &e);
			if (e > end)
				end = e;
		}
		w->size = (end - at + pr->cl - 1) / pr->cl * pr->cl;
		w->alignment = pr->cl;
		copy_members(pr, type_db_add_members(pr->db, w, cnt), b->first, b->last, pl, at);
		mem->type = w;
		mem->offset = at;
		mem->bit_offset = at * 8;
		mem->alignment = pr->cl;
		mem++;
	}
	return nt;
}

static void finish_proposal(struct proposer *pr, struct proposal *p, const uint32_t *order,
			    const bool *isolated)
{
	struct placement *pl = propose_placement_new(pr), *orig = propose_placement_new(pr);
	uint32_t *identity = xcalloc(pr->nr_blocks + 1, sizeof(*identity));
	struct score sc;
	uint32_t i, k, m, pos = 0;

	for (i = 0; i < pr->nr_blocks; i++)
		identity[i] = i;
	propose_place(pr, identity, NULL, orig);
	propose_evaluate(pr, order, isolated, &sc, pl);
	p->old_size = pr->t->size;
	p->new_size = sc.size;
	p->old_lines = (uint32_t)((p->old_size + pr->cl - 1) / pr->cl);
	p->new_lines = (uint32_t)((p->new_size + pr->cl - 1) / pr->cl);
	p->conflicts_before = pr->input_conflicts;
	p->conflicts_after = sc.conflicts;
	predict_lines(pr, orig, p->old_size, &p->lines_before, &p->nr_lines_before,
		      &p->hitm_before);
	predict_lines(pr, pl, p->new_size, &p->lines_after, &p->nr_lines_after, &p->hitm_after);
	describe_moves(pr, p, order, pl, isolated);
	p->type = build_type(pr, order, isolated, pl, sc.size);
	p->nr_order = pr->t->nr_members;
	p->order = xcalloc(pr->t->nr_members + 1, sizeof(*p->order));
	p->isolated = xcalloc(pr->t->nr_members + 1, sizeof(*p->isolated));
	p->offsets = xcalloc(pr->t->nr_members + 1, sizeof(*p->offsets));
	p->blocks = xcalloc(pr->t->nr_members + 1, sizeof(*p->blocks));
	for (k = 0; k < pr->nr_blocks; k++) {
		const struct block *b = &pr->blocks[order[k]];

		for (m = b->first; m <= b->last; m++) {
			p->order[pos++] = m;
			p->isolated[m] = isolated && isolated[order[k]];
			p->offsets[m] = pl->mbit[m] / 8;
			p->blocks[m] = pr->members[m].block;
		}
	}
	free(identity);
	propose_placement_free(pl);
	propose_placement_free(orig);
}

static void propose_reorder(struct proposer *pr)
{
	struct proposal *p = &pr->proposals[pr->nr_proposals++];
	uint32_t *order = xcalloc(pr->nr_blocks + 1, sizeof(*order)), i;

	for (i = 0; i < pr->nr_blocks; i++)
		order[i] = i;
	propose_search_reorder(pr, order, pr->t->size);
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
			if (profile_field_conflict(&pr->fields[f], &pr->fields[j])) {
				iso[pr->members[i].block] = true;
				any = true;
				break;
			}
		}
	}
	p->kind = PROPOSAL_ISOLATE;
	p->title = "isolate with alignment";
	finish_proposal(pr, p, order, iso);
	if (pr->t->packed)
		p->note = "a packed struct ignores the alignment isolation needs: use reorder";
	else if (!any)
		p->note = "no write-hot field shares with other contexts: nothing to isolate";
	free(order);
	free(iso);
}

int suggest_propose(const struct type *t, const struct struct_profile *p,
		    const struct propose_opts *opts, struct proposer **out, struct c2c_err *err)
{
	struct proposer *pr;
	size_t pairs;
	int ret;

	t = type_strip(t);
	if (!t || t->kind != TYPE_STRUCT)
		return c2c_err_set(err, EINVAL,
				   "%s is not a struct: only struct members can be reordered",
				   t && t->name ? t->name : "the type");
	pr = xcalloc(1, sizeof(*pr));
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
	pr->scratch_lf = xcalloc(pairs + 1, 2 * sizeof(uint64_t));
	setup_weights(pr);
	ret = check_identity(pr, err);
	if (ret)
		goto out_free;
	propose_reorder(pr);
	propose_isolate(pr);
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

const struct proposal *proposer_choose(const struct proposer *pr, const char *choose)
{
	const struct proposal *reorder = proposer_get(pr, 0), *isolate = proposer_get(pr, 1);

	if (!isolate)
		return reorder;
	if (choose)
		return !strcmp(choose, "reorder") ? reorder : isolate;
	return reorder->conflicts_after == 0 ? reorder : isolate;
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
	uint32_t i;

	if (!pr)
		return;
	for (i = 0; i < pr->nr_proposals; i++) {
		free(pr->proposals[i].moves);
		free(pr->proposals[i].lines_before);
		free(pr->proposals[i].lines_after);
		free(pr->proposals[i].order);
		free(pr->proposals[i].isolated);
		free(pr->proposals[i].offsets);
		free(pr->proposals[i].blocks);
	}
	free(pr->members);
	free(pr->blocks);
	free(pr->groups);
	free(pr->weight);
	free(pr->scratch_lf);
	if (pr->db)
		type_db_free(pr->db);
	free(pr);
}
