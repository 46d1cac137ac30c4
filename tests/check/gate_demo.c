/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The struct the check tests gate (rules.sh, mutate_rules.sh): every rule
 * kind has something to hold or break on it. Offsets as gcc -g lays it out.
 */
struct gate_demo {
	long a;						/*   0 */
	int b;						/*   8, hole 52 */
	long load_avg __attribute__((aligned(64)));	/*  64 */
	void *rt_se;					/*  72 */
	void *rt_rq;					/*  80 */
	struct { int x; int y; } inner;			/*  88 */
	char c;						/*  96, hole 31 */
	long cold __attribute__((aligned(64)));		/* 128, padding 56 */
};
struct gate_demo demo;
