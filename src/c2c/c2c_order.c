// SPDX-License-Identifier: GPL-2.0
#include "c2c/c2c_order.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct held {
	uint64_t time, seq;
	struct perf_event_rec ev;
	char *str; /* owned copy of the mmap file name or comm */
};

struct c2c_order {
	struct held *items;
	size_t nr, alloc;
	uint64_t seq, max_time, next_flush;
};

struct c2c_order *c2c_order_new(void)
{
	return xcalloc(1, sizeof(struct c2c_order));
}

void c2c_order_free(struct c2c_order *q)
{
	size_t i;

	if (!q)
		return;
	for (i = 0; i < q->nr; i++)
		free(q->items[i].str);
	free(q->items);
	free(q);
}

void c2c_order_push(struct c2c_order *q, const struct perf_event_rec *ev, uint64_t time)
{
	struct held *h;

	q->items = xgrow(q->items, &q->alloc, q->nr + 1, sizeof(*q->items));
	h = &q->items[q->nr++];
	h->time = time;
	h->seq = q->seq++;
	h->ev = *ev;
	h->str = NULL;
	if (ev->kind == PERF_REC_MMAP && ev->mmap.filename)
		h->ev.mmap.filename = h->str = xstrdup(ev->mmap.filename);
	else if (ev->kind == PERF_REC_COMM && ev->comm.comm)
		h->ev.comm.comm = h->str = xstrdup(ev->comm.comm);
	else if (ev->kind == PERF_REC_SAMPLE) {
		h->ev.sample.callchain = NULL;
		h->ev.sample.nr_callchain = 0;
		h->ev.sample.raw = NULL;
		h->ev.sample.raw_size = 0;
	}
	if (time > q->max_time)
		q->max_time = time;
}

static int held_cmp(const void *pa, const void *pb)
{
	const struct held *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void deliver_upto(struct c2c_order *q, uint64_t limit, c2c_deliver_fn deliver, void *ctx)
{
	size_t i;

	if (q->nr) /* nothing held: items may be NULL */
		qsort(q->items, q->nr, sizeof(*q->items), held_cmp);
	for (i = 0; i < q->nr && q->items[i].time <= limit; i++) {
		deliver(ctx, &q->items[i].ev);
		free(q->items[i].str);
	}
	if (i) /* items is NULL while nothing was ever held */
		memmove(q->items, q->items + i, (q->nr - i) * sizeof(*q->items));
	q->nr -= i;
}

void c2c_order_round(struct c2c_order *q, c2c_deliver_fn deliver, void *ctx)
{
	deliver_upto(q, q->next_flush, deliver, ctx);
	q->next_flush = q->max_time;
}

void c2c_order_flush(struct c2c_order *q, c2c_deliver_fn deliver, void *ctx)
{
	deliver_upto(q, UINT64_MAX, deliver, ctx);
}
