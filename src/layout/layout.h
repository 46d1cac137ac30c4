/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layout analysis of one struct or union from the type model: where each
 * member sits, the byte and bit holes after it, trailing padding, cache
 * lines, forced alignments and kernel cache-line groups. The numbers follow
 * pahole 1.24's definitions, so that the printer (print.c) can reproduce
 * pahole's text and the CI gate can compare layouts in the same terms.
 *
 * This is the module's one public header: the analysis, the printer, the
 * v1 JSON writer and the profiled views (layout --profile).
 *
 * A struct layout is computed once (layout_analyze) and is then read-only.
 * It points into the type model, so it must be freed before its type_db.
 */
#ifndef C2C_LAYOUT_LAYOUT_H
#define C2C_LAYOUT_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "profile/profile.h"
#include "types/types.h"
#include "util/err.h"
#include "util/strbuf.h"

struct layout_member {
	const struct type_member *member; /* the model's member */
	const char *name; /* NULL when anonymous */
	/*
	 * Byte offset as pahole prints it: for a bitfield, the start of its
	 * storage unit (bit_offset rounded down to the unit's size).
	 */
	uint64_t offset;
	/* Bytes: the type's size; a bitfield's storage unit size. */
	uint64_t size;
	uint64_t bit_offset; /* absolute, from the struct's start */
	uint32_t bit_size; /* bitfields only; 0 otherwise */
	uint32_t bitfield_offset; /* bit within the storage unit */
	uint32_t alignment; /* natural alignment of the member's type */
	uint32_t forced_alignment; /* __attribute__((aligned)), 0 if none */
	uint64_t hole; /* bytes of hole after this member */
	uint32_t bit_hole; /* bits of hole after this member */
	/*
	 * Bytes of tail padding in the member's struct type, when the member's
	 * type is directly a struct (pahole's "last struct has N bytes of
	 * padding"); 0 otherwise.
	 */
	uint64_t struct_padding;
	uint32_t cacheline; /* offset / cacheline_size */
	/* Cache line of the member's last byte (== cacheline if it fits). */
	uint32_t last_cacheline;
	bool forced_hole; /* forced alignment that opened a hole before it */
};

struct layout_summary {
	uint64_t size;
	uint32_t alignment; /* effective alignment of the type */
	uint32_t nr_members;
	uint32_t nr_cachelines;
	uint32_t last_cacheline; /* bytes used in the last line; 0 if full */
	uint64_t sum_bytes; /* non-bitfield member bytes */
	uint64_t sum_bits; /* bitfield member bits */
	uint32_t nr_holes;
	uint64_t sum_holes;
	uint32_t nr_bit_holes;
	uint64_t sum_bit_holes;
	uint64_t pre_hole; /* bytes before the first member */
	uint32_t pre_bit_hole;
	uint64_t padding; /* tail padding, bytes */
	uint32_t bit_padding; /* unused bits of the last bitfield unit */
	uint32_t nr_paddings; /* members whose struct type has padding */
	uint64_t sum_paddings;
	uint32_t nr_forced_alignments;
	uint32_t nr_forced_holes;
	uint64_t sum_forced_holes;
	bool packed; /* pahole's inference: prints __attribute__((__packed__)) */
};

/*
 * A kernel cache-line group: the members between the zero-size markers
 * __cacheline_group_begin__NAME and __cacheline_group_end__NAME, when the
 * markers make one (type_group_ok: one begin, then one end).
 */
struct layout_group {
	const char *name;
	uint32_t first_member; /* index of the begin marker */
	uint32_t end_member; /* index of the end marker */
	uint64_t start; /* offsetofend(begin marker) */
	uint64_t end; /* offset of the end marker */
	/* Bytes the members inside cover (type_group_bytes_used). */
	uint64_t bytes_used;
	uint32_t first_line, last_line; /* cache lines spanned by [start, end) */
	uint32_t nr_lines; /* 0 for an empty group */
};

struct layout;

/*
 * Analyse T (a struct or union, typedefs and qualifiers are stripped) for
 * cache lines of cacheline_size bytes (0: 64). Returns 0 or -EINVAL when T
 * is not an aggregate; -ENOMEM is not returned (allocation aborts).
 */
int layout_analyze(const struct type *t, unsigned int cacheline_size, struct layout **out,
		   struct err_msg *err);
void layout_free(struct layout *l);

const struct type *layout_type(const struct layout *l);
unsigned int layout_cacheline_size(const struct layout *l);
const struct layout_summary *layout_summary(const struct layout *l);
uint32_t layout_nr_members(const struct layout *l);
const struct layout_member *layout_member(const struct layout *l, uint32_t i);
/* Index of the top-level member named NAME, or -1. */
int layout_find_member(const struct layout *l, const char *name);
/* Cache-line groups in member order; *nr gets their number. */
const struct layout_group *layout_groups(const struct layout *l, uint32_t *nr);

/* --- Printing ---------------------------------------------------------- */

/*
 * Called once per printed member line, after pahole's "offset size"
 * comment, to append extra columns (a heat overlay). abs_offset is the
 * member's offset from the start of the outermost struct (nested members
 * included); depth is 0 for top-level members.
 */
typedef void (*layout_annotate_fn)(struct strbuf *sb, const struct type_member *m,
				   uint64_t abs_offset, uint64_t size, unsigned int depth,
				   void *arg);

struct layout_print_opts {
	unsigned int cacheline_size; /* 0: 64 */
	bool hex; /* offsets and sizes in hex (pahole --hex) */
	bool expand; /* expand named struct/union members inline (pahole -E) */
	bool groups; /* show kernel cache-line groups as named bands */
	/*
	 * The model came from BTF: like pahole, which has no alignment
	 * information there, print no "Force padding" block.
	 */
	bool btf;
	/*
	 * Excerpt: when range_end > range_start, print only the top-level
	 * members that overlap the byte range [range_start, range_end) and
	 * mark each run left out with one "..." comment line; the summary block
	 * is kept. Use layout_lines_range() to select whole cache lines.
	 */
	uint64_t range_start, range_end;
	layout_annotate_fn annotate; /* may be NULL */
	void *annotate_arg;
};

/* The byte range of cache lines first..last for an excerpt. */
void layout_lines_range(struct layout_print_opts *o, unsigned int cacheline_size, uint32_t first,
			uint32_t last);

/*
 * Append pahole 1.24's text for T (struct or union) to sb, ending with
 * "};\n". opts may be NULL (defaults).
 */
void layout_print(struct strbuf *sb, const struct type *t, const struct layout_print_opts *opts);

/* pahole --sizes line: "NAME\tSIZE\tHOLES\n". */
void layout_print_sizes(struct strbuf *sb, const struct type *t);

/* --- JSON (doc/layout-json.md) ----------------------------------------- */

struct layout_json_doc {
	const char *source; /* "DWARF", "BTF" or "JSON" */
	const char *file;
	unsigned int cacheline_size;
	const struct type *const *structs;
	size_t nr_structs;
};

/*
 * Append the v1 JSON document to sb (pretty-printed, ends with "\n").
 * Returns 0, or -ENOTSUP when built without jansson.
 */
int layout_json_print(struct strbuf *sb, const struct layout_json_doc *doc, struct err_msg *err);

/*
 * One struct of the v1 JSON schema (doc/layout-json.md) as a jansson
 * object, NULL when t cannot be laid out (json.c; only with jansson). For
 * the JSON writers of other modules (suggest) that embed v1 layouts.
 */
struct json_t;
struct json_t *layout_json_struct(const struct type *t, unsigned int cacheline_size);
/*
 * Append root pretty-printed (and a newline) to sb and release it; -ENOMEM
 * when root is NULL (a json_pack that failed) or cannot be written.
 */
int layout_json_emit(struct strbuf *sb, struct json_t *root, struct err_msg *err);

/* --- Profiled layouts (profile_print.c, profile_json.c) ---------------- */

/*
 * layout --profile: pahole's layout of a struct with each top-level
 * member's access profile beside it (" hitm L/R ld N st N r:funcs w:funcs"),
 * "<- false sharing" on members of a line where a field some contexts write
 * sits with a field other contexts touch, "<- true
 * sharing" on a field several contexts write, and one verdict line per
 * finding after the layout.
 */

/* A written field and a field on its line that other contexts touch. */
struct profile_pair {
	uint64_t line; /* cache line of the written field's first byte */
	uint32_t written, other; /* indices into the profile's fields */
};

/* What the profile says about the layout, per profile field index. */
struct profile_findings {
	bool *false_sharing; /* shares a line falsely (either side of a pair) */
	bool *true_sharing; /* written by several contexts (of one object) */
	bool *between_objects; /* one writer per object, yet HITMs */
	struct profile_pair *pairs; /* by written member, then neighbour order */
	size_t nr_pairs;
	uint32_t nr_true, nr_between;
	uint64_t between_hitm; /* HITMs on the between_objects fields */
};

/* Fill out for struct t (typedefs stripped) with profile p. */
void layout_profile_find(struct profile_findings *out, const struct type *t,
			 const struct struct_profile *p, unsigned int cacheline_size);
void layout_profile_findings_free(struct profile_findings *f);
/*
 * The verdict lines layout --profile prints after the layout: "false
 * sharing: line L: a (written by cpus ..) with b (cpus ..)", "true
 * sharing: ...", one per line.
 */
void layout_profile_verdicts(struct strbuf *out, const struct struct_profile *p,
			     const struct profile_findings *fs);

/* opts may be NULL; its annotate hook is replaced. */
void layout_profile_print(struct strbuf *sb, const struct type *t, const struct struct_profile *p,
			  const struct layout_print_opts *opts);

/*
 * The same as JSON (doc/layout-json.md, "Profiled layouts"): the v1
 * layout of t plus each member's profile and the findings. -ENOTSUP
 * without jansson.
 */
int layout_profile_json(struct strbuf *sb, const struct type *t, const struct struct_profile *p,
			const char *file, unsigned int cacheline_size, struct err_msg *err);

#endif
