// SPDX-License-Identifier: GPL-2.0
/*
 * How types are named and how -C names and globs select them, written once
 * for every loader and command: the glob rules (below types.c, whose
 * only-list uses them), and the name of an anonymous struct or union that
 * a typedef names.
 */
#include "types/types.h"
#include "types/types_internal.h"

#include <fnmatch.h>
#include <string.h>

bool type_name_is_glob(const char *pat)
{
	return strpbrk(pat, "*?[\\") != NULL;
}

bool type_name_matches(const char *pat, const char *name)
{
	if (!name)
		return false;
	/* Plain names (the common -C case) skip fnmatch's cost. */
	return type_name_is_glob(pat) ? !fnmatch(pat, name, 0) : !strcmp(pat, name);
}

bool type_name_wanted(const char *const *globs, const char *name)
{
	if (!globs)
		return true;
	for (; *globs; globs++)
		if (type_name_matches(*globs, name))
			return true;
	return false;
}

const char *type_aggregate_name(const struct type *t)
{
	if (!t)
		return NULL;
	return t->name ? t->name : t->typedef_name;
}

void type_note_typedef(const struct type *td)
{
	const struct type *s;

	if (td->kind != TYPE_TYPEDEF || !td->name)
		return;
	s = type_strip_cv(td->target);
	if (s && (s->kind == TYPE_STRUCT || s->kind == TYPE_UNION) && !s->name && !s->typedef_name)
		((struct type *)s)->typedef_name = td->name; /* the loader owns s */
}

const struct type *type_db_find_aggregate(const struct type_db *db, const char *name)
{
	const struct type *t = type_db_find(db, name), *td;

	if (t)
		return t;
	td = type_db_find_typedef(db, name);
	t = td ? type_strip(td) : NULL;
	return t && (t->kind == TYPE_STRUCT || t->kind == TYPE_UNION) ? t : NULL;
}

void type_format_aggregate(struct strbuf *sb, const struct type *t)
{
	const char *keyword = t && t->kind == TYPE_UNION ? "union " : "struct ";

	if (t && !t->name && t->typedef_name)
		strbuf_addstr(sb, t->typedef_name);
	else
		strbuf_addf(sb, "%s%s", keyword, t && t->name ? t->name : "(anonymous)");
}
