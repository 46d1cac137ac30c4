// SPDX-License-Identifier: GPL-2.0
/*
 * The type-reading options and the loading every such command shares
 * (typeargs.h).
 */
#include "typeargs.h"
#include "cmd.h"

#include <stdlib.h>
#include <string.h>

#include "c2c/c2c_attrib.h"
#include "c2c/c2c_session.h"
#include "gate/gate.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

int type_opt_struct(const struct cmd_option *opt, const char *arg, void *ctx)
{
	struct type_args *ta = (struct type_args *)opt->data;
	const char *p = arg;

	while (*p) {
		size_t len = strcspn(p, ",");

		if (len)
			cmd_add_arg(&ta->structs.items, &ta->structs.nr, xstrndup(p, len));
		p += len + (p[len] == ',');
	}
	return 0;
}

int type_opt_source(const struct cmd_option *opt, const char *arg, void *ctx)
{
	struct type_args *ta = (struct type_args *)opt->data;

	ta->source = !strcmp(opt->long_name, "btf") ? TYPE_SOURCE_BTF : TYPE_SOURCE_DWARF;
	return 0;
}

/* --cacheline-size: a power of two from 8 to 4096. */
int type_opt_cacheline(const struct cmd_option *opt, const char *arg, void *ctx)
{
	struct type_args *ta = (struct type_args *)opt->data;
	uint64_t v;

	if (cmd_parse_number(ta->cmd, "--cacheline-size", arg, 0, UINT64_MAX, &v))
		return EXIT_BAD_INPUT;
	if (v < 8 || v > 4096 || (v & (v - 1)))
		return cmd_error(ta->cmd,
				 "--cacheline-size expects a power of two from 8 to 4096, not %s",
				 arg);
	ta->cacheline_size = (unsigned int)v;
	return 0;
}

int type_args_check(const char *cmd, const struct type_args *ta, int nr_files)
{
	if (ta->kernel && nr_files)
		return cmd_error(cmd, "--kernel reads the running kernel's types: give no FILE "
				      "for them");
	if (ta->kernel && ta->source == TYPE_SOURCE_DWARF)
		return cmd_error(cmd, "--kernel reads BTF: it does not take --dwarf");
	return 0;
}

int type_args_format(const char *cmd, const struct type_args *ta, const char *const *names)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, n = 0;

	if (!ta->format)
		return 0;
	while (names[n])
		n++;
	for (i = 0; i < n; i++)
		if (!strcmp(ta->format, names[i]))
			return (int)i;
	for (i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", names[i]);
	cmd_error(cmd, "--format expects %s, not '%s'", sb.buf, ta->format);
	strbuf_release(&sb);
	return -1;
}

unsigned int type_args_cacheline(const struct type_args *ta, unsigned int default_size)
{
	return ta->cacheline_size ? ta->cacheline_size : default_size;
}

const char *type_args_file(const char *file)
{
	return file ? file : TYPE_ARGS_KERNEL_BTF;
}

int type_args_load(const char *cmd, const struct type_args *ta, const char *file,
		   const struct type_load_opts *opts, struct type_db **out)
{
	struct type_load_opts lo = { 0 };
	struct err_msg err = { 0 };

	if (opts)
		lo = *opts;
	lo.source = ta->source;
	if (baseline_load_any(file, &lo, out, &err))
		return cmd_report_err(cmd, &err);
	return 0;
}

int type_args_missing(const char *cmd, const struct type_args *ta, const char *file,
		      const char *pattern)
{
	struct type_load_opts lo = { .source = ta->source, .skip_decl = true };
	struct strbuf sb = STRBUF_INIT;
	struct err_msg err = { 0 };
	struct type_db *all = NULL;
	int ret;

	if (type_name_is_glob(pattern))
		return cmd_error(cmd, "%s: no struct or union matches '%s'", type_args_file(file),
				 pattern);
	if (baseline_load_any(file, &lo, &all, &err))
		all = NULL;
	type_db_describe_missing(&sb, type_args_file(file), pattern, all);
	ret = cmd_error(cmd, "%s", sb.buf);
	strbuf_release(&sb);
	type_db_free(all);
	return ret;
}

int type_args_load_struct(const char *cmd, const struct type_args *ta, const char *file,
			  const char *name, struct type_db **db, const struct type **t)
{
	const char *only[] = { name, NULL };
	struct type_load_opts lo = { .only = only };
	int ret = type_args_load(cmd, ta, file, &lo, db);

	if (ret)
		return ret;
	*t = type_db_find_aggregate(*db, name);
	return *t ? 0 : type_args_missing(cmd, ta, file, name);
}

int type_args_load_profile(const char *cmd, const struct type_args *ta, const char *file,
			   const char *name, struct profiled *out)
{
	struct err_msg err = { 0 };
	int ret;

	struct c2c_kernel_files kf = { .vmlinux = ta->vmlinux,
				       .kallsyms = ta->kallsyms,
				       .debug = ta->kernel_debug.items,
				       .nr_debug = ta->kernel_debug.nr };

	memset(out, 0, sizeof(*out));
	if (c2c_session_load_profile(ta->profile, &kf, &out->session, &err))
		return cmd_report_err(cmd, &err);
	if (file || ta->kernel) {
		ret = type_args_load_struct(cmd, ta, file, name, &out->db, &out->type);
		if (ret)
			return ret;
	} else {
		out->type = c2c_attrib_find_type(out->session->attrib, name);
		if (!out->type)
			return cmd_error(cmd,
					 "%s: no sample was attributed to struct %s; give the "
					 "binary that defines it",
					 ta->profile, name);
	}
	out->profile = c2c_profile_from_session(out->session, out->session->attrib, out->type);
	return 0;
}

void profiled_release(struct profiled *p)
{
	profile_free(p->profile);
	type_db_free(p->db);
	c2c_session_free(p->session);
	memset(p, 0, sizeof(*p));
}

void type_args_release(struct type_args *ta)
{
	size_t i;

	for (i = 0; i < ta->structs.nr; i++)
		free((char *)ta->structs.items[i]);
	free(ta->structs.items);
	ta->structs.items = NULL;
	ta->structs.nr = 0;
	free(ta->kernel_debug.items);
	ta->kernel_debug.items = NULL;
	ta->kernel_debug.nr = 0;
}
