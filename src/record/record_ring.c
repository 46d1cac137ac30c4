// SPDX-License-Identifier: GPL-2.0
/*
 * Ring buffers: one per (task, cpu), the kernel's records decoded by the
 * sample_type we asked for and written again through the perf writer (which
 * gives every event its own id). Side-band records (MMAP2, COMM, FORK,
 * EXIT) are copied; LOST, LOST_SAMPLES and THROTTLE are counted.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "record/session_int.h"
#include "util/xalloc.h"

/* TID, TIME, CPU, IDENTIFIER: the sample_id_all trailer every event asks for */
#define TRAILER_SIZE 32

int record_session_map_rings(struct record_session *s, struct err_msg *err)
{
	size_t i;

	for (i = 0; i < s->nr_counters; i++)
		hashmap_put(&s->ids, s->counters[i].id,
			    (void *)(uintptr_t)(s->counters[i].event + 1));
	for (i = 0; i < s->nr_rings; i++) {
		int ret =
			perf_ring_map(&s->rings[i].ring, s->rings[i].fd, s->mmap_pages, false, err);

		if (ret)
			return ret; /* -m gives fewer pages */
	}
	for (i = 0; i < s->nr_counters; i++) {
		const struct counter *c = &s->counters[i];

		if (c->output_fd >= 0 && ioctl(c->fd, PERF_EVENT_IOC_SET_OUTPUT, c->output_fd) < 0)
			return err_set(err, errno, "%s: cannot share the ring buffer: %s",
				       s->events[c->event].name, strerror(errno));
	}
	return 0;
}

void record_session_unmap_rings(struct record_session *s)
{
	size_t i;

	for (i = 0; i < s->nr_rings; i++)
		perf_ring_unmap(&s->rings[i].ring);
	s->nr_rings = 0;
}

int record_session_event_of_id(const struct record_session *s, uint64_t id)
{
	uintptr_t v = (uintptr_t)hashmap_get(&s->ids, id);

	return v ? (int)(v - 1) : -1;
}

static bool keep_pid(struct record_session *s, uint32_t pid)
{
	return !s->filter || hashmap_get(&s->keep_pids, pid);
}

/* A sample, by its event's sample_type, through src/perf's decoder (the reader's parsers). */
static int on_sample(struct record_session *s, const struct perf_event_header *h)
{
	struct perf_sample smp;
	uint64_t id;
	int ev;

	if (h->size < sizeof(*h) + 8)
		return 0;
	memcpy(&id, h + 1, 8); /* PERF_SAMPLE_IDENTIFIER comes first */
	ev = record_session_event_of_id(s, id);
	if (ev < 0 || perf_decode_sample(h, h->size, s->events[ev].attr.sample_type, &smp))
		return 0;
	smp.attr_index = (uint32_t)ev;
	if (!keep_pid(s, smp.pid)) {
		s->st.filtered++;
		return 0;
	}
	s->st.samples++;
	return perf_writer_sample(s->w, &smp);
}

static int on_mmap2(struct record_session *s, struct perf_mmap *m, uint64_t time)
{
	if (!m->is_mmap2 || !keep_pid(s, m->pid))
		return 0;
	record_session_note_dso(s, m->filename);
	s->st.mmaps++;
	return perf_writer_mmap2(s->w, m, time);
}

static int on_comm(struct record_session *s, const struct perf_comm *cm, uint64_t time)
{
	if (!keep_pid(s, cm->pid))
		return 0;
	s->st.comms++;
	return perf_writer_comm(s->w, cm, time);
}

static int on_task(struct record_session *s, bool fork, const struct perf_task *t)
{
	if (s->filter && fork && hashmap_get(&s->keep_pids, t->ppid))
		hashmap_put(&s->keep_pids, t->pid, (void *)1);
	if (!keep_pid(s, t->pid))
		return 0;
	s->st.tasks++;
	return perf_writer_task(s->w, fork, t);
}

static int on_lost(struct record_session *s, const struct perf_lost *l, uint64_t time)
{
	int ev = record_session_event_of_id(s, l->id);

	s->st.lost += l->lost;
	return perf_writer_lost(s->w, ev < 0 ? 0 : (uint32_t)ev, l->lost, time);
}

/* Side-band records through src/perf's decoder (the reader's); short ones are dropped. */
static int on_side_band(struct record_session *s, const struct perf_event_header *h, uint64_t time)
{
	struct perf_event_rec ev;

	if (perf_decode_record(h, h->size, &ev))
		return 0;
	switch (ev.kind) {
	case PERF_REC_MMAP:
		return on_mmap2(s, &ev.mmap, time);
	case PERF_REC_COMM:
		return on_comm(s, &ev.comm, time);
	case PERF_REC_FORK:
	case PERF_REC_EXIT:
		return on_task(s, ev.kind == PERF_REC_FORK, &ev.task);
	case PERF_REC_LOST:
		return on_lost(s, &ev.lost, time);
	case PERF_REC_LOST_SAMPLES:
		s->st.lost_samples += ev.lost.lost;
		return 0;
	default:
		return 0;
	}
}

static int on_record(struct record_session *s, const struct perf_event_header *h)
{
	uint64_t time = 0;

	if (h->type == PERF_RECORD_SAMPLE)
		return on_sample(s, h);
	if (h->size >= sizeof(*h) + TRAILER_SIZE)
		memcpy(&time, (const uint8_t *)h + h->size - TRAILER_SIZE + 8, 8);
	switch (h->type) {
	case PERF_RECORD_THROTTLE:
		s->st.throttles++;
		return 0;
	case PERF_RECORD_UNTHROTTLE:
		s->st.unthrottles++;
		return 0;
	default:
		return on_side_band(s, h, time);
	}
}

static int on_ring_record(void *ctx, const struct perf_event_header *h)
{
	return on_record(ctx, h);
}

ssize_t record_session_drain(struct record_session *s, struct err_msg *err)
{
	ssize_t total = 0;
	size_t i;

	for (i = 0; i < s->nr_rings; i++) {
		uint64_t bytes = 0;
		int ret = perf_ring_drain(&s->rings[i].ring, on_ring_record, s, &bytes);

		s->st.bytes += bytes;
		total += (ssize_t)bytes;
		if (ret)
			return err_set(err, -ret, "%s: cannot write: %s", s->path, strerror(-ret));
	}
	if (total && perf_writer_finished_round(s->w))
		return err_set(err, EIO, "%s: cannot write", s->path);
	return total;
}
