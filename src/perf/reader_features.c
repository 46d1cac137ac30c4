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
#include "util/xalloc.h"

static const char *const feat_names[] = {
	[PERF_FEAT_BUILD_ID] = "BUILD_ID",
	[PERF_FEAT_HOSTNAME] = "HOSTNAME",
	[PERF_FEAT_OSRELEASE] = "OSRELEASE",
	[PERF_FEAT_VERSION] = "VERSION",
	[PERF_FEAT_ARCH] = "ARCH",
	[PERF_FEAT_NRCPUS] = "NRCPUS",
	[PERF_FEAT_CPUDESC] = "CPUDESC",
	[PERF_FEAT_CPUID] = "CPUID",
	[PERF_FEAT_TOTAL_MEM] = "TOTAL_MEM",
	[PERF_FEAT_CMDLINE] = "CMDLINE",
	[PERF_FEAT_EVENT_DESC] = "EVENT_DESC",
	[PERF_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[PERF_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[PERF_FEAT_SAMPLE_TIME] = "SAMPLE_TIME",
	[PERF_FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[PERF_FEAT_CLOCKID] = "CLOCKID",
	[PERF_FEAT_COMPRESSED] = "COMPRESSED",
};

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

static void parse_more(struct perf_reader *r, int feat, struct cursor *c)
{
	struct perf_header_info *h = &r->hdr;

	switch (feat) {
	case PERF_FEAT_CPU_TOPOLOGY:
		if (h->core_siblings || h->thread_siblings)
			break; /* a pipe may repeat it: the first one counts, as CMDLINE */
		parse_strings(c, &h->core_siblings, &h->nr_core_siblings);
		parse_strings(c, &h->thread_siblings, &h->nr_thread_siblings);
		break;
	case PERF_FEAT_NUMA_TOPOLOGY:
		parse_numa(r, c);
		break;
	case PERF_FEAT_MEM_TOPOLOGY:
		parse_mem_topology(r, c);
		break;
	case PERF_FEAT_SAMPLE_TIME:
		h->first_sample_time = cursor_u64(c);
		h->last_sample_time = cursor_u64(c);
		break;
	case PERF_FEAT_CLOCKID:
		h->clockid = cursor_u64(c);
		h->clockid_set = !c->bad;
		break;
	case PERF_FEAT_COMPRESSED:
		cursor_u32(c); /* version */
		h->comp_type = cursor_u32(c);
		h->comp_level = cursor_u32(c);
		cursor_u32(c); /* ratio */
		r->comp_mmap_len = cursor_u32(c);
		if (c->bad)
			r->comp_mmap_len = 0;
		break;
	case PERF_FEAT_BUILD_ID:
		parse_build_ids(r, c);
		break;
	case PERF_FEAT_EVENT_DESC:
		parse_event_desc(r, c);
		break;
	case PERF_FEAT_TRACING_DATA:
		copy_blob(c, &h->tracing_data, &h->tracing_data_size);
		break;
	case PERF_FEAT_C2C_HEAP_BLOCKS:
		copy_blob(c, &h->heap_blocks, &h->heap_blocks_size);
		break;
	}
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

/* The features that are one perf string each, and the field each fills. */
static const struct {
	int feat;
	size_t off;
} string_features[] = {
	{ PERF_FEAT_HOSTNAME, offsetof(struct perf_header_info, hostname) },
	{ PERF_FEAT_OSRELEASE, offsetof(struct perf_header_info, osrelease) },
	{ PERF_FEAT_VERSION, offsetof(struct perf_header_info, version) },
	{ PERF_FEAT_ARCH, offsetof(struct perf_header_info, arch) },
	{ PERF_FEAT_CPUDESC, offsetof(struct perf_header_info, cpudesc) },
	{ PERF_FEAT_CPUID, offsetof(struct perf_header_info, cpuid) },
};

static const char **string_field(struct perf_header_info *h, size_t i)
{
	return (const char **)((char *)h + string_features[i].off);
}

static bool parse_string_feature(struct perf_header_info *h, int feat, struct cursor *c)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(string_features); i++) {
		if (string_features[i].feat == feat) {
			set_string(string_field(h, i), reader_cursor_string(c));
			return true;
		}
	}
	return false;
}

void reader_parse_feature(struct perf_reader *r, int feat, struct cursor *c)
{
	struct perf_header_info *h = &r->hdr;

	h->features[feat / 64] |= 1ULL << (feat % 64);
	switch (feat) {
	case PERF_FEAT_NRCPUS:
		h->nr_cpus_avail = cursor_u32(c);
		h->nr_cpus_online = cursor_u32(c);
		if (h->nr_cpus_avail > PERF_MAX_CPUS || h->nr_cpus_online > PERF_MAX_CPUS) {
			h->nr_cpus_avail = h->nr_cpus_online = 0;
			c->bad = true;
		}
		break;
	case PERF_FEAT_TOTAL_MEM:
		h->total_mem = cursor_u64(c);
		break;
	case PERF_FEAT_CMDLINE:
		if (h->cmdline_argv)
			break;
		parse_strings(c, &h->cmdline_argv, &h->nr_cmdline);
		join_cmdline(h);
		break;
	default:
		if (!parse_string_feature(h, feat, c))
			parse_more(r, feat, c);
	}
	if (c->bad)
		reader_warn(r, "%s: at 0x%llx: feature %s is damaged (section of %zu bytes)",
			    r->path, (unsigned long long)c->off,
			    feat < (int)ARRAY_SIZE(feat_names) && feat_names[feat] ?
				    feat_names[feat] :
				    "?",
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
	for (i = 0; i < ARRAY_SIZE(string_features); i++)
		free((char *)*string_field(h, i));
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
