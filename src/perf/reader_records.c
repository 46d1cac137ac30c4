// SPDX-License-Identifier: GPL-2.0
/* Decoding one whole record: kernel records and perf's own header records. */
#include <errno.h>
#include <stdlib.h>

#include "perf/perf_format.h"
#include "perf/reader_int.h"
#include "util/xalloc.h"

#define PERF_EVENT_UPDATE_NAME 2

static int short_record(struct perf_reader *r, const struct cursor *c, const char *what,
			struct err_msg *err)
{
	return err_set(err, EINVAL, "%s: at 0x%llx: %s record of %zu bytes is too short", r->path,
		       (unsigned long long)(c->off - 8), what, c->len + 8);
}

/* A NUL-terminated string filling the rest of the record. */
static const char *rest_string(struct cursor *c)
{
	const char *s = (const char *)c->p + c->pos;

	if (c->bad || c->pos >= c->len || !memchr(s, 0, c->len - c->pos)) {
		c->bad = true;
		return NULL;
	}
	return s;
}

static void decode_mmap(struct cursor *c, uint16_t misc, bool v2, struct perf_event_rec *ev)
{
	struct perf_mmap *m = &ev->mmap;

	memset(m, 0, sizeof(*m));
	m->is_mmap2 = v2;
	m->cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	m->pid = cursor_u32(c);
	m->tid = cursor_u32(c);
	m->start = cursor_u64(c);
	m->len = cursor_u64(c);
	m->pgoff = cursor_u64(c);
	if (v2 && (misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		const uint8_t *bid = cursor_bytes(c, 24);

		if (bid) {
			m->build_id_size = bid[0] > 20 ? 20 : bid[0];
			memcpy(m->build_id, bid + 4, m->build_id_size);
		}
	} else if (v2) {
		m->maj = cursor_u32(c);
		m->min = cursor_u32(c);
		m->ino = cursor_u64(c);
		m->ino_generation = cursor_u64(c);
	}
	if (v2) {
		m->prot = cursor_u32(c);
		m->flags = cursor_u32(c);
	}
	m->filename = rest_string(c);
	ev->kind = PERF_REC_MMAP;
}

/*
 * The body of a kernel record (the one decoder of them: the reader's, the
 * recorder's and watch's rings'); c->bad when it is too short.
 */
static void decode_kernel_body(struct cursor *c, uint32_t type, uint16_t misc,
			       struct perf_event_rec *ev)
{
	switch (type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		decode_mmap(c, misc, type == PERF_RECORD_MMAP2, ev);
		break;
	case PERF_RECORD_COMM:
		ev->kind = PERF_REC_COMM;
		ev->comm.pid = cursor_u32(c);
		ev->comm.tid = cursor_u32(c);
		ev->comm.exec = misc & PERF_RECORD_MISC_COMM_EXEC;
		ev->comm.comm = rest_string(c);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		ev->kind = type == PERF_RECORD_FORK ? PERF_REC_FORK : PERF_REC_EXIT;
		ev->task.pid = cursor_u32(c);
		ev->task.ppid = cursor_u32(c);
		ev->task.tid = cursor_u32(c);
		ev->task.ptid = cursor_u32(c);
		ev->task.time = cursor_u64(c);
		break;
	case PERF_RECORD_LOST:
		ev->kind = PERF_REC_LOST;
		ev->lost.id = cursor_u64(c);
		ev->lost.lost = cursor_u64(c);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		ev->kind = PERF_REC_LOST_SAMPLES;
		ev->lost.lost = cursor_u64(c);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		ev->kind = type == PERF_RECORD_THROTTLE ? PERF_REC_THROTTLE : PERF_REC_UNTHROTTLE;
		ev->time = cursor_u64(c);
		ev->lost.id = cursor_u64(c);
		break;
	default:
		ev->kind = PERF_REC_OTHER;
	}
}

static int decode_kernel(struct perf_reader *r, struct cursor *c, uint32_t type, uint16_t misc,
			 struct perf_event_rec *ev, struct err_msg *err)
{
	decode_kernel_body(c, type, misc, ev);
	if (c->bad)
		return short_record(r, c,
				    type == PERF_RECORD_MMAP2 ? "MMAP2" :
				    type == PERF_RECORD_MMAP  ? "MMAP" :
								"kernel",
				    err);
	if (ev->kind == PERF_REC_LOST)
		r->stats.lost += ev->lost.lost;
	else if (ev->kind == PERF_REC_LOST_SAMPLES)
		r->stats.lost_samples += ev->lost.lost;
	return 0;
}

int perf_decode_record(const void *rec, size_t size, struct perf_event_rec *ev)
{
	const uint8_t *p = rec;
	struct cursor c;

	memset(ev, 0, sizeof(*ev));
	if (size < 8)
		return -EINVAL;
	ev->type = rd32(p, false);
	if (ev->type == PERF_RECORD_SAMPLE || ev->type >= PERF_REC_USER_HEADER_ATTR) {
		ev->kind = PERF_REC_OTHER;
		return 0;
	}
	cursor_init(&c, p + 8, size - 8, 8, false);
	decode_kernel_body(&c, ev->type, rd16(p + 4, false), ev);
	return c.bad ? -EINVAL : 0;
}

/* PERF_RECORD_HEADER_ATTR: attr, then its ids to the end of the record. */
static int decode_header_attr(struct perf_reader *r, struct cursor *c, struct err_msg *err)
{
	uint32_t size;
	size_t idx = r->nr_attrs, i, nr_ids;
	int ret;

	if (c->len < 8)
		return short_record(r, c, "HEADER_ATTR", err);
	size = rd32(c->p + ATTR_OFF_SIZE, r->swap);
	if (size == 0)
		size = PERF_ATTR_SIZE_VER0;
	if (size > c->len)
		return short_record(r, c, "HEADER_ATTR", err);
	ret = reader_add_attr(r, c->p, size, c->off, err);
	if (ret)
		return ret;
	nr_ids = (c->len - size) / 8;
	for (i = 0; i < nr_ids; i++)
		reader_add_id(r, idx, rd64(c->p + size + i * 8, r->swap));
	reader_attrs_done(r);
	return 0;
}

static void decode_id_index(struct perf_reader *r, struct cursor *c)
{
	uint64_t nr = cursor_u64(c), i;

	if (nr > c->len / 32) {
		reader_warn(r, "%s: at 0x%llx: ID_INDEX of %llu entries does not fit its record",
			    r->path, (unsigned long long)c->off, (unsigned long long)nr);
		return;
	}
	for (i = 0; i < nr; i++) {
		uint64_t id = cursor_u64(c), idx = cursor_u64(c);

		cursor_u64(c); /* cpu */
		cursor_u64(c); /* tid */
		if (idx < r->nr_attrs)
			reader_add_id(r, idx, id);
	}
}

static void decode_event_update(struct perf_reader *r, struct cursor *c)
{
	uint64_t type = cursor_u64(c), id = cursor_u64(c);
	void *v = hashmap_get(&r->ids, id);
	const char *name;
	struct reader_attr *a;

	if (type != PERF_EVENT_UPDATE_NAME || !v)
		return;
	name = rest_string(c);
	if (!name)
		return;
	a = &r->attrs[(uintptr_t)v - 1];
	free(a->name);
	a->name = xstrdup(name);
	a->info.name = a->name;
}

static int decode_user(struct perf_reader *r, struct cursor *c, uint32_t type,
		       struct perf_event_rec *ev, struct err_msg *err)
{
	ev->kind = PERF_REC_OTHER;
	switch (type) {
	case PERF_REC_USER_HEADER_ATTR:
		return decode_header_attr(r, c, err);
	case PERF_REC_USER_FINISHED_ROUND:
		ev->kind = PERF_REC_FINISHED_ROUND;
		return 0;
	case PERF_REC_USER_ID_INDEX:
		decode_id_index(r, c);
		return 0;
	case PERF_REC_USER_EVENT_UPDATE:
		decode_event_update(r, c);
		return 0;
	case PERF_REC_USER_HEADER_FEATURE: {
		uint64_t feat = cursor_u64(c);
		struct cursor fc;

		cursor_init(&fc, c->p + c->pos, c->bad ? 0 : c->len - c->pos,
			    reader_cursor_offset(c), r->swap);
		if (!c->bad && feat < PERF_FEAT_BITS)
			reader_parse_feature(r, feat, &fc);
		return 0;
	}
	case PERF_REC_USER_COMPRESSED:
		return reader_decompress(r, c->p, c->len, c->off, err);
	default:
		if (type >= PERF_REC_USER_MAX)
			r->stats.unknown_records++;
		return 0;
	}
}

static bool kernel_type_decoded(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		return true;
	default:
		return false;
	}
}

int reader_decode(struct perf_reader *r, const uint8_t *rec, size_t size, uint64_t off,
		  struct perf_event_rec *ev, struct err_msg *err)
{
	uint32_t type = rd32(rec, r->swap);
	uint16_t misc = rd16(rec + 4, r->swap);
	struct cursor c;
	int ret;

	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->file_offset = off;
	cursor_init(&c, rec + 8, size - 8, off + 8, r->swap);
	r->stats.records++;
	if (type == PERF_RECORD_SAMPLE) {
		ev->kind = PERF_REC_SAMPLE;
		ret = reader_parse_sample(r, &c, ev, err);
		if (!ret) {
			ev->sample.cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
			ev->pid = ev->sample.pid;
			ev->tid = ev->sample.tid;
			ev->cpu = ev->sample.cpu;
			ev->time = ev->sample.time;
			r->stats.samples++;
		}
		return ret;
	}
	if (type >= PERF_REC_USER_HEADER_ATTR)
		return decode_user(r, &c, type, ev, err);
	if (!kernel_type_decoded(type)) {
		ev->kind = PERF_REC_OTHER;
		if (type >= PERF_RECORD_MAX)
			r->stats.unknown_records++;
		return 0;
	}
	ret = reader_parse_trailer(r, &c, ev, err);
	if (ret)
		return ret;
	return decode_kernel(r, &c, type, misc, ev, err);
}
