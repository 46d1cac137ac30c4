// SPDX-License-Identifier: GPL-2.0
/*
 * Thinning what the writer has written: one pass over the data section
 * that drops the samples a callback rejects and rewrites the periods of
 * those it keeps, compacting the section in place (the write position never
 * passes the read position). c2csim's converter uses it to keep a recording
 * under its size budget (src/sim/sim_record.c).
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
	int err; /* positive errno */
	long *period_off; /* per event: the PERIOD field's offset in a sample, or -1 */
};

uint64_t perf_writer_size(const struct perf_writer *w)
{
	return w->data_offset + w->data_size; /* data_size counts the buffered bytes */
}

static void thin_flush(struct thin *t)
{
	size_t done = 0;

	while (done < t->out_len && !t->err) {
		ssize_t n = pwrite(t->w->fd, t->out + done, t->out_len - done, t->wpos + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			t->err = n < 0 ? errno : EIO;
		else
			done += n;
	}
	t->wpos += done;
	t->out_len = 0;
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
	memcpy(t->out + t->out_len, rec, size);
	t->out_len += size;
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
			at += h.size;
		}
		memmove(t->in, t->in + at, t->in_len - at);
		t->in_len -= at;
	}
	if (!t->err && t->in_len)
		t->err = EIO; /* a record cut by the end of the data */
	thin_flush(t);
}

int64_t perf_writer_thin(struct perf_writer *w, perf_writer_keep_fn keep, void *ctx)
{
	struct thin t = { .w = w, .keep = keep, .ctx = ctx };
	char self[64];
	size_t i;

	writer_flush(w);
	if (w->werr)
		return -w->werr;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", w->fd); /* the same file, to read */
	t.rfd = open(self, O_RDONLY | O_CLOEXEC);
	if (t.rfd < 0)
		return -errno;
	t.rpos = t.wpos = w->data_offset;
	t.end = w->data_offset + w->data_size;
	t.in = xmalloc(THIN_CHUNK);
	t.out = xmalloc(THIN_CHUNK);
	t.period_off = xcalloc(w->nr_events + 1, sizeof(*t.period_off));
	for (i = 0; i < w->nr_events; i++)
		t.period_off[i] = period_offset(&w->events[i]);
	thin_pass(&t);
	free(t.period_off);
	close(t.rfd);
	free(t.in);
	free(t.out);
	if (!t.err && ftruncate(w->fd, t.wpos) < 0)
		t.err = errno;
	if (!t.err && lseek(w->fd, t.wpos, SEEK_SET) < 0)
		t.err = errno;
	if (t.err) {
		w->werr = t.err;
		return -t.err;
	}
	w->data_size = t.wpos - w->data_offset;
	return t.kept;
}
