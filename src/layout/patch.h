/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Source patches for a proposal (c2cscope suggest --patch): find the
 * struct's declaration in its source file (DWARF's decl_file/decl_line),
 * parse the body into units that move as a whole, and write a unified diff
 * that reorders them as the proposal does.
 *
 * Units: one declaration with its leading comment lines and its trailing
 * comment (several declarators on one line, "int a, b;", stay one unit, as
 * do declarations that share a line); a nested struct or union; a
 * preprocessor conditional. Members of an #if/#ifdef block without #else
 * may be reordered inside it and the block may move as a whole; a
 * conditional with #elif/#else moves only as a whole. Lines of an inactive
 * conditional (no member the object has) travel with the unit before them.
 */
#ifndef C2C_LAYOUT_PATCH_H
#define C2C_LAYOUT_PATCH_H

#include "layout/propose.h"
#include "types/types.h"
#include "util/err.h"
#include "util/strbuf.h"

struct src_struct;

/*
 * Read T's declaration: the file is T->decl_file, found under SOURCE_DIR
 * (NULL: the current directory) as an absolute path inside it, a path
 * relative to it, or the longest tail of the path that exists under it.
 * Fails with -ENOENT (file missing), -EINVAL (no "struct NAME {" at the
 * declaration line, a member the body does not declare, a body it cannot
 * parse), the message naming file:line.
 */
int src_struct_load(const struct type *t, const char *source_dir, struct src_struct **out,
		    struct c2c_err *err);
void src_struct_free(struct src_struct *s);
/* The path the diff names (relative to SOURCE_DIR) and the file read. */
const char *src_struct_rel_path(const struct src_struct *s);

/*
 * The source's constraints for the proposer (propose_opts glue/groups);
 * the arrays live as long as S.
 */
void src_struct_constraints(const struct src_struct *s, struct propose_opts *opts);

/*
 * Append to OUT a unified diff ("--- a/PATH", "+++ b/PATH", paths relative
 * to the source directory, for patch -p1) that gives the struct P's member
 * order (and, for an isolate proposal, wraps each isolated unit in an
 * anonymous struct aligned to CACHELINE_SIZE bytes). Returns -EXDEV when
 * the order cannot be written without breaking a unit or taking a member
 * across a conditional, err naming the member and the conditional.
 */
int src_struct_patch(const struct src_struct *s, const struct proposal *p,
		     unsigned int cacheline_size, struct strbuf *out, struct c2c_err *err);

#endif
