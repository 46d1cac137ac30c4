/* SPDX-License-Identifier: GPL-2.0 */
/* Writer internals shared by writer.c, writer_features.c, writer_cut.c and writer_thin.c. */
#ifndef C2C_PERF_WRITER_INT_H
#define C2C_PERF_WRITER_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "perf/perf_data.h"
#include "util/strbuf.h"

struct writer_event {
	struct perf_writer_event ev; /* name owned */
	uint64_t sample_type; /* as written: ev.sample_type | IDENTIFIER */
	uint64_t id;
};

/* A record boundary in the data and the counts of the records before it. */
struct writer_mark {
	uint64_t off, samples, timed, first_time, last_time;
};

#define WRITER_MARKS 16 /* the last flushes' boundaries, for a cut */

struct perf_writer {
	int fd;
	int werr; /* first write error (positive errno) */
	char *path;
	struct writer_event *events;
	size_t nr_events;
	uint8_t *attr_bytes; /* nr_events attrs as written */
	uint64_t attrs_offset, data_offset, data_size;
	char *buf;
	size_t buf_len;
	struct strbuf rec; /* the record being built */
	struct perf_build_id *build_ids;
	size_t nr_build_ids, alloc_build_ids;
	uint64_t nr_samples, nr_timed, first_time, last_time;
	/* no data lost (writer_cut.c) */
	uint64_t disk_size; /* data bytes written to the file */
	struct writer_mark marks[WRITER_MARKS];
	uint64_t nr_marks; /* marks[(nr_marks - 1) % WRITER_MARKS] is the latest */
	int full; /* EFBIG or ENOSPC: later records are dropped */
	uint64_t full_size; /* data bytes on disk when it filled */
	uint64_t ckpt_bytes, ckpt_ms, next_ckpt_size, next_ckpt_ms;
	uint64_t ckpt_rec; /* data offset of the last checkpoint's record, or ~0 */
	uint32_t ckpt_len; /* its bytes after the record header */
	uint64_t nr_ckpts;
	bool in_ckpt;
	struct perf_writer_info *info; /* perf_writer_set_info's copy */
	struct strbuf info_strs;
};

void writer_emit(struct perf_writer *w, const void *data, size_t len);
static inline void writer_put_u64(struct strbuf *sb, uint64_t v)
{
	strbuf_add(sb, &v, sizeof(v));
}

static inline void writer_put_u32(struct strbuf *sb, uint32_t v)
{
	strbuf_add(sb, &v, sizeof(v));
}

/* NUL-terminated and zero-padded to a multiple of align. */
static inline void writer_put_padded_str(struct strbuf *sb, const char *s, size_t align)
{
	size_t len = strlen(s) + 1;
	size_t padded = (len + align - 1) / align * align;

	strbuf_add(sb, s, len);
	strbuf_addchars(sb, 0, padded - len);
}
/*
 * The feature table and sections for a table at file offset base, into
 * out; sets bits in feat_bits.
 */
void writer_build_features(struct perf_writer *w, const struct perf_writer_info *info,
			   uint64_t base, struct strbuf *out, uint64_t feat_bits[4]);
int writer_write_header(struct perf_writer *w, uint64_t data_size, const uint64_t *feat_bits,
			bool closed);
int writer_pwrite(int fd, const void *buf, size_t len, uint64_t off);
void writer_flush(struct perf_writer *w);
int writer_write_all(struct perf_writer *w, const void *buf, size_t len);
/* writer_cut.c */
void writer_mark(struct perf_writer *w);
void writer_maybe_checkpoint(struct perf_writer *w);
/* A checkpoint now, at the end of the data (the buffer is empty). */
void writer_checkpoint(struct perf_writer *w);
/* Adds a record to the counts of m (samples, timed, first and last time). */
void writer_count_record(const struct perf_writer *w, struct writer_mark *m, const uint8_t *rec,
			 size_t size);
int writer_seal_checkpoint(struct perf_writer *w);
int writer_cut(struct perf_writer *w, const struct perf_writer_info *info,
	       struct perf_writer_result *res, struct err_msg *err);
void writer_free_info(struct perf_writer *w);

#endif
