/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strbuf: a growable, always NUL-terminated string (after git's strbuf).
 * Used everywhere instead of snprintf into fixed buffers.
 */
#ifndef C2C_UTIL_STRBUF_H
#define C2C_UTIL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

struct strbuf {
	char *buf; /* never NULL after strbuf_init: "" when empty */
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { .buf = strbuf_empty, .len = 0, .alloc = 0 }
extern char strbuf_empty[];

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
/* Hand the buffer to the caller (malloc'd, caller frees); sb is reset. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_reset(struct strbuf *sb);
void strbuf_setlen(struct strbuf *sb, size_t len);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addchars(struct strbuf *sb, int c, size_t n);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Pad with spaces (or truncate nothing) until the visible length is col. */
void strbuf_pad_to(struct strbuf *sb, size_t start, size_t col);
/*
 * s as XML or HTML text or attribute value: & < > " ' escaped, control
 * characters other than newline and tab dropped (XML 1.0 has no place
 * for them). The one escaper of the JUnit and HTML writers.
 */
void strbuf_add_xml(struct strbuf *sb, const char *s);

#endif
