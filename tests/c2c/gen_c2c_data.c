// SPDX-License-Identifier: GPL-2.0
/*
 * gen_c2c_data: a deterministic perf.data of memory samples with a known
 * mix of data-source classes, written through perf_writer_*. Used by the
 * report tests (compared against perf c2c report) and by bench/report.sh.
 *
 *   gen_c2c_data [-n SAMPLES] [-l LINES] [-s SEED] [-P] [-q] [-x] OUT
 *
 * One process (pid 1000, threads 1000-1003 on cpus 0-3; cpus 0-1 are node
 * 0, 2-3 node 1). Code addresses are eight functions of this program,
 * mapped from its own executable, so symbols and source lines resolve.
 * Data lives in a [heap] mapping: LINES cache lines, the first LINES/50
 * (at least 1) "hot" lines take every HITM and peer access. -P adds
 * physical addresses (node 0 for even lines, node 1 for odd ones); -q
 * writes a FINISHED_ROUND every 10000 samples; -x writes the samples of
 * each pair in reverse time order (as per-cpu buffers do), so that readers
 * must sort them as perf does.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/c2c_stats.h"
#include "perf/perf_data.h"

#define HEAP_START 0x555500000000ULL
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

#define LD C2C_MEM_OP_LOAD
#define ST C2C_MEM_OP_STORE
#define L(x) C2C_MEM_LVL_##x
#define S(x) C2C_MEM_SNOOP_##x
#define DS(op, lvl, snoop, lock, lnum, rmt, snx, blk, hops) \
	c2c_data_src(op, lvl, snoop, lock, lnum, rmt, snx, blk, hops)

static struct kind kinds[32];
static size_t nr_kinds;

static void add_kind(const char *name, unsigned int weight, int event, bool hot, uint64_t ds,
		     int special)
{
	kinds[nr_kinds++] = (struct kind){ name, weight, event, hot, ds, special };
}

static void setup_kinds(void)
{
	uint64_t nolock = C2C_MEM_LOCK_NA;

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
		 DS(LD, L(HIT) | L(L3), S(NONE), nolock, 3, 0, C2C_MEM_SNOOPX_PEER, 0, 0), 0);
	add_kind("uncached", 5, LOAD_EV, false,
		 DS(LD, L(HIT) | L(UNC), S(NONE), nolock, 0, 0, 0, 0, 0), 0);
	add_kind("IO", 5, LOAD_EV, false, DS(LD, L(HIT) | L(IO), S(NONE), nolock, 0, 0, 0, 0, 0),
		 0);
	add_kind("miss", 5, LOAD_EV, false, DS(LD, L(MISS) | L(L3), S(NONE), nolock, 0, 0, 0, 0, 0),
		 0);
	add_kind("locked L1", 10, LOAD_EV, false,
		 DS(LD, L(HIT) | L(L1), S(NONE), C2C_MEM_LOCK_LOCKED, 1, 0, 0, 0, 0), 0);
	add_kind("blocked", 5, LOAD_EV, false,
		 DS(LD, L(HIT) | L(L1), S(NONE), nolock, 1, 0, 0,
		    C2C_MEM_BLK_DATA | C2C_MEM_BLK_ADDR, 0),
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
		 DS(C2C_MEM_OP_NA, L(NA), S(NA), nolock, 0, 0, 0, 0, 0), 0);
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

static int write_task(struct perf_writer *w)
{
	struct perf_comm comm = { .pid = PID, .comm = "c2c_gen" };
	struct perf_mmap exe = { .pid = PID, .tid = PID, .prot = 5, .flags = 2, .is_mmap2 = true };
	struct perf_mmap heap = { .pid = PID,
				  .tid = PID,
				  .start = HEAP_START,
				  .len = 1ULL << 32,
				  .prot = 3,
				  .flags = 2,
				  .is_mmap2 = true,
				  .filename = "[heap]" };
	static char path[4096];
	struct c2c_err err;
	uint32_t t;
	int ret = 0;

	for (t = 0; t < 4 && !ret; t++) {
		comm.tid = PID + t;
		ret = perf_writer_comm(w, &comm, 1000);
	}
	if (find_exe_map((uint64_t)(uintptr_t)gen_c2c_fn0, &exe, path, sizeof(path)))
		return -1;
	exe.filename = path;
	if (!perf_build_id_of_file(path, exe.build_id, &exe.build_id_size, &err)) {
		struct perf_build_id bid = { .pid = PID,
					     .size = exe.build_id_size,
					     .filename = path };

		memcpy(bid.id, exe.build_id, sizeof(bid.id));
		ret = ret ?: perf_writer_build_id(w, &bid);
	}
	ret = ret ?: perf_writer_mmap2(w, &exe, 2000);
	return ret ?: perf_writer_mmap2(w, &heap, 2000);
}

static void setup_events(struct perf_writer_event *ev, bool phys)
{
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		      PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC |
		      PERF_SAMPLE_WEIGHT;

	if (phys)
		st |= PERF_SAMPLE_PHYS_ADDR;
	ev[LOAD_EV] = (struct perf_writer_event){ .type = PERF_TYPE_RAW,
						  .config = 0x1cd,
						  .config1 = 30,
						  .sample_type = st,
						  .sample_period = 4000,
						  .precise_ip = true,
						  .name = "cpu/mem-loads,ldlat=30/P" };
	ev[STORE_EV] = (struct perf_writer_event){ .type = PERF_TYPE_RAW,
						   .config = 0x82d0,
						   .sample_type = st,
						   .sample_period = 4000,
						   .precise_ip = true,
						   .name = "cpu/mem-stores/P" };
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
		.period = 4000,
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

int main(int argc, char **argv)
{
	static const struct perf_numa_node nodes[2] = {
		{ .node = 0, .mem_total = 4 * GIB / 1024, .mem_free = GIB / 1024, .cpus = "0-1" },
		{ .node = 1, .mem_total = 4 * GIB / 1024, .mem_free = GIB / 1024, .cpus = "2-3" },
	};
	static const char *const cmdline[] = { "perf", "c2c", "record", "--", "c2c_gen", NULL };
	struct perf_writer_info info = { .hostname = "c2c-gen",
					 .osrelease = "6.1.0",
					 .version = "6.1.192",
					 .arch = "x86_64",
					 .cpudesc = "c2cscope generator",
					 .cmdline = cmdline,
					 .nr_cpus_avail = 4,
					 .nr_cpus_online = 4,
					 .nr_numa_nodes = 2,
					 .numa_nodes = nodes };
	struct perf_writer_event ev[2];
	long n = 20000, lines = 200, i;
	bool phys = false, rounds = false, swap = false;
	struct perf_writer *w;
	struct c2c_err err;
	int opt, ret;

	rng_state = 0x9e3779b97f4a7c15ULL;
	while ((opt = getopt(argc, argv, "n:l:s:Pqx")) != -1) {
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
		else
			return 2;
	}
	if (optind >= argc || n < 0 || lines < 1) {
		fprintf(stderr,
			"usage: gen_c2c_data [-n SAMPLES] [-l LINES] [-s SEED] [-P] [-q] [-x] OUT\n");
		return 2;
	}
	setup_kinds();
	setup_events(ev, phys);
	if (perf_writer_open(argv[optind], ev, 2, &w, &err)) {
		fprintf(stderr, "gen_c2c_data: %s\n", err.msg);
		return 2;
	}
	ret = write_task(w);
	for (i = 0; i < n && !ret; i++) {
		struct perf_sample s = make_sample(i, (uint64_t)lines, pick_kind(), swap);

		ret = perf_writer_sample(w, &s);
		if (!ret && rounds && i % 10000 == 9999)
			ret = perf_writer_finished_round(w);
	}
	if (ret) {
		fprintf(stderr, "gen_c2c_data: writing failed (%d)\n", ret);
		perf_writer_abort(w);
		return 2;
	}
	if (perf_writer_close(w, &info, &err)) {
		fprintf(stderr, "gen_c2c_data: %s\n", err.msg);
		return 2;
	}
	return 0;
}
