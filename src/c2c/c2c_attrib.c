// SPDX-License-Identifier: GPL-2.0
/*
 * Attributing a c2c session's rows: one struct attrib per object file
 * (cached by the mapping's file identity and by path), runtime addresses
 * made binary-relative through the mapping's load bias, one query per row.
 */
#include "c2c/c2c_attrib.h"
#include "c2c/c2c_kernel.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "heap/heap.h"
#include "util/hashmap.h"
#include "util/strpool.h"
#include "util/xalloc.h"

struct object {
	struct attrib *a; /* NULL: not found or no DWARF */
};

struct c2c_attrib {
	/* rows with more than a reason; the rest only in row->attrib_ref */
	struct c2c_row_attrib *all;
	size_t nr_all, alloc_all;
	struct hashmap by_dso; /* dso_id + 1 -> struct object */
	struct hashmap by_path; /* hash(path) -> struct object (shared) */
	struct strpool strings;
	struct hashmap entries; /* hash of an entry -> its index + 1 in all */
	struct object **objects;
	size_t nr_objects, alloc_objects;
	size_t nr_opened;
	struct strbuf missing;
	struct c2c_kernel *kernel; /* the kernel's debug files */
	uint64_t counts[C2C_ATTRIB_NR_REASONS];
	struct c2c_row_attrib reason_only[C2C_ATTRIB_NR_REASONS]; /* nothing but the reason */
	bool any;
	/* heap blocks: the file had them; samples named through one; the refs */
	bool heap_recorded;
	size_t nr_heap_blocks;
	uint64_t heap_named, heap_typed;
	struct heap_entry **heap_refs;
	size_t nr_heap_refs, alloc_heap_refs;
};

static const char *const extra_names[] = {
	[C2C_ATTRIB_UNMAPPED - ATTRIB_NR_REASONS] = "unmapped",
	[C2C_ATTRIB_KERNEL - ATTRIB_NR_REASONS] = "kernel-no-debuginfo",
	[C2C_ATTRIB_NO_DEBUGINFO - ATTRIB_NR_REASONS] = "no-debuginfo",
	[C2C_ATTRIB_KERNEL_NO_SYMBOL - ATTRIB_NR_REASONS] = "kernel-no-symbol",
	[C2C_ATTRIB_KERNEL_NOT_IN_DEBUGINFO - ATTRIB_NR_REASONS] = "kernel-not-in-debuginfo",
	[C2C_ATTRIB_KERNEL_MISMATCH - ATTRIB_NR_REASONS] = "kernel-mismatch",
	[C2C_ATTRIB_KERNEL_UNVERIFIED - ATTRIB_NR_REASONS] = "kernel-unverified",
};

const char *c2c_attrib_reason_name(int reason)
{
	if (reason >= 0 && reason < ATTRIB_NR_REASONS)
		return attrib_reason_name((enum attrib_reason)reason);
	if (reason >= ATTRIB_NR_REASONS && reason < C2C_ATTRIB_NR_REASONS)
		return extra_names[reason - ATTRIB_NR_REASONS];
	return "?";
}

static const char *intern(struct c2c_attrib *ca, const char *s)
{
	return strpool_intern(&ca->strings, s);
}

static struct object *object_new(struct c2c_attrib *ca)
{
	struct object *o = xcalloc(1, sizeof(*o));

	ca->objects = xgrow(ca->objects, &ca->alloc_objects, ca->nr_objects + 1, sizeof(*o));
	ca->objects[ca->nr_objects++] = o;
	return o;
}

/* The object of map m: opened once per file, NULL attrib when not found. */
static struct object *object_of(struct c2c_attrib *ca, struct c2c_session *s,
				const struct as_map *m)
{
	struct object *o = hashmap_get(&ca->by_dso, (uint64_t)m->dso_id + 1);
	const char *path;
	struct err_msg err = { 0 };

	if (o)
		return o;
	path = sym_resolver_object_path(s->symbols, m);
	o = path ? hashmap_get(&ca->by_path, hash_str(path)) : NULL;
	if (!o) {
		o = object_new(ca);
		if (path && !attrib_open(path, NULL, &o->a, &err))
			ca->nr_opened++;
		else
			strbuf_addf(&ca->missing, "%s: %s\n", m->filename,
				    path ? err.msg : "object file not found");
		if (path)
			hashmap_put(&ca->by_path, hash_str(path), o);
	}
	hashmap_put(&ca->by_dso, (uint64_t)m->dso_id + 1, o);
	return o;
}

static bool same_object(const struct as_map *a, const struct as_map *b)
{
	return a && b && !a->identity && !b->identity && a->dso_id == b->dso_id;
}

/* "task_group.load_avg" through a pointer; the path for globals. */
static void set_label(struct c2c_attrib *ca, struct c2c_row_attrib *ra)
{
	const struct attrib_result *res = ra->res;
	struct strbuf sb = STRBUF_INIT;

	if (res->outer_type && !attrib_field_path(res->outer_type, res->outer_offset, &sb))
		ra->outer_field = intern(ca, sb.buf);
	strbuf_reset(&sb);
	if (res->kind == ATTRIB_KIND_POINTER && res->outer_name && *ra->outer_field) {
		/*
		 * An index register picked the element ("bins[]"): the outer
		 * offset is only where the array starts, not which one.
		 */
		strbuf_addf(&sb, "%s.%s", res->outer_name,
			    res->type == res->outer_type && strstr(res->field, "[]") ?
				    res->field :
				    ra->outer_field);
		ra->label = intern(ca, sb.buf);
		ra->object = res->outer_name;
	} else {
		ra->label = res->path;
		ra->object = res->kind == ATTRIB_KIND_GLOBAL && res->var ? res->var :
			     res->outer_name				 ? res->outer_name :
			     res->type_name				 ? res->type_name :
									   "";
	}
	strbuf_release(&sb);
}

/* Nothing named: where the data lies, "[heap]+0x40". */
static void set_mapping_label(struct c2c_attrib *ca, struct c2c_row_attrib *ra,
			      const struct c2c_row *r, const struct attrib *a)
{
	const struct as_map *dm = r->line->dmap;
	uint64_t daddr = r->line->addr + r->offset;
	struct strbuf sb = STRBUF_INIT;

	if (!dm || daddr < dm->start || daddr >= dm->end)
		return;
	attrib_format_mapping(&sb, dm->identity || !ra->biased ? NULL : a, dm->filename,
			      daddr - dm->start, daddr - ra->bias);
	ra->label = intern(ca, sb.buf);
	ra->object = dm->short_name;
	strbuf_release(&sb);
}

/*
 * A row named through its heap block; for a typed block also the result
 * that --by-type and profiles read: the instruction's, with the block's
 * element type as the outermost object.
 */
struct heap_entry {
	struct c2c_heap_ref ref;
	struct attrib_result res;
};

struct heap_ctx {
	struct c2c_attrib *ca;
	struct c2c_session *s;
};

static struct attrib *heap_open(void *ctx, const struct as_map *map, uint64_t *bias)
{
	struct heap_ctx *hc = ctx;
	struct object *o = map->identity || map->kernel ? NULL : object_of(hc->ca, hc->s, map);

	if (!o || !o->a || attrib_load_bias(o->a, map->start, map->pgoff, bias))
		return NULL;
	return o->a;
}

static const char *heap_intern(void *ctx, const char *str)
{
	return intern(((struct heap_ctx *)ctx)->ca, str);
}

/* Whether the block should name the row: nothing else did, or only a scalar pointer. */
static bool heap_wanted(const struct c2c_row_attrib *ra)
{
	if (ra->reason != ATTRIB_OK) /* kernel code too: a user heap address is the block's */
		return true;
	return ra->res && ra->res->kind == ATTRIB_KIND_POINTER && !ra->res->outer_type;
}

static const struct attrib_result *heap_result(struct heap_entry *e,
					       const struct attrib_result *insn)
{
	if (insn)
		e->res = *insn;
	else
		e->res.func = NULL;
	e->res.outer_type = e->ref.type;
	e->res.outer_name = e->ref.type_name;
	e->res.outer_offset = e->ref.elem_offset;
	return &e->res;
}

static void heap_name(struct c2c_attrib *ca, struct c2c_session *s, const struct c2c_row *r,
		      struct c2c_row_attrib *ra)
{
	struct heap_ctx hc = { ca, s };
	const struct c2c_line *l = r->line;
	uint32_t pid = l->key.pid >= 0 ? (uint32_t)l->key.pid : r->pid;
	struct c2c_heap_ref h, *keep;
	struct heap_entry *e;
	struct strbuf sb = STRBUF_INIT;

	if (!c2c_heap_lookup(s, l->addr + r->offset, pid, heap_open, &hc, heap_intern, &h))
		return;
	e = xcalloc(1, sizeof(*e));
	e->ref = h;
	keep = &e->ref;
	ca->heap_refs = xgrow(ca->heap_refs, &ca->alloc_heap_refs, ca->nr_heap_refs + 1,
			      sizeof(*ca->heap_refs));
	ca->heap_refs[ca->nr_heap_refs++] = e;
	ra->heap = keep;
	if (keep->type && keep->type_name && *keep->field)
		ra->res = heap_result(e, ra->res);
	c2c_heap_label(keep, &sb);
	ra->label = intern(ca, sb.buf);
	if (keep->type) {
		ra->object = keep->type_name ? keep->type_name : keep->var;
		ra->outer_field = keep->field;
	} else {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "heap block from %s", keep->func ? keep->func : "?");
		ra->object = intern(ca, sb.buf);
	}
	strbuf_release(&sb);
}

static void query(struct c2c_attrib *ca, const struct c2c_row *r, struct attrib *a,
		  struct c2c_row_attrib *ra)
{
	const struct as_map *im = r->imap, *dm = r->line->dmap;
	uint64_t bias, addr = 0, daddr = r->line->addr + r->offset;

	/*
	 * The code mapping's bias holds for every segment; a data mapping's
	 * file offset can be ambiguous (.data shares a page of .rodata).
	 */
	if (attrib_load_bias(a, im->start, im->pgoff, &bias)) {
		ra->reason = C2C_ATTRIB_NO_DEBUGINFO;
		return;
	}
	ra->bias = bias;
	ra->biased = true;
	/* a data address only means something in the code's own object */
	if (same_object(im, dm))
		addr = daddr - bias;
	ra->res = attrib_resolve(a, r->iaddr - bias, addr);
	ra->reason = (int)ra->res->reason;
	if (ra->reason == ATTRIB_OK)
		set_label(ca, ra);
}

/* Kernel code: the same function at the same offset in a kernel debug file. */
static void kernel_query(struct c2c_attrib *ca, struct c2c_session *s, const struct c2c_row *r,
			 struct c2c_row_attrib *ra)
{
	struct attrib *a = NULL;
	uint64_t pc = 0, addr = 0;

	ra->reason = r->imap->kernel ? c2c_kernel_locate(ca->kernel, s, r, &a, &pc, &addr) :
				       C2C_ATTRIB_KERNEL;
	if (ra->reason != ATTRIB_OK)
		return;
	/* the function's runtime place: what annotate needs (runtime = pc + bias) */
	ra->bias = r->iaddr - pc;
	ra->biased = true;
	ra->res = attrib_resolve(a, pc, addr);
	ra->reason = (int)ra->res->reason;
	if (ra->reason == ATTRIB_OK)
		set_label(ca, ra);
}

static void attribute_row(struct c2c_attrib *ca, struct c2c_session *s, const struct c2c_row *r,
			  bool shown, struct c2c_row_attrib *ra)
{
	struct object *o = NULL;

	ra->label = "";
	ra->object = "";
	ra->outer_field = "";
	if (!r->imap)
		ra->reason = C2C_ATTRIB_UNMAPPED;
	else if (r->imap->kernel || r->cpumode == AS_CPUMODE_KERNEL)
		kernel_query(ca, s, r, ra);
	else if (!(o = object_of(ca, s, r->imap))->a)
		ra->reason = C2C_ATTRIB_NO_DEBUGINFO;
	else
		query(ca, r, o->a, ra);
	if (s->heap && shown && heap_wanted(ra))
		heap_name(ca, s, r, ra);
	if (ra->heap) {
		ca->heap_named += r->g.stats.nr_entries;
		ca->heap_typed += ra->heap->type && *ra->heap->field ? r->g.stats.nr_entries : 0;
	}
	if (!*ra->label && shown)
		set_mapping_label(ca, ra, r, o ? o->a : NULL);
	if (*ra->label)
		ca->any = true;
}

/* Whether ra says more than its reason (then it needs an entry of its own). */
static bool has_more(const struct c2c_row_attrib *ra)
{
	return ra->res || ra->biased || *ra->label || *ra->object || *ra->outer_field || ra->heap;
}

static uint64_t entry_hash(const struct c2c_row_attrib *ra)
{
	uint64_t h =
		hash_u64((uintptr_t)ra->res ^ (uint64_t)(uint32_t)ra->reason << 1 ^ ra->biased);

	h = hash_u64(h ^ (uintptr_t)ra->label ^ ra->bias);
	h = hash_u64(h ^ (uintptr_t)ra->heap);
	return hash_u64(h ^ (uintptr_t)ra->object ^ (uintptr_t)ra->outer_field << 3);
}

static bool entry_eq(const struct c2c_row_attrib *a, const struct c2c_row_attrib *b)
{
	return a->res == b->res && a->reason == b->reason && a->label == b->label &&
	       a->object == b->object && a->outer_field == b->outer_field && a->bias == b->bias &&
	       a->biased == b->biased && a->heap == b->heap;
}

/*
 * The entry of ra, 1-based: rows that say the same (the same code, the same
 * global) share one; there are far fewer of them than rows.
 */
static int32_t entry_ref(struct c2c_attrib *ca, const struct c2c_row_attrib *ra)
{
	uint64_t h = entry_hash(ra);
	uintptr_t ref = (uintptr_t)hashmap_get(&ca->entries, h);

	if (ref && entry_eq(&ca->all[ref - 1], ra))
		return (int32_t)ref;
	if (ca->nr_all >= INT32_MAX)
		return 0;
	ca->all = xgrow(ca->all, &ca->alloc_all, ca->nr_all + 1, sizeof(*ca->all));
	ca->all[ca->nr_all++] = *ra;
	if (!ref)
		hashmap_put(&ca->entries, h, (void *)(uintptr_t)ca->nr_all);
	return (int32_t)ca->nr_all;
}

/*
 * Rows are read in the order of the sorted lines, all over memory: fetch
 * ahead the line after next, its row array, then the next line's rows
 * (what attribute_row reads of them: key, imap and counters).
 */
static void prefetch_ahead(const struct c2c_model *m, size_t i)
{
	size_t j;

	if (i + 3 < m->nr_lines)
		__builtin_prefetch(m->lines[i + 3]);
	if (i + 2 < m->nr_lines) {
		const struct c2c_line *l = m->lines[i + 2];

		for (j = 0; j < l->nr_rows; j += 8)
			__builtin_prefetch(&l->rows[j]);
		if (l->nr_rows)
			__builtin_prefetch(&l->rows[l->nr_rows - 1]);
	}
	if (i + 1 < m->nr_lines) {
		const struct c2c_line *l = m->lines[i + 1];

		for (j = 0; j < l->nr_rows; j++) {
			__builtin_prefetch(l->rows[j]);
			__builtin_prefetch(&l->rows[j]->g.stats.nr_entries);
		}
	}
}

/*
 * Most rows (of a large file) get only a reason: that lives in the row;
 * the others share entries (a table and a map entry per row cost
 * thousands of page faults on a large file).
 */
struct c2c_attrib *c2c_attrib_session(struct c2c_session *s)
{
	struct c2c_attrib *ca = xcalloc(1, sizeof(*ca));
	const struct c2c_model *m = s->model;
	size_t i, j;

	hashmap_init(&ca->by_dso);
	hashmap_init(&ca->by_path);
	strpool_init(&ca->strings);
	hashmap_init(&ca->entries);
	strbuf_init(&ca->missing, 0);
	ca->heap_recorded = s->heap != NULL;
	ca->nr_heap_blocks = s->heap ? heap_table_count(s->heap) : 0;
	ca->kernel = c2c_kernel_new(s);
	for (i = 0; i < C2C_ATTRIB_NR_REASONS; i++)
		ca->reason_only[i] = (struct c2c_row_attrib){
			.label = "", .object = "", .outer_field = "", .reason = (int)i
		};
	for (i = 0; i < m->nr_lines; i++) {
		const struct c2c_line *l = m->lines[i];

		prefetch_ahead(m, i);
		for (j = 0; j < l->nr_rows; j++) {
			struct c2c_row *r = l->rows[j];
			struct c2c_row_attrib ra = { 0 };

			/* only shown rows need a mapping to show */
			attribute_row(ca, s, r, l->displayed && r->valid, &ra);
			ca->counts[ra.reason] += r->g.stats.nr_entries;
			r->attrib_ref = has_more(&ra) ? entry_ref(ca, &ra) : 0;
			if (!r->attrib_ref)
				r->attrib_ref = -ra.reason - 1;
		}
	}
	return ca;
}

void c2c_attrib_free(struct c2c_attrib *ca)
{
	size_t i;
	if (!ca)
		return;
	free(ca->all);
	for (i = 0; i < ca->nr_objects; i++) {
		attrib_close(ca->objects[i]->a);
		free(ca->objects[i]);
	}
	free(ca->objects);
	for (i = 0; i < ca->nr_heap_refs; i++)
		free(ca->heap_refs[i]);
	free(ca->heap_refs);
	hashmap_release(&ca->by_dso);
	hashmap_release(&ca->by_path);
	strpool_release(&ca->strings);
	hashmap_release(&ca->entries);
	strbuf_release(&ca->missing);
	c2c_kernel_free(ca->kernel);
	free(ca);
}

const struct c2c_row_attrib *c2c_attrib_row(const struct c2c_attrib *ca, const struct c2c_row *r)
{
	static const struct c2c_row_attrib none = {
		.label = "", .object = "", .outer_field = "", .reason = C2C_ATTRIB_UNMAPPED
	};
	int ref = r->attrib_ref;

	if (!ca || !ref)
		return &none;
	if (ref > 0)
		return &ca->all[ref - 1];
	ref = -ref - 1;
	if (ref >= C2C_ATTRIB_NR_REASONS)
		return &none;
	return &ca->reason_only[ref];
}

bool c2c_attrib_any(const struct c2c_attrib *ca)
{
	return ca && ca->any;
}

void c2c_attrib_counts(const struct c2c_attrib *ca, uint64_t counts[C2C_ATTRIB_NR_REASONS])
{
	memcpy(counts, ca->counts, sizeof(ca->counts));
}

size_t c2c_attrib_nr_objects(const struct c2c_attrib *ca)
{
	return ca->nr_opened + c2c_kernel_nr_opened(ca->kernel);
}

const char *c2c_attrib_kernel_problems(const struct c2c_attrib *ca)
{
	return c2c_kernel_problems(ca->kernel);
}

const char *c2c_attrib_missing(const struct c2c_attrib *ca)
{
	return ca->missing.buf;
}

void c2c_attrib_line_objects(const struct c2c_attrib *ca, const struct c2c_line *l,
			     struct strbuf *out)
{
	const char *seen[8];
	size_t i, k, n = 0, more = 0;

	/* rows are sorted hottest first */
	for (i = 0; i < l->nr_rows; i++) {
		const char *o = c2c_attrib_row(ca, l->rows[i])->object;

		if (!l->rows[i]->valid || !*o)
			continue;
		for (k = 0; k < n && strcmp(seen[k], o); k++)
			;
		if (k < n)
			continue;
		if (n == ARRAY_SIZE(seen)) {
			more++;
			continue;
		}
		seen[n++] = o;
		strbuf_addf(out, "%s%s", n > 1 ? "," : "", o);
	}
	if (more)
		strbuf_addf(out, ",+%zu", more);
}

void c2c_attrib_render_stats(const struct c2c_attrib *ca, uint64_t nr_samples, struct strbuf *out)
{
	int i;

	strbuf_addstr(out, "=================================================\n"
			   "              Field attribution\n"
			   "=================================================\n");
	strbuf_addf(out, "  %-34s: %10" PRIu64 "\n", "Samples", nr_samples);
	for (i = 0; i < C2C_ATTRIB_NR_REASONS; i++) {
		if (!ca->counts[i] && i != ATTRIB_OK)
			continue;
		strbuf_addf(out, "  %-34s: %10" PRIu64 "\n", c2c_attrib_reason_name(i),
			    ca->counts[i]);
	}
	strbuf_addf(out, "  %-34s: %10zu\n", "Objects with debug info", c2c_attrib_nr_objects(ca));
	if (!ca->heap_recorded) {
		strbuf_addstr(out, "  Heap blocks: none in the file (allocation events come from\n"
				   "  record --sim; a PMU recording has none): heap addresses are\n"
				   "  named by mapping only\n");
		return;
	}
	strbuf_addf(out, "  %-34s: %10zu\n", "Heap blocks recorded", ca->nr_heap_blocks);
	strbuf_addf(out, "  %-34s: %10" PRIu64 "\n", "Shown, named through a heap block",
		    ca->heap_named);
	strbuf_addf(out, "  %-34s: %10" PRIu64 "\n", "  of them to an element and field",
		    ca->heap_typed);
}

const struct type *c2c_attrib_find_type(const struct c2c_attrib *ca, const char *name)
{
	const struct c2c_row_attrib *ra;
	size_t i;

	for (i = 0; ca && i < ca->nr_all; i++) {
		ra = &ca->all[i];
		if (ra->res && ra->res->outer_type && ra->res->outer_name &&
		    !strcmp(ra->res->outer_name, name))
			return ra->res->outer_type;
	}
	return NULL;
}

/* The instruction of an annotation at binary-relative pc, or SIZE_MAX. */
static size_t insn_at(const struct attrib_annotation *an, uint64_t pc)
{
	size_t lo = 0, hi = an->nr_insns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (an->insns[mid].pc == pc)
			return mid;
		if (an->insns[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

/* Every row of the session whose code is one of an's instructions adds to its counts. */
static void count_insns(struct c2c_session *s, const struct c2c_row *r, struct c2c_annotation *an)
{
	const struct c2c_model *m = s->model;
	size_t i, j, k;

	for (i = 0; i < m->nr_lines; i++)
		for (j = 0; j < m->lines[i]->nr_rows; j++) {
			const struct c2c_row *o = m->lines[i]->rows[j];
			const struct c2c_stats *st = &o->g.stats;
			struct c2c_insn_counts *c;

			/* kernel rows: the function's bias maps only its own addresses in */
			if (!o->imap ||
			    !(same_object(o->imap, r->imap) ||
			      (o->imap->kernel && r->imap->kernel)) ||
			    (k = insn_at(&an->code, o->iaddr - an->bias)) == SIZE_MAX)
				continue;
			c = &an->counts[k];
			c->lcl_hitm += st->lcl_hitm;
			c->rmt_hitm += st->rmt_hitm;
			c->loads += st->load;
			c->stores += st->store;
			c->records += st->nr_entries;
		}
}

int c2c_attrib_annotate(struct c2c_attrib *ca, struct c2c_session *s, const struct c2c_row *r,
			struct c2c_annotation *out, struct err_msg *err)
{
	const struct c2c_row_attrib *ra = c2c_attrib_row(ca, r);
	struct object *o;
	int ret;

	struct attrib *a = NULL;
	uint64_t pc, addr;

	memset(out, 0, sizeof(*out));
	if (!r->imap)
		return err_set(err, ENOTSUP, "0x%" PRIx64 ": unmapped code is not annotated",
			       r->iaddr);
	if (r->imap->kernel || r->cpumode == AS_CPUMODE_KERNEL) {
		if (!r->imap->kernel || c2c_kernel_locate(ca->kernel, s, r, &a, &pc, &addr))
			return err_set(err, ENOENT,
				       "0x%" PRIx64 ": kernel code without a debug file that "
				       "matches the kernel (c2cscope-report(1), KERNEL CODE)",
				       r->iaddr);
	} else if ((o = object_of(ca, s, r->imap))->a) {
		a = o->a;
	}
	if (!a || !ra->biased)
		return err_set(err, ENOENT, "%s: the object file or its DWARF was not found",
			       r->imap->filename);
	out->bias = ra->bias;
	ret = attrib_annotate(a, r->iaddr - ra->bias, ra->bias, &out->code, err);
	if (ret)
		return ret;
	out->counts = xcalloc(out->code.nr_insns, sizeof(*out->counts));
	if (s->model->key_mask & (1U << C2C_KEY_IADDR)) /* rows have code addresses */
		count_insns(s, r, out);
	return 0;
}

void c2c_annotation_release(struct c2c_annotation *an)
{
	attrib_annotation_release(&an->code);
	free(an->counts);
	memset(an, 0, sizeof(*an));
}
