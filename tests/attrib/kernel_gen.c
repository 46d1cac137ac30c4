// SPDX-License-Identifier: GPL-2.0
/*
 * kernel_gen OUT [BUILD_ID [TEXT]]: a perf.data of kernel samples, for the kernel
 * attribution tests. Samples come from stdin, one per line, "IP ADDR KIND
 * CPU": a kernel code address, a data address, KIND "load" (a local HITM,
 * so that the line is shared) or "store" (an L1 miss), the cpu (0-3). The
 * kernel's map is [kernel.kallsyms]_text from 0xffffffff80000000 (1 GiB),
 * with BUILD_ID (hex; "-" for none) in the BUILD_ID feature, and TEXT as the
 * map's pgoff: as perf records it, the runtime address of _text (default:
 * the map's start).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf/mem_src.h"
#include "perf/perf_data.h"

#define KERNEL_START 0xffffffff80000000ULL
#define GIB (1ULL << 30)

static const struct perf_numa_node nodes[1] = {
	{ .node = 0, .mem_total = 4 * GIB / 1024, .mem_free = GIB / 1024, .cpus = "0-3" },
};
static const struct perf_writer_info info = { .hostname = "kernel-gen",
					      .osrelease = "6.1.0-c2cscope-test",
					      .version = "6.1",
					      .arch = "x86_64",
					      .nr_cpus_avail = 4,
					      .nr_cpus_online = 4,
					      .nr_numa_nodes = 1,
					      .numa_nodes = nodes };

static int kernel_map(struct perf_writer *w, const char *hex, uint64_t text)
{
	struct perf_mmap m = { .pid = (uint32_t)-1,
			       .start = KERNEL_START,
			       .len = GIB,
			       .pgoff = text,
			       .prot = 5,
			       .is_mmap2 = true,
			       .filename = "[kernel.kallsyms]_text",
			       .cpumode = PERF_RECORD_MISC_KERNEL };
	struct perf_build_id bid = { .pid = -1, .filename = "[kernel.kallsyms]" };
	unsigned int byte;

	while (hex && strcmp(hex, "-") && bid.size < sizeof(bid.id) &&
	       sscanf(hex, "%2x", &byte) == 1) {
		bid.id[bid.size++] = (uint8_t)byte;
		hex += 2;
	}
	if (bid.size && perf_writer_build_id(w, &bid))
		return -1;
	return perf_writer_mmap2(w, &m, 1000);
}

int main(int argc, char **argv)
{
	struct perf_writer_event ev[2] = {
		{ .type = PERF_TYPE_RAW,
		  .config = 0x1cd,
		  .config1 = 30,
		  .sample_period = 4000,
		  .precise_ip = true,
		  .name = "cpu/mem-loads,ldlat=30/P" },
		{ .type = PERF_TYPE_RAW,
		  .config = 0x82d0,
		  .sample_period = 4000,
		  .precise_ip = true,
		  .name = "cpu/mem-stores/P" },
	};
	uint64_t load = mem_src_make(PERF_MEM_OP_LOAD, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3,
				     PERF_MEM_SNOOP_HITM, PERF_MEM_LOCK_NA, 3, 0, 0, 0, 0);
	uint64_t store = mem_src_make(PERF_MEM_OP_STORE, PERF_MEM_LVL_MISS | PERF_MEM_LVL_L1,
				      PERF_MEM_SNOOP_NA, PERF_MEM_LOCK_NA, 0, 0, 0, 0, 0);
	unsigned long long ip, addr;
	struct perf_writer_result res;
	struct perf_writer *w;
	struct err_msg err;
	char kind[16];
	unsigned int cpu;
	uint64_t t = 2000;
	int ret;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: kernel_gen OUT [BUILD_ID [TEXT]] <samples\n");
		return 2;
	}
	ev[0].sample_type = ev[1].sample_type =
		PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT;
	if (perf_writer_open(argv[1], ev, 2, &w, &err)) {
		fprintf(stderr, "kernel_gen: %s\n", err.msg);
		return 2;
	}
	ret = kernel_map(w, argc > 2 ? argv[2] : NULL,
			 argc > 3 ? strtoull(argv[3], NULL, 0) : KERNEL_START);
	while (!ret && scanf("%llx %llx %15s %u", &ip, &addr, kind, &cpu) == 4) {
		bool is_store = !strcmp(kind, "store");
		struct perf_sample s = { .attr_index = is_store,
					 .ip = ip,
					 .pid = (uint32_t)-1,
					 .tid = 0,
					 .time = t++,
					 .addr = addr,
					 .cpu = cpu % 4,
					 .period = 1,
					 .weight = 200,
					 .data_src = is_store ? store : load,
					 .cpumode = PERF_RECORD_MISC_KERNEL };

		ret = perf_writer_sample(w, &s);
	}
	if (ret || perf_writer_finish(w, &info, &res, &err)) {
		fprintf(stderr, "kernel_gen: writing failed\n");
		return 2;
	}
	return 0;
}
