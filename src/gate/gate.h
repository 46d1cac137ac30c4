/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The layout gate (c2cscope check and diff): the rules language, checking a
 * ruleset against a type model, the reports for people and machines, JSON
 * baselines read back into a type model, and layout diffs. This is the
 * module's one public header; gate_int.h holds what its files share.
 */
#ifndef C2C_GATE_GATE_H
#define C2C_GATE_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "types/types.h"
#include "util/err.h"
#include "util/strbuf.h"

/* --- Rules (rules.c) --------------------------------------------------- */

/*
 * The layout rules language (doc/c2cscope-rules.5): one block per struct,
 *
 *	# comment (also // comment)
 *	include "common.rules"
 *	struct task_group {
 *		apart load_avg: rt_se, rt_rq
 *		size <= 704
 *	}
 *
 * Parsing only: the next section checks a parsed ruleset against a type
 * model. A ruleset owns every string it hands out.
 */
enum rule_kind {
	RULE_SIZE_LE, /* size <= N */
	RULE_SIZE_EQ, /* size == N */
	RULE_CACHELINES_LE, /* cachelines <= N */
	RULE_ISOLATED, /* isolated F */
	RULE_APART, /* apart F: A, B, ... */
	RULE_TOGETHER, /* together A, B, ... */
	RULE_OFFSET_EQ, /* offset F == N */
	RULE_ALIGNED, /* aligned F N */
	RULE_HOLES_LE, /* holes <= N */
	RULE_PADDING_LE, /* padding <= N */
	RULE_GROUP, /* group G: A, B, ... */
	RULE_GROUP_FITS, /* group G fits N lines */
	RULE_GROUP_SIZE_LE, /* group G size <= N (CACHELINE_ASSERT_GROUP_SIZE) */
	RULE_GROUP_MARKERS, /* derived by --kernel-groups: the markers of G hold */
};

struct rule {
	enum rule_kind kind;
	const char *file; /* where it was written */
	unsigned int line, col;
	/* F for member rules, G for group rules; NULL otherwise */
	const char *subject;
	/* A, B, ... (member paths, "a.b" for nested members) */
	const char **names;
	size_t nr_names;
	uint64_t value; /* N */
};

struct rule_block {
	const char *struct_name;
	const char *file;
	unsigned int line;
	struct rule *rules;
	size_t nr_rules;
};

struct ruleset;

struct ruleset *ruleset_new(void);
void ruleset_free(struct ruleset *rs);

/*
 * Parse a rules file (includes are resolved relative to the including
 * file; an include cycle is an error). Blocks are appended to rs. On a
 * syntax error returns -EINVAL with err->msg "FILE:LINE:COL: expected ...".
 */
int ruleset_parse_file(struct ruleset *rs, const char *path, struct err_msg *err);
/* Same, from memory; NAME is used in positions and for includes. */
int ruleset_parse_string(struct ruleset *rs, const char *name, const char *text,
			 struct err_msg *err);

size_t ruleset_nr_blocks(const struct ruleset *rs);
const struct rule_block *ruleset_block(const struct ruleset *rs, size_t i);
/* Total number of rules over all blocks. */
size_t ruleset_nr_rules(const struct ruleset *rs);

/*
 * Add a rule built by code (--kernel-groups) to the block for struct_name
 * (created when missing; file "<kernel-groups>"). names are copied.
 */
struct rule *ruleset_add_rule(struct ruleset *rs, const char *struct_name, enum rule_kind kind,
			      const char *subject, const char *const *names, size_t nr_names,
			      uint64_t value);

/* The rule as it would be written: "apart load_avg: rt_se, rt_rq". */
void rule_format(struct strbuf *sb, const struct rule *r);
/* A short stable id of the rule's kind: "apart", "size", "group-fits"... */
const char *rule_kind_name(enum rule_kind kind);

/* --- Check (gate.c, gate_members.c) ------------------------------------ */

/*
 * The check: test a parsed ruleset (above) against a
 * type model and describe every rule's outcome: which members, at which
 * offsets and cache lines, made it fail. Formatting the outcomes for people
 * and machines (text, JSON, JUnit, SARIF) follows.
 */
struct gate_opts {
	unsigned int cacheline_size; /* 0: 64 */
};

/* A member a rule talks about, at its absolute place in the struct. */
struct gate_member {
	char *name; /* "rt_se", "a.b" (owned) */
	uint64_t offset; /* bytes from the struct's start */
	uint64_t size; /* bytes it covers (bitfields: the bytes holding its bits) */
	uint64_t first_line, last_line;
};

enum gate_status {
	GATE_PASS,
	GATE_FAIL, /* the rule does not hold */
	GATE_ERROR, /* the rule cannot be checked: no such struct, member, group */
};

struct gate_outcome {
	const struct rule *rule;
	const struct rule_block *block;
	const struct type *type; /* NULL when the struct was not found */
	enum gate_status status;
	char *message; /* FAIL, ERROR: what is wrong, one sentence; PASS: NULL */
	struct gate_member *members; /* the members involved */
	size_t nr_members;
	/* FAIL: the cache lines worth showing (an excerpt of the layout) */
	uint64_t first_line, last_line;
	bool has_lines;
};

struct gate_result {
	struct gate_outcome *outcomes;
	size_t nr, alloc;
	size_t nr_pass, nr_fail, nr_error;
	unsigned int cacheline_size;
};

/*
 * Check every rule of rs against db. A struct with several differing
 * definitions is checked in each. Fills res (release with
 * gate_result_release); returns 0, or -EINVAL for a bad cache-line size.
 */
int gate_check(const struct ruleset *rs, const struct type_db *db, const struct gate_opts *opts,
	       struct gate_result *res, struct err_msg *err);
void gate_result_release(struct gate_result *res);
/*
 * Check the rules of block b on one type t, appending outcomes to res
 * (whose cacheline_size must be set; zero it otherwise).
 */
void gate_check_block(struct gate_result *res, const struct rule_block *b, const struct type *t);

/*
 * --kernel-groups: add a RULE_GROUP_MARKERS rule to rs for every
 * __cacheline_group_begin__/end__ group name found in the structs of db
 * (only those matching the fnmatch globs in only, when not NULL).
 * Returns the number of rules added.
 */
size_t gate_add_kernel_groups(struct ruleset *rs, const struct type_db *db,
			      const char *const *only);

/* The struct names a ruleset refers to, NULL-terminated (for type_load_opts.only). */
const char **gate_rule_structs(const struct ruleset *rs);

/* --- Reports (gate_report.c) ------------------------------------------- */

/*
 * Gate outcomes for people and machines: text (with a layout excerpt per
 * violation), JSON, JUnit XML, SARIF 2.1.0 and GitHub Actions annotations.
 * Everything is appended to a strbuf; the command layer prints it.
 */
/* Appends the layout excerpt for an outcome (cache lines o->first_line..last_line). */
typedef void (*gate_excerpt_fn)(struct strbuf *sb, const struct gate_outcome *o,
				unsigned int cacheline_size, void *arg);

struct gate_report_opts {
	const char *target; /* what was checked: a path or "kernel BTF" */
	gate_excerpt_fn excerpt; /* NULL: no excerpts */
	void *excerpt_arg;
	bool show_passed; /* text: list the rules that hold too */
};

/* "t.rules:3: struct task_group: apart load_avg: rt_se, rt_rq" */
void gate_outcome_title(struct strbuf *sb, const struct gate_outcome *o);
/* "kind kernel/sched/sched.h:367" or the rule's file:line when unknown. */
void gate_outcome_location(const struct gate_outcome *o, const char **file, unsigned int *line);

void gate_report_text(struct strbuf *sb, const struct gate_result *res,
		      const struct gate_report_opts *opts);
/* JSON and SARIF return -ENOTSUP when built without jansson. */
int gate_report_json(struct strbuf *sb, const struct gate_result *res,
		     const struct gate_report_opts *opts);
void gate_report_junit(struct strbuf *sb, const struct gate_result *res,
		       const struct gate_report_opts *opts);
int gate_report_sarif(struct strbuf *sb, const struct gate_result *res,
		      const struct gate_report_opts *opts);
/* "::error file=F,line=L,title=...::MESSAGE" lines (GITHUB_ACTIONS=true). */
void gate_report_github(struct strbuf *sb, const struct gate_result *res);

/* --- Baselines (baseline.c) -------------------------------------------- */

/*
 * Layout baselines: a saved `c2cscope layout --format json` (v1, see
 * doc/layout-json.md) read back into a type model through the types
 * builder API, so that check and diff treat it like DWARF or BTF.
 *
 * What a baseline cannot give back: nested types are not expanded (member
 * types are placeholders with the right size and spelling, or the saved
 * struct of that name when the baseline has it), so "a.b" paths reach only
 * into structs the baseline also lists.
 */
/* Whether PATH holds JSON (its first non-blank byte is '{'). */
bool baseline_is_json(const char *path);

/* Load a JSON baseline; errors name the file and the JSON path of the fault. */
int baseline_load(const char *path, struct type_db **out, struct err_msg *err);

/*
 * Load any target: a JSON baseline, or an ELF/BTF file through
 * type_db_load(), or the running kernel's BTF when path is NULL.
 */
int baseline_load_any(const char *path, const struct type_load_opts *opts, struct type_db **out,
		      struct err_msg *err);

/* --- Layout diff (layout_diff.c) --------------------------------------- */

/*
 * Layout diff: what changed in each struct between two type models (two
 * builds, or a build and a saved JSON baseline) in cache-line terms: size
 * and line deltas, members added, removed, moved and resized, holes and
 * padding, pairs of members that now share a cache line they did not share
 * before, and kernel cache-line groups that broke.
 *
 * Members are compared at the top level by name; anonymous members by
 * their order among anonymous members ("<anonymous #2>").
 */
enum diff_change {
	DIFF_ADDED,
	DIFF_REMOVED,
	DIFF_MOVED, /* offset changed (perhaps size too) */
	DIFF_RESIZED, /* same offset, other size */
};

struct diff_member {
	enum diff_change change;
	char *name;
	uint64_t old_offset, new_offset; /* bytes; 0 for the side it is missing from */
	uint64_t old_size, new_size;
	uint64_t old_line, new_line;
};

/* Two members that share a cache line in NEW and did not in OLD. */
struct diff_shared {
	char *a, *b;
	uint64_t line; /* the line they share now (the first, if several) */
	uint64_t old_line_a, old_line_b;
};

struct diff_group {
	char *name;
	char *message; /* why it is broken now, or "removed" */
};

enum diff_struct_status {
	DIFF_STRUCT_CHANGED,
	DIFF_STRUCT_ONLY_OLD,
	DIFF_STRUCT_ONLY_NEW,
};

/* Size, lines, holes and tail padding as pahole counts them. */
struct gate_stats {
	uint64_t size, cachelines, holes, sum_holes, padding;
};

struct diff_struct {
	const char *name;
	enum diff_struct_status status;
	const struct type *old, *new;
	struct gate_stats old_stats, new_stats; /* zero for a side without the struct */
	struct diff_member *members;
	size_t nr_members;
	struct diff_shared *shared;
	size_t nr_shared;
	struct diff_group *groups;
	size_t nr_groups;
};

struct layout_diff {
	struct diff_struct *structs; /* changed ones only, by name */
	size_t nr, alloc;
	unsigned int cacheline_size;
};

struct layout_diff_opts {
	unsigned int cacheline_size; /* 0: 64 */
	/* NULL-terminated fnmatch globs; NULL: every struct in either model */
	const char *const *only;
};

int gate_diff_compute(const struct type_db *old, const struct type_db *new,
		      const struct layout_diff_opts *opts, struct layout_diff *out,
		      struct err_msg *err);
void gate_diff_release(struct layout_diff *d);

/* The --fail-on policies. */
enum {
	DIFF_FAIL_SIZE_GROWTH = 1 << 0,
	DIFF_FAIL_NEW_SHARED_LINE = 1 << 1,
	DIFF_FAIL_HOLE_GROWTH = 1 << 2,
	DIFF_FAIL_MOVED = 1 << 3,
};

/* Which policies of mask this struct's changes trip. */
unsigned int diff_struct_trips(const struct diff_struct *s, unsigned int mask);
/* Whether any struct of d trips a policy of mask. */
bool diff_any_trips(const struct layout_diff *d, unsigned int mask);
/*
 * --fail-on LIST: "size-growth,moved" (comma-separated) or "all", ORed
 * into *mask; -EINVAL naming the word that is no policy.
 */
int diff_parse_fail_on(const char *list, unsigned int *mask, struct err_msg *err);

/* --- Layout diff reports (diff_report.c) ------------------------------- */

struct diff_report_opts {
	const char *old, *new; /* what was compared, as the user named it */
	unsigned int fail_on; /* the policies that count */
	const struct gate_result *rules; /* rules checked on NEW, or NULL */
};

/*
 * Each changed struct (members added, removed, moved, resized; holes;
 * newly shared lines; broken groups), the rules' outcomes, then one
 * "fail-on POLICY: structs" line per policy that tripped.
 */
void diff_report_text(struct strbuf *sb, const struct layout_diff *d,
		      const struct diff_report_opts *o);
/* The same as JSON (doc/c2cscope-diff.1); -ENOTSUP without jansson. */
int diff_report_json(struct strbuf *sb, const struct layout_diff *d,
		     const struct diff_report_opts *o);

#endif
