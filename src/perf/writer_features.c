// SPDX-License-Identifier: GPL-2.0
/*
 * Feature sections of the writer, in perf 6.1's formats (util/header.c):
 * strings are u32 length + NUL-padded bytes aligned to 64; the table of
 * {offset,size} follows the data, one entry per set bit, in bit order.
 */
#include <errno.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "config.h"
#include "perf/perf_format.h"
#include "perf/writer_int.h"
#include "util/bitmap.h"
#include "util/xalloc.h"

#define MEM_BLOCK_SIZE (128ULL << 20)
#define PERF_RECORD_MISC_BUILD_ID_SIZE (1 << 15)

struct feature {
	int bit;
	struct strbuf data;
};

static void put_string(struct strbuf *sb, const char *s)
{
	size_t len = strlen(s) + 1;

	writer_put_u32(sb, (len + PERF_NAME_ALIGN - 1) / PERF_NAME_ALIGN * PERF_NAME_ALIGN);
	writer_put_padded_str(sb, s, PERF_NAME_ALIGN);
}

static struct strbuf *feature_add(struct feature *feats, size_t *nr, int bit)
{
	struct feature *f = &feats[(*nr)++];

	f->bit = bit;
	strbuf_init(&f->data, 64);
	return &f->data;
}

static bool is_kernel_dso(const char *name)
{
	size_t len = strlen(name);

	return !strncmp(name, "[kernel", 7) || (len > 3 && !strcmp(name + len - 3, ".ko"));
}

static void put_build_ids(struct strbuf *sb, const struct perf_writer *w)
{
	size_t i;

	for (i = 0; i < w->nr_build_ids; i++) {
		const struct perf_build_id *b = &w->build_ids[i];
		size_t name_len = strlen(b->filename) + 1;
		struct perf_event_header hdr = {
			.type = PERF_REC_USER_HEADER_BUILD_ID,
			.misc = (is_kernel_dso(b->filename) ? PERF_RECORD_MISC_KERNEL :
							      PERF_RECORD_MISC_USER) |
				PERF_RECORD_MISC_BUILD_ID_SIZE,
		};
		uint8_t data[24] = { 0 };

		name_len = (name_len + PERF_NAME_ALIGN - 1) / PERF_NAME_ALIGN * PERF_NAME_ALIGN;
		hdr.size = sizeof(hdr) + 4 + sizeof(data) + name_len;
		memcpy(data, b->id, b->size);
		data[20] = b->size;
		strbuf_add(sb, &hdr, sizeof(hdr));
		writer_put_u32(sb, (uint32_t)-1); /* HOST_KERNEL_ID: the host machine */
		strbuf_add(sb, data, sizeof(data));
		writer_put_padded_str(sb, b->filename, PERF_NAME_ALIGN);
	}
}

static void put_cmdline(struct strbuf *sb, const char *const *argv)
{
	static const char *const fallback[] = { "c2cscope", NULL };
	uint32_t n = 0;

	if (!argv || !argv[0])
		argv = fallback;
	while (argv[n])
		n++;
	writer_put_u32(sb, n);
	for (n = 0; argv[n]; n++)
		put_string(sb, argv[n]);
}

static void put_event_desc(struct strbuf *sb, const struct perf_writer *w)
{
	size_t i;

	writer_put_u32(sb, w->nr_events);
	writer_put_u32(sb, PERF_ATTR_SIZE_WRITTEN);
	for (i = 0; i < w->nr_events; i++) {
		/* the attr exactly as in the attr section */
		strbuf_add(sb, w->attr_bytes + i * PERF_ATTR_SIZE_WRITTEN, PERF_ATTR_SIZE_WRITTEN);
		writer_put_u32(sb, 1);
		put_string(sb, w->events[i].ev.name);
		writer_put_u64(sb, w->events[i].id);
	}
}

struct topo {
	uint32_t nr_avail, nr_online;
	size_t nr_nodes;
	const struct perf_numa_node *nodes;
	struct perf_numa_node fallback;
	char fallback_cpus[32];
};

static void topo_init(struct topo *t, const struct perf_writer_info *info)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	struct sysinfo si;

	t->nr_avail = info && info->nr_cpus_avail ? info->nr_cpus_avail :
						    (uint32_t)sysconf(_SC_NPROCESSORS_CONF);
	t->nr_online = info && info->nr_cpus_online ? info->nr_cpus_online : (uint32_t)online;
	if (info && info->nr_numa_nodes) {
		t->nr_nodes = info->nr_numa_nodes;
		t->nodes = info->numa_nodes;
		return;
	}
	if (t->nr_avail > 1)
		snprintf(t->fallback_cpus, sizeof(t->fallback_cpus), "0-%u", t->nr_avail - 1);
	else
		snprintf(t->fallback_cpus, sizeof(t->fallback_cpus), "0");
	memset(&t->fallback, 0, sizeof(t->fallback));
	if (sysinfo(&si) == 0) {
		t->fallback.mem_total = (uint64_t)si.totalram * si.mem_unit / 1024;
		t->fallback.mem_free = (uint64_t)si.freeram * si.mem_unit / 1024;
	}
	t->fallback.cpus = t->fallback_cpus;
	t->nr_nodes = 1;
	t->nodes = &t->fallback;
}

static void put_numa(struct strbuf *sb, const struct topo *t)
{
	size_t i;

	writer_put_u32(sb, t->nr_nodes);
	for (i = 0; i < t->nr_nodes; i++) {
		writer_put_u32(sb, t->nodes[i].node);
		writer_put_u64(sb, t->nodes[i].mem_total);
		writer_put_u64(sb, t->nodes[i].mem_free);
		put_string(sb, t->nodes[i].cpus ? t->nodes[i].cpus : "");
	}
}

/* MEM_TOPOLOGY v1: node i's memory follows node i-1's, in 128 MiB blocks. */
static void put_mem_topology(struct strbuf *sb, const struct topo *t)
{
	uint64_t first_block = 0;
	size_t i, w;

	writer_put_u64(sb, 1);
	writer_put_u64(sb, MEM_BLOCK_SIZE);
	writer_put_u64(sb, t->nr_nodes);
	for (i = 0; i < t->nr_nodes; i++) {
		uint64_t bytes = t->nodes[i].mem_total * 1024;
		uint64_t nr_blocks = (bytes + MEM_BLOCK_SIZE - 1) / MEM_BLOCK_SIZE;
		uint64_t size = first_block + nr_blocks;

		writer_put_u64(sb, t->nodes[i].node);
		writer_put_u64(sb, size);
		writer_put_u64(sb, size);
		for (w = 0; w < (size + 63) / 64; w++) {
			uint64_t word = 0, bit;

			for (bit = 0; bit < 64; bit++) {
				uint64_t b = w * 64 + bit;

				if (b >= first_block && b < size)
					word |= 1ULL << bit;
			}
			writer_put_u64(sb, word);
		}
		first_block = size;
	}
}

static uint64_t total_mem(const struct topo *t)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < t->nr_nodes; i++)
		sum += t->nodes[i].mem_total;
	return sum;
}

static const char *or_default(const char *s, const char *fallback)
{
	return s ? s : fallback;
}

static size_t collect_features(struct perf_writer *w, const struct perf_writer_info *info,
			       struct feature *feats)
{
	static const struct perf_writer_info none;
	struct utsname uts;
	struct topo topo;
	struct strbuf *sb;
	size_t nr = 0;

	if (!info)
		info = &none;
	if (uname(&uts) < 0)
		memset(&uts, 0, sizeof(uts));
	topo_init(&topo, info);
	if (info->tracing_data_size)
		strbuf_add(feature_add(feats, &nr, PERF_FEAT_TRACING_DATA), info->tracing_data,
			   info->tracing_data_size);
	if (w->nr_build_ids)
		put_build_ids(feature_add(feats, &nr, PERF_FEAT_BUILD_ID), w);
	put_string(feature_add(feats, &nr, PERF_FEAT_HOSTNAME),
		   or_default(info->hostname, uts.nodename));
	put_string(feature_add(feats, &nr, PERF_FEAT_OSRELEASE),
		   or_default(info->osrelease, uts.release));
	put_string(feature_add(feats, &nr, PERF_FEAT_VERSION),
		   or_default(info->version, "c2cscope " PACKAGE_VERSION));
	put_string(feature_add(feats, &nr, PERF_FEAT_ARCH), or_default(info->arch, uts.machine));
	sb = feature_add(feats, &nr, PERF_FEAT_NRCPUS);
	writer_put_u32(sb, topo.nr_avail);
	writer_put_u32(sb, topo.nr_online);
	if (info->cpudesc)
		put_string(feature_add(feats, &nr, PERF_FEAT_CPUDESC), info->cpudesc);
	if (info->cpuid)
		put_string(feature_add(feats, &nr, PERF_FEAT_CPUID), info->cpuid);
	writer_put_u64(feature_add(feats, &nr, PERF_FEAT_TOTAL_MEM), total_mem(&topo));
	put_cmdline(feature_add(feats, &nr, PERF_FEAT_CMDLINE), info->cmdline);
	put_event_desc(feature_add(feats, &nr, PERF_FEAT_EVENT_DESC), w);
	if (info->cpu_topology_size)
		strbuf_add(feature_add(feats, &nr, PERF_FEAT_CPU_TOPOLOGY), info->cpu_topology,
			   info->cpu_topology_size);
	put_numa(feature_add(feats, &nr, PERF_FEAT_NUMA_TOPOLOGY), &topo);
	if (w->nr_timed) {
		sb = feature_add(feats, &nr, PERF_FEAT_SAMPLE_TIME);
		writer_put_u64(sb, w->first_time);
		writer_put_u64(sb, w->last_time);
	}
	put_mem_topology(feature_add(feats, &nr, PERF_FEAT_MEM_TOPOLOGY), &topo);
	if (info->heap_blocks_size) /* the highest bit: its section comes last */
		strbuf_add(feature_add(feats, &nr, PERF_FEAT_C2C_HEAP_BLOCKS), info->heap_blocks,
			   info->heap_blocks_size);
	return nr;
}

void writer_build_features(struct perf_writer *w, const struct perf_writer_info *info,
			   uint64_t base, struct strbuf *out, uint64_t feat_bits[4])
{
	struct feature feats[24];
	uint64_t off;
	size_t nr, i;

	nr = collect_features(w, info, feats);
	off = base + nr * 16;
	for (i = 0; i < nr; i++) {
		bitmap_set(feat_bits, feats[i].bit);
		writer_put_u64(out, off);
		writer_put_u64(out, feats[i].data.len);
		off += feats[i].data.len;
	}
	for (i = 0; i < nr; i++) {
		strbuf_add(out, feats[i].data.buf, feats[i].data.len);
		strbuf_release(&feats[i].data);
	}
}
