/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HTML views (drawn with output/html.h): the c2c report page, and a
 * struct's layout with its access profile beside a proposed re-layout.
 * Every number comes from the engine's models (the c2c model and its
 * view tables, the struct profile and its findings, the proposer's
 * predictions); the renderer only places and colours them.
 */
#ifndef C2C_OUTPUT_HTML_REPORT_H
#define C2C_OUTPUT_HTML_REPORT_H

#include <stddef.h>

#include "c2c/c2c_session.h"
#include "profile/profile.h"
#include "suggest/suggest.h"
#include "types/types.h"
#include "util/err.h"
#include "util/strbuf.h"

#define HTML_REPORT_LINES 50 /* lines drawn by default */
#define HTML_REPORT_STRUCTS 4 /* hot structs drawn by default */

struct task_placement;

struct html_report_opts {
	size_t max_lines; /* hot lines in the heatmap, tables and matrix; 0: 50 */
	size_t max_structs; /* hot structs drawn with their proposal; 0: 4 */
	/* where the threads ran (record --sched), or NULL */
	const struct task_placement *placement;
};

/*
 * The report page: summary, heatmap of the hot lines, the hot structs
 * (layout and the proposal suggest would choose), each line's Pareto
 * table, the cpu x line matrix and, with a placement, the threads' cpus.
 */
void html_report_render(struct c2c_session *s, const struct html_report_opts *opts,
			struct strbuf *out);

/*
 * One struct: its layout as a strip of cache lines, members sized by
 * bytes and coloured by HITMs, hatched where the profile finds false or
 * true sharing; with chosen (may be NULL) the proposed layout beside it
 * with the predicted HITMs per line.
 */
void html_struct_section(struct strbuf *out, const struct type *t, const struct struct_profile *p,
			 const struct proposal *chosen, unsigned int cacheline_size);

/* Whole pages for layout --profile --html and suggest --html. */
void html_struct_page(struct strbuf *out, const struct type *t, const struct struct_profile *p,
		      const struct proposal *chosen, unsigned int cacheline_size);

/* html_struct_page written to path; 0 or -errno with err filled. */
int html_struct_page_write(const char *path, const struct type *t, const struct struct_profile *p,
			   const struct proposal *chosen, unsigned int cacheline_size,
			   struct c2c_err *err);

/* Write the page to path; 0 or -errno with err filled. */
int html_write_file(const char *path, const struct strbuf *page, struct c2c_err *err);

#endif
