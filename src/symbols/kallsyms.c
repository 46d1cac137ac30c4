// SPDX-License-Identifier: GPL-2.0
#include "symbols/kallsyms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct ksym {
	uint64_t addr;
	char *name;
};

struct kallsyms {
	struct ksym *syms;
	size_t nr, alloc;
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
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
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || !addr)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		k->syms = xgrow(k->syms, &k->alloc, k->nr + 1, sizeof(*k->syms));
		k->syms[k->nr].addr = addr;
		k->syms[k->nr++].name = xstrdup(name);
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
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->nr; i++)
		free(k->syms[i].name);
	free(k->syms);
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
