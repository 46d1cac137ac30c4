// SPDX-License-Identifier: GPL-2.0
/*
 * The annotation of a code address (attrib.h): its function's
 * instructions as text (capstone) with their DWARF source lines, and the
 * source file and line of the address itself.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "attrib/attrib_int.h"
#include "util/xalloc.h"

/* Source file and line of pc from the line table, or false. */
static bool source_of(struct attrib *a, Dwarf_Die *cu, uint64_t pc, const char **file, int *line)
{
	Dwarf_Line *l = dwarf_getsrc_die(cu, pc);

	if (!l || dwarf_lineno(l, line))
		return false;
	*file = dwarf_linesrc(l, NULL, NULL);
	return *file != NULL;
}

/*
 * Where file is on disk: a relative name is relative to the directory the
 * compiler ran in (a build with a relative srcdir names
 * "../../samples/x.c"), not to ours.
 */
static char *source_path(Dwarf_Die *cu, const char *file)
{
	Dwarf_Attribute attr;
	const char *dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
	struct strbuf sb = STRBUF_INIT;

	if (file[0] == '/' || !dir)
		return xstrdup(file);
	strbuf_addf(&sb, "%s/%s", dir, file);
	return strbuf_detach(&sb, NULL);
}

static void add_insns(struct attrib *a, const struct func *f, Dwarf_Die *cu, bool have_cu,
		      uint64_t bias, struct attrib_annotation *out)
{
	size_t avail = 0, alloc = 0;
	const uint8_t *code = attrib_func_code(a, f, &avail);
	uint64_t pc = f->lo;

	if (!code)
		return;
	while (pc < f->lo + avail) {
		struct strbuf sb = STRBUF_INIT;
		struct attrib_insn_text *in;
		const char *file;
		int line;
		size_t n = attrib_decoder_text(a->dec, code + (pc - f->lo), avail - (pc - f->lo),
					       pc + bias, &sb);

		if (!n) {
			strbuf_release(&sb);
			break;
		}
		out->insns = xgrow(out->insns, &alloc, out->nr_insns + 1, sizeof(*out->insns));
		in = &out->insns[out->nr_insns++];
		*in = (struct attrib_insn_text){ .pc = pc, .text = strbuf_detach(&sb, NULL) };
		/* lines of another file (inlined code) are not the file's lines */
		if (have_cu && source_of(a, cu, pc, &file, &line) && out->file &&
		    !strcmp(file, out->file))
			in->line = line;
		pc += n;
	}
}

int attrib_annotate(struct attrib *a, uint64_t pc, uint64_t bias, struct attrib_annotation *out,
		    struct err_msg *err)
{
	struct func *f = attrib_func_get(a, pc);
	Dwarf_Die cu;
	bool have_cu;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!f)
		return err_set(err, ENOENT, "%s: at 0x%" PRIx64 ": no function the DWARF knows",
			       a->img.path, pc);
	out->func = f->name;
	out->lo = f->lo;
	out->hi = f->hi;
	have_cu = dwarf_addrdie(a->img.dwarf, pc, &cu) != NULL;
	if (have_cu && source_of(a, &cu, pc, &out->file, &out->line))
		out->path = source_path(&cu, out->file);
	add_insns(a, f, &cu, have_cu, bias, out);
	out->sampled = out->nr_insns;
	for (i = 0; i < out->nr_insns; i++)
		if (out->insns[i].pc == pc)
			out->sampled = i;
	if (!out->nr_insns)
		return err_set(err, ENOENT, "%s: at 0x%" PRIx64 ": no code bytes to decode",
			       a->img.path, pc);
	return 0;
}

void attrib_annotation_release(struct attrib_annotation *an)
{
	size_t i;

	for (i = 0; i < an->nr_insns; i++)
		free(an->insns[i].text);
	free(an->insns);
	free(an->path);
	memset(an, 0, sizeof(*an));
}
