/* SPDX-License-Identifier: GPL-2.0 */
/* What the report page's parts share inside src/c2c (c2c_html.c, c2c_heatmap.c). */
#ifndef C2C_C2C_HTML_INT_H
#define C2C_C2C_HTML_INT_H

#include <stddef.h>
#include <stdint.h>

#include "c2c/c2c_session.h"
#include "c2c/c2c_view.h"
#include "util/strbuf.h"

/* The heatmap's metrics: the counters of the Pareto rows it colours by. */
enum html_metric {
	HTML_METRIC_TOT,
	HTML_METRIC_RMT,
	HTML_METRIC_LCL,
	HTML_METRIC_ST,
	HTML_NR_METRICS,
};

uint64_t c2c_html_metric(const struct c2c_stats *st, enum html_metric m);

struct html_heat_ctx {
	double cw; /* width of one byte */
	uint64_t max[HTML_NR_METRICS];
	struct c2c_line_offsets offsets; /* the line being drawn, c2c_view_line_offsets */
};

/* The heatmap of lines (the hottest first), one picture per metric. */
void c2c_html_heatmap(struct strbuf *sb, struct c2c_session *s, const struct c2c_line *const *lines,
		      size_t nr);

#endif
