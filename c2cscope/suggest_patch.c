// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope suggest --patch: the diff of the chosen option on stdout. When
 * the best order crosses a preprocessor conditional the source cannot keep
 * intact, the proposal is made again under the source's constraints; if that
 * is as good it is used, otherwise no patch: the reason and the move list.
 */
#include "suggest_patch.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "suggest/suggest.h"
#include "util/strbuf.h"

static const struct proposal *pick(const struct proposer *pr, bool isolate)
{
	return proposer_get(pr, isolate ? 1 : 0);
}

/* One line per move of the proposal. */
static void print_move_lines(const struct proposal *p)
{
	uint32_t i;

	for (i = 0; i < p->nr_moves; i++)
		printf("  %s %s: offset %llu -> %llu (line %u -> %u)\n",
		       p->kind == PROPOSAL_ISOLATE ? "isolate" : "move", p->moves[i].name,
		       (unsigned long long)p->moves[i].old_offset,
		       (unsigned long long)p->moves[i].new_offset, p->moves[i].old_line,
		       p->moves[i].new_line);
}

static void print_moves(const struct proposal *p)
{
	printf("moves of option '%s' (%+lld bytes):\n", p->title,
	       (long long)p->new_size - (long long)p->old_size);
	if (!p->nr_moves)
		printf("  none\n");
	print_move_lines(p);
}

/* Every named member's place in the proposed struct, anonymous ones opened. */
static void print_offsets(const struct type *t, uint64_t base_bits)
{
	uint32_t i;

	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		const struct type *mt = type_strip(m->type);
		uint64_t bit = base_bits + m->bit_offset;

		if (!m->name && mt && (mt->kind == TYPE_STRUCT || mt->kind == TYPE_UNION))
			print_offsets(mt, bit);
		else if (m->bit_size)
			printf("  %s bit %llu\n", m->name ? m->name : "(anonymous)",
			       (unsigned long long)bit);
		else
			printf("  %s %llu\n", m->name ? m->name : "(anonymous)",
			       (unsigned long long)bit / 8);
	}
}

/* What the patch does, before the diff (patch(1) skips text before "---"). */
static void print_header(const struct type *t, const struct proposal *p)
{
	printf("c2cscope suggest --patch: struct %s, option '%s'\n", t->name, p->title);
	printf("size %llu -> %llu bytes, conflicting field pairs %llu -> %llu\n",
	       (unsigned long long)p->old_size, (unsigned long long)p->new_size,
	       (unsigned long long)p->conflicts_before, (unsigned long long)p->conflicts_after);
	print_move_lines(p);
	printf("member offsets after the patch:\n");
	print_offsets(p->type, 0);
	printf("---\n");
}

static bool as_good(const struct proposal *c, const struct proposal *u)
{
	return c->conflicts_after <= u->conflicts_after && c->new_size <= u->new_size;
}

int suggest_patch(const struct suggest_patch_args *a, struct c2c_err *err)
{
	struct propose_opts opts = *a->opts;
	struct src_struct *src = NULL;
	struct proposer *constrained = NULL;
	const struct proposal *p = pick(a->pr, a->isolate), *cp;
	struct strbuf out = STRBUF_INIT;
	struct c2c_err why = { 0 };
	int ret;

	ret = src_struct_load(a->t, a->source_dir, &src, err);
	if (ret)
		return cmd_report_err("suggest", err), EXIT_BAD_INPUT;
	if (!p->nr_moves) {
		fprintf(stderr,
			"c2cscope suggest: nothing to change: option '%s' keeps struct %s as it "
			"is%s%s%s\n",
			p->title, a->t->name, p->note ? " (" : "", p->note ? p->note : "",
			p->note ? ")" : "");
		if (a->chosen)
			*a->chosen = p;
		ret = EXIT_OK;
		goto out;
	}
	ret = src_struct_patch(src, p, a->cacheline_size, &out, &why);
	if (ret == -EXDEV) {
		src_struct_constraints(src, &opts);
		if (propose(a->t, a->prof, &opts, &constrained, err)) {
			ret = cmd_report_err("suggest", err);
			goto out;
		}
		cp = pick(constrained, a->isolate);
		if (as_good(cp, p)) {
			fprintf(stderr,
				"c2cscope suggest: note: the best order cannot be written in the "
				"source (%s); using one that keeps the source's declarations and "
				"conditionals intact, as good (%llu conflicting pairs, %+lld "
				"bytes)\n",
				why.msg, (unsigned long long)cp->conflicts_after,
				(long long)cp->new_size - (long long)cp->old_size);
			p = cp;
			strbuf_reset(&out);
			ret = src_struct_patch(src, p, a->cacheline_size, &out, &why);
		}
	}
	if (ret == -EXDEV) {
		fprintf(stderr,
			"c2cscope suggest: no patch for struct %s: %s; the best order that keeps "
			"the source's declarations and conditionals intact leaves %llu conflicting pairs (instead of %llu)\n",
			a->t->name, why.msg,
			(unsigned long long)pick(constrained, a->isolate)->conflicts_after,
			(unsigned long long)p->conflicts_after);
		print_moves(p);
		ret = EXIT_CHECK_FAILED;
		goto out;
	}
	if (ret) {
		ret = cmd_report_err("suggest", &why);
		goto out;
	}
	print_header(a->t, p);
	fputs(out.buf, stdout);
	fprintf(stderr,
		"c2cscope suggest: patch for struct %s, option '%s': %u move%s, size %llu -> %llu\n",
		a->t->name, p->title, p->nr_moves, p->nr_moves == 1 ? "" : "s",
		(unsigned long long)p->old_size, (unsigned long long)p->new_size);
	if (a->chosen)
		*a->chosen = p;
	ret = EXIT_OK;
out:
	/* the rules (if any) are written from *chosen before this is freed */
	if (a->keep)
		*a->keep = constrained;
	else
		proposer_free(constrained);
	strbuf_release(&out);
	src_struct_free(src);
	return ret;
}
