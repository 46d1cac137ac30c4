// SPDX-License-Identifier: GPL-2.0
/*
 * suggest --patch, part one: find the struct's source file and declaration,
 * parse its body (srcstruct_parse.c) and tie every member of the type model
 * to the unit that declares it, by DWARF's member lines (by name where the
 * model has no lines). The result also tells the proposer which orders
 * the source can express.
 */
#include "suggest/srcstruct_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/xalloc.h"

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/*
 * DIR/FILE for an absolute FILE inside DIR, a relative FILE, or the
 * longest tail of FILE that exists under DIR (an object built in another
 * copy of the tree). Sets *rel to the path under DIR.
 */
static char *resolve(const char *file, const char *dir, const char **rel)
{
	char *rdir = realpath(dir, NULL);
	struct strbuf sb = STRBUF_INIT;
	const char *tail = file;

	if (rdir && !strncmp(file, rdir, strlen(rdir)) && file[strlen(rdir)] == '/')
		tail = file + strlen(rdir) + 1;
	free(rdir);
	while (tail) {
		while (*tail == '/' || !strncmp(tail, "./", 2) || !strncmp(tail, "../", 3))
			tail += *tail == '/' ? 1 : tail[1] == '/' ? 2 : 3;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s", dir, tail);
		if (*tail && is_file(sb.buf)) {
			*rel = tail;
			return strbuf_detach(&sb, NULL);
		}
		tail = strchr(tail, '/');
	}
	strbuf_release(&sb);
	return NULL;
}

static int read_all(struct src_struct *s, struct err_msg *err)
{
	FILE *f = fopen(s->path, "r");
	struct strbuf sb = STRBUF_INIT;
	char chunk[65536];
	size_t n, i;
	uint32_t line = 1;

	if (!f)
		return err_set(err, errno, "%s: %s", s->path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		strbuf_add(&sb, chunk, n);
	fclose(f);
	if (sb.len && sb.buf[sb.len - 1] != '\n')
		strbuf_addch(&sb, '\n');
	strbuf_addch(&sb, '\0'); /* room for the scanner's one-byte lookahead */
	s->len = sb.len - 1;
	s->buf = strbuf_detach(&sb, NULL);
	for (i = 0; i < s->len; i++)
		line += s->buf[i] == '\n';
	s->nr_lines = line - 1;
	s->line_off = xcalloc(s->nr_lines + 3, sizeof(*s->line_off));
	s->line_off[1] = 0;
	for (i = 0, line = 1; i < s->len; i++)
		if (s->buf[i] == '\n')
			s->line_off[++line] = i + 1;
	s->line_off[s->nr_lines + 1] = s->len;
	return 0;
}

static bool ident_at(const char *buf, size_t i, const char *word)
{
	size_t n = strlen(word);

	return !strncmp(buf + i, word, n) &&
	       (i == 0 || !(isalnum((unsigned char)buf[i - 1]) || buf[i - 1] == '_')) &&
	       !isalnum((unsigned char)buf[i + n]) && buf[i + n] != '_';
}

/*
 * The "{" of "struct NAME ... {" starting on the declaration line, or for
 * the anonymous struct a typedef names, of "typedef struct ... {".
 */
static int find_open(const struct src_struct *s, size_t *open, struct err_msg *err)
{
	const struct type *t = s->t;
	const char *kw = t->kind == TYPE_UNION ? "union" : "struct";
	const char *word = t->name ? t->name : kw;
	uint32_t line = t->decl_line;
	size_t i, end;

	if (line < 1 || line > s->nr_lines)
		goto not_here;
	end = s->line_off[line + 1];
	for (i = s->line_off[line]; i < end; i++)
		if (ident_at(s->buf, i, word))
			break;
	if (i == end)
		goto not_here;
	for (i += strlen(word); i < s->len && s->buf[i] != '{'; i++)
		if (s->buf[i] == ';' || s->buf[i] == '}')
			goto not_here;
	if (i < s->len) {
		*open = i;
		return 0;
	}
not_here:
	return err_set(err, EINVAL,
		       "%s:%u: no '%s %s {' here (the source does not match the "
		       "object's DWARF?)",
		       s->path, line, t->name ? kw : "typedef", word);
}

static bool text_has_ident(const struct src_struct *s, uint32_t from, uint32_t to, const char *name)
{
	size_t i;

	for (i = s->line_off[from]; name && i < s->line_off[to + 1]; i++)
		if (ident_at(s->buf, i, name))
			return true;
	return false;
}

static bool has_brace(const struct src_struct *s, const struct snode *n)
{
	const char *a = s->buf + s->line_off[n->decl_first];

	return memchr(a, '{', s->line_off[n->own_last + 1] - s->line_off[n->decl_first]) != NULL;
}

/*
 * The declaration at or after CURSOR that declares member m: the one whose
 * lines hold DWARF's decl_line and the member's name; without a line (BTF,
 * gcc's anonymous members), the next that names it, or for an anonymous
 * member the next unused nested struct or union.
 */
static int32_t find_decl(const struct src_struct *s, const struct type_member *m, uint32_t cursor)
{
	bool by_line = m->decl_line && m->decl_file && s->t->decl_file &&
		       !strcmp(m->decl_file, s->t->decl_file);
	uint32_t i;

	for (i = cursor; i < s->nr_nodes; i++) {
		const struct snode *n = &s->nodes[i];

		if (n->kind != SNODE_DECL)
			continue;
		if (!m->name) {
			if (n->mfirst < 0 && has_brace(s, n) &&
			    (!by_line ||
			     (m->decl_line >= n->decl_first && m->decl_line <= n->own_last)))
				return (int32_t)i;
			continue;
		}
		if (by_line && (m->decl_line < n->decl_first || m->decl_line > n->own_last))
			continue;
		if (text_has_ident(s, n->decl_first, n->own_last, m->name))
			return (int32_t)i;
		if (by_line)
			return -1; /* the line is there, the name is not */
	}
	return -1;
}

static int map_members(struct src_struct *s, struct err_msg *err)
{
	const struct type *t = s->t;
	uint32_t i, cursor = 0;

	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		int32_t k = find_decl(s, m, cursor);

		if (k < 0)
			return err_set(err, EINVAL,
				       "%s:%u: member %s of struct %s (declared at line %u) not "
				       "found in the struct's body after line %u",
				       s->path, t->decl_line, m->name ? m->name : "(anonymous)",
				       type_aggregate_name(t), m->decl_line,
				       cursor < s->nr_nodes ? s->nodes[cursor].decl_first :
							      s->lists[0].close);
		if (s->nodes[k].mfirst < 0)
			s->nodes[k].mfirst = (int32_t)i;
		s->nodes[k].mlast = (int32_t)i;
		cursor = (uint32_t)k;
	}
	/* Conditionals cover their branches' members (children follow parents). */
	for (i = s->nr_nodes; i-- > 0;) {
		const struct snode *n = &s->nodes[i];
		int32_t c = s->lists[n->list].node;

		if (c < 0 || n->mfirst < 0)
			continue;
		if (s->nodes[c].mfirst < 0 || n->mfirst < s->nodes[c].mfirst)
			s->nodes[c].mfirst = n->mfirst;
		if (n->mlast > s->nodes[c].mlast)
			s->nodes[c].mlast = n->mlast;
	}
	return 0;
}

/* Declarations of several members and #if/#else glue; #if-only blocks group. */
static void build_constraints(struct src_struct *s)
{
	uint32_t i;

	/* a node adds to one of the two at most: one allocation holds both */
	s->glue = xcalloc(2 * ((size_t)s->nr_nodes + 1), sizeof(*s->glue));
	s->groups = s->glue + s->nr_nodes + 1;
	for (i = 0; i < s->nr_nodes; i++) {
		const struct snode *n = &s->nodes[i];
		struct propose_range r = { (uint32_t)n->mfirst, (uint32_t)n->mlast };

		if (n->mfirst < 0)
			continue;
		if (n->kind == SNODE_COND && n->nr_lists == 1)
			s->groups[s->nr_groups++] = r;
		else if (n->kind == SNODE_COND)
			s->glue[s->nr_glue++] = r; /* #else: we only see one branch */
		else if (n->kind == SNODE_DECL && n->mlast > n->mfirst)
			s->glue[s->nr_glue++] = r;
	}
}

int suggest_src_load(const struct type *t, const char *source_dir, struct src_struct **out,
		     struct err_msg *err)
{
	const char *dir = source_dir ? source_dir : ".", *rel = NULL;
	struct src_struct *s;
	size_t open = 0;
	int ret;

	t = type_strip(t);
	if (!t || !type_aggregate_name(t) || !t->decl_file || !t->decl_line)
		return err_set(err, EINVAL,
			       "struct %s: the type information has no declaration line (BTF "
			       "has none): give an object with DWARF",
			       t && type_aggregate_name(t) ? type_aggregate_name(t) :
							     "(anonymous)");
	s = xcalloc(1, sizeof(*s));
	s->t = t;
	s->path = resolve(t->decl_file, dir, &rel);
	if (!s->path) {
		ret = err_set(err, ENOENT, "%s:%u: source of struct %s not found under %s%s",
			      t->decl_file, t->decl_line, type_aggregate_name(t), dir,
			      source_dir ? "" : " (give --source-dir DIR)");
		goto fail;
	}
	s->rel = rel;
	ret = read_all(s, err);
	if (!ret)
		ret = find_open(s, &open, err);
	if (!ret)
		ret = suggest_src_parse_body(s, open, err);
	if (!ret)
		ret = map_members(s, err);
	if (ret)
		goto fail;
	build_constraints(s);
	*out = s;
	return 0;
fail:
	suggest_src_free(s);
	return ret;
}

void suggest_src_free(struct src_struct *s)
{
	if (!s)
		return;
	free(s->path);
	free(s->buf);
	free(s->line_off);
	free(s->nodes);
	free(s->lists);
	free(s->glue); /* and s->groups */
	free(s);
}

const char *suggest_src_rel_path(const struct src_struct *s)
{
	return s->rel;
}

void suggest_src_constraints(const struct src_struct *s, struct propose_opts *opts)
{
	opts->glue = s->glue;
	opts->nr_glue = s->nr_glue;
	opts->groups = s->groups;
	opts->nr_groups = s->nr_groups;
}
