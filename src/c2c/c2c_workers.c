// SPDX-License-Identifier: GPL-2.0
/*
 * Aggregation on several threads (c2c_model_opts.threads > 1): each
 * sample goes to the worker that owns its cache line (by a hash of its
 * map-relative line address, a part of the line's key), in batches. A
 * worker sees its lines' samples in file order and aggregates them into
 * a model of its own; c2c_model_drain joins the workers and moves their
 * lines into the caller's model. Lines never straddle workers and the
 * final sort is a total order, so the result is the one a single thread
 * gives.
 */
#include <pthread.h>
#include <stdlib.h>

#include "c2c/c2c_model.h"
#include "util/xalloc.h"

#define BATCH 2048 /* samples */
#define RING 4 /* batches a worker may have queued */

struct c2c_batch {
	size_t n;
	struct c2c_sample s[BATCH];
};

struct c2c_worker {
	pthread_t thread;
	struct c2c_model *sub;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct c2c_batch *ring[RING];
	uint64_t head, tail; /* batches published, batches done */
	bool closing;
	bool started;
};

struct c2c_workers {
	size_t nr;
	struct c2c_batch *batches; /* RING for each worker, in one allocation */
	struct c2c_worker w[];
};

static void *worker_main(void *arg)
{
	struct c2c_worker *w = arg;
	uint64_t tail;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (w->tail == w->head && !w->closing)
			pthread_cond_wait(&w->cond, &w->lock);
		if (w->tail == w->head)
			break;
		tail = w->tail;
		pthread_mutex_unlock(&w->lock);
		{
			struct c2c_batch *b = w->ring[tail % RING];
			size_t i;

			for (i = 0; i < b->n; i++)
				c2c_model_add(w->sub, &b->s[i]);
			b->n = 0;
		}
		pthread_mutex_lock(&w->lock);
		w->tail++;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	c2c_model_drain(w->sub);
	c2c_model_sum_lines(w->sub); /* here, not on the reading thread after the join */
	return NULL;
}

/* NULL when a thread cannot start: the caller then aggregates alone. */
struct c2c_workers *c2c_workers_new(const struct c2c_model_opts *opts)
{
	struct c2c_model_opts sub_opts = *opts;
	struct c2c_workers *ws;
	size_t i, j;

	sub_opts.threads = 1;
	ws = xcalloc(1, sizeof(*ws) + opts->threads * sizeof(ws->w[0]));
	ws->nr = opts->threads;
	/* on huge pages: each 4 KiB page of them costs a fault otherwise */
	ws->batches = xmalloc_huge(ws->nr * RING * sizeof(*ws->batches));
	for (i = 0; i < ws->nr; i++) {
		struct c2c_worker *w = &ws->w[i];

		w->sub = c2c_model_new(&sub_opts);
		for (j = 0; j < RING; j++) {
			w->ring[j] = &ws->batches[i * RING + j];
			w->ring[j]->n = 0;
		}
		pthread_mutex_init(&w->lock, NULL);
		pthread_cond_init(&w->cond, NULL);
		w->started = !pthread_create(&w->thread, NULL, worker_main, w);
		if (!w->started) {
			ws->nr = i + 1;
			c2c_workers_finish(ws, NULL);
			return NULL;
		}
	}
	return ws;
}

/* Hand the batch being filled to the worker, then wait for a free one. */
static void publish(struct c2c_worker *w)
{
	pthread_mutex_lock(&w->lock);
	w->head++;
	pthread_cond_broadcast(&w->cond);
	while (w->head - w->tail == RING)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

void c2c_workers_add(struct c2c_workers *ws, uint64_t hash, const struct c2c_sample *s)
{
	struct c2c_worker *w = &ws->w[(hash >> 32) % ws->nr];
	struct c2c_batch *b = w->ring[w->head % RING]; /* ours: head - tail < RING */

	b->s[b->n++] = *s;
	if (b->n == BATCH)
		publish(w);
}

/*
 * Send what is left, wait for the workers and move their lines into m
 * (m NULL: only stop them); frees ws.
 */
void c2c_workers_finish(struct c2c_workers *ws, struct c2c_model *m)
{
	size_t i;

	for (i = 0; i < ws->nr; i++) {
		struct c2c_worker *w = &ws->w[i];

		if (!w->started)
			continue;
		pthread_mutex_lock(&w->lock);
		if (w->ring[w->head % RING]->n)
			w->head++;
		w->closing = true;
		pthread_cond_broadcast(&w->cond);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
	}
	for (i = 0; i < ws->nr; i++) {
		struct c2c_worker *w = &ws->w[i];

		if (m)
			c2c_model_absorb(m, w->sub);
		else
			c2c_model_free(w->sub);
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
	}
	free(ws->batches);
	free(ws);
}
