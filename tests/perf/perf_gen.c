// SPDX-License-Identifier: GPL-2.0
/*
 * perf_gen: writes a perf.data with known content through perf_writer_*,
 * for the writer tests (read back by perf_dump and by perf itself).
 *   perf_gen [-n SAMPLES] [-e EVENTS(1|2)] [-g] [-r] [-R] [-b|-B] [-u] [-I] OUT
 * Sample i: tid 100 + i % 2 (pid 100), cpu i % 2, time 1000000 + i * 1000,
 * ip = a function of this program, addr 0x10000 + (i % 16) * 8,
 * period 1000 + i, weight 30 + i, event i % EVENTS, data_src cycling
 * through load L1 hit, load LLC local HITM, store L1 hit, load remote DRAM.
 * -g adds a 3-entry callchain, -r a 5-byte raw record, -R a group READ
 * (two members with ids, times), -b a 2-entry branch stack (-B with
 * hw_idx), -u user regs ax,bx,sp (none in every fifth sample) and a
 * 64-byte user stack, -I interrupt regs ax,bx,ip; values derive from i.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf/perf_data.h"

static const uint64_t data_srcs[] = {
	PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, L1) |
		PERF_MEM_S(SNOOP, NONE) | PERF_MEM_S(TLB, L1) | PERF_MEM_S(TLB, HIT),
	PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, L3) |
		PERF_MEM_S(SNOOP, HITM) | PERF_MEM_S(TLB, L1) | PERF_MEM_S(TLB, HIT),
	PERF_MEM_S(OP, STORE) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, L1) | PERF_MEM_S(SNOOP, NA) |
		PERF_MEM_S(TLB, NA),
	PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, REM_RAM1) |
		PERF_MEM_S(SNOOP, HIT) | PERF_MEM_S(TLB, L2) | PERF_MEM_S(TLB, HIT),
};

__attribute__((noinline)) static void gen_hot_function(void)
{
	__asm__ volatile("" ::: "memory");
}

/* Fields beyond the c2c ones (-R, -b, -B, -u, -I). */
struct gen_extra {
	bool read, branches, hw_idx, user, intr;
	long nr_events;
};

#define GEN_READ_FORMAT                                                        \
	(PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED | \
	 PERF_FORMAT_TOTAL_TIME_RUNNING)
#define GEN_REGS_USER 0x83ULL /* ax, bx, sp */
#define GEN_REGS_INTR 0x103ULL /* ax, bx, ip */
#define GEN_STACK 64

static void gen_setup_extra(struct perf_writer_event *ev, const struct gen_extra *x)
{
	if (x->read) {
		ev->sample_type |= PERF_SAMPLE_READ;
		ev->read_format = GEN_READ_FORMAT;
	}
	if (x->branches) {
		ev->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		ev->branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
		if (x->hw_idx)
			ev->branch_sample_type |= PERF_SAMPLE_BRANCH_HW_INDEX;
	}
	if (x->user) {
		ev->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		ev->sample_regs_user = GEN_REGS_USER;
		ev->sample_stack_user = GEN_STACK;
	}
	if (x->intr) {
		ev->sample_type |= PERF_SAMPLE_REGS_INTR;
		ev->sample_regs_intr = GEN_REGS_INTR;
	}
}

/* Sample i's extra fields, from i; arrays in the caller's buffers. */
static void gen_fill_extra(struct perf_sample *s, long i, const struct gen_extra *x,
			   uint64_t *words, uint64_t *branches, uint64_t *regs, uint8_t *stack)
{
	int k;

	if (x->read) { /* nr, enabled, running, {value, id} per event */
		uint64_t w[] = { x->nr_events,
				 1000 * i + 7,
				 900 * i + 5,
				 10 + i,
				 PERF_WRITER_ID_BASE,
				 20 + i,
				 PERF_WRITER_ID_BASE + 1 };

		memcpy(words, w, sizeof(w));
		s->nr_read_words = 3 + 2 * x->nr_events;
		s->read_words = words;
	}
	if (x->branches) { /* from, to, flags (mispred/predicted, cycles) */
		for (k = 0; k < 2; k++) {
			branches[3 * k] = 0x401000 + 0x10 * i + k;
			branches[3 * k + 1] = 0x402000 + 0x10 * i + k;
			branches[3 * k + 2] = (k ? 2 : 1) | ((uint64_t)(i % 7 + k) << 4);
		}
		s->nr_branches = 2;
		s->branch_hw_idx = 5 + i;
		s->branches = branches;
	}
	for (k = 0; k < 3; k++)
		regs[k] = 0x1000 * (k + 1) + i;
	if (x->user) {
		s->regs_user_abi = i % 5 ? 2 : 0; /* every fifth: no user regs */
		s->regs_user = regs;
		s->stack_user_size = GEN_STACK;
		s->stack_user_dyn_size = 48;
		memset(stack, (int)(i & 0xff), GEN_STACK);
		s->stack_user = stack;
	}
	if (x->intr) {
		s->regs_intr_abi = 2;
		s->regs_intr = regs;
	}
}

static void gen_setup_events(struct perf_writer_event *ev, bool callchain, bool raw,
			     const struct gen_extra *x)
{
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		      PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC |
		      PERF_SAMPLE_WEIGHT | PERF_SAMPLE_PHYS_ADDR;

	if (callchain)
		st |= PERF_SAMPLE_CALLCHAIN;
	if (raw)
		st |= PERF_SAMPLE_RAW;
	ev[0] = (struct perf_writer_event){ .type = PERF_TYPE_RAW,
					    .config = 0x1cd,
					    .config1 = 30,
					    .sample_type = st,
					    .sample_period = 4000,
					    .precise_ip = true,
					    .name = "cpu/mem-loads,ldlat=30/P" };
	ev[1] = (struct perf_writer_event){ .type = PERF_TYPE_RAW,
					    .config = 0x82d0,
					    .sample_type = st,
					    .sample_period = 4000,
					    .precise_ip = true,
					    .name = "cpu/mem-stores/P" };
	gen_setup_extra(&ev[0], x);
	gen_setup_extra(&ev[1], x);
}

/* The executable mapping of this program that holds fn, from /proc/self/maps. */
static int gen_find_map(uint64_t fn, struct perf_mmap *m, char *path, size_t path_len)
{
	unsigned long long start, end, pgoff;
	char line[4096], perms[8];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = -1, pos;

	while (f && found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &pgoff,
			   &pos) < 4 ||
		    fn < start || fn >= end)
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(path, path_len, "%s", line + pos);
		m->start = start;
		m->len = end - start;
		m->pgoff = pgoff;
		found = 0;
	}
	if (f)
		fclose(f);
	return found;
}

static int gen_task(struct perf_writer *w)
{
	struct perf_comm comm = { .pid = 100, .tid = 100, .comm = "perf_gen" };
	struct perf_mmap m = { .pid = 100, .tid = 100, .prot = 5, .flags = 2 };
	struct perf_build_id bid = { .pid = 100 };
	static char exe[4096];
	struct c2c_err err;
	int ret;

	if (gen_find_map((uint64_t)(uintptr_t)gen_hot_function, &m, exe, sizeof(exe)))
		return -1;
	m.filename = bid.filename = exe;

	ret = perf_writer_comm(w, &comm, 999000);
	comm.tid = 101;
	ret = ret ?: perf_writer_comm(w, &comm, 999000);
	if (perf_build_id_of_file(exe, m.build_id, &m.build_id_size, &err) == 0) {
		memcpy(bid.id, m.build_id, 20);
		bid.size = m.build_id_size;
		ret = ret ?: perf_writer_build_id(w, &bid);
	}
	return ret ?: perf_writer_mmap2(w, &m, 999500);
}

int main(int argc, char **argv)
{
	struct perf_writer_event ev[2];
	uint64_t chain[3] = { PERF_CONTEXT_USER, 0x401000, 0x402000 };
	long n = 8, nr_events = 2, i;
	bool callchain = false, raw = false;
	struct gen_extra x = { 0 };
	uint64_t words[7], branches[6], regs[3];
	uint8_t stack[GEN_STACK];
	struct perf_writer *w;
	struct c2c_err err;
	int opt, ret;

	while ((opt = getopt(argc, argv, "n:e:grRbBuI")) != -1) {
		if (opt == 'n')
			n = atol(optarg);
		else if (opt == 'e')
			nr_events = atol(optarg) == 1 ? 1 : 2;
		else if (opt == 'g')
			callchain = true;
		else if (opt == 'r')
			raw = true;
		else if (opt == 'R')
			x.read = true;
		else if (opt == 'b' || opt == 'B')
			x.branches = true, x.hw_idx |= opt == 'B';
		else if (opt == 'u')
			x.user = true;
		else if (opt == 'I')
			x.intr = true;
		else
			return 2;
	}
	if (optind >= argc)
		return 2;
	x.nr_events = nr_events;
	gen_setup_events(ev, callchain, raw, &x);
	if (perf_writer_open(argv[optind], ev, nr_events, &w, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 2;
	}
	ret = gen_task(w);
	for (i = 0; i < n && !ret; i++) {
		struct perf_sample s = {
			.attr_index = i % nr_events,
			.ip = (uint64_t)(uintptr_t)gen_hot_function,
			.pid = 100,
			.tid = 100 + i % 2,
			.time = 1000000 + i * 1000,
			.addr = 0x10000 + (i % 16) * 8,
			.cpu = i % 2,
			.period = 1000 + i,
			.weight = 30 + i,
			.data_src = data_srcs[i % 4],
			.phys_addr = 0x100000 + (i % 16) * 8,
			.nr_callchain = callchain ? 3 : 0,
			.callchain = chain,
			.raw_size = raw ? 5 : 0,
			.raw = "abcde",
		};
		gen_fill_extra(&s, i, &x, words, branches, regs, stack);
		ret = perf_writer_sample(w, &s);
	}
	if (ret) {
		fprintf(stderr, "perf_gen: write failed: %d\n", ret);
		perf_writer_abort(w);
		return 2;
	}
	if (perf_writer_close(w, NULL, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 2;
	}
	return 0;
}
