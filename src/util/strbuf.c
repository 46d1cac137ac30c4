// SPDX-License-Identifier: GPL-2.0
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

char strbuf_empty[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->buf = strbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;

	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need <= sb->alloc)
		return;
	if (!sb->alloc)
		sb->buf = NULL;
	sb->alloc = sb->alloc ? sb->alloc * 2 : 64;
	if (sb->alloc < need)
		sb->alloc = need;
	sb->buf = xrealloc(sb->buf, sb->alloc);
	if (!sb->len)
		sb->buf[0] = '\0';
}

void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc)
		return;
	sb->len = len;
	sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_addchars(struct strbuf *sb, int c, size_t n)
{
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

/* One vsnprintf pass when the text fits in the space already there. */
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	size_t avail;
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	avail = sb->alloc - sb->len;
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, avail, fmt, cp);
	va_end(cp);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n >= avail) {
		strbuf_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_pad_to(struct strbuf *sb, size_t start, size_t col)
{
	size_t used = sb->len - start;

	if (used < col)
		strbuf_addchars(sb, ' ', col - used);
}

/* XML's predefined entities, by the character they stand for. */
static const char *const xml_entities[UCHAR_MAX + 1] = {
	['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&apos;",
};

void strbuf_add_xml(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;

		if (xml_entities[c])
			strbuf_addstr(sb, xml_entities[c]);
		else if (c >= 0x20 || c == '\n' || c == '\t')
			strbuf_addch(sb, c);
	}
}
