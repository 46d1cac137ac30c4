// SPDX-License-Identifier: GPL-2.0
#include "cmd.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int cmd_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "c2cscope %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_BAD_INPUT;
}

int cmd_report_err(const char *cmd, const struct c2c_err *err)
{
	return cmd_error(cmd, "%s", err->msg[0] ? err->msg : "unknown error");
}

void cmd_warn(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "c2cscope %s: warning: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cmd_parse_u64(const char *cmd, const char *opt, const char *arg, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || arg[0] == '-') {
		cmd_error(cmd, "%s expects a number, not '%s'", opt, arg);
		return -1;
	}
	*out = v;
	return 0;
}

void cmd_getopt_reset(void)
{
	optind = 0; /* glibc: 0 also re-initialises getopt's internal state */
	opterr = 1;
}
