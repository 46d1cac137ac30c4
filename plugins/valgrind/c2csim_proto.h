/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stream that the c2csim Valgrind tool writes to `c2cscope record --sim`.
 * Shared by the tool (no libc: only fixed-size integer types are used here)
 * and by c2cscope's converter (src/sim/). Little-endian, native layout.
 *
 * The stream is a sequence of records, each starting with struct
 * c2csim_rec and padded to a multiple of 8 bytes (size includes the header
 * and the padding). The first record is C2CSIM_REC_HEADER; the last one,
 * when the tool finished normally, is C2CSIM_REC_STATS. A stream cut short
 * (the tool was killed) ends after its last whole record.
 *
 * Records come in simulated-time order: samples carry the virtual time of
 * their event (retired guest instructions of the thread, plus the time it
 * spent blocked), and an MMAP or THREAD record carries the merge frontier
 * at the moment it was written, which no later sample precedes.
 */
#ifndef C2CSIM_PROTO_H
#define C2CSIM_PROTO_H

#include <stdint.h>

#include "perf/mem_src.h" /* the data sources of the samples, and their codes */

#define C2CSIM_MAGIC 0x4d495343u /* "CSIM" */
/*
 * 2: compact samples (C2CSIM_REC_CSAMPLE); 3: thinning (C2CSIM_REC_RATE, header hitm_rate);
 * 4: heap blocks (C2CSIM_REC_ALLOC, C2CSIM_REC_FREE)
 */
#define C2CSIM_VERSION 4
#define C2CSIM_MAX_CPUS 64
#define C2CSIM_MAX_NODES 8
#define C2CSIM_MAX_REC 4096

/*
 * The tool's defaults, which record --sim passes unless told otherwise:
 * one definition for both processes.
 */
#define C2CSIM_DEFAULT_CPUS 8
#define C2CSIM_DEFAULT_NODES 1
#define C2CSIM_DEFAULT_LINE_SIZE 64
#define C2CSIM_DEFAULT_SAMPLE_RATE 1000
#define C2CSIM_DEFAULT_SEED 1
#define C2CSIM_DEFAULT_LEAD 100000

enum c2csim_rec_type {
	C2CSIM_REC_HEADER = 1,
	C2CSIM_REC_THREAD = 2, /* a thread started or moved to another cpu */
	C2CSIM_REC_MMAP = 3, /* a client mapping (file, anonymous, heap) */
	C2CSIM_REC_SAMPLE = 4,
	C2CSIM_REC_STATS = 5, /* totals, written last */
	C2CSIM_REC_CSAMPLE = 6, /* a sample in 32 bytes (version 2) */
	C2CSIM_REC_RATE = 7, /* samples are thinned further from here on (version 3) */
	C2CSIM_REC_ALLOC = 8, /* a heap block was allocated (version 4) */
	C2CSIM_REC_FREE = 9, /* a heap block was freed (version 4) */
};

struct c2csim_rec {
	uint16_t type;
	uint16_t size;
	uint32_t tid; /* the thread the record is about (0: the process) */
};

/* Cycle model: the weight given to each class (simulated cycles). */
enum c2csim_cost {
	C2CSIM_COST_L1,
	C2CSIM_COST_LLC, /* a clean copy in a core of the same node */
	C2CSIM_COST_LHITM,
	C2CSIM_COST_RPEER, /* a clean copy on another node */
	C2CSIM_COST_RHITM,
	C2CSIM_COST_LDRAM,
	C2CSIM_COST_RDRAM,
	C2CSIM_NR_COSTS,
};

struct c2csim_header {
	struct c2csim_rec h;
	uint32_t magic;
	uint32_t version;
	uint32_t pid;
	uint32_t nr_cpus; /* cpu c sits on node c % nr_nodes */
	uint32_t nr_nodes;
	uint32_t line_size;
	uint32_t sample_rate;
	uint32_t lead; /* lead cap, instructions */
	uint64_t seed;
	uint32_t cost[C2CSIM_NR_COSTS];
	uint32_t hitm_rate; /* thinning at the start: 1 in N of all samples (0 in v2: 1) */
};

struct c2csim_thread {
	struct c2csim_rec h; /* h.tid: the thread's kernel tid */
	uint64_t time;
	uint32_t cpu;
	uint32_t node;
};

struct c2csim_mmap {
	struct c2csim_rec h; /* h.tid: the process id */
	uint64_t time;
	uint64_t start, len, pgoff, ino;
	uint32_t maj, min;
	uint32_t prot, flags;
	char filename[]; /* NUL-terminated, padded */
};

/*
 * Thinning. Past a budget of samples the tool keeps each sample it would
 * have written with probability 1/rate (seeded), and every sample's period
 * is multiplied by the rate: HITMs and store misses get period rate,
 * sampled accesses sample_rate * rate. When the budget fills again the rate
 * grows (by an integer factor k) and the tool writes this record; the
 * converter then keeps each sample already in its file with probability
 * 1/k and multiplies its period by k, so that every sample in the finished
 * file was kept with the same probability, 1/rate.
 */
struct c2csim_rate {
	struct c2csim_rec h;
	uint64_t time; /* the merge frontier: samples from here on use rate */
	uint32_t rate; /* the new rate, a multiple of the one before */
	uint32_t pad;
};

/*
 * Heap blocks (version 4). The tool replaces the program's allocator
 * (malloc, calloc, realloc, free, memalign, posix_memalign, aligned_alloc,
 * valloc, C++ new and delete): each block it hands out is an ALLOC record,
 * each block given back a FREE record; realloc is a FREE of the old block
 * and an ALLOC of the new one (the same kind). time is the thread's clock
 * at the call: a block's records are in the thread's order, not merged
 * with the samples (a sample of a block is later than its ALLOC in virtual
 * time, not necessarily in the stream).
 */
#define C2CSIM_ALLOC_FRAMES 6 /* at most this many frames of the allocating stack */

enum c2csim_alloc_kind {
	C2CSIM_ALLOC_MALLOC, /* malloc, valloc, memalign, posix_memalign, aligned_alloc */
	C2CSIM_ALLOC_CALLOC,
	C2CSIM_ALLOC_REALLOC,
	C2CSIM_ALLOC_NEW, /* operator new */
	C2CSIM_ALLOC_NEW_ARRAY, /* operator new[] */
	C2CSIM_NR_ALLOC_KINDS,
};

struct c2csim_alloc {
	struct c2csim_rec h; /* h.tid: the allocating thread */
	uint64_t time;
	uint64_t addr, size; /* the block: size as asked for (calloc: n * size) */
	uint32_t kind; /* enum c2csim_alloc_kind */
	uint32_t nr_frames; /* <= C2CSIM_ALLOC_FRAMES */
	/*
	 * The allocating stack, innermost first, starting at the allocator's
	 * caller: frames[0] is inside the call instruction to malloc (Valgrind
	 * gives return addresses minus 1), so it names the line of the call.
	 */
	uint64_t frames[];
};

struct c2csim_free {
	struct c2csim_rec h; /* h.tid: the freeing thread */
	uint64_t time;
	uint64_t addr;
};

enum c2csim_sample_flags {
	C2CSIM_SAMPLE_STORE = 1 << 0, /* else a load (atomics are loads) */
	C2CSIM_SAMPLE_LOCKED = 1 << 1,
	C2CSIM_SAMPLE_HITM = 1 << 2,
	C2CSIM_SAMPLE_REMOTE = 1 << 3,
};

struct c2csim_sample {
	struct c2csim_rec h; /* h.tid: kernel tid */
	uint64_t time;
	uint64_t ip; /* exact guest instruction address */
	uint64_t addr; /* data address */
	uint64_t data_src; /* perf_mem_data_src bits */
	uint32_t weight; /* simulated cycles */
	uint32_t period; /* HITM and store misses: the thinning rate, else sample rate * that */
	uint16_t cpu;
	uint16_t flags;
	uint32_t size; /* access size in bytes */
};
/* No padding: the tool fills every byte of a sample and does not zero it. */
_Static_assert(sizeof(struct c2csim_sample) == 56, "c2csim_sample has padding");

/*
 * A compact sample's code: what the reader derives data_src, weight and
 * period from. The low bits are the access (perf/mem_src.h: MEM_SRC_CODE_*,
 * its class, store and locked bits; mem_src_of_code() is its data source).
 */
/* sampled 1 in sample_rate, else period 1; times the thinning rate (mem_src_sim_period) */
#define C2CSIM_CODE_RATE 0x20u
#define C2CSIM_CSAMPLE_MAX_TIME ((1ULL << 48) - 1) /* later samples are struct c2csim_sample */

/*
 * Most of the stream is samples (every HITM and store miss): 32 bytes
 * instead of struct c2csim_sample's 56. The data_src bits come from
 * mem_src_of_code(code), the weight from the header's cycle model.
 */
struct c2csim_csample {
	struct c2csim_rec h; /* h.tid: kernel tid */
	uint64_t tcc; /* time << 16 | cpu << 8 | code */
	uint64_t ip;
	uint64_t addr;
};
_Static_assert(sizeof(struct c2csim_csample) == 32, "c2csim_csample has padding");

/* Totals over every simulated access (not only the sampled ones). */
enum c2csim_stat {
	C2CSIM_ST_LOADS,
	C2CSIM_ST_STORES,
	C2CSIM_ST_ATOMICS,
	C2CSIM_ST_L1_HIT,
	C2CSIM_ST_LCL_PEER,
	C2CSIM_ST_RMT_PEER,
	C2CSIM_ST_LCL_HITM,
	C2CSIM_ST_RMT_HITM,
	C2CSIM_ST_LCL_DRAM,
	C2CSIM_ST_RMT_DRAM,
	C2CSIM_ST_ST_HIT,
	C2CSIM_ST_ST_MISS,
	C2CSIM_ST_SAMPLES,
	C2CSIM_ST_STACK_SKIPPED, /* own-stack accesses not simulated */
	C2CSIM_ST_THREADS,
	C2CSIM_ST_INSNS, /* guest instructions, all threads */
	C2CSIM_ST_GAVE_UP, /* real-time fallbacks: the sum of the FB_ causes */
	/* Why real time decided (c2csim_sched.c), one count per fallback: */
	C2CSIM_ST_FB_HANG, /* the token holder stayed in a syscall past its allowance */
	C2CSIM_ST_FB_ABSENT, /* the token holder neither ran nor entered a syscall */
	C2CSIM_ST_FB_NOT_ASLEEP, /* a thread the model blocked never seen asleep */
	C2CSIM_ST_FB_WOKE, /* a blocked thread returned that nobody woke (timeout, signal) */
	C2CSIM_ST_FB_SWAPPED, /* the kernel woke another waiter than the model chose */
	C2CSIM_ST_FB_RAN_WAITING, /* entered client code while the model had it waiting */
	C2CSIM_ST_FB_EXIT, /* a thread's exit never finished in the kernel */
	C2CSIM_ST_FB_HANG_SYSNO, /* the syscall of the last FB_HANG, +1 (0: none) */
	C2CSIM_ST_ALLOCS, /* heap blocks allocated (version 4) */
	C2CSIM_ST_FREES, /* heap blocks freed */
	C2CSIM_NR_STATS,
};

struct c2csim_stats {
	struct c2csim_rec h;
	uint64_t v[C2CSIM_NR_STATS];
};

/* The cycle-model entry (enum c2csim_cost) of a class (enum mem_src_class). */
static inline uint32_t c2csim_class_cost(uint32_t cls)
{
	static const uint8_t cost[MEM_SRC_NR_CLASSES] = {
		[MEM_SRC_CLS_L1] = C2CSIM_COST_L1,
		[MEM_SRC_CLS_LCL_PEER] = C2CSIM_COST_LLC,
		[MEM_SRC_CLS_RMT_PEER] = C2CSIM_COST_RPEER,
		[MEM_SRC_CLS_LCL_HITM] = C2CSIM_COST_LHITM,
		[MEM_SRC_CLS_RMT_HITM] = C2CSIM_COST_RHITM,
		[MEM_SRC_CLS_LCL_DRAM] = C2CSIM_COST_LDRAM,
		[MEM_SRC_CLS_RMT_DRAM] = C2CSIM_COST_RDRAM,
	};

	return cost[cls < MEM_SRC_NR_CLASSES ? cls : 0];
}

/* enum c2csim_sample_flags of a code: what its data source says (perf 6.1's HITM). */
static inline uint32_t c2csim_code_flags(uint32_t code)
{
	uint64_t ds = mem_src_of_code(code);
	uint32_t f = 0;

	if (code & MEM_SRC_CODE_STORE)
		return C2CSIM_SAMPLE_STORE;
	if (code & MEM_SRC_CODE_LOCKED)
		f |= C2CSIM_SAMPLE_LOCKED;
	if (mem_src_is_hitm(ds, MEM_SRC_PERF61))
		f |= C2CSIM_SAMPLE_HITM;
	if (mem_src_decode(ds).remote)
		f |= C2CSIM_SAMPLE_REMOTE;
	return f;
}

#endif
