// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a perf.data into the c2c model: address spaces follow MMAP,
 * FORK and COMM records; each sample's code and data addresses are looked
 * up in them as perf's machine__resolve/sample__resolve_mem do.
 */
#include "c2c/c2c_session.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c2c/c2c_order.h"
#include "perf/mem_src.h"
#include "heap/heap.h"
#include "perf/perf_data.h"
#include "util/progress.h"
#include "util/xalloc.h"

#define DEFAULT_NR_CPUS 4096

/* "0-3,8" -> cpu2node[cpu] = node; false on a malformed list. */
static bool parse_cpu_list(const char *list, uint32_t node, int *cpu2node, uint32_t nr_cpus)
{
	const char *p = list;

	while (p && *p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a, c;

		if (end == p)
			return false;
		if (*end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
			if (end == p || b < a)
				return false;
		}
		for (c = a; c <= b && c < nr_cpus; c++)
			cpu2node[c] = (int)node;
		p = *end == ',' ? end + 1 : NULL;
		if (*end && *end != ',')
			return false;
	}
	return true;
}

static char *dup_or_null(const char *v)
{
	return v ? xstrdup(v) : NULL;
}

/* Damaged heap blocks name nothing, and say so. */
static void setup_heap(struct c2c_session *s, const struct perf_header_info *h)
{
	struct err_msg err = { 0 };

	if (!h->heap_blocks_size || s->heap)
		return;
	if (heap_table_decode(h->heap_blocks, h->heap_blocks_size, s->opts.path, &s->heap, &err))
		strbuf_addf(&s->warnings, "%s; heap addresses are not named by block\n", err.msg);
}

static void setup_machine(struct c2c_machine *mc, const struct perf_header_info *h)
{
	size_t i;

	mc->hostname = dup_or_null(h->hostname);
	mc->osrelease = dup_or_null(h->osrelease);
	mc->arch = dup_or_null(h->arch);
	mc->cpudesc = dup_or_null(h->cpudesc);
	mc->perf_version = dup_or_null(h->version);
	mc->nr_cpus_online = h->nr_cpus_online;
	mc->nr_cpus_avail = h->nr_cpus_avail;
	mc->nr_nodes = (uint32_t)h->nr_numa_nodes;
	mc->total_mem = h->total_mem;
	for (i = 0; i < h->nr_build_ids; i++) {
		const struct perf_build_id *b = &h->build_ids[i];

		if (b->filename && !strncmp(b->filename, "[kernel.kallsyms]", 17) &&
		    b->size <= sizeof(mc->kernel_build_id)) {
			memcpy(mc->kernel_build_id, b->id, b->size);
			mc->kernel_build_id_size = b->size;
		}
	}
}

static void setup_topology(struct c2c_session *s, const struct perf_header_info *h)
{
	struct c2c_model_opts *mo = &s->opts.model;
	uint32_t i;

	mo->nr_cpus = h->nr_cpus_avail ? h->nr_cpus_avail : DEFAULT_NR_CPUS;
	mo->nr_nodes = (uint32_t)h->nr_numa_nodes;
	s->cpu2node = xmalloc(mo->nr_cpus * sizeof(int));
	for (i = 0; i < mo->nr_cpus; i++)
		s->cpu2node[i] = -1;
	for (i = 0; i < h->nr_numa_nodes; i++) {
		const struct perf_numa_node *n = &h->numa_nodes[i];

		if (n->node >= mo->nr_nodes)
			mo->nr_nodes = n->node + 1;
		if (n->cpus && !parse_cpu_list(n->cpus, n->node, s->cpu2node, mo->nr_cpus))
			strbuf_addf(&s->warnings,
				    "NUMA_TOPOLOGY: node %u: cannot read cpu list '%s'\n", n->node,
				    n->cpus);
	}
	mo->cpu2node = s->cpu2node;
	setup_machine(&s->machine, h);
	setup_heap(s, h);
	if (h->nr_mem_ranges) {
		s->mem = xcalloc(h->nr_mem_ranges, sizeof(*s->mem));
		for (i = 0; i < h->nr_mem_ranges; i++) {
			s->mem[i].start = h->mem_ranges[i].start;
			s->mem[i].end = h->mem_ranges[i].end;
			s->mem[i].node = h->mem_ranges[i].node;
		}
		mo->mem = s->mem;
		mo->nr_mem = h->nr_mem_ranges;
	}
	if (!s->opts.display_given)
		mo->display = h->arch && !strcmp(h->arch, "arm64") ? C2C_DISPLAY_PEER :
								     C2C_DISPLAY_TOT;
}

/* perf's evsel__name(): the EVENT_DESC name, else a raw encoding. */
static void setup_events(struct c2c_session *s, struct perf_reader *r)
{
	size_t i;

	s->nr_events = perf_reader_nr_attrs(r);
	s->event_names = xcalloc(s->nr_events + 1, sizeof(char *));
	for (i = 0; i < s->nr_events; i++) {
		const struct perf_attr_info *a = perf_reader_attr(r, i);
		struct strbuf sb = STRBUF_INIT;

		if (a->name)
			strbuf_addstr(&sb, a->name);
		else if (a->type == 4 /* PERF_TYPE_RAW */)
			strbuf_addf(&sb, "r%" PRIx64, a->config);
		else
			strbuf_addf(&sb, "event %u:0x%" PRIx64, a->type, a->config);
		s->event_names[i] = strbuf_detach(&sb, NULL);
	}
}

/*
 * The periods of the samples a c2c report is about: HITMs (by the report's
 * rules, as the tables count them) and store misses.
 */
static void note_period(struct c2c_session *s, const struct perf_sample *ps)
{
	uint64_t ds = ps->data_src, p = ps->sample_type & PERF_SAMPLE_PERIOD ? ps->period : 1;

	if (!mem_src_is_hitm(ds, s->model->opts.rules) && !mem_src_is_store_miss(ds))
		return;
	if (!s->hitm_period_max || p < s->hitm_period_min)
		s->hitm_period_min = p;
	if (p > s->hitm_period_max)
		s->hitm_period_max = p;
}

static void add_sample(struct c2c_session *s, const struct perf_sample *ps)
{
	struct c2c_sample cs = {
		.ip = ps->ip,
		.addr = ps->addr,
		.phys_addr = ps->phys_addr,
		.data_src = ps->data_src,
		.weight = ps->weight,
		.pid = ps->pid,
		.tid = ps->tid,
		.cpu = ps->sample_type & PERF_SAMPLE_CPU ? ps->cpu : UINT32_MAX,
		.cpumode = ps->cpumode,
	};

	cs.dmap = addr_spaces_find(s->spaces, ps->pid, ps->cpumode, ps->addr);
	cs.imap = addr_spaces_find_any(s->spaces, ps->pid, ps->ip);
	if (s->workers)
		c2c_workers_add(s->workers, c2c_model_shard(s->model, &cs), &cs);
	else
		c2c_model_add(s->model, &cs);
	note_period(s, ps);
	s->nr_samples++;
}

static void handle(void *ctx, const struct perf_event_rec *ev)
{
	struct c2c_session *s = ctx;

	switch (ev->kind) {
	case PERF_REC_SAMPLE:
		add_sample(s, &ev->sample);
		break;
	case PERF_REC_MMAP:
		addr_spaces_mmap(s->spaces, &ev->mmap);
		break;
	case PERF_REC_FORK:
		addr_spaces_fork(s->spaces, ev->task.pid, ev->task.ppid);
		break;
	case PERF_REC_COMM:
		addr_spaces_comm(s->spaces, ev->comm.tid, ev->comm.comm);
		break;
	default:
		break;
	}
}

/* Whether every record carries a time: perf orders events only then. */
static bool records_are_timed(struct perf_reader *r)
{
	size_t i, n = perf_reader_nr_attrs(r);

	for (i = 0; i < n; i++) {
		const struct perf_attr_info *a = perf_reader_attr(r, i);

		if (!a->sample_id_all || !(a->sample_type & PERF_SAMPLE_TIME))
			return false;
	}
	return n > 0;
}

static uint64_t time_of(const struct perf_event_rec *ev)
{
	return ev->kind == PERF_REC_SAMPLE ? ev->sample.time : ev->time;
}

static void add_reader_warnings(struct c2c_session *s, struct perf_reader *r)
{
	const char *w = perf_reader_warnings(r);

	if (w && *w)
		strbuf_addf(&s->warnings, "%s%s", w, w[strlen(w) - 1] == '\n' ? "" : "\n");
}

/*
 * Records in file order while their times never go back (then perf's
 * ordering changes nothing); -EAGAIN as soon as one does, for a second
 * pass through perf's ordered queue (q != NULL).
 */
/*
 * The model starts at the first sample: in pipe mode the events and the
 * topology (HEADER_ATTR, HEADER_FEATURE records) arrive before it, not in
 * a header.
 */
static void start_model(struct c2c_session *s, struct perf_reader *r)
{
	if (s->model)
		return;
	if (!s->cpu2node) {
		setup_topology(s, perf_reader_header(r));
		setup_events(s, r);
	}
	if (!s->opts.model.threads) /* parse here, aggregate on two more threads */
		s->opts.model.threads = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 2 : 1;
	s->model = c2c_model_new(&s->opts.model);
	if (s->opts.model.threads > 1)
		s->workers = c2c_workers_new(&s->opts.model);
}

/* The threads' models into s->model (into nothing: drop them). */
static void stop_workers(struct c2c_session *s, struct c2c_model *into)
{
	if (s->workers)
		c2c_workers_finish(s->workers, into);
	s->workers = NULL;
}

/*
 * Records in file order while their times never go back (then perf's
 * ordering changes nothing); -EAGAIN as soon as one does, for a second
 * pass through perf's ordered queue (q != NULL).
 */
static int read_events(struct c2c_session *s, struct perf_reader *r, struct c2c_order *q,
		       struct err_msg *err)
{
	struct perf_event_rec ev;
	uint64_t n = 0, last = 0;
	bool timed = false;
	int ret;

	while ((ret = perf_reader_next(r, &ev, err)) == 1) {
		if (s->opts.progress && !(++n & 0xffff))
			progress_update(s->opts.progress, perf_reader_stats(r)->bytes);
		if (ev.kind == PERF_REC_SAMPLE && !s->model) {
			start_model(s, r);
			timed = records_are_timed(r);
		}
		if (!timed) {
			handle(s, &ev);
		} else if (q) {
			if (ev.kind == PERF_REC_FINISHED_ROUND)
				c2c_order_round(q, handle, s);
			else if (ev.kind != PERF_REC_OTHER)
				c2c_order_push(q, &ev, time_of(&ev));
		} else if (ev.kind != PERF_REC_FINISHED_ROUND && ev.kind != PERF_REC_OTHER) {
			if (time_of(&ev) < last)
				return -EAGAIN;
			last = time_of(&ev);
			handle(s, &ev);
		}
		if (!timed && ev.kind != PERF_REC_SAMPLE && ev.kind != PERF_REC_OTHER)
			last = last > time_of(&ev) ? last : time_of(&ev);
	}
	start_model(s, r);
	if (q)
		c2c_order_flush(q, handle, s);
	if (ret < 0) {
		if (!s->nr_samples)
			return ret; /* nothing usable: err says where */
		if (!strstr(perf_reader_warnings(r), err->msg)) /* the reader says it already */
			strbuf_addf(&s->warnings, "%s\n", err->msg);
		add_reader_warnings(s, r);
		strbuf_addf(&s->warnings,
			    "reporting the %" PRIu64 " samples read before the damage\n",
			    s->nr_samples);
		err_clear(err);
		return 0;
	}
	add_reader_warnings(s, r);
	return 0;
}

static int open_reader(struct c2c_session *s, struct perf_reader **r, struct err_msg *err)
{
	int ret = perf_reader_open(s->opts.path, r, err);

	if (ret)
		return ret;
	s->spaces = addr_spaces_new();
	return 0;
}

/* Forget what a first pass read, for the ordered second pass. */
static void reset_pass(struct c2c_session *s)
{
	stop_workers(s, NULL);
	c2c_model_free(s->model);
	addr_spaces_free(s->spaces);
	s->model = NULL;
	s->spaces = NULL;
	s->nr_samples = 0;
	strbuf_reset(&s->warnings);
}

/* Whether a second pass can read the input again (not stdin, a pipe, a FIFO). */
static bool rereadable(const char *path)
{
	struct stat st;

	return strcmp(path, "-") && !stat(path, &st) && S_ISREG(st.st_mode);
}

static int load(struct c2c_session *s, struct err_msg *err)
{
	struct perf_reader *r;
	struct c2c_order *q = NULL;
	int ret = open_reader(s, &r, err);

	if (ret)
		return ret;
	/* a stream is read once: through perf's ordered queue from the start */
	if (!rereadable(s->opts.path))
		q = c2c_order_new();
	ret = read_events(s, r, q, err);
	perf_reader_close(r);
	if (q) {
		c2c_order_free(q);
		return ret;
	}
	if (ret != -EAGAIN)
		return ret;
	/* times go back: a second pass, through perf's ordered queue */
	reset_pass(s);
	if ((ret = open_reader(s, &r, err)))
		return ret;
	q = c2c_order_new();
	ret = read_events(s, r, q, err);
	c2c_order_free(q);
	perf_reader_close(r);
	if (!ret)
		strbuf_addstr(&s->warnings,
			      "records are not in time order: sorted them as perf does\n");
	return ret;
}

int c2c_session_read(const struct c2c_session_opts *opts, struct c2c_session **out,
		     struct err_msg *err)
{
	struct c2c_session *s = xcalloc(1, sizeof(*s));
	int ret;

	s->opts = *opts;
	strbuf_init(&s->warnings, 0);
	s->symbols = sym_resolver_new(&s->opts.symbols);
	ret = load(s, err);
	if (ret) {
		c2c_session_free(s);
		return ret;
	}
	stop_workers(s, s->model);
	c2c_model_finish(s->model);
	if (s->model->warned_no_cpu)
		strbuf_addf(&s->warnings, "%" PRIu64 " samples have no cpu\n",
			    s->model->warned_no_cpu);
	if (s->model->unknown_node)
		strbuf_addf(&s->warnings,
			    "%" PRIu64 " samples have a physical address in no memory node\n",
			    s->model->unknown_node);
	*out = s;
	return 0;
}

void c2c_session_free(struct c2c_session *s)
{
	size_t i;

	if (!s)
		return;
	if (s->attrib)
		s->attrib_free(s->attrib);
	stop_workers(s, NULL);
	c2c_model_free(s->model);
	addr_spaces_free(s->spaces);
	sym_resolver_free(s->symbols);
	for (i = 0; i < s->nr_events; i++)
		free(s->event_names[i]);
	free(s->event_names);
	free(s->cpu2node);
	free(s->mem);
	free(s->machine.hostname);
	free(s->machine.osrelease);
	free(s->machine.arch);
	free(s->machine.cpudesc);
	free(s->machine.perf_version);
	heap_table_free(s->heap);
	strbuf_release(&s->warnings);
	free(s);
}
