// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open ring buffers, read as the kernel writes them: one control
 * page, then a power-of-2 data area that records wrap around. The PMU
 * recorder (src/record) and the breakpoint watcher (src/watch) both read
 * theirs through here.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perf/perf_data.h"
#include "util/xalloc.h"

#define RING_MIN_PAGES 8

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

int perf_ring_map(struct perf_ring *r, int fd, size_t pages, bool shrink, struct err_msg *err)
{
	size_t page = page_size();
	int code;

	*r = (struct perf_ring){ 0 };
	for (;;) {
		r->base = mmap(NULL, (pages + 1) * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (r->base != MAP_FAILED) {
			r->data_size = pages * page;
			return 0;
		}
		code = errno;
		if (!shrink || pages / 2 < RING_MIN_PAGES || (code != EPERM && code != ENOMEM))
			break;
		pages /= 2;
	}
	r->base = NULL;
	return err_set(err, code, "cannot map a %zu KiB ring buffer: %s%s", pages * page / 1024,
		       strerror(code),
		       code == EPERM ? "; kernel.perf_event_mlock_kb limits it: "
				       "ask for fewer pages, or run as root" :
				       "");
}

void perf_ring_unmap(struct perf_ring *r)
{
	if (r->base)
		munmap(r->base, r->data_size + page_size());
	free(r->copy);
	*r = (struct perf_ring){ 0 };
}

/* The record at tail, made contiguous when it wraps the data area's end. */
static const struct perf_event_header *record_at(struct perf_ring *r, const uint8_t *data,
						 uint64_t tail)
{
	size_t mask = r->data_size - 1, off = tail & mask, first;
	const struct perf_event_header *h = (const void *)(data + off);

	if (off + h->size <= r->data_size)
		return h;
	if (r->copy_size < h->size) {
		r->copy = xrealloc(r->copy, h->size);
		r->copy_size = h->size;
	}
	first = r->data_size - off;
	memcpy(r->copy, data + off, first);
	memcpy(r->copy + first, data, h->size - first);
	return (const void *)r->copy;
}

/*
 * Records are 8-byte aligned and the data area a multiple of 8, so a
 * header never wraps; a record may.
 */
int perf_ring_drain(struct perf_ring *r, perf_ring_fn fn, void *ctx, uint64_t *bytes)
{
	struct perf_event_mmap_page *pg = r->base;
	const uint8_t *data = (const uint8_t *)r->base + pg->data_offset;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail, start = tail;
	int ret = 0;

	if (!pg->data_offset) /* kernels before 4.1 */
		data = (const uint8_t *)r->base + page_size();
	while (tail < head && !ret) {
		const struct perf_event_header *h =
			(const void *)(data + (tail & (r->data_size - 1)));

		if (h->size < sizeof(*h) || tail + h->size > head)
			break; /* damaged: drop the rest of this batch */
		ret = fn(ctx, record_at(r, data, tail));
		tail += h->size;
	}
	__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
	if (bytes)
		*bytes += head - start;
	return ret;
}
