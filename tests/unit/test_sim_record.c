// SPDX-License-Identifier: GPL-2.0
/*
 * sim_record_feed: the same c2csim stream fed whole and in every chunk size
 * from 1 to 130 bytes gives the same counts; a bad record size is an error
 * that names the stream offset; a stream cut inside a record keeps the
 * whole records and reports the cut bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sim/sim_record.h"

#define NR_SAMPLES 40

struct stream {
	unsigned char buf[8192];
	size_t len;
	size_t sample0; /* offset of the first sample */
};

static void *put(struct stream *s, uint16_t type, size_t size, uint32_t tid)
{
	struct c2csim_rec *h = (struct c2csim_rec *)(s->buf + s->len);

	size = (size + 7) & ~(size_t)7;
	assert_true(s->len + size <= sizeof(s->buf));
	memset(h, 0, size);
	h->type = type;
	h->size = (uint16_t)size;
	h->tid = tid;
	s->len += size;
	return h;
}

static void make_stream(struct stream *s)
{
	struct c2csim_header *h;
	struct c2csim_thread *t;
	struct c2csim_stats *st;
	int i;

	memset(s, 0, sizeof(*s));
	h = put(s, C2CSIM_REC_HEADER, sizeof(*h), 0);
	h->magic = C2CSIM_MAGIC;
	h->version = C2CSIM_VERSION;
	h->pid = 100;
	h->nr_cpus = 4;
	h->nr_nodes = 2;
	h->line_size = 64;
	h->sample_rate = 10;
	t = put(s, C2CSIM_REC_THREAD, sizeof(*t), 101);
	t->cpu = 1;
	t->node = 1;
	s->sample0 = s->len;
	for (i = 0; i < NR_SAMPLES; i++) {
		struct c2csim_sample *p = put(s, C2CSIM_REC_SAMPLE, sizeof(*p), 100 + i % 3);

		p->time = (uint64_t)i;
		p->ip = 0x401000 + (uint64_t)i;
		p->addr = 0x602000 + 8 * (uint64_t)(i % 8);
		p->cpu = (uint16_t)(i % 4);
		p->period = 1;
		p->flags = i % 4 == 0 ? C2CSIM_SAMPLE_HITM : 0;
	}
	st = put(s, C2CSIM_REC_STATS, sizeof(*st), 0);
	st->v[C2CSIM_ST_LOADS] = 1234;
}

static char *tmp_path(void)
{
	static char path[64];

	snprintf(path, sizeof(path), "/tmp/test_sim_record.%d.data", (int)getpid());
	return path;
}

/* Feeds s in chunks of n bytes (0: whole) and closes; returns feed's result. */
static int feed(const struct stream *s, size_t len, size_t n, struct sim_record_stats *st,
		struct c2c_err *err)
{
	struct sim_record_opts o = { .path = tmp_path(), .comm = "t" };
	struct sim_record *r;
	size_t off;
	int ret = 0;

	assert_int_equal(sim_record_open(&o, &r, err), 0);
	for (off = 0; off < len && ret == 0; off += n ? n : len)
		ret = sim_record_feed(r, s->buf + off, n && len - off > n ? n : len - off, err);
	assert_int_equal(sim_record_close(r, st, err), 0);
	unlink(tmp_path());
	return ret;
}

static void chunks_agree(void **state)
{
	static struct stream s;
	struct sim_record_stats whole, st;
	struct c2c_err err = { 0 };
	size_t n;

	(void)state;
	make_stream(&s);
	assert_int_equal(feed(&s, s.len, 0, &whole, &err), 0);
	assert_int_equal(whole.samples, NR_SAMPLES);
	assert_int_equal(whole.hitm_samples, NR_SAMPLES / 4);
	assert_true(whole.have_totals);
	assert_int_equal(whole.totals[C2CSIM_ST_LOADS], 1234);
	assert_int_equal(whole.threads, 1);
	assert_int_equal(whole.stream_bytes, s.len);
	for (n = 1; n <= 130; n++) {
		assert_int_equal(feed(&s, s.len, n, &st, &err), 0);
		assert_int_equal(st.samples, NR_SAMPLES);
		assert_int_equal(st.hitm_samples, NR_SAMPLES / 4);
		assert_true(st.have_totals);
		assert_int_equal(st.totals[C2CSIM_ST_LOADS], 1234);
		assert_int_equal(st.truncated_bytes, 0);
	}
}

static void bad_size_names_offset(void **state)
{
	static struct stream s;
	struct sim_record_stats st;
	struct c2c_err err = { 0 };
	char want[64];
	size_t n;

	(void)state;
	make_stream(&s);
	((struct c2csim_rec *)(s.buf + s.sample0 + 2 * sizeof(struct c2csim_sample)))->size = 12;
	snprintf(want, sizeof(want), "at 0x%zx: bad record size",
		 s.sample0 + 2 * sizeof(struct c2csim_sample));
	for (n = 0; n <= 64; n += 7) {
		assert_true(feed(&s, s.len, n, &st, &err) < 0);
		assert_non_null(strstr(err.msg, want));
		assert_int_equal(st.samples, 2);
	}
}

static void cut_stream(void **state)
{
	static struct stream s;
	struct sim_record_stats st;
	struct c2c_err err = { 0 };
	size_t cut;

	(void)state;
	make_stream(&s);
	cut = s.sample0 + 5 * sizeof(struct c2csim_sample) + 20;
	assert_int_equal(feed(&s, cut, 9, &st, &err), 0);
	assert_int_equal(st.samples, 5);
	assert_false(st.have_totals);
	assert_int_equal(st.truncated_bytes, 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chunks_agree),
		cmocka_unit_test(bad_size_names_offset),
		cmocka_unit_test(cut_stream),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
