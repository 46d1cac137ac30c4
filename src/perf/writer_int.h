/* SPDX-License-Identifier: GPL-2.0 */
/* Writer internals shared by writer.c and writer_features.c. */
#ifndef C2C_PERF_WRITER_INT_H
#define C2C_PERF_WRITER_INT_H

#include <stdint.h>
#include <string.h>

#include "perf/perf_data.h"
#include "util/strbuf.h"

struct writer_event {
	struct perf_writer_event ev; /* name owned */
	uint64_t sample_type; /* as written: ev.sample_type | IDENTIFIER */
	uint64_t id;
};

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
/* Feature table and sections after the data; sets bits in feat_bits. */
int writer_write_features(struct perf_writer *w, const struct perf_writer_info *info,
			  uint64_t feat_bits[4]);

#endif
