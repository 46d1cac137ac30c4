// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope diff: compare struct layouts between two builds, or a build and
 * a saved JSON baseline, in cache-line terms. Exit 1 when a --fail-on
 * policy trips or a --rules rule is violated in NEW, else 0; 2 on bad input.
 */
#include "config.h"
#include "cmd.h"
#include "typeargs.h"
#include "gate/gate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD "diff"

struct diff_args {
	struct type_args ta; /* -C: compare only these; --kernel: NEW; ... */
	const char *old, *new; /* new NULL: the running kernel */
	struct cmd_strlist rules;
	unsigned int fail_on;
	unsigned int cacheline_size;
	bool json;
};

static const struct cmd_usage usage = {
	.synopsis = "c2cscope diff [OPTIONS] OLD NEW\n"
		    "c2cscope diff [OPTIONS] --kernel OLD",
	.description = "OLD and NEW are ELF files with DWARF, BTF files or saved 'c2cscope layout\n"
		       "--format json' baselines, in any combination; with --kernel, NEW is the\n"
		       "running kernel's BTF.",
	.epilogue = "Exit status: 0 no policy tripped and the rules hold, 1 otherwise, 2 bad\n"
		    "input.",
};

static int opt_fail_on(const struct cmd_option *opt, const char *arg, void *ctx)
{
	struct diff_args *a = ctx;
	struct err_msg err = { 0 };

	return diff_parse_fail_on(arg, &a->fail_on, &err) ? cmd_report_err(CMD, &err) : 0;
}

static int check_args(struct diff_args *a, int nr, char **layouts)
{
	static const char *const formats[] = { "text", "json", NULL };
	int fmt = type_args_format(CMD, &a->ta, formats);

	if (fmt < 0 || type_args_check(CMD, &a->ta, 0))
		return EXIT_BAD_INPUT;
	a->json = fmt == 1;
	a->cacheline_size = type_args_cacheline(&a->ta, 64);
	if (a->ta.kernel && nr != 1)
		return cmd_error(CMD, "with --kernel, give one layout, OLD; see --help");
	if (!a->ta.kernel && nr != 2)
		return cmd_error(CMD, "expected two layouts, OLD and NEW; see --help");
	a->old = layouts[0];
	a->new = a->ta.kernel ? NULL : layouts[1];
	return 0;
}

/* 0 to go on, CMD_PARSE_HELP/CMD_PARSE_ERROR, or an exit code after a message. */
static int parse_args(int argc, char **argv, struct diff_args *a)
{
	const struct cmd_option opts[] = {
		OPT_CALLBACK('F', "fail-on", "LIST",
			     "exit 1 on: size-growth, new-shared-line,\n"
			     "hole-growth, moved (comma-separated) or all",
			     opt_fail_on),
		OPT_STRING_LIST('r', "rules", &a->rules, "FILE",
				"also check these rules on NEW; repeatable"),
		TYPE_OPTIONS(&a->ta, "text (default) or json"),
		OPT_END(),
	};
	int argi = cmd_parse_options(CMD, &usage, opts, a, argc, argv, 0);

	return argi < 0 ? argi : check_args(a, argc - argi, argv + argi);
}

static int check_rules(const struct diff_args *a, const struct type_db *db, struct gate_result *res,
		       struct ruleset *rs)
{
	struct gate_opts go = { .cacheline_size = a->cacheline_size };
	struct err_msg err = { 0 };
	size_t i;

	for (i = 0; i < a->rules.nr; i++)
		if (ruleset_parse_file(rs, a->rules.items[i], &err))
			return cmd_report_err(CMD, &err);
	if (gate_check(rs, db, &go, res, &err))
		return cmd_report_err(CMD, &err);
	return 0;
}

static int output(const struct diff_args *a, const struct layout_diff *d,
		  const struct gate_result *rules)
{
	struct diff_report_opts o = {
		.old = a->old,
		.new = type_args_file(a->new),
		.fail_on = a->fail_on,
		.rules = a->rules.nr ? rules : NULL,
	};
	struct strbuf sb = STRBUF_INIT;

	if (!a->json)
		diff_report_text(&sb, d, &o);
	else if (diff_report_json(&sb, d, &o))
		return cmd_error(CMD, "--format json needs jansson (built without it)");
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
	if (rules->nr_error)
		return EXIT_BAD_INPUT;
	return diff_any_trips(d, a->fail_on) || rules->nr_fail ? EXIT_CHECK_FAILED : EXIT_OK;
}

static int run_diff(const struct diff_args *a)
{
	struct type_load_opts lo = { .only = a->ta.structs.items };
	struct layout_diff_opts dopts = { .cacheline_size = a->cacheline_size,
					  .only = a->ta.structs.items };
	struct type_db *old = NULL, *new = NULL;
	struct gate_result rules = { 0 };
	struct ruleset *rs = ruleset_new();
	struct layout_diff d = { 0 };
	struct err_msg err = { 0 };
	int ret;

	if (a->rules.nr)
		lo.only = NULL; /* the rules may name any struct */
	ret = type_args_load(CMD, &a->ta, a->old, &lo, &old);
	if (!ret)
		ret = type_args_load(CMD, &a->ta, a->new, &lo, &new);
	if (!ret && gate_diff_compute(old, new, &dopts, &d, &err))
		ret = cmd_report_err(CMD, &err);
	if (!ret && a->rules.nr)
		ret = check_rules(a, new, &rules, rs);
	if (!ret)
		ret = output(a, &d, &rules);
	gate_result_release(&rules);
	gate_diff_release(&d);
	ruleset_free(rs);
	type_db_free(old);
	type_db_free(new);
	return ret;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_args a = { .ta.cmd = CMD };
	int ret = parse_args(argc, argv, &a);

	if (ret < 0)
		ret = cmd_options_exit(ret);
	else if (!ret)
		ret = run_diff(&a);
	free(a.rules.items);
	type_args_release(&a.ta);
	return ret;
}
