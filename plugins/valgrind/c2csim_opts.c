// SPDX-License-Identifier: GPL-2.0
/*
 * The tool's options (--sim-*): their table, their parsing and --help
 * text, and the configuration every other file reads (c2csim_cfg). The
 * bottom floor of the tool: it uses no other file of it.
 */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"
#include "pub_tool_replacemalloc.h"

#include "c2csim_opts.h"

struct c2csim_config c2csim_cfg = {
	.nr_cpus = C2CSIM_DEFAULT_CPUS,
	.nr_nodes = C2CSIM_DEFAULT_NODES,
	.line_size = C2CSIM_DEFAULT_LINE_SIZE,
	.sample_rate = C2CSIM_DEFAULT_SAMPLE_RATE,
	.hitm_rate = 1,
	.seed = C2CSIM_DEFAULT_SEED,
	.lead = C2CSIM_DEFAULT_LEAD,
	.fast = True,
	.cost = { 4, 40, 75, 150, 220, 200, 330 },
};

static Bool parse_costs(const HChar *arg)
{
	UInt i;
	const HChar *p = arg;
	HChar *end;

	for (i = 0; i < C2CSIM_NR_COSTS; i++) {
		Long v = VG_(strtoll10)(p, &end);

		if (end == p || v < 0 || v > 100000)
			return False;
		c2csim_cfg.cost[i] = (UInt)v;
		if (i + 1 < C2CSIM_NR_COSTS) {
			if (*end != ',')
				return False;
			p = end + 1;
		} else if (*end) {
			return False;
		}
	}
	return True;
}

Bool c2csim_opts_parse(const HChar *arg)
{
	const HChar *s;
	Long v;

	if VG_STR_CLO (arg, "--sim-out", c2csim_cfg.out_path) {
	} else if VG_BINT_CLO (arg, "--sim-cpus", v, 1, C2CSIM_MAX_CPUS) {
		c2csim_cfg.nr_cpus = (UInt)v;
	} else if VG_BINT_CLO (arg, "--sim-nodes", v, 1, C2CSIM_MAX_NODES) {
		c2csim_cfg.nr_nodes = (UInt)v;
	} else if VG_BINT_CLO (arg, "--sim-line-size", v, 64, 128) {
		if (v != 64 && v != 128)
			VG_(fmsg_bad_option)(arg, "the line size is 64 or 128\n");
		c2csim_cfg.line_size = (UInt)v;
	} else if VG_BINT_CLO (arg, "--sim-sample-rate", v, 1, 1000000000) {
		c2csim_cfg.sample_rate = (UInt)v;
	} else if VG_BINT_CLO (arg, "--sim-hitm-rate", v, 1, 1000000) {
		c2csim_cfg.hitm_rate = (UInt)v;
	} else if VG_BINT_CLO (arg, "--sim-max-samples", v, 0, 0x7fffffffffffffffLL) {
		c2csim_cfg.max_samples = (ULong)v;
	} else if VG_BINT_CLO (arg, "--sim-seed", v, 0, 0x7fffffffffffffffLL) {
		c2csim_cfg.seed = (ULong)v;
	} else if VG_BINT_CLO (arg, "--sim-lead", v, 1000, 1000000000) {
		c2csim_cfg.lead = (ULong)v;
	} else if VG_BINT_CLO (arg, "--sim-cache-lines", v, 0, 1LL << 32) {
		c2csim_cfg.cache_lines = (ULong)v;
	} else if VG_BOOL_CLO (arg, "--sim-stack", c2csim_cfg.sim_stack) {
	} else if VG_BOOL_CLO (arg, "--sim-fast", c2csim_cfg.fast) {
	} else if VG_STR_CLO (arg, "--sim-cycles", s) {
		if (!parse_costs(s))
			VG_(fmsg_bad_option)
		(arg, "expected 7 numbers: L1,LLC,LHITM,RPEER,RHITM,LDRAM,RDRAM\n");
	} else {
		return VG_(replacement_malloc_process_cmd_line_option)(arg);
	}
	return True;
}

void c2csim_opts_usage(void)
{
	VG_(printf)
	("    --sim-out=PATH            write the event stream to PATH (a fifo) [none]\n"
	 "    --sim-cpus=N              virtual cpus, 1..64; thread i on cpu i%%N, or\n"
	 "                              the least-loaded of its affinity mask [8]\n"
	 "    --sim-nodes=N             virtual NUMA nodes, cpu c on node c%%N [1]\n"
	 "    --sim-line-size=64|128    cache line size [64]\n"
	 "    --sim-sample-rate=N       sample 1 in N accesses besides HITMs and\n"
	 "                              store misses, which are all sampled [1000]\n"
	 "    --sim-hitm-rate=N         keep 1 in N of those samples too (period N) [1]\n"
	 "    --sim-max-samples=N       past N samples, double that rate and thin the\n"
	 "                              samples written so far to match [0: never]\n"
	 "    --sim-seed=N              seed of the sampling [1]\n"
	 "    --sim-lead=N              max instructions a thread may run ahead [100000]\n"
	 "    --sim-cache-lines=N       per-cpu capacity in lines, FIFO [0: unbounded]\n"
	 "    --sim-stack=yes|no        simulate a thread's accesses to its own stack [no]\n"
	 "    --sim-fast=yes|no         count hits on lines only one thread touched\n"
	 "                              without merging them (exact: no) [yes]\n"
	 "    --sim-cycles=L1,LLC,LHITM,RPEER,RHITM,LDRAM,RDRAM\n"
	 "                              simulated cycles per class [4,40,75,150,220,200,330]\n");
}

void c2csim_opts_debug_usage(void)
{
}

void c2csim_opts_done(void)
{
	c2csim_cfg.line_shift = c2csim_cfg.line_size == 128 ? 7 : 6;
}
