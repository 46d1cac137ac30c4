// SPDX-License-Identifier: GPL-2.0
/*
 * perf_gen: writes a perf.data with known content through perf_writer_*,
 * for the writer tests (read back by perf_dump and by perf itself).
 *   perf_gen [-n SAMPLES] [-e EVENTS(1|2)] [-g] [-r] OUT
 * Sample i: tid 100 + i % 2 (pid 100), cpu i % 2, time 1000000 + i * 1000,
 * ip = a function of this program, addr 0x10000 + (i % 16) * 8,
 * period 1000 + i, weight 30 + i, event i % EVENTS, data_src cycling
 * through load L1 hit, load LLC local HITM, store L1 hit, load remote DRAM.
 * -g adds a 3-entry callchain, -r a 5-byte raw record.
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

static void gen_setup_events(struct perf_writer_event *ev, bool callchain, bool raw)
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
	struct perf_writer *w;
	struct c2c_err err;
	int opt, ret;

	while ((opt = getopt(argc, argv, "n:e:gr")) != -1) {
		if (opt == 'n')
			n = atol(optarg);
		else if (opt == 'e')
			nr_events = atol(optarg) == 1 ? 1 : 2;
		else if (opt == 'g')
			callchain = true;
		else if (opt == 'r')
			raw = true;
		else
			return 2;
	}
	if (optind >= argc)
		return 2;
	gen_setup_events(ev, callchain, raw);
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
