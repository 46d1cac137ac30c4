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
 * How well a variable explains an access at disp from its register: the
 * offset falls inside its pointee (container_of's "it" beats the list_head
 * "l" both living in one register), an aggregate beats a scalar, then the
 * innermost scope wins.
 */
static int var_score(const struct var_loc *v, int64_t disp)
{
	const struct type *t = pointee(v->type);
	int64_t off = disp - v->off;
	int score = v->depth > 255 ? 255 : (int)v->depth;

	if (off >= 0 && (uint64_t)off < type_size(t))
		score += 1024;
	if (type_is_aggregate(t))
		score += 512;
	return score;
}

/* v's object holds the access and, strictly larger, all of inner's object. */
static bool encloses(const struct var_loc *v, const struct var_loc *inner, int64_t disp)
{
	uint64_t vsize = type_size(pointee(v->type)), isize = type_size(pointee(inner->type));

	/* each object starts at reg + bias */
	return var_score(v, disp) >= 1536 && vsize > isize && v->off <= inner->off &&
	       v->off + (int64_t)vsize >= inner->off + (int64_t)isize;
}

/*
 * Two variables explain the access, one the other's enclosing object: the
 * outer names it better (tg->load_avg, not the v->counter of an inlined
 * atomic_long_read(&tg->load_avg)), for the report and per-field profiles.
 */
static const struct var_loc *outermost(const struct func *f, uint64_t pc, int reg, int64_t disp,
				       const struct var_loc *best)
{
	size_t i;

	for (i = 0; var_score(best, disp) >= 1536 && i < f->nr_locs; i++) {
		const struct var_loc *v = &f->locs[i];

		if (v->reg == reg && pc >= v->lo && pc < v->hi && pointee(v->type) &&
		    encloses(v, best, disp))
			best = v;
	}
	return best;
}

/*
 * The variable in reg at pc that best explains an access at disp from it:
 * 0 found, -ENOENT none, -EINVAL one lives there but is not a typed data
 * pointer (an integer, a void *).
 */
static int var_in_reg(const struct func *f, uint64_t pc, int reg, int64_t disp,
		      struct reg_type *out)
{
	const struct var_loc *best = NULL;
	bool untyped = false;
	int best_score = -1;
	size_t i;

	for (i = 0; i < f->nr_locs; i++) {
		const struct var_loc *v = &f->locs[i];
		int score;

		if (v->reg != reg || pc < v->lo || pc >= v->hi)
			continue;
		if (!pointee(v->type)) {
			untyped = true;
			continue;
		}
		score = var_score(v, disp);
		if (score > best_score) {
			best = v;
			best_score = score;
		}
	}
	if (!best)
		return untyped ? -EINVAL : -ENOENT;
	best = outermost(f, pc, reg, disp, best);
	*out = (struct reg_type){ .type = pointee(best->type),
				  .offset = -best->off,
				  .var = best->name };
	return 0;
}

static int global_at(struct attrib *a, uint64_t addr, struct reg_type *out)
{
	const struct global_var *g = attrib_globals_find(a, addr);

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
	const struct type_member *found = NULL, *m = NULL;

	while ((m = type_member_at(s, off, m, 0))) {
		if (m->bit_size)
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

/* The CFA at one pc, looked up once for all the slots of a query. */
struct cfa_cache {
	bool looked, have;
	int reg;
	int64_t off;
};

/* Where slot s lives at pc: reg + *off; false when its frame base is unknown. */
static bool slot_address(struct attrib *a, const struct func *f, const struct var_loc *s,
			 uint64_t pc, struct cfa_cache *cfa, int *reg, int64_t *off)
{
	if (s->reg != REG_FRAME_BASE) {
		*reg = s->reg;
		*off = s->off;
		return true;
	}
	if (f->frame_base.kind == FRAME_BASE_REG) {
		*reg = f->frame_base.reg;
		*off = f->frame_base.off + s->off;
		return true;
	}
	if (f->frame_base.kind != FRAME_BASE_CFA)
		return false;
	if (!cfa->looked) {
		cfa->looked = true;
		cfa->have = attrib_cfa_at(a, pc, &cfa->reg, &cfa->off) == 0;
	}
	*reg = cfa->reg;
	*off = cfa->off + s->off;
	return cfa->have;
}

/*
 * The variable whose stack slot holds the bytes at base + disp before
 * instruction k (the innermost scope wins), as the object base points into.
 */
static int slot_var(struct attrib *a, struct func *f, size_t k, int base, int64_t disp,
		    struct reg_type *out)
{
	const struct var_loc *best = NULL;
	struct cfa_cache cfa = { 0 };
	uint64_t pc = f->insns[k].pc;
	int64_t start = 0, off;
	size_t i;
	int reg;

	for (i = 0; i < f->nr_slots; i++) {
		const struct var_loc *v = &f->slots[i];

		if (pc < v->lo || pc >= v->hi || !v->type ||
		    !slot_address(a, f, v, pc, &cfa, &reg, &off) || reg != base || disp < off ||
		    (uint64_t)(disp - off) >= type_size(v->type))
			continue;
		if (!best || v->depth > best->depth) {
			best = v;
			start = off;
		}
	}
	if (!best)
		return -ENOENT;
	*out = (struct reg_type){ .type = best->type, .offset = -start, .var = best->name };
	return 0;
}

/* What the load at k reads from: the register's object, or a stack slot's variable. */
static int load_object(struct attrib *a, struct func *f, size_t k, struct reg_type *obj, bool *slot,
		       int depth)
{
	const struct insn *in = &f->insns[k];
	int ret;

	if (in->pc_relative)
		return global_at(a, in->disp, obj);
	if (in->index == REG_NONE && !slot_var(a, f, k, in->base, in->disp, obj) &&
	    pointee(type_at(obj->type, obj->offset + in->disp))) {
		obj->offset += in->disp;
		*slot = true;
		return 0;
	}
	ret = attrib_track_reg(a, f, k, in->base, in->disp, obj, depth + 1);
	if (!ret)
		obj->offset += in->disp;
	return ret;
}

/* The type loaded by a load from a typed object's member. */
static int load_type(struct attrib *a, struct func *f, size_t k, struct reg_type *out, int depth)
{
	const struct insn *in = &f->insns[k];
	struct reg_type obj;
	bool slot = false;
	int ret;

	ret = load_object(a, f, k, &obj, &slot, depth);
	if (ret)
		return ret;
	if (obj.offset < 0)
		return -ENOENT;
	if (in->index != REG_NONE || obj.index_scale) {
		/* p[i] of a T *p: any element; arrays inside T are walked by type_at. */
		uint64_t size = type_size(obj.type), stride = obj.index_scale;
		int64_t bias = 0;

		if (in->index != REG_NONE)
			stride = in->scale * attrib_track_index_stride(f, k, in->index, &bias);
		obj.offset += (int64_t)in->scale * bias;
		if (obj.offset < 0)
			return -ENOENT;

		if (size && stride % size == 0)
			obj.offset %= size;
	}
	*out = (struct reg_type){ .type = pointee(type_at(obj.type, obj.offset)) };
	/* A pointer variable reloaded whole from its slot still names what it points to. */
	if (slot && !obj.offset && stripped_kind(obj.type) == TYPE_POINTER)
		out->var = obj.var;
	return out->type ? 0 : -EINVAL;
}

/*
 * What a direct call leaves in the return register (rax, x0): its callee's
 * declared return type, when that is a typed data pointer. A clone keeps
 * the declared type (gcc changes arguments, and drops a return value
 * nobody uses, but never returns something else in its place).
 */
static int returned(struct attrib *a, const struct insn *in, int reg, struct reg_type *out)
{
	struct func *g = in->target && reg == 0 ? attrib_func_get(a, in->target) : NULL;

	if (!g || g->lo != in->target)
		return -ENOENT;
	if (!pointee(g->ret_type))
		return g->ret_type ? -EINVAL : -ENOENT;
	*out = (struct reg_type){ .type = pointee(g->ret_type) };
	return 0;
}

/* What instruction k, which writes reg, leaves in it (to be used at disp). */
static int def_type(struct attrib *a, struct func *f, size_t k, int reg, int64_t disp,
		    struct reg_type *out, int depth)
{
	const struct insn *in = &f->insns[k];
	int ret;

	if (in->op == INSN_CALL)
		return returned(a, in, reg, out);
	if (in->dst != reg)
		return -ENOENT;
	switch (in->op) {
	case INSN_MOV_REG:
		return attrib_track_reg(a, f, k, in->src, disp, out, depth + 1);
	case INSN_ADD_IMM:
		ret = attrib_track_reg(a, f, k, reg, disp + in->disp, out, depth + 1);
		if (!ret)
			out->offset += in->disp;
		return ret;
	case INSN_LEA:
		if (in->pc_relative)
			return global_at(a, in->disp, out);
		ret = attrib_track_reg(a, f, k, in->base, disp + in->disp, out, depth + 1);
		if (!ret)
			out->offset += in->disp;
		if (!ret && in->index != REG_NONE) {
			/* &p->arr[i]: somewhere in p, at a multiple of the stride. */
			int64_t bias;
			uint64_t scale =
				in->scale * attrib_track_index_stride(f, k, in->index, &bias);

			out->offset += (int64_t)in->scale * bias;

			out->index_scale = out->index_scale ? gcd_u64(out->index_scale, scale) :
							      scale;
		}
		return ret;
	case INSN_LOAD:
		return load_type(a, f, k, out, depth);
	}
	return -ENOENT;
}

/* At the function's entry: the parameter the ABI passes in reg. */
static int entry_arg(const struct func *f, int reg, int64_t disp, struct reg_type *out)
{
	size_t i;

	for (i = 0; i < f->nr_args; i++) {
		if (f->args[i].reg != reg)
			continue;
		if (!pointee(f->args[i].type))
			return -EINVAL;
		*out = (struct reg_type){ .type = pointee(f->args[i].type),
					  .var = f->args[i].name };
		return 0;
	}
	return -ENOENT;
}

static bool same_object(const struct reg_type *x, const struct reg_type *y)
{
	return x->type == y->type && x->offset == y->offset && x->global == y->global;
}

/*
 * One more path's value of a register where paths meet: all must point at
 * the same object (-ENOENT if not); the variable's name stays if all agree.
 */
static int agree(struct reg_type *first, bool *have, const struct reg_type *got)
{
	if (!*have) {
		*first = *got;
		*have = true;
		return 0;
	}
	if (!same_object(first, got))
		return -ENOENT;
	if (first->var != got->var)
		first->var = NULL;
	return 0;
}

/*
 * At a static function's entry: what every direct caller passes in reg
 * (they must agree on the object; there must be at least one).
 */
static int callers_arg(struct attrib *a, struct func *f, int reg, int64_t disp,
		       struct reg_type *out, int depth)
{
	struct reg_type got, first = { 0 };
	bool have = false;
	size_t i;

	attrib_func_callers(a, f);
	for (i = 0; i < f->nr_callers; i++) {
		struct func *g = f->callers[i].func;
		unsigned int saved = g->budget;
		int ret;

		/* one budget for the query, whichever function spends it */
		g->budget = f->budget;
		ret = attrib_track_reg(a, g, f->callers[i].insn, reg, disp, &got, depth + 1);
		f->budget = g->budget;
		g->budget = saved;
		if (ret || (ret = agree(&first, &have, &got)))
			return ret;
	}
	if (!have)
		return -ENOENT;
	*out = first;
	return 0;
}

/*
 * reg at the function's entry: for a static function what its callers
 * pass, when they agree (the signature may not be the declared one), else
 * the parameter the ABI passes there.
 */
static int entry_value(struct attrib *a, struct func *f, int reg, int64_t disp,
		       struct reg_type *out, int depth)
{
	int ret;

	if (f->local) {
		ret = callers_arg(a, f, reg, disp, out, depth);
		if (!ret || !f->nr_args)
			return ret;
	}
	return entry_arg(f, reg, disp, out);
}

/* The value of reg as instruction p hands it on (p executed). */
static int value_after(struct attrib *a, struct func *f, size_t p, int reg, int64_t disp,
		       struct reg_type *out, int depth)
{
	if (attrib_insn_writes(a, f, p) & (1ULL << reg))
		return def_type(a, f, p, reg, disp, out, depth);
	return attrib_track_reg(a, f, p, reg, disp, out, depth + 1);
}

/*
 * A loop back edge from p to leader j: the register may only step by a
 * constant inside the loop (a pointer walking an array). Returns the step
 * (0: the loop leaves it alone), or -1 when anything else writes it.
 */
static int64_t loop_step(const struct func *f, size_t j, size_t p, int reg)
{
	int64_t step = 0;
	size_t k;

	for (k = j; k <= p; k++) {
		const struct insn *in = &f->insns[k];

		if (!(in->writes & (1ULL << reg)))
			continue;
		if (in->op != INSN_ADD_IMM || in->dst != reg)
			return -1;
		step += in->disp;
	}
	return step < 0 ? -step : step;
}

/*
 * Whether p, falling through into the next block, is reachable code: not
 * the nop padding after an unconditional jump or a return.
 */
static bool falls_from_code(const struct func *f, size_t p, bool falls)
{
	while (falls && f->insns[p].nop && p > 0) {
		const struct insn *in = &f->insns[--p];

		if (in->op == INSN_RET || (in->op == INSN_JUMP && in->unconditional))
			return false;
	}
	return true;
}

/*
 * The value of reg at block leader j from all its predecessors: they must
 * agree; a loop's back edge may only step the pointer (index unknown then).
 */
static int merge_preds(struct attrib *a, struct func *f, size_t j, int reg, int64_t disp,
		       struct reg_type *out, int depth)
{
	struct reg_type got, first = { 0 };
	uint64_t pc = f->insns[j].pc, step = 0;
	bool have = false;
	size_t p;
	int ret;

	if (f->indirect_jumps || depth > 10)
		return -ENOENT;
	for (p = 0; p < f->nr_insns; p++) {
		const struct insn *in = &f->insns[p];
		bool falls = p + 1 == j && !(in->op == INSN_JUMP && in->unconditional) &&
			     in->op != INSN_RET;

		if (!falls && !(in->op == INSN_JUMP && in->target == pc))
			continue;
		if (!falls_from_code(f, p, falls))
			continue;
		if (p >= j) {
			int64_t s = loop_step(f, j, p, reg);

			/*
			 * Set anew inside the loop (gcc -O2 loads a call's
			 * argument at the end of the body, for the next round):
			 * the back edge's own value, as for any predecessor.
			 */
			if (s >= 0) {
				step = step ? gcd_u64(step, s) : (uint64_t)s;
				continue;
			}
		}
		ret = value_after(a, f, p, reg, disp, &got, depth + 1);
		if (ret || (ret = agree(&first, &have, &got)))
			return ret;
	}
	if (!have)
		return -ENOENT;
	*out = first;
	if (step)
		out->index_scale = out->index_scale ? gcd_u64(out->index_scale, step) : step;
	return 0;
}

/* What set reg before instruction j, ignoring the variables living in it at j. */
static int track_def(struct attrib *a, struct func *f, size_t j, int reg, int64_t disp,
		     struct reg_type *out, int depth)
{
	if (j == 0)
		return entry_value(a, f, reg, disp, out, depth);
	if (f->insns[j].leader)
		return merge_preds(a, f, j, reg, disp, out, depth);
	if (attrib_insn_writes(a, f, j - 1) & (1ULL << reg))
		return def_type(a, f, j - 1, reg, disp, out, depth);
	return attrib_track_reg(a, f, j - 1, reg, disp, out, depth + 1);
}

/*
 * A variable that points inside an object (v = &tg->load_avg, an inlined
 * helper's parameter: reg + 256): when what set reg is typed as the whole
 * object, that names the access better.
 */
static void prefer_whole(struct attrib *a, struct func *f, size_t j, int reg, int64_t disp,
			 struct reg_type *out, int depth)
{
	struct reg_type whole;
	uint64_t wsize, psize = type_size(out->type);

	if (!out->offset || out->global || track_def(a, f, j, reg, disp, &whole, depth + 1))
		return;
	wsize = type_size(whole.type);
	/* the part starts at reg - out->offset, the whole at reg - whole.offset */
	if (!whole.global && wsize > psize && whole.offset >= out->offset &&
	    -whole.offset + (int64_t)wsize >= -out->offset + (int64_t)psize)
		*out = whole;
}

int attrib_track_reg(struct attrib *a, struct func *f, size_t i, int reg, int64_t disp,
		     struct reg_type *out, int depth)
{
	size_t j;
	int ret;

	if (depth > 16 || reg < 0 || reg >= NR_DWARF_REGS || ++f->budget > 4096)
		return -ENOENT;
	for (j = i;; j--) {
		ret = var_in_reg(f, f->insns[j].pc, reg, disp, out);
		if (!ret)
			prefer_whole(a, f, j, reg, disp, out, depth);
		if (ret != -ENOENT)
			return ret;
		if (j == 0 || f->insns[j].leader ||
		    (attrib_insn_writes(a, f, j - 1) & (1ULL << reg)))
			return track_def(a, f, j, reg, disp, out, depth);
	}
}

uint64_t attrib_track_index_stride(const struct func *f, size_t i, int reg, int64_t *bias)
{
	uint64_t stride = 1;
	int64_t b = 0;
	size_t j;

	/* index = stride * (the earliest value reached) + b */
	for (j = i; j > 0 && !f->insns[j].leader && reg >= 0 && reg < NR_DWARF_REGS; j--) {
		const struct insn *prev = &f->insns[j - 1];

		if (!(prev->writes & (1ULL << reg)))
			continue;
		if (prev->dst != reg || stride > (1ULL << 32))
			break;
		if (prev->op == INSN_ADD_IMM && prev->disp > -(1LL << 32) &&
		    prev->disp < (1LL << 32)) {
			/* (i & 3) + 8: a member array's start folded into the index */
			b += (int64_t)stride * prev->disp;
			continue;
		}
		if (prev->op == INSN_LEA && prev->base != REG_NONE && prev->index == REG_NONE &&
		    !prev->pc_relative && prev->disp > -(1LL << 32) && prev->disp < (1LL << 32)) {
			/* lea 0x8(%rax),%rcx: the same, into another register */
			b += (int64_t)stride * prev->disp;
			reg = prev->base;
			continue;
		}
		if (prev->op != INSN_SCALE_IMM)
			break;
		stride *= prev->disp;
		reg = prev->src;
	}
	/*
	 * Only a bias forward counts: index 0 of a[i - 1] is before the array,
	 * and its walk would leave it; of w->bins[i] folded into (i + 8) * 4, it
	 * is where the array starts.
	 */
	if (bias)
		*bias = b > 0 ? b : 0;
	return stride;
}
