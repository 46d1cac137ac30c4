// SPDX-License-Identifier: GPL-2.0
/*
 * The test generator: a perf.data with known content, written through
 * perf_writer_*. One source, two programs and two kinds of content:
 *
 * perf_gen [-n SAMPLES] [-e EVENTS(1|2)] [-g] [-r] [-R] [-b|-B] [-u] [-I]
 *          [-c CKPT_BYTES] [-K KILL_AT] [-T THIN_AT] OUT
 *   a fixed pattern, for the reader and writer tests (read back by
 *   perf_dump and by perf itself). Sample i: tid 100 + i % 2 (pid 100),
 *   cpu i % 2, time 1000000 + i * 1000, ip = a function of this program,
 *   addr 0x10000 + (i % 16) * 8, period 1000 + i, weight 30 + i, event
 *   i % EVENTS, data_src cycling through load L1 hit, load LLC local HITM,
 *   store L1 hit, load remote DRAM. -g adds a 3-entry callchain, -r a
 *   5-byte raw record, -R a group READ (one member per event, with ids and
 *   times), -b a 2-entry branch stack (-B with hw_idx), -u user regs
 *   ax,bx,sp (none in every fifth sample) and a 64-byte user stack, -I
 *   interrupt regs ax,bx,ip; values derive from i. -c checkpoints every
 *   CKPT_BYTES of data; -K raises SIGKILL before sample KILL_AT; -T thins
 *   the samples written before sample THIN_AT (perf_writer_thin): every
 *   other one is kept (0, 2, 4, ...), its period doubled.
 *
 * gen_c2c_data (or perf_gen -M) [-n SAMPLES] [-l LINES] [-s SEED] [-P] [-q] [-x]
 *                                [-L PERIOD] OUT
 *   a deterministic mix of data-source classes, for the report tests
 *   (compared against perf c2c report) and bench/report.sh. One process
 *   (pid 1000, threads 1000-1003 on cpus 0-3; cpus 0-1 are node 0, 2-3
 *   node 1). Code addresses are eight functions of this program, mapped
 *   from its own executable, so symbols and source lines resolve. Data
 *   lives in a [heap] mapping: LINES cache lines, the first LINES/50 (at
 *   least 1) "hot" lines take every HITM and peer access. -P adds physical
 *   addresses (node 0 for even lines, node 1 for odd ones); -q writes a
 *   FINISHED_ROUND every 10000 samples; -x writes the samples of each pair
 *   in reverse time order (as per-cpu buffers do), so that readers must
 *   sort them as perf does. Every sample has period 4000, but -L gives the
 *   L2+HITM loads (a HITM to newer perf, an L2 hit to perf 6.1) period PERIOD.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf/mem_src.h"
#include "perf/perf_data.h"

/*
 * Far from where the kernel maps programs: a PIE loads at 0x555555554000
 * when ASLR is off (setarch -R, some CI containers), so a heap at
 * 0x5555... would cover this program's own text and hide its symbols.
 */
#define HEAP_START 0x200000000000ULL

#ifndef GEN_MIX_DEFAULT
#define GEN_MIX_DEFAULT 0 /* gen_c2c_data is built with 1 */
#endif

/* --- What both kinds share: the task, its maps, the two events --- */

/* The executable mapping of this program holding fn, from /proc/self/maps. */
static int find_exe_map(uint64_t fn, struct perf_mmap *m, char *path, size_t len)
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
		snprintf(path, len, "%s", line + pos);
		m->start = start;
		m->len = end - start;
		m->pgoff = pgoff;
		found = 0;
	}
	if (f)
		fclose(f);
	return found;
}

/* The process: COMM per thread, then the BUILD_ID and MMAP2 of this program. */
struct gen_task {
	uint32_t pid, nr_threads;
	const char *comm;
	uint64_t comm_time, map_time;
	bool heap; /* also a [heap] mapping at HEAP_START */
};

static int write_task(struct perf_writer *w, const struct gen_task *t, uint64_t fn)
{
	struct perf_comm comm = { .pid = t->pid, .comm = t->comm };
	struct perf_mmap exe = {
		.pid = t->pid, .tid = t->pid, .prot = 5, .flags = 2, .is_mmap2 = true
	};
	struct perf_mmap heap = { .pid = t->pid,
				  .tid = t->pid,
				  .start = HEAP_START,
				  .len = 1ULL << 32,
				  .prot = 3,
				  .flags = 2,
				  .is_mmap2 = true,
				  .filename = "[heap]" };
	static char path[4096];
	struct err_msg err;
	uint32_t i;
	int ret = 0;

	for (i = 0; i < t->nr_threads && !ret; i++) {
		comm.tid = t->pid + i;
		ret = perf_writer_comm(w, &comm, t->comm_time);
	}
	if (find_exe_map(fn, &exe, path, sizeof(path)))
		return -1;
	exe.filename = path;
	if (!perf_build_id_of_file(path, exe.build_id, &exe.build_id_size, &err)) {
		struct perf_build_id bid = { .pid = t->pid,
					     .size = exe.build_id_size,
					     .filename = path };

		memcpy(bid.id, exe.build_id, sizeof(bid.id));
		ret = ret ?: perf_writer_build_id(w, &bid);
	}
	ret = ret ?: perf_writer_mmap2(w, &exe, t->map_time);
	return ret || !t->heap ? ret : perf_writer_mmap2(w, &heap, t->map_time);
}

/* The two memory events of perf c2c record on Intel, with sample_type st. */
static void setup_events(struct perf_writer_event *ev, uint64_t st)
{
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
}

#define C2C_SAMPLE_TYPE                                                           \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT)

/*
 * A full disk or file size limit is not fatal: the writer cuts the data
 * and the file stays readable; then the last line on stderr says
 * "perf_gen: kept N samples" and the exit status is 1.
 */
static int finish(struct perf_writer *w, const struct perf_writer_info *info, int ret)
{
	struct perf_writer_result res;
	struct err_msg err;

	if (ret && ret != -EFBIG && ret != -ENOSPC && ret != -EDQUOT) {
		fprintf(stderr, "perf_gen: writing failed (%d)\n", ret);
		perf_writer_abort(w);
		return 2;
	}
	ret = perf_writer_finish(w, info, &res, &err);
	if (ret && res.cut) {
		fprintf(stderr, "perf_gen: %s\nperf_gen: kept %llu samples\n", err.msg,
			(unsigned long long)res.samples);
		return 1;
	}
	if (ret) {
		fprintf(stderr, "perf_gen: %s\n", err.msg);
		return 2;
	}
	return 0;
}

/* --- The fixed pattern (perf_gen) --- */

/* -T: keep every other sample, period doubled (perf_writer_thin) */
static bool keep_even(void *ctx, size_t attr_index, uint64_t *period)
{
	uint64_t *n = ctx;

	(void)attr_index;
	if ((*n)++ % 2)
		return false;
	if (period)
		*period *= 2;
	return true;
}

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

struct pattern_opts {
	long n, nr_events;
	long ckpt_bytes, kill_after, thin_at; /* -c, -K, -T */
	bool callchain, raw;
	struct gen_extra x;
};

static int pattern_parse(int argc, char **argv, struct pattern_opts *o)
{
	int opt;

	while ((opt = getopt(argc, argv, "Mn:e:grRbBuIc:K:T:")) != -1) {
		if (opt == 'n')
			o->n = atol(optarg);
		else if (opt == 'c')
			o->ckpt_bytes = atol(optarg);
		else if (opt == 'K')
			o->kill_after = atol(optarg);
		else if (opt == 'T')
			o->thin_at = atol(optarg);
		else if (opt == 'e')
			o->nr_events = atol(optarg) == 1 ? 1 : 2;
		else if (opt == 'g')
			o->callchain = true;
		else if (opt == 'r')
			o->raw = true;
		else if (opt == 'R')
			o->x.read = true;
		else if (opt == 'b' || opt == 'B')
			o->x.branches = true, o->x.hw_idx |= opt == 'B';
		else if (opt == 'u')
			o->x.user = true;
		else if (opt == 'I')
			o->x.intr = true;
		else if (opt != 'M')
			return -1;
	}
	o->x.nr_events = o->nr_events;
	return optind < argc ? 0 : -1;
}

static int pattern_main(int argc, char **argv)
{
	static const struct gen_task task = {
		.pid = 100,
		.nr_threads = 2,
		.comm = "perf_gen",
		.comm_time = 999000,
		.map_time = 999500,
	};
	struct pattern_opts o = { .n = 8, .nr_events = 2 };
	uint64_t chain[3] = { PERF_CONTEXT_USER, 0x401000, 0x402000 };
	uint64_t words[7], branches[6], regs[3], st, i;
	uint8_t stack[GEN_STACK];
	struct perf_writer_event ev[2];
	struct perf_writer *w;
	struct err_msg err;
	int ret;

	if (pattern_parse(argc, argv, &o))
		return 2;
	st = C2C_SAMPLE_TYPE | PERF_SAMPLE_PHYS_ADDR | (o.callchain ? PERF_SAMPLE_CALLCHAIN : 0) |
	     (o.raw ? PERF_SAMPLE_RAW : 0);
	setup_events(ev, st);
	gen_setup_extra(&ev[0], &o.x);
	gen_setup_extra(&ev[1], &o.x);
	if (perf_writer_open(argv[optind], ev, o.nr_events, &w, &err)) {
		fprintf(stderr, "perf_gen: %s\n", err.msg);
		return 2;
	}
	if (o.ckpt_bytes)
		perf_writer_set_checkpoint(w, o.ckpt_bytes, 0);
	ret = write_task(w, &task, (uint64_t)(uintptr_t)gen_hot_function);
	for (i = 0; i < (uint64_t)o.n && !ret; i++) {
		struct perf_sample s = {
			.attr_index = i % o.nr_events,
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
			.nr_callchain = o.callchain ? 3 : 0,
			.callchain = chain,
			.raw_size = o.raw ? 5 : 0,
			.raw = "abcde",
		};
		gen_fill_extra(&s, (long)i, &o.x, words, branches, regs, stack);
		if (o.thin_at && (long)i == o.thin_at) { /* a bounded recording (sampling.sh) */
			uint64_t seen = 0;
			int64_t kept = perf_writer_thin(w, keep_even, &seen);

			ret = kept < 0 ? (int)kept : 0;
			if (ret)
				break;
		}
		if (o.kill_after && (long)i == o.kill_after)
			raise(SIGKILL); /* a recorder killed mid-run (no_data_lost.sh) */
		ret = perf_writer_sample(w, &s);
	}
	return finish(w, NULL, ret);
}

/* --- The c2c mix (gen_c2c_data) --- */

#define PID 1000
#define GIB (1ULL << 30)

enum { LOAD_EV, STORE_EV };

struct kind {
	const char *name;
	unsigned int weight; /* relative frequency */
	int event;
	bool hot; /* goes to the hot lines */
	uint64_t data_src;
	int special; /* 1: no data address, 2: address outside every mapping */
};

#define LD PERF_MEM_OP_LOAD
#define ST PERF_MEM_OP_STORE
#define L(x) PERF_MEM_LVL_##x
#define S(x) PERF_MEM_SNOOP_##x
#define DS(op, lvl, snoop, lock, lnum, rmt, snx, blk, hops) \
	mem_src_make(op, lvl, snoop, lock, lnum, rmt, snx, blk, hops)

static struct kind kinds[32];
static size_t nr_kinds;

static void add_kind(const char *name, unsigned int weight, int event, bool hot, uint64_t ds,
		     int special)
{
	kinds[nr_kinds++] = (struct kind){ name, weight, event, hot, ds, special };
}

static void setup_kinds(void)
{
	uint64_t nolock = PERF_MEM_LOCK_NA;

	add_kind("L1 hit", 300, LOAD_EV, false,
		 DS(LD, L(HIT) | L(L1), S(NONE), nolock, 1, 0, 0, 0, 0), 0);
	add_kind("LFB", 50, LOAD_EV, false,
		 DS(LD, L(HIT) | L(LFB), S(NONE), nolock, 0xc, 0, 0, 0, 0), 0);
	add_kind("L2 hit", 50, LOAD_EV, false,
		 DS(LD, L(HIT) | L(L2), S(NONE), nolock, 2, 0, 0, 0, 0), 0);
	add_kind("LLC hit", 50, LOAD_EV, false,
		 DS(LD, L(HIT) | L(L3), S(NONE), nolock, 3, 0, 0, 0, 0), 0);
	add_kind("local HITM", 60, LOAD_EV, true,
		 DS(LD, L(HIT) | L(L3), S(HITM), nolock, 3, 0, 0, 0, 0), 0);
	add_kind("remote HITM", 40, LOAD_EV, true,
		 DS(LD, L(HIT) | L(REM_CCE1), S(HITM), nolock, 0, 0, 0, 0, 0), 0);
	add_kind("remote HIT", 20, LOAD_EV, false,
		 DS(LD, L(HIT) | L(REM_CCE1), S(HIT), nolock, 0, 0, 0, 0, 0), 0);
	add_kind("local DRAM shared", 20, LOAD_EV, false,
		 DS(LD, L(HIT) | L(LOC_RAM), S(HIT), nolock, 0xd, 0, 0, 0, 0), 0);
	add_kind("local DRAM excl", 20, LOAD_EV, false,
		 DS(LD, L(HIT) | L(LOC_RAM), S(MISS), nolock, 0xd, 0, 0, 0, 0), 0);
	add_kind("remote DRAM", 20, LOAD_EV, false,
		 DS(LD, L(HIT) | L(REM_RAM1), S(NONE), nolock, 0xd, 0, 0, 0, 0), 0);
	add_kind("mrem HITM", 10, LOAD_EV, true, DS(LD, L(HIT), S(HITM), nolock, 0xb, 1, 0, 0, 0),
		 0);
	add_kind("L2 HITM", 10, LOAD_EV, true,
		 DS(LD, L(HIT) | L(L2), S(HITM), nolock, 2, 0, 0, 0, 0), 0);
	add_kind("LLC peer", 10, LOAD_EV, true,
		 DS(LD, L(HIT) | L(L3), S(NONE), nolock, 3, 0, PERF_MEM_SNOOPX_PEER, 0, 0), 0);
	add_kind("uncached", 5, LOAD_EV, false,
		 DS(LD, L(HIT) | L(UNC), S(NONE), nolock, 0, 0, 0, 0, 0), 0);
	add_kind("IO", 5, LOAD_EV, false, DS(LD, L(HIT) | L(IO), S(NONE), nolock, 0, 0, 0, 0, 0),
		 0);
	add_kind("miss", 5, LOAD_EV, false, DS(LD, L(MISS) | L(L3), S(NONE), nolock, 0, 0, 0, 0, 0),
		 0);
	add_kind("locked L1", 10, LOAD_EV, false,
		 DS(LD, L(HIT) | L(L1), S(NONE), PERF_MEM_LOCK_LOCKED, 1, 0, 0, 0, 0), 0);
	add_kind("blocked", 5, LOAD_EV, false,
		 DS(LD, L(HIT) | L(L1), S(NONE), nolock, 1, 0, 0,
		    PERF_MEM_BLK_DATA | PERF_MEM_BLK_ADDR, 0),
		 0);
	add_kind("store L1 hit", 150, STORE_EV, false,
		 DS(ST, L(HIT) | L(L1), S(NA), nolock, 0, 0, 0, 0, 0), 0);
	add_kind("store L1 hit hot", 40, STORE_EV, true,
		 DS(ST, L(HIT) | L(L1), S(NA), nolock, 0, 0, 0, 0, 0), 0);
	add_kind("store L1 miss", 50, STORE_EV, false,
		 DS(ST, L(MISS) | L(L1), S(NA), nolock, 0, 0, 0, 0, 0), 0);
	add_kind("store N/A", 20, STORE_EV, false, DS(ST, L(NA), S(NA), nolock, 0, 0, 0, 0, 0), 0);
	add_kind("store uncached", 5, STORE_EV, false,
		 DS(ST, L(HIT) | L(UNC), S(NA), nolock, 0, 0, 0, 0, 0), 0);
	add_kind("unparsable", 5, LOAD_EV, false,
		 DS(PERF_MEM_OP_NA, L(NA), S(NA), nolock, 0, 0, 0, 0, 0), 0);
	add_kind("load no address", 5, LOAD_EV, false,
		 DS(LD, L(HIT) | L(L1), S(NONE), nolock, 1, 0, 0, 0, 0), 1);
	add_kind("store no address", 5, STORE_EV, false,
		 DS(ST, L(HIT) | L(L1), S(NA), nolock, 0, 0, 0, 0, 0), 1);
	add_kind("unmapped", 5, LOAD_EV, false,
		 DS(LD, L(HIT) | L(L1), S(NONE), nolock, 1, 0, 0, 0, 0), 2);
}

/* Eight functions of this program: the sampled code addresses. */
#define GEN_FN(n)                                               \
	__attribute__((noinline)) void gen_c2c_fn##n(void);     \
	__attribute__((noinline)) void gen_c2c_fn##n(void)      \
	{                                                       \
		__asm__ volatile("nop; nop; nop" ::: "memory"); \
	}
GEN_FN(0)
GEN_FN(1)
GEN_FN(2)
GEN_FN(3)
GEN_FN(4)
GEN_FN(5)
GEN_FN(6)
GEN_FN(7)

static void (*const fns[8])(void) = { gen_c2c_fn0, gen_c2c_fn1, gen_c2c_fn2, gen_c2c_fn3,
				      gen_c2c_fn4, gen_c2c_fn5, gen_c2c_fn6, gen_c2c_fn7 };

static uint64_t rng_state;
static uint64_t l2_hitm_period = 4000; /* -L: the L2+HITM samples' period */

static uint64_t rnd(void)
{
	/* xorshift64*: deterministic for a seed */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static const struct kind *pick_kind(void)
{
	unsigned int total = 0, r;
	size_t i;

	for (i = 0; i < nr_kinds; i++)
		total += kinds[i].weight;
	r = (unsigned int)(rnd() % total);
	for (i = 0; i < nr_kinds; i++) {
		if (r < kinds[i].weight)
			return &kinds[i];
		r -= kinds[i].weight;
	}
	return &kinds[0];
}

static struct perf_sample make_sample(long i, uint64_t lines, const struct kind *k, bool swap)
{
	uint64_t hot = lines / 50 ? lines / 50 : 1;
	uint64_t line = rnd() % (k->hot ? hot : lines), off = (rnd() % 8) * 8;
	uint32_t tid = PID + (uint32_t)(rnd() % 4);
	struct perf_sample s = {
		.attr_index = (uint32_t)k->event,
		.ip = (uint64_t)(uintptr_t)fns[(line + off / 8 + (uint64_t)k->event) % 8],
		.pid = PID,
		.tid = tid,
		.time = 1000000 + (uint64_t)(swap ? i ^ 1 : i) * 100,
		.addr = HEAP_START + line * 64 + off,
		.cpu = tid - PID,
		.period = strcmp(k->name, "L2 HITM") ? 4000 : l2_hitm_period,
		.weight = 30 + rnd() % 470,
		.data_src = k->data_src,
		.phys_addr = (line % 2 ? 4 * GIB : 0) + 0x1000000 + line * 64 + off,
	};
	if (k->special == 1)
		s.addr = 0;
	else if (k->special == 2)
		s.addr = 0x1000 + off; /* below every mapping */
	return s;
}

static int mix_main(int argc, char **argv)
{
	static const struct perf_numa_node nodes[2] = {
		{ .node = 0, .mem_total = 4 * GIB / 1024, .mem_free = GIB / 1024, .cpus = "0-1" },
		{ .node = 1, .mem_total = 4 * GIB / 1024, .mem_free = GIB / 1024, .cpus = "2-3" },
	};
	static const char *const cmdline[] = { "perf", "c2c", "record", "--", "c2c_gen", NULL };
	static const struct perf_writer_info info = { .hostname = "c2c-gen",
						      .osrelease = "6.1.0",
						      .version = "6.1.192",
						      .arch = "x86_64",
						      .cpudesc = "c2cscope generator",
						      .cmdline = cmdline,
						      .nr_cpus_avail = 4,
						      .nr_cpus_online = 4,
						      .nr_numa_nodes = 2,
						      .numa_nodes = nodes };
	static const struct gen_task task = {
		.pid = PID,
		.nr_threads = 4,
		.comm = "c2c_gen",
		.comm_time = 1000,
		.map_time = 2000,
		.heap = true,
	};
	struct perf_writer_event ev[2];
	long n = 20000, lines = 200, i;
	bool phys = false, rounds = false, swap = false;
	struct perf_writer *w;
	struct err_msg err;
	int opt, ret;

	rng_state = 0x9e3779b97f4a7c15ULL;
	while ((opt = getopt(argc, argv, "Mn:l:s:PqxL:")) != -1) {
		if (opt == 'n')
			n = atol(optarg);
		else if (opt == 'l')
			lines = atol(optarg);
		else if (opt == 's')
			rng_state ^= strtoull(optarg, NULL, 0) * 0x100000001b3ULL;
		else if (opt == 'P')
			phys = true;
		else if (opt == 'q')
			rounds = true;
		else if (opt == 'x')
			swap = true;
		else if (opt == 'L')
			l2_hitm_period = strtoull(optarg, NULL, 0);
		else if (opt != 'M')
			return 2;
	}
	if (optind >= argc || n < 0 || lines < 1) {
		fprintf(stderr,
			"usage: gen_c2c_data [-n SAMPLES] [-l LINES] [-s SEED] [-P] [-q] [-x] [-L PERIOD] "
			"OUT\n");
		return 2;
	}
	setup_kinds();
	setup_events(ev, C2C_SAMPLE_TYPE | (phys ? PERF_SAMPLE_PHYS_ADDR : 0));
	if (perf_writer_open(argv[optind], ev, 2, &w, &err)) {
		fprintf(stderr, "gen_c2c_data: %s\n", err.msg);
		return 2;
	}
	ret = write_task(w, &task, (uint64_t)(uintptr_t)gen_c2c_fn0);
	for (i = 0; i < n && !ret; i++) {
		struct perf_sample s = make_sample(i, (uint64_t)lines, pick_kind(), swap);

		ret = perf_writer_sample(w, &s);
		if (!ret && rounds && i % 10000 == 9999)
			ret = perf_writer_finished_round(w);
	}
	return finish(w, &info, ret);
}

int main(int argc, char **argv)
{
	bool mix = GEN_MIX_DEFAULT;
	int i;

	for (i = 1; i < argc && !mix; i++)
		mix = !strcmp(argv[i], "-M");
	return mix ? mix_main(argc, argv) : pattern_main(argc, argv);
}
