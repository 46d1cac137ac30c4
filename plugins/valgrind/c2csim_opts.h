/* SPDX-License-Identifier: GPL-2.0 */
/* c2csim_opts.c: the options and the configuration they make. */
#ifndef C2CSIM_OPTS_H
#define C2CSIM_OPTS_H

#include "pub_tool_basics.h"
#include "c2csim_proto.h"

struct c2csim_config {
	UInt nr_cpus, nr_nodes, line_size, line_shift;
	UInt sample_rate;
	UInt hitm_rate; /* thinning now: 1 in N of the samples (grows past the budget) */
	ULong max_samples; /* the budget: samples written before the rate doubles; 0: none */
	ULong seed;
	ULong lead;
	ULong cache_lines; /* per-cpu capacity; 0 = unbounded */
	Bool sim_stack;
	Bool fast; /* sim_fast: lines only one thread touched skip the merge */
	UInt cost[C2CSIM_NR_COSTS];
	const HChar *out_path;
};

extern struct c2csim_config c2csim_cfg;

/* Valgrind's needs_command_line_options callbacks. */
Bool c2csim_opts_parse(const HChar *arg);
void c2csim_opts_usage(void);
void c2csim_opts_debug_usage(void);
/* After the options (post_clo_init): what follows from them. */
void c2csim_opts_done(void);

#endif
