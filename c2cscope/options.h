/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One option table for every command, in the spirit of git's
 * parse-options and perf's OPT_*: a command declares each option once,
 * with its help text; the table parses argv, range-checks numbers, prints
 * --help and words every error the same way. getopt_long is called here
 * and nowhere else.
 *
 *	static const struct cmd_usage usage = {
 *		.synopsis = "c2cscope report [-i FILE] [--stdio] [--json FILE|-]",
 *	};
 *	const struct cmd_option opts[] = {
 *		OPT_STRING('i', "input", &a.path, "FILE", "perf.data to read"),
 *		OPT_FLAG(0, "stdio", &a.stdio, "text report"),
 *		OPT_UINT(0, "threads", &a.threads, "N", "aggregate on N threads", 1, 64),
 *		OPT_END(),
 *	};
 *	int argi = cmd_parse_options("report", &usage, opts, &a, argc, argv, CMD_PARSE_NO_ARGS);
 *
 *	if (argi < 0)
 *		return cmd_options_exit(argi);
 */
#ifndef C2C_OPTIONS_H
#define C2C_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum cmd_opt_type {
	CMD_OPT_END,
	CMD_OPT_GROUP, /* a heading in --help, no option */
	CMD_OPT_FLAG, /* bool = true */
	CMD_OPT_CLEAR, /* bool = false */
	CMD_OPT_STRING, /* const char * = arg */
	CMD_OPT_STRING_LIST, /* struct cmd_strlist += arg */
	CMD_OPT_U64, /* uint64_t, range-checked */
	CMD_OPT_UINT, /* unsigned int, range-checked */
	CMD_OPT_CALLBACK, /* callback(opt, arg, ctx); arg NULL if no argument */
};

struct cmd_option;

/*
 * Returns 0, or an exit code after printing an error (cmd_error() wording).
 * ctx is the pointer given to cmd_parse_options().
 */
typedef int (*cmd_opt_cb)(const struct cmd_option *opt, const char *arg, void *ctx);

struct cmd_option {
	enum cmd_opt_type type;
	int short_name; /* 0: none */
	const char *long_name; /* NULL: none */
	void *value; /* what the option sets (not for callbacks) */
	const char *argh; /* the argument's name in --help; NULL: no argument */
	const char *help; /* may hold '\n' for more lines */
	uint64_t min, max; /* numbers: the inclusive range */
	cmd_opt_cb callback;
	const void *data; /* for the callback's own use */
};

/* A repeatable option's arguments, NULL-terminated. */
struct cmd_strlist {
	const char **items;
	size_t nr;
};

#define OPT_END()                   \
	{                           \
		.type = CMD_OPT_END \
	}
#define OPT_GROUP(title)                               \
	{                                              \
		.type = CMD_OPT_GROUP, .help = (title) \
	}
#define OPT_FLAG(s, l, v, h)                                                             \
	{                                                                                \
		.type = CMD_OPT_FLAG, .short_name = (s), .long_name = (l), .value = (v), \
		.help = (h)                                                              \
	}
#define OPT_CLEAR(s, l, v, h)                                                             \
	{                                                                                 \
		.type = CMD_OPT_CLEAR, .short_name = (s), .long_name = (l), .value = (v), \
		.help = (h)                                                               \
	}
#define OPT_STRING(s, l, v, a, h)                                                          \
	{                                                                                  \
		.type = CMD_OPT_STRING, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h)                                                   \
	}
#define OPT_STRING_LIST(s, l, v, a, h)                                                          \
	{                                                                                       \
		.type = CMD_OPT_STRING_LIST, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h)                                                        \
	}
#define OPT_U64(s, l, v, a, h, lo, hi)                                                  \
	{                                                                               \
		.type = CMD_OPT_U64, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h), .min = (lo), .max = (hi)                      \
	}
#define OPT_UINT(s, l, v, a, h, lo, hi)                                                  \
	{                                                                                \
		.type = CMD_OPT_UINT, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h), .min = (lo), .max = (hi)                       \
	}
#define OPT_CALLBACK(s, l, a, h, fn)                                                        \
	{                                                                                   \
		.type = CMD_OPT_CALLBACK, .short_name = (s), .long_name = (l), .argh = (a), \
		.help = (h), .callback = (fn)                                               \
	}
#define OPT_CALLBACK_NOARG(s, l, h, fn) OPT_CALLBACK(s, l, NULL, h, fn)

struct cmd_usage {
	const char *synopsis; /* after "usage: "; '\n' starts a continuation line */
	const char *description; /* optional paragraph after the synopsis */
	const char *epilogue; /* optional text after the options */
};

enum {
	/* stop at the first non-option argument (a command to run follows) */
	CMD_PARSE_STOP_AT_NON_OPTION = 1 << 0,
	/* no non-option argument is allowed: "unexpected argument 'x'" */
	CMD_PARSE_NO_ARGS = 1 << 1,
};

enum {
	CMD_PARSE_HELP = -1, /* --help was printed to stdout: exit 0 */
	CMD_PARSE_ERROR = -2, /* an error was printed to stderr: exit 2 */
};

/*
 * Parse argv (argv[0] is the command's name) against opts. -h/--help is
 * always known. Returns the index of the first non-option argument, or
 * CMD_PARSE_HELP / CMD_PARSE_ERROR.
 */
int cmd_parse_options(const char *cmd, const struct cmd_usage *usage, const struct cmd_option *opts,
		      void *ctx, int argc, char **argv, unsigned int flags);

/* The exit code for a negative cmd_parse_options() result. */
int cmd_options_exit(int parse_result);

/* The generated --help text. */
void cmd_usage_print(FILE *out, const struct cmd_usage *usage, const struct cmd_option *opts);

/*
 * A number for option NAME: decimal or 0x hex, in [lo, hi]. On error
 * prints "NAME expects a number[ from LO to HI], not 'ARG'" and returns -1.
 */
int cmd_parse_number(const char *cmd, const char *name, const char *arg, uint64_t lo, uint64_t hi,
		     uint64_t *out);

/* Append ARG to a NULL-terminated list of *nr strings (repeatable options). */
void cmd_add_arg(const char ***list, size_t *nr, const char *arg);

/* "--long" or "-s": how messages name an option. */
const char *cmd_option_name(const struct cmd_option *opt, char buf[64]);

#endif
