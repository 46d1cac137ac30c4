/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error reports. Engine functions never print: they return a negative errno
 * and, when the caller passed a struct err_msg, describe what went wrong in
 * words the command layer can show as is: "FILE: at 0x1f3a8: size 4 is
 * smaller than its header". Warnings (damage that was read around) are
 * collected the same way and shown by the command layer.
 */
#ifndef C2C_UTIL_ERR_H
#define C2C_UTIL_ERR_H

#include <stdarg.h>

struct err_msg {
	int code; /* positive errno of the first error */
	char msg[1024];
};

/* Fill err (when not NULL) and return -code. */
int err_set(struct err_msg *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int err_vset(struct err_msg *err, int code, const char *fmt, va_list ap);
void err_clear(struct err_msg *err);

/* Exit codes shared by all commands. */
enum {
	EXIT_OK = 0,
	EXIT_CHECK_FAILED = 1,
	EXIT_BAD_INPUT = 2,
};

#endif
