// SPDX-License-Identifier: GPL-2.0
/*
 * Naming a heap address through its block: the block table travels in the
 * perf.data (record --sim); the allocating stack's frames resolve through
 * the session's address spaces and symbols like any code address.
 */
#include "c2c/c2c_heap.h"

#include <inttypes.h>
#include <string.h>

#include "heap/heap.h"
#include "symbols/resolve.h"

/*
 * The frame to name the site by: the innermost one in an object with
 * debug info (a block that strdup or fopen allocated is named by the
 * program's call of them), else the innermost one.
 */
static void name_site(struct c2c_session *s, const struct heap_block *b, uint32_t pid,
		      c2c_heap_open_fn open, void *ctx,
		      const char *(*intern)(void *ctx, const char *s), struct c2c_heap_ref *out)
{
	const struct as_map *first = NULL, *map = NULL;
	struct attrib *a = NULL;
	uint64_t bias = 0, frame = 0;
	const struct sym_info *si;
	struct attrib_alloc_site site;
	size_t i;

	for (i = 0; i < b->nr_frames && !a; i++) {
		map = addr_spaces_find(s->spaces, pid, AS_CPUMODE_USER, b->frames[i]);
		if (!map)
			continue;
		if (!first) {
			first = map;
			frame = b->frames[i];
		}
		a = open(ctx, map, &bias);
		if (a)
			frame = b->frames[i];
	}
	if (a)
		first = addr_spaces_find(s->spaces, pid, AS_CPUMODE_USER, frame);
	if (!first)
		return;
	si = sym_resolve(s->symbols, first, frame);
	out->func = si->symbol ? intern(ctx, si->symbol) : NULL;
	out->srcline = si->srcline && strchr(si->srcline, ':') ? intern(ctx, si->srcline) : NULL;
	/* the frame lies inside the call instruction: its end is the return address */
	if (!a || attrib_alloc_site(a, frame + 1 - bias, &site))
		return;
	out->type = site.type;
	out->type_name = site.type_name ? intern(ctx, site.type_name) : NULL;
	out->var = site.var ? intern(ctx, site.var) : NULL;
}

static void name_element(struct c2c_heap_ref *h, const char *(*intern)(void *ctx, const char *s),
			 void *ctx)
{
	struct strbuf sb = STRBUF_INIT;

	h->element = h->offset / h->type->size;
	h->elem_offset = h->offset % h->type->size;
	h->field = "";
	if (!attrib_field_path(h->type, h->elem_offset, &sb))
		h->field = intern(ctx, sb.buf);
	strbuf_release(&sb);
}

bool c2c_heap_lookup(struct c2c_session *s, uint64_t addr, uint32_t pid, c2c_heap_open_fn open,
		     void *ctx, const char *(*intern)(void *ctx, const char *s),
		     struct c2c_heap_ref *out)
{
	const struct heap_block *b;

	memset(out, 0, sizeof(*out));
	if (!s->heap)
		return false;
	b = heap_table_find(s->heap, addr, HEAP_ANY_TIME, &out->nr_blocks);
	if (!b)
		return false;
	out->block = b->addr;
	out->size = b->size;
	out->offset = addr - b->addr;
	out->kind = heap_kind_name(b->kind);
	out->mixed = out->nr_blocks > 1 && !heap_table_all_like(s->heap, addr, b);
	out->field = "";
	name_site(s, b, pid, open, ctx, intern, out);
	/* a block smaller than one element, or not a whole number of them, is not that type */
	if (out->type && (out->size < out->type->size || out->size % out->type->size))
		out->type = NULL;
	if (out->type)
		name_element(out, intern, ctx);
	return true;
}

static void type_label(const struct c2c_heap_ref *h, struct strbuf *out)
{
	strbuf_addstr(out, h->var ? h->var : h->type_name ? h->type_name : "(anonymous)");
	if (h->size > h->type->size)
		strbuf_addf(out, "[%" PRIu64 "]", h->element);
	if (*h->field)
		strbuf_addf(out, "%s%s", h->var && h->size == h->type->size ? "->" : ".", h->field);
	else if (h->elem_offset)
		strbuf_addf(out, "+0x%" PRIx64, h->elem_offset);
}

static void site_label(const struct c2c_heap_ref *h, struct strbuf *out)
{
	strbuf_addf(out, "heap block of %" PRIu64 " bytes", h->size);
	if (h->func)
		strbuf_addf(out, " from %s", h->func);
	if (h->srcline)
		strbuf_addf(out, " (%s)", h->srcline);
	strbuf_addf(out, ", +0x%" PRIx64, h->offset);
}

void c2c_heap_label(const struct c2c_heap_ref *h, struct strbuf *out)
{
	if (h->type)
		type_label(h, out);
	else
		site_label(h, out);
	if (h->mixed)
		strbuf_addf(out, " (last of %zu blocks here)", h->nr_blocks);
}
