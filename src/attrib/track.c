// SPDX-License-Identifier: GPL-2.0
/*
 * What a register points to before an instruction: a DWARF variable living
 * in it, or, walking back through the basic block, the instruction that set
 * it: a move from another register, a load of a typed pointer's member, an
 * lea/add of a known pointer, or the address of a global.
 */
#include <errno.h>

#include "attrib/attrib_int.h"

static const struct type *pointee(const struct type *t)
{
	t = t ? type_strip(t) : NULL;
	if (!t || t->kind != TYPE_POINTER || !t->target)
		return NULL;
	t = t->target;
	return stripped_kind(t) == TYPE_VOID || stripped_kind(t) == TYPE_FUNC ? NULL : t;
}

/*
 * The variable in reg at pc: 0 found, -ENOENT none, -EINVAL one lives there
 * but is not a typed data pointer (an integer, a void *).
 */
static int var_in_reg(const struct func *f, uint64_t pc, int reg, struct reg_type *out)
{
	const struct var_loc *best = NULL;
	bool untyped = false;
	size_t i;

	for (i = 0; i < f->nr_locs; i++) {
		const struct var_loc *v = &f->locs[i];

		if (v->reg != reg || pc < v->lo || pc >= v->hi)
			continue;
		if (!pointee(v->type)) {
			untyped = true;
			continue;
		}
		if (!best || v->depth > best->depth)
			best = v;
	}
	if (!best)
		return untyped ? -EINVAL : -ENOENT;
	*out = (struct reg_type){ .type = pointee(best->type),
				  .offset = -best->bias,
				  .var = best->name };
	return 0;
}

static int global_at(struct attrib *a, uint64_t addr, struct reg_type *out)
{
	const struct global_var *g = globals_find(a, addr);

	if (!g)
		return -ENOENT;
	if (!g->type)
		return -EINVAL;
	*out = (struct reg_type){
		.type = g->type, .offset = addr - g->addr, .var = g->name, .global = true
	};
	return 0;
}

/* The member of aggregate s holding off; a pointer starting there wins in unions. */
static const struct type_member *member_holding(const struct type *s, uint64_t off)
{
	const struct type_member *found = NULL;
	uint32_t i;

	for (i = 0; i < s->nr_members; i++) {
		const struct type_member *m = &s->members[i];

		if (m->bit_size || off < m->offset || off >= m->offset + type_size(m->type))
			continue;
		if (off == m->offset && stripped_kind(m->type) == TYPE_POINTER)
			return m;
		if (!found)
			found = m;
	}
	return found;
}

/* The pointer type stored at exactly offset off of t, or NULL. */
static const struct type *type_at(const struct type *t, uint64_t off)
{
	int depth;

	for (depth = 0; t && depth < 32; depth++) {
		const struct type *s = type_strip(t);
		const struct type_member *m;

		if (!s)
			return NULL;
		if (off == 0 && s->kind == TYPE_POINTER)
			return s;
		if (s->kind == TYPE_ARRAY) {
			uint64_t es = type_size(s->target);

			if (!es)
				return NULL;
			off %= es;
			t = s->target;
			continue;
		}
		if (s->kind != TYPE_STRUCT && s->kind != TYPE_UNION)
			return NULL;
		m = member_holding(s, off);
		if (!m)
			return NULL;
		off -= m->offset;
		t = m->type;
	}
	return NULL;
}

/* The type loaded by a load from a typed object's member. */
static int load_type(struct attrib *a, struct func *f, size_t k, struct reg_type *out, int depth)
{
	const struct insn *in = &f->insns[k];
	struct reg_type obj;
	int ret;

	if (in->pc_relative)
		ret = global_at(a, in->disp, &obj);
	else
		ret = track_reg(a, f, k, in->base, &obj, depth + 1);
	if (ret)
		return ret;
	if (!in->pc_relative)
		obj.offset += in->disp;
	if (obj.offset < 0)
		return -ENOENT;
	if (in->index != REG_NONE) {
		/* p[i] of a T *p: any element; arrays inside T are walked by type_at. */
		uint64_t size = type_size(obj.type);
		uint64_t stride = in->scale * track_index_stride(f, k, in->index);

		if (size && stride % size == 0)
			obj.offset %= size;
	}
	*out = (struct reg_type){ .type = pointee(type_at(obj.type, obj.offset)) };
	return out->type ? 0 : -EINVAL;
}

/* What instruction k, which writes reg, leaves in it. */
static int def_type(struct attrib *a, struct func *f, size_t k, int reg, struct reg_type *out,
		    int depth)
{
	const struct insn *in = &f->insns[k];
	int ret;

	if (in->dst != reg)
		return -ENOENT;
	switch (in->op) {
	case INSN_MOV_REG:
		return track_reg(a, f, k, in->src, out, depth + 1);
	case INSN_ADD_IMM:
		ret = track_reg(a, f, k, reg, out, depth + 1);
		if (!ret)
			out->offset += in->disp;
		return ret;
	case INSN_LEA:
		if (in->index != REG_NONE)
			return -ENOENT;
		if (in->pc_relative)
			return global_at(a, in->disp, out);
		ret = track_reg(a, f, k, in->base, out, depth + 1);
		if (!ret)
			out->offset += in->disp;
		return ret;
	case INSN_LOAD:
		return load_type(a, f, k, out, depth);
	}
	return -ENOENT;
}

int track_reg(struct attrib *a, struct func *f, size_t i, int reg, struct reg_type *out, int depth)
{
	size_t j;
	int ret;

	if (depth > 8 || reg < 0 || reg >= NR_DWARF_REGS)
		return -ENOENT;
	for (j = i;; j--) {
		ret = var_in_reg(f, f->insns[j].pc, reg, out);
		if (ret != -ENOENT)
			return ret;
		if (j == 0 || f->leader[j])
			return -ENOENT;
		if (f->insns[j - 1].writes & (1ULL << reg))
			return def_type(a, f, j - 1, reg, out, depth);
	}
}

uint64_t track_index_stride(const struct func *f, size_t i, int reg)
{
	uint64_t stride = 1;
	size_t j;

	for (j = i; j > 0 && !f->leader[j] && reg >= 0 && reg < NR_DWARF_REGS; j--) {
		const struct insn *prev = &f->insns[j - 1];

		if (!(prev->writes & (1ULL << reg)))
			continue;
		if (prev->op != INSN_SCALE_IMM || prev->dst != reg || stride > (1ULL << 32))
			break;
		stride *= prev->disp;
		reg = prev->src;
	}
	return stride;
}
