/* SPDX-License-Identifier: GPL-2.0 */
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
 * Parsing only: src/layout/gate.h checks a parsed ruleset against a type
 * model. A ruleset owns every string it hands out.
 */
#ifndef C2C_LAYOUT_RULES_H
#define C2C_LAYOUT_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "util/strbuf.h"

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
int ruleset_parse_file(struct ruleset *rs, const char *path, struct c2c_err *err);
/* Same, from memory; NAME is used in positions and for includes. */
int ruleset_parse_string(struct ruleset *rs, const char *name, const char *text,
			 struct c2c_err *err);

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

#endif
