// SPDX-License-Identifier: GPL-2.0
/* Bounds-checked reading of records and sections, and reader warnings. */
#include <stdarg.h>

#include "perf/reader_int.h"
#include "util/xalloc.h"

void cursor_init(struct cursor *c, const void *p, size_t len, uint64_t off, bool swap)
{
	c->p = p;
	c->len = len;
	c->pos = 0;
	c->off = off;
	c->swap = swap;
	c->bad = false;
}

bool cursor_has(struct cursor *c, size_t n)
{
	if (c->bad || c->len - c->pos < n) {
		c->bad = true;
		return false;
	}
	return true;
}

uint32_t cursor_u32(struct cursor *c)
{
	uint32_t v;

	if (!cursor_has(c, 4))
		return 0;
	v = rd32(c->p + c->pos, c->swap);
	c->pos += 4;
	return v;
}

uint64_t cursor_u64(struct cursor *c)
{
	uint64_t v;

	if (!cursor_has(c, 8))
		return 0;
	v = rd64(c->p + c->pos, c->swap);
	c->pos += 8;
	return v;
}

const void *cursor_bytes(struct cursor *c, size_t n)
{
	const void *p;

	if (!cursor_has(c, n))
		return NULL;
	p = c->p + c->pos;
	c->pos += n;
	return p;
}

char *cursor_string(struct cursor *c)
{
	uint32_t len = cursor_u32(c);
	const char *s = cursor_bytes(c, len);

	if (!s)
		return NULL;
	return xstrndup(s, strnlen(s, len));
}

uint64_t cursor_offset(const struct cursor *c)
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
