// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope check: verify layout rules against a binary, a BTF file, a saved
 * JSON baseline or the running kernel. Exit 0 when every rule holds, 1 on a
 * violation, 2 on bad input (including rules that name missing members).
 */
#include "cmd.h"
#include "typeargs.h"
#include "gate/gate.h"
#include "layout/layout.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD "check"

enum check_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_JUNIT, FORMAT_SARIF };

struct check_args {
	struct type_args ta; /* -C: --kernel-groups only these; --kernel, ... */
	struct cmd_strlist rules;
	bool kernel_groups, show_passed;
	unsigned int cacheline_size;
	enum check_format format;
	const char *target;
};

static const struct cmd_usage usage = {
	.synopsis = "c2cscope check --rules FILE [--rules FILE...] [OPTIONS] TARGET\n"
		    "c2cscope check --kernel-groups [-C STRUCT...] [OPTIONS] TARGET",
	.description = "TARGET is an ELF file with DWARF, a BTF file, a saved 'c2cscope layout\n"
		       "--format json' baseline, or --kernel for the running kernel's BTF.",
	.epilogue = "Exit status: 0 every rule holds, 1 a rule is violated, 2 bad input.\n"
		    "With GITHUB_ACTIONS=true each violation is also an ::error annotation.",
};

static int check_args(struct check_args *a, int argc, char **argv, int argi)
{
	static const char *const formats[] = { "text", "json", "junit", "sarif", NULL };
	int fmt = type_args_format(CMD, &a->ta, formats);

	if (fmt < 0 || type_args_check(CMD, &a->ta, argc - argi))
		return EXIT_BAD_INPUT;
	a->format = (enum check_format)fmt;
	a->cacheline_size = type_args_cacheline(&a->ta, 64);
	if (argi < argc)
		a->target = argv[argi++];
	if (argi < argc)
		return cmd_error(CMD, "one TARGET only; '%s' is one too many", argv[argi]);
	if (!a->target && !a->ta.kernel)
		return cmd_error(CMD, "give one TARGET (ELF, BTF or JSON baseline) or --kernel");
	if (!a->rules.nr && !a->kernel_groups)
		return cmd_error(CMD, "nothing to check: give --rules FILE or --kernel-groups");
	return 0;
}

/* 0 to go on, CMD_PARSE_HELP/CMD_PARSE_ERROR, or an exit code after a message. */
static int parse_args(int argc, char **argv, struct check_args *a)
{
	const struct cmd_option opts[] = {
		OPT_STRING_LIST('r', "rules", &a->rules, "FILE",
				"layout rules (see c2cscope-rules(5)); repeatable"),
		OPT_FLAG('g', "kernel-groups", &a->kernel_groups,
			 "check every __cacheline_group_begin__/end__ group\n"
			 "(of the -C structs only, when given)"),
		OPT_FLAG('a', "show-passed", &a->show_passed, "text: list the rules that hold too"),
		TYPE_OPTIONS(&a->ta, "text (default), json, junit or sarif"),
		OPT_END(),
	};
	int argi = cmd_parse_options(CMD, &usage, opts, a, argc, argv, 0);

	return argi < 0 ? argi : check_args(a, argc, argv, argi);
}

static void excerpt(struct strbuf *sb, const struct gate_outcome *o, unsigned int cl, void *db)
{
	struct layout_print_opts po = { .cacheline_size = cl };

	if (!o->type)
		return;
	/* like pahole, no "Force padding" block where alignment is not known */
	po.btf = strcmp(type_db_source(db), "DWARF") != 0;
	layout_lines_range(&po, cl, o->first_line, o->last_line);
	layout_print(sb, o->type, &po);
}

/* The structs the rules and -C name: loaders may skip everything else. */
static const char **load_filter(const struct ruleset *rs, const struct check_args *a)
{
	const char **names;
	size_t n = 0, i;

	if (a->kernel_groups && !a->ta.structs.nr)
		return NULL; /* every struct may have groups */
	names = gate_rule_structs(rs);
	while (names[n])
		n++;
	for (i = 0; i < a->ta.structs.nr; i++)
		cmd_add_arg(&names, &n, a->ta.structs.items[i]);
	return names;
}

static int report(const struct gate_result *res, const struct check_args *a, struct type_db *db)
{
	struct gate_report_opts ro = {
		.excerpt = excerpt,
		.excerpt_arg = db,
		.show_passed = a->show_passed,
	};
	struct strbuf sb = STRBUF_INIT, gh = STRBUF_INIT;
	const char *env = getenv("GITHUB_ACTIONS");
	int ret = 0;

	ro.target = a->ta.kernel ? "the running kernel's BTF" : a->target;
	if (a->format == FORMAT_TEXT)
		gate_report_text(&sb, res, &ro);
	else if (a->format == FORMAT_JSON)
		ret = gate_report_json(&sb, res, &ro);
	else if (a->format == FORMAT_JUNIT)
		gate_report_junit(&sb, res, &ro);
	else
		ret = gate_report_sarif(&sb, res, &ro);
	if (ret) {
		strbuf_release(&sb);
		return cmd_error(CMD, "this format needs jansson (built without it)");
	}
	fputs(sb.buf, stdout);
	if (env && !strcmp(env, "true")) {
		/* annotations go where they cannot spoil a machine-readable stdout */
		gate_report_github(&gh, res);
		fputs(gh.buf, a->format == FORMAT_TEXT ? stdout : stderr);
	}
	strbuf_release(&sb);
	strbuf_release(&gh);
	if (res->nr_error)
		return EXIT_BAD_INPUT;
	return res->nr_fail ? EXIT_CHECK_FAILED : EXIT_OK;
}

static int run_check(struct check_args *a, struct ruleset *rs)
{
	struct type_load_opts lo = { 0 };
	struct gate_opts go = { .cacheline_size = a->cacheline_size };
	struct type_db *db = NULL;
	struct gate_result res;
	struct err_msg err = { 0 };
	size_t i;
	int ret;

	for (i = 0; i < a->rules.nr; i++)
		if (ruleset_parse_file(rs, a->rules.items[i], &err))
			return cmd_report_err(CMD, &err);
	lo.only = load_filter(rs, a);
	ret = type_args_load(CMD, &a->ta, a->target, &lo, &db);
	free((void *)lo.only);
	if (ret)
		return ret;
	if (a->kernel_groups && !gate_add_kernel_groups(rs, db, a->ta.structs.items))
		cmd_warn(CMD, "no __cacheline_group_begin__ markers in %s",
			 a->target ? a->target : "the kernel's BTF");
	if (gate_check(rs, db, &go, &res, &err)) {
		type_db_free(db);
		return cmd_report_err(CMD, &err);
	}
	ret = report(&res, a, db);
	gate_result_release(&res);
	type_db_free(db);
	return ret;
}

int cmd_check(int argc, char **argv)
{
	struct check_args a = { .ta.cmd = CMD };
	struct ruleset *rs;
	int ret = parse_args(argc, argv, &a);

	if (ret < 0) {
		ret = cmd_options_exit(ret);
	} else if (!ret) {
		rs = ruleset_new();
		ret = run_check(&a, rs);
		ruleset_free(rs);
	}
	free(a.rules.items);
	type_args_release(&a.ta);
	return ret;
}
