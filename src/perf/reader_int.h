/* SPDX-License-Identifier: GPL-2.0 */
/* Reader internals shared by reader*.c. */
#ifndef C2C_PERF_READER_INT_H
#define C2C_PERF_READER_INT_H

#include <byteswap.h>
#include <stdint.h>
#include <string.h>

#include "perf/perf_data.h"
#include "util/hashmap.h"
#include "util/strbuf.h"

struct reader_attr {
	struct perf_attr_info info;
	uint64_t branch_sample_type;
	size_t fixed_size; /* bytes of its samples; SIZE_MAX when variable */
	char *name; /* owned; info.name points here */
	uint64_t *ids; /* owned; info.ids points here */
	size_t alloc_ids;
};

/* Bytes of a record or section, with the file offset of byte 0. */
struct cursor {
	const uint8_t *p;
	size_t len, pos;
	uint64_t off;
	bool swap;
	bool bad; /* ran past the end */
	uint64_t need; /* then: the bytes the read wanted at pos (UINT64_MAX: more) */
};

enum reader_words_slot { RW_CHAIN, RW_READ, RW_BRANCH, RW_REGS_USER, RW_REGS_INTR, RW_NR };

struct perf_reader {
	char *path;
	int fd;
	bool swap;
	bool stream; /* pipe mode: records come through read() */
	bool done;
	/* file mode: the whole file mapped, data in [pos, data_end) */
	const uint8_t *map;
	uint64_t map_size, data_off, data_end, pos;
	/*
	 * The data section is read through a window ([win_off, win_off +
	 * win_len) of the file) filled by pread: touching every page of a
	 * mapping costs a page fault and TLB misses per 4 KiB, several times
	 * the copy.
	 */
	uint8_t *win;
	uint64_t win_off;
	size_t win_len;
	uint64_t attr_size, attrs_off;
	uint64_t data_declared_end;
	size_t last_size; /* of the record handed out last (stream mode) */
	bool truncated; /* the header's data section runs past the end of the file */
	/* stream mode: buffer of bytes read, [buf_pos, buf_len) unread */
	uint8_t *buf;
	size_t buf_alloc, buf_pos, buf_len;
	bool eof;
	uint64_t stream_off; /* stream offset of buf[buf_pos] */
	/* records decompressed from COMPRESSED records, [z_pos, z_len) unread */
	uint8_t *zbuf;
	size_t z_alloc, z_pos, z_len;
	uint32_t comp_mmap_len; /* COMPRESSED feature: perf's bound on one record's output */
	uint64_t z_off; /* file offset of the COMPRESSED record they came from */
	void *zstd;
	/* one record copied out (byte-swapped, realigned or joined) */
	uint8_t *rec;
	size_t rec_alloc;
	/* u64 arrays of a sample, copied when swapped or unaligned */
	struct reader_words {
		uint64_t *v;
		size_t alloc;
	} words[5]; /* enum reader_words_slot */

	struct reader_attr *attrs;
	size_t nr_attrs, alloc_attrs;
	struct hashmap ids; /* id -> attr index + 1 */
	int id_pos, is_pos; /* of the first attr, in u64 words */
	/* ids looked up last (0: none) and their attrs, most recent first */
	uint64_t last_id[4];
	size_t last_idx[4];
	uint64_t nr_unknown_ids;

	struct perf_header_info hdr;
	struct perf_numa_node *numa;
	struct perf_build_id *build_ids;
	size_t alloc_build_ids;
	char **core_sib, **thread_sib;
	struct strbuf warnings;
	struct perf_reader_stats stats;
};

static inline uint16_t rd16(const void *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_16(v) : v;
}

static inline uint32_t rd32(const void *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_32(v) : v;
}

static inline uint64_t rd64(const void *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_64(v) : v;
}

/* Inline: they run for every field of every record. */
static inline void cursor_init(struct cursor *c, const void *p, size_t len, uint64_t off, bool swap)
{
	c->p = p;
	c->len = len;
	c->pos = 0;
	c->off = off;
	c->swap = swap;
	c->bad = false;
	c->need = 0;
}

/* Mark c bad: a read at pos wanted need bytes (the first such read counts). */
static inline void cursor_short(struct cursor *c, uint64_t need)
{
	if (!c->bad)
		c->need = need;
	c->bad = true;
}

/* a * b, or UINT64_MAX when that does not fit */
static inline uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static inline bool cursor_has(struct cursor *c, size_t n)
{
	if (c->bad || c->len - c->pos < n) {
		cursor_short(c, n);
		return false;
	}
	return true;
}

static inline const void *cursor_bytes(struct cursor *c, size_t n)
{
	const void *p;

	if (!cursor_has(c, n))
		return NULL;
	p = c->p + c->pos;
	c->pos += n;
	return p;
}

static inline uint32_t cursor_u32(struct cursor *c)
{
	const void *p = cursor_bytes(c, 4);

	return p ? rd32(p, c->swap) : 0;
}

static inline uint64_t cursor_u64(struct cursor *c)
{
	const void *p = cursor_bytes(c, 8);

	return p ? rd64(p, c->swap) : 0;
}

/* perf's string: u32 length, then that many bytes holding a NUL. */
char *reader_cursor_string(struct cursor *c);
uint64_t reader_cursor_offset(const struct cursor *c);

void reader_warn(struct perf_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* attrs (reader_attr.c) */
int reader_add_attr(struct perf_reader *r, const uint8_t *attr, size_t avail, uint64_t off,
		    struct err_msg *err);
void reader_add_id(struct perf_reader *r, size_t attr_index, uint64_t id);
void reader_attrs_done(struct perf_reader *r);
/* Bytes of every sample of this sample_type; SIZE_MAX when they vary. */
size_t reader_sample_fixed_size(uint64_t sample_type);
void reader_free_attrs(struct perf_reader *r);

/* samples and sample_id_all trailers (reader_sample.c) */
int reader_parse_sample(struct perf_reader *r, struct cursor *c, struct perf_event_rec *ev,
			struct err_msg *err);
/* Parses the trailer off the end of c (shrinking c->len). */
int reader_parse_trailer(struct perf_reader *r, struct cursor *c, struct perf_event_rec *ev,
			 struct err_msg *err);

/* feature sections (reader_features.c); damage there is only a warning */
void reader_parse_feature(struct perf_reader *r, int feat, struct cursor *c);
void reader_free_features(struct perf_reader *r);

/* non-sample records (reader_records.c) */
int reader_decode(struct perf_reader *r, const uint8_t *rec, size_t size, uint64_t off,
		  struct perf_event_rec *ev, struct err_msg *err);

/* stream mode (reader_next.c) */
int reader_stream_open(struct perf_reader *r, struct err_msg *err);
/* Make n bytes available at buf + buf_pos; false at the end of the stream. */
bool reader_stream_fill(struct perf_reader *r, size_t n);

/* COMPRESSED records (reader_zstd.c) */
int reader_decompress(struct perf_reader *r, const uint8_t *data, size_t len, uint64_t off,
		      struct err_msg *err);
void reader_zstd_free(struct perf_reader *r);

#endif
