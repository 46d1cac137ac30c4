// SPDX-License-Identifier: GPL-2.0
/*
 * Attributed rows summed per struct type and field: report --by-type, and
 * the struct profiles layout --profile and suggest --profile read.
 */
#include "c2c/c2c_bytype.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fmt/table.h"
#include "util/hashmap.h"
#include "util/xalloc.h"

#define MAX_FUNCS 16

struct funcs {
	const char *v[MAX_FUNCS];
	size_t n, more;
};

struct field_sum {
	const char *type_name, *field;
	uint64_t offset; /* of the field's first access seen */
	uint64_t lcl_hitm, rmt_hitm, loads, stores, locked, writes, records;
	uint64_t type_hitm, type_records; /* of all the type's fields: the order */
	uint64_t *cpus, *rcpus, *wcpus; /* nr_cpus bits */
	struct funcs readers, writers;
	struct hashmap objects; /* object address + 1 -> writer cpus (folded to 64) */
	uint32_t object_writers; /* the most cpus writing one object's field */
};

struct c2c_bytype {
	struct field_sum *v;
	size_t n, alloc;
	struct hashmap index; /* hash(type, field) -> index + 1 (first of that hash) */
	size_t words; /* of each cpu set */
	uint32_t nr_cpus;
};

static void funcs_add(struct funcs *f, const char *name)
{
	size_t i;

	if (!name)
		return;
	for (i = 0; i < f->n; i++)
		if (!strcmp(f->v[i], name))
			return;
	if (f->n < MAX_FUNCS)
		f->v[f->n++] = name;
	else
		f->more++;
}

static void funcs_format(const struct funcs *f, struct strbuf *sb)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		strbuf_addf(sb, "%s%s", i ? "," : "", f->v[i]);
	if (f->more)
		strbuf_addf(sb, ",+%zu", f->more);
}

static struct field_sum *sum_of(struct c2c_bytype *bt, const char *type_name, const char *field)
{
	uint64_t h = hash_str(type_name) * 31 + hash_str(field);
	size_t i = (size_t)(uintptr_t)hashmap_get(&bt->index, h);
	struct field_sum *f;

	if (i && !strcmp(bt->v[i - 1].type_name, type_name) && !strcmp(bt->v[i - 1].field, field))
		return &bt->v[i - 1];
	for (i = 0; i < bt->n && hashmap_get(&bt->index, h); i++) /* a collision */
		if (!strcmp(bt->v[i].type_name, type_name) && !strcmp(bt->v[i].field, field))
			return &bt->v[i];
	if (!hashmap_get(&bt->index, h))
		hashmap_put(&bt->index, h, (void *)(uintptr_t)(bt->n + 1));
	bt->v = xgrow(bt->v, &bt->alloc, bt->n + 1, sizeof(*bt->v));
	f = memset(&bt->v[bt->n++], 0, sizeof(*f));
	f->type_name = type_name;
	f->field = field;
	f->cpus = xcalloc(bt->words, sizeof(uint64_t));
	f->rcpus = xcalloc(bt->words, sizeof(uint64_t));
	f->wcpus = xcalloc(bt->words, sizeof(uint64_t));
	hashmap_init(&f->objects);
	return f;
}

static uint64_t fold64(const uint64_t *set, size_t words)
{
	uint64_t mask = 0;
	size_t w;

	for (w = 0; w < words; w++)
		mask |= set[w];
	return mask;
}

/* The row's object (its address, from the data address) and who writes it. */
static void add_object(struct c2c_bytype *bt, struct field_sum *f, const struct c2c_row *r,
		       const struct c2c_row_attrib *ra, bool writes)
{
	const uint64_t seen = 1ULL << 63; /* never NULL in the map; not a cpu */
	uint64_t base = r->line->addr + r->offset - ra->res->outer_offset + 1;
	uint64_t mask = (uint64_t)(uintptr_t)hashmap_get(&f->objects, base) | seen;
	uint32_t n;

	if (writes)
		mask |= fold64(r->g.cpuset, bt->words);
	hashmap_put(&f->objects, base, (void *)(uintptr_t)mask);
	n = (uint32_t)__builtin_popcountll(mask & ~seen);
	if (n > f->object_writers)
		f->object_writers = n;
}

static void add_row(struct c2c_bytype *bt, struct c2c_session *s, const struct c2c_row *r,
		    const struct c2c_row_attrib *ra)
{
	const struct c2c_stats *st = &r->g.stats;
	const char *type_name = ra->res->outer_name;
	const struct sym_info *si = sym_resolve(s->symbols, r->imap, r->iaddr);
	const char *func = ra->res->func ? ra->res->func : si->symbol;
	struct field_sum *f = sum_of(bt, type_name, ra->outer_field);
	bool writes = c2c_writes(st) != 0;
	size_t w;

	if (!f->records)
		f->offset = ra->res->outer_offset;
	f->lcl_hitm += st->lcl_hitm;
	f->rmt_hitm += st->rmt_hitm;
	f->loads += st->load;
	f->stores += st->store;
	f->locked += st->locks;
	f->writes += c2c_writes(st);
	f->records += st->nr_entries;
	for (w = 0; w < bt->words; w++) {
		f->cpus[w] |= r->g.cpuset[w];
		if (st->load)
			f->rcpus[w] |= r->g.cpuset[w];
		if (writes)
			f->wcpus[w] |= r->g.cpuset[w];
	}
	if (st->load)
		funcs_add(&f->readers, func);
	if (writes)
		funcs_add(&f->writers, func);
	add_object(bt, f, r, ra, writes);
}

/* Types hottest first (HITMs, then records), fields by offset. */
static int cmp_sum(const void *a, const void *b)
{
	const struct field_sum *x = a, *y = b;
	int c;

	if (x->type_hitm != y->type_hitm)
		return x->type_hitm > y->type_hitm ? -1 : 1;
	if (x->type_records != y->type_records)
		return x->type_records > y->type_records ? -1 : 1;
	c = strcmp(x->type_name, y->type_name);
	if (c)
		return c;
	return x->offset < y->offset ? -1 : x->offset > y->offset ? 1 : strcmp(x->field, y->field);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct field_sum *)a)->type_name,
		      ((const struct field_sum *)b)->type_name);
}

/* Each field learns its type's totals: sort by name, sum each run. */
static void type_totals(struct c2c_bytype *bt)
{
	size_t i, j, k;

	qsort(bt->v, bt->n, sizeof(*bt->v), cmp_name);
	for (i = 0; i < bt->n; i = j) {
		uint64_t hitm = 0, records = 0;

		for (j = i; j < bt->n && !strcmp(bt->v[i].type_name, bt->v[j].type_name); j++) {
			hitm += bt->v[j].lcl_hitm + bt->v[j].rmt_hitm;
			records += bt->v[j].records;
		}
		for (k = i; k < j; k++) {
			bt->v[k].type_hitm = hitm;
			bt->v[k].type_records = records;
		}
	}
}

struct c2c_bytype *c2c_bytype_build(struct c2c_session *s, const struct c2c_attrib *ca)
{
	const struct c2c_model *m = s->model;
	struct c2c_bytype *bt = xcalloc(1, sizeof(*bt));
	size_t i, j;

	hashmap_init(&bt->index);
	bt->nr_cpus = m->opts.nr_cpus;
	bt->words = (m->opts.nr_cpus + 63) / 64;
	for (i = 0; i < m->nr_lines; i++) {
		const struct c2c_line *l = m->lines[i];

		for (j = 0; j < l->nr_rows; j++) {
			const struct c2c_row_attrib *ra = c2c_attrib_row(ca, l->rows[j]);

			if (c2c_row_typed(ra))
				add_row(bt, s, l->rows[j], ra);
		}
	}
	hashmap_release(&bt->index);
	if (bt->n) {
		type_totals(bt);
		qsort(bt->v, bt->n, sizeof(*bt->v), cmp_sum);
	}
	return bt;
}

static void field_sum_release(struct field_sum *f)
{
	free(f->cpus);
	free(f->rcpus);
	free(f->wcpus);
	hashmap_release(&f->objects);
}

size_t c2c_bytype_filter(struct c2c_bytype *bt, const char *glob)
{
	size_t i, n = 0;

	for (i = 0; i < bt->n; i++) {
		if (!type_name_matches(glob, bt->v[i].type_name))
			field_sum_release(&bt->v[i]);
		else
			bt->v[n++] = bt->v[i];
	}
	bt->n = n;
	return n;
}

void c2c_bytype_free(struct c2c_bytype *bt)
{
	size_t i;

	if (!bt)
		return;
	for (i = 0; i < bt->n; i++)
		field_sum_release(&bt->v[i]);
	free(bt->v);
	free(bt);
}

static size_t popcount(const uint64_t *set, size_t words)
{
	size_t n = 0, w;

	for (w = 0; w < words; w++)
		n += (size_t)__builtin_popcountll(set[w]);
	return n;
}

static const struct table_column_spec bytype_columns[] = {
	{ .header = "Type", .align = TABLE_LEFT },
	{ .header = "Field", .align = TABLE_LEFT },
	{ .group = "HITM", .header = "Lcl" },
	{ .group = "HITM", .header = "Rmt" },
	{ .header = "Loads" },
	{ .header = "Stores" },
	{ .header = "Locked" },
	{ .header = "cpu cnt" },
	{ .header = "Readers", .align = TABLE_LEFT },
	{ .header = "Writers", .align = TABLE_LEFT },
};

void c2c_bytype_render(const struct c2c_bytype *bt, struct strbuf *out)
{
	struct table *t = table_new();
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_addstr(out, "=================================================\n"
			   "           Shared data by struct type\n"
			   "=================================================\n");
	table_add_columns(t, bytype_columns, ARRAY_SIZE(bytype_columns));
	for (i = 0; i < bt->n; i++) {
		const struct field_sum *f = &bt->v[i];

		table_add_row(t);
		table_set(t, 0, "%s", f->type_name);
		table_set(t, 1, "%s", f->field);
		table_set(t, 2, "%" PRIu64, f->lcl_hitm);
		table_set(t, 3, "%" PRIu64, f->rmt_hitm);
		table_set(t, 4, "%" PRIu64, f->loads);
		table_set(t, 5, "%" PRIu64, f->stores);
		table_set(t, 6, "%" PRIu64, f->locked);
		table_set(t, 7, "%zu", popcount(f->cpus, bt->words));
		strbuf_reset(&sb);
		funcs_format(&f->readers, &sb);
		table_set(t, 8, "%s", sb.len ? sb.buf : "-");
		strbuf_reset(&sb);
		funcs_format(&f->writers, &sb);
		table_set(t, 9, "%s", sb.len ? sb.buf : "-");
	}
	if (!bt->n)
		strbuf_addstr(out, "  no sample was attributed to a struct field\n");
	else
		table_render(t, out, "  ");
	table_free(t);
	strbuf_release(&sb);
}

#ifdef HAVE_JANSSON
static json_t *funcs_json(const struct funcs *f)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < f->n; i++)
		json_array_append_new(a, json_string(f->v[i]));
	return a;
}

json_t *c2c_bytype_json(const struct c2c_bytype *bt)
{
	json_t *types = json_array(), *cur = NULL, *fields = NULL;
	const char *cur_name = NULL;
	size_t i;

	for (i = 0; i < bt->n; i++) {
		const struct field_sum *f = &bt->v[i];
		json_t *o = json_object();

		if (!cur_name || strcmp(cur_name, f->type_name)) {
			cur = json_object();
			fields = json_array();
			cur_name = f->type_name;
			json_object_set_new(cur, "type", json_string(f->type_name));
			json_object_set_new(cur, "fields", fields);
			json_array_append_new(types, cur);
		}
		json_object_set_new(o, "field", json_string(f->field));
		json_object_set_new(o, "offset", json_integer((json_int_t)f->offset));
		json_object_set_new(o, "lcl_hitm", json_integer((json_int_t)f->lcl_hitm));
		json_object_set_new(o, "rmt_hitm", json_integer((json_int_t)f->rmt_hitm));
		json_object_set_new(o, "loads", json_integer((json_int_t)f->loads));
		json_object_set_new(o, "stores", json_integer((json_int_t)f->stores));
		json_object_set_new(o, "locked", json_integer((json_int_t)f->locked));
		json_object_set_new(o, "writes", json_integer((json_int_t)f->writes));
		json_object_set_new(o, "records", json_integer((json_int_t)f->records));
		json_object_set_new(o, "cpu_count",
				    json_integer((json_int_t)popcount(f->cpus, bt->words)));
		json_object_set_new(o, "readers", funcs_json(&f->readers));
		json_object_set_new(o, "writers", funcs_json(&f->writers));
		json_array_append_new(fields, o);
	}
	return types;
}
#endif

/* The top-level member of t holding offset off, or NULL. */
static const struct type_member *top_member(const struct type *t, uint64_t off)
{
	uint32_t i;

	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		uint64_t start, end;

		type_member_extent(m, &start, &end);
		if (off >= start && off < (end > start ? end : start + 1))
			return m;
	}
	return NULL;
}

static void set_mask(uint64_t *mask, const uint64_t *set, size_t words)
{
	size_t w;

	for (w = 0; w < words; w++) {
		uint64_t bits = set[w];

		/* contexts are cpus, folded into 64 bits */
		while (bits) {
			*mask |= 1ULL
				 << (((uint64_t)w * 64 + (uint64_t)__builtin_ctzll(bits)) % 64);
			bits &= bits - 1;
		}
	}
}

/* Whether the list "a, b" holds name. */
static bool listed(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p = list;

	while (p && *p) {
		size_t n = strcspn(p, ",");

		if (n == len && !strncmp(p, name, len))
			return true;
		p += n;
		p += strspn(p, ", ");
	}
	return false;
}

static void append_funcs(char **dst, const struct funcs *f)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (*dst)
		strbuf_addstr(&sb, *dst);
	for (i = 0; i < f->n; i++) {
		if (listed(sb.buf, f->v[i]))
			continue;
		strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", f->v[i]);
	}
	free(*dst);
	*dst = sb.len ? strbuf_detach(&sb, NULL) : NULL;
	if (!*dst)
		strbuf_release(&sb);
}

struct struct_profile *c2c_bytype_profile(const struct c2c_bytype *bt, const struct type *t,
					  const char *origin)
{
	struct struct_profile *p;
	const struct type *st = type_strip(t);
	const char *name = type_aggregate_name(st);
	size_t i;

	p = profile_new(st);
	p->origin = xstrdup(origin ? origin : "perf.data");
	for (i = 0; i < bt->n; i++) {
		const struct field_sum *f = &bt->v[i];
		const struct type_member *m;
		struct field_profile *fp;

		if (!name || strcmp(f->type_name, name))
			continue;
		m = top_member(st, f->offset);
		fp = m ? (struct field_profile *)profile_member_field(p, m) : NULL;
		if (!fp)
			continue;
		fp->loads += f->loads;
		fp->stores += f->writes; /* stores and locked loads: c2c_writes */
		fp->locked += f->locked;
		fp->hitm_local += f->lcl_hitm;
		fp->hitm_remote += f->rmt_hitm;
		if (f->object_writers > fp->object_writers)
			fp->object_writers = f->object_writers;
		if (f->objects.nr > p->nr_objects)
			p->nr_objects = f->objects.nr;
		set_mask(&fp->readers, f->rcpus, bt->words);
		set_mask(&fp->writers, f->wcpus, bt->words);
		append_funcs(&fp->reader_funcs, &f->readers);
		append_funcs(&fp->writer_funcs, &f->writers);
	}
	profile_classify(p, 1);
	return p;
}

/* Keys for what a row touched: its element (the member, unless an array), member, object. */
struct row_keys {
	uint64_t elem, member, object;
};

/* The row's top-level member of ST, and the keys of what it touched in its object. */
static const struct type_member *row_member(const struct type *st, const struct struct_profile *p,
					    const struct c2c_row *r,
					    const struct c2c_row_attrib *ra, struct row_keys *k)
{
	const struct type_member *m;
	const struct type *mt;
	uint64_t base, esize;

	if (!c2c_row_typed(ra) || strcmp(ra->res->outer_name, type_aggregate_name(st)))
		return NULL;
	m = top_member(st, ra->res->outer_offset);
	if (!m || !profile_member_field(p, m))
		return NULL;
	base = hash_u64(r->line->addr + r->offset - ra->res->outer_offset) * 31;
	k->member = base + (uint64_t)(m - st->members);
	k->object = base + st->nr_members; /* no member has that index */
	k->elem = k->member;
	mt = type_strip(m->type);
	esize = mt && mt->kind == TYPE_ARRAY ? type_size(type_array_elem(mt)) : 0;
	if (esize && ra->res->outer_offset >= m->offset)
		k->elem =
			hash_u64(k->member) * 31 + (ra->res->outer_offset - m->offset) / esize + 1;
	return m;
}

/*
 * Stores per key (a field of one object, or a whole object): the total,
 * and under a second key per cpu those of rows that one cpu made.
 */
static uint64_t cpu_key(uint64_t key, uint64_t cpus)
{
	return hash_u64(key ^ ((uint64_t)__builtin_ctzll(cpus) + 1) * 0x9e3779b97f4a7c15ULL);
}

static void add_stores(struct hashmap *map, uint64_t key, uint64_t cpus, uint64_t n)
{
	hashmap_put(map, key, (void *)(uintptr_t)((uintptr_t)hashmap_get(map, key) + n));
	if (cpus && !(cpus & (cpus - 1)))
		hashmap_put(
			map, cpu_key(key, cpus),
			(void *)(uintptr_t)((uintptr_t)hashmap_get(map, cpu_key(key, cpus)) + n));
}

/* Stores under KEY by cpus other than those of CPUS (all, when CPUS are several). */
static uint64_t stores_by_others(const struct hashmap *map, uint64_t key, uint64_t cpus)
{
	uint64_t all = (uintptr_t)hashmap_get(map, key);

	if (cpus && !(cpus & (cpus - 1)))
		all -= (uintptr_t)hashmap_get(map, cpu_key(key, cpus));
	return all;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * Sort one row's HITMs by what moved the line. A load HITM needs a store
 * by another cpu since this one's last access, so the stores other cpus
 * made bound each cause: to the same field (or array element) of the same
 * object (true sharing: no layout removes it), then to the field's other
 * elements, then to the object's other fields (false sharing inside the
 * object); the rest came from outside the object (a neighbouring object,
 * as in an array of per-thread structs). The bound takes loads and stores
 * as sampled alike: the simulator writes every one; a PMU's periods may
 * differ.
 */
static void sort_row_hitms(struct field_profile *fp, const struct hashmap *stores,
			   const struct row_keys *k, uint64_t cpus, uint64_t hitm)
{
	uint64_t elem = stores_by_others(stores, k->elem, cpus);
	uint64_t member = stores_by_others(stores, k->member, cpus);
	uint64_t object = stores_by_others(stores, k->object, cpus);
	uint64_t t = min_u64(hitm, elem), e, inside;

	if (k->elem == k->member)
		member = elem;
	e = min_u64(hitm - t, member > elem ? member - elem : 0);
	inside = min_u64(hitm - t - e, object > member ? object - member : 0);
	fp->hitm_true += t;
	fp->hitm_elements += e;
	fp->hitm_between += hitm - t - e - inside;
}

/*
 * Split each field's HITMs (sort_row_hitms). Two passes over the rows: the
 * stores to each object's fields, then the rows.
 */
static void split_true_hitms(struct c2c_session *s, const struct c2c_attrib *ca,
			     const struct type *st, struct struct_profile *p)
{
	const struct c2c_model *m = s->model;
	size_t words = (m->opts.nr_cpus + 63) / 64, i, j;
	struct hashmap stores;
	int pass;

	hashmap_init(&stores);
	for (i = 0; i < p->nr_fields; i++)
		p->fields[i].hitm_true_known = true;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < m->nr_lines; i++)
			for (j = 0; j < m->lines[i]->nr_rows; j++) {
				const struct c2c_row *r = m->lines[i]->rows[j];
				const struct c2c_row_attrib *ra = c2c_attrib_row(ca, r);
				const struct c2c_stats *sts = &r->g.stats;
				const struct type_member *mb;
				uint64_t cpus, n = c2c_writes(sts);
				struct row_keys k;

				mb = row_member(st, p, r, ra, &k);
				if (!mb)
					continue;
				cpus = fold64(r->g.cpuset, words);
				if (pass == 0 && n) {
					if (k.elem != k.member)
						add_stores(&stores, k.elem, cpus, n);
					add_stores(&stores, k.member, cpus, n);
					add_stores(&stores, k.object, cpus, n);
				} else if (pass == 1 && sts->lcl_hitm + sts->rmt_hitm) {
					sort_row_hitms(
						(struct field_profile *)profile_member_field(p, mb),
						&stores, &k, cpus, sts->lcl_hitm + sts->rmt_hitm);
				}
			}
	hashmap_release(&stores);
}

struct struct_profile *c2c_profile_from_session(struct c2c_session *s, const struct c2c_attrib *ca,
						const struct type *t)
{
	struct c2c_bytype *bt = c2c_bytype_build(s, ca);
	struct struct_profile *p = c2c_bytype_profile(bt, t, s->opts.path);
	const struct type *st = type_strip(t);

	c2c_bytype_free(bt);
	if (type_aggregate_name(st))
		split_true_hitms(s, ca, st, p);
	return p;
}

size_t c2c_bytype_nr_rows(const struct c2c_bytype *bt)
{
	return bt->n;
}

const char *c2c_bytype_row_type(const struct c2c_bytype *bt, size_t i)
{
	return bt->v[i].type_name;
}
