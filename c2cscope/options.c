// SPDX-License-Identifier: GPL-2.0
/*
 * The option table behind every command (options.h): one getopt_long loop,
 * generated --help, one wording for every option error.
 */
#include "options.h"
#include "cmd.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

/* getopt_long's value for option i of the table when it has no short name */
#define LONG_ONLY_BASE 256
#define HELP_COLUMN 24

static size_t count_options(const struct cmd_option *opts)
{
	size_t n = 0;

	while (opts[n].type != CMD_OPT_END)
		n++;
	return n;
}

static bool takes_arg(const struct cmd_option *o)
{
	return o->argh != NULL;
}

const char *cmd_option_name(const struct cmd_option *opt, char buf[64])
{
	if (opt->long_name)
		snprintf(buf, 64, "--%s", opt->long_name);
	else
		snprintf(buf, 64, "-%c", opt->short_name);
	return buf;
}

int cmd_parse_number(const char *cmd, const char *name, const char *arg, uint64_t lo, uint64_t hi,
		     uint64_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || arg[0] == '-' || v < lo || v > hi) {
		if (lo == 0 && hi == UINT64_MAX)
			cmd_error(cmd, "%s expects a number, not '%s'", name, arg);
		else
			cmd_error(cmd, "%s expects a number from %llu to %llu, not '%s'", name,
				  (unsigned long long)lo, (unsigned long long)hi, arg);
		return -1;
	}
	*out = v;
	return 0;
}

/* Set what option o stands for from its argument; 0 or an exit code. */
static int apply(const char *cmd, const struct cmd_option *o, const char *arg, void *ctx)
{
	char name[64];
	uint64_t v;

	switch (o->type) {
	case CMD_OPT_FLAG:
		*(bool *)o->value = true;
		return 0;
	case CMD_OPT_CLEAR:
		*(bool *)o->value = false;
		return 0;
	case CMD_OPT_STRING:
		*(const char **)o->value = arg;
		return 0;
	case CMD_OPT_STRING_LIST: {
		struct cmd_strlist *l = o->value;

		cmd_add_arg(&l->items, &l->nr, arg);
		return 0;
	}
	case CMD_OPT_U64:
	case CMD_OPT_UINT:
		if (cmd_parse_number(cmd, cmd_option_name(o, name), arg, o->min, o->max, &v))
			return EXIT_BAD_INPUT;
		if (o->type == CMD_OPT_U64)
			*(uint64_t *)o->value = v;
		else
			*(unsigned int *)o->value = (unsigned int)v;
		return 0;
	case CMD_OPT_CALLBACK:
		return o->callback(o, arg, ctx);
	default:
		return 0;
	}
}

struct getopt_tables {
	struct option *longopts;
	struct strbuf shortopts;
};

static void build_tables(const struct cmd_option *opts, size_t n, unsigned int flags,
			 struct getopt_tables *t)
{
	size_t i, nl = 0;

	t->longopts = xcalloc(n + 2, sizeof(*t->longopts));
	strbuf_init(&t->shortopts, 64);
	/* '+': stop at the first non-option; ':': report a missing argument as ':' */
	strbuf_addstr(&t->shortopts, flags & CMD_PARSE_STOP_AT_NON_OPTION ? "+:h" : ":h");
	for (i = 0; i < n; i++) {
		const struct cmd_option *o = &opts[i];
		int val = o->short_name ? o->short_name : (int)(LONG_ONLY_BASE + i);

		if (o->type == CMD_OPT_GROUP)
			continue;
		if (o->short_name)
			strbuf_addf(&t->shortopts, "%c%s", o->short_name, takes_arg(o) ? ":" : "");
		if (o->long_name)
			t->longopts[nl++] =
				(struct option){ o->long_name,
						 takes_arg(o) ? required_argument : no_argument,
						 NULL, val };
	}
	t->longopts[nl] = (struct option){ "help", no_argument, NULL, 'h' };
}

static const struct cmd_option *find_option(const struct cmd_option *opts, size_t n, int val)
{
	size_t i;

	if (val >= LONG_ONLY_BASE && (size_t)(val - LONG_ONLY_BASE) < n)
		return &opts[val - LONG_ONLY_BASE];
	for (i = 0; i < n; i++)
		if (opts[i].type != CMD_OPT_GROUP && opts[i].short_name == val)
			return &opts[i];
	return NULL;
}

/* The option text as the user typed it, for an error about it. */
static const char *typed_option(char **argv, char buf[64])
{
	const char *typed = argv[optind - 1];

	if (optopt && optopt < LONG_ONLY_BASE && (typed[0] != '-' || typed[1] != '-'))
		snprintf(buf, 64, "-%c", optopt);
	else
		snprintf(buf, 64, "%.*s", (int)strcspn(typed, "="), typed);
	return buf;
}

static int parse_error(const char *cmd, int c, char **argv)
{
	char typed[64];

	if (c == ':')
		cmd_error(cmd, "%s needs an argument; see 'c2cscope %s --help'",
			  typed_option(argv, typed), cmd);
	else
		cmd_error(cmd, "unknown option '%s'; see 'c2cscope %s --help'",
			  typed_option(argv, typed), cmd);
	return CMD_PARSE_ERROR;
}

int cmd_parse_options(const char *cmd, const struct cmd_usage *usage, const struct cmd_option *opts,
		      void *ctx, int argc, char **argv, unsigned int flags)
{
	size_t n = count_options(opts);
	struct getopt_tables t;
	int c, ret = 0;

	build_tables(opts, n, flags, &t);
	optind = 0; /* glibc: 0 also re-initialises getopt's internal state */
	opterr = 0;
	while (!ret && (c = getopt_long(argc, argv, t.shortopts.buf, t.longopts, NULL)) != -1) {
		const struct cmd_option *o = find_option(opts, n, c);

		if (c == 'h' && !o) {
			cmd_usage_print(stdout, usage, opts);
			ret = CMD_PARSE_HELP;
		} else if (c == '?' || c == ':' || !o) {
			ret = parse_error(cmd, c, argv);
		} else if (apply(cmd, o, optarg, ctx)) {
			ret = CMD_PARSE_ERROR;
		}
	}
	free(t.longopts);
	strbuf_release(&t.shortopts);
	if (ret)
		return ret;
	if ((flags & CMD_PARSE_NO_ARGS) && optind < argc) {
		cmd_error(cmd, "unexpected argument '%s'; see 'c2cscope %s --help'", argv[optind],
			  cmd);
		return CMD_PARSE_ERROR;
	}
	return optind;
}

int cmd_options_exit(int parse_result)
{
	return parse_result == CMD_PARSE_HELP ? EXIT_OK : EXIT_BAD_INPUT;
}

/* "  -i, --input FILE" */
static void option_words(const struct cmd_option *o, struct strbuf *sb)
{
	strbuf_addstr(sb, "  ");
	if (o->short_name)
		strbuf_addf(sb, "-%c%s", o->short_name, o->long_name ? ", " : "");
	else
		strbuf_addstr(sb, "    ");
	if (o->long_name)
		strbuf_addf(sb, "--%s", o->long_name);
	if (o->argh)
		strbuf_addf(sb, " %s", o->argh);
}

/* Help text at HELP_COLUMN, each further line indented to it. */
static void print_help(FILE *out, size_t used, const char *help)
{
	const char *p = help ? help : "";

	if (used + 1 >= HELP_COLUMN) {
		fputc('\n', out);
		used = 0;
	}
	for (;;) {
		size_t len = strcspn(p, "\n");

		fprintf(out, "%*s%.*s\n", (int)(HELP_COLUMN - used), "", (int)len, p);
		if (!p[len])
			break;
		p += len + 1;
		used = 0;
	}
}

static void print_synopsis(FILE *out, const char *synopsis)
{
	const char *p = synopsis;

	fputs("usage: ", out);
	for (;;) {
		size_t len = strcspn(p, "\n");

		fprintf(out, "%.*s\n", (int)len, p);
		if (!p[len])
			break;
		p += len + 1;
		fputs("       ", out);
	}
}

void cmd_usage_print(FILE *out, const struct cmd_usage *usage, const struct cmd_option *opts)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	print_synopsis(out, usage->synopsis);
	if (usage->description)
		fprintf(out, "\n%s\n", usage->description);
	fputc('\n', out);
	for (i = 0; opts[i].type != CMD_OPT_END; i++) {
		if (opts[i].type == CMD_OPT_GROUP) {
			fprintf(out, "%s%s:\n", i ? "\n" : "", opts[i].help);
			continue;
		}
		strbuf_reset(&sb);
		option_words(&opts[i], &sb);
		fputs(sb.buf, out);
		print_help(out, sb.len, opts[i].help);
	}
	fprintf(out, "  -h, --help            this text\n");
	if (usage->epilogue)
		fprintf(out, "\n%s\n", usage->epilogue);
	strbuf_release(&sb);
}

void cmd_add_arg(const char ***list, size_t *nr, const char *arg)
{
	*list = xrealloc(*list, (*nr + 2) * sizeof(**list));
	(*list)[(*nr)++] = arg;
	(*list)[*nr] = NULL;
}
