/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the libFuzzer targets share: the input as a file (most parsers take
 * a path, as the command line gives them) and a synthetic struct for the
 * parsers that read a file about one struct (hotness files, the C source
 * behind --patch). Inputs go to a private folder under $TMPDIR (or /tmp),
 * rewritten for each run.
 */
#ifndef C2C_TESTS_FUZZ_COMMON_H
#define C2C_TESTS_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "layout/layout.h"
#include "types/types.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A folder of this process's own, made once. */
static inline const char *fuzz_dir(void)
{
	static char dir[256];

	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/c2c-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(dir))
			abort();
	}
	return dir;
}

/* DATA written to fuzz_dir()/NAME; the path (static storage). */
static inline const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fuzz_dir(), name);
	f = fopen(path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		abort();
	return path;
}

/* The input as a NUL-terminated string (the caller frees it). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = 0;
	return s;
}

/* An identifier at s (up to len bytes), copied to out; its length. */
static inline size_t fuzz_ident(const char *s, size_t len, char *out, size_t out_len)
{
	size_t n = 0;

	while (n < len && n + 1 < out_len &&
	       (s[n] == '_' || (s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
		(n && s[n] >= '0' && s[n] <= '9'))) {
		out[n] = s[n];
		n++;
	}
	out[n] = 0;
	return n;
}

/*
 * A struct named after the first "struct NAME" in text (else "fz"),
 * declared at that line of decl_file, whose int members are named after
 * the first word of up to 32 lines of text (else a, b, c, d): so the
 * parsers find what the input names and go deeper than "unknown field".
 */
static inline const struct type *fuzz_struct(struct type_db *db, const char *text,
					     const char *decl_file)
{
	struct type *base = type_db_add(db, TYPE_BASE, "int"), *t;
	const char *names[32], *p = strstr(text, "struct "), *line;
	struct type_member *m;
	uint32_t n = 0, i, decl_line = 1;
	char word[64];

	base->size = 4;
	base->encoding = BASE_SIGNED;
	if (p && fuzz_ident(p + 7, strlen(p + 7), word, sizeof(word)))
		t = type_db_add(db, TYPE_STRUCT, word);
	else
		t = type_db_add(db, TYPE_STRUCT, "fz");
	for (line = text; p && line < p; line++)
		decl_line += *line == '\n';
	for (line = text; line && *line && n < 32;) {
		while (*line == ' ' || *line == '\t')
			line++;
		if (fuzz_ident(line, strlen(line), word, sizeof(word)) && strcmp(word, "struct"))
			names[n++] = type_db_intern(db, word);
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	if (!n) {
		static const char *const fallback[] = { "a", "b", "c", "d" };

		for (; n < 4; n++)
			names[n] = fallback[n];
	}
	t->size = 4 * n;
	t->decl_file = type_db_intern(db, decl_file);
	t->decl_line = decl_line;
	m = type_db_add_members(db, t, n);
	for (i = 0; i < n; i++) {
		m[i].name = type_db_intern(db, names[i]);
		m[i].type = base;
		m[i].offset = 4 * i;
		m[i].bit_offset = 32 * i;
	}
	type_db_finish(db);
	return t;
}

/* The layout of each struct of db (the first 64), then db freed. */
static inline void fuzz_layout_all(struct type_db *db)
{
	struct err_msg err;
	size_t i;

	for (i = 0; i < type_db_nr_structs(db) && i < 64; i++) {
		struct layout *l;

		if (layout_analyze(type_db_struct(db, i), 64, &l, &err) == 0)
			layout_free(l);
	}
	type_db_free(db);
}

#endif
