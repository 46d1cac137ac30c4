// SPDX-License-Identifier: GPL-2.0
/* What every command prints errors and warnings with (cmd.h). */
#include "cmd.h"
#include "options.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/xalloc.h"

/* "c2cscope CMD: [WHAT]MESSAGE\n" on stderr. */
static void say(const char *cmd, const char *what, const char *fmt, va_list ap)
{
	fprintf(stderr, "c2cscope %s: %s", cmd, what);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int cmd_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(cmd, "", fmt, ap);
	va_end(ap);
	return EXIT_BAD_INPUT;
}

int cmd_report_err(const char *cmd, const struct c2c_err *err)
{
	return cmd_error(cmd, "%s", err->msg[0] ? err->msg : "unknown error");
}

void cmd_warn(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(cmd, "warning: ", fmt, ap);
	va_end(ap);
}

int cmd_parse_cacheline_size(const char *cmd, const char *arg, unsigned int *out)
{
	uint64_t v;

	if (cmd_parse_number(cmd, "--cacheline-size", arg, 0, UINT64_MAX, &v))
		return EXIT_BAD_INPUT;
	if (v < 8 || v > 4096 || (v & (v - 1)))
		return cmd_error(
			cmd, "--cacheline-size expects a power of two from 8 to 4096, not %s", arg);
	*out = (unsigned int)v;
	return 0;
}

void cmd_add_arg(const char ***list, size_t *nr, const char *arg)
{
	*list = xrealloc(*list, (*nr + 2) * sizeof(**list));
	(*list)[(*nr)++] = arg;
	(*list)[*nr] = NULL;
}
