// SPDX-License-Identifier: GPL-2.0
/*
 * The end of a perf.data (header, features, finish) and what keeps the
 * recorded data when that end never comes: checkpoints, and the cut after
 * a full disk.
 *
 * Checkpoint (every ckpt_bytes of data or ckpt_ms): at a record boundary D
 * the writer appends a FINISHED_INIT record of size 8 followed by the
 * feature table and sections built for that place, then a header whose
 * data section ends after that 8-byte record: perf and we read the data up
 * to D and find the features right behind it. The next checkpoint (or
 * close) first appends its own block, then seals the old one by rewriting
 * its record's size to cover the table (perf skips FINISHED_INIT records),
 * then writes its header. A reader of a file killed in between sees the
 * last header written, whose features are intact. The window in which a
 * kill leaves a damaged file is the two pwrites of one checkpoint.
 *
 * Cut: after EFBIG or ENOSPC (writer_write_all) nothing more is written.
 * At the end the features are built to learn their size F; the data is cut
 * back to the last whole record that ends at or before the bytes on disk
 * minus F (overwriting what is already there needs no new space), the
 * features go there, the file is truncated after them and a closed header
 * is written. To find that record the writer walks the records on disk
 * from the latest flush boundary before the cut (marks), counting the
 * samples it keeps and their first and last times.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "perf/perf_data.h"
#include "perf/perf_format.h"
#include "perf/writer_int.h"
#include "util/xalloc.h"

#define CUT_CHUNK (256 * 1024)

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void perf_writer_set_checkpoint(struct perf_writer *w, uint64_t bytes, uint64_t ms)
{
	w->ckpt_bytes = bytes;
	w->ckpt_ms = ms;
	w->next_ckpt_size = w->data_size + bytes;
	w->next_ckpt_ms = now_ms() + ms;
}

void writer_mark(struct perf_writer *w)
{
	struct writer_mark *m = &w->marks[w->nr_marks++ % WRITER_MARKS];

	m->off = w->data_size;
	m->samples = w->nr_samples;
	m->timed = w->nr_timed;
	m->first_time = w->first_time;
	m->last_time = w->last_time;
}

static const char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* The strings of perf_writer_info that the writer keeps its own copy of. */
static const size_t info_strings[] = {
	offsetof(struct perf_writer_info, hostname), offsetof(struct perf_writer_info, osrelease),
	offsetof(struct perf_writer_info, version),  offsetof(struct perf_writer_info, arch),
	offsetof(struct perf_writer_info, cpudesc),  offsetof(struct perf_writer_info, cpuid),
};

static const char **info_string(struct perf_writer_info *in, size_t i)
{
	return (const char **)((char *)in + info_strings[i]);
}

void writer_free_info(struct perf_writer *w)
{
	struct perf_writer_info *in = w->info;
	size_t i;

	if (!in)
		return;
	for (i = 0; i < ARRAY_SIZE(info_strings); i++)
		free((char *)*info_string(in, i));
	for (i = 0; in->cmdline && in->cmdline[i]; i++)
		free((char *)in->cmdline[i]);
	free((char **)in->cmdline);
	for (i = 0; i < in->nr_numa_nodes; i++)
		free((char *)in->numa_nodes[i].cpus);
	free((struct perf_numa_node *)in->numa_nodes);
	free(in);
	w->info = NULL;
}

void perf_writer_set_info(struct perf_writer *w, const struct perf_writer_info *info)
{
	struct perf_writer_info *in;
	struct perf_numa_node *nodes;
	const char **argv = NULL;
	size_t i, n = 0;

	writer_free_info(w);
	in = xcalloc(1, sizeof(*in));
	*in = *info;
	for (i = 0; i < ARRAY_SIZE(info_strings); i++)
		*info_string(in, i) = dup_or_null(*info_string(in, i));
	while (info->cmdline && info->cmdline[n])
		n++;
	if (info->cmdline) {
		argv = xcalloc(n + 1, sizeof(*argv));
		for (i = 0; i < n; i++)
			argv[i] = xstrdup(info->cmdline[i]);
	}
	in->cmdline = argv;
	nodes = info->nr_numa_nodes ? xcalloc(info->nr_numa_nodes, sizeof(*nodes)) : NULL;
	for (i = 0; i < info->nr_numa_nodes; i++) {
		nodes[i] = info->numa_nodes[i];
		nodes[i].cpus = dup_or_null(info->numa_nodes[i].cpus);
	}
	in->numa_nodes = nodes;
	w->info = in;
}

/* The last checkpoint's record now covers its features: 0 or the errno. */
int writer_seal_checkpoint(struct perf_writer *w)
{
	struct perf_event_header hdr = { .type = PERF_REC_USER_FINISHED_INIT };

	if (w->ckpt_rec == UINT64_MAX)
		return 0;
	hdr.size = sizeof(hdr) + w->ckpt_len;
	return writer_pwrite(w->fd, &hdr, sizeof(hdr), w->data_offset + w->ckpt_rec);
}

void writer_checkpoint(struct perf_writer *w)
{
	struct perf_event_header fi = { .type = PERF_REC_USER_FINISHED_INIT, .size = 8 };
	uint64_t d = w->data_size, bits[4] = { 0 };
	struct strbuf blk = STRBUF_INIT;
	int ret;

	strbuf_add(&blk, &fi, sizeof(fi));
	writer_build_features(w, w->info, w->data_offset + d + sizeof(fi), &blk, bits);
	strbuf_addchars(&blk, 0, (8 - blk.len % 8) % 8);
	if (blk.len > UINT16_MAX) { /* a record cannot hold it (many build ids) */
		strbuf_release(&blk);
		return;
	}
	ret = writer_write_all(w, blk.buf, blk.len);
	if (ret && w->full) /* a partial block is not records: cut before it */
		w->full_size = w->full_size < d ? w->full_size : d;
	if (!ret)
		ret = writer_seal_checkpoint(w);
	if (!ret)
		ret = writer_write_header(w, d + sizeof(fi), bits, false);
	if (!ret) {
		w->data_size += blk.len;
		w->ckpt_rec = d;
		w->ckpt_len = blk.len - sizeof(fi);
		w->nr_ckpts++;
		writer_mark(w);
	} else if (!w->werr) {
		w->werr = ret;
	}
	strbuf_release(&blk);
}

/* After a flush (the buffer is empty): a checkpoint when one is due. */
void writer_maybe_checkpoint(struct perf_writer *w)
{
	uint64_t t;

	if (w->in_ckpt || w->werr || (!w->ckpt_bytes && !w->ckpt_ms))
		return;
	t = w->ckpt_ms ? now_ms() : 0;
	if (!(w->ckpt_bytes && w->data_size >= w->next_ckpt_size) &&
	    !(w->ckpt_ms && t >= w->next_ckpt_ms))
		return;
	w->in_ckpt = true;
	if (w->buf_len)
		writer_flush(w);
	if (!w->werr)
		writer_checkpoint(w);
	w->in_ckpt = false;
	w->next_ckpt_size = w->data_size + w->ckpt_bytes;
	w->next_ckpt_ms = (w->ckpt_ms ? now_ms() : 0) + w->ckpt_ms;
}

/* A SAMPLE record's time, when its event samples TIME; 0 and false otherwise. */
static bool sample_time(const struct perf_writer *w, const uint8_t *rec, size_t size,
			uint64_t *time)
{
	uint64_t id, st, pos = 16;

	if (size < 16)
		return false;
	memcpy(&id, rec + 8, 8); /* IDENTIFIER comes first */
	if (id < PERF_WRITER_ID_BASE || id - PERF_WRITER_ID_BASE >= w->nr_events)
		return false;
	st = w->events[id - PERF_WRITER_ID_BASE].sample_type;
	pos += (st & PERF_SAMPLE_IP ? 8 : 0) + (st & PERF_SAMPLE_TID ? 8 : 0);
	if (!(st & PERF_SAMPLE_TIME) || pos + 8 > size)
		return false;
	memcpy(time, rec + pos, 8);
	return true;
}

void writer_count_record(const struct perf_writer *w, struct writer_mark *m, const uint8_t *rec,
			 size_t size)
{
	struct perf_event_header hdr;
	uint64_t t;

	memcpy(&hdr, rec, sizeof(hdr));
	if (hdr.type != PERF_RECORD_SAMPLE)
		return;
	m->samples++;
	if (!sample_time(w, rec, size, &t))
		return;
	if (!m->timed || t < m->first_time)
		m->first_time = t;
	if (!m->timed || t > m->last_time)
		m->last_time = t;
	m->timed++;
}

/*
 * Walks the records on disk from m up to limit (data offsets), leaving m at
 * the last boundary at or before limit with the counts before it.
 */
static int walk_to(struct perf_writer *w, struct writer_mark *m, uint64_t limit)
{
	uint8_t *buf = xmalloc(CUT_CHUNK);
	int ret = 0;

	while (m->off + sizeof(struct perf_event_header) <= limit && !ret) {
		size_t len = limit - m->off < CUT_CHUNK ? limit - m->off : CUT_CHUNK, pos = 0;
		ssize_t n = pread(w->fd, buf, len, w->data_offset + m->off);
		struct perf_event_header hdr;

		if (n != (ssize_t)len) {
			ret = n < 0 ? errno : EIO;
			break;
		}
		while (pos + sizeof(hdr) <= len) {
			memcpy(&hdr, buf + pos, sizeof(hdr));
			if (hdr.size < sizeof(hdr) || hdr.size % 8 || pos + hdr.size > len)
				break;
			writer_count_record(w, m, buf + pos, hdr.size);
			pos += hdr.size;
		}
		m->off += pos;
		if (pos + sizeof(hdr) <= len && (hdr.size < sizeof(hdr) || hdr.size % 8))
			break; /* not ours: stop at the last good record */
		if (!pos || len < CUT_CHUNK)
			break; /* the next record passes limit */
	}
	free(buf);
	return ret;
}

/* The latest mark at or before target (marks[0], the data's start, is always). */
static struct writer_mark start_mark(const struct perf_writer *w, uint64_t target)
{
	struct writer_mark best = { 0 };
	uint64_t i, first = w->nr_marks > WRITER_MARKS ? w->nr_marks - WRITER_MARKS : 0;

	for (i = first; i < w->nr_marks; i++) {
		const struct writer_mark *m = &w->marks[i % WRITER_MARKS];

		if (m->off <= target && m->off >= best.off)
			best = *m;
	}
	return best;
}

static int cut_at(struct perf_writer *w, const struct perf_writer_info *info,
		  const struct writer_mark *m)
{
	uint64_t bits[4] = { 0 };
	struct strbuf feats = STRBUF_INIT;
	int ret;

	w->nr_timed = m->timed;
	w->first_time = m->first_time;
	w->last_time = m->last_time;
	writer_build_features(w, info, w->data_offset + m->off, &feats, bits);
	ret = writer_pwrite(w->fd, feats.buf, feats.len, w->data_offset + m->off);
	if (!ret && ftruncate(w->fd, w->data_offset + m->off + feats.len) < 0)
		ret = errno;
	if (!ret)
		ret = writer_write_header(w, m->off, bits, true);
	strbuf_release(&feats);
	return ret;
}

static uint64_t features_size(struct perf_writer *w, const struct perf_writer_info *info)
{
	uint64_t bits[4] = { 0 };
	struct strbuf feats = STRBUF_INIT;
	uint64_t len;

	writer_build_features(w, info, 0, &feats, bits);
	len = feats.len;
	strbuf_release(&feats);
	return len;
}

int writer_cut(struct perf_writer *w, const struct perf_writer_info *info,
	       struct perf_writer_result *res, struct err_msg *err)
{
	uint64_t on_disk = w->full_size < w->data_size ? w->full_size : w->data_size;
	uint64_t room = features_size(w, info), target;
	struct writer_mark m;
	int ret;

	target = w->full_size > room ? w->full_size - room : 0;
	if (target > on_disk)
		target = on_disk;
	ret = writer_seal_checkpoint(w);
	m = start_mark(w, target);
	ret = ret ?: walk_to(w, &m, target);
	ret = ret ?: cut_at(w, info, &m);
	if (ret)
		return err_set(err, ret,
			       "%s: %s, and cutting the data back to make room for the "
			       "header failed: %s; the file is not readable",
			       w->path, strerror(w->full), strerror(ret));
	res->cut = w->full;
	res->samples = m.samples;
	res->bytes = m.off;
	res->dropped_samples = w->nr_samples - m.samples;
	res->dropped_bytes = w->data_size - m.off;
	return err_set(err, w->full,
		       "%s: at 0x%llx: %s: data cut after the last whole record that "
		       "leaves room for the features: kept %llu samples (%llu data bytes), "
		       "dropped %llu samples (%llu bytes)",
		       w->path, (unsigned long long)(w->data_offset + m.off), strerror(w->full),
		       (unsigned long long)res->samples, (unsigned long long)res->bytes,
		       (unsigned long long)res->dropped_samples,
		       (unsigned long long)res->dropped_bytes);
}

/* --- The end of a file: header, features, finish --- */

/* closed: the final header; else a checkpoint's, marked unclosed. */
int writer_write_header(struct perf_writer *w, uint64_t data_size, const uint64_t *feat_bits,
			bool closed)
{
	uint64_t hdr[PERF_FILE_HEADER_SIZE / 8] = { 0 };

	hdr[0] = PERF_MAGIC2;
	hdr[1] = PERF_FILE_HEADER_SIZE;
	hdr[2] = PERF_ATTR_SIZE_WRITTEN + 16;
	hdr[3] = w->attrs_offset;
	hdr[4] = w->nr_events * (PERF_ATTR_SIZE_WRITTEN + 16);
	hdr[5] = w->data_offset;
	hdr[6] = data_size;
	/* hdr[7..8]: event_types, which perf ignores: the unclosed mark */
	hdr[7] = closed ? 0 : PERF_WRITER_UNCLOSED_MAGIC;
	memcpy(&hdr[9], feat_bits, 32);
	return writer_pwrite(w->fd, hdr, sizeof(hdr), 0);
}

/* Features after the data and the final header: 0 or the errno. */
static int write_end(struct perf_writer *w, const struct perf_writer_info *info)
{
	uint64_t feat_bits[4] = { 0 };
	struct strbuf feats = STRBUF_INIT;
	int ret;

	writer_build_features(w, info, w->data_offset + w->data_size, &feats, feat_bits);
	ret = writer_write_all(w, feats.buf, feats.len);
	strbuf_release(&feats);
	if (!ret)
		ret = writer_write_header(w, w->data_size, feat_bits, true);
	return ret;
}

int perf_writer_finish(struct perf_writer *w, const struct perf_writer_info *info,
		       struct perf_writer_result *res, struct err_msg *err)
{
	struct perf_writer_result none;
	int ret = 0;

	if (!res)
		res = &none;
	memset(res, 0, sizeof(*res));
	if (!info)
		info = w->info;
	w->in_ckpt = true; /* no checkpoint now: the end follows */
	perf_writer_finished_round(w);
	writer_flush(w);
	if (!w->werr)
		w->werr = writer_seal_checkpoint(w);
	if (!w->werr)
		w->werr = write_end(w, info);
	res->samples = w->nr_samples;
	res->bytes = w->data_size;
	res->checkpoints = w->nr_ckpts;
	if (w->full)
		ret = writer_cut(w, info, res, err);
	else if (w->werr)
		ret = err_set(err, w->werr, "%s: cannot write: %s", w->path, strerror(w->werr));
	perf_writer_abort(w);
	return ret;
}

int perf_writer_close(struct perf_writer *w, const struct perf_writer_info *info,
		      struct err_msg *err)
{
	return perf_writer_finish(w, info, NULL, err);
}
