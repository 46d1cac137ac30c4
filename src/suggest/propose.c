// SPDX-License-Identifier: GPL-2.0
/*
 * The re-layout proposer: blocks of members that must move together, a
 * scoring function, and a steepest-descent search over member orders.
 */
#include "suggest/propose_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return a > 1 ? (v + a - 1) / a * a : v;
}

/* --- blocks ------------------------------------------------------------- */

/* The end marker's index when member i begins a kernel group, else i. */
static uint32_t group_end(const struct type *t, uint32_t i)
{
	struct type_group *g;
	size_t n = type_find_groups(t, &g), k;
	uint32_t end = i;

	for (k = 0; k < n; k++)
		if (g[k].begin == (int)i && type_group_ok(&g[k]))
			end = (uint32_t)g[k].end;
	free(g);
	return end;
}

static bool is_marker(const struct type_member *m)
{
	return type_group_marker(m, true) || type_group_marker(m, false);
}

/* The member index where the block that starts at member i ends. */
static uint32_t block_end(const struct type *t, uint32_t i)
{
	const struct type_member *m = &t->members[i];
	uint32_t j;

	if (type_group_marker(m, true))
		return group_end(t, i);
	if (!m->bit_size)
		return i;
	/* A run of bitfields that share storage units moves as one. */
	for (j = i; j + 1 < t->nr_members; j++) {
		const struct type_member *n = &t->members[j + 1];
		uint64_t s, e, unit = type_size(t->members[j].type);
		uint64_t run_end;

		if (!n->bit_size)
			break;
		type_member_extent(&t->members[j], &s, &e);
		run_end = align_up(e, unit ? unit : 1);
		type_member_extent(n, &s, &e);
		if (s >= run_end)
			break;
	}
	return j;
}

static void add_block(struct proposer *pr, uint32_t first, uint32_t last)
{
	const struct type *t = pr->t;
	struct block *b;
	uint64_t s, e, end = 0;
	uint32_t i;

	pr->blocks = xgrow(pr->blocks, &pr->blocks_alloc, pr->nr_blocks + 1, sizeof(*b));
	b = &pr->blocks[pr->nr_blocks++];
	memset(b, 0, sizeof(*b));
	for (i = first; i <= last; i++) {
		type_member_extent(&t->members[i], &s, &e);
		if (e > end)
			end = e;
		pr->members[i].block = pr->nr_blocks - 1;
	}
	b->first = first;
	b->last = last;
	b->start = t->members[first].bit_offset / 8;
	b->size = end > b->start ? end - b->start : 0;
}

/* Extend a block's end over glue ranges and bitfield runs it reaches into. */
static uint32_t glued_end(const struct proposer *pr, uint32_t last)
{
	bool changed = true;
	uint32_t g, e;

	while (changed) {
		changed = false;
		for (g = 0; g < pr->nr_glue; g++) {
			if (pr->glue[g].first <= last && pr->glue[g].last > last &&
			    pr->glue[g].last < pr->t->nr_members) {
				last = pr->glue[g].last;
				changed = true;
			}
		}
		e = block_end(pr->t, last);
		if (e > last) {
			last = e;
			changed = true;
		}
	}
	return last;
}

void propose_build_blocks(struct proposer *pr)
{
	uint32_t i = 0, n = pr->t->nr_members;

	while (i < n) {
		uint32_t last = glued_end(pr, block_end(pr->t, i));

		add_block(pr, i, last);
		i = last + 1;
	}
	/* A flexible array (or any zero-size tail) stays last. */
	if (pr->nr_blocks && !pr->blocks[pr->nr_blocks - 1].size &&
	    pr->blocks[pr->nr_blocks - 1].first == pr->blocks[pr->nr_blocks - 1].last &&
	    !is_marker(&pr->t->members[pr->blocks[pr->nr_blocks - 1].first]))
		pr->blocks[pr->nr_blocks - 1].fixed_last = true;
}

void *propose_alloc(struct proposer *pr, size_t n, size_t size)
{
	return arena_alloc(&pr->arena, n * size, _Alignof(max_align_t));
}

/* Member ranges that stay contiguous, as ranges of blocks. */
void propose_build_groups(struct proposer *pr, const struct propose_range *groups, uint32_t n)
{
	uint32_t g;

	pr->groups = propose_alloc(pr, n + 1, sizeof(*pr->groups));
	for (g = 0; g < n; g++) {
		if (groups[g].first > groups[g].last || groups[g].last >= pr->t->nr_members)
			continue;
		pr->groups[pr->nr_groups].first = pr->members[groups[g].first].block;
		pr->groups[pr->nr_groups].last = pr->members[groups[g].last].block;
		pr->nr_groups++;
	}
}

/* Whether every group's blocks sit on consecutive positions of ORDER. */
bool propose_groups_ok(const struct proposer *pr, const uint32_t *order, uint32_t *pos)
{
	uint32_t g, b;

	if (!pr->nr_groups)
		return true;
	for (b = 0; b < pr->nr_blocks; b++)
		pos[order[b]] = b;
	for (g = 0; g < pr->nr_groups; g++) {
		uint32_t lo = UINT32_MAX, hi = 0;

		for (b = pr->groups[g].first; b <= pr->groups[g].last; b++) {
			if (pos[b] < lo)
				lo = pos[b];
			if (pos[b] > hi)
				hi = pos[b];
		}
		if (hi - lo != pr->groups[g].last - pr->groups[g].first)
			return false;
	}
	return true;
}

/* --- evaluation ---------------------------------------------------------- */

/*
 * Where the compiler puts member M when the previous member ended at bit
 * BITPOS (System V x86-64 rules, as gcc and clang apply them): a bitfield
 * may not cross a storage unit of its type unless the struct is packed;
 * other members start at the next byte aligned to their type. Returns the
 * member's bit offset and its alignment's share of the struct's.
 */
static uint64_t place_member(const struct proposer *pr, const struct type_member *m,
			     uint64_t bitpos, uint32_t *align)
{
	bool packed = pr->t->packed;
	uint32_t a = packed ? 1 : type_alignment(m->type);

	if (m->alignment > a)
		a = m->alignment;
	*align = a ? a : 1;
	if (m->bit_size) {
		uint64_t unit = (uint64_t)type_alignment(m->type) * 8;

		if (!packed && unit && bitpos / unit != (bitpos + m->bit_size - 1) / unit)
			bitpos = align_up(bitpos, unit);
		if (m->alignment)
			bitpos = align_up(bitpos, (uint64_t)m->alignment * 8);
		return bitpos;
	}
	return align_up(align_up(bitpos, 8), (uint64_t)*align * 8);
}

static uint64_t member_bits(const struct type_member *m)
{
	return m->bit_size ? m->bit_size : type_size(m->type) * 8;
}

/*
 * Whether the isolated block at position K of ORDER goes on in the wrapper
 * of the block before it (pr->wrap_with names the same first block).
 */
bool propose_joins_wrapper(const struct proposer *pr, const uint32_t *order, const bool *isolated,
			   uint32_t k)
{
	uint32_t with;

	if (!k || !pr->wrap_with || !isolated[order[k - 1]])
		return false;
	with = pr->wrap_with[order[k]];
	return with != UINT32_MAX && with == pr->wrap_with[order[k - 1]];
}

/*
 * Lay the members out in block ORDER; pl->mbit[] gets each member's bit
 * offset and pl->boff[] each block's byte offset (its wrapper's, for the
 * first block of one). Isolated blocks become a cache-line-aligned
 * anonymous struct padded to whole lines, shared by consecutive blocks of
 * one wrapper. Returns the struct's size.
 */
uint64_t propose_place(const struct proposer *pr, const uint32_t *order, const bool *isolated,
		       struct placement *pl)
{
	uint64_t pos = 0, cl_bits = (uint64_t)pr->cl * 8, base = 0, local = 0;
	uint32_t k, i, a, align = pr->struct_align;

	for (k = 0; k < pr->nr_blocks; k++) {
		const struct block *b = &pr->blocks[order[k]];
		bool iso = isolated && isolated[order[k]];
		bool joins = iso && propose_joins_wrapper(pr, order, isolated, k);

		if (joins) {
			/* goes on in the previous block's wrapper */
		} else if (iso) {
			pos = align_up(pos, cl_bits);
			base = pos;
			local = 0;
			if (pr->cl > align)
				align = pr->cl;
		} else {
			base = 0;
			local = pos;
		}
		for (i = b->first; i <= b->last; i++) {
			local = place_member(pr, &pr->t->members[i], local, &a);
			pl->mbit[i] = base + local;
			local += member_bits(&pr->t->members[i]);
			if (a > align)
				align = a;
		}
		pl->boff[order[k]] = iso && !joins ? base / 8 : pl->mbit[b->first] / 8;
		pos = iso ? base + align_up(align_up(local, 8), cl_bits) : local;
	}
	return align_up(align_up(pos, 8) / 8, align);
}

/*
 * Byte range a member covers under a placement (type_member_extent_at); a
 * zero-size member's is its first byte, the line type_extent_lines says it
 * marks, so that the callers' line arithmetic needs no special case.
 */
void propose_member_span(const struct proposer *pr, const struct placement *pl, uint32_t i,
			 uint64_t *start, uint64_t *end)
{
	type_member_extent_at(&pr->t->members[i], pl->mbit[i], start, end);
	if (*end == *start)
		(*end)++;
}

struct line_field {
	uint32_t line;
	int32_t field;
};

static int cmp_line_field(const void *a, const void *b)
{
	const struct line_field *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->field - y->field;
}

/* The (line, field) pairs of every hot field, sorted by line. Returns how many. */
static size_t hot_lines_of(const struct proposer *pr, const struct placement *pl,
			   struct line_field *lf)
{
	size_t n = 0;
	uint32_t i;

	for (i = 0; i < pr->t->nr_members; i++) {
		int32_t f = pr->members[i].field;
		uint64_t s, e;
		uint32_t l;

		if (f < 0 || pr->fields[f].cls == FIELD_COLD)
			continue;
		propose_member_span(pr, pl, i, &s, &e);
		for (l = (uint32_t)(s / pr->cl); l <= (e - 1) / pr->cl; l++)
			lf[n++] = (struct line_field){ .line = l, .field = f };
	}
	qsort(lf, n, sizeof(*lf), cmp_line_field);
	return n;
}

void propose_evaluate(const struct proposer *pr, const uint32_t *order, const bool *isolated,
		      struct score *sc, struct placement *pl)
{
	struct line_field *lf = pr->scratch_lf;
	size_t n, i, j, start;

	memset(sc, 0, sizeof(*sc));
	sc->size = propose_place(pr, order, isolated, pl);
	n = hot_lines_of(pr, pl, lf);
	for (start = 0; start < n; start = i) {
		for (i = start; i < n && lf[i].line == lf[start].line; i++)
			;
		sc->hot_lines++;
		for (j = start; j < i; j++) {
			size_t k;

			for (k = start; k < i; k++)
				sc->conflicts +=
					pr->weight[lf[j].field * pr->nr_fields + lf[k].field];
		}
	}
	sc->moves = propose_count_moves(order, pr->nr_blocks);
	sc->pinned_ok = true;
	for (i = 0; i < pr->t->nr_members; i++) {
		if (pl->mbit[i] == pr->t->members[i].bit_offset)
			continue;
		sc->displaced++;
		if (pr->blocks[pr->members[i].block].pinned)
			sc->pinned_ok = false;
	}
}

/*
 * Lexicographic: pinned members stay put; fewest conflicting pairs; no
 * growth; then the smallest patch (members whose offset changes), because a
 * maintainer reviews offsets, not permutations; then the fewest hot lines.
 */
static int score_cmp(const struct score *a, const struct score *b)
{
	if (a->pinned_ok != b->pinned_ok)
		return a->pinned_ok ? -1 : 1;
	if (a->conflicts != b->conflicts)
		return a->conflicts < b->conflicts ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	if (a->displaced != b->displaced)
		return a->displaced < b->displaced ? -1 : 1;
	if (a->hot_lines != b->hot_lines)
		return a->hot_lines < b->hot_lines ? -1 : 1;
	if (a->moves != b->moves)
		return a->moves < b->moves ? -1 : 1;
	return 0;
}

/* Blocks out of their original relative order: n - longest increasing run. */
uint32_t propose_count_moves(const uint32_t *order, uint32_t n)
{
	uint32_t *tails = xmalloc((n + 1) * sizeof(*tails)), len = 0, i;

	for (i = 0; i < n; i++) {
		uint32_t lo = 0, hi = len;

		while (lo < hi) {
			uint32_t mid = (lo + hi) / 2;

			if (tails[mid] < order[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		tails[lo] = order[i];
		if (lo == len)
			len++;
	}
	free(tails);
	return n - len;
}

/*
 * OUT = ORDER with the LEN elements at FROM taken out and put back so that
 * they start at position TO of the result (0 <= TO <= n - LEN).
 */
static void move_seg(const uint32_t *order, uint32_t n, uint32_t from, uint32_t len, uint32_t to,
		     uint32_t *out)
{
	uint32_t i, k = 0;

	for (i = 0; i < n && k < to; i++)
		if (i < from || i >= from + len)
			out[k++] = order[i];
	memcpy(out + k, order + from, len * sizeof(*out));
	k += len;
	for (; i < n; i++)
		if (i < from || i >= from + len)
			out[k++] = order[i];
}

static bool block_is_hot(const struct proposer *pr, uint32_t b)
{
	uint32_t i;

	for (i = pr->blocks[b].first; i <= pr->blocks[b].last; i++) {
		int32_t f = pr->members[i].field;

		if (f >= 0 && pr->fields[f].cls != FIELD_COLD)
			return true;
	}
	return false;
}

/* What one step may move: a block, or a whole group of blocks. */
struct segment {
	uint32_t from, len;
	bool hot;
};

/* The segments of ORDER: every block, then every group longer than one block. */
static uint32_t list_segments(const struct proposer *pr, const uint32_t *order, uint32_t *pos,
			      struct segment *seg)
{
	uint32_t n = pr->nr_blocks, k = 0, p, g, b;

	for (p = 0; p < n; p++) {
		if (pr->blocks[order[p]].fixed_last)
			continue;
		seg[k++] = (struct segment){ p, 1, block_is_hot(pr, order[p]) };
	}
	for (b = 0; b < n; b++)
		pos[order[b]] = b;
	for (g = 0; g < pr->nr_groups; g++) {
		uint32_t lo = UINT32_MAX, len = pr->groups[g].last - pr->groups[g].first + 1;
		bool hot = false;

		if (len < 2)
			continue;
		for (b = pr->groups[g].first; b <= pr->groups[g].last; b++) {
			if (pos[b] < lo)
				lo = pos[b];
			hot |= block_is_hot(pr, b);
		}
		seg[k++] = (struct segment){ lo, len, hot };
	}
	return k;
}

struct search {
	struct proposer *pr;
	uint32_t *cand, *pos;
	struct placement *pl;
	uint64_t max_size;
	long budget;
	int32_t fixed_last; /* the block that stays last, or -1 */
};

/* Try every place for segment SG; keep the best candidate in BEST_ORDER. */
static bool try_segment(struct search *s, const uint32_t *order, const struct segment *sg,
			struct score *best, uint32_t *best_order)
{
	uint32_t n = s->pr->nr_blocks, to;
	struct score sc;
	bool found = false;

	for (to = 0; to + sg->len <= n; to++) {
		if (to == sg->from)
			continue;
		move_seg(order, n, sg->from, sg->len, to, s->cand);
		if (s->fixed_last >= 0 && s->cand[n - 1] != (uint32_t)s->fixed_last)
			continue;
		if (!propose_groups_ok(s->pr, s->cand, s->pos))
			continue;
		propose_evaluate(s->pr, s->cand, NULL, &sc, s->pl);
		s->budget--;
		if (sc.size > s->max_size || score_cmp(&sc, best) >= 0)
			continue;
		*best = sc;
		memcpy(best_order, s->cand, n * sizeof(*best_order));
		found = true;
	}
	return found;
}

/*
 * Steepest descent over moves of one block or one group, hot ones first;
 * size may not grow past max_size; groups stay contiguous. Bounded by an
 * evaluation budget so huge structs stay quick (the answer is then the best
 * found, still valid).
 */
void propose_search_reorder(struct proposer *pr, uint32_t *order, uint64_t max_size)
{
	uint32_t n = pr->nr_blocks, nseg, k;
	struct segment *seg = xcalloc(n + pr->nr_groups + 1, sizeof(*seg));
	uint32_t *best_order = xmalloc((n + 1) * sizeof(*best_order));
	struct search s = { .pr = pr, .max_size = max_size, .fixed_last = -1 };
	struct score cur, best;
	int pass;

	s.cand = xmalloc((n + 1) * sizeof(*s.cand));
	s.pos = xmalloc((n + 1) * sizeof(*s.pos));
	s.pl = propose_placement_new(pr);
	s.budget = 4000000 / (long)(pr->t->nr_members + 8);
	for (k = 0; k < n; k++)
		if (pr->blocks[k].fixed_last)
			s.fixed_last = (int32_t)k;
	propose_evaluate(pr, order, NULL, &cur, s.pl);
	for (pass = 0; pass < 4 * (int)n && s.budget > 0; pass++) {
		bool found = false;
		int hot;

		best = cur;
		nseg = list_segments(pr, order, s.pos, seg);
		/*
		 * Hot blocks first; under source constraints every segment at
		 * once, because moving a cold block inside its #ifdef is often
		 * the smallest change the source can express.
		 */
		for (hot = 1; hot >= 0 && !found; hot--)
			for (k = 0; k < nseg; k++)
				if (seg[k].hot == hot || (pr->nr_groups && hot))
					found |= try_segment(&s, order, &seg[k], &best, best_order);
		if (!found)
			break;
		memcpy(order, best_order, n * sizeof(*order));
		cur = best;
	}
	free(seg);
	free(best_order);
	free(s.cand);
	free(s.pos);
	propose_placement_free(s.pl);
}

/* One allocation: the struct, then its mbit and boff arrays. */
struct placement *propose_placement_new(const struct proposer *pr)
{
	size_t nr_mbit = pr->t->nr_members + 1, nr_boff = pr->nr_blocks + 1;
	struct placement *pl = xcalloc(1, sizeof(*pl) + (nr_mbit + nr_boff) * sizeof(uint64_t));

	pl->mbit = (uint64_t *)(pl + 1);
	pl->boff = pl->mbit + nr_mbit;
	return pl;
}

void propose_placement_free(struct placement *pl)
{
	free(pl);
}
