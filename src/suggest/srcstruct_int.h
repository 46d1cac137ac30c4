/* SPDX-License-Identifier: GPL-2.0 */
/* Internals of suggest --patch, shared by srcstruct.c and patch.c only. */
#ifndef C2C_SUGGEST_SRCSTRUCT_INT_H
#define C2C_SUGGEST_SRCSTRUCT_INT_H

#include "suggest/suggest.h"

#include <stddef.h>

enum snode_kind {
	SNODE_DECL, /* a declaration (nested struct/union included) */
	SNODE_COND, /* #if ... #endif */
};

/*
 * One unit of the body. Lines are 1-based and inclusive. A unit owns the
 * lines after the previous unit of its list (leading comments, blank
 * lines) up to its own last line.
 */
struct snode {
	enum snode_kind kind;
	uint32_t list; /* the list (body or branch) it belongs to */
	uint32_t own_first, own_last;
	uint32_t decl_first; /* DECL: first line of the declaration; COND: the #if line */
	uint32_t nr_declarators; /* DECL: top-level commas + 1 */
	uint32_t first_list, nr_lists; /* COND: its branches */
	uint32_t endif_line; /* COND */
	int32_t mfirst, mlast; /* struct members it declares; -1 when none */
};

/* The body, or one branch of a conditional. */
struct slist {
	int32_t node; /* the COND it is a branch of; -1 for the body */
	uint32_t hdr_first, hdr_end; /* the "{" line, or the #if/#elif/#else lines */
	uint32_t close; /* first line after the list: "}", #elif, #else, #endif */
};

struct src_struct {
	const struct type *t;
	char *path; /* the file read */
	const char *rel; /* its path relative to the source directory: a tail of t->decl_file */
	char *buf;
	size_t len;
	uint32_t nr_lines;
	size_t *line_off; /* nr_lines + 2 entries: start of each line, 1-based */
	struct snode *nodes;
	uint32_t nr_nodes;
	size_t nodes_alloc;
	struct slist *lists;
	uint32_t nr_lists;
	size_t lists_alloc;
	struct propose_range *glue, *groups; /* groups: in glue's allocation */
	uint32_t nr_glue, nr_groups;
};

/* Parse the body of the struct whose "{" is at byte OPEN (srcstruct_parse.c). */
int suggest_src_parse_body(struct src_struct *s, size_t open, struct err_msg *err);
/* Line number of byte offset OFF. */
uint32_t suggest_src_line_of(const struct src_struct *s, size_t off);
/* The first non-blank text of LINE, up to 60 bytes, for messages. */
void suggest_src_line_text(const struct src_struct *s, uint32_t line, struct strbuf *sb);

#endif
