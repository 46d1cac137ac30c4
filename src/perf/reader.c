// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data reader: opening a file (mapped) or a pipe-mode stream, the file
 * header, the attrs and their ids, the feature table.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf/perf_format.h"
#include "perf/reader_int.h"
#include "util/bitmap.h"
#include "util/xalloc.h"

struct section {
	uint64_t off, size;
};

static const char *sec_names[] = { "attrs", "data" };

static bool section_in_file(const struct perf_reader *r, const struct section *s)
{
	return s->off <= r->map_size && s->size <= r->map_size - s->off;
}

static bool sections_overlap(const struct section *a, const struct section *b)
{
	return a->size && b->size && a->off < b->off + b->size && b->off < a->off + a->size;
}

static int read_ids(struct perf_reader *r, size_t idx, const struct section *ids,
		    const struct section *data, struct err_msg *err)
{
	uint64_t i;

	if (!section_in_file(r, ids) || ids->size % 8)
		return err_set(err, EINVAL,
			       "%s: at 0x%llx: ids of event %zu (%llu bytes at "
			       "0x%llx) lie outside the file",
			       r->path,
			       (unsigned long long)(r->attrs_off + (idx + 1) * r->attr_size - 16),
			       idx, (unsigned long long)ids->size, (unsigned long long)ids->off);
	if (sections_overlap(ids, data))
		return err_set(err, EINVAL,
			       "%s: at 0x%llx: ids of event %zu overlap the "
			       "data section [0x%llx, 0x%llx)",
			       r->path, (unsigned long long)ids->off, idx,
			       (unsigned long long)data->off,
			       (unsigned long long)(data->off + data->size));
	for (i = 0; i < ids->size / 8; i++)
		reader_add_id(r, idx, rd64(r->map + ids->off + i * 8, r->swap));
	return 0;
}

static int read_attrs(struct perf_reader *r, const struct section *attrs,
		      const struct section *data, struct err_msg *err)
{
	uint64_t nr, i;
	int ret;

	if (r->attr_size < PERF_ATTR_SIZE_VER0 + 16)
		return err_set(err, EINVAL, "%s: at 0x10: attr_size %llu, expected at least %d",
			       r->path, (unsigned long long)r->attr_size, PERF_ATTR_SIZE_VER0 + 16);
	if (attrs->size % r->attr_size)
		return err_set(err, EINVAL,
			       "%s: at 0x20: attrs section of %llu bytes is not a "
			       "multiple of attr_size %llu",
			       r->path, (unsigned long long)attrs->size,
			       (unsigned long long)r->attr_size);
	nr = attrs->size / r->attr_size;
	r->attrs_off = attrs->off;
	for (i = 0; i < nr; i++) {
		const uint8_t *a = r->map + attrs->off + i * r->attr_size;
		struct section ids = { rd64(a + r->attr_size - 16, r->swap),
				       rd64(a + r->attr_size - 8, r->swap) };

		ret = reader_add_attr(r, a, r->attr_size - 16, attrs->off + i * r->attr_size, err);
		if (!ret)
			ret = read_ids(r, i, &ids, data, err);
		if (ret)
			return ret;
	}
	reader_attrs_done(r);
	return 0;
}

static void read_features(struct perf_reader *r, const uint64_t *bits, const struct section *data)
{
	uint64_t table = data->off + data->size, n = 0;
	int feat;

	for (feat = 0; feat < PERF_FEAT_BITS; feat++) {
		struct section s;
		struct cursor c;

		if (!bitmap_test(bits, feat))
			continue;
		if (table + (n + 1) * 16 > r->map_size) {
			reader_warn(r,
				    "%s: at 0x%llx: feature table cut short: the file ends at "
				    "0x%llx (header features are missing)",
				    r->path, (unsigned long long)(table + n * 16),
				    (unsigned long long)r->map_size);
			return;
		}
		s.off = rd64(r->map + table + n * 16, r->swap);
		s.size = rd64(r->map + table + n * 16 + 8, r->swap);
		n++;
		if (!section_in_file(r, &s) || sections_overlap(&s, data)) {
			reader_warn(r,
				    "%s: at 0x%llx: feature %d section [0x%llx, +%llu) %s; skipped",
				    r->path, (unsigned long long)(table + (n - 1) * 16), feat,
				    (unsigned long long)s.off, (unsigned long long)s.size,
				    section_in_file(r, &s) ? "overlaps the data section" :
							     "lies outside the file");
			continue;
		}
		cursor_init(&c, r->map + s.off, s.size, s.off, r->swap);
		reader_parse_feature(r, feat, &c);
	}
}

/* The data section: what the header says, bounded by the file. */
static void data_bounds(struct perf_reader *r, const struct section *data)
{
	r->data_off = r->pos = data->off;
	r->data_end = data->off + data->size;
	if (data->size == 0 && r->map_size > data->off) {
		reader_warn(r,
			    "%s: the header's data size is 0: was perf record killed? Reading "
			    "the %llu bytes after 0x%llx as data",
			    r->path, (unsigned long long)(r->map_size - data->off),
			    (unsigned long long)data->off);
		r->data_end = r->map_size;
	} else if (r->data_end > r->map_size) {
		r->truncated = true;
		r->data_declared_end = r->data_end;
		r->data_end = r->map_size;
	}
}

static int check_sections(struct perf_reader *r, const struct section *s, struct err_msg *err)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (s[i].off < PERF_FILE_HEADER_SIZE && s[i].size)
			return err_set(err, EINVAL,
				       "%s: at 0x%x: %s section at 0x%llx overlaps "
				       "the file header",
				       r->path, 0x18 + 16 * i, sec_names[i],
				       (unsigned long long)s[i].off);
		if (s[i].off > r->map_size)
			return err_set(err, EINVAL,
				       "%s: at 0x%x: %s section at 0x%llx starts "
				       "past the end of the file (0x%llx)",
				       r->path, 0x18 + 16 * i, sec_names[i],
				       (unsigned long long)s[i].off,
				       (unsigned long long)r->map_size);
	}
	if (!section_in_file(r, &s[0]))
		return err_set(err, EINVAL,
			       "%s: at 0x18: attrs section [0x%llx, +%llu) runs "
			       "past the end of the file (0x%llx)",
			       r->path, (unsigned long long)s[0].off, (unsigned long long)s[0].size,
			       (unsigned long long)r->map_size);
	if (sections_overlap(&s[0], &s[1]))
		return err_set(err, EINVAL,
			       "%s: at 0x18: attrs section [0x%llx, 0x%llx) "
			       "overlaps the data section [0x%llx, 0x%llx)",
			       r->path, (unsigned long long)s[0].off,
			       (unsigned long long)(s[0].off + s[0].size),
			       (unsigned long long)s[1].off,
			       (unsigned long long)(s[1].off + s[1].size));
	return 0;
}

static int open_file_mode(struct perf_reader *r, struct err_msg *err)
{
	const uint8_t *h = r->map;
	struct section s[2];
	uint64_t bits[4];
	int i, ret;

	if (r->map_size < PERF_FILE_HEADER_SIZE)
		return err_set(err, EINVAL,
			       "%s: at 0x0: a file of %llu bytes is too short for "
			       "the %d-byte file header",
			       r->path, (unsigned long long)r->map_size, PERF_FILE_HEADER_SIZE);
	if (rd64(h + 8, r->swap) < PERF_FILE_HEADER_SIZE)
		return err_set(err, EINVAL, "%s: at 0x8: file header size %llu, expected %d",
			       r->path, (unsigned long long)rd64(h + 8, r->swap),
			       PERF_FILE_HEADER_SIZE);
	r->attr_size = rd64(h + 16, r->swap);
	for (i = 0; i < 2; i++) {
		s[i].off = rd64(h + 24 + 16 * i, r->swap);
		s[i].size = rd64(h + 32 + 16 * i, r->swap);
	}
	for (i = 0; i < 4; i++)
		bits[i] = rd64(h + 72 + 8 * i, r->swap);
	ret = check_sections(r, s, err);
	if (!ret)
		ret = read_attrs(r, &s[0], &s[1], err);
	if (ret)
		return ret;
	if (!r->nr_attrs)
		return err_set(err, EINVAL,
			       "%s: at 0x18: the file has no events (empty attrs "
			       "section)",
			       r->path);
	data_bounds(r, &s[1]);
	read_features(r, bits, &s[1]);
	if (rd64(h + 56, r->swap) == PERF_WRITER_UNCLOSED_MAGIC) {
		r->hdr.unclosed = true;
		reader_warn(r,
			    "%s: at 0x38: the recorder did not close this file (it was killed or "
			    "lost power): only the data up to its last checkpoint (%llu bytes) "
			    "is read",
			    r->path, (unsigned long long)s[1].size);
	}
	return 0;
}

/* Magic and byte order; *pipe when the header is the 16-byte pipe header. */
static int check_magic(struct perf_reader *r, const uint8_t *h, size_t len, bool *pipe,
		       struct err_msg *err)
{
	uint64_t magic;

	if (len < 16)
		return err_set(err, EINVAL,
			       "%s: at 0x0: %zu bytes, too short for a perf.data "
			       "header",
			       r->path, len);
	magic = rd64(h, false);
	if (magic == PERF_MAGIC2_SWAPPED)
		r->swap = true;
	else if (magic != PERF_MAGIC2)
		return err_set(err, EINVAL,
			       "%s: at 0x0: bad magic 0x%016llx, expected "
			       "PERFILE2 (not a perf.data file, or perf's old version 1)",
			       r->path, (unsigned long long)magic);
	r->hdr.needs_swap = r->swap;
	*pipe = rd64(h + 8, r->swap) == PERF_PIPE_HEADER_SIZE;
	r->hdr.pipe_mode = *pipe;
	return 0;
}

int reader_stream_open(struct perf_reader *r, struct err_msg *err)
{
	bool pipe = false;
	int ret;

	r->stream = true;
	if (!reader_stream_fill(r, PERF_PIPE_HEADER_SIZE))
		return err_set(err, EINVAL,
			       "%s: at 0x0: %zu bytes, too short for a perf.data "
			       "header",
			       r->path, r->buf_len);
	ret = check_magic(r, r->buf, 16, &pipe, err);
	if (ret)
		return ret;
	if (!pipe)
		return err_set(err, EINVAL,
			       "%s: at 0x8: header size %llu: a stream must be in "
			       "pipe mode (perf record -o -), expected 16",
			       r->path, (unsigned long long)rd64(r->buf + 8, r->swap));
	r->buf_pos = r->stream_off = PERF_PIPE_HEADER_SIZE;
	return 0;
}

static int open_regular(struct perf_reader *r, off_t size, struct err_msg *err)
{
	uint8_t h[16];
	bool pipe = false;
	int ret;

	if (size == 0)
		return err_set(err, EINVAL, "%s: empty file, expected a perf.data header", r->path);
	if (pread(r->fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return err_set(err, EINVAL,
			       "%s: at 0x0: %lld bytes, too short for a perf.data "
			       "header",
			       r->path, (long long)size);
	ret = check_magic(r, h, sizeof(h), &pipe, err);
	if (ret)
		return ret;
	if (pipe)
		return reader_stream_open(r, err);
	r->map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, r->fd, 0);
	if (r->map == MAP_FAILED) {
		r->map = NULL;
		return err_set(err, errno, "%s: cannot map: %s", r->path, strerror(errno));
	}
	r->map_size = size;
	return open_file_mode(r, err);
}

int perf_reader_open(const char *path, struct perf_reader **out, struct err_msg *err)
{
	struct perf_reader *r = xcalloc(1, sizeof(*r));
	struct stat st;
	int ret;

	r->path = xstrdup(strcmp(path, "-") ? path : "<stdin>");
	hashmap_init(&r->ids);
	strbuf_init(&r->warnings, 0);
	r->id_pos = r->is_pos = -1;
	if (!strcmp(path, "-")) {
		r->fd = -1;
		ret = reader_stream_open(r, err);
	} else if ((r->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		ret = err_set(err, errno, "%s: cannot open: %s", path, strerror(errno));
	} else if (fstat(r->fd, &st) < 0) {
		ret = err_set(err, errno, "%s: cannot stat: %s", path, strerror(errno));
	} else if (S_ISDIR(st.st_mode)) {
		ret = err_set(err, EISDIR,
			      "%s: is a directory (perf's directory format, "
			      "perf record --threads, is not supported)",
			      path);
	} else if (S_ISREG(st.st_mode)) {
		ret = open_regular(r, st.st_size, err);
	} else {
		ret = reader_stream_open(r, err);
	}
	if (ret) {
		perf_reader_close(r);
		return ret;
	}
	*out = r;
	return 0;
}

void perf_reader_close(struct perf_reader *r)
{
	size_t i;

	if (!r)
		return;
	if (r->map)
		munmap((void *)r->map, r->map_size);
	if (r->fd > 0)
		close(r->fd);
	reader_zstd_free(r);
	reader_free_features(r);
	reader_free_attrs(r);
	strbuf_release(&r->warnings);
	free(r->buf);
	free(r->win);
	free(r->zbuf);
	free(r->rec);
	for (i = 0; i < RW_NR; i++)
		free(r->words[i].v);
	free(r->path);
	free(r);
}

const struct perf_header_info *perf_reader_header(const struct perf_reader *r)
{
	return &r->hdr;
}

size_t perf_reader_nr_attrs(const struct perf_reader *r)
{
	return r->nr_attrs;
}

const struct perf_attr_info *perf_reader_attr(const struct perf_reader *r, size_t i)
{
	return i < r->nr_attrs ? &r->attrs[i].info : NULL;
}

const struct perf_reader_stats *perf_reader_stats(const struct perf_reader *r)
{
	return &r->stats;
}

uint64_t perf_reader_data_size(const struct perf_reader *r)
{
	return r->stream ? 0 : r->data_end - r->data_off;
}

const char *perf_reader_warnings(const struct perf_reader *r)
{
	return r->warnings.buf;
}
