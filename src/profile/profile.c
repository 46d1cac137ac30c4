// SPDX-License-Identifier: GPL-2.0
/*
 * Field access profiles and the hotness-file parser.
 */
#include "profile/profile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

/* The names an anonymous struct or union member makes visible, recursively. */
static void add_visible_names(struct strbuf *sb, const struct type *t)
{
	uint32_t i;

	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		const struct type *mt = type_strip(m->type);

		if (m->name)
			strbuf_addf(sb, "%s%s", sb->len ? ", " : "", m->name);
		else if (mt && (mt->kind == TYPE_STRUCT || mt->kind == TYPE_UNION))
			add_visible_names(sb, mt);
	}
}

/*
 * The field name of top-level member m: its own, or for an anonymous struct
 * or union (struct { atomic_long_t load_avg; } ____cacheline_aligned) what
 * it holds: "load_avg", or "{a, b}" when it holds several. NULL when it
 * holds no named member.
 */
static char *member_field_name(const struct type_member *m)
{
	const struct type *mt = type_strip(m->type);
	struct strbuf sb = STRBUF_INIT;

	if (m->name)
		return xstrdup(m->name);
	if (mt && (mt->kind == TYPE_STRUCT || mt->kind == TYPE_UNION))
		add_visible_names(&sb, mt);
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	if (strchr(sb.buf, ',')) {
		struct strbuf braced = STRBUF_INIT;

		strbuf_addf(&braced, "{%s}", sb.buf);
		strbuf_release(&sb);
		return strbuf_detach(&braced, NULL);
	}
	return strbuf_detach(&sb, NULL);
}

struct struct_profile *profile_new(const struct type *t)
{
	struct struct_profile *p = xcalloc(1, sizeof(*p));
	uint32_t i, n = 0;

	t = type_strip(t);
	p->struct_name = xstrdup(type_aggregate_name(t) ? type_aggregate_name(t) : "(anonymous)");
	p->fields = xcalloc(t->nr_members ? t->nr_members : 1, sizeof(*p->fields));
	for (i = 0; i < t->nr_members; i++) {
		char *name = member_field_name(&t->members[i]);

		if (!name)
			continue;
		p->fields[n].name = name;
		p->fields[n].cls = FIELD_COLD;
		n++;
	}
	p->nr_fields = n;
	return p;
}

void profile_free(struct struct_profile *p)
{
	uint32_t i;

	if (!p)
		return;
	for (i = 0; i < p->nr_fields; i++) {
		free((char *)p->fields[i].name);
		free(p->fields[i].reader_funcs);
		free(p->fields[i].writer_funcs);
	}
	for (i = 0; i < p->nr_contexts; i++)
		free(p->contexts[i]);
	free(p->fields);
	free(p->struct_name);
	free(p->origin);
	free(p);
}

/* Whether "{a, b}" (an anonymous member's field) holds name. */
static bool wrapper_holds(const char *field, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	if (field[0] != '{')
		return false;
	for (p = field + 1; *p; p += strspn(p, ", }")) {
		size_t n = strcspn(p, ", }");

		if (n == len && !memcmp(p, name, len))
			return true;
		p += n;
	}
	return false;
}

struct field_profile *profile_field(struct struct_profile *p, const char *name)
{
	uint32_t i;

	for (i = 0; i < p->nr_fields; i++)
		if (!strcmp(p->fields[i].name, name) || wrapper_holds(p->fields[i].name, name))
			return &p->fields[i];
	return NULL;
}

const struct field_profile *profile_field_const(const struct struct_profile *p, const char *name)
{
	return profile_field((struct struct_profile *)p, name);
}

const struct field_profile *profile_member_field(const struct struct_profile *p,
						 const struct type_member *m)
{
	char *name = member_field_name(m);
	const struct field_profile *f = name ? profile_field_const(p, name) : NULL;

	free(name);
	return f;
}

void profile_classify(struct struct_profile *p, uint64_t min_stores)
{
	uint32_t i;

	for (i = 0; i < p->nr_fields; i++) {
		struct field_profile *f = &p->fields[i];
		uint64_t acc = f->loads + f->stores;
		uint64_t hitm = f->hitm_local + f->hitm_remote;

		if (f->stores && ((f->stores * 100 >= acc && f->stores >= min_stores) || hitm))
			f->cls = FIELD_WRITE_HOT;
		else if (f->loads)
			f->cls = FIELD_READ_MOSTLY;
		else
			f->cls = FIELD_COLD;
	}
}

bool profile_field_conflict(const struct field_profile *a, const struct field_profile *b)
{
	uint64_t both;

	if (a == b || a->cls != FIELD_WRITE_HOT || b->cls == FIELD_COLD)
		return false;
	both = a->writers | field_accessors(b);
	/* Harmless only when one context does all of it. */
	return (both & (both - 1)) != 0;
}

bool profile_objects_share_lines(const struct struct_profile *p)
{
	uint32_t i;

	if (p->nr_objects < 2)
		return false;
	for (i = 0; i < p->nr_fields; i++)
		if (p->fields[i].hitm_true_known && p->fields[i].hitm_between)
			return true;
	return false;
}

uint64_t profile_hitm_inside(const struct struct_profile *p, const struct field_profile *f)
{
	uint64_t h = f->hitm_local + f->hitm_remote,
		 known = f->hitm_true + f->hitm_between + f->hitm_elements;

	if (!f->hitm_true_known || !profile_objects_share_lines(p))
		return h;
	return h > known ? h - known : 0;
}

bool profile_pairs_inside(const struct struct_profile *p, const struct field_profile *f)
{
	uint64_t inside = profile_hitm_inside(p, f);

	if (!profile_objects_share_lines(p))
		return true;
	return inside && inside * 100 >= f->hitm_local + f->hitm_remote;
}

/* --- hotness files ------------------------------------------------------ */

struct hot_parser {
	const char *path;
	unsigned int line;
	struct struct_profile *p;
	const char *want; /* struct name we are filling */
	bool in_block; /* lines apply to our struct */
	bool saw_struct; /* the file has struct blocks */
	bool found_block; /* a "struct NAME" line named ours */
	bool have_default;
	enum field_class default_cls;
	struct err_msg *err;
};

static int hot_error(struct hot_parser *hp, const char *what, const char *near)
{
	return err_set(hp->err, EINVAL, "%s:%u: %s%s%s%s", hp->path, hp->line, what,
		       near ? " (near '" : "", near ? near : "", near ? "')" : "");
}

static int parse_class(const char *word, enum field_class *cls)
{
	if (!strcmp(word, "read_mostly"))
		*cls = FIELD_READ_MOSTLY;
	else if (!strcmp(word, "read_write"))
		*cls = FIELD_WRITE_HOT;
	else if (!strcmp(word, "cold"))
		*cls = FIELD_COLD;
	else
		return -1;
	return 0;
}

/* The mask bit of a named context, added on first use. */
static int context_bit(struct hot_parser *hp, const char *name, uint64_t *mask)
{
	struct struct_profile *p = hp->p;
	uint32_t i;

	if (!strcmp(name, "all")) {
		*mask |= PROFILE_ALL_CONTEXTS;
		return 0;
	}
	for (i = 0; i < p->nr_contexts; i++) {
		if (!strcmp(p->contexts[i], name)) {
			*mask |= 1ULL << i;
			return 0;
		}
	}
	if (p->nr_contexts == PROFILE_MAX_CONTEXTS)
		return hot_error(hp, "more than 64 contexts", name);
	p->contexts[p->nr_contexts] = xstrdup(name);
	*mask |= 1ULL << p->nr_contexts++;
	return 0;
}

static int parse_contexts(struct hot_parser *hp, char *list, uint64_t *mask)
{
	char *save = NULL, *tok;
	int ret;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		ret = context_bit(hp, tok, mask);
		if (ret)
			return ret;
	}
	if (!*mask)
		return hot_error(hp, "ctx= needs at least one context", NULL);
	return 0;
}

static int field_line(struct hot_parser *hp, char **words, int nr)
{
	enum field_class cls;
	struct field_profile *f;
	uint64_t mask = 0;
	int i, ret;

	if (nr < 2)
		return hot_error(hp, "expected 'FIELD CLASS [ctx=A,B]'", words[0]);
	if (parse_class(words[1], &cls))
		return hot_error(hp, "expected read_mostly, read_write or cold", words[1]);
	for (i = 2; i < nr; i++) {
		if (strncmp(words[i], "ctx=", 4))
			return hot_error(hp, "expected ctx=LIST", words[i]);
		ret = parse_contexts(hp, words[i] + 4, &mask);
		if (ret)
			return ret;
	}
	if (!mask)
		mask = PROFILE_ALL_CONTEXTS;
	if (!strcmp(words[0], "*")) {
		hp->have_default = true;
		hp->default_cls = cls;
		return 0;
	}
	f = profile_field(hp->p, words[0]);
	if (!f)
		return hot_error(hp, "no such field in the struct", words[0]);
	f->cls = cls;
	f->readers = cls == FIELD_COLD ? 0 : mask;
	f->writers = cls == FIELD_WRITE_HOT ? mask : 0;
	/* Mark the field as listed (a cold field listed stays cold). */
	f->loads = cls == FIELD_COLD ? 0 : 1;
	f->stores = cls == FIELD_WRITE_HOT ? 1 : 0;
	return 0;
}

static int hot_line(struct hot_parser *hp, char *line)
{
	char *words[16], *save = NULL, *tok, *hash = strchr(line, '#');
	int nr = 0;

	if (hash)
		*hash = '\0';
	for (tok = strtok_r(line, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
		if (nr == (int)ARRAY_SIZE(words))
			return hot_error(hp, "too many words", tok);
		words[nr++] = tok;
	}
	if (!nr)
		return 0;
	if (!strcmp(words[0], "struct")) {
		if (nr != 2)
			return hot_error(hp, "expected 'struct NAME'", NULL);
		hp->saw_struct = true;
		hp->in_block = !strcmp(words[1], hp->want);
		hp->found_block |= hp->in_block;
		return 0;
	}
	if (hp->saw_struct && !hp->in_block)
		return 0;
	return field_line(hp, words, nr);
}

static void apply_default(struct hot_parser *hp)
{
	uint32_t i;

	if (!hp->have_default)
		return;
	for (i = 0; i < hp->p->nr_fields; i++) {
		struct field_profile *f = &hp->p->fields[i];

		if (f->loads || f->stores)
			continue;
		f->cls = hp->default_cls;
		if (hp->default_cls != FIELD_COLD) {
			f->readers = PROFILE_ALL_CONTEXTS;
			f->loads = 1;
		}
		if (hp->default_cls == FIELD_WRITE_HOT) {
			f->writers = PROFILE_ALL_CONTEXTS;
			f->stores = 1;
		}
	}
}

int profile_parse_hotness(const char *path, const struct type *t, struct struct_profile **out,
			  struct err_msg *err)
{
	struct hot_parser hp = { .path = path, .err = err };
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int ret = 0;

	t = type_strip(t);
	f = fopen(path, "r");
	if (!f)
		return err_set(err, errno, "%s: %s", path, strerror(errno));
	hp.p = profile_new(t);
	hp.want = hp.p->struct_name;
	while (getline(&line, &cap, f) > 0) {
		hp.line++;
		ret = hot_line(&hp, line);
		if (ret)
			break;
	}
	free(line);
	fclose(f);
	if (!ret && hp.saw_struct && !hp.found_block)
		ret = err_set(err, ENOENT, "%s: no 'struct %s' block", path, hp.want);
	if (ret) {
		profile_free(hp.p);
		return ret;
	}
	apply_default(&hp);
	{
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "hotness file %s", path);
		hp.p->origin = strbuf_detach(&sb, NULL);
	}
	*out = hp.p;
	return 0;
}
