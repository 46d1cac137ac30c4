// SPDX-License-Identifier: GPL-2.0
/*
 * The type db: an arena that owns every type, member and string of a model,
 * a string intern table, the reference map and the sorted, deduplicated
 * index of named structs and unions.
 */
#include <stdlib.h>
#include <string.h>

#include "types/types_internal.h"
#include "util/arena.h"
#include "util/hashmap.h"
#include "util/similar.h"
#include "util/xalloc.h"

#define ARENA_CHUNK (256 * 1024)

struct type_db {
	const char *source;
	const char *path;
	struct arena arena; /* every type, member and string */
	struct type **types;
	size_t nr_types, alloc_types;
	const struct type **index; /* named structs/unions after finish */
	size_t nr_index;
	struct hashmap refs;
	/* intern table: open addressing over string pointers */
	const char **strs;
	size_t nr_strs, cap_strs;
	char **only;
	struct db_keep {
		void (*release)(void *);
		void *arg;
	} * keep;
	size_t nr_keep;
};

void *type_db_alloc(struct type_db *db, size_t size)
{
	return arena_alloc(&db->arena, size, 8);
}

struct type_db *type_db_new(const char *source, const char *path)
{
	struct type_db *db = xcalloc(1, sizeof(*db));

	db->arena = (struct arena)ARENA_INIT(ARENA_CHUNK, false);
	hashmap_init(&db->refs);
	db->source = type_db_intern(db, source ? source : "JSON");
	db->path = path ? type_db_intern(db, path) : NULL;
	return db;
}

void type_db_keep(struct type_db *db, void (*release)(void *), void *arg)
{
	db->keep = xrealloc(db->keep, (db->nr_keep + 1) * sizeof(*db->keep));
	db->keep[db->nr_keep].release = release;
	db->keep[db->nr_keep].arg = arg;
	db->nr_keep++;
}

void type_db_set_source(struct type_db *db, const char *source)
{
	db->source = type_db_intern(db, source);
}

void type_db_free(struct type_db *db)
{
	size_t i;

	if (!db)
		return;
	arena_release(&db->arena);
	free(db->types);
	free(db->index);
	free(db->strs);
	hashmap_release(&db->refs);
	for (i = 0; db->only && db->only[i]; i++)
		free(db->only[i]);
	free(db->only);
	for (i = 0; i < db->nr_keep; i++)
		db->keep[i].release(db->keep[i].arg);
	free(db->keep);
	free(db);
}

static uint64_t hash_mem(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a, as hash_str */
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void strs_grow(struct type_db *db)
{
	size_t cap = db->cap_strs ? db->cap_strs * 2 : 1024, i;
	const char **strs = xcalloc(cap, sizeof(*strs));

	for (i = 0; i < db->cap_strs; i++) {
		const char *s = db->strs[i];
		size_t j;

		if (!s)
			continue;
		j = hash_str(s) & (cap - 1);
		while (strs[j])
			j = (j + 1) & (cap - 1);
		strs[j] = s;
	}
	free(db->strs);
	db->strs = strs;
	db->cap_strs = cap;
}

const char *type_db_intern_len(struct type_db *db, const char *s, size_t len)
{
	size_t j;
	char *copy;

	if (!s)
		return NULL;
	if ((db->nr_strs + 1) * 2 > db->cap_strs)
		strs_grow(db);
	j = hash_mem(s, len) & (db->cap_strs - 1);
	while (db->strs[j]) {
		if (!strncmp(db->strs[j], s, len) && db->strs[j][len] == '\0')
			return db->strs[j];
		j = (j + 1) & (db->cap_strs - 1);
	}
	copy = type_db_alloc(db, len + 1);
	memcpy(copy, s, len);
	db->strs[j] = copy;
	db->nr_strs++;
	return copy;
}

const char *type_db_intern(struct type_db *db, const char *s)
{
	return s ? type_db_intern_len(db, s, strlen(s)) : NULL;
}

struct type *type_db_add_raw(struct type_db *db, enum type_kind kind, const char *name)
{
	struct type *t = type_db_alloc(db, sizeof(*t));

	t->kind = kind;
	t->name = name;
	if (db->nr_types == db->alloc_types)
		db->types =
			xgrow(db->types, &db->alloc_types, db->nr_types + 1, sizeof(*db->types));
	db->types[db->nr_types++] = t;
	return t;
}

struct type *type_db_add(struct type_db *db, enum type_kind kind, const char *name)
{
	return type_db_add_raw(db, kind, type_db_intern(db, name));
}

struct type_member *type_db_add_members(struct type_db *db, struct type *t, uint32_t n)
{
	t->members = n ? type_db_alloc(db, (size_t)n * sizeof(*t->members)) : NULL;
	t->nr_members = n;
	return t->members;
}

uint64_t *type_db_add_dims(struct type_db *db, struct type *t, uint32_t n)
{
	t->dims = n ? type_db_alloc(db, (size_t)n * sizeof(*t->dims)) : NULL;
	t->nr_dims = n;
	return t->dims;
}

const struct type **type_db_add_params(struct type_db *db, struct type *t, uint32_t n)
{
	t->params = n ? type_db_alloc(db, (size_t)n * sizeof(*t->params)) : NULL;
	t->nr_params = n;
	return t->params;
}

void type_db_set_ref(struct type_db *db, uint64_t ref, const struct type *t)
{
	hashmap_put(&db->refs, ref, (void *)t);
}

const struct type *type_db_by_ref(const struct type_db *db, uint64_t ref)
{
	return hashmap_get(&db->refs, ref);
}

void type_db_set_only(struct type_db *db, const char *const *only)
{
	size_t n = 0, i;

	while (only && only[n])
		n++;
	db->only = xcalloc(n + 1, sizeof(*db->only));
	for (i = 0; i < n; i++)
		db->only[i] = xstrdup(only[i]);
}

bool type_db_wants(const struct type_db *db, const char *name)
{
	return type_name_wanted((const char *const *)db->only, name);
}

bool type_db_wants_typedef(const struct type_db *db, const char *name)
{
	size_t i;

	for (i = 0; db->only && name && db->only[i]; i++)
		if (!strcmp(db->only[i], name))
			return true;
	return false;
}

const struct type *type_db_find_typedef(const struct type_db *db, const char *name)
{
	size_t i;

	for (i = 0; i < db->nr_types; i++)
		if (db->types[i]->kind == TYPE_TYPEDEF && db->types[i]->name &&
		    !strcmp(db->types[i]->name, name))
			return db->types[i];
	return NULL;
}

void type_db_absorb(struct type_db *dst, struct type_db *src)
{
	size_t i, iter = 0;
	uint64_t key;
	void *val;

	arena_splice(&dst->arena, &src->arena);
	dst->types = xgrow(dst->types, &dst->alloc_types, dst->nr_types + src->nr_types,
			   sizeof(*dst->types));
	for (i = 0; i < src->nr_types; i++)
		dst->types[dst->nr_types++] = src->types[i];
	src->nr_types = 0;
	while (hashmap_next(&src->refs, &iter, &key, &val))
		hashmap_put(&dst->refs, key, val);
	for (i = 0; i < src->nr_keep; i++)
		type_db_keep(dst, src->keep[i].release, src->keep[i].arg);
	src->nr_keep = 0;
	type_db_free(src);
}

const char *type_db_source(const struct type_db *db)
{
	return db->source;
}

const char *type_db_path(const struct type_db *db)
{
	return db->path;
}

/* --- the index of named structs and unions ------------------------------ */

static bool is_indexed(const struct type *t)
{
	return (t->kind == TYPE_STRUCT || t->kind == TYPE_UNION) && t->name;
}

#define ON_PATH ((void *)1)
#define CHECKED ((void *)2)

/*
 * Whether t holds itself by value, through members, arrays and typedefs
 * (pointers end a path); *culprit is the innermost struct on the cycle.
 * Depth-first, seen marks each aggregate ON_PATH while its members are
 * walked.
 */
static bool holds_itself(struct hashmap *seen, const struct type *t, unsigned int depth,
			 const struct type **culprit)
{
	void *state = hashmap_get(seen, (uintptr_t)t);
	uint32_t i;

	if (state == ON_PATH || depth > 512)
		return true;
	if (state == CHECKED)
		return false;
	hashmap_put(seen, (uintptr_t)t, ON_PATH);
	for (i = 0; i < t->nr_members; i++) {
		const struct type *mt = type_strip(t->members[i].type);
		unsigned int n = 0;

		while (mt && mt->kind == TYPE_ARRAY && n++ < TYPE_MAX_DEPTH)
			mt = type_strip(mt->target);
		if (mt && type_is_aggregate(mt) && holds_itself(seen, mt, depth + 1, culprit)) {
			*culprit = *culprit ? *culprit : t;
			return true;
		}
	}
	hashmap_put(seen, (uintptr_t)t, CHECKED);
	return false;
}

const struct type *type_db_self_container(const struct type_db *db)
{
	const struct type *culprit = NULL;
	struct hashmap seen;
	size_t i;

	hashmap_init(&seen);
	for (i = 0; i < db->nr_types && !culprit; i++)
		if ((db->types[i]->kind == TYPE_STRUCT || db->types[i]->kind == TYPE_UNION) &&
		    holds_itself(&seen, db->types[i], 0, &culprit))
			culprit = culprit ? culprit : db->types[i];
	hashmap_release(&seen);
	return culprit;
}

struct index_entry {
	const struct type *t;
	size_t order;
};

static int index_cmp(const void *a, const void *b)
{
	const struct index_entry *x = a, *y = b;
	int c = strcmp(x->t->name, y->t->name);

	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

void type_db_finish(struct type_db *db)
{
	struct index_entry *entries;
	size_t i, n = 0, group;

	entries = xmalloc((db->nr_types + 1) * sizeof(*entries));
	for (i = 0; i < db->nr_types; i++) {
		type_note_typedef(db->types[i]); /* models built by hand too */
		if (is_indexed(db->types[i]) && type_db_wants(db, db->types[i]->name)) {
			entries[n].t = db->types[i];
			entries[n].order = i;
			n++;
		}
	}
	qsort(entries, n, sizeof(*entries), index_cmp);
	free(db->index);
	db->index = xmalloc((n + 1) * sizeof(*db->index));
	db->nr_index = 0;
	for (i = 0, group = 0; i < n; i++) {
		size_t j;
		bool dup = false;

		if (i && strcmp(entries[i].t->name, entries[i - 1].t->name))
			group = db->nr_index;
		for (j = group; j < db->nr_index && !dup; j++)
			dup = type_struct_equal(db->index[j], entries[i].t);
		if (!dup)
			db->index[db->nr_index++] = entries[i].t;
	}
	free(entries);
}

size_t type_db_nr_structs(const struct type_db *db)
{
	return db->nr_index;
}

const struct type *type_db_struct(const struct type_db *db, size_t i)
{
	return i < db->nr_index ? db->index[i] : NULL;
}

/* First index entry whose name is >= name. */
static size_t index_lower_bound(const struct type_db *db, const char *name)
{
	size_t lo = 0, hi = db->nr_index;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(db->index[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct type *type_db_find(const struct type_db *db, const char *name)
{
	size_t i = index_lower_bound(db, name);

	if (i < db->nr_index && !strcmp(db->index[i]->name, name))
		return db->index[i];
	return NULL;
}

size_t type_db_find_all(const struct type_db *db, const char *name, const struct type **out,
			size_t max)
{
	size_t i = index_lower_bound(db, name), n = 0;

	for (; i < db->nr_index && !strcmp(db->index[i]->name, name); i++, n++)
		if (n < max)
			out[n] = db->index[i];
	return n;
}

const char *type_db_suggest(const struct type_db *db, const char *name)
{
	struct similar s;
	size_t i;

	similar_init(&s, name);
	for (i = 0; i < db->nr_index; i++) {
		if (i && !strcmp(db->index[i]->name, db->index[i - 1]->name))
			continue;
		if (similar_offer(&s, db->index[i]->name))
			break;
	}
	return similar_done(&s);
}
