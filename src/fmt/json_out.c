// SPDX-License-Identifier: GPL-2.0
#include "fmt/json_out.h"

#ifdef HAVE_JANSSON
#include <errno.h>
#include <stdio.h>
#include <string.h>

int json_out_write(json_t *root, const char *path, struct err_msg *err)
{
	size_t flags = JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10);
	FILE *f = stdout;
	int ret = 0;

	if (strcmp(path, "-")) {
		f = fopen(path, "w");
		if (!f)
			return err_set(err, errno, "%s: cannot write: %s", path, strerror(errno));
	}
	if (json_dumpf(root, f, flags) || fputc('\n', f) == EOF)
		ret = err_set(err, EIO, "%s: writing JSON failed", path);
	if (f != stdout) {
		if (fclose(f) && !ret)
			ret = err_set(err, errno, "%s: %s", path, strerror(errno));
	} else {
		fflush(stdout);
	}
	return ret;
}
#endif
