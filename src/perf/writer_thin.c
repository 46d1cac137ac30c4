// SPDX-License-Identifier: GPL-2.0
/*
 * Thinning what the writer has written: one pass over the data section
 * that drops the samples a callback rejects and rewrites the periods of
 * those it keeps, compacting the section in place (the write position never
 * passes the read position). c2csim's converter uses it to keep a recording
 * under its size budget (src/sim/sim_record.c).
 *
 * With the cut and the checkpoints (writer_cut.c): the last checkpoint is
 * sealed first, so that every checkpoint block is one whole FINISHED_INIT
 * record, and the pass drops those blocks (their features describe the
 * old layout). The counts the cut relies on are rebuilt from the records
 * kept: samples, timed samples and their first and last times, the bytes
 * on disk, and a flush boundary (mark) after every chunk written. While
 * the pass runs the header says "no data" (a kill then leaves a readable,
 * empty file); after it a checkpoint at the new end is written when
 * checkpoints are on. A full disk or the file size limit in the pass makes
 * the writer full at the last whole chunk written: the cut at finish keeps
 * the thinned records before it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perf/perf_data.h"
#include "perf/perf_format.h"
#include "perf/writer_int.h"
#include "util/xalloc.h"

#define THIN_CHUNK (1 << 20)

struct thin {
	struct perf_writer *w;
	perf_writer_keep_fn keep;
	void *ctx;
	int rfd;
	uint64_t rpos, wpos, end;
	uint8_t *in, *out;
	size_t in_len, out_len;
	int64_t kept;
	struct writer_mark m; /* the records written so far: counts, end */
	uint64_t out_bytes, in_done; /* bytes of records kept; read and handled */
	int err; /* positive errno */
	long *period_off; /* per event: the PERIOD field's offset in a sample, or -1 */
};

uint64_t perf_writer_size(const struct perf_writer *w)
{
	return w->data_offset + w->data_size; /* data_size counts the buffered bytes */
}

/* Writes the kept records; a boundary for the cut after them. */
static void thin_flush(struct thin *t)
{
	struct perf_writer *w = t->w;

	if (t->err || !t->out_len)
		return;
	t->err = writer_pwrite(w->fd, t->out, t->out_len, t->wpos);
	if (t->err)
		return;
	t->wpos += t->out_len;
	t->out_len = 0;
	t->m.off = t->wpos - w->data_offset;
	w->marks[w->nr_marks++ % WRITER_MARKS] = t->m;
}

/* Where an event's samples hold PERIOD (they are fixed up to it); -1: no period. */
static long period_offset(const struct writer_event *e)
{
	static const uint64_t before[] = { PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP,
					   PERF_SAMPLE_TID,	   PERF_SAMPLE_TIME,
					   PERF_SAMPLE_ADDR,	   PERF_SAMPLE_ID,
					   PERF_SAMPLE_STREAM_ID,  PERF_SAMPLE_CPU };
	long off = sizeof(struct perf_event_header);
	size_t i;

	if (!(e->sample_type & PERF_SAMPLE_PERIOD))
		return -1;
	for (i = 0; i < ARRAY_SIZE(before); i++)
		if (e->sample_type & before[i])
			off += 8;
	return off;
}

/* The sample's event, from its IDENTIFIER (every event has it first); -1: none. */
static long sample_event(const struct perf_writer *w, const uint8_t *rec, size_t size)
{
	uint64_t id;

	if (size < sizeof(struct perf_event_header) + 8)
		return -1;
	memcpy(&id, rec + sizeof(struct perf_event_header), 8);
	if (id - PERF_WRITER_ID_BASE < w->nr_events && w->events[id - PERF_WRITER_ID_BASE].id == id)
		return (long)(id - PERF_WRITER_ID_BASE);
	return -1;
}

/* One whole record: copied to the output unless it is a rejected sample. */
static void thin_record(struct thin *t, uint8_t *rec, size_t size)
{
	struct perf_event_header h;

	memcpy(&h, rec, sizeof(h));
	t->in_done += size;
	if (h.type == PERF_REC_USER_FINISHED_INIT && size > sizeof(h))
		return; /* a sealed checkpoint block: stale after the pass */
	if (h.type == PERF_RECORD_SAMPLE) {
		long ev = sample_event(t->w, rec, size);
		long off = ev >= 0 ? t->period_off[ev] : -1;
		uint64_t period;

		if (off >= 0 && (size_t)off + 8 > size)
			off = -1;
		if (off >= 0)
			memcpy(&period, rec + off, 8);
		if (!t->keep(t->ctx, ev >= 0 ? (size_t)ev : 0, off >= 0 ? &period : NULL)) {
			t->w->nr_samples--;
			return;
		}
		if (off >= 0)
			memcpy(rec + off, &period, 8);
		t->kept++;
	}
	if (t->out_len + size > THIN_CHUNK)
		thin_flush(t);
	if (t->err)
		return;
	memcpy(t->out + t->out_len, rec, size);
	t->out_len += size;
	t->out_bytes += size;
	writer_count_record(t->w, &t->m, rec, size);
}

/* Reads the next chunk after what is left in t->in; false at the end or an error. */
static bool thin_fill(struct thin *t)
{
	size_t want = THIN_CHUNK - t->in_len;
	ssize_t n;

	if (want > t->end - t->rpos)
		want = t->end - t->rpos;
	if (!want)
		return false;
	n = pread(t->rfd, t->in + t->in_len, want, t->rpos);
	if (n < 0 && errno == EINTR)
		return true;
	if (n <= 0) {
		t->err = n < 0 ? errno : EIO;
		return false;
	}
	t->in_len += n;
	t->rpos += n;
	return true;
}

static void thin_pass(struct thin *t)
{
	while (!t->err && thin_fill(t)) {
		size_t at = 0;
		struct perf_event_header h;

		while (t->in_len - at >= sizeof(h)) {
			memcpy(&h, t->in + at, sizeof(h));
			if (h.size < sizeof(h)) {
				t->err = EIO; /* our own data: cannot happen */
				return;
			}
			if (t->in_len - at < h.size)
				break;
			thin_record(t, t->in + at, h.size);
			if (t->err)
				return;
			at += h.size;
		}
		memmove(t->in, t->in + at, t->in_len - at);
		t->in_len -= at;
	}
	if (!t->err && t->in_len)
		t->err = EIO; /* a record cut by the end of the data */
	thin_flush(t);
}

/* The counts and boundaries of the thinned data; a checkpoint at its end. */
static void thin_done(struct thin *t)
{
	struct perf_writer *w = t->w;

	w->data_size = w->disk_size = t->wpos - w->data_offset;
	w->nr_samples = t->m.samples;
	w->nr_timed = t->m.timed;
	w->first_time = t->m.first_time;
	w->last_time = t->m.last_time;
	w->ckpt_rec = UINT64_MAX;
	w->ckpt_len = 0;
	w->next_ckpt_size = w->data_size + w->ckpt_bytes;
	w->in_ckpt = false;
	if (w->ckpt_bytes || w->ckpt_ms)
		writer_checkpoint(w);
}

/*
 * A full disk or the file size limit in the pass: the records before wpos
 * are whole, the rest count as written and are dropped by the cut.
 */
static void thin_full(struct thin *t)
{
	struct perf_writer *w = t->w;
	uint64_t good = t->wpos - w->data_offset;

	w->full = w->werr = t->err;
	w->full_size = w->disk_size = good;
	w->data_size = t->out_bytes + (t->end - w->data_offset - t->in_done);
	w->ckpt_rec = UINT64_MAX;
}

static void thin_open(struct thin *t)
{
	struct perf_writer *w = t->w;
	char self[64];
	size_t i;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", w->fd); /* the same file, to read */
	t->rfd = open(self, O_RDONLY | O_CLOEXEC);
	if (t->rfd < 0) {
		t->err = errno;
		return;
	}
	t->rpos = t->wpos = w->data_offset;
	t->end = w->data_offset + w->data_size;
	t->in = xmalloc(THIN_CHUNK);
	t->out = xmalloc(THIN_CHUNK);
	t->period_off = xcalloc(w->nr_events + 1, sizeof(*t->period_off));
	for (i = 0; i < w->nr_events; i++)
		t->period_off[i] = period_offset(&w->events[i]);
	w->nr_marks = 0; /* the old boundaries: rebuilt by the pass */
}

int64_t perf_writer_thin(struct perf_writer *w, perf_writer_keep_fn keep, void *ctx)
{
	static const uint64_t no_feats[4];
	struct thin t = { .w = w, .keep = keep, .ctx = ctx, .rfd = -1 };

	if (w->full)
		return -w->full; /* the file is being cut: leave it as it is */
	w->in_ckpt = true; /* no checkpoint in the old layout from here */
	writer_flush(w);
	t.err = w->werr ?: writer_seal_checkpoint(w);
	t.err = t.err ?: writer_write_header(w, 0, no_feats, false);
	if (!t.err)
		thin_open(&t);
	if (!t.err)
		thin_pass(&t);
	free(t.period_off);
	if (t.rfd >= 0)
		close(t.rfd);
	free(t.out);
	if (!t.err && ftruncate(w->fd, t.wpos) < 0)
		t.err = errno;
	if (!t.err && lseek(w->fd, t.wpos, SEEK_SET) < 0)
		t.err = errno;
	w->in_ckpt = false;
	if (t.err && !t.in) { /* before the pass: the data is as it was */
		w->werr = w->werr ?: t.err;
		if ((t.err == EFBIG || t.err == ENOSPC || t.err == EDQUOT) && !w->full) {
			w->full = t.err;
			w->full_size = w->disk_size;
		}
	} else if (t.err == EFBIG || t.err == ENOSPC || t.err == EDQUOT) {
		thin_full(&t);
	} else if (t.err && !w->werr)
		w->werr = t.err;
	free(t.in);
	if (t.err)
		return -t.err;
	thin_done(&t);
	return t.kept;
}
