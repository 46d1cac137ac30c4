/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The layout gate: check a parsed ruleset (src/layout/rules.h) against a
 * type model and describe every rule's outcome: which members, at which
 * offsets and cache lines, made it fail. Formatting the outcomes for people
 * and machines (text, JSON, JUnit, SARIF) lives in gate_report.h.
 */
#ifndef C2C_LAYOUT_GATE_H
#define C2C_LAYOUT_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout/rules.h"
#include "types/types.h"
#include "util/err.h"

#define GATE_GROUP_BEGIN "__cacheline_group_begin__"
#define GATE_GROUP_END "__cacheline_group_end__"

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
	       struct gate_result *res, struct c2c_err *err);
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

#endif
