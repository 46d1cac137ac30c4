// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel code is matched by symbol + offset: a sample at set_task_cpu+0x3e
 * (named by kallsyms or the vmlinux) is the instruction 0x3e bytes into
 * the debug file's set_task_cpu. That holds for a linked vmlinux (whatever
 * KASLR did), a module and a single relocatable object, whose sections
 * libdwfl laid out (image.c). The file's build-id and the function sizes
 * are what the caller checks to know the file is the running kernel's.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "attrib/attrib_int.h"
#include "util/xalloc.h"

static int func_sym_cmp(const void *x, const void *y)
{
	const struct func_sym *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

struct func_syms_read {
	struct attrib *a;
	size_t alloc;
};

static int add_func_sym(void *ctx, const GElf_Sym *sym, const char *name)
{
	struct func_syms_read *r = ctx;
	struct attrib *a = r->a;

	if (GELF_ST_TYPE(sym->st_info) != STT_FUNC || !*name)
		return 0;
	a->func_syms = xgrow(a->func_syms, &r->alloc, a->nr_func_syms + 1, sizeof(*a->func_syms));
	a->func_syms[a->nr_func_syms++] = (struct func_sym){
		.name = name,
		.addr = attrib_image_sym_addr(&a->img, sym),
		.size = sym->st_size,
	};
	return 0;
}

static void read_func_syms(struct attrib *a)
{
	struct func_syms_read r = { .a = a };

	a->func_syms_read = true;
	attrib_image_symbols(&a->img, add_func_sym, &r);
	if (a->nr_func_syms)
		qsort(a->func_syms, a->nr_func_syms, sizeof(*a->func_syms), func_sym_cmp);
}

void attrib_func_syms_free(struct attrib *a)
{
	free(a->func_syms);
	a->func_syms = NULL;
	a->nr_func_syms = 0;
}

/* The first function symbol named NAME, or nr_func_syms. */
static size_t first_named(const struct attrib *a, const char *name)
{
	size_t lo = 0, hi = a->nr_func_syms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(a->func_syms[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < a->nr_func_syms && !strcmp(a->func_syms[lo].name, name) ? lo : a->nr_func_syms;
}

size_t attrib_find_functions(struct attrib *a, const char *name, struct attrib_function *out,
			     size_t max)
{
	size_t i, n = 0;

	if (!a->func_syms_read)
		read_func_syms(a);
	for (i = first_named(a, name); i < a->nr_func_syms && !strcmp(a->func_syms[i].name, name);
	     i++, n++)
		if (n < max)
			out[n] = (struct attrib_function){ .addr = a->func_syms[i].addr,
							   .size = a->func_syms[i].size };
	return n;
}

size_t attrib_build_id(const struct attrib *a, const uint8_t **bits)
{
	return attrib_debuginfo_build_id(a->img.elf, bits);
}

bool attrib_is_relocatable(const struct attrib *a)
{
	return a->img.dwfl != NULL;
}

struct symbol_query {
	const struct attrib *a;
	const char *name;
	uint64_t addr;
};

static int symbol_named(void *ctx, const GElf_Sym *sym, const char *name)
{
	struct symbol_query *q = ctx;

	if (strcmp(name, q->name))
		return 0;
	q->addr = attrib_image_sym_addr(&q->a->img, sym);
	return 1;
}

int attrib_find_symbol(const struct attrib *a, const char *name, uint64_t *addr)
{
	struct symbol_query q = { .a = a, .name = name };

	if (!attrib_image_symbols(&a->img, symbol_named, &q))
		return -ENOENT;
	*addr = q.addr;
	return 0;
}
