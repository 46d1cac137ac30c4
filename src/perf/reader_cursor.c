// SPDX-License-Identifier: GPL-2.0
/* Bounds-checked reading of records and sections, and reader warnings. */
#include <stdarg.h>

#include "perf/reader_int.h"
#include "util/xalloc.h"

char *reader_cursor_string(struct cursor *c)
{
	uint32_t len = cursor_u32(c);
	const char *s = cursor_bytes(c, len);

	if (!s)
		return NULL;
	return xstrndup(s, strnlen(s, len));
}

uint64_t reader_cursor_offset(const struct cursor *c)
{
	return c->off + c->pos;
}

void reader_warn(struct perf_reader *r, const char *fmt, ...)
{
	va_list ap;

	if (r->warnings.len > 64 * 1024)
		return; /* enough said */
	va_start(ap, fmt);
	strbuf_vaddf(&r->warnings, fmt, ap);
	va_end(ap);
	strbuf_addch(&r->warnings, '\n');
}
