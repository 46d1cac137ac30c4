// SPDX-License-Identifier: GPL-2.0
/* The option table (c2cscope/options.h): parsing, ranges, errors, --help. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cmd.h"
#include "options.h"

struct args {
	bool flag, clear;
	const char *str;
	struct cmd_strlist list;
	uint64_t big;
	unsigned int small;
	int calls;
	const char *last;
};

static int count_cb(const struct cmd_option *opt, const char *arg, void *ctx)
{
	struct args *a = ctx;

	a->calls++;
	a->last = arg;
	if (arg && !strcmp(arg, "bad"))
		return cmd_error("t", "-x does not take 'bad'");
	return 0;
}

static const struct cmd_usage usage = {
	.synopsis = "c2cscope t [-f] [-s STR]\n          [--big N]",
	.description = "A test command.",
	.epilogue = "The end.",
};

static int parse(struct args *a, unsigned int flags, int argc, char **argv)
{
	const struct cmd_option opts[] = {
		OPT_GROUP("Flags"),
		OPT_FLAG('f', "flag", &a->flag, "set a flag"),
		OPT_CLEAR(0, "no-clear", &a->clear, "clear it"),
		OPT_GROUP("Values"),
		OPT_STRING('s', "str", &a->str, "STR", "a string"),
		OPT_STRING_LIST('l', "list", &a->list, "ITEM", "repeatable"),
		OPT_U64(0, "big", &a->big, "N", "a big number", 0, UINT64_MAX),
		OPT_UINT(0, "small", &a->small, "N", "from 1 to 64\nsecond line", 1, 64),
		OPT_CALLBACK('x', "call", "ARG", "a callback", count_cb),
		OPT_CALLBACK_NOARG(0, "a-very-long-option-name", "help on the next line", count_cb),
		OPT_END(),
	};

	return cmd_parse_options("t", &usage, opts, a, argc, argv, flags);
}

/* Run parse with stderr captured into err (NUL-terminated). */
static int parse_capture(struct args *a, unsigned int flags, int argc, char **argv, char *err,
			 size_t size)
{
	FILE *tmp = tmpfile();
	int saved = dup(2), ret;
	size_t n;

	assert_non_null(tmp);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	ret = parse(a, flags, argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(err, 1, size - 1, tmp);
	err[n] = '\0';
	fclose(tmp);
	return ret;
}

static void test_values(void **state)
{
	char *argv[] = { "t",	    "-f", "--no-clear", "-s",	 "hello",
			 "-l",	    "a",  "--list=b",	"--big", "0x10",
			 "--small", "64", "-x",		"y",	 "--a-very-long-option-name",
			 "rest",    NULL };
	struct args a = { .clear = true };
	int argi = parse(&a, 0, 16, argv);

	assert_int_equal(argi, 15);
	assert_true(a.flag);
	assert_false(a.clear);
	assert_string_equal(a.str, "hello");
	assert_int_equal(a.list.nr, 2);
	assert_string_equal(a.list.items[0], "a");
	assert_string_equal(a.list.items[1], "b");
	assert_null(a.list.items[2]);
	assert_int_equal(a.big, 16);
	assert_int_equal(a.small, 64);
	assert_int_equal(a.calls, 2);
	assert_null(a.last);
	free(a.list.items);
}

static void test_stop_at_command(void **state)
{
	char *argv[] = { "t", "-f", "cmd", "-s", "x", NULL };
	struct args a = { 0 };

	assert_int_equal(parse(&a, CMD_PARSE_STOP_AT_NON_OPTION, 5, argv), 2);
	assert_true(a.flag);
	assert_null(a.str);
}

static void expect_error(unsigned int flags, int argc, char **argv, const char *msg)
{
	struct args a = { 0 };
	char err[512];

	assert_int_equal(parse_capture(&a, flags, argc, argv, err, sizeof(err)), CMD_PARSE_ERROR);
	if (!strstr(err, msg))
		fail_msg("expected '%s' in '%s'", msg, err);
	free(a.list.items);
}

static void test_errors(void **state)
{
	char *range[] = { "t", "--small", "65", NULL };
	char *zero[] = { "t", "--small", "0", NULL };
	char *notnum[] = { "t", "--big", "12k", NULL };
	char *neg[] = { "t", "--big", "-1", NULL };
	char *unknown[] = { "t", "--nope", NULL };
	char *unknown_eq[] = { "t", "--nope=3", NULL };
	char *unknown_short[] = { "t", "-q", NULL };
	char *missing[] = { "t", "--str", NULL };
	char *missing_short[] = { "t", "-s", NULL };
	char *extra[] = { "t", "-f", "stray", NULL };
	char *cb[] = { "t", "-x", "bad", NULL };
	char *flag_arg[] = { "t", "--flag=1", NULL };

	expect_error(0, 3, range, "t: --small expects a number from 1 to 64, not '65'");
	expect_error(0, 3, zero, "--small expects a number from 1 to 64, not '0'");
	expect_error(0, 3, notnum, "t: --big expects a number, not '12k'");
	expect_error(0, 3, neg, "--big expects a number, not '-1'");
	expect_error(0, 2, unknown, "t: unknown option '--nope'; see 'c2cscope t --help'");
	expect_error(0, 2, unknown_eq, "unknown option '--nope'");
	expect_error(0, 2, unknown_short, "unknown option '-q'");
	expect_error(0, 2, missing, "t: --str needs an argument");
	expect_error(0, 2, missing_short, "t: -s needs an argument");
	expect_error(CMD_PARSE_NO_ARGS, 3, extra, "t: unexpected argument 'stray'");
	expect_error(0, 3, cb, "-x does not take 'bad'");
	expect_error(0, 2, flag_arg, "unknown option '--flag'");
}

static void test_help(void **state)
{
	char *argv[] = { "t", "-s", "x", "--help", NULL };
	struct args a = { 0 };
	FILE *tmp = tmpfile();
	int saved = dup(1), ret;
	char out[2048];
	size_t n;

	fflush(stdout);
	dup2(fileno(tmp), 1);
	ret = parse(&a, 0, 4, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(tmp);
	n = fread(out, 1, sizeof(out) - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
	assert_int_equal(ret, CMD_PARSE_HELP);
	assert_int_equal(cmd_options_exit(ret), EXIT_OK);
	assert_int_equal(cmd_options_exit(CMD_PARSE_ERROR), EXIT_BAD_INPUT);
	assert_string_equal(out, "usage: c2cscope t [-f] [-s STR]\n"
				 "                 [--big N]\n"
				 "\n"
				 "A test command.\n"
				 "\n"
				 "Flags:\n"
				 "  -f, --flag            set a flag\n"
				 "      --no-clear        clear it\n"
				 "\n"
				 "Values:\n"
				 "  -s, --str STR         a string\n"
				 "  -l, --list ITEM       repeatable\n"
				 "      --big N           a big number\n"
				 "      --small N         from 1 to 64\n"
				 "                        second line\n"
				 "  -x, --call ARG        a callback\n"
				 "      --a-very-long-option-name\n"
				 "                        help on the next line\n"
				 "  -h, --help            this text\n"
				 "\n"
				 "The end.\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_stop_at_command),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
