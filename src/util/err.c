// SPDX-License-Identifier: GPL-2.0
#include "util/err.h"

#include <stdio.h>

int err_vset(struct err_msg *err, int code, const char *fmt, va_list ap)
{
	if (err) {
		err->code = code;
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	}
	return -code;
}

int err_set(struct err_msg *err, int code, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = err_vset(err, code, fmt, ap);
	va_end(ap);
	return ret;
}

void err_clear(struct err_msg *err)
{
	if (err) {
		err->code = 0;
		err->msg[0] = '\0';
	}
}
