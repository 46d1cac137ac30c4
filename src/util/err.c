// SPDX-License-Identifier: GPL-2.0
#include "util/err.h"

#include <stdio.h>

int c2c_err_vset(struct c2c_err *err, int code, const char *fmt, va_list ap)
{
	if (err) {
		err->code = code;
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	}
	return -code;
}

int c2c_err_set(struct c2c_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = c2c_err_vset(err, code, fmt, ap);
	va_end(ap);
	return ret;
}

void c2c_err_clear(struct c2c_err *err)
{
	if (err) {
		err->code = 0;
		err->msg[0] = '\0';
	}
}
