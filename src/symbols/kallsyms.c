// SPDX-License-Identifier: GPL-2.0
#include "symbols/kallsyms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/arena.h"
#include "util/xalloc.h"

struct ksym {
	uint64_t addr;
	const char *name; /* in names */
};

struct kallsyms {
	struct ksym *syms;
	size_t nr, alloc;
	struct arena names; /* a running kernel has 100k+ text symbols: no malloc each */
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static const char *copy_name(struct kallsyms *k, const char *name)
{
	size_t len = strlen(name) + 1;

	return memcpy(arena_alloc(&k->names, len, 1), name, len);
}

struct kallsyms *kallsyms_load(const char *path)
{
	FILE *f = fopen(path, "r");
	struct kallsyms *k;
	char line[512], name[256], type;
	unsigned long long addr;

	if (!f)
		return NULL;
	k = xcalloc(1, sizeof(*k));
	k->names = (struct arena)ARENA_INIT(256 << 10, false);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || !addr)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		k->syms = xgrow(k->syms, &k->alloc, k->nr + 1, sizeof(*k->syms));
		k->syms[k->nr].addr = addr;
		k->syms[k->nr++].name = copy_name(k, name);
	}
	fclose(f);
	if (!k->nr) {
		kallsyms_free(k);
		return NULL;
	}
	qsort(k->syms, k->nr, sizeof(*k->syms), ksym_cmp);
	return k;
}

void kallsyms_free(struct kallsyms *k)
{
	if (!k)
		return;
	free(k->syms);
	arena_release(&k->names);
	free(k);
}

/* The index of the symbol at or below addr, or nr when there is none. */
static size_t symbol_index(const struct kallsyms *k, uint64_t addr)
{
	size_t lo = 0, hi;

	if (!k || addr < k->syms[0].addr)
		return k ? k->nr : 0;
	hi = k->nr;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

const char *kallsyms_lookup(const struct kallsyms *k, uint64_t addr, uint64_t *offset)
{
	size_t i = symbol_index(k, addr);

	if (!k || i == k->nr)
		return NULL;
	*offset = addr - k->syms[i].addr;
	return k->syms[i].name;
}

uint64_t kallsyms_extent(const struct kallsyms *k, uint64_t addr)
{
	size_t i = symbol_index(k, addr);

	/* i is the last of its aliases: the next symbol starts elsewhere */
	if (!k || i + 1 >= k->nr)
		return 0;
	return k->syms[i + 1].addr - k->syms[i].addr;
}
