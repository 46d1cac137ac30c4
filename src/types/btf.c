// SPDX-License-Identifier: GPL-2.0
#include <errno.h>

#include "types/types_internal.h"

int type_db_load_btf(const char *path, const struct type_load_opts *opts, struct type_db **out,
		     struct c2c_err *err)
{
	return c2c_err_set(err, ENOSYS, "%s: the BTF loader is not built yet", path);
}
