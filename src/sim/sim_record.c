// SPDX-License-Identifier: GPL-2.0
/*
 * c2csim stream -> perf.data. The two events are written the way
 * `perf c2c record` names them on Intel (cpu/mem-loads,ldlat=30/P and
 * cpu/mem-stores/P) so `perf c2c report` reads the file as its own; the
 * weights are simulated cycles and the times virtual instructions.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heap/heap.h"
#include "perf/perf_data.h"
#include "sim/sim_record.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define SIM_MEM_PER_NODE_KB (8ULL << 20) /* 8 GiB per virtual node */
#define SIM_ROUND_SAMPLES 4096
/* A sample as written: header + IDENTIFIER, IP, TID, TIME, ADDR, CPU, PERIOD, WEIGHT, DATA_SRC */
#define SIM_SAMPLE_BYTES (8 + 9 * 8)
#define SIM_SIZE_RESERVE (1 << 20) /* for the features, header and records besides samples */

/* What a sample in the file was, for the counts after a thinning */
enum { KIND_HITM = 1, KIND_STORE_MISS = 2 };

struct sim_record {
	struct perf_writer *w;
	struct sim_record_opts opts;
	struct sim_record_stats st;
	uint32_t pid;
	unsigned char *pending; /* bytes of an incomplete record */
	size_t pending_len, pending_alloc;
	uint64_t offset; /* stream offset of pending[0] */
	uint64_t seen_tids[256]; /* tids given a COMM (small set, linear) */
	size_t nr_seen_tids, last_seen;
	uint64_t since_round;
	uint64_t last_time; /* of the last record written */
	uint32_t cost[C2CSIM_NR_COSTS]; /* the cycle model: compact samples' weights */
	uint64_t seed;
	uint8_t *kinds; /* KIND_* of every sample in the file, in file order */
	size_t nr_kinds, alloc_kinds;
	uint32_t thin_k; /* the thinning under way: keep 1 in thin_k */
	size_t thin_in, thin_out; /* its position in kinds */
	uint64_t thin_rng, thin_bits; /* its coins: xorshift seeded per pass, bits left */
	unsigned int thin_nbits;
	struct perf_sample sample; /* zeroed once; put_sample sets its fields */
	struct heap_table *heap; /* from ALLOC and FREE records (version 4) */
	bool full; /* the output filled up: later samples are counted, not kept */
};

static void fill_info(struct sim_record *r, struct perf_writer_info *info,
		      struct perf_numa_node *nodes, struct strbuf *lists, struct strbuf *desc,
		      struct strbuf *heap);

static void release_lists(struct sim_record *r, struct strbuf *lists, struct strbuf *desc)
{
	uint32_t n;

	for (n = 0; r->st.have_header && n < r->st.nr_nodes; n++)
		strbuf_release(&lists[n]);
	strbuf_release(desc);
}

/* The virtual topology and the thinning rate, for the writer's checkpoints. */
static void set_writer_info(struct sim_record *r)
{
	struct perf_numa_node nodes[C2CSIM_MAX_NODES];
	struct strbuf lists[C2CSIM_MAX_NODES];
	struct strbuf desc = STRBUF_INIT;
	struct perf_writer_info info;

	fill_info(r, &info, nodes, lists, &desc, NULL); /* checkpoints go without the heap */
	perf_writer_set_info(r->w, &info);
	release_lists(r, lists, &desc);
}

enum { EV_LOADS, EV_STORES };

static const struct perf_writer_event sim_events[] = {
	[EV_LOADS] = {
		.type = PERF_TYPE_RAW, .config = 0x1cd, .config1 = 30, .precise_ip = true,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			       PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC,
		.name = "cpu/mem-loads,ldlat=30/P",
	},
	[EV_STORES] = {
		.type = PERF_TYPE_RAW, .config = 0x82d0, .precise_ip = true,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			       PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC,
		.name = "cpu/mem-stores/P",
	},
};

uint64_t sim_record_budget_samples(uint64_t max_size)
{
	uint64_t room = max_size - max_size / 8;

	if (room <= SIM_SIZE_RESERVE + SIM_SAMPLE_BYTES)
		return 1;
	return (room - SIM_SIZE_RESERVE) / SIM_SAMPLE_BYTES;
}

int sim_record_open(const struct sim_record_opts *opts, struct sim_record **out,
		    struct err_msg *err)
{
	struct sim_record *r = xcalloc(1, sizeof(*r));
	int ret;

	r->opts = *opts;
	ret = perf_writer_open(opts->path, sim_events, ARRAY_SIZE(sim_events), &r->w, err);
	if (ret < 0) {
		free(r);
		return ret;
	}
	*out = r;
	return 0;
}

static int bad(struct sim_record *r, uint64_t at, const char *what, struct err_msg *err)
{
	return err_set(err, EPROTO, "c2csim stream: at 0x%llx: %s", (unsigned long long)at, what);
}

/*
 * Records go out in time order, so readers need no second, sorting pass.
 * A mapping carries its creator's clock, which other threads' samples
 * already written may have passed; it is moved up to the last time
 * written. Every sample that can use it comes later in the stream, whose
 * samples are in time order, so none precedes it.
 */
static uint64_t in_order(struct sim_record *r, uint64_t time)
{
	if (time < r->last_time)
		return r->last_time;
	r->last_time = time;
	return time;
}

static int write_comm(struct sim_record *r, uint32_t tid, uint64_t time)
{
	struct perf_comm c = { .pid = r->pid, .tid = tid, .comm = r->opts.comm };
	size_t i;

	if (r->nr_seen_tids && r->seen_tids[r->last_seen] == tid)
		return 0; /* the common case: the same thread as the last sample */
	for (i = 0; i < r->nr_seen_tids; i++)
		if (r->seen_tids[i] == tid) {
			r->last_seen = i;
			return 0;
		}
	if (r->nr_seen_tids < ARRAY_SIZE(r->seen_tids))
		r->seen_tids[r->nr_seen_tids++] = tid;
	return perf_writer_comm(r->w, &c, in_order(r, time));
}

static int on_header(struct sim_record *r, const struct c2csim_header *h, uint64_t at,
		     struct err_msg *err)
{
	if (h->magic != C2CSIM_MAGIC || h->version < 1 || h->version > C2CSIM_VERSION)
		return bad(r, at, "expected a c2csim header (magic CSIM, version 1 to 4)", err);
	if (!h->nr_cpus || h->nr_cpus > C2CSIM_MAX_CPUS || !h->nr_nodes ||
	    h->nr_nodes > C2CSIM_MAX_NODES || h->nr_nodes > h->nr_cpus)
		return bad(r, at, "virtual topology out of range", err);
	r->st.have_header = true;
	r->pid = h->pid;
	r->st.nr_cpus = h->nr_cpus;
	r->st.nr_nodes = h->nr_nodes;
	r->st.line_size = h->line_size;
	r->st.sample_rate = h->sample_rate;
	r->st.hitm_rate = h->version >= 3 && h->hitm_rate ? h->hitm_rate : 1;
	r->seed = h->seed;
	memcpy(r->cost, h->cost, sizeof(r->cost));
	set_writer_info(r);
	return write_comm(r, h->pid, 0);
}

static int on_mmap(struct sim_record *r, const struct c2csim_mmap *m, size_t size)
{
	struct perf_mmap pm = {
		.pid = r->pid,
		.tid = r->pid,
		.start = m->start,
		.len = m->len,
		.pgoff = m->pgoff,
		.is_mmap2 = true,
		.maj = m->maj,
		.min = m->min,
		.ino = m->ino,
		.prot = m->prot,
		.flags = m->flags,
		.filename = m->filename,
	};

	if (!memchr(m->filename, 0, size - sizeof(*m)))
		return -EPROTO;
	r->st.mmaps++;
	return perf_writer_mmap2(r->w, &pm, in_order(r, m->time));
}

/* One sample, whichever record it came in. */
static int put_sample(struct sim_record *r, uint32_t tid, uint64_t time, uint64_t ip, uint64_t addr,
		      uint32_t cpu, uint64_t data_src, uint32_t weight, uint32_t period,
		      uint32_t flags)
{
	bool store = flags & C2CSIM_SAMPLE_STORE;
	struct perf_sample *s = &r->sample; /* not zeroing a large struct per sample */
	int ret;

	uint8_t kind = 0;

	if (cpu >= r->st.nr_cpus)
		return -ERANGE;
	if (r->opts.max_size && !r->full && /* a full writer drops it anyway: not over the size */
	    perf_writer_size(r->w) + SIM_SAMPLE_BYTES + SIM_SIZE_RESERVE > r->opts.max_size) {
		r->st.over_size++;
		return 0;
	}
	r->st.samples++;
	if (flags & C2CSIM_SAMPLE_HITM)
		kind |= KIND_HITM;
	if (period == r->st.hitm_rate && mem_src_is_store_miss(data_src))
		kind |= KIND_STORE_MISS;
	r->st.hitm_samples += !!(kind & KIND_HITM);
	r->st.store_miss_samples += !!(kind & KIND_STORE_MISS);
	r->kinds = xgrow(r->kinds, &r->alloc_kinds, r->nr_kinds + 1, 1);
	r->kinds[r->nr_kinds++] = kind;
	ret = write_comm(r, tid, time);
	if (ret < 0)
		return ret;
	s->attr_index = store ? EV_STORES : EV_LOADS;
	s->ip = ip;
	s->pid = r->pid;
	s->tid = tid;
	s->time = in_order(r, time);
	s->addr = addr;
	s->cpu = cpu;
	s->period = period;
	s->weight = weight;
	s->data_src = data_src;
	ret = perf_writer_sample(r->w, s);
	if (ret >= 0 && ++r->since_round >= SIM_ROUND_SAMPLES) {
		r->since_round = 0;
		ret = perf_writer_finished_round(r->w);
	}
	return ret;
}

/* Seeded: the same stream, seed and rate keep the same samples. */
static uint64_t mix64(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ULL;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

/* True: drop the next sample (probability 1 - 1/thin_k). */
static bool thin_coin(struct sim_record *r)
{
	uint64_t x;

	if (!(r->thin_k & (r->thin_k - 1))) { /* a power of 2: log2(k) bits a sample */
		unsigned int n = __builtin_ctz(r->thin_k);

		if (r->thin_nbits < n) {
			r->thin_bits = mix64(r->thin_rng++);
			r->thin_nbits = 64;
		}
		x = r->thin_bits & (r->thin_k - 1);
		r->thin_bits >>= n;
		r->thin_nbits -= n;
		return x != 0;
	}
	return mix64(r->thin_rng++) % r->thin_k != 0;
}

static bool thin_keep(void *ctx, size_t attr_index, uint64_t *period)
{
	struct sim_record *r = ctx;
	size_t i = r->thin_in++;
	uint8_t kind = i < r->nr_kinds ? r->kinds[i] : 0;

	(void)attr_index;
	if (thin_coin(r)) {
		r->st.thinned++;
		r->st.samples--;
		r->st.hitm_samples -= !!(kind & KIND_HITM);
		r->st.store_miss_samples -= !!(kind & KIND_STORE_MISS);
		return false;
	}
	if (period)
		*period *= r->thin_k;
	if (r->thin_out < r->nr_kinds)
		r->kinds[r->thin_out++] = kind;
	return true;
}

/* The tool thins from here on: thin what the file holds by the same factor. */
static int on_rate(struct sim_record *r, const struct c2csim_rate *p, uint64_t at,
		   struct err_msg *err)
{
	int64_t kept;

	if (p->rate < r->st.hitm_rate || p->rate % r->st.hitm_rate)
		return bad(r, at, "expected a thinning rate that is a multiple of the last", err);
	if (p->rate == r->st.hitm_rate)
		return 0;
	if (r->full) /* the writer keeps no more: the kept samples stay at the old rate */
		return 0;
	r->thin_k = p->rate / r->st.hitm_rate;
	r->thin_in = r->thin_out = 0;
	r->thin_rng = mix64(r->seed ^ (r->st.thin_passes + 1) << 40);
	r->thin_nbits = 0;
	r->st.hitm_rate = p->rate;
	set_writer_info(r); /* the new rate in the checkpoint after the pass */
	kept = perf_writer_thin(r->w, thin_keep, r);
	r->nr_kinds = r->thin_out;
	r->st.thin_passes++;
	if (kept == -EFBIG || kept == -ENOSPC || kept == -EDQUOT) {
		r->full = true; /* the cut keeps the thinned samples written before it */
		return 0;
	}
	if (kept < 0)
		return err_set(err, (int)-kept, "%s: thinning the samples: %s", r->opts.path,
			       strerror((int)-kept));
	return 0;
}

static int on_sample(struct sim_record *r, const struct c2csim_sample *p)
{
	return put_sample(r, p->h.tid, p->time, p->ip, p->addr, p->cpu, p->data_src, p->weight,
			  p->period, p->flags);
}

/* data_src, weight and period from the code and the header's cycle model */
static int on_csample(struct sim_record *r, const struct c2csim_csample *p)
{
	uint32_t code = p->tcc & 0xff;

	return put_sample(
		r, p->h.tid, p->tcc >> 16, p->ip, p->addr, (p->tcc >> 8) & 0xff,
		mem_src_of_code(code), r->cost[c2csim_class_cost(code & MEM_SRC_CODE_CLASS)],
		mem_src_sim_period(code & C2CSIM_CODE_RATE, r->st.sample_rate, r->st.hitm_rate),
		c2csim_code_flags(code));
}

static int on_alloc(struct sim_record *r, const struct c2csim_alloc *a, size_t size)
{
	struct heap_block b = { 0 };
	uint32_t i;

	if (a->nr_frames > C2CSIM_ALLOC_FRAMES ||
	    sizeof(*a) + a->nr_frames * sizeof(a->frames[0]) > size)
		return -EPROTO;
	b.addr = a->addr;
	b.size = a->size;
	b.alloc_time = a->time;
	b.free_time = HEAP_NEVER;
	b.tid = a->h.tid;
	b.kind = a->kind < HEAP_NR_KINDS ? (uint16_t)a->kind : HEAP_MALLOC;
	b.nr_frames = (uint16_t)a->nr_frames;
	for (i = 0; i < a->nr_frames && i < HEAP_MAX_FRAMES; i++)
		b.frames[i] = a->frames[i];
	if (!r->heap)
		r->heap = heap_table_new();
	heap_table_alloc(r->heap, &b);
	r->st.allocs++;
	return 0;
}

static void on_free(struct sim_record *r, const struct c2csim_free *f)
{
	if (!r->heap)
		r->heap = heap_table_new();
	heap_table_release(r->heap, f->addr, f->time); /* unmatched: counted by the table */
	r->st.frees++;
}

static size_t min_size(uint16_t type)
{
	switch (type) {
	case C2CSIM_REC_HEADER:
		return sizeof(struct c2csim_header);
	case C2CSIM_REC_THREAD:
		return sizeof(struct c2csim_thread);
	case C2CSIM_REC_MMAP:
		return sizeof(struct c2csim_mmap) + 1;
	case C2CSIM_REC_SAMPLE:
		return sizeof(struct c2csim_sample);
	case C2CSIM_REC_CSAMPLE:
		return sizeof(struct c2csim_csample);
	case C2CSIM_REC_STATS: /* a version 3 tool sent fewer totals */
		return sizeof(struct c2csim_rec) + C2CSIM_ST_ALLOCS * sizeof(uint64_t);
	case C2CSIM_REC_ALLOC:
		return sizeof(struct c2csim_alloc);
	case C2CSIM_REC_FREE:
		return sizeof(struct c2csim_free);
	case C2CSIM_REC_RATE:
		return sizeof(struct c2csim_rate);
	default:
		return sizeof(struct c2csim_rec);
	}
}

/* One whole record (aligned copy in rec). */
static int on_record(struct sim_record *r, const void *rec, uint64_t at, struct err_msg *err)
{
	const struct c2csim_rec *h = rec;
	int ret = 0;

	if (h->size < min_size(h->type))
		return bad(r, at, "record smaller than its type needs", err);
	if (!r->st.have_header && h->type != C2CSIM_REC_HEADER)
		return bad(r, at, "expected the c2csim header first", err);
	switch (h->type) {
	case C2CSIM_REC_HEADER:
		return on_header(r, rec, at, err);
	case C2CSIM_REC_THREAD:
		r->st.threads++;
		ret = write_comm(r, h->tid, ((const struct c2csim_thread *)rec)->time);
		break;
	case C2CSIM_REC_MMAP:
		ret = on_mmap(r, rec, h->size);
		break;
	case C2CSIM_REC_SAMPLE:
		ret = on_sample(r, rec);
		break;
	case C2CSIM_REC_CSAMPLE:
		ret = on_csample(r, rec);
		break;
	case C2CSIM_REC_RATE:
		return on_rate(r, rec, at, err);
	case C2CSIM_REC_STATS:
		memset(r->st.totals, 0, sizeof(r->st.totals));
		memcpy(r->st.totals, ((const struct c2csim_stats *)rec)->v,
		       h->size - sizeof(*h) < sizeof(r->st.totals) ? h->size - sizeof(*h) :
								     sizeof(r->st.totals));
		r->st.have_totals = true;
		break;
	case C2CSIM_REC_ALLOC:
		if (on_alloc(r, rec, h->size))
			return bad(r, at, "allocation record with more frames than it holds", err);
		break;
	case C2CSIM_REC_FREE:
		on_free(r, rec);
		break;
	default: /* a newer tool's record: skip */
		break;
	}
	if (ret == -EPROTO || ret == -ERANGE) /* from samples and mappings */
		return bad(r, at,
			   ret == -ERANGE ? "sample cpu beyond the virtual cpus" :
					    "mapping name not terminated",
			   err);
	if (ret == -EFBIG || ret == -ENOSPC || ret == -EDQUOT) {
		r->full = true; /* the writer drops the rest and cuts at close */
		return 0;
	}
	if (ret < 0)
		return err_set(err, -ret, "%s: writing: %s", r->opts.path, strerror(-ret));
	return 0;
}

/*
 * Whole records at data[0..len), stream offset at; *used gets the bytes
 * of the records taken (an incomplete one at the end is left).
 */
static int feed_records(struct sim_record *r, const unsigned char *data, size_t len, uint64_t at,
			size_t *used, struct err_msg *err)
{
	uint64_t rec_buf[C2CSIM_MAX_REC / 8];
	int ret;

	*used = 0;
	while (len - *used >= sizeof(struct c2csim_rec)) {
		struct c2csim_rec h;

		memcpy(&h, data + *used, sizeof(h));
		if (h.size < sizeof(h) || h.size % 8 || h.size > C2CSIM_MAX_REC)
			return bad(r, at + *used, "bad record size", err);
		if (len - *used < h.size)
			break;
		if ((uintptr_t)(data + *used) % 8) { /* align for the record's fields */
			memcpy(rec_buf, data + *used, h.size);
			ret = on_record(r, rec_buf, at + *used, err);
		} else {
			ret = on_record(r, data + *used, at + *used, err);
		}
		if (ret < 0)
			return ret;
		*used += h.size;
	}
	return 0;
}

/* Bytes still missing from the record begun in pending (at least a header). */
static size_t pending_missing(const struct sim_record *r)
{
	struct c2csim_rec h;

	if (r->pending_len < sizeof(h))
		return sizeof(h) - r->pending_len;
	memcpy(&h, r->pending, sizeof(h));
	return h.size > r->pending_len && h.size <= C2CSIM_MAX_REC ? h.size - r->pending_len : 0;
}

static void pending_add(struct sim_record *r, const void *buf, size_t n)
{
	r->pending = xgrow(r->pending, &r->pending_alloc, r->pending_len + n, 1);
	memcpy(r->pending + r->pending_len, buf, n);
	r->pending_len += n;
}

/*
 * Records are taken straight from buf; only a record cut by the end of a
 * read waits in pending for the rest of its bytes.
 */
int sim_record_feed(struct sim_record *r, const void *buf, size_t len, struct err_msg *err)
{
	const unsigned char *p = buf;
	size_t used = 0, take;
	int ret;

	r->st.stream_bytes += len;
	while (r->pending_len && len) { /* finish the record a read cut */
		take = pending_missing(r);
		if (take > len)
			take = len;
		pending_add(r, p, take);
		p += take;
		len -= take;
		ret = feed_records(r, r->pending, r->pending_len, r->offset, &used, err);
		if (ret < 0)
			return ret;
		if (!used && take)
			continue; /* a header only so far: now the rest of that record */
		r->offset += used;
		r->pending_len -= used;
		if (r->pending_len) /* still incomplete: len is 0 */
			return 0;
	}
	ret = feed_records(r, p, len, r->offset, &used, err);
	if (ret < 0)
		return ret;
	r->offset += used;
	if (used < len)
		pending_add(r, p + used, len - used);
	return 0;
}

/* The thinning rate is written in the file's CPUDESC too (perf report --header-only). */
static void fill_info(struct sim_record *r, struct perf_writer_info *info,
		      struct perf_numa_node *nodes, struct strbuf *lists, struct strbuf *desc,
		      struct strbuf *heap)
{
	uint32_t n, c;

	memset(info, 0, sizeof(*info));
	info->cmdline = r->opts.cmdline;
	strbuf_addf(desc, "c2csim virtual cpu (weights are simulated cycles");
	if (r->st.hitm_rate > 1)
		strbuf_addf(desc, "; HITMs and store misses sampled 1 in %u, period %u",
			    r->st.hitm_rate, r->st.hitm_rate);
	strbuf_addf(desc, ")");
	info->cpudesc = desc->buf;
	if (!r->st.have_header)
		return;
	if (heap && r->heap) {
		heap_table_encode(r->heap, heap);
		info->heap_blocks = heap->buf;
		info->heap_blocks_size = heap->len;
	}
	info->nr_cpus_avail = info->nr_cpus_online = r->st.nr_cpus;
	info->nr_numa_nodes = r->st.nr_nodes;
	info->numa_nodes = nodes;
	for (n = 0; n < r->st.nr_nodes; n++) {
		strbuf_init(&lists[n], 16);
		for (c = n; c < r->st.nr_cpus; c += r->st.nr_nodes)
			strbuf_addf(&lists[n], "%s%u", c == n ? "" : ",", c);
		nodes[n].node = n;
		nodes[n].mem_total = SIM_MEM_PER_NODE_KB;
		nodes[n].mem_free = SIM_MEM_PER_NODE_KB / 2;
		nodes[n].cpus = lists[n].buf;
	}
}

int sim_record_close(struct sim_record *r, struct sim_record_stats *st, struct err_msg *err)
{
	struct perf_numa_node nodes[C2CSIM_MAX_NODES];
	struct strbuf lists[C2CSIM_MAX_NODES];
	struct perf_writer_info info;
	struct strbuf desc = STRBUF_INIT, heap = STRBUF_INIT;
	struct perf_writer_result res;
	int ret;

	r->st.truncated_bytes = r->pending_len;
	if (r->heap)
		r->st.heap_unmatched = heap_table_unmatched(r->heap);
	fill_info(r, &info, nodes, lists, &desc, &heap);
	ret = perf_writer_finish(r->w, &info, &res, err);
	release_lists(r, lists, &desc);
	strbuf_release(&heap);
	heap_table_free(r->heap);
	r->st.cut = res.cut;
	r->st.kept_samples = res.samples;
	if (st)
		*st = r->st;
	free(r->kinds);
	free(r->pending);
	free(r);
	return ret;
}

void sim_record_abort(struct sim_record *r)
{
	perf_writer_abort(r->w);
	heap_table_free(r->heap);
	free(r->kinds);
	free(r->pending);
	free(r);
}
