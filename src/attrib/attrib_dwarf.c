// SPDX-License-Identifier: GPL-2.0
/*
 * What src/attrib/ reads from DWARF itself: the addresses of global and
 * static variables, and, per function, where each variable and parameter
 * lives (register and pc ranges, inlined scopes included). Types come from
 * the type model (type_dwarf_type_at).
 */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "attrib/attrib_int.h"
#include "util/xalloc.h"

/* The model's type of DIE's DW_AT_type (the type model converts it). */
const struct type *attrib_die_type(struct attrib *a, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Die tdie;
	uint64_t ref;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &tdie))
		return NULL;
	ref = dwarf_dieoffset(&tdie);
	if (tdie.cu && dwarf_cu_getdwarf(tdie.cu) != a->img.dwarf)
		ref |= TYPE_DWARF_ALT_REF;
	return type_dwarf_type_at(a->types, a->extra, a->img.dwarf, ref);
}

const char *attrib_die_name(struct attrib *a, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));

	return name ? attrib_image_intern(&a->img, name) : NULL;
}

/* ---- globals ------------------------------------------------------------ */

static void add_global(struct attrib *a, size_t *alloc, uint64_t addr, uint64_t size,
		       const char *name, const struct type *type)
{
	struct global_var *g;

	a->globals = xgrow(a->globals, alloc, a->nr_globals + 1, sizeof(*a->globals));
	g = &a->globals[a->nr_globals++];
	g->addr = addr;
	g->size = size;
	g->name = name;
	g->type = type;
}

static void global_from_die(struct attrib *a, Dwarf_Die *die, size_t *alloc)
{
	Dwarf_Attribute attr, addr_attr;
	const struct type *t;
	Dwarf_Addr addr;
	Dwarf_Op *expr;
	size_t len;

	if (!dwarf_attr(die, DW_AT_location, &attr) || dwarf_getlocation(&attr, &expr, &len) != 0)
		return;
	/* TLS (form_tls_address) and registers are not global data. */
	if (len != 1)
		return;
	if (expr[0].atom == DW_OP_addr) {
		addr = expr[0].number;
	} else if (expr[0].atom == DW_OP_addrx || expr[0].atom == DW_OP_GNU_addr_index) {
		/* DWARF 5 (clang's default): an index into .debug_addr. */
		if (dwarf_getlocation_attr(&attr, expr, &addr_attr) != 0 ||
		    dwarf_formaddr(&addr_attr, &addr) != 0)
			return;
	} else {
		return;
	}
	t = attrib_die_type(a, die);
	add_global(a, alloc, addr, t ? type_size(t) : 0, attrib_die_name(a, die), t);
}

static void globals_walk(struct attrib *a, Dwarf_Die *parent, size_t *alloc, int depth)
{
	Dwarf_Die child;

	if (depth > 32 || dwarf_child(parent, &child) != 0)
		return;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_variable:
			global_from_die(a, &child, alloc);
			break;
		case DW_TAG_subprogram:
		case DW_TAG_lexical_block:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_namespace:
		case DW_TAG_structure_type:
		case DW_TAG_class_type:
			globals_walk(a, &child, alloc, depth + 1);
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

static const struct global_var *find_in(const struct attrib *a, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->globals[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	if (addr <
	    a->globals[lo - 1].addr + (a->globals[lo - 1].size ? a->globals[lo - 1].size : 1))
		return &a->globals[lo - 1];
	return NULL;
}

struct symtab_globals {
	struct attrib *a;
	size_t *alloc, nr_sorted;
};

static int global_from_sym(void *ctx, const GElf_Sym *sym, const char *name)
{
	struct symtab_globals *sg = ctx;
	struct attrib *a = sg->a;
	struct global_var *g;
	uint64_t addr;

	if (GELF_ST_TYPE(sym->st_info) != STT_OBJECT ||
	    !(addr = attrib_image_sym_addr(&a->img, sym)))
		return 0;
	g = (struct global_var *)find_in(a, sg->nr_sorted, addr);
	if (g && g->addr == addr && !g->size)
		g->size = sym->st_size; /* DWARF knew no type: take ELF's size */
	else if (!g)
		add_global(a, sg->alloc, addr, sym->st_size, attrib_image_intern(&a->img, name),
			   NULL);
	return 0;
}

static void globals_from_symtab(struct attrib *a, size_t *alloc)
{
	struct symtab_globals sg = { .a = a, .alloc = alloc, .nr_sorted = a->nr_globals };

	attrib_image_symbols(&a->img, global_from_sym, &sg);
}

static int global_cmp(const void *x, const void *y)
{
	const struct global_var *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	/* Typed first: the duplicate after it is dropped. */
	return (b->type != NULL) - (a->type != NULL);
}

static void globals_sort(struct attrib *a)
{
	size_t i, n = 0;

	if (a->nr_globals) /* qsort's base must not be NULL, even for 0 */
		qsort(a->globals, a->nr_globals, sizeof(*a->globals), global_cmp);
	for (i = 0; i < a->nr_globals; i++)
		if (!n || a->globals[n - 1].addr != a->globals[i].addr)
			a->globals[n++] = a->globals[i];
	a->nr_globals = n;
}

int attrib_globals_load(struct attrib *a, struct err_msg *err)
{
	Dwarf_Off off = 0, next;
	size_t hdr, alloc = 0;

	while (dwarf_nextcu(a->img.dwarf, off, &next, &hdr, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(a->img.dwarf, off + hdr, &cu))
			globals_walk(a, &cu, &alloc, 0);
		off = next;
	}
	globals_sort(a);
	globals_from_symtab(a, &alloc);
	globals_sort(a);
	return 0;
}

const struct global_var *attrib_globals_find(const struct attrib *a, uint64_t addr)
{
	return find_in(a, a->nr_globals, addr);
}

/* ---- call frame information -------------------------------------------- */

static void cfi_open(struct attrib *a)
{
	a->cfi_opened = true;
	/* .debug_frame lives with the DWARF (freed by dwarf_end), .eh_frame in the binary. */
	a->cfi_debug = dwarf_getcfi(a->img.dwarf);
	a->cfi_eh = a->img.elf ? dwarf_getcfi_elf(a->img.elf) : NULL;
}

static int cfa_from(Dwarf_CFI *cfi, uint64_t pc, int *reg, int64_t *off)
{
	Dwarf_Frame *frame;
	Dwarf_Op *ops;
	size_t nops;
	int ret = -ENOENT;

	if (!cfi || dwarf_cfi_addrframe(cfi, pc, &frame) != 0)
		return -ENOENT;
	/* The usual rule, register + offset, comes back as one DW_OP_bregx. */
	if (dwarf_frame_cfa(frame, &ops, &nops) == 0 && nops == 1) {
		if (ops[0].atom == DW_OP_bregx) {
			*reg = (int)ops[0].number;
			*off = (int64_t)ops[0].number2;
			ret = 0;
		} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
			*reg = ops[0].atom - DW_OP_breg0;
			*off = (int64_t)ops[0].number;
			ret = 0;
		}
	}
	free(frame);
	return ret;
}

int attrib_cfa_at(struct attrib *a, uint64_t pc, int *reg, int64_t *off)
{
	if (!a->cfi_opened)
		cfi_open(a);
	if (cfa_from(a->cfi_debug, pc, reg, off) == 0)
		return 0;
	return cfa_from(a->cfi_eh, pc, reg, off);
}

void attrib_cfi_release(struct attrib *a)
{
	if (a->cfi_eh)
		dwarf_cfi_end(a->cfi_eh);
	a->cfi_eh = NULL;
	a->cfi_debug = NULL;
	a->cfi_opened = false;
}
