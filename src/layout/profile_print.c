// SPDX-License-Identifier: GPL-2.0
/*
 * A struct's layout with its access profile beside each top-level member
 * (layout --profile): HITMs, loads, stores, reader and writer functions,
 * and which members share their line falsely (a field some contexts write
 * with a field that contexts other than those writers touch) or truly (a
 * field several contexts write).
 */
#include "layout/profile_print.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct marks {
	const struct struct_profile *p;
	bool *false_sharing; /* per profile field */
	bool *true_sharing;
};

static bool several(uint64_t mask)
{
	return (mask & (mask - 1)) != 0;
}

static void format_mask(struct strbuf *sb, uint64_t mask)
{
	int i, n = 0;

	for (i = 0; i < 64; i++)
		if (mask >> i & 1)
			strbuf_addf(sb, "%s%d", n++ ? "," : "", i);
}

static void annotate(struct strbuf *sb, const struct type_member *m, uint64_t abs_offset,
		     uint64_t size, unsigned int depth, void *arg)
{
	const struct marks *mk = arg;
	const struct field_profile *f = m->name ? profile_field_const(mk->p, m->name) : NULL;
	size_t i;

	(void)abs_offset;
	(void)size;
	if (depth || !f || (!f->loads && !f->stores))
		return;
	i = (size_t)(f - mk->p->fields);
	strbuf_addf(sb, " hitm %" PRIu64 "/%" PRIu64 " ld %" PRIu64 " st %" PRIu64, f->hitm_local,
		    f->hitm_remote, f->loads, f->stores);
	if (f->reader_funcs)
		strbuf_addf(sb, " r:%s", f->reader_funcs);
	if (f->writer_funcs)
		strbuf_addf(sb, " w:%s", f->writer_funcs);
	if (mk->false_sharing[i])
		strbuf_addstr(sb, " <- false sharing");
	if (mk->true_sharing[i])
		strbuf_addstr(sb, " <- true sharing");
}

/* Member i's byte range [*start, *end) and its profile field (or NULL). */
static const struct field_profile *member_field(const struct type *t,
						const struct struct_profile *p, uint32_t i,
						uint64_t *start, uint64_t *end)
{
	const struct type_member *m = &t->members[i];
	uint64_t size = m->bit_size ? (m->bit_offset % 8 + m->bit_size + 7) / 8 :
				      type_size(m->type);

	*start = m->offset;
	*end = m->offset + (size ? size : 1);
	return m->name ? profile_field_const(p, m->name) : NULL;
}

/*
 * False sharing between a and b: a is written, and some context touches b
 * that does not write a (the line moves for a layout accident). Fields
 * touched only by a's own writers share truly, or not at all.
 */
static bool falsely_shared(const struct field_profile *a, const struct field_profile *b)
{
	return a != b && a->writers && (field_accessors(b) & ~a->writers);
}

static bool share_line(uint64_t as, uint64_t ae, uint64_t bs, uint64_t be, unsigned int cl)
{
	return as / cl <= (be - 1) / cl && bs / cl <= (ae - 1) / cl;
}

/* One verdict line per cache line that holds false sharing. */
static void false_sharing(struct strbuf *out, const struct type *t, struct marks *mk,
			  unsigned int cl)
{
	const struct struct_profile *p = mk->p;
	uint32_t i, j;

	for (i = 0; i < t->nr_members; i++) {
		uint64_t as, ae, bs, be;
		const struct field_profile *a = member_field(t, p, i, &as, &ae), *b;
		bool first = true;

		if (!a || !a->writers)
			continue;
		for (j = 0; j < t->nr_members; j++) {
			b = member_field(t, p, j, &bs, &be);
			if (!b || j == i || !share_line(as, ae, bs, be, cl) ||
			    !falsely_shared(a, b))
				continue;
			mk->false_sharing[a - p->fields] = true;
			mk->false_sharing[b - p->fields] = true;
			if (first) {
				strbuf_addf(out,
					    "false sharing: line %" PRIu64 ": %s (written by cpus ",
					    as / cl, a->name);
				format_mask(out, a->writers);
				strbuf_addstr(out, ") with");
			}
			strbuf_addf(out, "%s %s (cpus ", first ? "" : ",", b->name);
			format_mask(out, field_accessors(b));
			strbuf_addch(out, ')');
			first = false;
		}
		if (!first)
			strbuf_addch(out, '\n');
	}
}

/* Several contexts write the field: of one object when that is known. */
static bool truly_shared(const struct field_profile *f)
{
	return f->object_writers ? f->object_writers > 1 : several(f->writers);
}

static void true_sharing(struct strbuf *out, struct marks *mk)
{
	const struct struct_profile *p = mk->p;
	uint32_t i;

	for (i = 0; i < p->nr_fields; i++) {
		if (!truly_shared(&p->fields[i]))
			continue;
		mk->true_sharing[i] = true;
		strbuf_addf(out, "true sharing: %s (written by cpus ", p->fields[i].name);
		format_mask(out, p->fields[i].writers);
		strbuf_addstr(out, ")\n");
	}
}

/*
 * Several objects, each field written by one context, yet HITMs: the
 * objects' neighbours share lines (an array of per-thread structs).
 */
static void between_objects(struct strbuf *out, const struct struct_profile *p)
{
	uint64_t hitm = 0;
	uint32_t i, n = 0;

	if (p->nr_objects < 2)
		return;
	for (i = 0; i < p->nr_fields; i++) {
		const struct field_profile *f = &p->fields[i];

		if (f->object_writers != 1 || several(f->writers) == false ||
		    !(f->hitm_local + f->hitm_remote))
			continue;
		strbuf_addstr(out, n++ ? ", " : "false sharing between objects: ");
		strbuf_addstr(out, f->name);
		hitm += f->hitm_local + f->hitm_remote;
	}
	if (n)
		strbuf_addf(out,
			    " (each of %" PRIu64 " objects written by one cpu, yet %" PRIu64
			    " HITMs: neighbouring objects share cache lines)\n",
			    p->nr_objects, hitm);
}

void profile_print_layout(struct strbuf *sb, const struct type *t, const struct struct_profile *p,
			  const struct layout_print_opts *opts)
{
	struct layout_print_opts o = opts ? *opts : (struct layout_print_opts){ 0 };
	struct marks mk = { .p = p };
	struct strbuf verdicts = STRBUF_INIT;
	unsigned int cl = o.cacheline_size ? o.cacheline_size : 64;

	t = type_strip(t);
	mk.false_sharing = xcalloc(p->nr_fields + 1, sizeof(bool));
	mk.true_sharing = xcalloc(p->nr_fields + 1, sizeof(bool));
	false_sharing(&verdicts, t, &mk, cl);
	between_objects(&verdicts, p);
	true_sharing(&verdicts, &mk);
	o.annotate = annotate;
	o.annotate_arg = &mk;
	layout_print(sb, t, &o);
	strbuf_addf(sb,
		    "/* profile: %s; per member: hitm local/remote, loads, stores,\n"
		    "   r: reader functions, w: writer functions; contexts are cpus */\n",
		    p->origin ? p->origin : "perf.data");
	if (verdicts.len)
		strbuf_add(sb, verdicts.buf, verdicts.len);
	else
		strbuf_addstr(sb, "no false or true sharing\n");
	strbuf_release(&verdicts);
	free(mk.false_sharing);
	free(mk.true_sharing);
}
