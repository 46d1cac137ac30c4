// SPDX-License-Identifier: GPL-2.0
/*
 * The other direction: from a variable's name to its address and type
 * (watch -e var.field), and from an address after an instruction to the
 * instruction and how it used memory (a breakpoint traps after the access).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "attrib/attrib_int.h"
#include "util/similar.h"

const struct global_var *attrib_globals_find_name(const struct attrib *a, const char *name)
{
	size_t i;

	for (i = 0; i < a->nr_globals; i++)
		if (a->globals[i].name && !strcmp(a->globals[i].name, name))
			return &a->globals[i];
	return NULL;
}

int attrib_find_global(const struct attrib *a, const char *name, struct attrib_global *out)
{
	const struct global_var *g = attrib_globals_find_name(a, name);

	if (!g)
		return -ENOENT;
	*out = (struct attrib_global){
		.name = g->name, .addr = g->addr, .size = g->size, .type = g->type
	};
	return 0;
}

const char *attrib_suggest_global(const struct attrib *a, const char *name)
{
	struct similar s;
	size_t i;

	similar_init(&s, name);
	for (i = 0; i < a->nr_globals; i++)
		if (a->globals[i].name && similar_offer(&s, a->globals[i].name))
			break;
	return similar_done(&s);
}

static enum attrib_access access_of(const struct insn *in)
{
	if (!in->mem_access)
		return ATTRIB_ACCESS_NONE;
	switch (in->mem_rw) {
	case INSN_MEM_READ:
		return ATTRIB_ACCESS_READ;
	case INSN_MEM_WRITE:
		return ATTRIB_ACCESS_WRITE;
	case INSN_MEM_READ | INSN_MEM_WRITE:
		return ATTRIB_ACCESS_RMW;
	default:
		return ATTRIB_ACCESS_NONE;
	}
}

/* Without a function to decode from its start: the shortest memory access ending there. */
static int insn_before_guess(struct attrib *a, uint64_t pc_after, uint64_t *pc,
			     enum attrib_access *access)
{
	size_t k, avail;

	for (k = 1; k <= 15 && k <= pc_after; k++) {
		const uint8_t *code = attrib_image_code(&a->img, pc_after - k, &avail);
		struct insn in;

		if (!code || !a->dec)
			continue;
		if (attrib_decoder_decode(a->dec, code, avail, pc_after - k, &in) != k ||
		    !in.mem_access)
			continue;
		*pc = pc_after - k;
		*access = access_of(&in);
		return 0;
	}
	return -ENOENT;
}

int attrib_insn_before(struct attrib *a, uint64_t pc_after, uint64_t *pc,
		       enum attrib_access *access)
{
	struct func *f = pc_after ? attrib_func_get(a, pc_after - 1) : NULL;
	size_t i;

	if (!f || !f->nr_insns)
		return insn_before_guess(a, pc_after, pc, access);
	for (i = 0; i < f->nr_insns; i++) {
		const struct insn *in = &f->insns[i];

		if (in->pc + in->len != pc_after)
			continue;
		*pc = in->pc;
		*access = access_of(in);
		return 0;
	}
	return insn_before_guess(a, pc_after, pc, access);
}

const char *attrib_access_name(enum attrib_access access)
{
	static const char *const names[] = { "none", "read", "write", "rmw" };

	return access <= ATTRIB_ACCESS_RMW ? names[access] : "none";
}
