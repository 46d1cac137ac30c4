// SPDX-License-Identifier: GPL-2.0
/*
 * sim_record_feed: the same c2csim stream fed whole and in every chunk size
 * from 1 to 130 bytes gives the same counts; a bad record size is an error
 * that names the stream offset; a stream cut inside a record keeps the
 * whole records and reports the cut bytes; a compact sample writes the
 * same perf.data bytes as the full sample it stands for, for every code.
 * Thinning: a RATE record keeps about 1 in k of the samples already in the
 * file, seeded (the same file twice), with every period multiplied by k,
 * and the counts follow; a rate that is not a multiple of the last is an
 * error naming its offset; max_size bounds the file.
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

#include "perf/perf_data.h"
#include "sim/sim_record.h"

#define NR_SAMPLES 40

struct stream {
	unsigned char buf[1 << 18];
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

/* The stream's header (cycle model 11..17, sample rate 10). */
static void put_header(struct stream *s)
{
	struct c2csim_header *h = put(s, C2CSIM_REC_HEADER, sizeof(*h), 0);
	int i;

	h->magic = C2CSIM_MAGIC;
	h->version = C2CSIM_VERSION;
	h->pid = 100;
	h->nr_cpus = 4;
	h->nr_nodes = 2;
	h->line_size = 64;
	h->sample_rate = 10;
	for (i = 0; i < C2CSIM_NR_COSTS; i++)
		h->cost[i] = 11 + (uint32_t)i;
}

static void make_stream(struct stream *s)
{
	struct c2csim_thread *t;
	struct c2csim_stats *st;
	int i;

	memset(s, 0, sizeof(*s));
	put_header(s);
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
		struct err_msg *err)
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
	struct err_msg err = { 0 };
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
	struct err_msg err = { 0 };
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
	struct err_msg err = { 0 };
	size_t cut;

	(void)state;
	make_stream(&s);
	cut = s.sample0 + 5 * sizeof(struct c2csim_sample) + 20;
	assert_int_equal(feed(&s, cut, 9, &st, &err), 0);
	assert_int_equal(st.samples, 5);
	assert_false(st.have_totals);
	assert_int_equal(st.truncated_bytes, 20);
}

static void read_file(const char *path, unsigned char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	*buf = malloc((size_t)n);
	assert_non_null(*buf);
	assert_int_equal(fread(*buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
}

/* Converts s; the perf.data bytes in *buf. */
static void convert(const struct stream *s, struct sim_record_stats *st, unsigned char **buf,
		    size_t *len)
{
	struct sim_record_opts o = { .path = tmp_path(), .comm = "t" };
	struct err_msg err = { 0 };
	struct sim_record *r;

	assert_int_equal(sim_record_open(&o, &r, &err), 0);
	assert_int_equal(sim_record_feed(r, s->buf, s->len, &err), 0);
	assert_int_equal(sim_record_close(r, st, &err), 0);
	read_file(tmp_path(), buf, len);
	unlink(tmp_path());
}

static void compact_matches_full(void **state)
{
	static struct stream full, compact;
	struct sim_record_stats fst, cst;
	unsigned char *fbuf, *cbuf;
	size_t flen, clen;
	uint32_t code, i = 0;

	(void)state;
	memset(&full, 0, sizeof(full));
	memset(&compact, 0, sizeof(compact));
	put_header(&full);
	put_header(&compact);
	for (code = 0; code <= (MEM_SRC_CODE_CLASS | MEM_SRC_CODE_STORE | MEM_SRC_CODE_LOCKED |
				C2CSIM_CODE_RATE);
	     code++, i++) {
		struct c2csim_sample *p;
		struct c2csim_csample *c;
		uint32_t cls = code & MEM_SRC_CODE_CLASS;

		if (cls >= MEM_SRC_NR_CLASSES ||
		    (code & MEM_SRC_CODE_STORE && code & MEM_SRC_CODE_LOCKED))
			continue; /* no such sample */
		p = put(&full, C2CSIM_REC_SAMPLE, sizeof(*p), 101 + i % 2);
		p->time = 1000 + i;
		p->ip = 0x401000 + i;
		p->addr = 0x602000 + 8 * i;
		p->cpu = (uint16_t)(i % 4);
		p->data_src = mem_src_of_code(code);
		p->weight = 11 + c2csim_class_cost(cls);
		p->period = code & C2CSIM_CODE_RATE ? 10 : 1;
		p->flags = (uint16_t)c2csim_code_flags(code);
		p->size = 8;
		c = put(&compact, C2CSIM_REC_CSAMPLE, sizeof(*c), 101 + i % 2);
		c->tcc = (1000 + (uint64_t)i) << 16 | (uint64_t)(i % 4) << 8 | code;
		c->ip = p->ip;
		c->addr = p->addr;
	}
	convert(&full, &fst, &fbuf, &flen);
	convert(&compact, &cst, &cbuf, &clen);
	assert_int_equal(fst.samples, cst.samples);
	assert_true(fst.samples >= 7 * 3 * 2);
	assert_int_equal(fst.hitm_samples, cst.hitm_samples);
	assert_int_equal(fst.hitm_samples, 2 * 2 * 2); /* 2 classes x locked x rate */
	assert_int_equal(fst.store_miss_samples, cst.store_miss_samples);
	assert_int_equal(fst.store_miss_samples, 6); /* 6 miss classes, period 1 */
	assert_int_equal(flen, clen);
	assert_memory_equal(fbuf, cbuf, flen);
	free(fbuf);
	free(cbuf);
}

/* n compact HITM samples (code LCL_HITM, period 1 x the rate) from time t0 */
static void put_hitms(struct stream *s, uint32_t n, uint64_t t0)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct c2csim_csample *c = put(s, C2CSIM_REC_CSAMPLE, sizeof(*c), 101 + i % 2);

		c->tcc = (t0 + i) << 16 | (uint64_t)(i % 4) << 8 | MEM_SRC_CLS_LCL_HITM;
		c->ip = 0x401000 + i % 16;
		c->addr = 0x602000 + 8 * (i % 8);
	}
}

static void put_rate(struct stream *s, uint32_t rate, uint64_t time)
{
	struct c2csim_rate *r = put(s, C2CSIM_REC_RATE, sizeof(*r), 0);

	r->rate = rate;
	r->time = time;
}

/* The periods of the samples in the converted file: how many of each (1..16). */
static void count_periods(const char *path, uint64_t *n_by_period, uint64_t *n)
{
	struct perf_reader *pr;
	struct perf_event_rec ev;
	struct err_msg err = { 0 };
	int ret;

	*n = 0;
	assert_int_equal(perf_reader_open(path, &pr, &err), 0);
	while ((ret = perf_reader_next(pr, &ev, &err)) > 0) {
		if (ev.kind != PERF_REC_SAMPLE)
			continue;
		assert_true(ev.sample.period <= 16);
		n_by_period[ev.sample.period]++;
		(*n)++;
	}
	assert_int_equal(ret, 0);
	perf_reader_close(pr);
}

static void thinning(void **state)
{
	static struct stream s;
	struct sim_record_stats st, st2;
	uint64_t by_period[17] = { 0 }, n;
	unsigned char *buf, *buf2;
	size_t len, len2;

	(void)state;
	memset(&s, 0, sizeof(s));
	put_header(&s);
	put_hitms(&s, 4000, 0);
	put_rate(&s, 4, 4000);
	put_hitms(&s, 1000, 4000);
	put_rate(&s, 8, 5000);
	put_hitms(&s, 500, 5000);
	convert(&s, &st, &buf, &len);
	convert(&s, &st2, &buf2, &len2); /* seeded: the same samples kept */
	assert_int_equal(len, len2);
	assert_memory_equal(buf, buf2, len);
	assert_int_equal(st.hitm_rate, 8);
	assert_int_equal(st.thin_passes, 2);
	/* 4000 kept 1 in 8, 1000 kept 1 in 2, 500 all: 1500 expected, sigma ~27 */
	assert_int_equal(st.samples + st.thinned, 5500);
	assert_true(st.samples > 1400 && st.samples < 1600);
	assert_int_equal(st.hitm_samples, st.samples);
	free(buf2);
	free(buf);
	{ /* every sample in the finished file has the final period */
		struct sim_record_opts o = { .path = tmp_path(), .comm = "t" };
		struct sim_record *r;
		struct err_msg err = { 0 };

		assert_int_equal(sim_record_open(&o, &r, &err), 0);
		assert_int_equal(sim_record_feed(r, s.buf, s.len, &err), 0);
		assert_int_equal(sim_record_close(r, &st, &err), 0);
		count_periods(tmp_path(), by_period, &n);
		unlink(tmp_path());
	}
	assert_int_equal(n, st.samples);
	assert_int_equal(by_period[8], st.samples);
}

static void thinning_errors(void **state)
{
	static struct stream s;
	struct sim_record_stats st;
	struct err_msg err = { 0 };
	size_t at;
	char want[80];

	(void)state;
	memset(&s, 0, sizeof(s));
	put_header(&s);
	put_hitms(&s, 10, 0);
	put_rate(&s, 4, 10);
	at = s.len;
	put_rate(&s, 6, 10); /* not a multiple of 4 */
	snprintf(want, sizeof(want), "at 0x%zx: expected a thinning rate", at);
	assert_true(feed(&s, s.len, 0, &st, &err) < 0);
	assert_non_null(strstr(err.msg, want));
}

/* max_size: no sample past it; the finished file stays under it. */
static void max_size_bounds(void **state)
{
	static struct stream s;
	struct sim_record_opts o = { .path = tmp_path(), .comm = "t", .max_size = 1200 << 10 };
	struct sim_record_stats st;
	struct err_msg err = { 0 };
	struct sim_record *r;
	FILE *f;
	long size;
	int i;

	(void)state;
	memset(&s, 0, sizeof(s));
	put_header(&s);
	put_hitms(&s, 8000, 0); /* 640 KB of perf.data samples */
	assert_int_equal(sim_record_open(&o, &r, &err), 0);
	for (i = 0; i < 3; i++) /* the header again is an error: only the samples */
		assert_int_equal(sim_record_feed(r, s.buf + (i ? sizeof(struct c2csim_header) : 0),
						 s.len - (i ? sizeof(struct c2csim_header) : 0),
						 &err),
				 0);
	assert_int_equal(sim_record_close(r, &st, &err), 0);
	f = fopen(tmp_path(), "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	unlink(tmp_path());
	assert_true(size <= 1200 << 10);
	assert_true(st.over_size > 0);
	assert_int_equal(st.samples + st.over_size, 24000);
}

/*
 * Every code's data_src, bit for bit as perf's own header spells them:
 * loads by class (remote: the remote bit and hops 2, another socket),
 * stores at L1, a hit when the store owned the line, else an L1 miss.
 */
static void sim_data_src(void **state)
{
#define LD(lvl, snoop, lnum)                                                  \
	(PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, lvl) | \
	 PERF_MEM_S(SNOOP, snoop) | PERF_MEM_S(LVLNUM, lnum) | PERF_MEM_S(TLB, NA))
#define RMT (PERF_MEM_S(REMOTE, REMOTE) | PERF_MEM_S(HOPS, 2))
#define PEER PERF_MEM_S(SNOOPX, PEER)
	static const uint64_t load[MEM_SRC_NR_CLASSES] = {
		[MEM_SRC_CLS_L1] = LD(L1, NONE, L1),
		[MEM_SRC_CLS_LCL_PEER] = LD(L3, HIT, L3) | PEER,
		[MEM_SRC_CLS_RMT_PEER] = LD(REM_CCE1, HIT, ANY_CACHE) | PEER | RMT,
		[MEM_SRC_CLS_LCL_HITM] = LD(L3, HITM, L3),
		[MEM_SRC_CLS_RMT_HITM] = LD(REM_CCE1, HITM, ANY_CACHE) | RMT,
		[MEM_SRC_CLS_LCL_DRAM] = LD(LOC_RAM, MISS, RAM),
		[MEM_SRC_CLS_RMT_DRAM] = LD(REM_RAM1, MISS, RAM) | RMT,
	};
	const uint64_t store = PERF_MEM_S(OP, STORE) | PERF_MEM_S(LVL, L1) | PERF_MEM_S(SNOOP, NA) |
			       PERF_MEM_S(LVLNUM, L1) | PERF_MEM_S(TLB, NA) | PERF_MEM_S(LOCK, NA);
	uint32_t cls;

	(void)state;
	for (cls = 0; cls < MEM_SRC_NR_CLASSES; cls++) {
		assert_int_equal(mem_src_of_code(cls), load[cls] | PERF_MEM_S(LOCK, NA));
		assert_int_equal(mem_src_of_code(cls | MEM_SRC_CODE_LOCKED),
				 load[cls] | PERF_MEM_S(LOCK, LOCKED));
		assert_int_equal(mem_src_of_code(cls | MEM_SRC_CODE_STORE),
				 store | (cls == MEM_SRC_CLS_L1 ? PERF_MEM_S(LVL, HIT) :
								  PERF_MEM_S(LVL, MISS)));
		/* what perf counts them as: the HITM classes are HITMs, remote or not */
		assert_int_equal(mem_src_is_hitm(mem_src_of_code(cls), MEM_SRC_PERF61),
				 cls == MEM_SRC_CLS_LCL_HITM || cls == MEM_SRC_CLS_RMT_HITM);
		assert_int_equal(mem_src_is_store_miss(mem_src_of_code(cls | MEM_SRC_CODE_STORE)),
				 cls != MEM_SRC_CLS_L1);
	}
#undef LD
#undef RMT
#undef PEER
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chunks_agree),	   cmocka_unit_test(bad_size_names_offset),
		cmocka_unit_test(cut_stream),	   cmocka_unit_test(compact_matches_full),
		cmocka_unit_test(sim_data_src),	   cmocka_unit_test(thinning),
		cmocka_unit_test(thinning_errors), cmocka_unit_test(max_size_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
