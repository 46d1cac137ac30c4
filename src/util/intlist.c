// SPDX-License-Identifier: GPL-2.0
/* Lists of numbers and ranges: see intlist.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/intlist.h"
#include "util/xalloc.h"

static void add_int(int **v, size_t *nr, size_t *alloc, int x)
{
	*v = xgrow(*v, alloc, *nr + 1, sizeof(**v));
	(*v)[(*nr)++] = x;
}

int int_list_parse(const char *list, const char *what, int **out, size_t *nr, struct err_msg *err)
{
	const char *p = list;
	size_t alloc = 0;
	char *end;

	*out = NULL;
	*nr = 0;
	while (*p) {
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p || lo < 0)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p || hi < lo || hi - lo > 65536)
				goto bad;
		}
		for (; lo <= hi; lo++)
			add_int(out, nr, &alloc, (int)lo);
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	if (*nr)
		return 0;
bad:
	free(*out);
	*out = NULL;
	*nr = 0;
	return err_set(err, EINVAL, "%s '%s': expected numbers and ranges like 0-3,8", what, list);
}

int cpu_list_read(const char *path, long fallback_nr, int **out, size_t *nr, struct err_msg *err)
{
	char buf[4096] = "";
	FILE *f = fopen(path, "re");

	if (!f || !fgets(buf, sizeof(buf), f))
		snprintf(buf, sizeof(buf), "0-%ld", fallback_nr - 1);
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return int_list_parse(buf, path, out, nr, err);
}
