// SPDX-License-Identifier: GPL-2.0
/*
 * The struct body parser of suggest --patch: splits the text between the
 * struct's braces into declarations and preprocessor conditionals, with the
 * lines each one owns. It is a scanner, not a C parser: it knows comments,
 * string and character literals, brackets, ';' and ',' at the top level and
 * preprocessor lines, which is all it takes to cut a member list.
 */
#include "suggest/srcstruct_int.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "util/xalloc.h"

struct scan {
	struct src_struct *s;
	size_t i;
	int depth; /* braces inside the body */
	int paren; /* parentheses and brackets at the body's level */
	bool in_decl;
	int32_t cur; /* the declaration being read */
	int32_t last_decl; /* the last declaration of the current list */
	uint32_t list;
	uint32_t owned_from; /* first line no unit of the list owns yet */
	uint32_t merge_line; /* a declaration starting on this line joins the last */
};

uint32_t suggest_src_line_of(const struct src_struct *s, size_t off)
{
	uint32_t lo = 1, hi = s->nr_lines;

	while (lo < hi) {
		uint32_t mid = (lo + hi + 1) / 2;

		if (s->line_off[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

void suggest_src_line_text(const struct src_struct *s, uint32_t line, struct strbuf *sb)
{
	size_t a = s->line_off[line], b = s->line_off[line + 1];

	while (a < b && (s->buf[a] == ' ' || s->buf[a] == '\t'))
		a++;
	while (b > a && isspace((unsigned char)s->buf[b - 1]))
		b--;
	strbuf_add(sb, s->buf + a, b - a > 60 ? 60 : b - a);
}

static bool line_start(const struct src_struct *s, size_t i)
{
	while (i > 0 && (s->buf[i - 1] == ' ' || s->buf[i - 1] == '\t'))
		i--;
	return i == 0 || s->buf[i - 1] == '\n';
}

/* Past a comment starting at i (a "//" comment stops before its newline). */
static size_t skip_comment(const struct src_struct *s, size_t i)
{
	const char *e;

	if (s->buf[i + 1] == '/') {
		e = memchr(s->buf + i, '\n', s->len - i);
		return e ? (size_t)(e - s->buf) : s->len;
	}
	e = strstr(s->buf + i + 2, "*/");
	return e ? (size_t)(e - s->buf) + 2 : s->len;
}

static bool is_comment(const struct src_struct *s, size_t i)
{
	return s->buf[i] == '/' && (s->buf[i + 1] == '*' || s->buf[i + 1] == '/');
}

static size_t skip_literal(const struct src_struct *s, size_t i)
{
	char q = s->buf[i];

	for (i++; i < s->len && s->buf[i] != q && s->buf[i] != '\n'; i++)
		if (s->buf[i] == '\\' && i + 1 < s->len)
			i++;
	return i < s->len ? i + 1 : s->len;
}

/* The newline that ends the directive at i (continuations and comments included). */
static size_t directive_end(const struct src_struct *s, size_t i)
{
	while (i < s->len && s->buf[i] != '\n') {
		if (s->buf[i] == '\\' && s->buf[i + 1] == '\n')
			i += 2;
		else if (is_comment(s, i))
			i = skip_comment(s, i);
		else
			i++;
	}
	return i;
}

static uint32_t new_list(struct src_struct *s, int32_t node, uint32_t hdr_first, uint32_t hdr_end)
{
	struct slist *l;

	s->lists = xgrow(s->lists, &s->lists_alloc, s->nr_lists + 1, sizeof(*l));
	l = &s->lists[s->nr_lists];
	memset(l, 0, sizeof(*l));
	l->node = node;
	l->hdr_first = hdr_first;
	l->hdr_end = hdr_end;
	return s->nr_lists++;
}

static int32_t new_node(struct scan *sc, enum snode_kind kind, uint32_t line)
{
	struct src_struct *s = sc->s;
	struct snode *n;

	s->nodes = xgrow(s->nodes, &s->nodes_alloc, s->nr_nodes + 1, sizeof(*n));
	n = &s->nodes[s->nr_nodes];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->list = sc->list;
	n->own_first = sc->owned_from;
	n->decl_first = line;
	n->own_last = line;
	n->mfirst = n->mlast = -1;
	return (int32_t)s->nr_nodes++;
}

static int parse_err(struct scan *sc, size_t at, const char *what, struct err_msg *err)
{
	return err_set(err, EINVAL, "%s:%u: %s in the body of struct %s; cannot patch it",
		       sc->s->path, suggest_src_line_of(sc->s, at), what,
		       type_aggregate_name(sc->s->t));
}

static bool directive_is(const char *p, const char *word)
{
	size_t n = strlen(word);

	return !strncmp(p, word, n) && !isalnum((unsigned char)p[n]) && p[n] != '_';
}

static int directive(struct scan *sc, struct err_msg *err)
{
	struct src_struct *s = sc->s;
	size_t end = directive_end(s, sc->i), p = sc->i + 1;
	uint32_t line = suggest_src_line_of(s, sc->i),
		 last = suggest_src_line_of(s, end ? end - 1 : 0);
	const char *w;
	int32_t cond;

	if (last < line)
		last = line;
	while (p < end && (s->buf[p] == ' ' || s->buf[p] == '\t'))
		p++;
	w = s->buf + p;
	if (directive_is(w, "if") || directive_is(w, "ifdef") || directive_is(w, "ifndef")) {
		cond = new_node(sc, SNODE_COND, line);
		s->nodes[cond].nr_lists = 1;
		sc->list = new_list(s, cond, line, last);
		s->nodes[cond].first_list = sc->list;
	} else if (directive_is(w, "elif") || directive_is(w, "else")) {
		cond = s->lists[sc->list].node;
		if (cond < 0)
			return parse_err(sc, sc->i, "#else or #elif without #if", err);
		s->lists[sc->list].close = line;
		s->nodes[cond].nr_lists++;
		sc->list = new_list(s, cond, line, last);
	} else if (directive_is(w, "endif")) {
		cond = s->lists[sc->list].node;
		if (cond < 0)
			return parse_err(sc, sc->i, "#endif without #if", err);
		s->lists[sc->list].close = line;
		s->nodes[cond].endif_line = line;
		s->nodes[cond].own_last = last;
		sc->list = s->nodes[cond].list;
	} else {
		sc->i = end;
		return 0; /* #define, #pragma...: lines of the next unit */
	}
	sc->owned_from = last + 1;
	sc->last_decl = -1;
	sc->merge_line = 0;
	sc->i = end;
	return 0;
}

static void start_decl(struct scan *sc)
{
	uint32_t line = suggest_src_line_of(sc->s, sc->i);

	sc->in_decl = true;
	if (line == sc->merge_line && sc->last_decl >= 0) {
		sc->cur = sc->last_decl; /* "int a; int b;" on one line: one unit */
		sc->s->nodes[sc->cur].nr_declarators++;
		return;
	}
	sc->cur = new_node(sc, SNODE_DECL, line);
	sc->s->nodes[sc->cur].nr_declarators = 1;
}

/* The ';' at i ends the declaration; its trailing comment stays with it. */
static void end_decl(struct scan *sc)
{
	struct src_struct *s = sc->s;
	struct snode *n = &s->nodes[sc->cur];
	size_t j = sc->i + 1;

	while (j < s->len && (s->buf[j] == ' ' || s->buf[j] == '\t'))
		j++;
	if (j < s->len && is_comment(s, j)) {
		j = skip_comment(s, j);
		while (j < s->len && (s->buf[j] == ' ' || s->buf[j] == '\t'))
			j++;
	}
	n->own_last = suggest_src_line_of(s, j > sc->i + 1 ? j - 1 : sc->i);
	sc->merge_line = j < s->len && s->buf[j] != '\n' ? n->own_last : 0;
	sc->owned_from = n->own_last + 1;
	sc->last_decl = sc->cur;
	sc->in_decl = false;
	sc->i = j;
}

/* One character (or comment, literal, directive) of the body; 1 at the closing brace. */
static int scan_one(struct scan *sc, struct err_msg *err)
{
	struct src_struct *s = sc->s;
	char c = s->buf[sc->i];

	if (is_comment(s, sc->i)) {
		sc->i = skip_comment(s, sc->i);
		return 0;
	}
	if (isspace((unsigned char)c)) {
		sc->i++;
		return 0;
	}
	if (c == '#' && line_start(s, sc->i)) {
		if (sc->depth)
			return (sc->i = directive_end(s, sc->i)), 0;
		if (sc->in_decl)
			return parse_err(sc, sc->i, "a preprocessor line inside a declaration",
					 err);
		return directive(sc, err);
	}
	if (c == '}' && !sc->depth) {
		if (sc->in_decl)
			return parse_err(sc, sc->i, "a declaration without ';'", err);
		return 1;
	}
	if (!sc->in_decl)
		start_decl(sc);
	if (c == '"' || c == '\'') {
		sc->i = skip_literal(s, sc->i);
		return 0;
	}
	if (c == '{')
		sc->depth++;
	else if (c == '}')
		sc->depth--;
	else if (c == '(' || c == '[')
		sc->paren++;
	else if ((c == ')' || c == ']') && sc->paren > 0)
		sc->paren--;
	else if (c == ',' && !sc->depth && !sc->paren)
		s->nodes[sc->cur].nr_declarators++;
	if (c == ';' && !sc->depth && !sc->paren) {
		end_decl(sc);
		return 0;
	}
	sc->i++;
	return 0;
}

int suggest_src_parse_body(struct src_struct *s, size_t open, struct err_msg *err)
{
	uint32_t open_line = suggest_src_line_of(s, open), i;
	struct scan sc = { .s = s, .i = open + 1, .cur = -1, .last_decl = -1 };
	int ret = 0;

	sc.list = new_list(s, -1, open_line, open_line);
	sc.owned_from = open_line + 1;
	while (sc.i < s->len && !(ret = scan_one(&sc, err)))
		;
	if (ret < 0)
		return ret;
	if (sc.i >= s->len)
		return parse_err(&sc, open, "no closing brace", err);
	if (sc.list != 0)
		return parse_err(&sc, sc.i, "an #if without #endif", err);
	s->lists[0].close = suggest_src_line_of(s, sc.i);
	for (i = 0; i < s->nr_nodes; i++) {
		if (s->nodes[i].decl_first == open_line)
			return parse_err(&sc, open, "a member on the line of the opening brace",
					 err);
		if (s->nodes[i].own_last >= s->lists[0].close)
			return parse_err(&sc, sc.i, "a member on the line of the closing brace",
					 err);
	}
	return 0;
}
