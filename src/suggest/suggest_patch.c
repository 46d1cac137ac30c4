// SPDX-License-Identifier: GPL-2.0
/*
 * suggest --patch's policy (suggest.h): the diff of the chosen option.
 * When the best order crosses a preprocessor conditional the source cannot
 * keep intact, the proposal is made again under the source's constraints;
 * if that is as good it is used, otherwise no patch: the reason and the
 * move list. The command prints what this returns; so does the TUI.
 */
#include <errno.h>
#include <string.h>

#include "suggest/suggest.h"
#include "util/strbuf.h"

static const struct proposal *pick(const struct proposer *pr, bool isolate)
{
	return proposer_get(pr, isolate ? 1 : 0);
}

/* One line per move of the proposal. */
static void move_lines(const struct proposal *p, struct strbuf *out)
{
	uint32_t i;

	for (i = 0; i < p->nr_moves; i++)
		strbuf_addf(out, "  %s %s: offset %llu -> %llu (line %u -> %u)\n",
			    p->kind == PROPOSAL_ISOLATE ? "isolate" : "move", p->moves[i].name,
			    (unsigned long long)p->moves[i].old_offset,
			    (unsigned long long)p->moves[i].new_offset, p->moves[i].old_line,
			    p->moves[i].new_line);
}

static void moves(const struct proposal *p, struct strbuf *out)
{
	strbuf_addf(out, "moves of option '%s' (%+lld bytes):\n", p->title,
		    (long long)p->new_size - (long long)p->old_size);
	if (!p->nr_moves)
		strbuf_addstr(out, "  none\n");
	move_lines(p, out);
}

/* Every named member's place in the proposed struct, anonymous ones opened. */
static void offsets(const struct type *t, uint64_t base_bits, struct strbuf *out)
{
	uint32_t i;

	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		const struct type *mt = type_strip(m->type);
		uint64_t bit = base_bits + m->bit_offset;

		if (!m->name && mt && (mt->kind == TYPE_STRUCT || mt->kind == TYPE_UNION))
			offsets(mt, bit, out);
		else if (m->bit_size)
			strbuf_addf(out, "  %s bit %llu\n", m->name ? m->name : "(anonymous)",
				    (unsigned long long)bit);
		else
			strbuf_addf(out, "  %s %llu\n", m->name ? m->name : "(anonymous)",
				    (unsigned long long)bit / 8);
	}
}

/* What the patch does, before the diff (patch(1) skips text before "---"). */
static void header(const struct type *t, const struct proposal *p, struct strbuf *out)
{
	strbuf_addf(out, "c2cscope suggest --patch: struct %s, option '%s'\n", t->name, p->title);
	strbuf_addf(out, "size %llu -> %llu bytes, conflicting field pairs %llu -> %llu\n",
		    (unsigned long long)p->old_size, (unsigned long long)p->new_size,
		    (unsigned long long)p->conflicts_before,
		    (unsigned long long)p->conflicts_after);
	move_lines(p, out);
	strbuf_addstr(out, "member offsets after the patch:\n");
	offsets(p->type, 0, out);
	strbuf_addstr(out, "---\n");
}

static bool as_good(const struct proposal *c, const struct proposal *u)
{
	return c->conflicts_after <= u->conflicts_after && c->new_size <= u->new_size;
}

/* The best order crosses the source's units: try the source's constraints. */
static int retry_constrained(const struct suggest_patch_args *a, const struct src_struct *src,
			     struct suggest_patch *out, struct strbuf *diff, struct c2c_err *why,
			     struct c2c_err *err)
{
	struct propose_opts opts = *a->opts;
	const struct proposal *cp;
	int ret;

	src_struct_constraints(src, &opts);
	if ((ret = propose(a->t, a->prof, &opts, &out->constrained, err)))
		return ret;
	cp = pick(out->constrained, a->isolate);
	if (!as_good(cp, out->chosen))
		return -EXDEV;
	strbuf_addf(&out->notes,
		    "note: the best order cannot be written in the source (%s); using one that "
		    "keeps the source's declarations and conditionals intact, as good (%llu "
		    "conflicting pairs, %+lld bytes)\n",
		    why->msg, (unsigned long long)cp->conflicts_after,
		    (long long)cp->new_size - (long long)cp->old_size);
	out->chosen = cp;
	strbuf_reset(diff);
	return src_struct_patch(src, cp, a->cacheline_size, diff, why);
}

static void blocked(const struct suggest_patch_args *a, struct suggest_patch *out,
		    const struct c2c_err *why)
{
	strbuf_addf(&out->notes,
		    "no patch for struct %s: %s; the best order that keeps the source's "
		    "declarations and conditionals intact leaves %llu conflicting pairs (instead "
		    "of %llu)\n",
		    a->t->name, why->msg,
		    (unsigned long long)pick(out->constrained, a->isolate)->conflicts_after,
		    (unsigned long long)out->chosen->conflicts_after);
	moves(out->chosen, &out->text);
	out->outcome = SUGGEST_PATCH_BLOCKED;
}

int suggest_patch_make(const struct suggest_patch_args *a, struct suggest_patch *out,
		       struct c2c_err *err)
{
	struct src_struct *src = NULL;
	struct strbuf diff = STRBUF_INIT;
	struct c2c_err why = { 0 };
	const struct proposal *p = pick(a->pr, a->isolate);
	int ret;

	*out = (struct suggest_patch){ .chosen = p };
	strbuf_init(&out->text, 0);
	strbuf_init(&out->notes, 0);
	if ((ret = src_struct_load(a->t, a->source_dir, &src, err)))
		return ret;
	if (!p->nr_moves) {
		strbuf_addf(&out->notes,
			    "nothing to change: option '%s' keeps struct %s as it is%s%s%s\n",
			    p->title, a->t->name, p->note ? " (" : "", p->note ? p->note : "",
			    p->note ? ")" : "");
		out->outcome = SUGGEST_PATCH_NOTHING;
		goto out;
	}
	ret = src_struct_patch(src, p, a->cacheline_size, &diff, &why);
	if (ret == -EXDEV)
		ret = retry_constrained(a, src, out, &diff, &why, err);
	if (ret == -EXDEV && out->constrained) {
		blocked(a, out, &why);
		ret = 0;
	} else if (ret) {
		if (!err->msg[0]) /* else propose's own error */
			*err = why;
	} else {
		header(a->t, out->chosen, &out->text);
		strbuf_add(&out->text, diff.buf, diff.len);
		strbuf_addf(&out->notes,
			    "patch for struct %s, option '%s': %u move%s, size %llu -> %llu\n",
			    a->t->name, out->chosen->title, out->chosen->nr_moves,
			    out->chosen->nr_moves == 1 ? "" : "s",
			    (unsigned long long)out->chosen->old_size,
			    (unsigned long long)out->chosen->new_size);
		out->outcome = SUGGEST_PATCH_DIFF;
	}
out:
	strbuf_release(&diff);
	src_struct_free(src);
	return ret;
}

void suggest_patch_release(struct suggest_patch *p)
{
	proposer_free(p->constrained);
	strbuf_release(&p->text);
	strbuf_release(&p->notes);
	memset(p, 0, sizeof(*p));
}
