// SPDX-License-Identifier: GPL-2.0
/*
 * The host's topology for the file's header: NUMA nodes (cpus, memory)
 * from /sys/devices/system/node, and perf's CPU_TOPOLOGY section (core and
 * thread sibling lists, each cpu's core and socket id, die lists and ids)
 * from /sys/devices/system/cpu/cpuN/topology, as perf record writes them.
 * Without a node folder the writer's one-node default stays.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/session_int.h"
#include "util/xalloc.h"

#define NAME_ALIGN 64

static int read_line(const char *path, struct strbuf *out)
{
	int ret = record_read_file(path, out);

	while (!ret && out->len && isspace((unsigned char)out->buf[out->len - 1]))
		strbuf_setlen(out, out->len - 1);
	return ret;
}

static void node_memory(uint32_t node, struct perf_numa_node *n)
{
	char path[96], line[256];
	unsigned long long kb;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/meminfo", node);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %*u MemTotal: %llu", &kb) == 1)
			n->mem_total = kb;
		else if (sscanf(line, "Node %*u MemFree: %llu", &kb) == 1)
			n->mem_free = kb;
	}
	if (f)
		fclose(f);
}

void record_host_topology_load(struct host_topology *t)
{
	struct strbuf path = STRBUF_INIT, cpus = STRBUF_INIT;
	DIR *dir = opendir("/sys/devices/system/node");
	struct dirent *d;
	size_t alloc = 0;

	memset(t, 0, sizeof(*t));
	while (dir && (d = readdir(dir))) {
		struct perf_numa_node *n;
		char *end;
		unsigned long node;

		if (strncmp(d->d_name, "node", 4) || !isdigit((unsigned char)d->d_name[4]))
			continue;
		node = strtoul(d->d_name + 4, &end, 10);
		strbuf_reset(&path);
		strbuf_addf(&path, "/sys/devices/system/node/%s/cpulist", d->d_name);
		if (*end || read_line(path.buf, &cpus) || !cpus.len)
			continue; /* a node without cpus (memory only) */
		t->nodes = xgrow(t->nodes, &alloc, t->nr_nodes + 1, sizeof(*t->nodes));
		n = &t->nodes[t->nr_nodes++];
		memset(n, 0, sizeof(*n));
		n->node = (uint32_t)node;
		n->cpus = xstrdup(cpus.buf);
		node_memory(n->node, n);
	}
	if (dir)
		closedir(dir);
	strbuf_release(&path);
	strbuf_release(&cpus);
	record_host_cpu_topology(&t->cpu_topology);
}

void record_host_topology_release(struct host_topology *t)
{
	size_t i;

	for (i = 0; i < t->nr_nodes; i++)
		free((char *)t->nodes[i].cpus);
	free(t->nodes);
	strbuf_release(&t->cpu_topology);
	memset(t, 0, sizeof(*t));
}

static void put_u32v(struct strbuf *sb, uint32_t v)
{
	strbuf_add(sb, &v, 4);
}

/* perf's header string: u32 length (padded), the bytes, NULs to the padding. */
static void put_str(struct strbuf *sb, const char *s)
{
	size_t len = strlen(s) + 1, padded = (len + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;

	put_u32v(sb, (uint32_t)padded);
	strbuf_add(sb, s, len - 1);
	strbuf_addchars(sb, 0, padded - len + 1);
}

/* The distinct values of cpuN/topology/FILE, as a perf string list. */
static void put_sibling_lists(struct strbuf *sb, int nr_cpus, const char *file)
{
	struct strbuf path = STRBUF_INIT, val = STRBUF_INIT, all = STRBUF_INIT;
	uint32_t nr = 0;
	size_t at = sb->len;
	int cpu;

	put_u32v(sb, 0);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, file);
		if (read_line(path.buf, &val) || !val.len)
			continue;
		strbuf_addch(&val, '\n');
		if (strstr(all.buf, val.buf) &&
		    (all.buf == strstr(all.buf, val.buf) || strstr(all.buf, val.buf)[-1] == '\n'))
			continue;
		strbuf_addstr(&all, val.buf);
		strbuf_setlen(&val, val.len - 1);
		put_str(sb, val.buf);
		nr++;
	}
	memcpy(sb->buf + at, &nr, 4);
	strbuf_release(&path);
	strbuf_release(&val);
	strbuf_release(&all);
}

static uint32_t topology_id(int cpu, const char *file)
{
	struct strbuf path = STRBUF_INIT, val = STRBUF_INIT;
	uint32_t id = (uint32_t)-1; /* offline or unknown, as perf writes it */

	strbuf_addf(&path, "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, file);
	if (!read_line(path.buf, &val) && val.len)
		id = (uint32_t)strtol(val.buf, NULL, 10);
	strbuf_release(&path);
	strbuf_release(&val);
	return id;
}

void record_host_cpu_topology(struct strbuf *sb)
{
	int nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF), cpu;

	strbuf_init(sb, 256);
	put_sibling_lists(sb, nr_cpus, "core_siblings_list");
	put_sibling_lists(sb, nr_cpus, "thread_siblings_list");
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		put_u32v(sb, topology_id(cpu, "core_id"));
		put_u32v(sb, topology_id(cpu, "physical_package_id"));
	}
	put_sibling_lists(sb, nr_cpus, "die_cpus_list");
	for (cpu = 0; cpu < nr_cpus; cpu++)
		put_u32v(sb, topology_id(cpu, "die_id"));
}
