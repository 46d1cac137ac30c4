/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Gate outcomes for people and machines: text (with a layout excerpt per
 * violation), JSON, JUnit XML, SARIF 2.1.0 and GitHub Actions annotations.
 * Everything is appended to a strbuf; the command layer prints it.
 */
#ifndef C2C_LAYOUT_GATE_REPORT_H
#define C2C_LAYOUT_GATE_REPORT_H

#include "layout/gate.h"
#include "util/strbuf.h"

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

/* XML text escaping (&, <, >, ", ') for the JUnit writer and friends. */
void strbuf_add_xml(struct strbuf *sb, const char *s);

#endif
