// SPDX-License-Identifier: GPL-2.0
/*
 * suggest --patch's policy: the diff of the chosen option. When its order
 * crosses a preprocessor conditional or splits a declaration the source
 * cannot keep intact, the struct is proposed again under the source's
 * constraints; that proposal is used when it is as good (no more
 * conflicting pairs, no larger), otherwise there is no patch and the
 * caller says why. The text before the diff (moves and offsets) is here
 * too; patch(1) skips everything before "---".
 */
#include "suggest/srcstruct_int.h"

#include <errno.h>
#include <string.h>

/* The option of KIND in pr (the constrained proposer makes the same ones). */
static const struct proposal *pick_kind(const struct proposer *pr, enum proposal_kind kind)
{
	const struct proposal *p = proposer_choose(pr, propose_kind_name(kind));

	return p ? p : proposer_get(pr, 0);
}

static bool as_good(const struct proposal *c, const struct proposal *u)
{
	return c->conflicts_after <= u->conflicts_after && c->new_size <= u->new_size;
}

/*
 * The chosen order cannot be written: propose again under the source's
 * constraints and patch that when it is as good; -EXDEV when there is
 * still no patch (why says what stops it).
 */
static int retry_constrained(const struct suggest_patch_req *req, struct suggest_patch *sp,
			     struct err_msg *why, struct err_msg *err)
{
	struct propose_opts opts = *req->opts;
	const struct proposal *cp;
	int ret;

	suggest_src_constraints(sp->src, &opts);
	ret = suggest_propose(req->t, req->prof, &opts, &sp->constrained_pr, err);
	if (ret)
		return ret;
	cp = pick_kind(sp->constrained_pr, sp->chosen->kind);
	sp->best_constrained = cp;
	if (!as_good(cp, sp->chosen))
		return -EXDEV;
	sp->unconstrained = sp->chosen;
	sp->chosen = cp;
	strbuf_reset(&sp->diff);
	return suggest_src_patch(sp->src, cp, req->cacheline_size, &sp->diff, why);
}

int suggest_patch_make(const struct suggest_patch_req *req, struct suggest_patch *sp,
		       struct err_msg *err)
{
	struct err_msg why = { 0 };
	int ret;

	memset(sp, 0, sizeof(*sp));
	strbuf_init(&sp->diff, 0);
	ret = suggest_src_load(req->t, req->source_dir, &sp->src, err);
	if (ret)
		return ret;
	sp->chosen = proposer_choose(req->pr, req->choose);
	if (!sp->chosen)
		sp->chosen = proposer_get(req->pr, 0);
	if (!sp->chosen->nr_moves && !sp->chosen->align_to) {
		sp->status = SUGGEST_PATCH_NOTHING;
		return 0;
	}
	ret = suggest_src_patch(sp->src, sp->chosen, req->cacheline_size, &sp->diff, &why);
	if (ret == -EXDEV) {
		snprintf(sp->why, sizeof(sp->why), "%s", why.msg);
		memset(&why, 0, sizeof(why));
		ret = retry_constrained(req, sp, &why, err);
		if (ret && ret != -EXDEV && !why.msg[0])
			return ret; /* suggest_propose() failed: err says why */
		if (ret == -EXDEV && why.msg[0])
			snprintf(sp->why, sizeof(sp->why), "%s", why.msg);
	}
	if (ret == -EXDEV) {
		sp->status = SUGGEST_PATCH_REFUSED;
		return 0;
	}
	if (ret)
		return err_set(err, -ret, "%s", why.msg);
	sp->status = SUGGEST_PATCH_DIFF;
	return 0;
}

void suggest_patch_release(struct suggest_patch *sp)
{
	strbuf_release(&sp->diff);
	suggest_src_free(sp->src);
	proposer_free(sp->constrained_pr);
	memset(sp, 0, sizeof(*sp));
}

void suggest_format_moves(struct strbuf *sb, const struct proposal *p)
{
	uint32_t i;

	for (i = 0; i < p->nr_moves; i++)
		strbuf_addf(sb, "  %s %s: offset %llu -> %llu (line %u -> %u)\n",
			    p->kind == PROPOSAL_ISOLATE ? "isolate" : "move", p->moves[i].name,
			    (unsigned long long)p->moves[i].old_offset,
			    (unsigned long long)p->moves[i].new_offset, p->moves[i].old_line,
			    p->moves[i].new_line);
}

/* Every named member's place in the proposed struct, anonymous ones opened. */
static void format_offsets(struct strbuf *sb, const struct type *t, uint64_t base_bits)
{
	uint32_t i;

	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		const struct type *mt = type_strip(m->type);
		uint64_t bit = base_bits + m->bit_offset;

		if (!m->name && mt && (mt->kind == TYPE_STRUCT || mt->kind == TYPE_UNION))
			format_offsets(sb, mt, bit);
		else if (m->bit_size)
			strbuf_addf(sb, "  %s bit %llu\n", m->name ? m->name : "(anonymous)",
				    (unsigned long long)bit);
		else
			strbuf_addf(sb, "  %s %llu\n", m->name ? m->name : "(anonymous)",
				    (unsigned long long)bit / 8);
	}
}

void suggest_patch_format_header(struct strbuf *sb, const struct type *t, const struct proposal *p)
{
	strbuf_addstr(sb, "c2cscope suggest --patch: ");
	type_format_aggregate(sb, t);
	strbuf_addf(sb, ", option '%s'\n", p->title);
	strbuf_addf(sb, "size %llu -> %llu bytes, conflicting field pairs %llu -> %llu\n",
		    (unsigned long long)p->old_size, (unsigned long long)p->new_size,
		    (unsigned long long)p->conflicts_before,
		    (unsigned long long)p->conflicts_after);
	suggest_format_moves(sb, p);
	if (p->align_to)
		strbuf_addf(sb,
			    "  align struct %s to %u bytes: no two objects share a cache line\n",
			    t->name, p->align_to);
	strbuf_addstr(sb, "member offsets after the patch:\n");
	format_offsets(sb, p->type, 0);
	strbuf_addstr(sb, "---\n");
}

/* A refusal: why, in notes; the moves the option would make, in out. */
static void format_refused(const struct suggest_patch *sp, const char *name, struct strbuf *out,
			   struct strbuf *notes)
{
	const struct proposal *p = sp->chosen;

	strbuf_addf(notes,
		    "no patch for struct %s: %s; the best order that keeps the source's "
		    "declarations and conditionals intact leaves %llu conflicting pairs (instead "
		    "of %llu)\n",
		    name, sp->why, (unsigned long long)sp->best_constrained->conflicts_after,
		    (unsigned long long)p->conflicts_after);
	strbuf_addf(out, "moves of option '%s' (%+lld bytes):\n", p->title,
		    (long long)p->new_size - (long long)p->old_size);
	if (!p->nr_moves)
		strbuf_addstr(out, "  none\n");
	suggest_format_moves(out, p);
}

void suggest_patch_format(const struct suggest_patch *sp, const struct type *t, const char *name,
			  struct strbuf *before, struct strbuf *out, struct strbuf *after)
{
	const struct proposal *p = sp->chosen;

	if (sp->status == SUGGEST_PATCH_NOTHING) {
		strbuf_addf(before, "nothing to change: option '%s' keeps ", p->title);
		type_format_aggregate(before, t);
		strbuf_addf(before, " as it is%s%s%s\n", p->note ? " (" : "",
			    p->note ? p->note : "", p->note ? ")" : "");
		return;
	}
	if (sp->status == SUGGEST_PATCH_REFUSED) {
		format_refused(sp, name, out, before);
		return;
	}
	if (sp->unconstrained)
		strbuf_addf(before,
			    "note: the best order cannot be written in the source (%s); using one "
			    "that keeps the source's declarations and conditionals intact, as good "
			    "(%llu conflicting pairs, %+lld bytes)\n",
			    sp->why, (unsigned long long)p->conflicts_after,
			    (long long)p->new_size - (long long)p->old_size);
	suggest_patch_format_header(out, t, p);
	strbuf_add(out, sp->diff.buf, sp->diff.len);
	strbuf_addstr(after, "patch for ");
	type_format_aggregate(after, t);
	strbuf_addf(after, ", option '%s': %u move%s, size %llu -> %llu\n", p->title, p->nr_moves,
		    p->nr_moves == 1 ? "" : "s", (unsigned long long)p->old_size,
		    (unsigned long long)p->new_size);
}
