/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data on disk: the pieces of the format that perf defines itself
 * (file header, perf's own record types, feature ids). The kernel's ABI
 * (sample types, record types, attr) comes from <linux/perf_event.h>.
 * Internal to src/perf/.
 */
#ifndef C2C_PERF_PERF_FORMAT_H
#define C2C_PERF_PERF_FORMAT_H

#include <stdint.h>
#include <linux/perf_event.h>

#define PERF_MAGIC2 0x32454c4946524550ULL /* "PERFILE2" read little-endian */
#define PERF_MAGIC2_SWAPPED 0x50455246494c4532ULL
#define PERF_FILE_HEADER_SIZE 104
#define PERF_PIPE_HEADER_SIZE 16
#define PERF_NAME_ALIGN 64
#define PERF_ATTR_SIZE_WRITTEN PERF_ATTR_SIZE_VER7 /* what perf 6.1 writes */

/* perf's user-space record types (tools/lib/perf/include/perf/event.h) */
enum {
	PERF_REC_USER_HEADER_ATTR = 64,
	PERF_REC_USER_HEADER_EVENT_TYPE = 65,
	PERF_REC_USER_HEADER_TRACING_DATA = 66,
	PERF_REC_USER_HEADER_BUILD_ID = 67,
	PERF_REC_USER_FINISHED_ROUND = 68,
	PERF_REC_USER_ID_INDEX = 69,
	PERF_REC_USER_AUXTRACE_INFO = 70,
	PERF_REC_USER_AUXTRACE = 71,
	PERF_REC_USER_AUXTRACE_ERROR = 72,
	PERF_REC_USER_THREAD_MAP = 73,
	PERF_REC_USER_CPU_MAP = 74,
	PERF_REC_USER_STAT_CONFIG = 75,
	PERF_REC_USER_STAT = 76,
	PERF_REC_USER_STAT_ROUND = 77,
	PERF_REC_USER_EVENT_UPDATE = 78,
	PERF_REC_USER_TIME_CONV = 79,
	PERF_REC_USER_HEADER_FEATURE = 80,
	PERF_REC_USER_COMPRESSED = 81,
	PERF_REC_USER_FINISHED_INIT = 82,
	PERF_REC_USER_MAX = 83,
};

/* Feature bits (tools/perf/util/header.h) */
enum {
	PERF_FEAT_TRACING_DATA = 1,
	PERF_FEAT_BUILD_ID = 2,
	PERF_FEAT_HOSTNAME = 3,
	PERF_FEAT_OSRELEASE = 4,
	PERF_FEAT_VERSION = 5,
	PERF_FEAT_ARCH = 6,
	PERF_FEAT_NRCPUS = 7,
	PERF_FEAT_CPUDESC = 8,
	PERF_FEAT_CPUID = 9,
	PERF_FEAT_TOTAL_MEM = 10,
	PERF_FEAT_CMDLINE = 11,
	PERF_FEAT_EVENT_DESC = 12,
	PERF_FEAT_CPU_TOPOLOGY = 13,
	PERF_FEAT_NUMA_TOPOLOGY = 14,
	PERF_FEAT_BRANCH_STACK = 15,
	PERF_FEAT_PMU_MAPPINGS = 16,
	PERF_FEAT_GROUP_DESC = 17,
	PERF_FEAT_AUXTRACE = 18,
	PERF_FEAT_STAT = 19,
	PERF_FEAT_CACHE = 20,
	PERF_FEAT_SAMPLE_TIME = 21,
	PERF_FEAT_MEM_TOPOLOGY = 22,
	PERF_FEAT_CLOCKID = 23,
	PERF_FEAT_DIR_FORMAT = 24,
	PERF_FEAT_BPF_PROG_INFO = 25,
	PERF_FEAT_BPF_BTF = 26,
	PERF_FEAT_COMPRESSED = 27,
	PERF_FEAT_CPU_PMU_CAPS = 28,
	PERF_FEAT_CLOCK_DATA = 29,
	PERF_FEAT_HYBRID_TOPOLOGY = 30,
	PERF_FEAT_PMU_CAPS = 31,
	/*
	 * c2cscope's own: the heap blocks of a simulated run (src/heap/heap.h).
	 * perf processes only the bits it knows (below HEADER_LAST_FEATURE) and
	 * skips the others' sections, so a high bit stays out of its way.
	 */
	PERF_FEAT_C2C_HEAP_BLOCKS = 250,
	PERF_FEAT_BITS = 256,
};

/* Bits of the attr flag word (the bitfield after read_format). */
enum {
	ATTR_FLAG_DISABLED = 1ULL << 0,
	ATTR_FLAG_INHERIT = 1ULL << 1,
	ATTR_FLAG_FREQ = 1ULL << 10,
	ATTR_FLAG_MMAP = 1ULL << 8,
	ATTR_FLAG_COMM = 1ULL << 9,
	ATTR_FLAG_ENABLE_ON_EXEC = 1ULL << 12,
	ATTR_FLAG_TASK = 1ULL << 13,
	ATTR_FLAG_PRECISE_SHIFT = 15, /* two bits */
	ATTR_FLAG_MMAP_DATA = 1ULL << 17,
	ATTR_FLAG_SAMPLE_ID_ALL = 1ULL << 18,
	ATTR_FLAG_MMAP2 = 1ULL << 23,
	ATTR_FLAG_COMM_EXEC = 1ULL << 24,
};

/* Offsets inside perf_event_attr (stable ABI). */
enum {
	ATTR_OFF_TYPE = 0,
	ATTR_OFF_SIZE = 4,
	ATTR_OFF_CONFIG = 8,
	ATTR_OFF_PERIOD = 16,
	ATTR_OFF_SAMPLE_TYPE = 24,
	ATTR_OFF_READ_FORMAT = 32,
	ATTR_OFF_FLAGS = 40,
	ATTR_OFF_WAKEUP = 48,
	ATTR_OFF_BP_TYPE = 52,
	ATTR_OFF_CONFIG1 = 56,
	ATTR_OFF_CONFIG2 = 64, /* VER1 */
	ATTR_OFF_BRANCH_SAMPLE_TYPE = 72, /* VER2 */
	ATTR_OFF_REGS_USER = 80, /* VER3 */
	ATTR_OFF_STACK_USER = 88,
	ATTR_OFF_REGS_INTR = 96, /* VER4 */
};

/* Fields a sample_id_all trailer may carry, in sample order. */
#define PERF_SAMPLE_ID_ALL_MASK                                                        \
	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

#endif
