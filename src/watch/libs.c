// SPDX-License-Identifier: GPL-2.0
/*
 * The target's shared libraries: their globals for var.field, and their
 * code for telling reads from writes. Each is opened (DWARF, symbol
 * table) the first time a field or a sample needs it; one without DWARF
 * is remembered as such.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "watch/watch_int.h"

static struct watch_lib *lib_open(struct watch *w, const char *path)
{
	struct attrib_opts ao = { 0 };
	struct watch_lib *l;
	size_t i;

	w->libs = xgrow(w->libs, &w->alloc_libs, w->nr_libs + 1, sizeof(*w->libs));
	l = &w->libs[w->nr_libs++];
	*l = (struct watch_lib){ .path = xstrdup(path) };
	if (type_db_load(path, NULL, &l->types, NULL))
		l->types = NULL;
	ao.types = l->types;
	if (attrib_open(path, &ao, &l->attrib, NULL)) {
		l->attrib = NULL;
		return l;
	}
	/* The bias from the mapping of the file's start. */
	for (i = 0; i < w->nr_maps; i++) {
		const struct perf_mmap *m = &w->maps[i];

		if (!strcmp(m->filename, path) &&
		    !attrib_load_bias(l->attrib, m->start, m->pgoff, &l->bias))
			break;
	}
	if (i == w->nr_maps) {
		attrib_close(l->attrib);
		l->attrib = NULL;
	}
	return l;
}

struct watch_lib *watch_lib_get(struct watch *w, const char *path)
{
	size_t i;

	if (!path || path[0] != '/' || (w->exe && !strcmp(path, w->exe)))
		return NULL;
	for (i = 0; i < w->nr_libs; i++)
		if (!strcmp(w->libs[i].path, path))
			return &w->libs[i];
	return lib_open(w, path);
}

const struct watch_lib *watch_lib_find_global(struct watch *w, const char *var,
					      struct attrib_global *g)
{
	size_t i;

	for (i = 0; i < w->nr_maps; i++) {
		const struct perf_mmap *m = &w->maps[i];
		struct watch_lib *l;

		if (!(m->prot & 4))
			continue;
		l = watch_lib_get(w, m->filename);
		if (l && l->attrib && !attrib_find_global(l->attrib, var, g))
			return l;
	}
	return NULL;
}

void watch_libs_free(struct watch *w)
{
	size_t i;

	for (i = 0; i < w->nr_libs; i++) {
		attrib_close(w->libs[i].attrib);
		type_db_free(w->libs[i].types);
		free(w->libs[i].path);
	}
	free(w->libs);
}
