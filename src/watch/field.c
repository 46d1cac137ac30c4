// SPDX-License-Identifier: GPL-2.0
/*
 * FIELD names to addresses through the type model: var.field[.sub] and
 * var[3].field of a global or static (src/attrib finds the variable),
 * TYPE.field@ADDR, ADDR/LEN, and for the kernel SYMBOL[/LEN] from kallsyms.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/similar.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "watch/watch_int.h"

void watch_bp_window(uint64_t addr, uint64_t size, uint64_t *bp_addr, uint32_t *bp_len,
		     bool *partial)
{
	uint32_t len;

	*partial = false;
	if (!size)
		size = 1;
	for (len = 1; len <= 8; len *= 2) {
		uint64_t start = addr & ~(uint64_t)(len - 1);

		if (start + len >= addr + size) {
			*bp_addr = start;
			*bp_len = len;
			return;
		}
	}
	/* Larger than a debug register covers: its first aligned 8 bytes. */
	*bp_addr = addr & ~7ULL;
	*bp_len = 8;
	*partial = true;
}

static void offer_members(struct similar *s, const struct type *t)
{
	uint32_t i;

	for (i = 0; i < t->nr_members; i++) {
		const struct type *mt = type_strip(t->members[i].type);

		if (t->members[i].name)
			similar_offer(s, t->members[i].name);
		else if (mt && (mt->kind == TYPE_STRUCT || mt->kind == TYPE_UNION))
			offer_members(s, mt);
	}
}

static int no_member(const char *spec, const struct type *t, const char *name, struct err_msg *err)
{
	struct strbuf tn = STRBUF_INIT;
	const char *best;
	struct similar s;
	int ret;

	similar_init(&s, name);
	offer_members(&s, t);
	best = similar_done(&s);
	type_format_name(&tn, t);
	if (best)
		ret = err_set(err, ENOENT, "%s: %s has no field '%s'; did you mean '%s'?", spec,
			      tn.buf, name, best);
	else
		ret = err_set(err, ENOENT, "%s: %s has no field '%s'", spec, tn.buf, name);
	strbuf_release(&tn);
	return ret;
}

/* Walk ".a.b[3].c" from type t (type_member_path); adds to *off, leaves the field's type in *t. */
static int walk_path(const char *spec, const char *path, const struct type **t, uint64_t *off,
		     struct err_msg *err)
{
	struct type_path p;
	char *name;
	int ret;

	if (!type_member_path(*t, path, &p)) {
		*off += p.start;
		*t = p.type;
		return 0;
	}
	switch (p.error) {
	case TYPE_PATH_NOT_ARRAY:
		return err_set(err, EINVAL, "%s: at '%s': not a one-dimensional array", spec, p.at);
	case TYPE_PATH_EXPECTED_INDEX:
		return err_set(err, EINVAL, "%s: at '%s': expected [NUMBER]", spec, p.at);
	case TYPE_PATH_INDEX_RANGE:
		return err_set(err, ERANGE, "%s: index %llu is past the array's %llu elements",
			       spec, (unsigned long long)p.index,
			       (unsigned long long)p.in->dims[0]);
	case TYPE_PATH_EXPECTED_NAME:
		return err_set(err, EINVAL, "%s: at '%s': expected a field name", spec, p.at);
	case TYPE_PATH_NOT_AGGREGATE:
		return err_set(err, EINVAL, "%s: '%.*s' is not inside a struct or union", spec,
			       (int)p.len, p.at);
	case TYPE_PATH_NO_MEMBER:
		name = xstrndup(p.at, p.len);
		ret = no_member(spec, type_strip(p.in), name, err);
		free(name);
		return ret;
	default:
		return err_set(err, EINVAL, "%s: at '%s': expected .field or [N]", spec, p.at);
	}
}

static void set_field(struct watch_field *f, uint64_t addr, const struct type *t)
{
	struct strbuf tn = STRBUF_INIT;

	f->addr = addr;
	f->size = t ? type_size(t) : f->size;
	if (t) {
		type_format_name(&tn, t);
		f->type_name = strbuf_detach(&tn, NULL);
	}
	watch_bp_window(f->addr, f->size, &f->bp_addr, &f->bp_len, &f->partial);
}

static int resolve_addr_len(const char *spec, struct watch_field *f, struct err_msg *err)
{
	char *end;
	unsigned long long addr = strtoull(spec, &end, 0), len;

	if (end == spec || *end != '/')
		return err_set(err, EINVAL, "%s: expected ADDR/LEN", spec);
	len = strtoull(end + 1, &end, 0);
	if (*end || !len || len > 8)
		return err_set(err, EINVAL, "%s: LEN must be 1 to 8 bytes", spec);
	f->size = len;
	set_field(f, addr, NULL);
	return 0;
}

static const struct type *find_type(const struct type_db *db, const char *name)
{
	const struct type *t;

	if (!strncmp(name, "struct ", 7))
		name += 7;
	else if (!strncmp(name, "union ", 6))
		name += 6;
	t = type_db_find(db, name);
	return t ? t : type_db_find_typedef(db, name);
}

/* TYPE.path@ADDR: an object of a known type at a known address. */
static int resolve_typed(struct watch *w, const char *spec, struct watch_field *f,
			 struct err_msg *err)
{
	const char *at = strrchr(spec, '@');
	size_t tlen = strcspn(spec, ".[");
	char *tname, *end, *path;
	const struct type *t;
	unsigned long long addr;
	uint64_t off = 0;
	int ret;

	addr = strtoull(at + 1, &end, 0);
	if (end == at + 1 || *end)
		return err_set(err, EINVAL, "%s: expected an address after '@'", spec);
	if (tlen > (size_t)(at - spec))
		tlen = at - spec;
	tname = xstrndup(spec, tlen);
	path = xstrndup(spec + tlen, at - spec - tlen);
	t = w->types ? find_type(w->types, tname) : NULL;
	if (!t) {
		struct strbuf sb = STRBUF_INIT;

		type_db_describe_missing(&sb,
					 w->types ? type_db_path(w->types) :
					 w->exe	  ? w->exe :
						    "the kernel's BTF",
					 tname, w->types);
		ret = err_set(err, ENOENT, "%s: %s", spec, sb.buf);
		strbuf_release(&sb);
	} else {
		ret = walk_path(spec, path, &t, &off, err);
		if (!ret)
			set_field(f, addr + off, t);
	}
	free(tname);
	free(path);
	return ret;
}

static int no_global(struct watch *w, const char *spec, const char *var, struct err_msg *err)
{
	const char *best = attrib_suggest_global(w->attrib, var);
	size_t i;

	for (i = 0; !best && i < w->nr_libs; i++)
		if (w->libs[i].attrib)
			best = attrib_suggest_global(w->libs[i].attrib, var);

	if (best)
		return err_set(err, ENOENT, "%s: no variable '%s' in %s; did you mean '%s'?", spec,
			       var, w->exe, best);
	return err_set(err, ENOENT, "%s: no global or static variable '%s' in %s or its libraries",
		       spec, var, w->exe);
}

/*
 * NAME in a library (a started target is run to its entry point first):
 * 0 with *lib set, -ENOENT when no library has it, else an error in err.
 */
static int find_in_libs(struct watch *w, const char *var, struct attrib_global *g,
			const struct watch_lib **lib, struct err_msg *err)
{
	int ret;

	*lib = watch_lib_find_global(w, var, g);
	if (!*lib && w->stopped && !w->at_entry) {
		ret = watch_target_to_entry(w, err);
		if (ret)
			return ret;
		*lib = watch_lib_find_global(w, var, g);
	}
	return *lib ? 0 : -ENOENT;
}

/* var.path: a global or static of the executable or one of its libraries. */
static int resolve_global(struct watch *w, const char *spec, struct watch_field *f,
			  struct err_msg *err)
{
	size_t vlen = strcspn(spec, ".[");
	char *var = xstrndup(spec, vlen);
	const struct watch_lib *lib = NULL;
	uint64_t off = 0, bias = w->bias;
	struct attrib_global g;
	const struct type *t;
	int ret;

	if (!w->attrib) {
		ret = err_set(err, EINVAL, "%s: variables need a target's executable", spec);
	} else if (attrib_find_global(w->attrib, var, &g) &&
		   (ret = find_in_libs(w, var, &g, &lib, err))) {
		if (ret == -ENOENT)
			ret = no_global(w, spec, var, err);
	} else if (!g.type && spec[vlen]) {
		ret = err_set(err, ENOENT, "%s: %s has no DWARF type (only its symbol)", spec, var);
	} else {
		t = g.type;
		f->size = g.size;
		ret = walk_path(spec, spec + vlen, &t, &off, err);
		if (lib)
			bias = lib->bias;
		if (!ret)
			set_field(f, g.addr + bias + off, t);
	}
	free(var);
	return ret;
}

/* SYMBOL[/LEN] of the running kernel, from /proc/kallsyms. */
static int resolve_ksym(const char *spec, struct watch_field *f, struct err_msg *err)
{
	size_t slen = strcspn(spec, "/");
	FILE *fp = fopen("/proc/kallsyms", "r");
	char line[512], name[256];
	unsigned long long addr;
	char kind;

	if (!fp)
		return err_set(err, errno, "/proc/kallsyms: %s", strerror(errno));
	f->size = spec[slen] ? strtoull(spec + slen + 1, NULL, 0) : 8;
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%llx %c %255s", &addr, &kind, name) != 3)
			continue;
		if (strlen(name) == slen && !strncmp(name, spec, slen) && addr) {
			fclose(fp);
			set_field(f, addr, NULL);
			return 0;
		}
	}
	fclose(fp);
	return err_set(err, ENOENT,
		       "%s: not in /proc/kallsyms (without CONFIG_KALLSYMS_ALL it lists "
		       "code only; give TYPE.field@ADDR)",
		       spec);
}

int watch_resolve(struct watch *w, const char *spec, struct watch_field *f, char **name,
		  struct err_msg *err)
{
	int ret;

	*f = (struct watch_field){ 0 };
	if (strchr(spec, '@'))
		ret = resolve_typed(w, spec, f, err);
	else if (isdigit((unsigned char)spec[0]))
		ret = resolve_addr_len(spec, f, err);
	else if (w->opts.kernel)
		ret = resolve_ksym(spec, f, err);
	else
		ret = resolve_global(w, spec, f, err);
	if (!ret) {
		*name = xstrdup(spec);
		f->name = *name;
	}
	return ret;
}
