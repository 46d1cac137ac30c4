// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope: find the cache lines cores fight over, name the fields, propose
 * a better layout and guard it in CI. This file only dispatches.
 */
#include "config.h"
#include "cmd.h"

#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "record", cmd_record, "record memory samples (PMU or the c2csim simulator) into perf.data" },
	{ "report", cmd_report, "cache-line contention report from perf.data (stdio, JSON)" },
	{ "layout", cmd_layout, "pahole-style struct layouts from DWARF or BTF, with heat" },
	{ "suggest", cmd_suggest, "propose re-layouts that separate write-hot fields" },
	{ "check", cmd_check, "verify layout rules (exit 1 on violation) for CI" },
	{ "diff", cmd_diff, "compare struct layouts between two builds or a baseline" },
	{ "watch", cmd_watch, "exact access traces of named fields from hardware breakpoints" },
	{ "demo", cmd_demo, "the whole story on the bundled scheduler-core sample" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: c2cscope [--version] [--help] COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'c2cscope COMMAND --help' or 'man c2cscope-COMMAND' for details.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("c2cscope %s\n", PACKAGE_VERSION);
		return EXIT_OK;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (!strcmp(argv[1], commands[i].name)) {
			return commands[i].fn(argc - 1, argv + 1);
		}
	}
	fprintf(stderr, "c2cscope: '%s' is not a command; see 'c2cscope --help'\n", argv[1]);
	return EXIT_BAD_INPUT;
}
