// SPDX-License-Identifier: GPL-2.0
/*
 * Feature sections (util/header.c's formats), from the file's feature
 * table or from HEADER_FEATURE records in pipe mode. A damaged feature is
 * a warning: the data is still readable.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "perf/perf_format.h"
#include "perf/reader_int.h"
#include "util/bitmap.h"
#include "util/xalloc.h"

static void set_string(const char **field, char *s)
{
	free((char *)*field);
	*field = s;
}

static void parse_strings(struct cursor *c, const char *const **out, size_t *nr_out)
{
	uint32_t nr = cursor_u32(c), i;
	char **v;

	if (nr > c->len / 4) {
		c->bad = true;
		return;
	}
	v = xcalloc(nr + 1, sizeof(*v));
	for (i = 0; i < nr; i++) {
		v[i] = reader_cursor_string(c);
		if (!v[i])
			break;
	}
	*out = (const char *const *)v;
	*nr_out = i;
}

static void parse_build_ids(struct perf_reader *r, struct cursor *c)
{
	struct perf_header_info *h = &r->hdr;

	while (!c->bad && c->pos + 8 <= c->len) {
		const uint8_t *rec = c->p + c->pos;
		uint16_t misc = rd16(rec + 4, c->swap), size = rd16(rec + 6, c->swap);
		struct perf_build_id *b;

		if (size < 8 + 4 + 24 || !cursor_bytes(c, size)) {
			c->bad = true;
			return;
		}
		r->build_ids = xgrow(r->build_ids, &r->alloc_build_ids, h->nr_build_ids + 1,
				     sizeof(*r->build_ids));
		b = &r->build_ids[h->nr_build_ids++];
		b->pid = (int32_t)rd32(rec + 8, c->swap);
		memcpy(b->id, rec + 12, 20);
		b->size = (misc & (1 << 15)) ? (rec[32] > 20 ? 20 : rec[32]) : 20;
		b->filename = xstrndup((const char *)rec + 36,
				       strnlen((const char *)rec + 36, size - 36));
		h->build_ids = r->build_ids;
	}
}

static void parse_event_desc(struct perf_reader *r, struct cursor *c)
{
	uint32_t nr = cursor_u32(c), sz = cursor_u32(c), i, j, nr_ids;

	for (i = 0; i < nr && !c->bad; i++) {
		size_t idx = i;
		char *name;
		void *v = NULL;

		cursor_bytes(c, sz);
		nr_ids = cursor_u32(c);
		name = reader_cursor_string(c);
		for (j = 0; j < nr_ids && !c->bad; j++) {
			void *found = hashmap_get(&r->ids, cursor_u64(c));

			v = v ? v : found;
		}
		if (v)
			idx = (uintptr_t)v - 1;
		if (name && idx < r->nr_attrs) {
			free(r->attrs[idx].name);
			r->attrs[idx].name = name;
			r->attrs[idx].info.name = name;
		} else {
			free(name);
		}
	}
}

static void parse_numa(struct perf_reader *r, struct cursor *c)
{
	uint32_t nr = cursor_u32(c), i;

	if (nr > c->len / 24 || r->numa) {
		c->bad = !r->numa;
		return;
	}
	r->numa = xcalloc(nr ? nr : 1, sizeof(*r->numa));
	for (i = 0; i < nr; i++) {
		r->numa[i].node = cursor_u32(c);
		if (r->numa[i].node >= PERF_MAX_NODES) {
			c->bad = true;
			while (i)
				free((char *)r->numa[--i].cpus);
			break;
		}
		r->numa[i].mem_total = cursor_u64(c);
		r->numa[i].mem_free = cursor_u64(c);
		r->numa[i].cpus = reader_cursor_string(c);
		if (!r->numa[i].cpus)
			break;
	}
	r->hdr.numa_nodes = r->numa;
	r->hdr.nr_numa_nodes = i;
}

static void add_mem_range(struct perf_reader *r, uint64_t start, uint64_t end, uint32_t node,
			  size_t *alloc)
{
	struct perf_header_info *h = &r->hdr;
	struct perf_mem_range *m = (struct perf_mem_range *)h->mem_ranges;

	if (h->nr_mem_ranges && m[h->nr_mem_ranges - 1].end == start &&
	    m[h->nr_mem_ranges - 1].node == node) {
		m[h->nr_mem_ranges - 1].end = end;
		return;
	}
	m = xgrow(m, alloc, h->nr_mem_ranges + 1, sizeof(*m));
	m[h->nr_mem_ranges++] = (struct perf_mem_range){ start, end, node };
	h->mem_ranges = m;
}

static void parse_mem_topology(struct perf_reader *r, struct cursor *c)
{
	uint64_t version = cursor_u64(c), bsize = cursor_u64(c), nr = cursor_u64(c), i, bit;
	size_t alloc = 0;

	if (version != 1 || c->bad)
		return;
	r->hdr.mem_block_size = bsize;
	for (i = 0; i < nr && !c->bad; i++) {
		uint64_t node = cursor_u64(c), size, words;
		const uint8_t *set;

		cursor_u64(c); /* size, repeated by the bitmap */
		size = cursor_u64(c);
		words = size / 64 + (size % 64 != 0); /* size + 63 may wrap */
		if (c->bad || words > (c->len - c->pos) / 8) {
			c->bad = true;
			return;
		}
		set = cursor_bytes(c, words * 8);
		for (bit = 0; set && bit < size; bit++)
			if (rd64(set + bit / 64 * 8, c->swap) & (1ULL << (bit % 64)))
				add_mem_range(r, bit * bsize, (bit + 1) * bsize, node, &alloc);
	}
}

/* A section kept as it is, for a module that knows its format. */
static void copy_blob(struct cursor *c, const void **data, size_t *size)
{
	void *copy;

	if (*data || c->len <= c->pos)
		return;
	copy = xmalloc(c->len - c->pos);
	memcpy(copy, c->p + c->pos, c->len - c->pos);
	*data = copy;
	*size = c->len - c->pos;
}

static void parse_cpu_topology(struct perf_reader *r, struct cursor *c)
{
	struct perf_header_info *h = &r->hdr;

	if (h->core_siblings || h->thread_siblings)
		return; /* a pipe may repeat it: the first one counts, as CMDLINE */
	parse_strings(c, &h->core_siblings, &h->nr_core_siblings);
	parse_strings(c, &h->thread_siblings, &h->nr_thread_siblings);
}

static void parse_sample_time(struct perf_reader *r, struct cursor *c)
{
	r->hdr.first_sample_time = cursor_u64(c);
	r->hdr.last_sample_time = cursor_u64(c);
}

static void parse_clockid(struct perf_reader *r, struct cursor *c)
{
	r->hdr.clockid = cursor_u64(c);
	r->hdr.clockid_set = !c->bad;
}

static void parse_compressed(struct perf_reader *r, struct cursor *c)
{
	cursor_u32(c); /* version */
	r->hdr.comp_type = cursor_u32(c);
	r->hdr.comp_level = cursor_u32(c);
	cursor_u32(c); /* ratio */
	r->comp_mmap_len = cursor_u32(c);
	if (c->bad)
		r->comp_mmap_len = 0;
}

static void parse_tracing_data(struct perf_reader *r, struct cursor *c)
{
	copy_blob(c, &r->hdr.tracing_data, &r->hdr.tracing_data_size);
}

static void parse_heap_blocks(struct perf_reader *r, struct cursor *c)
{
	copy_blob(c, &r->hdr.heap_blocks, &r->hdr.heap_blocks_size);
}

static void parse_nrcpus(struct perf_reader *r, struct cursor *c)
{
	struct perf_header_info *h = &r->hdr;

	h->nr_cpus_avail = cursor_u32(c);
	h->nr_cpus_online = cursor_u32(c);
	if (h->nr_cpus_avail > PERF_MAX_CPUS || h->nr_cpus_online > PERF_MAX_CPUS) {
		h->nr_cpus_avail = h->nr_cpus_online = 0;
		c->bad = true;
	}
}

static void parse_total_mem(struct perf_reader *r, struct cursor *c)
{
	r->hdr.total_mem = cursor_u64(c);
}

static void join_cmdline(struct perf_header_info *h)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < h->nr_cmdline; i++) {
		if (i)
			strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, h->cmdline_argv[i] ? h->cmdline_argv[i] : "");
	}
	set_string(&h->cmdline, strbuf_detach(&sb, NULL));
}

static void parse_cmdline(struct perf_reader *r, struct cursor *c)
{
	if (r->hdr.cmdline_argv)
		return;
	parse_strings(c, &r->hdr.cmdline_argv, &r->hdr.nr_cmdline);
	join_cmdline(&r->hdr);
}

/*
 * How each feature section is read, as perf's feat_ops: a parser, or for
 * the features that are one perf string, the field the string goes to.
 * name is what a damage warning calls it ("?" without one).
 */
struct feature_op {
	const char *name;
	void (*parse)(struct perf_reader *r, struct cursor *c);
	bool string;
	size_t field; /* string: offsetof(struct perf_header_info, ...) */
};

#define STRING_FEATURE(feat_name, member)                          \
	{                                                          \
		.name = feat_name, .string = true,                 \
		.field = offsetof(struct perf_header_info, member) \
	}

static const struct feature_op feature_ops[] = {
	[PERF_FEAT_TRACING_DATA] = { .parse = parse_tracing_data },
	[PERF_FEAT_BUILD_ID] = { "BUILD_ID", parse_build_ids },
	[PERF_FEAT_HOSTNAME] = STRING_FEATURE("HOSTNAME", hostname),
	[PERF_FEAT_OSRELEASE] = STRING_FEATURE("OSRELEASE", osrelease),
	[PERF_FEAT_VERSION] = STRING_FEATURE("VERSION", version),
	[PERF_FEAT_ARCH] = STRING_FEATURE("ARCH", arch),
	[PERF_FEAT_NRCPUS] = { "NRCPUS", parse_nrcpus },
	[PERF_FEAT_CPUDESC] = STRING_FEATURE("CPUDESC", cpudesc),
	[PERF_FEAT_CPUID] = STRING_FEATURE("CPUID", cpuid),
	[PERF_FEAT_TOTAL_MEM] = { "TOTAL_MEM", parse_total_mem },
	[PERF_FEAT_CMDLINE] = { "CMDLINE", parse_cmdline },
	[PERF_FEAT_EVENT_DESC] = { "EVENT_DESC", parse_event_desc },
	[PERF_FEAT_CPU_TOPOLOGY] = { "CPU_TOPOLOGY", parse_cpu_topology },
	[PERF_FEAT_NUMA_TOPOLOGY] = { "NUMA_TOPOLOGY", parse_numa },
	[PERF_FEAT_SAMPLE_TIME] = { "SAMPLE_TIME", parse_sample_time },
	[PERF_FEAT_MEM_TOPOLOGY] = { "MEM_TOPOLOGY", parse_mem_topology },
	[PERF_FEAT_CLOCKID] = { "CLOCKID", parse_clockid },
	[PERF_FEAT_COMPRESSED] = { "COMPRESSED", parse_compressed },
	[PERF_FEAT_C2C_HEAP_BLOCKS] = { .parse = parse_heap_blocks },
};

static const char **string_field(struct perf_header_info *h, const struct feature_op *op)
{
	return (const char **)((char *)h + op->field);
}

void reader_parse_feature(struct perf_reader *r, int feat, struct cursor *c)
{
	const struct feature_op *op =
		feat >= 0 && feat < (int)ARRAY_SIZE(feature_ops) ? &feature_ops[feat] : NULL;

	bitmap_set(r->hdr.features, (size_t)feat);
	if (op && op->string)
		set_string(string_field(&r->hdr, op), reader_cursor_string(c));
	else if (op && op->parse)
		op->parse(r, c);
	if (c->bad)
		reader_warn(r, "%s: at 0x%llx: feature %s is damaged (section of %zu bytes)",
			    r->path, (unsigned long long)c->off, op && op->name ? op->name : "?",
			    c->len);
}

static void free_strings(const char *const *v, size_t nr)
{
	size_t i;

	for (i = 0; v && i < nr; i++)
		free((char *)v[i]);
	free((void *)v);
}

void reader_free_features(struct perf_reader *r)
{
	struct perf_header_info *h = &r->hdr;
	size_t i;

	free((void *)h->tracing_data);
	free((void *)h->heap_blocks);
	for (i = 0; i < ARRAY_SIZE(feature_ops); i++)
		if (feature_ops[i].string)
			free((char *)*string_field(h, &feature_ops[i]));
	free((char *)h->cmdline);
	free_strings(h->cmdline_argv, h->nr_cmdline);
	free_strings(h->core_siblings, h->nr_core_siblings);
	free_strings(h->thread_siblings, h->nr_thread_siblings);
	for (i = 0; i < h->nr_numa_nodes; i++)
		free((char *)r->numa[i].cpus);
	free(r->numa);
	for (i = 0; i < h->nr_build_ids; i++)
		free((char *)r->build_ids[i].filename);
	free(r->build_ids);
	free((void *)h->mem_ranges);
}
