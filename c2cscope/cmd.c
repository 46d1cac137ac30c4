// SPDX-License-Identifier: GPL-2.0
/* What every command prints errors and warnings with (cmd.h). */
#include "cmd.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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

int cmd_report_err(const char *cmd, const struct err_msg *err)
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
