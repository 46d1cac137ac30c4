// SPDX-License-Identifier: GPL-2.0
/*
 * The rules language: a hand-written lexer and recursive-descent parser.
 * Every token carries its line and column so that an error can say exactly
 * where the input stopped making sense and what was expected there.
 */
#include "gate/gate.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INCLUDE_DEPTH 16

struct ruleset {
	struct rule_block *blocks;
	size_t nr_blocks, alloc_blocks;
	char **strings; /* everything the ruleset owns */
	size_t nr_strings, alloc_strings;
	const char *open_files[MAX_INCLUDE_DEPTH]; /* include stack */
	int depth;
};

enum tok_kind { TOK_EOF, TOK_NL, TOK_WORD, TOK_NUM, TOK_STR, TOK_PUNCT };

struct token {
	enum tok_kind kind;
	const char *start;
	size_t len;
	unsigned int line, col;
	uint64_t num;
};

struct parser {
	struct ruleset *rs;
	const char *file;
	const char *p; /* next character */
	unsigned int line, col;
	struct token tok; /* current token */
	struct err_msg *err;
};

static const char *rs_own(struct ruleset *rs, char *s)
{
	rs->strings = xgrow(rs->strings, &rs->alloc_strings, rs->nr_strings + 1, sizeof(char *));
	rs->strings[rs->nr_strings++] = s;
	return s;
}

static const char *rs_strndup(struct ruleset *rs, const char *s, size_t n)
{
	return rs_own(rs, xstrndup(s, n));
}

struct ruleset *ruleset_new(void)
{
	return xcalloc(1, sizeof(struct ruleset));
}

void ruleset_free(struct ruleset *rs)
{
	size_t i, j;

	if (!rs)
		return;
	for (i = 0; i < rs->nr_blocks; i++) {
		for (j = 0; j < rs->blocks[i].nr_rules; j++)
			free(rs->blocks[i].rules[j].names);
		free(rs->blocks[i].rules);
	}
	for (i = 0; i < rs->nr_strings; i++)
		free(rs->strings[i]);
	free(rs->strings);
	free(rs->blocks);
	free(rs);
}

size_t ruleset_nr_blocks(const struct ruleset *rs)
{
	return rs->nr_blocks;
}

const struct rule_block *ruleset_block(const struct ruleset *rs, size_t i)
{
	return i < rs->nr_blocks ? &rs->blocks[i] : NULL;
}

size_t ruleset_nr_rules(const struct ruleset *rs)
{
	size_t i, n = 0;

	for (i = 0; i < rs->nr_blocks; i++)
		n += rs->blocks[i].nr_rules;
	return n;
}

/* ------------------------------------------------------------------ lexer */

static void tok_describe(struct strbuf *sb, const struct token *t)
{
	switch (t->kind) {
	case TOK_EOF:
		strbuf_addstr(sb, "end of file");
		break;
	case TOK_NL:
		strbuf_addstr(sb, "end of line");
		break;
	case TOK_STR:
		strbuf_addstr(sb, "a string");
		break;
	default:
		strbuf_addf(sb, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->start);
	}
}

/* "FILE:LINE:COL: expected WHAT, found TOKEN" at the current token. */
static int expected(struct parser *ps, const char *what)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	tok_describe(&sb, &ps->tok);
	ret = err_set(ps->err, EINVAL, "%s:%u:%u: expected %s, found %s", ps->file, ps->tok.line,
		      ps->tok.col, what, sb.buf);
	strbuf_release(&sb);
	return ret;
}

static void advance_char(struct parser *ps)
{
	if (*ps->p == '\n') {
		ps->line++;
		ps->col = 1;
	} else {
		ps->col++;
	}
	ps->p++;
}

static void skip_blanks(struct parser *ps)
{
	for (;;) {
		if (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r') {
			advance_char(ps);
		} else if (*ps->p == '#' || (ps->p[0] == '/' && ps->p[1] == '/')) {
			while (*ps->p && *ps->p != '\n')
				advance_char(ps);
		} else if (ps->p[0] == '\\' && ps->p[1] == '\n') {
			advance_char(ps); /* a line continuation */
			advance_char(ps);
		} else {
			return;
		}
	}
}

static bool is_word_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '$';
}

static int lex_number(struct parser *ps, struct token *t)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(ps->p, &end, 0);
	if (errno || is_word_char((unsigned char)*end)) {
		while (is_word_char((unsigned char)*ps->p))
			advance_char(ps);
		t->len = ps->p - t->start;
		return err_set(ps->err, EINVAL, "%s:%u:%u: expected a number, found '%.*s'",
			       ps->file, t->line, t->col, (int)t->len, t->start);
	}
	while (ps->p < end)
		advance_char(ps);
	t->kind = TOK_NUM;
	t->num = v;
	return 0;
}

static int lex_string(struct parser *ps, struct token *t)
{
	advance_char(ps); /* opening quote */
	while (*ps->p && *ps->p != '"' && *ps->p != '\n')
		advance_char(ps);
	if (*ps->p != '"')
		return err_set(ps->err, EINVAL, "%s:%u:%u: expected '\"' to close the string",
			       ps->file, ps->line, ps->col);
	advance_char(ps);
	t->kind = TOK_STR;
	t->start++; /* the contents, without quotes */
	t->len = ps->p - t->start - 1;
	return 0;
}

static int next_token(struct parser *ps)
{
	struct token *t = &ps->tok;
	int ret = 0;

	skip_blanks(ps);
	memset(t, 0, sizeof(*t));
	t->start = ps->p;
	t->line = ps->line;
	t->col = ps->col;
	if (!*ps->p) {
		t->kind = TOK_EOF;
	} else if (*ps->p == '\n' || *ps->p == ';') {
		t->kind = TOK_NL;
		advance_char(ps);
	} else if (isdigit((unsigned char)*ps->p)) {
		ret = lex_number(ps, t);
	} else if (*ps->p == '"') {
		ret = lex_string(ps, t);
		return ret;
	} else if (is_word_char((unsigned char)*ps->p)) {
		t->kind = TOK_WORD;
		while (is_word_char((unsigned char)*ps->p))
			advance_char(ps);
	} else if ((ps->p[0] == '<' || ps->p[0] == '=') && ps->p[1] == '=') {
		t->kind = TOK_PUNCT;
		advance_char(ps);
		advance_char(ps);
	} else {
		t->kind = TOK_PUNCT;
		advance_char(ps);
	}
	t->len = ps->p - t->start;
	return ret;
}

static bool tok_is(const struct token *t, const char *s)
{
	return (t->kind == TOK_WORD || t->kind == TOK_PUNCT) && t->len == strlen(s) &&
	       !memcmp(t->start, s, t->len);
}

/* Consume the punctuation or keyword s, or fail naming it. */
static int expect_tok(struct parser *ps, const char *s)
{
	struct strbuf what = STRBUF_INIT;
	int ret;

	if (tok_is(&ps->tok, s))
		return next_token(ps);
	strbuf_addf(&what, "'%s'", s);
	ret = expected(ps, what.buf);
	strbuf_release(&what);
	return ret;
}

static void skip_newlines_noerr(struct parser *ps, int *ret)
{
	while (!*ret && ps->tok.kind == TOK_NL)
		*ret = next_token(ps);
}

/* ----------------------------------------------------------------- parser */

static bool valid_path(const struct token *t)
{
	size_t i;
	bool seg_start = true;

	for (i = 0; i < t->len; i++) {
		char c = t->start[i];

		if (c == '.') {
			if (seg_start)
				return false;
			seg_start = true;
			continue;
		}
		if (c == '$' || (seg_start && isdigit((unsigned char)c)))
			return false;
		seg_start = false;
	}
	return !seg_start;
}

static bool valid_ident(const struct token *t)
{
	return valid_path(t) && !memchr(t->start, '.', t->len);
}

static int parse_name(struct parser *ps, const char **out, bool path)
{
	const struct token *t = &ps->tok;

	if (t->kind != TOK_WORD || !(path ? valid_path(t) : valid_ident(t)))
		return expected(ps, path ? "a member name" : "a group name");
	*out = rs_strndup(ps->rs, t->start, t->len);
	return next_token(ps);
}

static int parse_names(struct parser *ps, struct rule *r)
{
	size_t alloc = 0;
	int ret;

	for (;;) {
		r->names = xgrow(r->names, &alloc, r->nr_names + 1, sizeof(*r->names));
		ret = parse_name(ps, &r->names[r->nr_names], true);
		if (ret)
			return ret;
		r->nr_names++;
		if (!tok_is(&ps->tok, ","))
			return 0;
		ret = next_token(ps);
		if (ret)
			return ret;
	}
}

static int parse_num(struct parser *ps, uint64_t *out, bool positive)
{
	if (ps->tok.kind != TOK_NUM || (positive && !ps->tok.num))
		return expected(ps, positive ? "a positive number" : "a number");
	*out = ps->tok.num;
	return next_token(ps);
}

/* "<= N" or "== N" (when eq_kind is not -1) after size/cachelines/... */
static int parse_compare(struct parser *ps, struct rule *r, enum rule_kind le_kind, int eq_kind)
{
	int ret;

	if (tok_is(&ps->tok, "<=")) {
		r->kind = le_kind;
	} else if (eq_kind >= 0 && tok_is(&ps->tok, "==")) {
		r->kind = eq_kind;
	} else {
		return expected(ps, eq_kind >= 0 ? "'<=' or '=='" : "'<='");
	}
	ret = next_token(ps);
	return ret ? ret : parse_num(ps, &r->value, false);
}

static int parse_group_rule(struct parser *ps, struct rule *r)
{
	int ret = parse_name(ps, &r->subject, false);

	if (ret)
		return ret;
	if (tok_is(&ps->tok, ":")) {
		r->kind = RULE_GROUP;
		ret = next_token(ps);
		return ret ? ret : parse_names(ps, r);
	}
	if (tok_is(&ps->tok, "size")) {
		ret = next_token(ps);
		return ret ? ret : parse_compare(ps, r, RULE_GROUP_SIZE_LE, -1);
	}
	if (!tok_is(&ps->tok, "fits"))
		return expected(ps, "':', 'fits' or 'size'");
	r->kind = RULE_GROUP_FITS;
	ret = next_token(ps);
	if (!ret)
		ret = parse_num(ps, &r->value, true);
	if (ret)
		return ret;
	if (!tok_is(&ps->tok, "lines") && !tok_is(&ps->tok, "line"))
		return expected(ps, "'lines'");
	return next_token(ps);
}

/* A rule whose first word (already consumed) named a member rule. */
static int parse_member_rule(struct parser *ps, struct rule *r)
{
	int ret;

	if (r->kind == RULE_TOGETHER)
		return parse_names(ps, r);
	ret = parse_name(ps, &r->subject, true);
	if (ret)
		return ret;
	switch (r->kind) {
	case RULE_APART:
		ret = expect_tok(ps, ":");
		return ret ? ret : parse_names(ps, r);
	case RULE_OFFSET_EQ:
		ret = expect_tok(ps, "==");
		return ret ? ret : parse_num(ps, &r->value, false);
	case RULE_ALIGNED:
		return parse_num(ps, &r->value, true);
	default:
		return 0;
	}
}

static const struct {
	const char *word;
	enum rule_kind kind;
} member_rules[] = {
	{ "isolated", RULE_ISOLATED }, { "apart", RULE_APART },	    { "together", RULE_TOGETHER },
	{ "offset", RULE_OFFSET_EQ },  { "aligned", RULE_ALIGNED },
};

static int parse_rule_body(struct parser *ps, struct rule *r)
{
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(member_rules); i++) {
		if (tok_is(&ps->tok, member_rules[i].word)) {
			r->kind = member_rules[i].kind;
			ret = next_token(ps);
			return ret ? ret : parse_member_rule(ps, r);
		}
	}
	if (tok_is(&ps->tok, "group")) {
		ret = next_token(ps);
		return ret ? ret : parse_group_rule(ps, r);
	}
	if (tok_is(&ps->tok, "size") || tok_is(&ps->tok, "cachelines") ||
	    tok_is(&ps->tok, "holes") || tok_is(&ps->tok, "padding")) {
		char c = ps->tok.start[0];

		ret = next_token(ps);
		if (ret)
			return ret;
		if (c == 's')
			return parse_compare(ps, r, RULE_SIZE_LE, RULE_SIZE_EQ);
		return parse_compare(ps, r,
				     c == 'c' ? RULE_CACHELINES_LE :
				     c == 'h' ? RULE_HOLES_LE :
						RULE_PADDING_LE,
				     -1);
	}
	return expected(ps, "a rule (size, cachelines, isolated, apart, together, offset, "
			    "aligned, holes, padding or group)");
}

static int parse_rule(struct parser *ps, struct rule_block *b, size_t *alloc)
{
	struct rule r = { .file = ps->file, .line = ps->tok.line, .col = ps->tok.col };
	int ret = parse_rule_body(ps, &r);

	if (!ret && ps->tok.kind != TOK_NL && !tok_is(&ps->tok, "}"))
		ret = expected(ps, r.nr_names ? "',' or end of line" : "end of line");
	if (ret) {
		free(r.names);
		return ret;
	}
	b->rules = xgrow(b->rules, alloc, b->nr_rules + 1, sizeof(*b->rules));
	b->rules[b->nr_rules++] = r;
	return 0;
}

static void append_block(struct ruleset *rs, const struct rule_block *b)
{
	rs->blocks = xgrow(rs->blocks, &rs->alloc_blocks, rs->nr_blocks + 1, sizeof(*rs->blocks));
	rs->blocks[rs->nr_blocks++] = *b;
}

static int parse_block(struct parser *ps)
{
	struct rule_block b = { .file = ps->file, .line = ps->tok.line };
	size_t alloc = 0, i;
	int ret = next_token(ps); /* 'struct' or 'union' */

	if (!ret)
		ret = parse_name(ps, &b.struct_name, false);
	if (ret == -EINVAL && !b.struct_name)
		ret = expected(ps, "a struct name");
	skip_newlines_noerr(ps, &ret);
	if (!ret)
		ret = expect_tok(ps, "{");
	while (!ret) {
		skip_newlines_noerr(ps, &ret);
		if (ret)
			break;
		if (tok_is(&ps->tok, "}")) {
			ret = next_token(ps);
			if (!ret && ps->tok.kind != TOK_NL && ps->tok.kind != TOK_EOF)
				ret = expected(ps, "end of line");
			break;
		}
		if (ps->tok.kind == TOK_EOF) {
			ret = expected(ps, "'}'");
			break;
		}
		ret = parse_rule(ps, &b, &alloc);
	}
	if (!ret) {
		append_block(ps->rs, &b);
		return 0;
	}
	for (i = 0; i < b.nr_rules; i++)
		free(b.rules[i].names);
	free(b.rules);
	return ret;
}

static int parse_include(struct parser *ps)
{
	struct strbuf path = STRBUF_INIT;
	struct token at;
	const char *slash;
	int ret = next_token(ps);

	if (ret)
		return ret;
	if (ps->tok.kind != TOK_STR || !ps->tok.len)
		return expected(ps, "a quoted file name");
	at = ps->tok;
	slash = strrchr(ps->file, '/');
	if (at.start[0] != '/' && slash)
		strbuf_add(&path, ps->file, slash - ps->file + 1);
	strbuf_add(&path, at.start, at.len);
	ret = next_token(ps);
	if (!ret && ps->tok.kind != TOK_NL && ps->tok.kind != TOK_EOF)
		ret = expected(ps, "end of line");
	if (!ret) {
		ret = ruleset_parse_file(ps->rs, path.buf, ps->err);
		if (ret && ret != -EINVAL) {
			struct err_msg inner = *ps->err;

			err_set(ps->err, -ret, "%s:%u:%u: in include: %s", ps->file, at.line,
				at.col, inner.msg);
		}
	}
	strbuf_release(&path);
	return ret;
}

static int parse_top(struct parser *ps)
{
	int ret = next_token(ps);

	while (!ret) {
		skip_newlines_noerr(ps, &ret);
		if (ret || ps->tok.kind == TOK_EOF)
			break;
		if (tok_is(&ps->tok, "struct") || tok_is(&ps->tok, "union"))
			ret = parse_block(ps);
		else if (tok_is(&ps->tok, "include"))
			ret = parse_include(ps);
		else
			ret = expected(ps, "'struct', 'union' or 'include'");
	}
	return ret;
}

int ruleset_parse_string(struct ruleset *rs, const char *name, const char *text,
			 struct err_msg *err)
{
	struct err_msg local;
	struct parser ps = {
		.rs = rs,
		.file = rs_strndup(rs, name, strlen(name)),
		.p = text,
		.line = 1,
		.col = 1,
		.err = err ? err : &local,
	};
	int i, ret;

	for (i = 0; i < rs->depth; i++)
		if (!strcmp(rs->open_files[i], name))
			return err_set(err, ELOOP, "%s: includes itself", name);
	if (rs->depth >= MAX_INCLUDE_DEPTH)
		return err_set(err, ELOOP, "%s: includes nested deeper than %d", name,
			       MAX_INCLUDE_DEPTH);
	rs->open_files[rs->depth++] = ps.file;
	ret = parse_top(&ps);
	rs->depth--;
	return ret;
}

int ruleset_parse_file(struct ruleset *rs, const char *path, struct err_msg *err)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[8192];
	size_t n;
	FILE *f = fopen(path, "r");
	int ret;

	if (!f)
		return err_set(err, errno, "%s: %s", path, strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	if (ferror(f)) {
		ret = err_set(err, EIO, "%s: read error", path);
	} else if (memchr(sb.buf, '\0', sb.len)) {
		ret = err_set(err, EINVAL, "%s: binary file, expected layout rules", path);
	} else {
		ret = ruleset_parse_string(rs, path, sb.buf, err);
	}
	fclose(f);
	strbuf_release(&sb);
	return ret;
}

/* ------------------------------------------------------------ generated */

struct rule *ruleset_add_rule(struct ruleset *rs, const char *struct_name, enum rule_kind kind,
			      const char *subject, const char *const *names, size_t nr_names,
			      uint64_t value)
{
	struct rule_block *b = NULL;
	struct rule *r;
	size_t i, alloc;

	for (i = 0; i < rs->nr_blocks; i++)
		if (!strcmp(rs->blocks[i].file, "<kernel-groups>") &&
		    !strcmp(rs->blocks[i].struct_name, struct_name))
			b = &rs->blocks[i];
	if (!b) {
		struct rule_block nb = {
			.struct_name = rs_strndup(rs, struct_name, strlen(struct_name)),
			.file = "<kernel-groups>",
		};
		append_block(rs, &nb);
		b = &rs->blocks[rs->nr_blocks - 1];
	}
	alloc = b->nr_rules;
	b->rules = xgrow(b->rules, &alloc, b->nr_rules + 1, sizeof(*b->rules));
	r = &b->rules[b->nr_rules++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->file = b->file;
	r->subject = subject ? rs_strndup(rs, subject, strlen(subject)) : NULL;
	r->value = value;
	r->nr_names = nr_names;
	r->names = nr_names ? xcalloc(nr_names, sizeof(*r->names)) : NULL;
	for (i = 0; i < nr_names; i++)
		r->names[i] = rs_strndup(rs, names[i], strlen(names[i]));
	return r;
}

static const char *const kind_names[] = {
	[RULE_SIZE_LE] = "size",
	[RULE_SIZE_EQ] = "size",
	[RULE_CACHELINES_LE] = "cachelines",
	[RULE_ISOLATED] = "isolated",
	[RULE_APART] = "apart",
	[RULE_TOGETHER] = "together",
	[RULE_OFFSET_EQ] = "offset",
	[RULE_ALIGNED] = "aligned",
	[RULE_HOLES_LE] = "holes",
	[RULE_PADDING_LE] = "padding",
	[RULE_GROUP] = "group",
	[RULE_GROUP_FITS] = "group-fits",
	[RULE_GROUP_SIZE_LE] = "group-size",
	[RULE_GROUP_MARKERS] = "kernel-group",
};

const char *rule_kind_name(enum rule_kind kind)
{
	return (size_t)kind < ARRAY_SIZE(kind_names) ? kind_names[kind] : "?";
}

static void format_names(struct strbuf *sb, const struct rule *r)
{
	size_t i;

	for (i = 0; i < r->nr_names; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", r->names[i]);
}

void rule_format(struct strbuf *sb, const struct rule *r)
{
	unsigned long long v = r->value;

	switch (r->kind) {
	case RULE_SIZE_LE:
	case RULE_CACHELINES_LE:
	case RULE_HOLES_LE:
	case RULE_PADDING_LE:
		strbuf_addf(sb, "%s <= %llu", rule_kind_name(r->kind), v);
		break;
	case RULE_SIZE_EQ:
		strbuf_addf(sb, "size == %llu", v);
		break;
	case RULE_ISOLATED:
		strbuf_addf(sb, "isolated %s", r->subject);
		break;
	case RULE_OFFSET_EQ:
		strbuf_addf(sb, "offset %s == %llu", r->subject, v);
		break;
	case RULE_ALIGNED:
		strbuf_addf(sb, "aligned %s %llu", r->subject, v);
		break;
	case RULE_APART:
	case RULE_GROUP:
		strbuf_addf(sb, "%s %s: ", rule_kind_name(r->kind), r->subject);
		format_names(sb, r);
		break;
	case RULE_TOGETHER:
		strbuf_addstr(sb, "together ");
		format_names(sb, r);
		break;
	case RULE_GROUP_FITS:
		strbuf_addf(sb, "group %s fits %llu line%s", r->subject, v, v == 1 ? "" : "s");
		break;
	case RULE_GROUP_SIZE_LE:
		strbuf_addf(sb, "group %s size <= %llu", r->subject, v);
		break;
	case RULE_GROUP_MARKERS:
		strbuf_addf(sb, "kernel group %s (__cacheline_group_begin__/end__ markers)",
			    r->subject);
		break;
	}
}
