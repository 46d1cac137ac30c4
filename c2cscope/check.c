// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope check: verify layout rules against a binary, a BTF file, a saved
 * JSON baseline or the running kernel. Exit 0 when every rule holds, 1 on a
 * violation, 2 on bad input (including rules that name missing members).
 */
#include "cmd.h"
#include "gate/gate.h"
#include "layout/layout.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum check_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_JUNIT, FORMAT_SARIF };

struct check_args {
	const char **rules;
	size_t nr_rules;
	const char **only; /* -C globs, NULL-terminated */
	size_t nr_only;
	bool kernel, kernel_groups, show_passed;
	unsigned int cacheline_size;
	enum check_format format;
	const char *target;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: c2cscope check --rules FILE [--rules FILE...] [OPTIONS] TARGET\n"
		"       c2cscope check --kernel-groups [-C STRUCT...] [OPTIONS] TARGET\n"
		"\n"
		"TARGET is an ELF file with DWARF, a BTF file, a saved 'c2cscope layout\n"
		"--format json' baseline, or --kernel for the running kernel's BTF.\n"
		"\n"
		"  -r, --rules FILE          layout rules (see c2cscope-rules(5)); repeatable\n"
		"  -k, --kernel              check the running kernel's BTF\n"
		"  -g, --kernel-groups       check every __cacheline_group_begin__/end__ group\n"
		"  -C, --struct GLOB         --kernel-groups: only these structs; repeatable\n"
		"  -l, --cacheline-size N    cache-line size in bytes (default 64)\n"
		"  -f, --format FMT          text (default), json, junit or sarif\n"
		"  -a, --show-passed         text: list the rules that hold too\n"
		"  -h, --help                this help\n"
		"\n"
		"Exit status: 0 every rule holds, 1 a rule is violated, 2 bad input.\n"
		"With GITHUB_ACTIONS=true each violation is also an ::error annotation.\n");
}

static int parse_format(const char *arg, enum check_format *out)
{
	static const char *const names[] = { "text", "json", "junit", "sarif" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(arg, names[i])) {
			*out = i;
			return 0;
		}
	}
	return cmd_error("check", "--format expects text, json, junit or sarif, not '%s'", arg);
}

static int parse_args(int argc, char **argv, struct check_args *a)
{
	static const struct option longopts[] = {
		{ "rules", required_argument, NULL, 'r' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "kernel-groups", no_argument, NULL, 'g' },
		{ "struct", required_argument, NULL, 'C' },
		{ "cacheline-size", required_argument, NULL, 'l' },
		{ "format", required_argument, NULL, 'f' },
		{ "show-passed", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "r:kgC:l:f:ah", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			cmd_add_arg(&a->rules, &a->nr_rules, optarg);
			break;
		case 'k':
			a->kernel = true;
			break;
		case 'g':
			a->kernel_groups = true;
			break;
		case 'C':
			cmd_add_arg(&a->only, &a->nr_only, optarg);
			break;
		case 'a':
			a->show_passed = true;
			break;
		case 'l':
			if (cmd_parse_cacheline_size("check", optarg, &a->cacheline_size))
				return EXIT_BAD_INPUT;
			break;
		case 'f':
			if (parse_format(optarg, &a->format))
				return EXIT_BAD_INPUT;
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind < argc)
		a->target = argv[optind++];
	if (optind < argc)
		return cmd_error("check", "one TARGET only; '%s' is one too many", argv[optind]);
	if (!a->target == !a->kernel)
		return cmd_error("check",
				 "give one TARGET (ELF, BTF or JSON baseline) or --kernel");
	if (!a->nr_rules && !a->kernel_groups)
		return cmd_error("check", "nothing to check: give --rules FILE or --kernel-groups");
	return 0;
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

	if (a->kernel_groups && !a->nr_only)
		return NULL; /* every struct may have groups */
	names = gate_rule_structs(rs);
	while (names[n])
		n++;
	for (i = 0; i < a->nr_only; i++)
		cmd_add_arg(&names, &n, a->only[i]);
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

	ro.target = a->kernel ? "the running kernel's BTF" : a->target;
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
		return cmd_error("check", "this format needs jansson (built without it)");
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
	struct type_load_opts lo = { .source = TYPE_SOURCE_AUTO };
	struct gate_opts go = { .cacheline_size = a->cacheline_size };
	struct type_db *db = NULL;
	struct gate_result res;
	struct c2c_err err = { 0 };
	size_t i;
	int ret;

	for (i = 0; i < a->nr_rules; i++)
		if (ruleset_parse_file(rs, a->rules[i], &err))
			return cmd_report_err("check", &err);
	lo.only = load_filter(rs, a);
	ret = baseline_load_any(a->kernel ? NULL : a->target, &lo, &db, &err);
	free((void *)lo.only);
	if (ret)
		return cmd_report_err("check", &err);
	if (a->kernel_groups && !gate_add_kernel_groups(rs, db, a->only))
		cmd_warn("check", "no __cacheline_group_begin__ markers in %s",
			 a->kernel ? "the kernel's BTF" : a->target);
	if (gate_check(rs, db, &go, &res, &err)) {
		type_db_free(db);
		return cmd_report_err("check", &err);
	}
	ret = report(&res, a, db);
	gate_result_release(&res);
	type_db_free(db);
	return ret;
}

int cmd_check(int argc, char **argv)
{
	struct check_args a = { 0 };
	struct ruleset *rs;
	int ret = parse_args(argc, argv, &a);

	if (ret) {
		free(a.rules);
		free(a.only);
		return ret < 0 ? EXIT_OK : ret;
	}
	rs = ruleset_new();
	ret = run_check(&a, rs);
	ruleset_free(rs);
	free(a.rules);
	free(a.only);
	return ret;
}
