// SPDX-License-Identifier: GPL-2.0
/*
 * One function at a time, on demand: its code range (from the DWARF
 * subprogram holding the pc), its instructions and basic-block leaders, and
 * the (pc range, register) locations of every variable and parameter in its
 * scopes, inlined subroutines included.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "attrib/attrib_int.h"
#include "util/xalloc.h"
#include <elf.h>

struct loc_list {
	struct func *f;
	size_t alloc, alloc_slots;
};

/* reg + bias when the expression computes a register's value plus a constant. */
static bool expr_reg(const Dwarf_Op *e, size_t n, int *reg, int64_t *bias)
{
	if (n == 1 && e[0].atom >= DW_OP_reg0 && e[0].atom <= DW_OP_reg31) {
		*reg = e[0].atom - DW_OP_reg0;
		*bias = 0;
		return true;
	}
	if (n == 1 && e[0].atom == DW_OP_regx) {
		*reg = (int)e[0].number;
		*bias = 0;
		return true;
	}
	if (n == 2 && e[1].atom == DW_OP_stack_value && e[0].atom >= DW_OP_breg0 &&
	    e[0].atom <= DW_OP_breg31) {
		*reg = e[0].atom - DW_OP_breg0;
		*bias = (int64_t)e[0].number;
		return true;
	}
	if (n == 2 && e[1].atom == DW_OP_stack_value && e[0].atom == DW_OP_bregx) {
		*reg = (int)e[0].number;
		*bias = (int64_t)e[0].number2;
		return true;
	}
	return false;
}

/* A memory location: DW_OP_fbreg N, or DW_OP_bregR N (an address, no stack value). */
static bool expr_slot(const Dwarf_Op *e, size_t n, int *reg, int64_t *off)
{
	if (n != 1)
		return false;
	if (e[0].atom == DW_OP_fbreg) {
		*reg = REG_FRAME_BASE;
		*off = (int64_t)e[0].number;
	} else if (e[0].atom >= DW_OP_breg0 && e[0].atom <= DW_OP_breg31) {
		*reg = e[0].atom - DW_OP_breg0;
		*off = (int64_t)e[0].number;
	} else if (e[0].atom == DW_OP_bregx) {
		*reg = (int)e[0].number;
		*off = (int64_t)e[0].number2;
	} else {
		return false;
	}
	return true;
}

/* One location of a variable: its value in a register (+ bias), or its slot. */
struct where {
	bool slot;
	int reg;
	int64_t off;
};

static void add_loc(struct loc_list *l, uint64_t lo, uint64_t hi, const struct where *w,
		    uint32_t depth, const char *name, const struct type *type)
{
	struct func *f = l->f;
	struct var_loc v = { .lo = lo,
			     .hi = hi,
			     .reg = w->reg,
			     .off = w->off,
			     .depth = depth,
			     .name = name,
			     .type = type };

	if (hi <= f->lo || lo >= f->hi || w->reg >= NR_DWARF_REGS ||
	    (w->reg < 0 && !(w->slot && w->reg == REG_FRAME_BASE)))
		return;
	if (w->slot) {
		f->slots = xgrow(f->slots, &l->alloc_slots, f->nr_slots + 1, sizeof(*f->slots));
		f->slots[f->nr_slots++] = v;
	} else {
		f->locs = xgrow(f->locs, &l->alloc, f->nr_locs + 1, sizeof(*f->locs));
		f->locs[f->nr_locs++] = v;
	}
}

static void var_locs(struct attrib *a, struct loc_list *l, Dwarf_Die *var, Dwarf_Die *scope,
		     uint32_t depth)
{
	Dwarf_Addr base, start, end;
	Dwarf_Attribute attr;
	const struct type *type = NULL;
	const char *name = NULL;
	bool typed = false;
	ptrdiff_t off = 0;
	Dwarf_Op *expr;
	size_t len;

	if (!dwarf_attr(var, DW_AT_location, &attr))
		return;
	while ((off = dwarf_getlocations(&attr, off, &base, &start, &end, &expr, &len)) > 0) {
		Dwarf_Addr lo, hi;
		ptrdiff_t roff = 0;
		struct where w = { 0 };

		if (!expr_reg(expr, len, &w.reg, &w.off) &&
		    !(w.slot = expr_slot(expr, len, &w.reg, &w.off)))
			continue;
		if (!typed) {
			type = attrib_die_type(a, var);
			name = attrib_die_name(a, var);
			typed = true;
		}
		if (start != 0 || end != (Dwarf_Addr)-1) {
			add_loc(l, start, end, &w, depth, name, type);
			continue;
		}
		/* A single location: valid wherever its scope is. */
		while ((roff = dwarf_ranges(scope, roff, &base, &lo, &hi)) > 0)
			add_loc(l, lo, hi, &w, depth, name, type);
	}
}

static void scope_locs(struct attrib *a, struct loc_list *l, Dwarf_Die *scope, uint32_t depth)
{
	Dwarf_Die child;

	if (depth > 64 || dwarf_child(scope, &child) != 0)
		return;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_variable:
		case DW_TAG_formal_parameter:
			var_locs(a, l, &child, scope, depth);
			break;
		case DW_TAG_lexical_block:
		case DW_TAG_inlined_subroutine:
			scope_locs(a, l, &child, depth + 1);
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* The subprogram DIE (searched through namespaces/classes) holding pc. */
static bool find_subprogram(Dwarf_Die *parent, uint64_t pc, Dwarf_Die *out, int depth)
{
	Dwarf_Die child;

	if (depth > 16 || dwarf_child(parent, &child) != 0)
		return false;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
			if (dwarf_haspc(&child, pc) == 1) {
				*out = child;
				return true;
			}
			break;
		case DW_TAG_namespace:
		case DW_TAG_structure_type:
		case DW_TAG_class_type:
			if (find_subprogram(&child, pc, out, depth + 1))
				return true;
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

bool attrib_find_cu(struct attrib *a, uint64_t pc, Dwarf_Die *cu)
{
	Dwarf_Off off = 0, next;
	size_t hdr;

	if (dwarf_addrdie(a->img.dwarf, pc, cu))
		return true;
	/* No .debug_aranges entry: try every unit. */
	while (dwarf_nextcu(a->img.dwarf, off, &next, &hdr, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(a->img.dwarf, off + hdr, cu) && dwarf_haspc(cu, pc) == 1)
			return true;
		off = next;
	}
	return false;
}

const uint8_t *attrib_func_code(const struct attrib *a, const struct func *f, size_t *len)
{
	const uint8_t *code = attrib_image_code(&a->img, f->lo, len);

	if (!code || !a->dec)
		return NULL;
	if (*len > f->hi - f->lo)
		*len = f->hi - f->lo;
	return code;
}

static void func_decode(struct attrib *a, struct func *f)
{
	size_t avail, alloc = 0, i;
	const uint8_t *code = attrib_func_code(a, f, &avail);
	uint64_t pc = f->lo;

	if (!code)
		return;
	while (pc < f->hi) {
		struct insn in;
		size_t n = attrib_decoder_decode(a->dec, code + (pc - f->lo), avail - (pc - f->lo),
						 pc, &in);

		if (!n)
			break;
		f->insns = xgrow(f->insns, &alloc, f->nr_insns + 1, sizeof(*f->insns));
		f->insns[f->nr_insns++] = in;
		pc += n;
	}
	if (f->nr_insns)
		f->insns[0].leader = true;
	for (i = 0; i < f->nr_insns; i++) {
		const struct insn *in = &f->insns[i];
		ptrdiff_t t;

		if (in->op != INSN_JUMP && in->op != INSN_RET)
			continue;
		if (in->op == INSN_JUMP && !in->target)
			f->indirect_jumps = true;
		if (i + 1 < f->nr_insns)
			f->insns[i + 1].leader = true;
		if (in->target >= f->lo && in->target < f->hi &&
		    (t = attrib_func_insn_index(f, in->target)) >= 0)
			f->insns[t].leader = true;
	}
}

static int cmp_pc_insn(const void *key, const void *elem)
{
	uint64_t pc = *(const uint64_t *)key, at = ((const struct insn *)elem)->pc;

	return (pc > at) - (pc < at);
}

ptrdiff_t attrib_func_insn_index(const struct func *f, uint64_t pc)
{
	const struct insn *in = NULL;

	if (f->nr_insns)
		in = bsearch(&pc, f->insns, f->nr_insns, sizeof(*f->insns), cmp_pc_insn);
	return in ? in - f->insns : -1;
}

/* Integer/pointer argument registers in order (DWARF numbers). */
static const int x86_64_args[] = { 5, 4, 1, 2, 8, 9 };
static const int aarch64_args[] = { 0, 1, 2, 3, 4, 5, 6, 7 };

/*
 * Where the ABI puts each parameter at the function's entry, for when the
 * debug info gives a parameter no location (clang often drops them). Only
 * for a plain function (not a clone whose signature the compiler changed)
 * entered at f->lo, and only while every parameter before is an integer or
 * a pointer (so that the registers are assigned in order).
 */
static void entry_args(struct attrib *a, struct func *f, Dwarf_Die *sub)
{
	const int *regs = a->img.machine == EM_AARCH64 ? aarch64_args : x86_64_args;
	size_t nr_regs = a->img.machine == EM_AARCH64 ? ARRAY_SIZE(aarch64_args) :
							ARRAY_SIZE(x86_64_args);
	Dwarf_Addr entry;
	Dwarf_Die c;
	size_t n = 0;

	if (dwarf_hasattr(sub, DW_AT_abstract_origin) || dwarf_entrypc(sub, &entry) != 0 ||
	    entry != f->lo || (f->name && strchr(f->name, '.')) || dwarf_child(sub, &c) != 0)
		return;
	do {
		const struct type *t;
		enum type_kind k;

		if (dwarf_tag(&c) != DW_TAG_formal_parameter)
			continue;
		t = attrib_die_type(a, &c);
		k = stripped_kind(t);
		if (!t || (k != TYPE_POINTER && k != TYPE_BASE && k != TYPE_ENUM) ||
		    type_size(t) > 8 || n == nr_regs || n == ARRAY_SIZE(f->args))
			return;
		if (k == TYPE_BASE && stripped_encoding(t) == BASE_FLOAT)
			return;
		f->args[n].reg = regs[n];
		f->args[n].type = t;
		f->args[n].name = attrib_die_name(a, &c);
		f->nr_args = ++n;
	} while (dwarf_siblingof(&c, &c) == 0);
}

/* DW_AT_frame_base, what DW_OP_fbreg counts from: the CFA, or a register. */
static void frame_base(struct func *f, Dwarf_Die *sub)
{
	Dwarf_Attribute attr;
	Dwarf_Op *e;
	size_t n;

	if (!dwarf_attr(sub, DW_AT_frame_base, &attr) || dwarf_getlocation(&attr, &e, &n) != 0 ||
	    n != 1)
		return;
	if (e[0].atom == DW_OP_call_frame_cfa) {
		f->frame_base.kind = FRAME_BASE_CFA;
	} else if (e[0].atom >= DW_OP_reg0 && e[0].atom <= DW_OP_reg31) {
		f->frame_base.kind = FRAME_BASE_REG;
		f->frame_base.reg = e[0].atom - DW_OP_reg0;
	} else if (e[0].atom >= DW_OP_breg0 && e[0].atom <= DW_OP_breg31) {
		f->frame_base.kind = FRAME_BASE_REG;
		f->frame_base.reg = e[0].atom - DW_OP_breg0;
		f->frame_base.off = (int64_t)e[0].number;
	}
}

/* The function of subprogram sub (in unit cu) whose code range holds pc. */
static struct func *func_from_die(struct attrib *a, Dwarf_Die *cu, Dwarf_Die *sub, uint64_t pc)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	struct loc_list l;
	struct func *f;

	f = xcalloc(1, sizeof(*f));
	while ((off = dwarf_ranges(sub, off, &base, &lo, &hi)) > 0) {
		if (pc >= lo && pc < hi) {
			f->lo = lo;
			f->hi = hi;
			break;
		}
	}
	if (f->hi <= f->lo) {
		free(f);
		return NULL;
	}
	f->name = attrib_die_name(a, sub);
	f->cu_offset = dwarf_dieoffset(cu);
	f->local = !dwarf_hasattr_integrate(sub, DW_AT_external);
	f->ret_type = attrib_die_type(a, sub);
	frame_base(f, sub);
	func_decode(a, f);
	l = (struct loc_list){ .f = f };
	scope_locs(a, &l, sub, 0);
	entry_args(a, f, sub);
	return f;
}

static struct func *func_build(struct attrib *a, uint64_t pc)
{
	Dwarf_Die cu, sub;

	if (!attrib_find_cu(a, pc, &cu) || !find_subprogram(&cu, pc, &sub, 0))
		return NULL;
	return func_from_die(a, &cu, &sub, pc);
}

void attrib_func_free(struct func *f)
{
	if (!f)
		return;
	free(f->insns);
	free(f->locs);
	free(f->slots);
	free(f->callers);
	free(f);
}

/* Where pc's function is, or would go, in the sorted a->funcs: *at. */
static struct func *func_find(const struct attrib *a, uint64_t pc, size_t *at)
{
	size_t lo = 0, hi = a->nr_funcs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->funcs[mid]->lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return lo && pc < a->funcs[lo - 1]->hi ? a->funcs[lo - 1] : NULL;
}

static struct func *func_insert(struct attrib *a, struct func *f, size_t at)
{
	a->funcs = xgrow(a->funcs, &a->alloc_funcs, a->nr_funcs + 1, sizeof(*a->funcs));
	memmove(&a->funcs[at + 1], &a->funcs[at], (a->nr_funcs - at) * sizeof(*a->funcs));
	a->funcs[at] = f;
	a->nr_funcs++;
	return f;
}

/*
 * Functions are kept sorted by start address for the range search; a pc
 * no subprogram holds (assembly, a PLT stub) is remembered: finding that
 * out means a look at every unit.
 */
struct func *attrib_func_get(struct attrib *a, uint64_t pc)
{
	struct func *f;
	size_t at;

	f = func_find(a, pc, &at);
	if (f || hashmap_get(&a->no_func, pc))
		return f;
	f = func_build(a, pc);
	if (!f) {
		hashmap_put(&a->no_func, pc, a);
		return NULL;
	}
	return func_insert(a, f, at);
}

/* The direct calls of target in g, added to target's callers. */
static void calls_in(struct func *g, struct func *target, size_t *alloc)
{
	size_t i;

	for (i = 0; g != target && i < g->nr_insns; i++) {
		if (g->insns[i].op != INSN_CALL || g->insns[i].target != target->lo)
			continue;
		target->callers = xgrow(target->callers, alloc, target->nr_callers + 1,
					sizeof(*target->callers));
		target->callers[target->nr_callers++] = (struct call_site){ .func = g, .insn = i };
	}
}

/* The calls of target in every subprogram under parent (namespaces, classes too). */
static void unit_calls(struct attrib *a, Dwarf_Die *cu, Dwarf_Die *parent, struct func *target,
		       size_t *alloc, int depth)
{
	Dwarf_Die child;

	if (depth > 16 || dwarf_child(parent, &child) != 0)
		return;
	do {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t off = 0;
		struct func *g;
		size_t at;

		switch (dwarf_tag(&child)) {
		case DW_TAG_namespace:
		case DW_TAG_structure_type:
		case DW_TAG_class_type:
			unit_calls(a, cu, &child, target, alloc, depth + 1);
			continue;
		case DW_TAG_subprogram:
			break;
		default:
			continue;
		}
		/* built from its DIE: no search of the unit for each one */
		while ((off = dwarf_ranges(&child, off, &base, &lo, &hi)) > 0) {
			g = func_find(a, lo, &at);
			if (!g && (g = func_from_die(a, cu, &child, lo)))
				func_insert(a, g, at);
			if (g && g->lo == lo)
				calls_in(g, target, alloc);
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

void attrib_func_callers(struct attrib *a, struct func *f)
{
	size_t alloc = 0;
	Dwarf_Die cu;

	if (f->callers_found)
		return;
	f->callers_found = true;
	if (dwarf_offdie(a->img.dwarf, f->cu_offset, &cu))
		unit_calls(a, &cu, &cu, f, &alloc, 0);
}

static uint64_t call_writes(struct attrib *a, const struct insn *in, int depth);

/* Every register f's code writes, calls included (depth bounds the chain). */
static uint64_t clobbers(struct attrib *a, struct func *f, int depth)
{
	uint64_t mask = 0;
	size_t i;

	if (f->clobbers_found)
		return f->clobbers;
	for (i = 0; i < f->nr_insns; i++) {
		const struct insn *in = &f->insns[i];
		bool leaves = in->op == INSN_JUMP && (in->target < f->lo || in->target >= f->hi);

		/* a call, or a tail call: what the callee writes */
		mask |= in->op == INSN_CALL || leaves ? call_writes(a, in, depth + 1) : in->writes;
	}
	f->clobbers = mask;
	f->clobbers_found = true;
	return mask;
}

static uint64_t call_writes(struct attrib *a, const struct insn *in, int depth)
{
	/* what the decoder added to a call's own writes: the ABI's caller-saved set */
	const uint64_t abi = a->img.machine == EM_AARCH64 ? 0x7ffffULL : 0x0f37ULL;
	struct func *g;

	if (!in->target || depth > 4 || !a->dec)
		return in->writes | abi;
	g = attrib_func_get(a, in->target);
	if (!g || g->lo != in->target || !g->nr_insns || g->indirect_jumps)
		return in->writes | abi;
	/* the call's own effects (the stack pointer, the link register), the callee's */
	return (in->writes & ~abi) | clobbers(a, g, depth);
}

uint64_t attrib_insn_writes(struct attrib *a, const struct func *f, size_t k)
{
	const struct insn *in = &f->insns[k];

	return in->op == INSN_CALL ? call_writes(a, in, 0) : in->writes;
}
