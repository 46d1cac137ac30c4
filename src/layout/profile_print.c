// SPDX-License-Identifier: GPL-2.0
/*
 * A struct's layout with its access profile beside each top-level member
 * (layout --profile): HITMs, loads, stores, reader and writer functions,
 * and which members share their line falsely (a field some contexts write
 * with a field that contexts other than those writers touch) or truly (a
 * field several contexts write).
 */
#include "layout/layout.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct marks {
	const struct struct_profile *p;
	const struct profile_findings *f;
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
	/* top-level members only: an anonymous struct's, on its closing line */
	const struct field_profile *f = depth ? NULL : profile_member_field(mk->p, m);
	size_t i;

	(void)abs_offset;
	(void)size;
	if (!f || (!f->loads && !f->stores))
		return;
	i = (size_t)(f - mk->p->fields);
	strbuf_addf(sb, " hitm %" PRIu64 "/%" PRIu64 " ld %" PRIu64 " st %" PRIu64, f->hitm_local,
		    f->hitm_remote, f->loads, f->stores);
	if (f->reader_funcs)
		strbuf_addf(sb, " r:%s", f->reader_funcs);
	if (f->writer_funcs)
		strbuf_addf(sb, " w:%s", f->writer_funcs);
	if (mk->f->false_sharing[i])
		strbuf_addstr(sb, " <- false sharing");
	if (mk->f->true_sharing[i])
		strbuf_addstr(sb, " <- true sharing");
	if (mk->f->between_objects[i])
		strbuf_addstr(sb, " <- between objects");
}

/* Member i's byte range [*start, *end) and its profile field (or NULL). */
static const struct field_profile *member_field(const struct type *t,
						const struct struct_profile *p, uint32_t i,
						uint64_t *start, uint64_t *end)
{
	const struct type_member *m = &t->members[i];

	type_member_extent(m, start, end);
	if (*end == *start)
		*end = *start + 1;
	return profile_member_field(p, m);
}

/*
 * False sharing between a and b: a is written, and some context touches b
 * that does not write a (the line moves for a layout accident). Fields
 * touched only by a's own writers share truly, or not at all.
 */
static bool falsely_shared(const struct struct_profile *p, const struct field_profile *a,
			   const struct field_profile *b)
{
	if (a == b || !a->writers || !(field_accessors(b) & ~a->writers))
		return false;
	/* masks that mix objects: only HITMs inside one object tell */
	return !profile_objects_share_lines(p) || profile_hitm_inside(p, b);
}

static bool share_line(uint64_t as, uint64_t ae, uint64_t bs, uint64_t be, unsigned int cl)
{
	return as / cl <= (be - 1) / cl && bs / cl <= (ae - 1) / cl;
}

/* Every (written field, falsely sharing neighbour) pair, by member order. */
static void find_false_sharing(struct profile_findings *out, const struct type *t,
			       const struct struct_profile *p, unsigned int cl)
{
	uint32_t i, j;

	for (i = 0; i < t->nr_members; i++) {
		uint64_t as, ae, bs, be;
		const struct field_profile *a = member_field(t, p, i, &as, &ae), *b;

		if (!a || !a->writers)
			continue;
		for (j = 0; j < t->nr_members; j++) {
			struct profile_pair *pair;

			b = member_field(t, p, j, &bs, &be);
			if (!b || j == i || !share_line(as, ae, bs, be, cl) ||
			    !falsely_shared(p, a, b))
				continue;
			out->false_sharing[a - p->fields] = true;
			out->false_sharing[b - p->fields] = true;
			out->pairs = xrealloc(out->pairs, (out->nr_pairs + 1) * sizeof(*pair));
			pair = &out->pairs[out->nr_pairs++];
			pair->line = as / cl;
			pair->written = (uint32_t)(a - p->fields);
			pair->other = (uint32_t)(b - p->fields);
		}
	}
}

/* Several contexts write the field: of one object when that is known. */
static bool truly_shared(const struct field_profile *f)
{
	if (f->hitm_true_known && f->hitm_elements && !f->hitm_true)
		return false; /* cpus write different elements of an array */
	return f->object_writers ? f->object_writers > 1 : several(f->writers);
}

/*
 * Several objects, each field written by one context, yet HITMs: the
 * objects' neighbours share lines (an array of per-thread structs).
 */
static bool between_objects(const struct struct_profile *p, const struct field_profile *f)
{
	if (f->hitm_true_known)
		return p->nr_objects >= 2 && f->hitm_between;
	return p->nr_objects >= 2 && f->object_writers == 1 && several(f->writers) &&
	       f->hitm_local + f->hitm_remote;
}

void layout_profile_find(struct profile_findings *out, const struct type *t,
			 const struct struct_profile *p, unsigned int cacheline_size)
{
	uint32_t i;

	memset(out, 0, sizeof(*out));
	t = type_strip(t);
	out->false_sharing = xcalloc(p->nr_fields + 1, sizeof(bool));
	out->true_sharing = xcalloc(p->nr_fields + 1, sizeof(bool));
	out->between_objects = xcalloc(p->nr_fields + 1, sizeof(bool));
	find_false_sharing(out, t, p, cacheline_size ? cacheline_size : 64);
	for (i = 0; i < p->nr_fields; i++) {
		const struct field_profile *f = &p->fields[i];

		out->true_sharing[i] = truly_shared(f);
		out->nr_true += out->true_sharing[i];
		out->between_objects[i] = between_objects(p, f);
		if (out->between_objects[i]) {
			out->nr_between++;
			out->between_hitm += f->hitm_true_known ? f->hitm_between :
								  f->hitm_local + f->hitm_remote;
		}
	}
}

void layout_profile_findings_free(struct profile_findings *f)
{
	free(f->false_sharing);
	free(f->true_sharing);
	free(f->between_objects);
	free(f->pairs);
	memset(f, 0, sizeof(*f));
}

/*
 * The verdict lines: one per written field with false sharing ("line L:
 * a (written by cpus ..) with b (cpus ..), c (cpus ..)"), one for false
 * sharing between objects, one per truly shared field.
 */
void layout_profile_verdicts(struct strbuf *out, const struct struct_profile *p,
			     const struct profile_findings *fs)
{
	const struct field_profile *fld = p->fields;
	size_t i;
	uint32_t n = 0;

	for (i = 0; i < fs->nr_pairs; i++) {
		const struct profile_pair *pr = &fs->pairs[i];
		bool first = !i || pr->written != fs->pairs[i - 1].written;

		if (first) {
			strbuf_addf(out, "%sfalse sharing: line %" PRIu64 ": %s (written by cpus ",
				    i ? "\n" : "", pr->line, fld[pr->written].name);
			format_mask(out, fld[pr->written].writers);
			strbuf_addstr(out, ") with");
		}
		strbuf_addf(out, "%s %s (cpus ", first ? "" : ",", fld[pr->other].name);
		format_mask(out, field_accessors(&fld[pr->other]));
		strbuf_addch(out, ')');
	}
	if (fs->nr_pairs)
		strbuf_addch(out, '\n');
	for (i = 0; i < p->nr_fields; i++) {
		if (!fs->between_objects[i])
			continue;
		strbuf_addstr(out, n++ ? ", " : "false sharing between objects: ");
		strbuf_addstr(out, fld[i].name);
	}
	if (n)
		strbuf_addf(out,
			    " (%" PRIu64 " objects, %" PRIu64
			    " HITMs from outside each object: neighbouring objects share cache "
			    "lines)\n",
			    p->nr_objects, fs->between_hitm);
	for (i = 0; i < p->nr_fields; i++)
		if (fld[i].hitm_elements)
			strbuf_addf(out,
				    "false sharing between elements: %s (%" PRIu64
				    " HITMs from cpus writing neighbouring elements)\n",
				    fld[i].name, fld[i].hitm_elements);
	for (i = 0; i < p->nr_fields; i++) {
		if (!fs->true_sharing[i])
			continue;
		strbuf_addf(out, "true sharing: %s (written by cpus ", fld[i].name);
		format_mask(out, fld[i].writers);
		strbuf_addstr(out, ")\n");
	}
}

void layout_profile_print(struct strbuf *sb, const struct type *t, const struct struct_profile *p,
			  const struct layout_print_opts *opts)
{
	struct layout_print_opts o = opts ? *opts : (struct layout_print_opts){ 0 };
	struct profile_findings fs;
	struct marks mk = { .p = p, .f = &fs };
	struct strbuf verdicts = STRBUF_INIT;

	t = type_strip(t);
	layout_profile_find(&fs, t, p, o.cacheline_size);
	layout_profile_verdicts(&verdicts, p, &fs);
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
	layout_profile_findings_free(&fs);
}
