// SPDX-License-Identifier: GPL-2.0
/*
 * What a heap block holds, from its allocation site: the pointer variable
 * the allocator's result is stored in right after the call, and that
 * variable's pointee type. `args = calloc(n, sizeof(*args))` with
 * `struct worker_arg *args` makes the block an array of struct worker_arg.
 *
 * Optimised code keeps the result in a register: a variable whose DWARF
 * location is the return register (or a register it is copied to within
 * a few instructions) at that pc. Or the result is stored: into a global
 * (a rip-relative store), or at -O0 into the variable's stack slot, a
 * variable whose location is DW_OP_fbreg at that slot, with the frame
 * base rbp (clang) or the CFA, rbp + 16 after the standard prologue (gcc).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "attrib/attrib_int.h"

#define SITE_SCAN_INSNS 16 /* instructions after the call where the result may move */
#define X86_RAX 0 /* DWARF register numbers (x86-64 psABI) */
#define X86_RBP 6
#define ARM64_X0 0

/* The pointee of a pointer type, or NULL. */
static const struct type *pointee(const struct type *t)
{
	t = t ? type_strip(t) : NULL;
	if (!t || t->kind != TYPE_POINTER || !t->target)
		return NULL;
	return t->target;
}

static bool set_site(const char *name, const struct type *type, struct attrib_alloc_site *out)
{
	const struct type *to = pointee(type), *s = to ? type_strip(to) : NULL;

	if (!s || !s->size || s->kind == TYPE_VOID || s->kind == TYPE_FUNC)
		return false;
	out->var = name;
	out->type = s;
	out->type_name = s->name ? s->name : to->kind == TYPE_TYPEDEF ? to->name : NULL;
	return true;
}

/* A variable living in one of the registers in regs (a bit mask) at pc. */
static bool reg_variable(const struct func *f, uint64_t pc, uint64_t regs,
			 struct attrib_alloc_site *out)
{
	const struct var_loc *best = NULL;
	size_t i;

	for (i = 0; i < f->nr_locs; i++) {
		const struct var_loc *v = &f->locs[i];

		if (pc < v->lo || pc >= v->hi || v->off || !(regs >> v->reg & 1) ||
		    !pointee(v->type))
			continue;
		if (!best || v->depth > best->depth)
			best = v;
	}
	return best && set_site(best->name, best->type, out);
}

/* DW_OP_fbreg N as the variable's only location. */
static bool fbreg_of(Dwarf_Die *var, int64_t *off)
{
	Dwarf_Attribute attr;
	Dwarf_Op *expr;
	size_t len;

	if (!dwarf_attr(var, DW_AT_location, &attr) || dwarf_getlocation(&attr, &expr, &len) ||
	    len != 1 || expr[0].atom != DW_OP_fbreg)
		return false;
	*off = (int64_t)expr[0].number;
	return true;
}

/* rbp + this = the frame base: 0 for DW_OP_reg6 (clang), 16 for the CFA (gcc). */
static bool frame_base_from_rbp(Dwarf_Die *subprogram, int64_t *delta)
{
	Dwarf_Attribute attr;
	Dwarf_Op *expr;
	size_t len;

	if (!dwarf_attr(subprogram, DW_AT_frame_base, &attr) ||
	    dwarf_getlocation(&attr, &expr, &len) || len != 1)
		return false;
	if (expr[0].atom == DW_OP_reg0 + X86_RBP)
		*delta = 0;
	else if (expr[0].atom == DW_OP_call_frame_cfa)
		*delta = 16;
	else
		return false;
	return true;
}

/* The variable in scope at pc whose stack slot is [rbp + disp]. */
static bool slot_variable(struct attrib *a, uint64_t pc, int64_t disp,
			  struct attrib_alloc_site *out)
{
	Dwarf_Die cu, *scopes = NULL, child;
	int n, i;
	int64_t delta = 0, off;
	bool found = false;

	if (!attrib_find_cu(a, pc, &cu) || (n = dwarf_getscopes(&cu, pc, &scopes)) <= 0)
		return false;
	for (i = 0; i < n && dwarf_tag(&scopes[i]) != DW_TAG_subprogram; i++)
		;
	if (i == n || !frame_base_from_rbp(&scopes[i], &delta))
		goto out;
	for (i = 0; i < n && !found; i++) { /* innermost scope first */
		if (dwarf_child(&scopes[i], &child) != 0)
			continue;
		do {
			if ((dwarf_tag(&child) == DW_TAG_variable ||
			     dwarf_tag(&child) == DW_TAG_formal_parameter) &&
			    fbreg_of(&child, &off) && off == disp - delta &&
			    set_site(attrib_die_name(a, &child), attrib_die_type(a, &child), out)) {
				found = true;
				break;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			break;
	}
out:
	free(scopes);
	return found;
}

/*
 * The register (one of regs) an 8-byte plain store writes to memory:
 * "mov qword ptr [rbp - 0x18], rax", "mov qword ptr [rip + 0x2e8f], rbx".
 * -1 when in is no such store.
 */
static int stored_reg(struct attrib *a, const struct func *f, const struct insn *in, uint64_t regs)
{
	static const char *const names[16] = { "rax", "rdx", "rcx", "rbx", "rsi", "rdi",
					       "rbp", "rsp", "r8",  "r9",  "r10", "r11",
					       "r12", "r13", "r14", "r15" };
	struct strbuf sb = STRBUF_INIT;
	const uint8_t *code;
	size_t len;
	int reg = -1, r;

	if (a->img.machine != EM_X86_64 || !in->mem_access || in->mem_size != 8 ||
	    in->mem_rw != INSN_MEM_WRITE || in->index != REG_NONE ||
	    !(code = attrib_func_code(a, f, &len)))
		return -1;
	attrib_decoder_text(a->dec, code + (in->pc - f->lo), len - (in->pc - f->lo), in->pc, &sb);
	for (r = 0; r < 16 && !strncmp(sb.buf, "mov ", 4); r++) {
		size_t n = strlen(names[r]);

		if ((regs >> r & 1) && sb.len > n + 2 && !strcmp(sb.buf + sb.len - n, names[r]) &&
		    !strncmp(sb.buf + sb.len - n - 2, ", ", 2))
			reg = r;
	}
	strbuf_release(&sb);
	return reg;
}

/* The result stored by in: into a global (rip-relative) or a frame slot. */
static bool stored_variable(struct attrib *a, const struct insn *in, struct attrib_alloc_site *out)
{
	const struct global_var *g;

	if (in->pc_relative) {
		g = attrib_globals_find(a, (uint64_t)in->disp);
		return g && g->addr == (uint64_t)in->disp && set_site(g->name, g->type, out);
	}
	return in->base == X86_RBP && slot_variable(a, in->pc, in->disp, out);
}

/*
 * The instruction scanning goes on at after in, or -1 to stop: an
 * unconditional jump is followed (C++'s new[] initialisation loop jumps
 * to its test, then falls through to the store), a conditional one falls
 * through, a call goes on after it (clang -O0 keeps the result in a
 * temporary slot across memset), a return ends the scan.
 */
static ptrdiff_t next_insn(const struct func *f, size_t i)
{
	const struct insn *in = &f->insns[i];

	if (in->op == INSN_RET)
		return -1;
	if (in->op == INSN_JUMP && in->unconditional)
		return in->target ? attrib_func_insn_index(f, in->target) : -1;
	return i + 1 < f->nr_insns ? (ptrdiff_t)(i + 1) : -1;
}

#define SITE_MAX_SLOTS 4

/* Where the result is: registers, and frame slots a compiler's temporary put it in. */
struct site_track {
	uint64_t regs;
	int64_t slots[SITE_MAX_SLOTS]; /* rbp-relative */
	size_t nr_slots;
};

static bool in_slot(const struct site_track *t, int64_t disp)
{
	size_t i;

	for (i = 0; i < t->nr_slots; i++)
		if (t->slots[i] == disp)
			return true;
	return false;
}

/* What in does to the registers holding the result (a call keeps the callee-saved). */
static void track_result(const struct insn *in, struct site_track *t)
{
	if (in->op == INSN_MOV_REG && in->src >= 0 && (t->regs >> in->src & 1)) {
		t->regs |= 1ULL << in->dst;
		return;
	}
	if (in->op == INSN_LOAD && in->base == X86_RBP && in->dst >= 0 && in_slot(t, in->disp)) {
		t->regs |= 1ULL << in->dst; /* the temporary read back */
		return;
	}
	if (in->dst >= 0 && in->op != INSN_OTHER)
		t->regs &= ~(1ULL << in->dst);
	t->regs &= ~in->writes;
}

int attrib_alloc_site(struct attrib *a, uint64_t ret, struct attrib_alloc_site *out)
{
	struct func *f = attrib_func_get(a, ret);
	ptrdiff_t i = f ? attrib_func_insn_index(f, ret) : -1;
	struct site_track t = { .regs = 1ULL
					<< (a->img.machine == EM_AARCH64 ? ARM64_X0 : X86_RAX) };
	int steps;

	memset(out, 0, sizeof(*out));
	for (steps = 0; i >= 0 && (t.regs || t.nr_slots) && steps < SITE_SCAN_INSNS; steps++) {
		const struct insn *in = &f->insns[i];

		if (reg_variable(f, in->pc, t.regs, out))
			return 0;
		if (stored_reg(a, f, in, t.regs) >= 0) {
			if (stored_variable(a, in, out))
				return 0;
			if (in->pc_relative || in->base != X86_RBP || t.nr_slots == SITE_MAX_SLOTS)
				return -ENOENT;
			t.slots[t.nr_slots++] = in->disp; /* no variable there: a temporary */
		}
		track_result(in, &t);
		i = next_insn(f, (size_t)i);
	}
	return -ENOENT;
}
