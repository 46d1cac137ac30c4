/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data in and out. The reader streams events from a file (its data
 * section read through a small window) or a pipe; the writer produces
 * file-mode perf.data that perf 6.1 reads.
 * This header is the module's public face: the c2c model, the simulator's
 * recorder and the PMU recorder all speak these structures.
 *
 * Contract (agreed between modules; extend, do not change meanings):
 * - Functions return 0 (or 1 for "got one") or a negative errno and fill
 *   struct err_msg with "FILE: at 0xOFFSET: what was expected".
 * - Strings and arrays inside a struct perf_event_rec stay valid until the
 *   next perf_reader_next() call.
 */
#ifndef C2C_PERF_PERF_DATA_H
#define C2C_PERF_PERF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h> /* PERF_SAMPLE_*, PERF_MEM_*, PERF_RECORD_* */

#include "util/err.h"

/* One decoded PERF_RECORD_SAMPLE. Fields absent from sample_type are 0. */
struct perf_sample {
	uint32_t attr_index; /* which event (index into the reader's attrs) */
	uint16_t cpumode; /* misc & PERF_RECORD_MISC_CPUMODE_MASK */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr; /* data address (PERF_SAMPLE_ADDR) */
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
	uint64_t period; /* PERIOD, else the attr's fixed sample_period (as perf) */
	uint64_t weight; /* WEIGHT, or WEIGHT_STRUCT's var1_dw */
	uint16_t weight_var2; /* WEIGHT_STRUCT var2_w (instruction latency) */
	uint16_t weight_var3; /* WEIGHT_STRUCT var3_w */
	uint64_t data_src;
	uint64_t transaction;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	uint64_t nr_callchain;
	const uint64_t *callchain;
	uint32_t raw_size;
	const void *raw;
	uint64_t sample_type; /* of its attr, for "was this field present" */
	/*
	 * The variable-size fields c2c does not need, in host order (the
	 * reader's buffers when the file is swapped; valid until the next
	 * record). READ: the perf_event_read_format words as the attr's
	 * read_format lays them out.
	 */
	uint64_t nr_read_words;
	const uint64_t *read_words;
	/* BRANCH_STACK: {from, to, flags} per entry; hw_idx when the attr's
	 * branch_sample_type has PERF_SAMPLE_BRANCH_HW_INDEX */
	uint64_t nr_branches;
	uint64_t branch_hw_idx;
	const uint64_t *branches;
	/* REGS_USER, REGS_INTR: abi (0: none, no values) and one value per mask bit */
	uint64_t regs_user_abi, regs_intr_abi;
	const uint64_t *regs_user, *regs_intr;
	/* STACK_USER: size bytes copied, dyn_size of them live */
	uint64_t stack_user_size, stack_user_dyn_size;
	const void *stack_user;
};

struct perf_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	bool is_mmap2;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	uint8_t build_id[20];
	uint8_t build_id_size; /* 0 unless MMAP2 carried a build id */
	const char *filename;
	uint16_t cpumode;
};

struct perf_comm {
	uint32_t pid, tid;
	const char *comm;
	bool exec;
};

struct perf_task { /* FORK and EXIT */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct perf_lost {
	uint64_t id;
	uint64_t lost;
};

enum perf_rec_kind {
	PERF_REC_SAMPLE,
	PERF_REC_MMAP, /* MMAP and MMAP2 */
	PERF_REC_COMM,
	PERF_REC_FORK,
	PERF_REC_EXIT,
	PERF_REC_LOST,
	PERF_REC_LOST_SAMPLES,
	PERF_REC_THROTTLE,
	PERF_REC_UNTHROTTLE,
	PERF_REC_FINISHED_ROUND,
	PERF_REC_OTHER, /* understood and skipped (or unknown and counted) */
};

struct perf_event_rec {
	enum perf_rec_kind kind;
	uint32_t type; /* the raw record type */
	uint64_t file_offset;
	/* sample_id_all trailer of non-sample records (0 when absent) */
	uint32_t pid, tid, cpu;
	uint64_t time;
	union {
		struct perf_sample sample;
		struct perf_mmap mmap;
		struct perf_comm comm;
		struct perf_task task;
		struct perf_lost lost;
	};
};

/* One event (perf_event_attr + its name from EVENT_DESC). */
struct perf_attr_info {
	uint32_t type;
	uint64_t config, config1, config2;
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t sample_period; /* or frequency when freq */
	bool freq;
	bool sample_id_all;
	bool precise_ip;
	uint64_t sample_regs_user, sample_regs_intr;
	uint32_t sample_stack_user;
	const char *name; /* EVENT_DESC name, or NULL */
	size_t nr_ids;
	const uint64_t *ids;
};

struct perf_numa_node {
	uint32_t node;
	uint64_t mem_total, mem_free;
	const char *cpus; /* "0-3,8" */
};

struct perf_build_id {
	int32_t pid;
	uint8_t id[20];
	uint8_t size;
	const char *filename;
};

struct perf_mem_range {
	uint64_t start, end; /* [start, end) physical */
	uint32_t node;
};

/*
 * The most cpus and NUMA nodes a file may claim: Linux allows 8192 cpus
 * (x86 MAXSMP) and 1024 nodes; beyond these limits an NRCPUS or
 * NUMA_TOPOLOGY feature is damaged (the model sizes per-cpu and per-node
 * sets from them).
 */
#define PERF_MAX_CPUS 65536
#define PERF_MAX_NODES 4096

/* Feature sections; NULL / 0 when the file lacks them. */
struct perf_header_info {
	bool pipe_mode;
	bool needs_swap;
	const char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid, *cmdline;
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint64_t total_mem;
	size_t nr_numa_nodes;
	const struct perf_numa_node *numa_nodes;
	size_t nr_build_ids;
	const struct perf_build_id *build_ids;
	uint64_t clockid; /* CLOCKID feature; clockid_set tells presence */
	bool clockid_set;
	/* CPU_TOPOLOGY sibling lists */
	size_t nr_core_siblings;
	const char *const *core_siblings;
	size_t nr_thread_siblings;
	const char *const *thread_siblings;
	/* extensions */
	uint64_t features[4]; /* bitmap of the feature sections present */
	const char *const *cmdline_argv; /* nr_cmdline strings */
	size_t nr_cmdline;
	uint64_t first_sample_time, last_sample_time; /* SAMPLE_TIME, 0 when absent */
	/* MEM_TOPOLOGY as merged physical ranges, ascending: phys addr -> node */
	uint64_t mem_block_size;
	size_t nr_mem_ranges;
	const struct perf_mem_range *mem_ranges;
	uint32_t comp_type, comp_level; /* COMPRESSED feature (1 = zstd) */
	/* TRACING_DATA feature as written (perf's trace-event-info blob) */
	const void *tracing_data;
	size_t tracing_data_size;
	/* c2cscope's heap blocks (PERF_FEAT_C2C_HEAP_BLOCKS, src/heap/heap.h), when size != 0 */
	const void *heap_blocks;
	size_t heap_blocks_size;
	bool unclosed; /* a writer's checkpoint header: the recorder never closed it */
};

struct perf_reader_stats {
	uint64_t records;
	uint64_t samples;
	uint64_t unknown_records; /* types we do not know, skipped */
	uint64_t lost; /* sum of LOST records */
	uint64_t lost_samples;
	uint64_t bytes; /* data bytes read */
	uint64_t unknown_ids; /* samples whose id matched no event, skipped */
	uint64_t compressed; /* COMPRESSED records unpacked */
};

struct perf_reader;

/* path "-" reads a pipe-mode stream from stdin. */
int perf_reader_open(const char *path, struct perf_reader **out, struct err_msg *err);
/*
 * 1 with *ev filled, 0 at the end, negative on damage. After damage the
 * reader stops; perf_reader_warning() says where and how much was read, so
 * callers can warn and go on with what they have.
 */
int perf_reader_next(struct perf_reader *r, struct perf_event_rec *ev, struct err_msg *err);
/*
 * One kernel side-band record as a ring holds it (native byte order, the
 * header first, size bytes, a sample_id_all trailer allowed after the
 * body): MMAP, MMAP2, COMM, FORK, EXIT, LOST, LOST_SAMPLES, THROTTLE,
 * UNTHROTTLE into *ev (strings point into rec), decoded by the reader's
 * own decoder; any other type (samples included: their layout is the
 * event's) is PERF_REC_OTHER. -EINVAL for a record too short for its body
 * or a string without its NUL.
 */
int perf_decode_record(const void *rec, size_t size, struct perf_event_rec *ev);
/*
 * A sample as a ring holds it (native byte order, header first), of
 * sample_type, by the reader's field parsers: the fixed fields, RAW,
 * WEIGHT, DATA_SRC, TRANSACTION, PHYS_ADDR and the page sizes (pointers
 * into rec). -ENOTSUP for sample types with READ, CALLCHAIN, branch,
 * register, stack or AUX fields (their layout needs the event's attr),
 * -EINVAL for a sample shorter than its fields.
 */
int perf_decode_sample(const void *rec, size_t size, uint64_t sample_type, struct perf_sample *s);
const struct perf_header_info *perf_reader_header(const struct perf_reader *r);
size_t perf_reader_nr_attrs(const struct perf_reader *r);
const struct perf_attr_info *perf_reader_attr(const struct perf_reader *r, size_t i);
const struct perf_reader_stats *perf_reader_stats(const struct perf_reader *r);
/* Total data bytes (0 in pipe mode) and bytes consumed, for progress. */
uint64_t perf_reader_data_size(const struct perf_reader *r);
/* Non-fatal problems met so far, one per line ("" when none). */
const char *perf_reader_warnings(const struct perf_reader *r);
void perf_reader_close(struct perf_reader *r);

/* --- Writer ----------------------------------------------------------- */

struct perf_writer;

struct perf_writer_event {
	uint32_t type; /* PERF_TYPE_* */
	uint64_t config, config1, config2;
	uint64_t sample_type; /* which perf_sample fields are written */
	uint64_t sample_period; /* or the frequency when freq */
	bool precise_ip; /* written as precise_ip 2, unless precise_level says */
	uint8_t precise_level; /* 1-3: the precise_ip the event was opened with */
	bool freq;
	const char *name; /* EVENT_DESC */
	/* for READ, BRANCH_STACK, REGS_USER/INTR and STACK_USER samples */
	uint64_t read_format, branch_sample_type;
	uint64_t sample_regs_user, sample_regs_intr;
	uint32_t sample_stack_user;
};

struct perf_writer_info {
	const char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	const char *const *cmdline; /* NULL-terminated argv */
	uint32_t nr_cpus_avail, nr_cpus_online;
	size_t nr_numa_nodes;
	const struct perf_numa_node *numa_nodes;
	/* TRACING_DATA feature (perf's trace-event-info blob), when size != 0 */
	const void *tracing_data;
	size_t tracing_data_size;
	/* CPU_TOPOLOGY feature as perf lays it out, when size != 0 */
	const void *cpu_topology;
	size_t cpu_topology_size;
	/* c2cscope's heap blocks (PERF_FEAT_C2C_HEAP_BLOCKS), when size != 0 */
	const void *heap_blocks;
	size_t heap_blocks_size;
};

/*
 * Writer rules (see writer.c for what perf c2c report needs):
 * - Every event gets one id and PERF_SAMPLE_IDENTIFIER; sample->id is
 *   ignored. sample_type may hold IDENTIFIER, IP, TID, TIME, ADDR, ID,
 *   STREAM_ID, CPU, PERIOD, READ, CALLCHAIN, RAW, BRANCH_STACK, REGS_USER,
 *   STACK_USER, WEIGHT or WEIGHT_STRUCT, DATA_SRC, TRANSACTION, REGS_INTR,
 *   PHYS_ADDR, CGROUP, DATA/CODE_PAGE_SIZE. READ words, branch entries,
 *   register values (popcount of the event's mask when abi != 0) and the
 *   user stack come from the sample as the reader returns them.
 * - cpumode 0 in a sample or mmap is written as PERF_RECORD_MISC_USER.
 * - Sample cpus must be < nr_cpus_avail (perf c2c indexes bitmaps with them).
 * - Data addresses outside every MMAP2 are counted by perf c2c as
 *   "No Page Map Rejects"; map the heap/data regions to avoid that.
 * - open writes the host kernel's map ([kernel.kallsyms]_text) first, as
 *   perf record does; info may be NULL: uname/sysconf give the defaults and
 *   one NUMA node holds all cpus.
 */
/* The id of event i (for READ values with PERF_FORMAT_ID). */
#define PERF_WRITER_ID_BASE 1000

int perf_writer_open(const char *path, const struct perf_writer_event *events, size_t nr_events,
		     struct perf_writer **out, struct err_msg *err);
int perf_writer_comm(struct perf_writer *w, const struct perf_comm *comm, uint64_t time);
int perf_writer_mmap2(struct perf_writer *w, const struct perf_mmap *mmap, uint64_t time);
int perf_writer_task(struct perf_writer *w, bool is_fork, const struct perf_task *task);
/* sample->attr_index selects the event; fields outside its sample_type are ignored. */
int perf_writer_sample(struct perf_writer *w, const struct perf_sample *sample);
/*
 * Remembers a build id for the BUILD_ID feature. perf reads the pid there as
 * a machine id, so the writer always writes -1 (the host) and marks the
 * entry kernel when the name starts with "[kernel" or ends in ".ko".
 */
int perf_writer_build_id(struct perf_writer *w, const struct perf_build_id *bid);
/*
 * A FINISHED_ROUND record: tells perf that every record after it is later
 * than every record before it (perf sorts by time within rounds). Optional:
 * close writes one; callers that write in time order may call it every few
 * thousand samples to bound perf's memory.
 */
int perf_writer_finished_round(struct perf_writer *w);
/* A LOST record: the kernel dropped lost samples of event attr_index. */
int perf_writer_lost(struct perf_writer *w, uint32_t attr_index, uint64_t lost, uint64_t time);
/* Writes FINISHED_ROUND, the features and the header; frees w. */
int perf_writer_close(struct perf_writer *w, const struct perf_writer_info *info,
		      struct err_msg *err);

/*
 * Thinning what was written so far (writer_thin.c): keep(ctx, attr_index,
 * period) is called for every sample in file order; the sample is dropped
 * when it returns false, else written back with *period (NULL when the
 * event has no PERF_SAMPLE_PERIOD), which it may change. Other records stay
 * as they are, in order. Returns the number of samples kept, or -errno.
 * The checkpoints inside the data are dropped and one is written at the
 * new end (when checkpoints are on); the cut's counts follow the thinned
 * data. -EFBIG/-ENOSPC/-EDQUOT: the writer is full (now or before), and
 * finish cuts the file to the whole thinned records written.
 */
typedef bool (*perf_writer_keep_fn)(void *ctx, size_t attr_index, uint64_t *period);
int64_t perf_writer_thin(struct perf_writer *w, perf_writer_keep_fn keep, void *ctx);
/* The file's size so far, without the features and header written at close. */
uint64_t perf_writer_size(const struct perf_writer *w);

/* Closes and frees w without finishing the file (after an error). */
void perf_writer_abort(struct perf_writer *w);

/*
 * No data lost (see writer_cut.c):
 * - open ignores SIGXFSZ for the whole process, so that a file-size limit
 *   (ulimit -f) gives EFBIG instead of killing the recorder;
 * - after EFBIG or ENOSPC every later record is counted and dropped (the
 *   calls return that -errno); finish cuts the data back to the last whole
 *   record that leaves room for the features, writes them and the header,
 *   and returns -EFBIG / -ENOSPC with the file readable and res->cut set;
 * - checkpoints: every ckpt_bytes of data or ckpt_ms milliseconds (checked
 *   when the buffer is flushed and at each FINISHED_ROUND) the features so
 *   far and a header are written, so that a recorder killed by SIGKILL,
 *   OOM or power loss leaves a file readable up to its last checkpoint.
 *   Such a header carries PERF_WRITER_UNCLOSED_MAGIC in the event_types
 *   offset (a field perf ignores); close clears it. The checkpoint's
 *   feature table lives in the data section inside a FINISHED_INIT record
 *   (which perf skips), so it stays valid while more data follows.
 */
#define PERF_WRITER_UNCLOSED_MAGIC 0x54504b4343324343ULL /* "CC2CCKPT" */
#define PERF_WRITER_CKPT_BYTES (64ULL << 20)
#define PERF_WRITER_CKPT_MS 10000

struct perf_writer_result {
	uint64_t samples, bytes; /* samples and data bytes in the file */
	uint64_t dropped_samples, dropped_bytes; /* given but cut away */
	uint64_t checkpoints;
	int cut; /* 0, or EFBIG / ENOSPC: the data was cut back, the file is readable */
};

/* Checkpoint every bytes of data or ms milliseconds; 0 turns that trigger off. */
void perf_writer_set_checkpoint(struct perf_writer *w, uint64_t bytes, uint64_t ms);
/* The info checkpoints write (copied); without it they use open's defaults. */
void perf_writer_set_info(struct perf_writer *w, const struct perf_writer_info *info);
/* perf_writer_close, filling res (may be NULL) with what the file holds. */
int perf_writer_finish(struct perf_writer *w, const struct perf_writer_info *info,
		       struct perf_writer_result *res, struct err_msg *err);

/*
 * The GNU build id of an ELF file (its NT_GNU_BUILD_ID note): 0 with id and
 * *size filled, -ENOENT when the file has none, other -errno on errors.
 */
int perf_build_id_of_file(const char *path, uint8_t id[20], uint8_t *size, struct err_msg *err);

/*
 * A perf_event_open ring buffer, mapped read-write (the reader moves
 * data_tail). perf_ring_map maps pages data pages (a power of 2) of fd;
 * with shrink, it halves them while the locked-memory limit refuses (down
 * to 8). perf_ring_drain calls fn on every whole record from tail to head
 * (a wrapped one made contiguous), then moves tail to head: it returns the
 * first non-zero fn return; a damaged record drops the rest of the batch.
 * bytes, when given, grows by what was consumed.
 */
struct perf_ring {
	void *base; /* the control page; data follows */
	size_t data_size; /* a power of 2 */
	uint8_t *copy; /* a record that wraps the end, made contiguous */
	size_t copy_size;
};
typedef int (*perf_ring_fn)(void *ctx, const struct perf_event_header *h);
int perf_ring_map(struct perf_ring *r, int fd, size_t pages, bool shrink, struct err_msg *err);
void perf_ring_unmap(struct perf_ring *r);
int perf_ring_drain(struct perf_ring *r, perf_ring_fn fn, void *ctx, uint64_t *bytes);

#endif
