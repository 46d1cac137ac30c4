/* SPDX-License-Identifier: GPL-2.0 */
/*
 * layout --profile: pahole's layout of a struct with each top-level
 * member's access profile beside it (" hitm L/R ld N st N r:funcs w:funcs"),
 * "<- false sharing" on members of a line where a field some contexts write
 * sits with a field other contexts touch, "<- true
 * sharing" on a field several contexts write, and one verdict line per
 * finding after the layout.
 */
#ifndef C2C_LAYOUT_PROFILE_PRINT_H
#define C2C_LAYOUT_PROFILE_PRINT_H

#include "layout/layout.h"
#include "layout/profile.h"

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
void profile_find(struct profile_findings *out, const struct type *t,
		  const struct struct_profile *p, unsigned int cacheline_size);
void profile_findings_free(struct profile_findings *f);
/*
 * The verdict lines layout --profile prints after the layout: "false
 * sharing: line L: a (written by cpus ..) with b (cpus ..)", "true
 * sharing: ...", one per line.
 */
void profile_format_verdicts(struct strbuf *out, const struct struct_profile *p,
			     const struct profile_findings *fs);

/* opts may be NULL; its annotate hook is replaced. */
void profile_print_layout(struct strbuf *sb, const struct type *t, const struct struct_profile *p,
			  const struct layout_print_opts *opts);

/*
 * The same as JSON (doc/layout-json.md, "Profiled layouts"): the v1
 * layout of t plus each member's profile and the findings. -ENOTSUP
 * without jansson.
 */
int profile_json_print(struct strbuf *sb, const struct type *t, const struct struct_profile *p,
		       const char *file, unsigned int cacheline_size, struct c2c_err *err);

#endif
