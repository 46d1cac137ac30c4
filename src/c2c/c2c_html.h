/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The c2c report page (drawn with fmt/html.h): summary, heatmap of the hot
 * lines, each line's Pareto table, the cpu x line matrix and, with a
 * placement, the threads' cpus. Every number comes from the c2c model and
 * its view tables; the renderer only places and colours them. The "Hot
 * structs" section needs the proposer, which sits above this module: the
 * caller hands it in as a callback (suggest_html_hot_structs).
 */
#ifndef C2C_C2C_HTML_H
#define C2C_C2C_HTML_H

#include <stddef.h>

#include "c2c/c2c_session.h"
#include "util/strbuf.h"

#define C2C_HTML_LINES 50 /* lines drawn by default */
#define C2C_HTML_STRUCTS 4 /* hot structs drawn by default */

struct task_placement;

/* Draws the "Hot structs" section for the hot lines (the hottest first). */
typedef void c2c_html_structs_fn(struct strbuf *out, struct c2c_session *s,
				 const struct c2c_line *const *lines, size_t nr, size_t max);

struct c2c_html_opts {
	size_t max_lines; /* hot lines in the heatmap, tables and matrix; 0: 50 */
	size_t max_structs; /* hot structs drawn with their proposal; 0: 4 */
	/* where the threads ran (record --sched), or NULL */
	const struct task_placement *placement;
	/* the hot structs' section, or NULL for none */
	c2c_html_structs_fn *structs;
};

void c2c_html_render(struct c2c_session *s, const struct c2c_html_opts *opts, struct strbuf *out);

#endif
