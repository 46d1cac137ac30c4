// SPDX-License-Identifier: GPL-2.0
/*
 * perf's TRACING_DATA feature read back into libtraceevent: magic,
 * version, endianness, long and page size, header_page, header_event, the
 * ftrace formats, then the event formats by system (the rest, kallsyms
 * and printk formats, is not needed to decode fields). Every length is
 * checked against the section; damage names its offset in the section.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "placement/placement_int.h"

#ifdef HAVE_LIBTRACEEVENT
#include <traceevent/event-parse.h>

struct blob {
	const uint8_t *p;
	size_t len, pos;
	bool bad;
	const char *path;
};

static uint64_t take(struct blob *b, size_t n)
{
	uint64_t v = 0;

	if (b->bad || b->len - b->pos < n) {
		b->bad = true;
		return 0;
	}
	memcpy(&v, b->p + b->pos, n); /* the blob is in the recording host's order */
	b->pos += n;
	return v;
}

static const char *take_string(struct blob *b)
{
	const char *s = (const char *)b->p + b->pos;
	const void *nul = b->bad ? NULL : memchr(s, 0, b->len - b->pos);

	if (!nul) {
		b->bad = true;
		return "";
	}
	b->pos += (size_t)((const char *)nul - s) + 1;
	return s;
}

static const char *take_bytes(struct blob *b, uint64_t n)
{
	const char *s = (const char *)b->p + b->pos;

	if (b->bad || n > b->len - b->pos) {
		b->bad = true;
		return NULL;
	}
	b->pos += n;
	return s;
}

static int damaged(struct blob *b, const char *what, struct err_msg *err)
{
	return err_set(err, EINVAL, "%s: TRACING_DATA at +0x%zx: %s", b->path, b->pos, what);
}

static int parse_header(struct blob *b, struct tep_handle *tep, struct err_msg *err)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const char *m = take_bytes(b, sizeof(magic));
	uint64_t size;
	const char *page;

	if (!m || memcmp(m, magic, sizeof(magic)))
		return damaged(b, "expected the \\027\\010\\104tracing magic", err);
	take_string(b); /* version */
	if (take(b, 1))
		return damaged(b, "a big-endian recording, which this build does not decode", err);
	tep_set_long_size(tep, (int)take(b, 1));
	tep_set_page_size(tep, (int)take(b, 4));
	if (strcmp(take_string(b), "header_page"))
		return damaged(b, "expected header_page", err);
	size = take(b, 8);
	page = take_bytes(b, size);
	if (!page)
		return damaged(b, "header_page runs past the section", err);
	tep_parse_header_page(tep, (char *)page, size, tep_get_long_size(tep));
	if (strcmp(take_string(b), "header_event"))
		return damaged(b, "expected header_event", err);
	if (!take_bytes(b, take(b, 8)))
		return damaged(b, "header_event runs past the section", err);
	return 0;
}

/*
 * Only the name, id and fields of a format: the model reads fields, and
 * libtraceevent's print-fmt parser crashes on some damaged expressions
 * (found by flipping bytes), so that part is replaced by an empty one.
 */
/*
 * libtraceevent trusts its input: an unclosed '[' in a field line makes it
 * crash (found by flipping bytes). So a format is checked first: printable
 * text, and each field line "field:DECL;<tab>offset:N;<tab>size:N;..." with
 * its brackets balanced.
 */
static bool format_plausible(const char *text, size_t len)
{
	const char *line = text, *end = text + len;
	size_t i;

	for (i = 0; i < len; i++)
		if ((text[i] < 0x20 || text[i] > 0x7e) && text[i] != '\n' && text[i] != '\t')
			return false;
	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
		int depth = 0;

		if (memmem(line, n, "field:", 6)) {
			for (i = 0; i < n && depth >= 0; i++)
				depth += line[i] == '[' ? 1 : line[i] == ']' ? -1 : 0;
			if (depth || !memmem(line, n, ";\toffset:", 9) ||
			    !memmem(line, n, ";\tsize:", 7))
				return false;
		}
		line += n + 1;
	}
	return true;
}

static int parse_fields_only(struct tep_handle *tep, const char *fmt, uint64_t size,
			     const char *sys)
{
	struct strbuf copy = STRBUF_INIT;
	const char *print;
	int ret;

	if (!format_plausible(fmt, size))
		return -EINVAL;
	strbuf_add(&copy, fmt, size);
	print = strstr(copy.buf, "\nprint fmt:");
	if (print)
		strbuf_setlen(&copy, (size_t)(print - copy.buf) + 1);
	strbuf_addstr(&copy, "print fmt: \"\"\n");
	ret = tep_parse_event(tep, copy.buf, copy.len, sys) ? -EINVAL : 0;
	strbuf_release(&copy);
	return ret;
}

static int parse_formats(struct blob *b, struct tep_handle *tep, const char *sys,
			 struct err_msg *err)
{
	uint64_t count = take(b, 4), i;

	for (i = 0; i < count && !b->bad; i++) {
		uint64_t size = take(b, 8);
		const char *fmt = take_bytes(b, size);

		if (!fmt)
			return damaged(b, "a format runs past the section", err);
		if (parse_fields_only(tep, fmt, size, sys))
			return damaged(b, "libtraceevent cannot parse this format", err);
	}
	return b->bad ? damaged(b, "the section ends inside a format list", err) : 0;
}

int placement_tracing_blob_parse(const void *data, size_t size, const char *path,
				 struct tep_handle **out, struct err_msg *err)
{
	struct blob b = { .p = data, .len = size, .path = path };
	struct tep_handle *tep = tep_alloc();
	uint64_t systems, i;
	int ret;

	if (!tep)
		return err_set(err, ENOMEM, "out of memory");
	ret = parse_header(&b, tep, err);
	if (!ret)
		ret = parse_formats(&b, tep, "ftrace", err);
	systems = ret ? 0 : take(&b, 4);
	for (i = 0; i < systems && !ret; i++) {
		const char *sys = take_string(&b);

		ret = b.bad ? damaged(&b, "expected a system name", err) :
			      parse_formats(&b, tep, sys, err);
	}
	if (ret) {
		tep_free(tep);
		return ret;
	}
	*out = tep;
	return 0;
}
#else
int placement_tracing_blob_parse(const void *data, size_t size, const char *path,
				 struct tep_handle **out, struct err_msg *err)
{
	return err_set(err, ENOSYS,
		       "%s: decoding sched tracepoints needs libtraceevent, "
		       "which this build lacks",
		       path);
}
#endif
