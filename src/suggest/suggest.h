/* SPDX-License-Identifier: GPL-2.0 */
/*
 * c2cscope suggest's engine, this module's one public header: the re-layout
 * proposer and the source patches for its proposals.
 *
 * The proposer: given a struct and an access profile of its
 * fields, it proposes member orders that keep a field written by one set of
 * contexts off the cache lines of fields other contexts read or write.
 *
 * Goals, in order: no line holds a write-hot field together with a field a
 * different context touches; every constraint holds (natural and forced
 * alignment, packed, bitfield storage units and kernel cache-line groups
 * move as one block, a flexible array stays last, pinned fields keep their
 * offsets); then the fewest hot lines, the smallest size, the fewest moves.
 *
 * Two options whenever they differ: "reorder" (no size growth) and
 * "isolate" (each write-hot field alone on its line(s) through a
 * cache-line-aligned anonymous struct: robust to future edits, costs size).
 * A third, "align", when the measured profile shows HITMs between objects
 * (an array of per-thread structs: each object written by one cpu, yet its
 * lines move): the struct aligned to the cache line, so that no two
 * objects share a line.
 */
#ifndef C2C_SUGGEST_SUGGEST_H
#define C2C_SUGGEST_SUGGEST_H

#include <stdbool.h>
#include <stdint.h>

#include "profile/profile.h"
#include "types/types.h"
#include "util/err.h"
#include "util/strbuf.h"

enum proposal_kind {
	PROPOSAL_REORDER,
	PROPOSAL_ISOLATE,
	PROPOSAL_ALIGN, /* the struct aligned to the cache line (an array's element) */
};

struct proposal_move {
	const char *name; /* the member (or "bits a..b", "group G") moved */
	uint64_t old_offset, new_offset;
	uint32_t old_line, new_line;
};

/* HITMs predicted per cache line of a layout. */
struct proposal_line {
	uint32_t line;
	uint64_t hitm; /* HITMs that land on this line */
	uint32_t nr_conflicts; /* write-hot/other-context field pairs on it */
};

struct proposal {
	enum proposal_kind kind;
	const char *title; /* "reorder only", "isolate with alignment" */
	const struct type *type; /* the proposed struct, in the proposer's db */
	uint64_t old_size, new_size;
	uint32_t old_lines, new_lines;
	uint64_t conflicts_before, conflicts_after; /* weighted pair count */
	uint64_t hitm_before, hitm_after; /* predicted from the profile */
	uint32_t nr_moves;
	struct proposal_move *moves;
	uint32_t nr_lines_before, nr_lines_after;
	struct proposal_line *lines_before, *lines_after;
	/* Why an option could not help, or NULL. */
	const char *note;
	/* Member order: for each new position, the original member index. */
	uint32_t nr_order;
	uint32_t *order;
	/* The block (members that move together) of each original member. */
	uint32_t *blocks;
	/* New byte offset of each original member (indexed by member index). */
	uint64_t *offsets;
	/* Members wrapped in an aligned anonymous struct (isolate). */
	bool *isolated; /* indexed by original member index */
	/*
	 * The wrapper of each isolated member (indexed by original member
	 * index): members with the same writers and readers share one.
	 */
	uint32_t *wrappers;
	/* align: the alignment the struct gets (its cache-line size), else 0. */
	uint32_t align_to;
};

/* Members first..last (indices into the struct's members, inclusive). */
struct propose_range {
	uint32_t first, last;
};

struct propose_opts {
	unsigned int cacheline_size; /* 0: 64 */
	const char *const *pinned; /* NULL-terminated member names, or NULL */
	/*
	 * Source constraints (suggest --patch feeds them from the struct's
	 * declaration). glue: runs of members that move as one block in their
	 * order (one declaration with several declarators, a whole
	 * #if/#else). groups: runs of members that stay contiguous, may be
	 * reordered among themselves and move as a unit (the members of one
	 * #ifdef block); groups nest or are disjoint.
	 */
	const struct propose_range *glue;
	uint32_t nr_glue;
	const struct propose_range *groups;
	uint32_t nr_groups;
};

struct proposer;

/*
 * Propose re-layouts of T for profile P. Fails with -EINVAL when T cannot be
 * re-laid (a union, offsets that do not follow the alignment rules, a
 * pinned name that is not a member).
 */
int suggest_propose(const struct type *t, const struct struct_profile *p,
		    const struct propose_opts *opts, struct proposer **out, struct err_msg *err);
uint32_t proposer_nr(const struct proposer *pr);
const struct proposal *proposer_get(const struct proposer *pr, uint32_t i);
/*
 * The option "reorder", "isolate" or "align" names (NULL when there is no
 * such option), or without a name (NULL) the default: the smallest option
 * that separates everything (the first of equals: reorder, isolate,
 * align), else the one that leaves the fewest conflicts (isolate, unless
 * objects share lines).
 */
const struct proposal *proposer_choose(const struct proposer *pr, const char *choose);
/* The option's name for --choose: "reorder", "isolate" or "align". */
const char *propose_kind_name(enum proposal_kind kind);
/* Whether NAME is one of those. */
bool propose_kind_known(const char *name);
/*
 * HITMs on truly shared fields of P (written by several cpus): no layout
 * removes them; nonzero (at least one per field) for a hotness file's
 * field that many contexts write.
 */
uint64_t propose_true_sharing_hitm(const struct struct_profile *p);
/* HITMs between objects in the profile the proposer read (0: none seen). */
uint64_t proposer_between_hitm(const struct proposer *pr);
/* Conflicts (weighted) of the input layout. */
uint64_t proposer_conflicts(const struct proposer *pr);
unsigned int proposer_cacheline_size(const struct proposer *pr);
void proposer_free(struct proposer *pr);

/* --- Rendering (propose_print.c) ---------------------------------------- */

/* Every option: moves, size and line deltas, predicted effect, layout with heat. */
void propose_format_text(struct strbuf *sb, const struct type *t, const struct struct_profile *p,
			 const struct proposer *pr);
/* The same as a JSON document (doc/c2cscope-suggest.1); -ENOTSUP without jansson. */
int propose_format_json(struct strbuf *sb, const struct type *t, const struct struct_profile *p,
			const struct proposer *pr, struct err_msg *err);
/* c2cscope check rules (doc/c2cscope-rules.5) that hold for proposal chosen. */
void propose_format_rules(struct strbuf *sb, const struct type *t, const struct struct_profile *p,
			  const struct proposal *chosen, unsigned int cacheline_size);

/* --- Source patches (srcstruct.c, srcstruct_parse.c, patch.c) ---------- */

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
struct src_struct;

/*
 * Read T's declaration: the file is T->decl_file, found under SOURCE_DIR
 * (NULL: the current directory) as an absolute path inside it, a path
 * relative to it, or the longest tail of the path that exists under it.
 * Fails with -ENOENT (file missing), -EINVAL (no "struct NAME {" at the
 * declaration line, a member the body does not declare, a body it cannot
 * parse), the message naming file:line.
 */
int suggest_src_load(const struct type *t, const char *source_dir, struct src_struct **out,
		     struct err_msg *err);
void suggest_src_free(struct src_struct *s);
/* The path the diff names (relative to SOURCE_DIR) and the file read. */
const char *suggest_src_rel_path(const struct src_struct *s);

/*
 * The source's constraints for the proposer (propose_opts glue/groups);
 * the arrays live as long as S.
 */
void suggest_src_constraints(const struct src_struct *s, struct propose_opts *opts);

/*
 * Append to OUT a unified diff ("--- a/PATH", "+++ b/PATH", paths relative
 * to the source directory, for patch -p1) that gives the struct P's member
 * order (and, for an isolate proposal, wraps each isolated unit in an
 * anonymous struct aligned to CACHELINE_SIZE bytes). Returns -EXDEV when
 * the order cannot be written without breaking a unit or taking a member
 * across a conditional, err naming the member and the conditional.
 */
int suggest_src_patch(const struct src_struct *s, const struct proposal *p,
		      unsigned int cacheline_size, struct strbuf *out, struct err_msg *err);

/* --- suggest --patch's policy (patch_plan.c) --------------------------- */

struct suggest_patch_req {
	const struct type *t;
	const struct struct_profile *prof;
	const struct proposer *pr; /* proposals made without source constraints */
	const struct propose_opts *opts; /* the options pr was made with */
	const char *source_dir; /* NULL: the current directory */
	unsigned int cacheline_size;
	/* the option to patch ("reorder", "isolate", "align"); NULL: the default */
	const char *choose;
};

enum suggest_patch_status {
	SUGGEST_PATCH_NOTHING, /* the option moves nothing: no diff */
	SUGGEST_PATCH_DIFF, /* diff holds the patch of chosen */
	SUGGEST_PATCH_REFUSED, /* no order the source keeps intact is as good */
};

struct suggest_patch {
	enum suggest_patch_status status;
	/* The option patched (DIFF), unchanged (NOTHING) or refused (REFUSED). */
	const struct proposal *chosen;
	/*
	 * Set when the best order could not be written (why says where) and
	 * chosen was proposed again under the source's constraints: the
	 * option it replaces. REFUSED: best_constrained is that proposal.
	 */
	const struct proposal *unconstrained, *best_constrained;
	char why[1024];
	struct strbuf diff;
	/* owned */
	struct src_struct *src;
	struct proposer *constrained_pr;
};

/*
 * Make the patch: 0 with sp filled (release it), or -errno with err for
 * bad input (no source file, a body it cannot parse). chosen lives as
 * long as sp or req->pr.
 */
int suggest_patch_make(const struct suggest_patch_req *req, struct suggest_patch *sp,
		       struct err_msg *err);
void suggest_patch_release(struct suggest_patch *sp);
/* "  move NAME: offset A -> B (line L -> M)" per move. */
void suggest_format_moves(struct strbuf *sb, const struct proposal *p);
/* What the patch does, ending "---\n": patch(1) skips what comes before. */
void suggest_patch_format_header(struct strbuf *sb, const struct type *t, const struct proposal *p);
/*
 * suggest --patch's words for sp: in out what goes to stdout (the header
 * and the diff, or a refused option's moves); in before and after the
 * messages for stderr around it, one a line, without the "c2cscope
 * suggest: " the command puts before each. name: the struct as asked for.
 */
void suggest_patch_format(const struct suggest_patch *sp, const struct type *t, const char *name,
			  struct strbuf *before, struct strbuf *out, struct strbuf *after);

/*
 * The HTML views of one struct (suggest_html.c, drawn with fmt/html.h): its
 * layout as a strip of cache lines, members sized by bytes and coloured by
 * HITMs, hatched where the profile finds false or true sharing; with chosen
 * (may be NULL) the proposed layout beside it with the predicted HITMs per
 * line. Every number comes from the profile and the proposer.
 */
void suggest_html_section(struct strbuf *out, const struct type *t, const struct struct_profile *p,
			  const struct proposal *chosen, unsigned int cacheline_size);
/* Whole pages for layout --profile --html and suggest --html. */
void suggest_html_page(struct strbuf *out, const struct type *t, const struct struct_profile *p,
		       const struct proposal *chosen, unsigned int cacheline_size);
/* suggest_html_page written to path; 0 or -errno with err filled. */
int suggest_html_page_write(const char *path, const struct type *t, const struct struct_profile *p,
			    const struct proposal *chosen, unsigned int cacheline_size,
			    struct err_msg *err);

struct c2c_session;
struct c2c_line;
/*
 * The report page's "Hot structs" section (a c2c_html_structs_fn): each
 * struct the hot lines' rows land in, with the option suggest would choose.
 */
void suggest_html_hot_structs(struct strbuf *out, struct c2c_session *s,
			      const struct c2c_line *const *lines, size_t nr, size_t max);

#endif
