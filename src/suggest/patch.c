// SPDX-License-Identifier: GPL-2.0
/*
 * suggest --patch, part two: rewrite the struct's body in a proposal's
 * member order (moving whole units: declarations with their comments,
 * conditionals), check that the rewrite gives exactly the proposed order,
 * and write the change as a unified diff of our own (no diff(1) at run
 * time): a longest-common-subsequence edit script over the body's lines,
 * cut into hunks with three lines of context.
 */
#include "suggest/srcstruct_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct emit {
	const struct src_struct *s;
	const struct proposal *p;
	uint32_t *pos; /* new position of each member */
	uint32_t *seq; /* members in the order the rewrite gives */
	uint32_t nr_seq;
	unsigned int cl;
	int32_t wrap_block; /* the isolated block being wrapped, or -1 */
	uint8_t *opened; /* per block: wrappers opened for it */
	bool *wrapped; /* per member: inside a wrapper */
	int32_t wrap_bad; /* a member the wrappers cannot give the option's place, or -1 */
	uint32_t wrap_bad_node;
	int32_t *lead; /* per node: blank lines to put before it instead of its own, or -1 */
	struct strbuf *out;
};

struct segment {
	uint32_t key; /* new position of the unit's first member */
	uint32_t first, count; /* children of the list: the unit, then inactive ones */
};

static void add_lines(struct emit *e, uint32_t from, uint32_t to)
{
	const struct src_struct *s = e->s;
	uint32_t l;

	for (l = from; l <= to && l <= s->nr_lines; l++) {
		if (e->wrap_block >= 0 && s->line_off[l + 1] - s->line_off[l] > 1)
			strbuf_addch(e->out, '\t');
		strbuf_add(e->out, s->buf + s->line_off[l], s->line_off[l + 1] - s->line_off[l]);
	}
}

static uint32_t unit_key(const struct emit *e, const struct snode *n)
{
	uint32_t m, key = UINT32_MAX;

	for (m = (uint32_t)n->mfirst; m <= (uint32_t)n->mlast; m++)
		if (e->pos[m] < key)
			key = e->pos[m];
	return key;
}

static int cmp_segment(const void *a, const void *b)
{
	const struct segment *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static void emit_node(struct emit *e, uint32_t k);
static void emit_list(struct emit *e, uint32_t l, bool keep_order);

static void close_wrap(struct emit *e, const char *indent, size_t ilen)
{
	if (e->wrap_block < 0)
		return;
	e->wrap_block = -1;
	strbuf_add(e->out, indent, ilen);
	strbuf_addf(e->out, "} __attribute__((__aligned__(%u)));\n", e->cl);
}

/* An isolated declaration opens (or continues) an aligned anonymous struct. */
static bool blank_line(const struct src_struct *s, uint32_t l)
{
	size_t i;

	for (i = s->line_off[l]; i < s->line_off[l + 1]; i++)
		if (s->buf[i] != ' ' && s->buf[i] != '\t' && s->buf[i] != '\n')
			return false;
	return true;
}

static uint32_t leading_blanks(const struct src_struct *s, const struct snode *n)
{
	uint32_t l = n->own_first;

	while (l < n->decl_first && blank_line(s, l))
		l++;
	return l - n->own_first;
}

/* The first line of node K to copy, after the blank lines it is given. */
static uint32_t node_start(struct emit *e, uint32_t k)
{
	const struct snode *n = &e->s->nodes[k];

	if (e->lead[k] < 0)
		return n->own_first;
	strbuf_addchars(e->out, '\n', (size_t)e->lead[k]);
	return n->own_first + leading_blanks(e->s, n);
}

static void emit_decl(struct emit *e, uint32_t k)
{
	const struct src_struct *s = e->s;
	const struct snode *n = &s->nodes[k];
	uint32_t start = node_start(e, k);
	const char *ind = s->buf + s->line_off[n->decl_first];
	size_t ilen = strspn(ind, " \t");
	int32_t block = -1;

	if (n->mfirst >= 0 && e->p->isolated && e->p->isolated[n->mfirst])
		block = (int32_t)e->p->wrappers[n->mfirst];
	if (block != e->wrap_block)
		close_wrap(e, ind, ilen);
	for (int32_t m = n->mfirst; m >= 0 && m <= n->mlast; m++) {
		bool iso = e->p->isolated && e->p->isolated[m];

		e->wrapped[m] = block >= 0;
		if (e->wrap_bad < 0 &&
		    (iso != (block >= 0) || (iso && e->p->wrappers[m] != (uint32_t)block))) {
			e->wrap_bad = m; /* "int a, b;" where the option isolates a alone */
			e->wrap_bad_node = k;
		}
	}
	if (block >= 0 && e->wrap_block < 0) {
		if (e->opened[block]++ && e->wrap_bad < 0) {
			e->wrap_bad = n->mfirst; /* one block, two wrappers (split by #if) */
			e->wrap_bad_node = k;
		}
		add_lines(e, start, n->decl_first - 1);
		strbuf_add(e->out, ind, ilen);
		strbuf_addstr(e->out, "struct {\n");
		e->wrap_block = block;
		add_lines(e, n->decl_first, n->own_last);
	} else {
		add_lines(e, start, n->own_last);
	}
	for (int32_t m = n->mfirst; m >= 0 && m <= n->mlast; m++)
		e->seq[e->nr_seq++] = (uint32_t)m;
}

/* The last line any child of list L owns, or its header's. */
static uint32_t list_end(const struct src_struct *s, uint32_t l)
{
	uint32_t k, end = s->lists[l].hdr_end;

	for (k = 0; k < s->nr_nodes; k++)
		if (s->nodes[k].list == l && s->nodes[k].own_last > end)
			end = s->nodes[k].own_last;
	return end;
}

/*
 * A unit that becomes first in its list takes the blank lines the old first
 * one had before it, and the old first one takes its: the spacing after
 * "{" or "#ifdef" stays as it was.
 */
static void swap_first_blanks(struct emit *e, const struct segment *seg, uint32_t n, uint32_t l)
{
	const struct src_struct *s = e->s;
	uint32_t k, first = UINT32_MAX;

	for (k = 0; k < s->nr_nodes && first == UINT32_MAX; k++)
		if (s->nodes[k].list == l)
			first = k;
	if (!n || first == UINT32_MAX || seg[0].first == first)
		return;
	e->lead[seg[0].first] = (int32_t)leading_blanks(s, &s->nodes[first]);
	e->lead[first] = (int32_t)leading_blanks(s, &s->nodes[seg[0].first]);
}

static void emit_list(struct emit *e, uint32_t l, bool keep_order)
{
	const struct src_struct *s = e->s;
	struct segment *seg = xcalloc(s->nr_nodes + 1, sizeof(*seg));
	uint32_t k, n = 0, i, j;
	const char *ind = "\t";

	for (k = 0; k < s->nr_nodes; k++) {
		if (s->nodes[k].list != l)
			continue;
		if (s->nodes[k].mfirst >= 0 || !n) /* a leading inactive run keeps key 0 */
			seg[n++] = (struct segment){ s->nodes[k].mfirst >= 0 && !keep_order ?
							     unit_key(e, &s->nodes[k]) + 1 :
							     0,
						     k, 0 };
		seg[n - 1].count++;
	}
	qsort(seg, n, sizeof(*seg), cmp_segment);
	swap_first_blanks(e, seg, n, l);
	for (i = 0; i < n; i++)
		for (j = 0, k = seg[i].first; j < seg[i].count; k++)
			if (s->nodes[k].list == l) {
				emit_node(e, k);
				j++;
			}
	if (e->wrap_block >= 0 && n) {
		ind = s->buf + s->line_off[s->nodes[seg[n - 1].first].decl_first];
		close_wrap(e, ind, strspn(ind, " \t"));
	}
	add_lines(e, list_end(s, l) + 1, s->lists[l].close - 1);
	free(seg);
}

static void emit_node(struct emit *e, uint32_t k)
{
	const struct src_struct *s = e->s;
	const struct snode *n = &s->nodes[k];
	uint32_t l;

	if (n->kind == SNODE_DECL) {
		emit_decl(e, k);
		return;
	}
	if (e->wrap_block >= 0) {
		const char *ind = s->buf + s->line_off[n->decl_first + 1];

		close_wrap(e, ind, strspn(ind, " \t"));
	}
	add_lines(e, node_start(e, k), n->decl_first - 1);
	for (l = 0; l < s->nr_lists; l++) {
		if (s->lists[l].node != (int32_t)k)
			continue;
		add_lines(e, s->lists[l].hdr_first, s->lists[l].hdr_end);
		/* With #else we see one branch only: its members keep their order. */
		emit_list(e, l, n->nr_lists > 1);
	}
	add_lines(e, n->endif_line, n->own_last);
}

/* --- why an order cannot be written ------------------------------------- */

static const char *member_name(const struct src_struct *s, uint32_t m)
{
	return s->t->members[m].name ? s->t->members[m].name : "(anonymous)";
}

static bool was_moved(const struct src_struct *s, const struct proposal *p, uint32_t m)
{
	uint32_t i;

	for (i = 0; i < p->nr_moves; i++)
		if (s->t->members[m].name && !strcmp(p->moves[i].name, s->t->members[m].name))
			return true;
	return false;
}

static int unit_err(const struct emit *e, const struct snode *n, const char *fmt_member, uint32_t m,
		    struct err_msg *err)
{
	const struct src_struct *s = e->s;
	struct strbuf what = STRBUF_INIT, msg = STRBUF_INIT;
	uint32_t last = n->kind == SNODE_COND ? n->own_last : n->decl_first;
	int ret;

	suggest_src_line_text(s, n->decl_first, &what);
	strbuf_addf(&msg, fmt_member, member_name(s, m));
	ret = err_set(err, EXDEV, "%s '%s' (%s:%u-%u)", msg.buf, what.buf, s->path, n->decl_first,
		      last);
	strbuf_release(&what);
	strbuf_release(&msg);
	return ret;
}

/* The isolate option wraps part of a unit, or one block in two places. */
static int wrap_err(const struct emit *e, struct err_msg *err)
{
	const struct src_struct *s = e->s;
	uint32_t k = e->wrap_bad_node;

	if (k == UINT32_MAX)
		for (k = 0; k < s->nr_nodes; k++)
			if (s->nodes[k].kind == SNODE_DECL && s->nodes[k].mfirst <= e->wrap_bad &&
			    s->nodes[k].mlast >= e->wrap_bad)
				break;
	if (k >= s->nr_nodes)
		return err_set(err, EXDEV, "%s: member %s cannot be wrapped as the option says",
			       s->path, member_name(s, (uint32_t)e->wrap_bad));
	return unit_err(e, &s->nodes[k],
			"member %s cannot be wrapped alone: the option isolates part of",
			(uint32_t)e->wrap_bad, err);
}

/* A unit whose members the order scatters: name the member and the unit. */
static int explain(const struct emit *e, struct err_msg *err)
{
	const struct src_struct *s = e->s;
	uint32_t k, m, x, lo, hi;

	for (k = 0; k < s->nr_nodes; k++) {
		const struct snode *n = &s->nodes[k];
		bool whole = n->kind == SNODE_DECL || n->nr_lists > 1, in_order = true;

		if (n->mfirst < 0 || (n->mfirst == n->mlast && n->kind == SNODE_DECL))
			continue;
		lo = UINT32_MAX;
		hi = 0;
		for (m = (uint32_t)n->mfirst; m <= (uint32_t)n->mlast; m++) {
			lo = e->pos[m] < lo ? e->pos[m] : lo;
			hi = e->pos[m] > hi ? e->pos[m] : hi;
			if (m > (uint32_t)n->mfirst && e->pos[m] != e->pos[m - 1] + 1)
				in_order = false;
		}
		for (x = lo; x <= hi; x++) {
			uint32_t o = e->p->order[x];

			if ((int32_t)o >= n->mfirst && (int32_t)o <= n->mlast)
				continue;
			if (n->kind == SNODE_DECL)
				return unit_err(e, n, "member %s would land inside the declaration",
						o, err);
			if (was_moved(s, e->p, o))
				return unit_err(e, n, "member %s would move into the conditional",
						o, err);
			for (m = (uint32_t)n->mfirst; m <= (uint32_t)n->mlast; m++)
				if (was_moved(s, e->p, m))
					return unit_err(
						e, n, "member %s would move out of the conditional",
						m, err);
			return unit_err(e, n, "member %s would move into the conditional", o, err);
		}
		if (whole && !in_order) {
			for (m = (uint32_t)n->mfirst; m <= (uint32_t)n->mlast; m++)
				if (was_moved(s, e->p, m))
					break;
			if (m > (uint32_t)n->mlast)
				m = (uint32_t)n->mfirst;
			return unit_err(
				e, n,
				n->kind == SNODE_COND ?
					"member %s would move inside the conditional (it has "
					"#else or #elif: its members keep their order)" :
					"member %s would split the declaration",
				m, err);
		}
	}
	return err_set(err, EXDEV, "%s: the proposed order cannot be written as a patch", s->path);
}

/* --- the unified diff --------------------------------------------------- */

struct lines {
	const char **p;
	size_t *len;
	uint32_t n;
};

static void split_lines(const char *buf, size_t len, struct lines *out)
{
	size_t i, start = 0;
	uint32_t n = 0;

	for (i = 0; i < len; i++)
		n += buf[i] == '\n';
	out->p = xcalloc(n + 1, sizeof(*out->p));
	out->len = xcalloc(n + 1, sizeof(*out->len));
	out->n = 0;
	for (i = 0; i < len; i++) {
		if (buf[i] != '\n')
			continue;
		out->p[out->n] = buf + start;
		out->len[out->n++] = i + 1 - start;
		start = i + 1;
	}
}

static bool same_line(const struct lines *a, uint32_t i, const struct lines *b, uint32_t j)
{
	return a->len[i] == b->len[j] && !memcmp(a->p[i], b->p[j], a->len[i]);
}

/* Edit script from a longest common subsequence: ' ', '-' or '+' per step. */
static char *edit_script(const struct lines *a, const struct lines *b, uint32_t *nops)
{
	size_t w = (size_t)b->n + 1;
	uint32_t *dp = xcalloc(((size_t)a->n + 1) * w, sizeof(*dp));
	char *ops = xmalloc((size_t)a->n + b->n + 1);
	uint32_t i, j, k = 0;

	for (i = a->n; i-- > 0;)
		for (j = b->n; j-- > 0;)
			dp[i * w + j] = same_line(a, i, b, j) ?
						dp[(i + 1) * w + j + 1] + 1 :
						(dp[(i + 1) * w + j] > dp[i * w + j + 1] ?
							 dp[(i + 1) * w + j] :
							 dp[i * w + j + 1]);
	for (i = 0, j = 0; i < a->n || j < b->n;) {
		if (i < a->n && j < b->n && same_line(a, i, b, j)) {
			ops[k++] = ' ';
			i++;
			j++;
		} else if (j >= b->n || (i < a->n && dp[(i + 1) * w + j] >= dp[i * w + j + 1])) {
			ops[k++] = '-';
			i++;
		} else {
			ops[k++] = '+';
			j++;
		}
	}
	free(dp);
	*nops = k;
	return ops;
}

#define DIFF_CONTEXT 3

static void add_hunk(struct strbuf *out, const char *ops, uint32_t from, uint32_t to,
		     const struct lines *a, const struct lines *b, uint32_t base)
{
	uint32_t k, i = 0, j = 0, oc = 0, nc = 0, oi, ni;

	for (k = 0; k < from; k++) {
		i += ops[k] != '+';
		j += ops[k] != '-';
	}
	oi = i;
	ni = j;
	for (k = from; k <= to; k++) {
		oc += ops[k] != '+';
		nc += ops[k] != '-';
	}
	strbuf_addf(out, "@@ -%u,%u +%u,%u @@\n", base + oi + (oc ? 1 : 0), oc,
		    base + ni + (nc ? 1 : 0), nc);
	for (k = from; k <= to; k++) {
		const struct lines *src = ops[k] == '+' ? b : a;
		uint32_t idx = ops[k] == '+' ? j : i;

		strbuf_addch(out, ops[k]);
		strbuf_add(out, src->p[idx], src->len[idx]);
		i += ops[k] != '+';
		j += ops[k] != '-';
	}
}

/* Hunks over the body's lines; BASE is the line before the body. */
static void unified_diff(struct strbuf *out, const struct lines *a, const struct lines *b,
			 uint32_t base)
{
	uint32_t nops, k, start, last;
	char *ops = edit_script(a, b, &nops);

	for (k = 0; k < nops;) {
		while (k < nops && ops[k] == ' ')
			k++;
		if (k == nops)
			break;
		start = k > DIFF_CONTEXT ? k - DIFF_CONTEXT : 0;
		last = k;
		for (; k < nops; k++) {
			if (ops[k] != ' ')
				last = k;
			else if (k - last > 2 * DIFF_CONTEXT)
				break;
		}
		k = last + DIFF_CONTEXT < nops - 1 ? last + DIFF_CONTEXT : nops - 1;
		add_hunk(out, ops, start, k, a, b, base);
		k++;
	}
	free(ops);
}

/*
 * BODY = lines RF..BEFORE, BODY, lines close..RL: the new text of the
 * diffed range; ALIGN_TO: the struct's alignment to add after its "}".
 */
static void strbuf_insert_lines(struct strbuf *body, const struct src_struct *s, uint32_t rf,
				uint32_t before, uint32_t rl, uint32_t align_to)
{
	struct strbuf all = STRBUF_INIT;
	size_t close = s->line_off[s->lists[0].close], end = s->line_off[rl + 1];
	const char *brace = memchr(s->buf + close, '}', s->line_off[s->lists[0].close + 1] - close);

	strbuf_add(&all, s->buf + s->line_off[rf], s->line_off[before + 1] - s->line_off[rf]);
	strbuf_add(&all, body->buf, body->len);
	if (align_to && brace) {
		/* "} name;" or "};" -> "} __attribute__((aligned(N))) name;" */
		strbuf_add(&all, s->buf + close, (size_t)(brace + 1 - (s->buf + close)));
		strbuf_addf(&all, " __attribute__((aligned(%u)))", align_to);
		close = (size_t)(brace + 1 - s->buf);
	}
	strbuf_add(&all, s->buf + close, end - close);
	strbuf_release(body);
	*body = all;
}

int suggest_src_patch(const struct src_struct *s, const struct proposal *p,
		      unsigned int cacheline_size, struct strbuf *out, struct err_msg *err)
{
	uint32_t n = s->t->nr_members, i, first = s->lists[0].hdr_end + 1, rf, rl;
	struct strbuf body = STRBUF_INIT;
	struct emit e = { .s = s, .p = p, .cl = cacheline_size, .wrap_block = -1, .out = &body };
	struct lines a, b;
	int ret = 0;

	if (p->nr_order != n)
		return err_set(err, EINVAL, "%s: the proposal is not for this struct", s->path);
	e.pos = xcalloc(n + 1, sizeof(*e.pos));
	e.seq = xcalloc(n + 1, sizeof(*e.seq));
	e.lead = xmalloc((s->nr_nodes + 1) * sizeof(*e.lead));
	e.opened = xcalloc(n + 1, sizeof(*e.opened));
	e.wrapped = xcalloc(n + 1, sizeof(*e.wrapped));
	e.wrap_bad = -1;
	e.wrap_bad_node = UINT32_MAX;
	for (i = 0; i <= s->nr_nodes; i++)
		e.lead[i] = -1;
	for (i = 0; i < n; i++)
		e.pos[p->order[i]] = i;
	emit_list(&e, 0, false);
	if (e.nr_seq != n || memcmp(e.seq, p->order, n * sizeof(*e.seq))) {
		ret = explain(&e, err);
		goto out;
	}
	for (i = 0; i < n && e.wrap_bad < 0; i++)
		if (p->isolated && p->isolated[i] && !e.wrapped[i])
			e.wrap_bad = (int32_t)i;
	if (e.wrap_bad >= 0) {
		ret = wrap_err(&e, err);
		goto out;
	}
	if ((uint64_t)(s->lists[0].close - first + 1) * (body.len / 2 + 1) > 64u << 20) {
		ret = err_set(err, E2BIG, "%s: struct %s's body is too long to diff", s->path,
			      type_aggregate_name(s->t));
		goto out;
	}
	/*
	 * Context lines around the body, so every hunk can have three (after
	 * the "}" line too when the alignment changes it).
	 */
	rf = first > DIFF_CONTEXT + 1 ? first - DIFF_CONTEXT : 1;
	rl = s->lists[0].close + DIFF_CONTEXT - (p->align_to ? 0 : 1);
	if (rl > s->nr_lines)
		rl = s->nr_lines;
	split_lines(s->buf + s->line_off[rf], s->line_off[rl + 1] - s->line_off[rf], &a);
	strbuf_insert_lines(&body, s, rf, first - 1, rl, p->align_to);
	split_lines(body.buf, body.len, &b);
	strbuf_addf(out, "--- a/%s\n+++ b/%s\n", s->rel, s->rel);
	unified_diff(out, &a, &b, rf - 1);
	free(a.p);
	free(a.len);
	free(b.p);
	free(b.len);
out:
	strbuf_release(&body);
	free(e.pos);
	free(e.seq);
	free(e.lead);
	free(e.opened);
	free(e.wrapped);
	return ret;
}
