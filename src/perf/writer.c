// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data writer: file mode, host byte order, one id per event.
 *
 * Layout: file header (104 bytes), the events' ids, the attrs
 * (perf_event_attr of size 128 + the {offset,size} of its ids), the data,
 * then the feature table and the feature sections. The header is written
 * last, when the data size and the feature bits are known.
 *
 * What perf 6.1 needs so that `perf report`, `perf script` and
 * `perf c2c report` read our files without a word on stderr (checked
 * against tools/perf/builtin-c2c.c and util/header.c of 6.1, and by
 * tests/perf/writer_perf.sh, which runs them):
 * - perf c2c report matches NO event by name or attr: every sample of every
 *   event is classified from its data_src, addr, weight, cpu and phys_addr;
 *   EVENT_DESC names are only printed ("Events" in "c2c details"). perf's own
 *   `perf c2c record` uses "cpu/mem-loads,ldlat=30/P" (type PERF_TYPE_RAW
 *   on Intel, config 0x1cd, config1 = ldlat) and "cpu/mem-stores/P"
 *   (config 0x82d0), sample_type IP|TID|TIME|ADDR|ID|CPU|PERIOD|DATA_SRC|
 *   WEIGHT (+PHYS_ADDR with --phys-data); writing the same names keeps the
 *   report familiar but is not required.
 * - NUMA_TOPOLOGY and NRCPUS: setup_nodes() fails ("Failed setup nodes")
 *   without NUMA_TOPOLOGY; every cpu listed in a node and every sample's
 *   cpu must be < nr_cpus_avail (perf indexes bitmaps of that size with
 *   them, unchecked).
 * - MEM_TOPOLOGY: without it mem2node__init() warns "No memory nodes, is
 *   CONFIG_MEMORY_HOTPLUG enabled?". A sample with a non-zero phys_addr
 *   outside every memory node makes it warn "failed to find node". We
 *   always write one, by default node i covering its mem_total bytes after
 *   node i-1's.
 * - PERF_SAMPLE_CPU in every event, or c2c warns "no sample cpu value".
 * - Several events need the same id position in every sample and trailer:
 *   we add PERF_SAMPLE_IDENTIFIER to every event, and all events share
 *   sample_id_all.
 * - perf c2c report refuses pipe mode: the writer only writes files.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf/perf_data.h"
#include "perf/perf_format.h"
#include "perf/writer_int.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define WRITER_BUF_SIZE (256 * 1024)

/* sample_type bits the writer can fill from struct perf_sample */
#define WRITER_SAMPLE_MASK                                                                   \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |      \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |       \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | PERF_SAMPLE_WEIGHT | \
	 PERF_SAMPLE_READ | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |               \
	 PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_WEIGHT_STRUCT |        \
	 PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR |            \
	 PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE)

/*
 * Appends to the file, counting what reached it; a full disk or the file
 * size limit makes the writer full (writer_cut.c): 0 or the errno.
 */
int writer_write_all(struct perf_writer *w, const void *buf, size_t len)
{
	size_t done = 0;

	while (done < len && !w->werr) {
		ssize_t n = write(w->fd, (const char *)buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			w->werr = n < 0 ? errno : EIO;
		} else {
			done += n;
			w->disk_size += n;
		}
	}
	if ((w->werr == EFBIG || w->werr == ENOSPC || w->werr == EDQUOT) && !w->full) {
		w->full = w->werr;
		w->full_size = w->disk_size;
	}
	return w->werr;
}

/* Writes the buffered records; after a write error they are dropped. */
void writer_flush(struct perf_writer *w)
{
	writer_write_all(w, w->buf, w->buf_len);
	w->buf_len = 0;
	if (!w->werr) {
		writer_mark(w);
		writer_maybe_checkpoint(w);
	}
}

int writer_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pwrite(fd, (const char *)buf + done, len - done, off + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : EIO;
		done += n;
	}
	return 0;
}

/* Append a finished record (or any bytes) to the data section. */
void writer_emit(struct perf_writer *w, const void *data, size_t len)
{
	if (w->buf_len + len > WRITER_BUF_SIZE)
		writer_flush(w);
	if (len > WRITER_BUF_SIZE) {
		writer_write_all(w, data, len);
	} else {
		memcpy(w->buf + w->buf_len, data, len);
		w->buf_len += len;
	}
	w->data_size += len;
}

static void record_begin(struct strbuf *sb, uint32_t type, uint16_t misc)
{
	struct perf_event_header hdr = { .type = type, .misc = misc };

	strbuf_reset(sb);
	strbuf_add(sb, &hdr, sizeof(hdr));
}

static int record_end(struct perf_writer *w, struct strbuf *sb)
{
	struct perf_event_header *hdr = (void *)sb->buf;

	if (sb->len > UINT16_MAX)
		return -E2BIG;
	hdr->size = sb->len;
	writer_emit(w, sb->buf, sb->len);
	return w->werr ? -w->werr : 0;
}

/* sample_id_all trailer of a non-sample record, as event 0 describes it. */
static void put_id_trailer(struct perf_writer *w, struct strbuf *sb, uint32_t pid, uint32_t tid,
			   uint64_t time)
{
	uint64_t st = w->events[0].sample_type;

	if (st & PERF_SAMPLE_TID) {
		writer_put_u32(sb, pid);
		writer_put_u32(sb, tid);
	}
	if (st & PERF_SAMPLE_TIME)
		writer_put_u64(sb, time);
	if (st & PERF_SAMPLE_ID)
		writer_put_u64(sb, w->events[0].id);
	if (st & PERF_SAMPLE_STREAM_ID)
		writer_put_u64(sb, w->events[0].id);
	if (st & PERF_SAMPLE_CPU)
		writer_put_u64(sb, 0);
	if (st & PERF_SAMPLE_IDENTIFIER)
		writer_put_u64(sb, w->events[0].id);
}

static void writer_note_time(struct perf_writer *w, uint64_t time)
{
	if (!w->nr_timed || time < w->first_time)
		w->first_time = time;
	if (!w->nr_timed || time > w->last_time)
		w->last_time = time;
	w->nr_timed++;
}

static uint16_t cpumode_or_user(uint16_t cpumode)
{
	cpumode &= PERF_RECORD_MISC_CPUMODE_MASK;
	return cpumode ? cpumode : PERF_RECORD_MISC_USER;
}

int perf_writer_comm(struct perf_writer *w, const struct perf_comm *comm, uint64_t time)
{
	struct strbuf *sb = &w->rec;

	record_begin(sb, PERF_RECORD_COMM, comm->exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
	writer_put_u32(sb, comm->pid);
	writer_put_u32(sb, comm->tid);
	writer_put_padded_str(sb, comm->comm ? comm->comm : "", sizeof(uint64_t));
	put_id_trailer(w, sb, comm->pid, comm->tid, time);
	return record_end(w, sb);
}

int perf_writer_mmap2(struct perf_writer *w, const struct perf_mmap *m, uint64_t time)
{
	struct strbuf *sb = &w->rec;
	uint16_t misc = cpumode_or_user(m->cpumode);

	if (m->build_id_size > sizeof(m->build_id))
		return -EINVAL;
	if (m->build_id_size)
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	if (m->prot && !(m->prot & 4 /* PROT_EXEC */))
		misc |= PERF_RECORD_MISC_MMAP_DATA;
	record_begin(sb, PERF_RECORD_MMAP2, misc);
	writer_put_u32(sb, m->pid);
	writer_put_u32(sb, m->tid);
	writer_put_u64(sb, m->start);
	writer_put_u64(sb, m->len);
	writer_put_u64(sb, m->pgoff);
	if (m->build_id_size) {
		uint8_t bid[24] = { m->build_id_size };

		memcpy(bid + 4, m->build_id, m->build_id_size);
		strbuf_add(sb, bid, sizeof(bid));
	} else {
		writer_put_u32(sb, m->maj);
		writer_put_u32(sb, m->min);
		writer_put_u64(sb, m->ino);
		writer_put_u64(sb, m->ino_generation);
	}
	writer_put_u32(sb, m->prot);
	writer_put_u32(sb, m->flags);
	writer_put_padded_str(sb, m->filename ? m->filename : "", sizeof(uint64_t));
	put_id_trailer(w, sb, m->pid, m->tid, time);
	return record_end(w, sb);
}

/* The host kernel's _text and _etext, or x86-64's usual ones when hidden. */
static void read_kernel_text_range(uint64_t *start, uint64_t *end)
{
	unsigned long long addr;
	char line[512], type, name[256];
	FILE *f = fopen("/proc/kallsyms", "r");

	*start = 0;
	*end = 0;
	while (f && !*end && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			*start = addr;
		else if (!strcmp(name, "_etext"))
			*end = addr;
	}
	if (f)
		fclose(f);
	if (!*start || *end <= *start) {
		*start = 0xffffffff81000000ULL;
		*end = *start + 0x1000000;
	}
}

static uint64_t ktext_start, ktext_end;

static void read_ktext_once(void)
{
	read_kernel_text_range(&ktext_start, &ktext_end);
}

/* Read once per process: /proc/kallsyms is long (a writer opened per fuzz run). */
static void kernel_text_range(uint64_t *start, uint64_t *end)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, read_ktext_once);
	*start = ktext_start;
	*end = ktext_end;
}

/*
 * The kernel map perf record synthesizes first: without one, perf report
 * warns "Kernel address maps (/proc/{kallsyms,modules}) were restricted".
 */
static int write_kernel_mmap(struct perf_writer *w)
{
	struct strbuf *sb = &w->rec;
	uint64_t start, end;

	kernel_text_range(&start, &end);
	record_begin(sb, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
	writer_put_u32(sb, (uint32_t)-1);
	writer_put_u32(sb, 0);
	writer_put_u64(sb, start);
	writer_put_u64(sb, end - start);
	writer_put_u64(sb, start); /* pgoff: the address of _text, perf's ref_reloc_sym */
	writer_put_padded_str(sb, "[kernel.kallsyms]_text", sizeof(uint64_t));
	put_id_trailer(w, sb, (uint32_t)-1, 0, 0);
	return record_end(w, sb);
}

int perf_writer_task(struct perf_writer *w, bool is_fork, const struct perf_task *t)
{
	struct strbuf *sb = &w->rec;

	record_begin(sb, is_fork ? PERF_RECORD_FORK : PERF_RECORD_EXIT, 0);
	writer_put_u32(sb, t->pid);
	writer_put_u32(sb, t->ppid);
	writer_put_u32(sb, t->tid);
	writer_put_u32(sb, t->ptid);
	writer_put_u64(sb, t->time);
	put_id_trailer(w, sb, t->pid, t->tid, t->time);
	return record_end(w, sb);
}

int perf_writer_finished_round(struct perf_writer *w)
{
	struct strbuf *sb = &w->rec;
	int ret;

	record_begin(sb, PERF_REC_USER_FINISHED_ROUND, 0);
	ret = record_end(w, sb);
	if (!ret && w->ckpt_ms)
		writer_maybe_checkpoint(w); /* flushes first when one is due */
	return ret;
}

int perf_writer_lost(struct perf_writer *w, uint32_t attr_index, uint64_t lost, uint64_t time)
{
	struct strbuf *sb = &w->rec;

	if (attr_index >= w->nr_events)
		return -EINVAL;
	record_begin(sb, PERF_RECORD_LOST, 0);
	writer_put_u64(sb, w->events[attr_index].id);
	writer_put_u64(sb, lost);
	put_id_trailer(w, sb, 0, 0, time);
	return record_end(w, sb);
}

static void put_sample_head(struct strbuf *sb, const struct writer_event *e,
			    const struct perf_sample *s)
{
	uint64_t st = e->sample_type;

	if (st & PERF_SAMPLE_IDENTIFIER)
		writer_put_u64(sb, e->id);
	if (st & PERF_SAMPLE_IP)
		writer_put_u64(sb, s->ip);
	if (st & PERF_SAMPLE_TID) {
		writer_put_u32(sb, s->pid);
		writer_put_u32(sb, s->tid);
	}
	if (st & PERF_SAMPLE_TIME)
		writer_put_u64(sb, s->time);
	if (st & PERF_SAMPLE_ADDR)
		writer_put_u64(sb, s->addr);
	if (st & PERF_SAMPLE_ID)
		writer_put_u64(sb, e->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		writer_put_u64(sb, s->stream_id ? s->stream_id : e->id);
	if (st & PERF_SAMPLE_CPU) {
		writer_put_u32(sb, s->cpu);
		writer_put_u32(sb, 0);
	}
	if (st & PERF_SAMPLE_PERIOD)
		writer_put_u64(sb, s->period);
}

static void put_u64s(struct strbuf *sb, const uint64_t *v, uint64_t nr)
{
	if (nr)
		strbuf_add(sb, v, nr * sizeof(uint64_t));
}

/* REGS_*: the abi, then one value per mask bit unless the abi is NONE. */
static void put_regs(struct strbuf *sb, uint64_t abi, const uint64_t *regs, uint64_t mask)
{
	writer_put_u64(sb, abi);
	if (abi)
		put_u64s(sb, regs, __builtin_popcountll(mask));
}

/* READ, CALLCHAIN, RAW, BRANCH_STACK, in perf_event.h's order. */
static void put_sample_middle(struct strbuf *sb, const struct perf_writer_event *ev, uint64_t st,
			      const struct perf_sample *s)
{
	if (st & PERF_SAMPLE_READ)
		put_u64s(sb, s->read_words, s->nr_read_words);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		writer_put_u64(sb, s->nr_callchain);
		strbuf_add(sb, s->callchain, s->nr_callchain * sizeof(uint64_t));
	}
	if (st & PERF_SAMPLE_RAW) {
		/* u32 size + data, padded so that the pair ends u64-aligned */
		uint32_t size = (s->raw_size + 4 + 7) / 8 * 8 - 4;

		writer_put_u32(sb, size);
		strbuf_add(sb, s->raw, s->raw_size);
		strbuf_addchars(sb, 0, size - s->raw_size);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		writer_put_u64(sb, s->nr_branches);
		if (ev->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			writer_put_u64(sb, s->branch_hw_idx);
		put_u64s(sb, s->branches, s->nr_branches * 3);
	}
}

static void put_sample_tail(struct strbuf *sb, const struct perf_writer_event *ev, uint64_t st,
			    const struct perf_sample *s)
{
	if (st & PERF_SAMPLE_REGS_USER)
		put_regs(sb, s->regs_user_abi, s->regs_user, ev->sample_regs_user);
	if (st & PERF_SAMPLE_STACK_USER) {
		writer_put_u64(sb, s->stack_user_size);
		if (s->stack_user_size) {
			strbuf_add(sb, s->stack_user, s->stack_user_size);
			writer_put_u64(sb, s->stack_user_dyn_size);
		}
	}
	if (st & PERF_SAMPLE_WEIGHT_STRUCT)
		writer_put_u64(sb, (s->weight & 0xffffffffULL) | (uint64_t)s->weight_var2 << 32 |
					   (uint64_t)s->weight_var3 << 48);
	else if (st & PERF_SAMPLE_WEIGHT)
		writer_put_u64(sb, s->weight);
	if (st & PERF_SAMPLE_DATA_SRC)
		writer_put_u64(sb, s->data_src);
	if (st & PERF_SAMPLE_TRANSACTION)
		writer_put_u64(sb, s->transaction);
	if (st & PERF_SAMPLE_REGS_INTR)
		put_regs(sb, s->regs_intr_abi, s->regs_intr, ev->sample_regs_intr);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		writer_put_u64(sb, s->phys_addr);
	if (st & PERF_SAMPLE_CGROUP)
		writer_put_u64(sb, s->cgroup);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		writer_put_u64(sb, s->data_page_size);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		writer_put_u64(sb, s->code_page_size);
}

/* Every array the sample_type asks for is there (or empty). */
static bool sample_arrays_ok(const struct perf_writer_event *ev, uint64_t st,
			     const struct perf_sample *s)
{
	if ((s->callchain == NULL && s->nr_callchain) || (s->raw == NULL && s->raw_size))
		return false;
	if ((st & PERF_SAMPLE_READ) && (!s->read_words || !s->nr_read_words))
		return false;
	if ((st & PERF_SAMPLE_BRANCH_STACK) && !s->branches && s->nr_branches)
		return false;
	if ((st & PERF_SAMPLE_REGS_USER) && s->regs_user_abi && ev->sample_regs_user &&
	    !s->regs_user)
		return false;
	if ((st & PERF_SAMPLE_REGS_INTR) && s->regs_intr_abi && ev->sample_regs_intr &&
	    !s->regs_intr)
		return false;
	if ((st & PERF_SAMPLE_STACK_USER) &&
	    (s->stack_user_size % 8 || (s->stack_user_size && !s->stack_user)))
		return false;
	return true;
}

/* sample_type bits of fixed size, which the fast path writes */
#define FIXED_SAMPLE_BITS                                                               \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |  \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT |          \
	 PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR |       \
	 PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE)
#define FIXED_SAMPLE_MAX (8 + 18 * 8)

static inline uint8_t *put8(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
	return p + 8;
}

static inline uint8_t *put4x2(uint8_t *p, uint32_t a, uint32_t b)
{
	memcpy(p, &a, 4);
	memcpy(p + 4, &b, 4);
	return p + 8;
}

static uint8_t *put_fixed_tail(uint8_t *p, uint64_t st, const struct perf_sample *s)
{
	if (st & PERF_SAMPLE_WEIGHT_STRUCT)
		p = put8(p, (s->weight & 0xffffffffULL) | (uint64_t)s->weight_var2 << 32 |
				    (uint64_t)s->weight_var3 << 48);
	else if (st & PERF_SAMPLE_WEIGHT)
		p = put8(p, s->weight);
	if (st & PERF_SAMPLE_DATA_SRC)
		p = put8(p, s->data_src);
	if (st & PERF_SAMPLE_TRANSACTION)
		p = put8(p, s->transaction);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		p = put8(p, s->phys_addr);
	if (st & PERF_SAMPLE_CGROUP)
		p = put8(p, s->cgroup);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		p = put8(p, s->data_page_size);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		p = put8(p, s->code_page_size);
	return p;
}

/*
 * The same bytes as the general path for a sample_type of fixed-size
 * fields only, built in place in the output buffer: no copy, no strbuf.
 */
static int write_fixed_sample(struct perf_writer *w, const struct writer_event *e,
			      const struct perf_sample *s)
{
	uint64_t st = e->sample_type;
	struct perf_event_header hdr = { .type = PERF_RECORD_SAMPLE };
	uint8_t *start, *p;

	if (w->buf_len + FIXED_SAMPLE_MAX > WRITER_BUF_SIZE)
		writer_flush(w);
	start = (uint8_t *)w->buf + w->buf_len;
	p = start + sizeof(hdr);
	if (st & PERF_SAMPLE_IDENTIFIER)
		p = put8(p, e->id);
	if (st & PERF_SAMPLE_IP)
		p = put8(p, s->ip);
	if (st & PERF_SAMPLE_TID)
		p = put4x2(p, s->pid, s->tid);
	if (st & PERF_SAMPLE_TIME)
		p = put8(p, s->time);
	if (st & PERF_SAMPLE_ADDR)
		p = put8(p, s->addr);
	if (st & PERF_SAMPLE_ID)
		p = put8(p, e->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		p = put8(p, s->stream_id ? s->stream_id : e->id);
	if (st & PERF_SAMPLE_CPU)
		p = put4x2(p, s->cpu, 0);
	if (st & PERF_SAMPLE_PERIOD)
		p = put8(p, s->period);
	p = put_fixed_tail(p, st, s);
	hdr.misc = cpumode_or_user(s->cpumode);
	hdr.size = p - start;
	memcpy(start, &hdr, sizeof(hdr));
	w->buf_len += hdr.size;
	w->data_size += hdr.size;
	if (st & PERF_SAMPLE_TIME)
		writer_note_time(w, s->time);
	w->nr_samples++;
	return w->werr ? -w->werr : 0;
}

int perf_writer_sample(struct perf_writer *w, const struct perf_sample *s)
{
	struct strbuf *sb = &w->rec;
	const struct writer_event *e;
	int ret;

	if (s->attr_index >= w->nr_events)
		return -EINVAL;
	e = &w->events[s->attr_index];
	if (!(e->sample_type & ~FIXED_SAMPLE_BITS))
		return write_fixed_sample(w, e, s);
	if (!sample_arrays_ok(&e->ev, e->sample_type, s))
		return -EINVAL;
	record_begin(sb, PERF_RECORD_SAMPLE, cpumode_or_user(s->cpumode));
	put_sample_head(sb, e, s);
	put_sample_middle(sb, &e->ev, e->sample_type, s);
	put_sample_tail(sb, &e->ev, e->sample_type, s);
	ret = record_end(w, sb);
	if (ret == -E2BIG)
		return ret;
	/* counted once emitted: a flush inside record_end marks what precedes it */
	if (e->sample_type & PERF_SAMPLE_TIME)
		writer_note_time(w, s->time);
	w->nr_samples++;
	return ret;
}

int perf_writer_build_id(struct perf_writer *w, const struct perf_build_id *bid)
{
	struct perf_build_id *copy;

	if (bid->size > sizeof(bid->id) || !bid->filename)
		return -EINVAL;
	w->build_ids = xgrow(w->build_ids, &w->alloc_build_ids, w->nr_build_ids + 1,
			     sizeof(*w->build_ids));
	copy = &w->build_ids[w->nr_build_ids++];
	*copy = *bid;
	copy->filename = xstrdup(bid->filename);
	return 0;
}

/* perf_event_attr of size 128, host order. */
static void fill_attr(uint8_t *attr, const struct writer_event *e, bool first)
{
	uint32_t size = PERF_ATTR_SIZE_WRITTEN;
	uint64_t flags = ATTR_FLAG_SAMPLE_ID_ALL;

	if (first)
		flags |= ATTR_FLAG_MMAP | ATTR_FLAG_COMM | ATTR_FLAG_TASK | ATTR_FLAG_MMAP2 |
			 ATTR_FLAG_COMM_EXEC | ATTR_FLAG_MMAP_DATA;
	if (e->ev.precise_level)
		flags |= (uint64_t)(e->ev.precise_level & 3) << ATTR_FLAG_PRECISE_SHIFT;
	else if (e->ev.precise_ip)
		flags |= 2ULL << ATTR_FLAG_PRECISE_SHIFT;
	if (e->ev.freq)
		flags |= ATTR_FLAG_FREQ;
	memcpy(attr + ATTR_OFF_TYPE, &e->ev.type, 4);
	memcpy(attr + ATTR_OFF_SIZE, &size, 4);
	memcpy(attr + ATTR_OFF_CONFIG, &e->ev.config, 8);
	memcpy(attr + ATTR_OFF_PERIOD, &e->ev.sample_period, 8);
	memcpy(attr + ATTR_OFF_SAMPLE_TYPE, &e->sample_type, 8);
	memcpy(attr + ATTR_OFF_FLAGS, &flags, 8);
	memcpy(attr + ATTR_OFF_CONFIG1, &e->ev.config1, 8);
	memcpy(attr + ATTR_OFF_CONFIG2, &e->ev.config2, 8);
	memcpy(attr + ATTR_OFF_READ_FORMAT, &e->ev.read_format, 8);
	memcpy(attr + ATTR_OFF_BRANCH_SAMPLE_TYPE, &e->ev.branch_sample_type, 8);
	memcpy(attr + ATTR_OFF_REGS_USER, &e->ev.sample_regs_user, 8);
	memcpy(attr + ATTR_OFF_STACK_USER, &e->ev.sample_stack_user, 4);
	memcpy(attr + ATTR_OFF_REGS_INTR, &e->ev.sample_regs_intr, 8);
}

/* ids, then the attrs pointing at them; sets attrs_offset and data_offset. */
static int write_attrs(struct perf_writer *w, struct err_msg *err)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t id_off = PERF_FILE_HEADER_SIZE;
	size_t i;
	int ret = 0;

	strbuf_addchars(&sb, 0, PERF_FILE_HEADER_SIZE);
	for (i = 0; i < w->nr_events; i++)
		writer_put_u64(&sb, w->events[i].id);
	w->attrs_offset = sb.len;
	w->attr_bytes = xcalloc(w->nr_events, PERF_ATTR_SIZE_WRITTEN);
	for (i = 0; i < w->nr_events; i++) {
		uint8_t *attr = w->attr_bytes + i * PERF_ATTR_SIZE_WRITTEN;

		fill_attr(attr, &w->events[i], i == 0);
		strbuf_add(&sb, attr, PERF_ATTR_SIZE_WRITTEN);
		writer_put_u64(&sb, id_off + i * sizeof(uint64_t));
		writer_put_u64(&sb, sizeof(uint64_t));
	}
	w->data_offset = sb.len;
	if (write(w->fd, sb.buf, sb.len) != (ssize_t)sb.len)
		ret = err_set(err, errno ? errno : EIO, "%s: cannot write header: %s", w->path,
			      strerror(errno ? errno : EIO));
	else /* readable (no samples) even if we are killed before a checkpoint */
		ret = writer_write_header(w, 0, (const uint64_t[4]){ 0 }, false);
	if (ret > 0)
		ret = err_set(err, ret, "%s: cannot write header: %s", w->path, strerror(ret));
	strbuf_release(&sb);
	return ret;
}

static int check_events(const char *path, const struct perf_writer_event *events, size_t nr,
			struct err_msg *err)
{
	size_t i;

	if (nr == 0)
		return err_set(err, EINVAL, "%s: no events to write", path);
	for (i = 0; i < nr; i++) {
		uint64_t bad = events[i].sample_type & ~WRITER_SAMPLE_MASK;

		if (bad)
			return err_set(
				err, EINVAL,
				"%s: event %zu: sample_type 0x%llx not supported by the writer",
				path, i, (unsigned long long)bad);
	}
	return 0;
}

static void *close_old(void *arg)
{
	close((int)(intptr_t)arg);
	return NULL;
}

/*
 * An existing file is replaced by a new one, not rewritten in place. Its
 * pages are freed when its last reference goes: for a 1 GB perf.data
 * ~0.2 s, and ext4 writes a file truncated on open back synchronously at
 * close (its "replace via truncate" rule), another ~0.2 s. So a regular
 * file with one link is unlinked while a descriptor keeps it, and that
 * descriptor is closed on a thread of its own. Anything else (a link, a
 * device, a fifo) is opened with O_TRUNC as before.
 */
static void discard_old(const char *path)
{
	pthread_t thread;
	struct stat st;
	int fd;

	if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 || !st.st_size)
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return;
	if (unlink(path) < 0 || pthread_create(&thread, NULL, close_old, (void *)(intptr_t)fd))
		close(fd);
	else
		pthread_detach(thread);
}

int perf_writer_open(const char *path, const struct perf_writer_event *events, size_t nr_events,
		     struct perf_writer **out, struct err_msg *err)
{
	struct perf_writer *w;
	size_t i;
	int ret;

	ret = check_events(path, events, nr_events, err);
	if (ret)
		return ret;
	signal(SIGXFSZ, SIG_IGN); /* a file size limit: EFBIG, and we cut (writer_cut.c) */
	w = xcalloc(1, sizeof(*w));
	w->ckpt_rec = UINT64_MAX;
	perf_writer_set_checkpoint(w, PERF_WRITER_CKPT_BYTES, PERF_WRITER_CKPT_MS);
	w->nr_marks = 1; /* marks[0]: the data's start, nothing before it */
	w->path = xstrdup(path);
	discard_old(path);
	w->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600); /* a cut reads back */
	if (w->fd < 0) {
		ret = err_set(err, errno, "%s: cannot create: %s", path, strerror(errno));
		free(w->path);
		free(w);
		return ret;
	}
	w->buf = xmalloc(WRITER_BUF_SIZE);
	w->nr_events = nr_events;
	w->events = xcalloc(nr_events, sizeof(*w->events));
	for (i = 0; i < nr_events; i++) {
		w->events[i].ev = events[i];
		w->events[i].ev.name = xstrdup(events[i].name ? events[i].name : "unknown");
		w->events[i].sample_type = events[i].sample_type | PERF_SAMPLE_IDENTIFIER;
		w->events[i].id = PERF_WRITER_ID_BASE + i;
	}
	strbuf_init(&w->rec, 256);
	ret = write_attrs(w, err);
	if (!ret && write_kernel_mmap(w))
		ret = err_set(err, w->werr, "%s: cannot write: %s", path, strerror(w->werr));
	if (ret) {
		perf_writer_abort(w);
		return ret;
	}
	*out = w;
	return 0;
}

void perf_writer_abort(struct perf_writer *w)
{
	size_t i;

	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	for (i = 0; i < w->nr_events; i++)
		free((char *)w->events[i].ev.name);
	for (i = 0; i < w->nr_build_ids; i++)
		free((char *)w->build_ids[i].filename);
	free(w->build_ids);
	writer_free_info(w);
	free(w->events);
	free(w->attr_bytes);
	strbuf_release(&w->rec);
	free(w->buf);
	free(w->path);
	free(w);
}
