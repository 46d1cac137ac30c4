// SPDX-License-Identifier: GPL-2.0
/*
 * Framing: the next record from the mapped data section, from a pipe-mode
 * stream, or from the records a COMPRESSED record unpacked. Damage stops
 * the reader; a file cut short ends it with a warning.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perf/perf_format.h"
#include "perf/reader_int.h"
#include "util/xalloc.h"

/* a window holds any record (at most 64 KiB) from any offset in its first page */
#define WINDOW_SIZE (256 * 1024)
#define STREAM_READ_SIZE (256 * 1024)

/* A record from [p, p + avail), at offset off; 0 when avail < 8. */
struct framed {
	const uint8_t *p;
	size_t size;
	uint64_t off;
};

static void done_note(struct perf_reader *r)
{
	strbuf_addf(&r->warnings, "%s: %llu records (%llu samples) were read before that\n",
		    r->path, (unsigned long long)r->stats.records,
		    (unsigned long long)r->stats.samples);
}

static int damage(struct perf_reader *r, struct err_msg *err, uint64_t off, const char *fmt,
		  unsigned long long a, unsigned long long b)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addf(&sb, "%s: at 0x%llx: ", r->path, (unsigned long long)off);
	strbuf_addf(&sb, fmt, a, b);
	ret = err_set(err, EINVAL, "%s", sb.buf);
	reader_warn(r, "%s", sb.buf);
	done_note(r);
	strbuf_release(&sb);
	r->done = true;
	return ret;
}

/* Check a record header found with avail bytes left in its container. */
static int frame_check(struct perf_reader *r, const uint8_t *p, size_t avail, uint64_t off,
		       bool cut_short_ok, struct err_msg *err)
{
	uint16_t size;

	if (avail < 8 || (size = rd16(p + 6, r->swap)) > avail) {
		if (cut_short_ok) {
			reader_warn(r,
				    "%s: at 0x%llx: the file is cut short: a record of %zu "
				    "bytes runs past its end (0x%llx)",
				    r->path, (unsigned long long)off,
				    avail < 8 ? (size_t)8 : (size_t)rd16(p + 6, r->swap),
				    (unsigned long long)(off + avail));
			done_note(r);
			r->done = true;
			return 0;
		}
		return damage(r, err, off,
			      avail < 8 ? "record header cut short (%llu bytes left of %llu)" :
					  "record of %llu bytes runs past the end of the data "
					  "(%llu bytes left)",
			      avail < 8 ? avail : size, avail < 8 ? 8 : avail);
	}
	if (size < 8)
		return damage(r, err, off, "record size %llu is smaller than its header (%llu)",
			      size, 8);
	return 1;
}

/* Read the data section from pos on into the window; -EIO when the file shrank. */
static int window_fill(struct perf_reader *r, uint64_t pos, struct err_msg *err)
{
	uint64_t start = pos & ~4095ULL; /* records keep the alignment they have in the file */
	size_t want = r->data_end - start < WINDOW_SIZE ? r->data_end - start : WINDOW_SIZE;
	size_t got = 0;

	if (!r->win)
		r->win = xmalloc(WINDOW_SIZE);
	while (got < want) {
		ssize_t n = pread(r->fd, r->win + got, want - got, (off_t)(start + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err_set(err, EIO, "%s: at 0x%llx: cannot read the data section: %s",
				r->path, (unsigned long long)(start + got),
				n < 0 ? strerror(errno) : "the file became shorter");
			reader_warn(r, "%s", err ? err->msg : "read error");
			done_note(r);
			r->done = true;
			return -EIO;
		}
		got += (size_t)n;
	}
	r->win_off = start;
	r->win_len = got;
	return 0;
}

/* The n bytes at file offset pos, from the window (filled again when they are not in it). */
static const uint8_t *window_at(struct perf_reader *r, uint64_t pos, size_t n, struct err_msg *err)
{
	if (pos < r->win_off || pos + n > r->win_off + r->win_len || !r->win) {
		if (window_fill(r, pos, err))
			return NULL;
	}
	return r->win + (pos - r->win_off);
}

static int next_mapped(struct perf_reader *r, struct framed *f, struct err_msg *err)
{
	uint64_t avail = r->data_end - r->pos;
	const uint8_t *p;
	int ret;

	if (r->pos >= r->data_end) {
		if (r->truncated) {
			reader_warn(r,
				    "%s: the file is cut short at 0x%llx: the header says the "
				    "data runs to 0x%llx",
				    r->path, (unsigned long long)r->data_end,
				    (unsigned long long)r->data_declared_end);
			done_note(r);
		}
		r->done = true;
		return 0;
	}
	/* the common case: the whole record is in the window */
	if (r->pos >= r->win_off && r->pos + 8 <= r->win_off + r->win_len) {
		p = r->win + (r->pos - r->win_off);
		f->size = rd16(p + 6, r->swap);
		if (f->size >= 8 && f->size <= avail &&
		    r->pos + f->size <= r->win_off + r->win_len) {
			f->p = p;
			f->off = r->pos;
			r->pos += f->size;
			return 1;
		}
	}
	p = window_at(r, r->pos, avail < 8 ? avail : 8, err);
	if (p && avail >= 8 && rd16(p + 6, r->swap) <= avail)
		p = window_at(r, r->pos, rd16(p + 6, r->swap), err);
	if (!p)
		return -EIO;
	ret = frame_check(r, p, avail, r->pos, r->truncated, err);
	if (ret <= 0)
		return ret;
	f->p = p;
	f->size = rd16(f->p + 6, r->swap);
	f->off = r->pos;
	r->pos += f->size;
	return 1;
}

/* Make n bytes available at buf + buf_pos; false at the end of the stream. */
bool reader_stream_fill(struct perf_reader *r, size_t n)
{
	while (r->buf_len - r->buf_pos < n && !r->eof) {
		ssize_t got;

		if (r->buf_pos) {
			memmove(r->buf, r->buf + r->buf_pos, r->buf_len - r->buf_pos);
			r->buf_len -= r->buf_pos;
			r->buf_pos = 0;
		}
		if (r->buf_alloc - r->buf_len < STREAM_READ_SIZE)
			r->buf = xgrow(r->buf, &r->buf_alloc, r->buf_len + STREAM_READ_SIZE, 1);
		got = read(r->fd < 0 ? 0 : r->fd, r->buf + r->buf_len, r->buf_alloc - r->buf_len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			r->eof = true;
		else
			r->buf_len += got;
	}
	return r->buf_len - r->buf_pos >= n;
}

static int next_stream(struct perf_reader *r, struct framed *f, struct err_msg *err)
{
	size_t avail;
	int ret;

	r->stream_off += f->size; /* the record handed out last time */
	r->buf_pos += f->size;
	f->size = 0;
	if (!reader_stream_fill(r, 8)) {
		if (r->buf_len == r->buf_pos) {
			r->done = true;
			return 0;
		}
	} else {
		reader_stream_fill(r, rd16(r->buf + r->buf_pos + 6, r->swap));
	}
	avail = r->buf_len - r->buf_pos;
	ret = frame_check(r, r->buf + r->buf_pos, avail, r->stream_off, true, err);
	if (ret <= 0)
		return ret;
	f->p = r->buf + r->buf_pos;
	f->size = rd16(f->p + 6, r->swap);
	f->off = r->stream_off;
	return 1;
}

/* A whole record from the decompressed bytes, if there is one. */
static bool next_unpacked(struct perf_reader *r, struct framed *f)
{
	size_t avail = r->z_len - r->z_pos;
	uint16_t size;

	if (avail < 8)
		return false;
	size = rd16(r->zbuf + r->z_pos + 6, r->swap);
	if (size < 8 || size > avail)
		return false;
	f->p = r->zbuf + r->z_pos;
	f->size = size;
	f->off = r->z_off;
	r->z_pos += size;
	return true;
}

int perf_reader_next(struct perf_reader *r, struct perf_event_rec *ev, struct err_msg *err)
{
	struct framed f = { .size = r->last_size };
	int ret;

	for (;;) {
		bool unpacked = next_unpacked(r, &f);

		if (!unpacked) {
			if (r->done)
				return 0;
			f.size = r->last_size;
			ret = r->stream ? next_stream(r, &f, err) : next_mapped(r, &f, err);
			if (ret <= 0) {
				r->last_size = 0;
				return ret;
			}
			r->last_size = f.size;
			r->stats.bytes += f.size;
		}
		ret = reader_decode(r, f.p, f.size, f.off, ev, err);
		if (ret == -ENOENT) {
			r->stats.unknown_ids++;
			if (r->stats.unknown_ids <= 3)
				reader_warn(r, "%s (skipped)",
					    err ? err->msg : "unknown sample id");
			continue;
		}
		if (ret < 0) {
			r->stats.records--; /* this one was not read: not counted before it */
			reader_warn(r, "%s", err ? err->msg : "damaged record");
			done_note(r);
			r->done = true;
			return ret;
		}
		if (ev->type == PERF_REC_USER_COMPRESSED)
			continue;
		return 1;
	}
}
