// SPDX-License-Identifier: GPL-2.0
/*
 * The annotate screen's model (tui_view.h): a row's function disassembled
 * by the engine (c2c_attrib_annotate), each instruction beside the source
 * line it came from, with the session's samples at each sampled
 * instruction and the row's own instruction marked.
 */
#include "tui/tui_view.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/c2c_attrib.h"
#include "util/xalloc.h"

#define SOURCE_WIDTH 72 /* the source column, line number included */

static const char annotate_keys[] = "l layout  s suggest  / search  n next  ? help  q back";

struct source {
	char **lines;
	size_t nr;
	char *path; /* the file read */
};

static void source_free(struct source *src)
{
	size_t i;

	for (i = 0; i < src->nr; i++)
		free(src->lines[i]);
	free(src->lines);
	free(src->path);
}

static int read_lines(const char *path, struct source *src)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, alloc = 0;
	ssize_t n;

	if (!f)
		return -errno;
	while ((n = getline(&line, &cap, f)) >= 0) {
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		src->lines = xgrow(src->lines, &alloc, src->nr + 1, sizeof(*src->lines));
		src->lines[src->nr++] = xstrdup(line);
	}
	free(line);
	fclose(f);
	src->path = xstrdup(path);
	return 0;
}

/*
 * The source file where DWARF puts it (path: file under its CU's
 * directory), else under source_dir: the name itself when relative, then
 * its base name. Returns 0 or the first -errno.
 */
static int read_source(const char *file, const char *path, const char *source_dir,
		       struct source *src)
{
	struct strbuf sb = STRBUF_INIT;
	const char *base = strrchr(file, '/');
	int ret = read_lines(path ? path : file, src);

	if (!ret || !source_dir)
		return ret;
	strbuf_addf(&sb, "%s/%s", source_dir, file);
	if (read_lines(sb.buf, src) && base) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s", source_dir, base + 1);
		read_lines(sb.buf, src);
	}
	strbuf_release(&sb);
	return src->path ? 0 : ret;
}

/* The source column of an instruction: its line when it starts a new one. */
static void source_cell(const struct source *src, int line, bool sampled_line, struct strbuf *out)
{
	size_t start = out->len;

	if (line > 0 && (size_t)line <= src->nr) {
		const char *p;

		strbuf_addf(out, "%c%5d  ", sampled_line ? '>' : ' ', line);
		for (p = src->lines[line - 1]; *p; p++) /* tabs as the editor shows them */
			if (*p == '\t')
				strbuf_addchars(out, ' ', 8 - (out->len - start - 8) % 8);
			else
				strbuf_addch(out, *p);
	} else if (line > 0)
		strbuf_addf(out, "%c%5d", sampled_line ? '>' : ' ', line);
	if (out->len - start > SOURCE_WIDTH - 1)
		strbuf_setlen(out, start + SOURCE_WIDTH - 1);
	strbuf_pad_to(out, start, SOURCE_WIDTH);
}

static void insn_cell(const struct c2c_annotation *an, size_t i, struct strbuf *out)
{
	const struct attrib_insn_text *in = &an->code.insns[i];
	const struct c2c_insn_counts *c = &an->counts[i];
	size_t start;

	strbuf_addf(out, "| %s %#10" PRIx64 ":  ", i == an->code.sampled ? "->" : "  ",
		    in->pc + an->bias);
	start = out->len;
	strbuf_addstr(out, in->text);
	if (c->records) {
		strbuf_pad_to(out, start, 44);
		strbuf_addf(out, " hitm %" PRIu64 "/%" PRIu64 " ld %" PRIu64 " st %" PRIu64,
			    c->lcl_hitm, c->rmt_hitm, c->loads, c->stores);
	}
}

static void add_rows(struct tui_view *v, const struct c2c_annotation *an, const struct source *src)
{
	struct strbuf sb = STRBUF_INIT;
	int prev = 0;
	size_t i;

	for (i = 0; i < an->code.nr_insns; i++) {
		int line = an->code.insns[i].line;
		struct tui_row *r;

		strbuf_reset(&sb);
		source_cell(src, line != prev ? line : 0, line && line == an->code.line, &sb);
		insn_cell(an, i, &sb);
		r = tui_view_add_row(v, TUI_STYLE_PLAIN, "%s", sb.buf);
		if (i == an->code.sampled)
			r->style = TUI_STYLE_MARK;
		else if (an->counts[i].lcl_hitm || an->counts[i].rmt_hitm)
			r->style = TUI_STYLE_HOT;
		if (line)
			prev = line;
	}
	strbuf_release(&sb);
}

static void annotate_summary(struct tui_view *v, const struct c2c_annotation *an,
			     const struct source *src, int read_err)
{
	struct strbuf sb = STRBUF_INIT;

	if (!an->code.file)
		strbuf_addstr(&sb, "source: the line table names no file for this address");
	else if (read_err)
		strbuf_addf(&sb, "source %s: cannot read it: %s (--source-dir DIR looks there)",
			    an->code.file, strerror(-read_err));
	else
		strbuf_addf(&sb, "source: %s", src->path);
	v->summary = strbuf_detach(&sb, NULL);
}

void tui_view_annotate(struct tui_view *v, struct c2c_session *s, const struct c2c_row *r,
		       const char *source_dir)
{
	struct c2c_annotation an;
	struct err_msg err = { 0 };
	struct source src = { 0 };
	struct strbuf sb = STRBUF_INIT;
	int read_err = -ENOENT;

	memset(v, 0, sizeof(*v));
	v->screen = TUI_SCREEN_ANNOTATE;
	v->keys = annotate_keys;
	v->row = r;
	v->type = tui_row_struct(s, r);
	if (!s->attrib || c2c_attrib_annotate(s->attrib, s, r, &an, &err)) {
		strbuf_addf(&sb, "annotate 0x%" PRIx64, r->iaddr);
		v->title = strbuf_detach(&sb, NULL);
		tui_view_add_row(v, TUI_STYLE_DIM, "%s",
				 s->attrib ? err.msg : "annotate reads DWARF: drop --no-attrib");
		return;
	}
	strbuf_addf(&sb, "annotate %s  0x%" PRIx64 "  %s:%d", an.code.func ? an.code.func : "?",
		    r->iaddr, an.code.file ? an.code.file : "?", an.code.line);
	v->title = strbuf_detach(&sb, NULL);
	if (an.code.file)
		read_err = read_source(an.code.file, an.code.path, source_dir, &src);
	annotate_summary(v, &an, &src, read_err);
	strbuf_addstr(&sb, " Source");
	strbuf_pad_to(&sb, 0, SOURCE_WIDTH);
	strbuf_addstr(&sb, "|    Address   Instruction                                  "
			   "samples here: hitm lcl/rmt ld st");
	tui_view_add_text(v, sb.buf, 1);
	strbuf_release(&sb);
	add_rows(v, &an, &src);
	v->cursor = an.code.sampled < an.code.nr_insns ? an.code.sampled : 0;
	source_free(&src);
	c2c_annotation_release(&an);
}
