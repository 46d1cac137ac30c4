// SPDX-License-Identifier: GPL-2.0
/* One query: the data address against the globals, else the instruction at pc. */
#include <errno.h>
#include <stdlib.h>

#include "attrib/attrib_int.h"
#include "util/xalloc.h"

static struct attrib_result *result_new(enum attrib_reason reason)
{
	struct attrib_result *r = xcalloc(1, sizeof(*r));

	r->reason = reason;
	r->field = "";
	r->path = "";
	return r;
}

/* Where a field walk of an indexed access starts: "p[]", "p[1]", "p->". */
static void pointer_prefix(struct strbuf *sb, struct field_walk *w, const struct type *t,
			   int64_t *off, const char *var)
{
	uint64_t size = type_size(t);

	/*
	 * An index (or a loop step) that is a multiple of the size: some
	 * element of an array of T, the offset inside it is what counts.
	 * Without one, past the end of the pointee stays outside: "p[1].x" is
	 * as likely a container_of the debug info lost as a walk in an array.
	 */
	if (w->index_scale && size && w->index_scale % size == 0 &&
	    stripped_kind(t) != TYPE_ARRAY) {
		strbuf_addstr(sb, "[]");
		w->index_scale = 0;
		*off = (*off % (int64_t)size + (int64_t)size) % (int64_t)size;
	} else if (var && type_is_aggregate(t)) {
		strbuf_addstr(sb, "->");
	}
}

/*
 * Through a pointer to a scalar (char *, long *): pointer arithmetic, so any
 * offset is an element: "*p", "p[-1]", "p[2]", "p[]" (index register).
 */
static void scalar_element(struct attrib *a, struct attrib_result *r, const struct type *t,
			   int64_t off, const char *var, const struct field_walk *w)
{
	int64_t size = (int64_t)type_size(t), idx = off / size, rem;
	struct strbuf sb = STRBUF_INIT;

	if (off % size < 0)
		idx--;
	rem = off - idx * size;
	if (w->index_scale && w->index_scale % size == 0)
		strbuf_addf(&sb, "%s[]", var ? var : "");
	else if (!idx)
		strbuf_addf(&sb, "*%s", var ? var : "");
	else
		strbuf_addf(&sb, "%s[%lld]", var ? var : "", (long long)idx);
	if (rem)
		strbuf_addf(&sb, "+%lld", (long long)rem);
	r->reason = ATTRIB_OK;
	r->offset = rem;
	r->path = attrib_image_intern(&a->img, sb.buf);
	strbuf_release(&sb);
}

/* The container's tag, or the typedef that names the anonymous one at t. */
static const char *type_name_of(const struct type *container, const struct type *t)
{
	int depth;

	if (!container || type_aggregate_name(container))
		return type_aggregate_name(container);
	for (depth = 0; t && depth < 16; depth++, t = t->target) {
		if (t->kind == TYPE_TYPEDEF && type_strip(t) == container)
			return t->name;
		if (t->kind == TYPE_ARRAY) /* "foo_t arr[4]": the element's typedef */
			continue;
		if (t->kind != TYPE_TYPEDEF && t->kind != TYPE_CONST && t->kind != TYPE_VOLATILE &&
		    t->kind != TYPE_RESTRICT && t->kind != TYPE_ATOMIC)
			break;
	}
	return NULL;
}

/* The outermost struct holding the access: arrays reduced to one element. */
static void set_outer(struct attrib_result *r, const struct type *t, uint64_t off)
{
	const struct type *s = type_strip(t);
	int depth;

	for (depth = 0; s && s->kind == TYPE_ARRAY && depth < 8; depth++) {
		uint64_t size = type_size(s->target);

		if (!size)
			return;
		off %= size;
		t = s->target;
		s = type_strip(t);
	}
	if (!s || !type_is_aggregate(s) || off >= s->size)
		return;
	r->outer_type = s;
	r->outer_offset = off;
	r->outer_name = type_name_of(s, t);
}

/*
 * Name the field at off inside an object of type t. var names the object
 * (a global) or a pointer to it (pointer = true); in is the instruction, when
 * known, for the access size and index register.
 */
static void walk_object(struct attrib *a, struct attrib_result *r, const struct type *t,
			int64_t off, const char *var, bool pointer, const struct insn *in,
			uint64_t index_stride, uint64_t known_modulo)
{
	struct strbuf sb = STRBUF_INIT;
	struct field_walk w = { .sb = &sb };
	int ret;

	r->kind = pointer ? ATTRIB_KIND_POINTER : ATTRIB_KIND_GLOBAL;
	r->var = var;
	if (in) {
		w.access_size = in->mem_size;
		w.access_bits = in->bits;
		w.index_scale = in->index != REG_NONE ? in->scale * index_stride : 0;
	}
	if (known_modulo)
		w.index_scale = w.index_scale ? gcd_u64(w.index_scale, known_modulo) : known_modulo;
	if (pointer && !type_is_aggregate(t) && stripped_kind(t) != TYPE_ARRAY && type_size(t)) {
		scalar_element(a, r, t, off, var, &w);
		return;
	}
	if (var)
		strbuf_addstr(&sb, var);
	if (pointer)
		pointer_prefix(&sb, &w, t, &off, var);
	if (off < 0) {
		r->reason = ATTRIB_OUTSIDE_TYPE;
		goto out;
	}
	set_outer(r, t, (uint64_t)off);
	ret = attrib_field_walk(&w, t, off);
	r->reason = !ret	   ? ATTRIB_OK :
		    ret == -ENOENT ? ATTRIB_UNKNOWN_INDEX :
		    ret == -EDOM   ? ATTRIB_BITFIELDS :
				     ATTRIB_OUTSIDE_TYPE;
	r->type = w.container;
	r->offset = w.container ? w.container_offset : (uint64_t)off;
	r->path = attrib_image_intern(&a->img, sb.buf);
	r->field = r->path + (w.field_pos <= sb.len ? w.field_pos : sb.len);
	if (ret && r->type == NULL)
		r->type = type_is_aggregate(t) ? type_strip(t) : NULL;
	r->type_name = type_name_of(r->type, t);
out:
	if (r->reason != ATTRIB_OK && var)
		r->path = attrib_image_intern(&a->img, sb.buf);
	strbuf_release(&sb);
}

static enum attrib_reason track_error(int ret)
{
	return ret == -EINVAL ? ATTRIB_NO_TYPE : ATTRIB_NO_VARIABLE;
}

static bool sets_frame_pointer(const struct attrib *a, const struct func *f)
{
	size_t i;

	for (i = 0; i < f->nr_insns && i < 16; i++)
		if (f->insns[i].op == INSN_MOV_REG &&
		    f->insns[i].dst == attrib_decoder_fp(a->dec) &&
		    f->insns[i].src == attrib_decoder_sp(a->dec))
			return true;
	return false;
}

/* An access to a fixed address (rip-relative or absolute). */
static void resolve_fixed(struct attrib *a, struct attrib_result *r, const struct insn *in)
{
	const struct global_var *g = attrib_globals_find(a, (uint64_t)in->disp);

	if (!g) {
		r->reason = ATTRIB_NO_VARIABLE;
	} else if (!g->type) {
		r->reason = ATTRIB_NO_TYPE;
		r->var = g->name;
	} else {
		walk_object(a, r, g->type, in->disp - g->addr, g->name, false, in, 1, 0);
	}
}

/*
 * A kernel's this_cpu access: %gs: plus the per-cpu variable's link
 * address, which lies in .data..percpu (at 0 in a vmlinux). Other segment
 * accesses (a thread's %fs: TLS, %gs: through a register) stay unnamed.
 */
static bool percpu_fixed(const struct attrib *a, const struct insn *in)
{
	return in->segment && in->index == REG_NONE && (in->pc_relative || in->base == REG_NONE) &&
	       attrib_image_section_holds(&a->img, ".data..percpu", (uint64_t)in->disp);
}

/*
 * What the memory operand's base register points to. With a scale of 1 the
 * encoding does not say which register is the pointer: try the index too
 * ("[rdi + rax]" with rax = &args, rdi = i * 16), swapping them in *op.
 */
static int track_base(struct attrib *a, struct func *f, size_t i, struct insn *op,
		      struct reg_type *rt)
{
	int ret, reg;

	f->budget = 0;
	ret = op->base == REG_NONE ? -ENOENT : attrib_track_reg(a, f, i, op->base, op->disp, rt, 0);
	if (!ret || op->scale != 1 || op->index == REG_NONE)
		return ret;
	f->budget = 0;
	if (attrib_track_reg(a, f, i, op->index, op->disp, rt, 0))
		return ret;
	reg = op->base;
	op->base = op->index;
	op->index = reg;
	return 0;
}

static struct attrib_result *resolve_pc(struct attrib *a, uint64_t pc)
{
	struct func *f = attrib_func_get(a, pc);
	struct attrib_result *r;
	const struct insn *in;
	struct reg_type rt;
	uint64_t stride = 1;
	int64_t bias = 0;
	struct insn op;
	ptrdiff_t i;
	int ret;

	if (!f)
		return result_new(ATTRIB_NO_SYMBOL);
	if (!a->dec)
		return result_new(ATTRIB_NO_INSN);
	i = attrib_func_insn_index(f, pc);
	if (i < 0)
		return result_new(ATTRIB_NO_INSN);
	in = &f->insns[i];
	if (!in->mem_access)
		return result_new(ATTRIB_NO_MEM_OPERAND);
	if (in->segment && !percpu_fixed(a, in))
		return result_new(ATTRIB_SEGMENT);
	r = result_new(ATTRIB_OK);
	if (in->pc_relative || (in->base == REG_NONE && in->index == REG_NONE)) {
		resolve_fixed(a, r, in);
		return r;
	}
	if (in->base == attrib_decoder_sp(a->dec)) {
		r->reason = ATTRIB_STACK;
		return r;
	}
	op = *in;
	ret = track_base(a, f, i, &op, &rt);
	if (ret) {
		r->reason = track_error(ret);
		if (ret == -ENOENT && in->base == attrib_decoder_fp(a->dec) &&
		    sets_frame_pointer(a, f))
			r->reason = ATTRIB_STACK;
		return r;
	}
	if (op.index != REG_NONE)
		stride = attrib_track_index_stride(f, i, op.index, &bias);
	walk_object(a, r, rt.type, rt.offset + op.disp + (int64_t)op.scale * bias, rt.var,
		    !rt.global, &op, stride, rt.index_scale);
	return r;
}

static struct attrib_result *resolve_global(struct attrib *a, const struct global_var *g,
					    uint64_t addr)
{
	struct attrib_result *r = result_new(ATTRIB_OK);

	if (g->type) {
		walk_object(a, r, g->type, addr - g->addr, g->name, false, NULL, 1, 0);
		return r;
	}
	r->reason = ATTRIB_NO_TYPE;
	r->kind = ATTRIB_KIND_GLOBAL;
	r->var = g->name;
	return r;
}

static const struct attrib_result *lookup(struct attrib *a, uint64_t pc, uint64_t addr)
{
	const struct global_var *g = addr ? attrib_globals_find(a, addr) : NULL;
	struct attrib_result *r;

	if (g) {
		r = hashmap_get(&a->by_addr, addr);
		if (!r) {
			r = resolve_global(a, g, addr);
			hashmap_put(&a->by_addr, addr, r);
		}
		return r;
	}
	r = hashmap_get(&a->by_pc, pc);
	if (!r) {
		r = pc ? resolve_pc(a, pc) : result_new(ATTRIB_NO_SYMBOL);
		hashmap_put(&a->by_pc, pc, r);
	}
	return r;
}

const struct attrib_result *attrib_resolve(struct attrib *a, uint64_t pc, uint64_t addr)
{
	const struct attrib_result *r;

	if (a->last && a->last_pc == pc && a->last_addr == addr) {
		r = a->last;
	} else {
		r = lookup(a, pc, addr);
		a->last = r;
		a->last_pc = pc;
		a->last_addr = addr;
	}
	a->stats[r->reason]++;
	return r;
}
